"""The Genpei data folder loads and holds the values the rules texts give.

Each assert quotes (in a comment) the rules text it checks: seed 000 is the Genpei pack
(``genpei_pack``), seed 002 the terrain rules published separately (``genpei_terrain``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from pipeline.systems.genpei.data import GenpeiData
from pipeline.systems.genpei.load import load

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data" / "genpei"

UNIT_IDS = {
    "samurai_infantry", "samurai_cavalry", "samurai_archers", "mounted_samurai_archers",
    "ashigaru_spearmen", "ashigaru_archers", "ashigaru_arquebusiers",
    "irregular_peasant_infantry", "sohei_warriors", "sohei_archers", "bodyguard",
}
TERRAIN_IDS = {
    "ocean", "palisade", "stockade", "arrow_tower", "marsh", "countryside", "forest", "hill",
    "river", "ford", "bridge", "village", "fields", "ravine",
}
MARKER_IDS = {
    "honour_fortune", "victory_banner", "grapple", "wind_tide", "command_tent", "command_ship",
    "lying_flat",
}


@pytest.fixture(scope="module")
def data() -> GenpeiData:
    return load(DATA, scenario_files=[])


# --------------------------------------------------------------------------- catalogue


def test_ids(data: GenpeiData) -> None:
    assert set(data.units) == UNIT_IDS
    assert set(data.terrain) == TERRAIN_IDS
    assert set(data.markers) == MARKER_IDS
    assert set(data.leaders) == {"infantry_leader", "cavalry_leader", "commander"}


def test_system_and_board(data: GenpeiData) -> None:
    assert data.system.id == "genpei"
    assert {"red", "yellow"} <= set(data.system.armies)
    assert sorted(f.symbol for f in data.system.battle_die.faces) == sorted(
        ["circle", "triangle", "square", "sword", "flag", "honour_fortune"]
    )
    assert data.system.vassal.hex_width_px == 84
    b = data.board
    # rules-facts §1.1 (CCN contents-gmt): "hex grid 12 wide x 11 deep"
    assert (b.columns, b.rows) == (12, 11)
    assert b.row_length(1) == 12 and b.row_length(2) == 11
    # "a hex cut by a line belongs to both flank and center"
    assert b.sections((4, 2)) == {"left", "centre"}
    assert len(b.all_hexes()) == 6 * 12 + 5 * 11


# --------------------------------------------------------------------------- Sohei


def test_sohei_warriors(data: GenpeiData) -> None:
    u = data.units["sohei_warriors"]
    assert u.standard == "triangle"                     # "Blue triangle"
    assert u.movement.hexes == 1                        # "Move 1 (or 2 and no battle)"
    assert u.movement.hexes_no_battle == 2
    assert u.close_combat.dice == 3                     # "Close Combat 3 dice"
    assert u.close_combat.dice_after_move is None
    assert u.ranged is None
    # "Sohei Warriors in Battle reroll all H&F for additional results in close combat."
    assert u.hf_reroll == ["close"]
    # "When eliminated, the Sohei Warrior unit's army loses 2 H&F tokens."
    assert u.hf_lost_when_eliminated == 2
    assert "僧兵" in (u.name_ja or "")


def test_sohei_archers(data: GenpeiData) -> None:
    u = data.units["sohei_archers"]
    assert u.standard == "triangle"                     # "Blue triangle"
    assert (u.movement.hexes, u.movement.hexes_no_battle) == (1, 2)   # "Move 1 (or 2 and no battle)"
    # "Close Combat 3 dice (2 dice if they moved)"
    assert u.close_combat.dice == 3
    assert u.close_combat.dice_after_move == 2
    # "(may not close combat at all if ordered by an Infantry Onslaught)"
    assert u.close_combat.not_when_ordered_by == ["infantry_onslaught"]
    # "Ranged Attack – 2 dice at 2 or 3 hex range (1 die if they moved)"
    assert u.ranged is not None
    assert (u.ranged.dice, u.ranged.min_range, u.ranged.max_range) == (2, 2, 3)
    assert u.ranged.dice_after_move == 1
    assert u.ranged.weapon == "bow"
    # "reroll all H&F for additional results in ranged and close combat"
    assert set(u.hf_reroll) == {"close", "ranged"}
    assert u.hf_lost_when_eliminated == 2               # "loses 2 H&F tokens"
    assert "archer" in u.tags and "sohei" in u.tags     # Arrow Tower: "archer unit (... Sohei ...)"
    assert "僧兵" in (u.name_ja or "")


# --------------------------------------------------------------------------- other units


def test_irregular_peasants_do_not_hit_on_swords(data: GenpeiData) -> None:
    # Grappling: "If a unit would not normally hit on swords in close combat (Irregular
    # Peasant Infantry) it may still apply a sword result to a grapple."
    u = data.units["irregular_peasant_infantry"]
    assert u.hits_on_swords is False
    assert "irregular" in u.tags


def test_mounted_samurai_archers(data: GenpeiData) -> None:
    u = data.units["mounted_samurai_archers"]
    # CCN SBC page: "Move up to 2 hexes and battle", "RANGE 3 hexes", "CC DICE 3 dice",
    # "3 dice at range 2 or 3 hexes. Reduced to 1 die if unit moves and fires."
    assert u.mounted and u.standard == "square"
    assert u.movement.hexes == 2
    assert u.close_combat.dice == 3
    assert u.ranged is not None
    assert (u.ranged.dice, u.ranged.max_range, u.ranged.dice_after_move) == (3, 3, 1)
    # "May ignore 1 flag"; "Lose 2 Honor & Fortune tokens for each hex unit retreats."
    assert u.ignores_flags == 1 and u.retreat_hf_per_hex == 2
    assert any(s.doc == "ccn_unit_sbc" for s in u.sources)


def test_base_dice_by_standard(data: GenpeiData) -> None:
    # CCN rules/09: "circle ... 2 dice, triangle ... 3 dice, square ... 4 dice"
    assert data.units["samurai_infantry"].close_combat.dice == 4
    assert data.units["samurai_cavalry"].close_combat.dice == 4
    assert data.units["ashigaru_spearmen"].close_combat.dice == 3
    assert data.units["ashigaru_archers"].close_combat.dice == 2
    # Naval rules: "2 hex naval movement for Ashigaru Spearmen" is normally a no-battle move
    assert data.units["ashigaru_spearmen"].movement.hexes_no_battle == 2


def test_retreat_cost_by_standard(data: GenpeiData) -> None:
    # CCN FAQ retreats: "Circle and Triangle units lose 1 Honor and Fortune per hex",
    # "Square units lose 2 Honor and Fortune per hex"
    for u in data.units.values():
        if u.retreat_hf_per_hex == "unknown":
            continue
        assert u.retreat_hf_per_hex == (2 if u.standard == "square" else 1), u.id


def test_arquebus_gains_no_hf_at_range(data: GenpeiData) -> None:
    # rules-facts §1.2: "arquebus units gain no H&F in ranged combat; bow units do"
    u = data.units["ashigaru_arquebusiers"]
    assert u.ranged is not None and u.ranged.weapon == "arquebus"
    assert "archer" not in u.tags


def test_archer_tags(data: GenpeiData) -> None:
    # Arrow Tower: "An archer unit (Samurai, Sohei or Ashigaru)" (erratum arrow_tower_archer_units)
    archers = {u.id for u in data.units.values() if "archer" in u.tags}
    assert archers == {"samurai_archers", "sohei_archers", "ashigaru_archers"}


def test_bodyguard_and_commander(data: GenpeiData) -> None:
    assert "bodyguard" in data.units["bodyguard"].tags
    cmd = data.leaders["commander"]
    assert cmd.kind == "commander" and cmd.bodyguard == "bodyguard"
    # CCN FAQ close combat: infantry leader inspires the attached unit; cavalry leader the
    # attached or an adjacent unit, for 1 H&F and +1 die.
    assert data.leaders["infantry_leader"].inspiration.reach == "attached"
    cav = data.leaders["cavalry_leader"]
    assert cav.mounted and cav.inspiration.reach == "attached_or_adjacent"
    assert (cav.inspiration.hf_cost, cav.inspiration.extra_dice) == (1, 1)


# --------------------------------------------------------------------------- terrain


def test_stockade(data: GenpeiData) -> None:
    t = data.terrain["stockade"]
    # "block line of site between non-stockade hexes"
    assert t.blocks_los == "between_other_hexes"
    # "must start the turn adjacent ... and must stop when entering it"
    assert t.movement.must_start_adjacent and t.movement.must_stop
    # "Cavalry units and cavalry leaders may not enter a stockade hex."
    assert t.movement.mounted_may_enter is False
    # "may ignore 1 sword and 1 flag in combat"
    assert (t.combat.ignore_swords, t.combat.ignore_flags) == (1, 1)
    # "close combat into or out of a Stockade hex with a maximum of 2 dice"
    assert t.combat.close_from.foot == 2 and t.combat.close_into.foot == 2
    assert t.combat.close_into.mounted == 2
    # "Units on a non-Stockade hex perform ranged attacks into a Stockade hex with a maximum of 2 dice."
    assert t.combat.ranged_into.foot == 2
    # "Units on a Stockade hex perform ranged attacks at their normal value."
    assert t.combat.ranged_from.foot is None
    # "may battle first (as if playing a First Strike card)"
    assert t.combat.battles_first
    # "If the attacking unit rolls 2 or more Swords, the Stockade tile is destroyed ...
    # Any unit on the Stockade hex at the time of its destruction loses 1 figure."
    assert t.destruction is not None
    assert t.destruction.swords_needed == 2
    assert t.destruction.occupant_loses_figures == 1
    # "rolls the unit's normal full close combat dice (this is not reduced to 2 dice ...)"
    assert t.destruction.full_dice


def test_palisade(data: GenpeiData) -> None:
    t = data.terrain["palisade"]
    # "They will cover only certain hexsides"
    assert t.hexsides
    # "Palisades are passable and do not obstruct line of site."
    assert t.movement.passable == "yes" and t.blocks_los == "no"
    # "ignores one sword and may ignore one flag result for any attack coming across a
    # Palisade hexside" (erratum palisade_sword_ignore_scope)
    assert (t.combat.ignore_swords, t.combat.ignore_flags) == (1, 1)
    assert t.combat.protection_from == "covered_hexsides"
    # "Any sword result will destroy and remove the Palisade tile."
    assert t.destruction is not None and t.destruction.swords_needed == 1
    assert t.destruction.occupant_loses_figures == 0


def test_marsh(data: GenpeiData) -> None:
    t = data.terrain["marsh"]
    # "A unit or leader entering a marsh hex must stop"
    assert t.movement.must_stop
    # "A unit or lone leader leaving a Marsh hex may move only 1 hex and stop"
    assert t.movement.exit_max_hexes == 1
    # "Units close combat into and out of Marsh hexes with a maximum of 2 dice."
    assert t.combat.close_from.foot == 2 and t.combat.close_into.foot == 2
    # "A unit on a marsh hex performs ranged combat at a maximum of 1 die."
    assert t.combat.ranged_from.foot == 1
    # "Ranged combat targeting a unit on a marsh hex is unaffected."
    assert t.combat.ranged_into.foot is None
    # "must roll 1 die and loses 1 figure for a matching standard symbol"; lone leader
    # "is eliminated on a sword result"
    assert t.entry_roll is not None
    assert t.entry_roll.dice == 1
    assert t.entry_roll.unit_loses_figure_on == "own_standard"
    assert t.entry_roll.lone_leader_eliminated_on == "sword"
    # "Marsh hexes are considered water terrain"; "do not block line of sight"
    assert t.water and t.blocks_los == "no"


def test_arrow_tower(data: GenpeiData) -> None:
    t = data.terrain["arrow_tower"]
    # "may be built on a Palisade or Stockade"
    assert t.overlay and set(t.requires) == {"palisade", "stockade"}
    # "may fire with its normal combat dice at 4 hex range"
    assert t.combat.max_range == 4
    # "A Palisade Arrow Tower provides protection ... through all 6 hex sides."
    assert t.combat.protection_from == "all"


def test_ocean(data: GenpeiData) -> None:
    t = data.terrain["ocean"]
    # "In a scenario in which naval combat is allowed, Ocean hexes are passable."
    assert t.movement.passable == "naval" and t.naval


def test_base_terrain_caps(data: GenpeiData) -> None:
    # rules-facts §1.5 (CCN FAQ terrain)
    forest = data.terrain["forest"]
    assert forest.movement.must_stop and forest.combat.ranged_into.foot == 1   # "ranged fire at a unit in forest max 1"
    hill = data.terrain["hill"]
    assert hill.combat.close_from.foot == 3 and hill.combat.close_into.foot == 2  # "on a hill max 3", "up onto a hill max 2"
    assert data.terrain["river"].movement.passable == "no"                     # "impassable except at fords and bridges"
    assert data.terrain["bridge"].combat.ignore_flags == 1                      # "may ignore 1 flag"
    village = data.terrain["village"]
    assert village.movement.no_battle_after_entering and village.combat.no_inspiration  # "cannot battle that turn", "cannot be inspired"
    assert village.combat.close_from.mounted == 1                               # "cavalry inside 1"
    assert data.terrain["fields"].combat.close_into.mounted == 2                # "cavalry attacking from or into fields max 2"
    ravine = data.terrain["ravine"]
    assert ravine.combat.close_into.mounted == 1 and ravine.combat.close_into.foot == 2


# --------------------------------------------------------------------------- markers


def test_markers(data: GenpeiData) -> None:
    m = data.markers
    assert m["honour_fortune"].copies == 30     # rules-facts §1.1: "30 H&F tokens"
    assert m["victory_banner"].copies == 18     # rules-facts §1.1: "18 victory banner counters"
    assert m["grapple"].placed == "hexside"     # "Place a marker between the hexes of grappled units."
    assert m["wind_tide"].symbol == "arrow"
    assert m["command_ship"].kind == "tile"     # "The Command Ship is designated by a Command Tent tile."
    assert m["command_tent"].kind == "tile"
    assert m["lying_flat"].rules                # "Lay the figures of an embarking or disembarking unit flat"


# --------------------------------------------------------------------------- citations


def _unknowns(obj: Any, path: str) -> Iterator[str]:
    """Dotted paths of every ``unknown`` value inside a model."""
    if isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from _unknowns(getattr(obj, name), f"{path}.{name}")
    elif isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            yield from _unknowns(item, f"{path}.{i}")
    elif obj == "unknown":
        yield path


def _source_notes(obj: Any) -> Iterator[str]:
    if isinstance(obj, BaseModel):
        note = getattr(obj, "note", None)
        if isinstance(note, str) and "doc" in type(obj).model_fields:
            yield note
        for name in type(obj).model_fields:
            yield from _source_notes(getattr(obj, name))
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _source_notes(item)


def test_every_unknown_is_explained(data: GenpeiData) -> None:
    """Every ``unknown`` stat is named in an erratum, or its unit carries a source note on it."""
    errata_text = " ".join(
        " ".join([e.topic, e.why, *e.readings]) for e in data.sources.errata
    )
    missing = []
    for unit in data.units.values():
        notes = " ".join(_source_notes(unit))
        for path in _unknowns(unit, unit.id):
            if path in errata_text:
                continue
            field = path.split(".", 1)[1]
            if field in notes:
                continue
            missing.append(path)
    assert not missing, f"unknown values with no erratum or source note: {missing}"
    # every unknown of the units is in fact listed by name in an erratum
    listed = [p for u in data.units.values() for p in _unknowns(u, u.id) if p not in errata_text]
    assert not listed, f"unknown values not named in an erratum: {listed}"


def test_every_item_has_a_source(data: GenpeiData) -> None:
    for catalogue in (data.units, data.leaders, data.terrain, data.markers):
        for item in catalogue.values():
            assert item.sources, item.id
    known = {d.id for d in data.sources.documents}
    for required in ("genpei_pack", "genpei_terrain", "rules_facts", "ccn_faq_close_combat",
                     "ccn_faq_terrain", "ccn_rules_battle", "gunbai"):
        assert required in known


def test_required_errata(data: GenpeiData) -> None:
    ids = {e.id for e in data.sources.errata}
    assert {
        "board_rows_and_size", "figures_per_unit", "palisade_sword_ignore_scope",
        "arrow_tower_palisade_protection", "sohei_archers_close_combat_at_sea",
        "seed_texts_wording", "battle_die_faces",
    } <= ids
    for e in data.sources.errata:
        assert len(e.readings) >= 2 and 0 <= e.chosen < len(e.readings), e.id


def test_rule_summaries_are_not_rulebook_sentences(data: GenpeiData) -> None:
    """RuleNote summaries are our own words: none repeats a full sentence of the seed texts."""
    seeds = ROOT.parent / "shared" / "seeds"
    texts = [p.read_text(encoding="utf-8").replace("\xa0", " ") for p in sorted(seeds.glob("*.txt"))]
    if not texts:
        pytest.skip("seed texts not available")
    joined = "\n".join(texts)
    for catalogue in (data.units, data.leaders, data.terrain, data.markers):
        for item in catalogue.values():
            for note in item.rules:
                assert note.summary not in joined, f"{item.id}.{note.id} copies the rulebook"


def test_pack_sections_exist_in_seed(data: GenpeiData) -> None:
    """Terrain cited from genpei_terrain uses the headings that seed carries."""
    seed = (ROOT.parent / "shared" / "seeds" / "002_ab949cffc845db0a.txt")
    if not seed.exists():
        pytest.skip("seed 002 not available")
    headings = {line.strip() for line in seed.read_text(encoding="utf-8").splitlines()}
    for t in data.terrain.values():
        for s in t.sources:
            if s.doc == "genpei_terrain":
                assert s.section in headings, (t.id, s.section)


def test_loading_checks_no_text_fit_and_verification_refuses_what_does_not_fit(monkeypatch) -> None:
    """Loading draws nothing (the house rule): load() never runs the text fit checks; the
    interface's check_fit (which gunbai verify and the builds call after loading) raises their
    problems as a DataError."""
    from pipeline.errors import DataError, DataProblem
    from pipeline.systems.base import get_system
    from pipeline.systems.genpei import fit

    calls: list[int] = []
    problem = DataProblem(DATA / "units.yaml", 1, "name", "'x'", "a name that fits")

    def checks(d: GenpeiData) -> list:
        calls.append(len(d.scenarios))
        return [problem]

    monkeypatch.setattr(fit, "problems", checks)
    data = load(DATA)
    assert calls == []
    with pytest.raises(DataError) as exc:
        get_system("genpei").verify(DATA, None)
    assert exc.value.problems == [problem]
    assert calls == [len(data.scenarios)] == [len(list((DATA / "scenarios").glob("*.yaml")))]
