"""Legality of Sekigahara scenarios: static checks of a set-up on the measured table."""

from __future__ import annotations

from typing import Any

from pipeline.measured.data import Loaded
from pipeline.measured.legality import Finding, LegalityRule, rules
from pipeline.play.judge import PLAY_RULES
from pipeline.systems.sekigahara.data import UNDECIDED, SekiData
from pipeline.systems.sekigahara.rules import ENGINE_RULES

RULES: dict[str, LegalityRule] = rules(
    LegalityRule("seki-known-side", "Every unit and deployment area belongs to one of the two armies or to the undecided contingent.", "gunbai", "Scenario format"),
    LegalityRule("seki-known-unit", "Every unit is a unit type of units.yaml.", "gunbai", "Scenario format"),
    LegalityRule("seki-unique-unit-id", "Every unit of a scenario has its own id.", "gunbai", "Scenario format"),
    LegalityRule("seki-known-deployment", "A unit sets up in a deployment area of its own side.", "gunbai", "Scenario format"),
    LegalityRule("seki-inside-deployment", "A unit's stands stand wholly inside its deployment area.", "gunbai", "Scenario layout"),
    LegalityRule("seki-on-table", "Every unit, terrain feature and deployment area lies on the table.", "gunbai", "Table"),
    LegalityRule("seki-no-overlap", "No two units' stands overlap.", "reluctant_samurai", "Movement; Charge into Melee (units meet only by charging into contact)"),
    LegalityRule("seki-two-stands", "Every unit starts with at least 2 stands (a unit reduced to one stand is removed at once).", "reluctant_samurai", "Remove the Last Stand"),
    LegalityRule("seki-commander", "Each army's commander leads one of its units, and no other unit's leader is a commander.", "reluctant_samurai", "Movement (Commanders may move up to 12\"); Leaders"),
    LegalityRule("seki-undecided", "Kobayakawa's contingent starts undecided: the undecided units are the contingent, one of them led by its leader, and no other unit is undecided.", "reluctant_samurai", "Treachery Die Roll"),
    LegalityRule("seki-turn-limit", "The scenario lasts the system's turn limit.", "gunbai", "Turn limit"),
)
RULES.update(PLAY_RULES)  # the rules of play every system shares (gunbai verify --play)
RULES.update(ENGINE_RULES)


def explain(rule_id: str) -> str:
    from pipeline.measured.legality import explain as ex

    return ex(RULES, rule_id)


def verify_all(data: SekiData) -> list[Finding]:
    out: list[Finding] = []
    for loaded in data.scenarios:
        out.extend(verify_scenario(data, loaded))
    return out


def verify_scenario(data: SekiData, loaded: Loaded) -> list[Finding]:
    sc = loaded.model
    doc = loaded.doc
    findings: list[Finding] = []

    def find(loc: tuple[Any, ...], unit: str | None, rule: str, message: str) -> None:
        findings.append(Finding(loaded.path, doc.line_of(loc), sc.code, unit, RULES[rule], message))

    table = data.system.table.rect()
    sides = [s.id for s in sc.sides] + [UNDECIDED]
    if sc.turns != data.system.turns.limit:
        find(("turns",), None, "seki-turn-limit", f"turns is {sc.turns}; the system's limit is {data.system.turns.limit}")
    for i, tp in enumerate(sc.terrain):
        if tp.area is not None and not table.contains_rect(tp.area.rect()):
            find(("terrain", i, "area"), None, "seki-on-table", f"{tp.name or tp.terrain} is off the table")
        for j, p in enumerate(tp.path or []):
            if not table.contains_point(p):
                find(("terrain", i, "path", j), None, "seki-on-table", f"{tp.name or tp.terrain}: point [{p[0]:g}, {p[1]:g}] is off the table")
    deps = {}
    for i, dp in enumerate(sc.deployments):
        deps[dp.id] = dp
        if dp.side not in sides:
            find(("deployments", i, "side"), None, "seki-known-side", f"deployment area {dp.id!r} belongs to unknown side {dp.side!r}")
        if not table.contains_rect(dp.area.rect()):
            find(("deployments", i, "area"), None, "seki-on-table", f"deployment area {dp.id!r} is off the table")
    placed: list = []
    seen: set[str] = set()
    commanders = {s.id: 0 for s in sc.sides}
    side_commander = {s.id: s.commander for s in sc.sides}
    undecided_leader = False
    for i, up in enumerate(sc.units):
        loc = ("units", i)
        if up.id in seen:
            find(loc + ("id",), up.id, "seki-unique-unit-id", f"unit id {up.id!r} is used twice")
        seen.add(up.id)
        if up.side not in sides:
            find(loc + ("side",), up.id, "seki-known-side", f"side {up.side!r} is neither army nor {UNDECIDED!r}")
        ut = data.units.get(up.unit)
        if ut is None:
            find(loc + ("unit",), up.id, "seki-known-unit", f"unit type {up.unit!r} is not in units.yaml")
            continue
        if up.stands <= data.system.last_stand.removed_at_bases:
            find(loc + ("stands",), up.id, "seki-two-stands", f"{up.name} has {up.stands} stand; a unit of one stand is removed at once")
        if up.leader is not None and up.leader.commander:
            if up.side in commanders and up.leader.name == side_commander[up.side]:
                commanders[up.side] += 1
            else:
                find(loc + ("leader",), up.id, "seki-commander", f"{up.leader.name} is not the commander of side {up.side!r}")
        if up.side == UNDECIDED:
            if not up.id.startswith(sc.undecided.contingent):
                find(loc + ("side",), up.id, "seki-undecided", f"{up.name} is undecided but not part of the {sc.undecided.contingent} contingent")
            if up.leader is not None and up.leader.name == sc.undecided.leader:
                undecided_leader = True
        elif up.id.startswith(sc.undecided.contingent):
            find(loc + ("side",), up.id, "seki-undecided", f"{up.name} belongs to the {sc.undecided.contingent} contingent, which starts undecided, but stands with {up.side!r}")
        base = data.base_of(up)
        if not table.contains(base):
            find(loc + ("x",), up.id, "seki-on-table", f"{up.name} at ({up.x:g}, {up.y:g}) is not wholly on the table")
        dp = deps.get(up.deployment)
        if dp is None or dp.side != up.side:
            find(loc + ("deployment",), up.id, "seki-known-deployment", f"{up.deployment!r} is not a deployment area of side {up.side!r}")
        elif not dp.area.rect().contains(base):
            a = dp.area
            find(loc + ("x",), up.id, "seki-inside-deployment", f"{up.name} at ({up.x:g}, {up.y:g}) facing {up.facing:g} is not wholly inside its deployment area {dp.id!r} (x {a.x:g}-{a.x + a.w:g}, y {a.y:g}-{a.y + a.h:g})")
        for j, other_up, other in placed:
            if base.overlaps(other):
                find(loc + ("x",), up.id, "seki-no-overlap", f"{up.name} overlaps {other_up.name} (units[{j}])")
        placed.append((i, up, base))
    for s, n in commanders.items():
        if n != 1:
            find(("sides",), None, "seki-commander", f"the commander of side {s!r} ({side_commander[s]}) leads {n} units; he must lead exactly 1")
    if not undecided_leader:
        find(("undecided",), None, "seki-undecided", f"no undecided unit is led by {sc.undecided.leader}")
    findings.sort(key=lambda f: f.line or 0)
    return findings
