"""OHW Samurai: data, legality (gunbai verify), exact odds, engine playability, module."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from pipeline.play import play_game, random_policy, run_playability
from pipeline.systems.ohw import odds
from pipeline.systems.ohw.engine import OhwState
from pipeline.systems.ohw.load import load
from pipeline.systems.ohw.verify import RULES, verify_all

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data" / "ohw"


@pytest.fixture(scope="module")
def data():
    return load(DATA)


def test_data_matches_the_seed(data):
    u = data.units
    assert set(u) == {"foot_samurai", "mounted_samurai", "ashigaru"}
    assert (u["ashigaru"].move.inches, u["mounted_samurai"].move.inches, u["foot_samurai"].move.inches) == (6, 12, 9)
    assert u["ashigaru"].shooting.modifier == 0 and u["mounted_samurai"].shooting.modifier == -2 and u["foot_samurai"].shooting is None
    assert (u["foot_samurai"].melee.modifier, u["ashigaru"].melee.modifier) == (2, -2)
    s = data.system
    assert (s.turns.limit, s.elimination.hits, s.orders.full_move_on, s.orders.damaged_full_move_on) == (15, 15, 3, 4)
    assert s.general.attached_to == "foot_samurai" and s.charge.max_turn_degrees == 45
    assert {e.id for e in data.sources.errata} >= {"mounted_samurai_are_skirmishers", "halvings_do_not_compound"}


def test_three_scenarios_on_ohw_patterns_are_legal(data):
    assert len(data.scenarios) >= 3
    assert {s.model.pattern.number for s in data.scenarios} >= {4, 11, 30}
    assert verify_all(data) == []


def _copy(tmp_path: Path, change) -> Path:
    root = tmp_path / "data" / "ohw"
    shutil.copytree(DATA, root)
    path = root / "scenarios" / "ohw04_take_the_high_ground.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return root


def _unit(doc, uid):
    return next(u for u in doc["units"] if u["id"] == uid)


def test_unit_outside_its_deployment_area_is_flagged(tmp_path):
    root = _copy(tmp_path, lambda d: _unit(d, "red_2").update(y=22))
    findings = verify_all(load(root))
    assert [(f.rule_id, f.unit) for f in findings] == [("inside-deployment", "red_2")]
    assert "ohw04_take_the_high_ground.yaml:" in str(findings[0]) and "[rules_facts" in str(findings[0])


def test_general_not_on_foot_samurai_is_flagged(tmp_path):
    def move_general(d):
        _unit(d, "red_1").pop("general")
        _unit(d, "red_2")["general"] = "Red Daimyo"

    findings = verify_all(load(_copy(tmp_path, move_general)))
    assert [(f.rule_id, f.unit) for f in findings] == [("general-on-foot-samurai", "red_2")]


def test_overlap_and_off_table_are_flagged(tmp_path):
    def change(d):
        _unit(d, "blue_2").update(x=16)  # overlaps blue_1 at x 15
        _unit(d, "blue_6").update(x=1)

    rules = sorted(f.rule_id for f in verify_all(load(_copy(tmp_path, change))))
    assert rules == ["inside-deployment", "no-overlap", "on-table"]


def test_gunbai_verify_flags_the_general(tmp_path):
    root = _copy(tmp_path, lambda d: _unit(d, "blue_1").update(unit="ashigaru"))
    run = subprocess.run([sys.executable, "-m", "pipeline", "verify", "--data", str(root.parent)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1
    assert "general-on-foot-samurai" in run.stderr and "blue_1" in run.stderr


def test_rules_cite_known_documents(data):
    docs = {d.id for d in data.sources.documents}
    assert {r.doc for r in RULES.values()} <= docs


def test_exact_odds():
    # Ashigaru shooting: D6 hits, mean 3.5; in cover halved rounding up: 1,1,2,2,3,3
    assert odds.shot(0, halved=False).mean() == Fraction(7, 2)
    assert odds.shot(0, halved=True).mean() == 2
    # Skirmishers: max(0, D6-2) = 0,0,1,2,3,4
    assert odds.shot(-2, halved=False).mean() == Fraction(10, 6)
    # Foot Samurai charge into an Ashigaru front: D6+2 halved = 2,2,3,3,4,4; into its flank: D6+2 doubled
    assert odds.attack(2, halved=True, flank_or_rear=False).mean() == 3
    assert odds.attack(2, halved=False, flank_or_rear=True).mean() == 11
    # A General re-rolling 1s and 2s: mean of D6 = 2/6 * 3.5 + 4/6 * 4.5
    assert odds.shot(0, halved=False, reroll_below=3).mean() == Fraction(25, 6)


def test_games_are_seeded_and_end_within_15_turns(data):
    sc = data.scenarios[2].model  # Last Stand, the quickest
    a = play_game(lambda: OhwState(data, sc), random_policy, random.Random("x"), 31)
    b = play_game(lambda: OhwState(data, sc), random_policy, random.Random("x"), 31)
    assert a == b and not a.cut_off and a.turns <= 30
    rep = run_playability(lambda: OhwState(data, sc), random_policy, games=6, seed=3, turn_cap=31, side_names=["red", "blue"])
    assert rep.games == 6 and rep.cut_off == 0 and sum(s.wins for s in rep.sides) <= 6


def test_charge_rules_in_the_engine(data):
    sc = data.scenarios[0].model
    st = OhwState(data, sc)
    st.allowance = 12
    u = st.units["blue_1"]
    # an enemy straight ahead and 6" away can be charged; one far off to the side cannot (45 degree turn)
    target = st.units["red_1"]
    target.on_table = True
    u.base = u.base.placed(16, 22, 0)
    assert st._charge_to(u, target) is not None
    u.base = u.base.placed(34, 22, 0)
    assert st._charge_to(u, target) is None
