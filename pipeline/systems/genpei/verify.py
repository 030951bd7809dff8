"""Legality of Genpei scenarios: static checks of a set-up against the rules.

Each check has a stable rule id, a one-line statement and the rule's source; a problem found is a
:class:`Finding` printed as one line::

    source_data/genpei/scenarios/gp19.yaml:88: GP19 hex [6,3]: no-cavalry-in-stockade: Samurai Cavalry (taira) stands in a Stockade; cavalry units and cavalry leaders may not enter a Stockade [genpei_pack, Stockade]

Example::

    >>> findings = verify_scenario(data, loaded)     # doctest: +SKIP
    >>> [f.rule for f in findings]                   # doctest: +SKIP
    ['no-cavalry-in-stockade']
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.legality import LegalityRule, rules
from pipeline.legality import explain as explain_rule
from pipeline.play.judge import PLAY_RULES
from pipeline.systems.genpei.data import GenpeiData, LoadedScenario
from pipeline.systems.genpei.engine.rules import ENGINE_RULES
from pipeline.systems.genpei.layout import DIRECTIONS

#: Every legality rule, by id.
RULES: dict[str, LegalityRule] = rules(
    LegalityRule("known-board", "A scenario is played on a board the data defines.", "gunbai", "Scenario format"),
    LegalityRule("hex-on-board", "Every terrain tile, unit, leader and marker stands on a hex of the board.", "rules_facts", "1.1 Components and board"),
    LegalityRule("known-unit", "Every unit is a unit type of units.yaml.", "gunbai", "Scenario format"),
    LegalityRule("known-leader", "Every leader is a leader type of leaders.yaml.", "gunbai", "Scenario format"),
    LegalityRule("known-terrain", "Every terrain tile is a terrain type of terrain.yaml.", "gunbai", "Scenario format"),
    LegalityRule("known-marker", "Every marker is a marker type of markers.yaml.", "gunbai", "Scenario format"),
    LegalityRule("known-side", "Every unit, leader and marker belongs to one of the scenario's two sides, and the first player is one of them.", "gunbai", "Scenario format"),
    LegalityRule("known-army", "Every side uses an army colour scheme of system.yaml.", "gunbai", "Scenario format"),
    LegalityRule("distinct-sides", "The two sides have different ids.", "gunbai", "Scenario format"),
    LegalityRule("one-unit-per-hex", "At most one unit stands in a hex.", "rules_facts", "1.2 Dice and hits / C&C stacking (one unit per hex)"),
    LegalityRule("one-terrain-per-hex", "A hex carries one terrain tile; only an overlay (Arrow Tower) is added on top of another.", "genpei_pack", "Arrow Tower"),
    LegalityRule("ocean-alone", "An Ocean hex carries no other terrain tile.", "genpei_pack", "Ocean"),
    LegalityRule("overlay-needs-base", "An Arrow Tower stands only on a Palisade or Stockade hex.", "genpei_pack", "Arrow Tower"),
    LegalityRule("hexsides-listed", "A Palisade lists the hexsides it covers (and only a hexside terrain does).", "genpei_pack", "Palisade"),
    LegalityRule("impassable-terrain", "No unit or leader starts on impassable terrain (River).", "rules_facts", "1.5 Terrain (base game)"),
    LegalityRule("naval-needs-naval-rules", "Units stand on Ocean hexes (as naval units) only in a scenario that allows naval combat.", "genpei_pack", "Ocean"),
    LegalityRule("wind-tide-given", "A scenario with naval units gives the wind/tide direction.", "genpei_pack", "Naval Warfare: movement"),
    LegalityRule("no-cavalry-in-stockade", "Cavalry units and cavalry leaders may not enter a Stockade hex.", "genpei_pack", "Stockade"),
    LegalityRule("lone-leader-not-at-sea", "Open Ocean hexes are impassable to lone naval leaders.", "genpei_pack", "Naval Warfare: naval leaders"),
    LegalityRule("command-ship-at-sea", "A Command Ship stands on an Ocean hex with a commander's bodyguard unit; a Command Tent stands on land.", "genpei_pack", "Naval Warfare: command ship"),
    LegalityRule("banners-positive", "The scenario sets a positive number of victory banners.", "rules_facts", "1.4 / 2 (victory banners)"),
    LegalityRule("cards-positive", "Each side starts with a positive number of Command cards, and no negative number of Dragon cards or H&F tokens.", "rules_facts", "2 Genpei War fan pack (CC/DC/H&F per side)"),
    LegalityRule("side-has-units", "Each side has at least one unit on the board.", "gunbai", "Scenario format"),
    # Checks added with the rules engine (pipeline/systems/genpei/engine).
    LegalityRule("banners-reachable", "Each side's banner target is at most what the enemy fields: 1 banner per enemy unit and leader on the board plus the most temporary banners the scenario's victory rules can give it at once.", "rules_facts", "§2 Genpei War fan pack (banner rule: 1 per unit or leader eliminated, plus special conditions)"),
    LegalityRule("bodyguard-with-commander", "An army commander is attached to his bodyguard unit, and a bodyguard unit carries its commander.", "rules_facts", "§1.1 Components (GMT: army commander and bodyguard blocks); §1.4 Command tent"),
    LegalityRule("one-commander-per-side", "A side has at most one army commander.", "rules_facts", "§1.1 Components (GMT: 2 army commander blocks, one per army)"),
    LegalityRule("command-marker-side", "A Command Tent or Command Ship belongs to the side of the commander on its hex.", "genpei_pack", "Naval Warfare: command ship"),
    LegalityRule("lone-leader-alone", "A lone leader does not share a hex with a unit (a leader in a unit's hex is attached to it).", "rules_facts", "§1.4 Retreat, leaders (lone leader / attached leader)"),
    LegalityRule("palisade-faces-board", "Every covered hexside of a Palisade faces a hex of the board (an attack can come across it).", "genpei_pack", "Palisade"),
    LegalityRule("supply-ships-at-sea", "A scenario with supply-ship temporary banners has units noted 'supply ship' on Ocean hexes.", "rules_facts", "§2 GP20 Nishinomiya (Supply Ships)"),
)
# The rules the engine plays (decks, leaders, battles), and the rules of play every system
# shares (gunbai verify --play), so that --explain names them too.
RULES.update(ENGINE_RULES)
RULES.update(PLAY_RULES)


@dataclass(frozen=True)
class Finding:
    """A scenario problem.

    Attributes:
        file: the scenario file.
        line: 1-based line of the offending value.
        scenario: the scenario code (``GP20``).
        hex: the hex concerned, or None.
        rule: the rule id.
        message: what is wrong.
    """

    file: Path
    line: int | None
    scenario: str
    hex: tuple[int, int] | None
    rule: str
    message: str

    def __str__(self) -> str:
        rule = RULES[self.rule]
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        hx = f" hex [{self.hex[0]},{self.hex[1]}]" if self.hex else ""
        return f"{where}: {self.scenario}{hx}: {self.rule}: {self.message} [{rule.doc}, {rule.section}]"


@dataclass(frozen=True)
class Incomplete:
    """A scenario that cannot be checked or played yet (its map is not public, or values the
    game needs are ``unknown``): a note, not an error (``blocking`` is False), printed as one
    line::

        source_data/genpei/scenarios/gp05_uji.yaml: GP05 Uji: incomplete: map not public (...); not playable until a setup is imported (gunbai import)
    """

    file: Path
    scenario: str
    name: str
    reasons: tuple[str, ...]
    blocking: bool = False

    def __str__(self) -> str:
        until = ("not playable until a setup is imported (gunbai import)" if any(r.startswith("map not public") for r in self.reasons)
                 else "not playable until they are filled in")
        name = "(name not public)" if self.name == "unknown" else self.name
        return f"{self.file}: {self.scenario} {name}: incomplete: {'; '.join(self.reasons)}; {until}"


def explain(rule_id: str) -> str:
    """The rule's statement and source, as ``gunbai verify --explain`` prints it.

    Raises:
        KeyError: no rule has that id.
    """
    return explain_rule(RULES, rule_id)


def verify_all(data: GenpeiData) -> list[Finding | Incomplete]:
    """Findings for every scenario of ``data``, in file order; an incomplete scenario gives an
    :class:`Incomplete` note (and the findings of what it does give)."""
    out: list[Finding | Incomplete] = []
    for loaded in data.scenarios:
        out.extend(verify_scenario(data, loaded))
    return out


def complete_scenarios(data: GenpeiData) -> list[LoadedScenario]:
    """The scenarios that can be played: map known and no ``unknown`` value the game needs."""
    return [s for s in data.scenarios if not s.scenario.incomplete()]


def verify_scenario(data: GenpeiData, loaded: LoadedScenario) -> list[Finding | Incomplete]:
    """Check one scenario against every rule of :data:`RULES`.

    An incomplete scenario (:meth:`Scenario.incomplete`) is checked only for what it gives
    (sides, armies, the card counts it knows) and gets an :class:`Incomplete` note.

    Returns:
        The findings, in the order of the file (empty when the set-up is legal).
    """
    sc = loaded.scenario
    doc = loaded.doc
    findings: list[Finding | Incomplete] = []
    reasons = sc.incomplete()

    def find(loc: tuple[Any, ...], hex_: Iterable[int] | None, rule: str, message: str) -> None:
        assert rule in RULES, rule
        h = tuple(hex_) if hex_ is not None else None
        findings.append(Finding(loaded.path, doc.line_of(loc), sc.code, h, rule, message))  # type: ignore[arg-type]

    board = data.board
    if sc.board != board.id:
        find(("board",), None, "known-board", f"board {sc.board!r} is not defined (known: {board.id!r})")

    side_ids = [s.id for s in sc.sides]
    if len(set(side_ids)) != len(side_ids):
        find(("sides",), None, "distinct-sides", f"both sides have the id {side_ids[0]!r}")
    if sc.first_player not in side_ids and sc.first_player != "unknown":
        find(("first_player",), None, "known-side", f"first player {sc.first_player!r} is not a side ({', '.join(side_ids)})")
    for i, side in enumerate(sc.sides):
        if side.army not in data.system.armies:
            find(("sides", i, "army"), None, "known-army", f"army {side.army!r} is not in system.yaml ({', '.join(data.system.armies)})")
        if side.command_cards != "unknown" and side.command_cards <= 0:
            find(("sides", i, "command_cards"), None, "cards-positive", f"{side.name} starts with {side.command_cards} Command cards")
        if side.dragon_cards != "unknown" and side.dragon_cards < 0:
            find(("sides", i, "dragon_cards"), None, "cards-positive", f"{side.name} starts with {side.dragon_cards} Dragon cards")
        if side.honour_fortune != "unknown" and side.honour_fortune < 0:
            find(("sides", i, "honour_fortune"), None, "cards-positive", f"{side.name} starts with {side.honour_fortune} H&F tokens")
    if sc.victory.banners != "unknown" and sc.victory.banners <= 0:
        find(("victory", "banners"), None, "banners-positive", f"victory needs {sc.victory.banners} banners")
    for i, side in enumerate(sc.sides):
        if side.banners is not None and side.banners <= 0:
            find(("sides", i, "banners"), None, "banners-positive", f"{side.name} needs {side.banners} banners")
    if reasons:
        findings.sort(key=lambda f: (getattr(f, "line", None) or 0))
        findings.append(Incomplete(loaded.path, sc.code, sc.name, tuple(reasons)))
        return findings

    # Terrain: hexes, ids, one tile per hex, overlays, hexsides.
    base_at: dict[tuple[int, int], str] = {}
    overlays_at: dict[tuple[int, int], list[str]] = defaultdict(list)
    for i, tp in enumerate(sc.terrain):
        ttype = data.terrain.get(tp.terrain)
        if ttype is None:
            find(("terrain", i, "terrain"), None, "known-terrain", f"terrain {tp.terrain!r} is not in terrain.yaml")
            continue
        if ttype.hexsides and not tp.hexsides:
            find(("terrain", i, "hexsides"), None, "hexsides-listed", f"{ttype.name} must list the hexsides it covers ({', '.join(DIRECTIONS)})")
        if tp.hexsides and not ttype.hexsides:
            find(("terrain", i, "hexsides"), None, "hexsides-listed", f"{ttype.name} covers whole hexes; it takes no hexsides")
        for h in _placement_hexes(tp):
            loc = ("terrain", i)
            if not board.contains(h):
                find(loc, h, "hex-on-board", f"{ttype.name} is off the board ({_board_shape(data)})")
                continue
            if ttype.overlay:
                overlays_at[h].append(tp.terrain)
                continue
            if h in base_at:
                other = base_at[h]
                rule = "ocean-alone" if "ocean" in (other, tp.terrain) else "one-terrain-per-hex"
                find(loc, h, rule, f"{ttype.name} on a hex that already has {data.terrain[other].name}")
                continue
            base_at[h] = tp.terrain
    for i, tp in enumerate(sc.terrain):
        ttype = data.terrain.get(tp.terrain)
        if ttype is None or not ttype.overlay:
            continue
        for h in _placement_hexes(tp):
            if board.contains(h) and base_at.get(h) not in ttype.requires:
                base = data.terrain[base_at[h]].name if h in base_at else "no terrain"
                needs = " or ".join(data.terrain[r].name if r in data.terrain else r for r in ttype.requires)
                find(("terrain", i), h, "overlay-needs-base", f"{ttype.name} stands on {base}; it needs {needs}")

    def terrain_of(h: tuple[int, int]) -> str:
        return base_at.get(h, "countryside")

    # Units.
    units_at: dict[tuple[int, int], int] = {}
    side_units: dict[str, int] = defaultdict(int)
    naval_units = False
    for i, up in enumerate(sc.units):
        h = tuple(up.hex)
        loc = ("units", i)
        if up.side not in side_ids:
            find(loc + ("side",), h, "known-side", f"side {up.side!r} is not a side of this scenario ({', '.join(side_ids)})")
        utype = data.units.get(up.unit)
        if utype is None:
            find(loc + ("unit",), h, "known-unit", f"unit {up.unit!r} is not in units.yaml")
        ltype = None
        if up.leader is not None:
            ltype = data.leaders.get(up.leader)
            if ltype is None:
                find(loc + ("leader",), h, "known-leader", f"leader {up.leader!r} is not in leaders.yaml")
        if not board.contains(h):
            find(loc + ("hex",), h, "hex-on-board", f"unit is off the board ({_board_shape(data)})")
            continue
        side_units[up.side] += 1
        if h in units_at:
            find(loc + ("hex",), h, "one-unit-per-hex", f"a second unit in the hex (the first is units[{units_at[h]}])")
        else:
            units_at[h] = i
        if utype is None:
            continue
        name = f"{utype.name} ({up.side})"
        terrain = data.terrain.get(terrain_of(h))
        if terrain is not None and terrain.movement.passable == "no":
            find(loc + ("hex",), h, "impassable-terrain", f"{name} stands on {terrain.name}, which is impassable")
        if terrain is not None and terrain.naval:
            naval_units = True
            if not sc.naval:
                find(loc + ("hex",), h, "naval-needs-naval-rules", f"{name} stands on {terrain.name} but the scenario does not allow naval combat (naval: false)")
        stockade = terrain is not None and not terrain.movement.mounted_may_enter
        if stockade and utype.mounted:
            find(loc + ("hex",), h, "no-cavalry-in-stockade", f"{name} stands in a {terrain.name}; cavalry units and cavalry leaders may not enter a {terrain.name}")
        if stockade and ltype is not None and ltype.mounted:
            find(loc + ("leader",), h, "no-cavalry-in-stockade", f"{ltype.name} ({up.side}) is attached to a unit in a {terrain.name}; cavalry leaders may not enter a {terrain.name}")

    # Lone leaders.
    for i, lp in enumerate(sc.leaders):
        h = tuple(lp.hex)
        loc = ("leaders", i)
        if lp.side not in side_ids:
            find(loc + ("side",), h, "known-side", f"side {lp.side!r} is not a side of this scenario")
        ltype = data.leaders.get(lp.leader)
        if ltype is None:
            find(loc + ("leader",), h, "known-leader", f"leader {lp.leader!r} is not in leaders.yaml")
            continue
        if not board.contains(h):
            find(loc + ("hex",), h, "hex-on-board", f"leader is off the board ({_board_shape(data)})")
            continue
        terrain = data.terrain.get(terrain_of(h))
        if terrain is None:
            continue
        if terrain.movement.passable == "no":
            find(loc + ("hex",), h, "impassable-terrain", f"{ltype.name} stands on {terrain.name}, which is impassable")
        if terrain.naval and h not in units_at:
            find(loc + ("hex",), h, "lone-leader-not-at-sea", f"lone {ltype.name} ({lp.side}) on an open {terrain.name} hex")
        if ltype.mounted and not terrain.movement.mounted_may_enter:
            find(loc + ("hex",), h, "no-cavalry-in-stockade", f"{ltype.name} ({lp.side}) stands in a {terrain.name}; cavalry leaders may not enter a {terrain.name}")

    # Markers.
    for i, mp in enumerate(sc.markers):
        h = tuple(mp.hex)
        loc = ("markers", i)
        mtype = data.markers.get(mp.marker)
        if mtype is None:
            find(loc + ("marker",), h, "known-marker", f"marker {mp.marker!r} is not in markers.yaml")
            continue
        if mp.side is not None and mp.side not in side_ids:
            find(loc + ("side",), h, "known-side", f"side {mp.side!r} is not a side of this scenario")
        if not board.contains(h):
            find(loc + ("hex",), h, "hex-on-board", f"{mtype.name} is off the board ({_board_shape(data)})")
            continue
        terrain = data.terrain.get(terrain_of(h))
        at_sea = terrain is not None and terrain.naval
        if mp.marker == "command_ship":
            unit_i = units_at.get(h)
            bodyguard = unit_i is not None and "bodyguard" in getattr(data.units.get(sc.units[unit_i].unit), "tags", [])
            if not at_sea or not bodyguard:
                find(loc + ("hex",), h, "command-ship-at-sea", f"{mtype.name} must be on an Ocean hex with a bodyguard unit")
        if mp.marker == "command_tent" and at_sea:
            find(loc + ("hex",), h, "command-ship-at-sea", f"{mtype.name} stands at sea; at sea it is a Command Ship")

    _engine_checks(data, sc, find, units_at)

    if naval_units and sc.wind_tide is None:
        find(("naval",), None, "wind-tide-given", "naval units stand on Ocean hexes but the scenario gives no wind_tide")
    for side in sc.sides:
        if side_units[side.id] == 0:
            find(("units",), None, "side-has-units", f"{side.name} has no unit on the board")
    findings.sort(key=lambda f: (f.line or 0))
    return findings


def _engine_checks(data: GenpeiData, sc: Any, find: Any, units_at: dict[tuple[int, int], int]) -> None:
    """The static checks added with the rules engine (see :data:`RULES`)."""
    from pipeline.systems.genpei.engine.board import STEPS
    from pipeline.systems.genpei.engine.victory import max_temporary, supply_ships, tent_banners

    board = data.board
    side_ids = [s.id for s in sc.sides]
    # banners-reachable
    temp = max_temporary(data, sc)
    tents = tent_banners(sc)
    for i, side in enumerate(sc.sides):
        enemy_units = sum(1 for u in sc.units if u.side != side.id and u.side in side_ids)
        enemy_leaders = sum(1 for u in sc.units if u.side != side.id and u.side in side_ids and u.leader) + sum(1 for lp in sc.leaders if lp.side != side.id and lp.side in side_ids)
        most = enemy_units + enemy_leaders + temp.get(side.id, 0) + tents.get(side.id, 0)
        target = side.banners or sc.victory.banners
        if target > most:
            loc = ("sides", i, "banners") if side.banners else ("victory", "banners")
            find(loc, None, "banners-reachable",
                 f"{side.name} needs {target} banners but can win at most {most} ({enemy_units} enemy units, {enemy_leaders} enemy leaders, {temp.get(side.id, 0)} temporary, {tents.get(side.id, 0)} command tents)")
    # commanders and bodyguards
    commanders: dict[str, int] = {}
    for i, up in enumerate(sc.units):
        ltype = data.leaders.get(up.leader) if up.leader else None
        utype = data.units.get(up.unit)
        if ltype is not None and ltype.kind == "commander":
            commanders[up.side] = commanders.get(up.side, 0) + 1
            if ltype.bodyguard is not None and up.unit != ltype.bodyguard:
                find(("units", i, "leader"), up.hex, "bodyguard-with-commander", f"{ltype.name} ({up.side}) is attached to {utype.name if utype else up.unit}, not to his bodyguard")
        if utype is not None and "bodyguard" in utype.tags and (ltype is None or ltype.kind != "commander"):
            find(("units", i, "unit"), up.hex, "bodyguard-with-commander", f"{utype.name} ({up.side}) carries no army commander")
    for lp in sc.leaders:
        lt = data.leaders.get(lp.leader)
        if lt is not None and lt.kind == "commander":
            commanders[lp.side] = commanders.get(lp.side, 0) + 1
    for side, n in commanders.items():
        if n > 1:
            find(("units",), None, "one-commander-per-side", f"{side} has {n} army commanders")
    for i, mp in enumerate(sc.markers):
        h = tuple(mp.hex)
        if mp.marker in ("command_tent", "command_ship") and h in units_at and mp.side is not None:
            up = sc.units[units_at[h]]
            if up.side != mp.side:
                find(("markers", i, "side"), h, "command-marker-side", f"the {mp.marker.replace('_', ' ')} of {mp.side} stands with a unit of {up.side}")
    for i, lp in enumerate(sc.leaders):
        h = tuple(lp.hex)
        if h in units_at:
            find(("leaders", i, "hex"), h, "lone-leader-alone", f"lone leader {lp.leader} ({lp.side}) shares a hex with units[{units_at[h]}]; attach it with the unit's leader field")
    # palisade hexsides
    for i, tp in enumerate(sc.terrain):
        t = data.terrain.get(tp.terrain)
        if t is None or not t.hexsides:
            continue
        for h in _placement_hexes(tp):
            if not board.contains(h):
                continue
            x = 2 * (h[0] - 1) + (1 if board.is_short_row(h[1]) else 0)
            for d in tp.hexsides:
                dx, dr = STEPS[d]
                nx, nr = x + dx, h[1] + dr
                ok = 1 <= nr <= board.rows and (nx - (1 if board.is_short_row(nr) else 0)) % 2 == 0 and board.contains(((nx - (1 if board.is_short_row(nr) else 0)) // 2 + 1, nr))
                if not ok:
                    find(("terrain", i, "hexsides"), h, "palisade-faces-board", f"{t.name} hexside {d} faces off the board")
    if any(r.id == "supply_ships_temporary_banner" for r in sc.victory.rules) and not supply_ships(data, sc):
        find(("victory", "rules"), None, "supply-ships-at-sea", "the supply-ship rule is given but no unit noted 'supply ship' stands on an Ocean hex")


def _placement_hexes(tp: Any) -> list[tuple[int, int]]:
    return [tuple(h) for h in tp.all_hexes()]  # type: ignore[misc]


def _board_shape(data: GenpeiData) -> str:
    b = data.board
    return f"{b.rows} rows of {b.columns} and {b.columns - 1} hexes"
