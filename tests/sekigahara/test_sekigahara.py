"""The Reluctant Samurai: data, the treachery roll by hand, legality, engine, module."""

from __future__ import annotations

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
