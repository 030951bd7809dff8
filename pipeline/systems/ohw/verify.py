"""Legality of OHW Samurai scenarios: static checks of a set-up on the measured table.

Each check has a stable id, a statement and a source (``gunbai verify --explain ID``)::

    source_data/ohw/scenarios/ohw04_take_the_high_ground.yaml:31: OHW4 unit red_2: inside-deployment: Ashigaru is not wholly inside its deployment area 'hill' (x 12-24, y 12-20) [ohw_samurai, Movement / rules_facts §5.3]
"""

from __future__ import annotations

from typing import Any

from pipeline.measured.data import Loaded
from pipeline.measured.geometry import Base
from pipeline.measured.legality import Finding, LegalityRule, rules
from pipeline.measured.movement import Ground
from pipeline.play.judge import PLAY_RULES
from pipeline.systems.ohw.data import OhwData
from pipeline.systems.ohw.rules import ENGINE_RULES

RULES: dict[str, LegalityRule] = rules(
    LegalityRule("known-side", "Every unit and deployment area belongs to one of the scenario's two sides, and the side that moves first is one of them.", "gunbai", "Scenario format"),
    LegalityRule("known-unit", "Every unit is a unit type of units.yaml.", "gunbai", "Scenario format"),
    LegalityRule("known-terrain", "Every terrain feature is a terrain type of terrain.yaml, and every defence a defence of it.", "gunbai", "Scenario format"),
    LegalityRule("unique-unit-id", "Every unit of a scenario has its own id.", "gunbai", "Scenario format"),
    LegalityRule("known-deployment", "A unit sets up in a deployment area of its own side.", "gunbai", "Scenario format"),
    LegalityRule("inside-deployment", "A unit's base stands wholly inside its deployment area.", "rules_facts", "§5.3 Scenarios (deployment areas of the One-Hour Wargames patterns)"),
    LegalityRule("on-table", "Every base, terrain feature, deployment area and objective lies on the table.", "rules_facts", "§5.1 General (3'x3' table)"),
    LegalityRule("no-overlap", "No two units' bases overlap.", "ohw_samurai", "Movement: Interpenetration (units may not share space)"),
    LegalityRule("not-impassable", "No unit starts on impassable terrain: woods, marshland, lakes, or a river where no ford or bridge covers its base (erratum river_crossing_width).", "ohw_samurai", "Movement: Terrain"),
    LegalityRule("general-on-foot-samurai", "A General (Daimyo) is attached to a Foot Samurai unit.", "ohw_samurai", "Unit Types: General (Daimyo); General (Daimyo)"),
    LegalityRule("one-general", "Each side has exactly one General.", "ohw_samurai", "General (Daimyo) (a general is assigned to a samurai foot unit at the start of the game)"),
    LegalityRule("max-units", "Each side has at most 6 units.", "rules_facts", "§5.1 General (at most 6 units a side)"),
    LegalityRule("turn-limit", "The game ends after 15 turns.", "ohw_samurai", "Sequence of play"),
    LegalityRule("objective-valid", "A hold objective has an area; a survive objective names a side of the scenario.", "gunbai", "Scenario format"),
)
RULES.update(PLAY_RULES)  # the rules of play every system shares (gunbai verify --play)
RULES.update(ENGINE_RULES)


def explain(rule_id: str) -> str:
    from pipeline.measured.legality import explain as ex

    return ex(RULES, rule_id)


def verify_all(data: OhwData) -> list[Finding]:
    out: list[Finding] = []
    for loaded in data.scenarios:
        out.extend(verify_scenario(data, loaded))
    return out


def base_of(data: OhwData, up: Any) -> Base:
    """The base of a unit placement."""
    size = data.units[up.unit].base
    return Base(up.x, up.y, up.facing, size.width, size.depth)


