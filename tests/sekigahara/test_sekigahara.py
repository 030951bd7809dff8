"""The Reluctant Samurai: data, the treachery roll by hand, legality, engine, module."""

from __future__ import annotations

import dataclasses
import random
import shutil
from fractions import Fraction as F
from pathlib import Path

import pytest
import yaml

from pipeline.play import play_game, random_policy
from pipeline.systems.sekigahara import odds
from pipeline.systems.sekigahara.engine import SekiState
from pipeline.systems.sekigahara.load import load
from pipeline.systems.sekigahara.verify import verify_all

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data" / "sekigahara"


@pytest.fixture(scope="module")
def data():
    return load(DATA)


def test_treachery_reading_is_the_text_and_the_erratum_records_both(data):
    tr = data.system.treachery
    assert tr.reading == "text"
    e = next(e for e in data.sources.errata if e.id == "treachery_table_columns")
    assert len(e.readings) == 2 and e.chosen == 0
    assert [(r.east, r.west) for r in tr.text] == [([], []), ([6], []), ([5, 6], [1]), ([4, 5, 6], [1, 2])]
    assert [(r.east, r.west) for r in tr.table] == [([], []), ([], [6]), ([1], [5, 6]), ([1, 2], [4, 5, 6])]


def test_treachery_chances_by_turn_worked_by_hand(data):
    # Text reading. Turn 1: no roll. Turn 2: East 1/6. Turn 3: of the 5/6 still undecided,
    # East 2/6 and West 1/6. Turn 4 on: East 3/6, West 2/6 of what is left.
    t = odds.treachery_by_turn(data.system.treachery.text, 5)
    hand = [
        # (east on the turn, west on the turn, east by end, west by end, undecided after)
        (F(0), F(0), F(0), F(0), F(1)),
        (F(1, 6), F(0), F(1, 6), F(0), F(5, 6)),
        (F(5, 6) * F(2, 6), F(5, 6) * F(1, 6), F(16, 36), F(5, 36), F(15, 36)),
        (F(15, 36) * F(1, 2), F(15, 36) * F(1, 3), F(47, 72), F(5, 18), F(5, 72)),
        (F(5, 72) * F(1, 2), F(5, 72) * F(1, 3), F(11, 16), F(65, 216), F(5, 432)),
    ]
    for row, (eo, wo, eb, wb, u) in zip(t, hand, strict=True):
        assert (row["east_on_turn"], row["west_on_turn"], row["east_by_end"], row["west_by_end"], row["undecided_after"]) == (eo, wo, eb, wb, u)
    # in the end: East 1/6 + 5/6 (1/3 + 1/2 * 3/5) = 25/36, West 11/36
    assert odds.eventual(data.system.treachery.text) == {"east": F(25, 36), "west": F(11, 36), "undecided": F(0)}
    # the table's reading swaps the sides exactly
    assert odds.eventual(data.system.treachery.table) == {"east": F(11, 36), "west": F(25, 36), "undecided": F(0)}


def test_dice_odds():
    assert odds.shooting_hits(3).mean() == F(1, 2)
    assert odds.shooting_hits(2).probability(0) == F(25, 36)
    assert odds.melee_hits(4, 4).mean() == 2 and odds.melee_hits(3, 5).mean() == 1


def test_scenario_is_legal_with_kobayakawa_undecided(data):
    assert verify_all(data) == []
    sc = data.scenarios[0].model
    undecided = [u for u in sc.units if u.side == "undecided"]
    assert undecided and all(u.id.startswith("kobayakawa") for u in undecided)
    assert sum(u.stands for u in undecided) == 8


def _copy(tmp_path, change) -> Path:
    root = tmp_path / "sekigahara"
    shutil.copytree(DATA, root)
    p = root / "scenarios" / "sekigahara_1600.yaml"
    doc = yaml.safe_load(p.read_text(encoding="utf-8"))
    change(doc)
    p.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return root


def test_unit_outside_deployment_and_decided_kobayakawa_are_flagged(tmp_path):
    def change(d):
        u = next(u for u in d["units"] if u["id"] == "kuroda")
        u["x"] = 30  # out of the East line, into no-man's land
        k = next(u for u in d["units"] if u["id"] == "kobayakawa")
        k["side"] = "west"

    rules = {(f.rule_id, f.unit) for f in verify_all(load(_copy(tmp_path, change)))}
    assert ("seki-inside-deployment", "kuroda") in rules
    assert ("seki-undecided", "kobayakawa") in rules


def test_seeded_game_ends(data):
    sc = data.scenarios[0].model
    a = play_game(lambda: SekiState(data, sc), random_policy, random.Random(5), 13)
    b = play_game(lambda: SekiState(data, sc), random_policy, random.Random(5), 13)
    assert a == b and not a.cut_off


def test_kobayakawa_joins_per_the_roll(data):
    st = SekiState(data, data.scenarios[0].model)
    st._on_treachery("east", None)
    assert {u.side for u in st.units.values() if u.id.startswith("kobayakawa")} == {0}


# ------------------------------------------------------------------ rules as written (issue 13)


def _only(st, keep):
    """Leave only the units ``keep`` on the table (the others removed), no engagements."""
    for u in st.units.values():
        u.alive = u.id in keep
    for ld in st.leaders.values():
        ld.alive = ld.unit in keep
    st.engagements = []
    return st


def _step(st, kind, player, payload):
    st.steps = [(kind, player, payload)]
    st.pending = None


def test_flank_charge_on_an_engaged_unit_makes_a_three_unit_melee(data):
    """reluctant_samurai, Charge into Melee and Flank Attacks: a unit may charge an enemy in melee;
    charged in the flank, it fights back with two bases in the first round; in the melee each unit
    rolls its bases against one enemy it fights (erratum multi_unit_melee)."""
    from pipeline.measured.geometry import contact_position
    from pipeline.systems.sekigahara.engine import Engagement

    st = _only(SekiState(data, data.scenarios[0].model), {"ukita", "fukushima", "ii"})
    west, front, flanker = st.units["ukita"], st.units["fukushima"], st.units["ii"]
    west.base = west.base.placed(30, 24, 90)  # 4 stands facing east
    front.base = contact_position(front.base, west.base, "front")
    st.engagements = [Engagement("fukushima", "ukita", False, round=2)]
    flanker.base = flanker.base.placed(30, 30, 0)  # south of Ukita, 5" off its right flank, facing north
    _step(st, "charge", 0, "ii")
    assert ("charge", "ukita") in st.legal_actions()  # the old engine refused: Ukita is in melee
    st.apply_action(("charge", "ukita"))
    assert [(m.a, m.b, m.flank) for m in st.engagements] == [("fukushima", "ukita", False), ("ii", "ukita", True)]
    assert flanker.base.touches(west.base) and not flanker.base.overlaps(front.base)
    # the melee: Ukita (West) chooses whom to fight; its roll is limited to 2 bases; both East units roll at it
    st.leaders.pop("ukita", None)
    st.leaders.pop("fukushima", None)
    st.leaders.pop("ii", None)
    _step(st, "phase_melee", -1, None)
    st._run()
    assert st.current_player() == 1 and st.legal_actions() == [("fight", "fukushima"), ("fight", "ii")]
    st.apply_action(("fight", "ii"))
    rolls = []
    while st.pending is not None and st.pending[0] == "melee":
        me, target = st.pending[2]
        rolls.append((me, target, max(k for k, _ in st.pending[1])))
        st.apply_action(1)  # one hit each
    assert sorted(rolls) == [("fukushima", "ukita", 3), ("ii", "ukita", 2), ("ukita", "ii", 2)]
    # simultaneous: Ukita loses 2 of 4 stands; Ii loses 1 of 2 and its last stand goes at once
    assert (west.stands, front.stands, flanker.stands, flanker.alive) == (2, 3, 0, False)
    assert [(m.a, m.b, m.round) for m in st.engagements] == [("fukushima", "ukita", 3)]