def verify_scenario(data: OhwData, loaded: Loaded) -> list[Finding]:
    sc = loaded.model
    doc = loaded.doc
    findings: list[Finding] = []

    def find(loc: tuple[Any, ...], unit: str | None, rule: str, message: str) -> None:
        findings.append(Finding(loaded.path, doc.line_of(loc), sc.code, unit, RULES[rule], message))

    table = data.system.table.rect()
    side_ids = [s.id for s in sc.sides]
    if sc.first_side not in side_ids:
        find(("first_side",), None, "known-side", f"first side {sc.first_side!r} is not a side of this scenario")
    if sc.turns != data.system.turns.limit:
        find(("turns",), None, "turn-limit", f"turns is {sc.turns}; the rules end the game after {data.system.turns.limit}")
    for i, tp in enumerate(sc.terrain):
        if tp.terrain not in data.terrain:
            find(("terrain", i, "terrain"), None, "known-terrain", f"terrain {tp.terrain!r} is not in terrain.yaml")
        if not table.contains_rect(tp.area.rect()):
            find(("terrain", i, "area"), None, "on-table", f"{tp.terrain} area {_fmt(tp.area)} is off the table")
    deployments = {}
    for i, dp in enumerate(sc.deployments):
        deployments[dp.id] = dp
        if dp.side not in side_ids:
            find(("deployments", i, "side"), None, "known-side", f"deployment area {dp.id!r} belongs to unknown side {dp.side!r}")
        if not table.contains_rect(dp.area.rect()):
            find(("deployments", i, "area"), None, "on-table", f"deployment area {dp.id!r} {_fmt(dp.area)} is off the table")
    for i, ob in enumerate(sc.objectives):
        if ob.kind == "hold" and ob.area is None:
            find(("objectives", i), None, "objective-valid", f"hold objective {ob.id!r} has no area")
        if ob.kind == "survive" and ob.side not in side_ids:
            find(("objectives", i, "side"), None, "objective-valid", f"survive objective {ob.id!r} names side {ob.side!r}")
        if ob.area is not None and not table.contains_rect(ob.area.rect()):
            find(("objectives", i, "area"), None, "on-table", f"objective {ob.id!r} is off the table")

    impassable = [(tp, tp.area.rect()) for tp in sc.terrain if tp.terrain in data.terrain and not data.terrain[tp.terrain].passable]
    crossings = tuple(tp.area.rect() for tp in sc.terrain if tp.terrain in data.terrain and data.terrain[tp.terrain].crossing)
    placed: list[tuple[int, Any, Base]] = []
    seen: set[str] = set()
    generals: dict[str, int] = {s: 0 for s in side_ids}
    per_side: dict[str, int] = {s: 0 for s in side_ids}
    for i, up in enumerate(sc.units):
        loc = ("units", i)
        if up.id in seen:
            find(loc + ("id",), up.id, "unique-unit-id", f"unit id {up.id!r} is used twice")
        seen.add(up.id)
        if up.side not in side_ids:
            find(loc + ("side",), up.id, "known-side", f"side {up.side!r} is not a side of this scenario")
        else:
            per_side[up.side] += 1
        utype = data.units.get(up.unit)
        if utype is None:
            find(loc + ("unit",), up.id, "known-unit", f"unit type {up.unit!r} is not in units.yaml")
            continue
        for j, d in enumerate(up.defences):
            if d not in data.defences:
                find(loc + ("defences", j), up.id, "known-terrain", f"defence {d!r} is not in terrain.yaml")
        base = base_of(data, up)
        if up.general is not None:
            if up.side in generals:
                generals[up.side] += 1
            if up.unit != data.system.general.attached_to:
                want = data.units.get(data.system.general.attached_to)
                find(loc + ("general",), up.id, "general-on-foot-samurai", f"General {up.general!r} is attached to {utype.name}; a General must be attached to a {want.name if want else data.system.general.attached_to} unit")
        if not table.contains(base):
            find(loc + ("x",), up.id, "on-table", f"{utype.name} at ({up.x:g}, {up.y:g}) facing {up.facing:g} is not wholly on the {_table(data)} table")
        dp = deployments.get(up.deployment)
        if dp is None or dp.side != up.side:
            find(loc + ("deployment",), up.id, "known-deployment", f"{up.deployment!r} is not a deployment area of side {up.side!r}")
        elif not dp.area.rect().contains(base):
            find(loc + ("x",), up.id, "inside-deployment", f"{utype.name} at ({up.x:g}, {up.y:g}) facing {up.facing:g} is not wholly inside its deployment area {dp.id!r} {_fmt(dp.area)}")
        for tp, rect in impassable:
            tt = data.terrain[tp.terrain]
            ground = Ground(fordable=(rect,), crossings=crossings) if tt.crossed_at_crossings else Ground(impassable=(rect,))
            if not ground.base_clear(base):
                find(loc + ("x",), up.id, "not-impassable", f"{utype.name} stands on {tt.name} {_fmt(tp.area)}")
        for j, other_up, other in placed:
            if base.overlaps(other):
                find(loc + ("x",), up.id, "no-overlap", f"base overlaps unit {other_up.id!r} (units[{j}])")
        placed.append((i, up, base))
    for s in side_ids:
        if generals[s] != data.system.general.per_side:
            find(("units",), None, "one-general", f"side {s!r} has {generals[s]} Generals; it must have {data.system.general.per_side}")
        if per_side[s] > data.system.max_units_per_side.value:
            find(("units",), None, "max-units", f"side {s!r} has {per_side[s]} units; at most {data.system.max_units_per_side.value}")
    findings.sort(key=lambda f: f.line or 0)
    return findings


def _fmt(a: Any) -> str:
    return f"(x {a.x:g}-{a.x + a.w:g}, y {a.y:g}-{a.y + a.h:g})"


def _table(data: OhwData) -> str:
    t = data.system.table
    return f'{t.width:g}" x {t.depth:g}"'