def test_commander_moves_12_inches_and_leaders_detach_and_join(data):
    """reluctant_samurai, Movement ('Commanders may move up to 12"') and Leaders (attached to a unit,
    an extra base in melee): leaders leave their units and join others within 12" (erratum
    who_are_commanders: every leader is a commander)."""
    sc = data.scenarios[0].model
    st = _only(SekiState(data, sc), {"ieyasu", "ieyasu_horse", "kuroda", "ii"})
    ieyasu = st.leaders["ieyasu"]
    assert ieyasu.commander and ieyasu.unit == "ieyasu" and st.leader_move(ieyasu) == 12
    # Ieyasu stands at x 64; a unit facing west is 1" deep: Ii's near edge 11.9" away, Kuroda's 12.5"
    st.units["ii"].base = st.units["ii"].base.placed(64 - 12.4, 15, 270)
    st.units["kuroda"].base = st.units["kuroda"].base.placed(64 - 13, 22, 270)
    st.leaders.pop("ii")
    st.leaders.pop("kuroda")
    _step(st, "leader", 0, "ieyasu")
    opts = st.legal_actions()
    assert ("join", "ii") in opts and ("join", "kuroda") not in opts and ("detach",) in opts
    assert ("join", "ieyasu_horse") in opts  # next to him, without a leader
    st.apply_action(("join", "ii"))
    assert ieyasu.unit == "ii" and st._leader_of("ieyasu") is None
    # the leader is an extra base of his new unit in melee, and no longer of the old one
    assert st._dice(st.units["ii"], st.units["kuroda"], None) == (2, 4, True)
    assert st._dice(st.units["ieyasu"], st.units["kuroda"], None) == (4, 5, False)
    _step(st, "leader", 0, "ieyasu")
    st.apply_action(("detach",))
    assert ieyasu.unit is None and st._dice(st.units["ii"], st.units["kuroda"], None) == (2, 4, False)
    # reading 1 of the erratum: only the army commanders move 12", other leaders 6"
    movement = data.system.movement.model_copy(update={"commanders": "army_commanders"})
    other = SekiState(dataclasses.replace(data, system=data.system.model_copy(update={"movement": movement})), sc)
    assert other.leader_move(other.leaders["ieyasu"]) == 12 and other.leader_move(other.leaders["kuroda"]) == 6


def test_leader_survives_his_destroyed_unit_unless_the_roll_kills_him(data):
    """reluctant_samurai, Leaders: the loss roll (6 on a D6) when the unit loses bases in melee is
    the only way a leader falls (erratum leader_of_destroyed_unit)."""
    st = _only(SekiState(data, data.scenarios[0].model), {"shimazu", "kuroda"})
    st._losses = {"shimazu": 5}
    st.steps = []
    st._apply_melee()
    assert not st.units["shimazu"].alive and st.leaders["shimazu"].unit is None and st.leaders["shimazu"].alive
    assert st.steps[0] == ("leader_roll", -1, "shimazu")
    st._run()
    assert st.pending[1] == [("dies", 1 / 6), ("lives", 5 / 6)]


def test_every_verdict_says_the_victory_condition_is_gunbais(data):
    from pipeline.verdicts import play_all

    ((v,),) = [r.entries for r in play_all(DATA.parent, ["sekigahara"], budget=2, precision=0.05)]
    assert "victory condition: gunbai's own" in "\n".join(v.lines()) and v.games == 2
    assert data.scenarios[0].model.victory.startswith("gunbai's own condition")


def test_card_footers_cite_each_document_once_with_its_sections(data):
    """The units card cited "reluctant_samurai" three times (Melee, Flank Attacks, Leaders): a
    footer now names each document of sources.yaml once, by its title, with every section."""
    from pipeline.systems.sekigahara.art import card_specs

    title = next(d.title for d in data.sources.documents if d.id == "reluctant_samurai")
    footer = card_specs(data)["card_units_melee.png"].footer
    assert footer.count(title) == 1 and "reluctant_samurai" not in footer
    assert footer == (f"Sources: {title}: Melee, Melee table, Flank Attacks, Leaders, "
                      "Melee table (Cavalry, Leaders 4-6)")
