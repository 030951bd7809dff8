"""OHW Samurai: data, legality (gunbai verify), exact odds, engine playability, module."""

from __future__ import annotations

import dataclasses
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
    run = subprocess.run([sys.executable, "-m", "pipeline", "verify", "--data", str(root.parent), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, cwd=ROOT)
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


# ------------------------------------------------------------------ rules as written (issue 13)


def _roll_for(st, uid):
    """Put ``uid`` first in the movement queue: its orders roll is the next chance node."""
    st.queue.insert(0, uid)
    st.roll = None
    st._advance_queue()
    assert st.is_chance_node() and st.roll.unit == uid


def test_general_rerolls_any_roll_of_his_side(data):
    """ohw_samurai, General (Daimyo): 'Commanders can re-roll any dice roll, but must accept the
    re-rolled value' (erratum general_reroll, reading 0: any roll of his side, once)."""
    assert data.system.general.reroll == "own_side"
    assert next(e for e in data.sources.errata if e.id == "general_reroll").chosen == 0
    st = OhwState(data, data.scenarios[0].model)  # OHW4: blue_1 carries the Blue General
    _roll_for(st, "blue_2")  # an Ashigaru unit, not the General's
    st.apply_action(1)
    assert st.legal_actions() == [("accept",), ("reroll",)] and st.current_player() == st.active
    st.apply_action(("reroll",))
    assert st.is_chance_node()
    st.apply_action(1)  # the second value stands: no second re-roll
    assert st.roll is None and st.allowance == 6 - 3
    # reading 1 (his own unit only): no decision after another unit's roll, one after his own
    general = data.system.general.model_copy(update={"reroll": "own_unit"})
    own_unit = dataclasses.replace(data, system=data.system.model_copy(update={"general": general}))
    st = OhwState(own_unit, own_unit.scenarios[0].model)
    _roll_for(st, "blue_2")
    st.apply_action(1)
    assert st.roll is None
    _roll_for(st, "blue_1")
    st.apply_action(1)
    assert st.legal_actions() == [("accept",), ("reroll",)]
    # no re-roll once the General's unit is gone
    st = OhwState(data, data.scenarios[0].model)
    st.units["blue_1"].alive = False
    _roll_for(st, "blue_2")
    st.apply_action(1)
    assert st.roll is None


def test_units_in_contact_shoot_and_are_shot_at(data):
    """ohw_samurai, Shooting: the field of fire (45 degrees of the front) and the 12" range are the
    only conditions; contact is not one (erratum shooting_in_contact)."""
    st = OhwState(data, data.scenarios[0].model)
    for u in st.units.values():
        u.on_table = u.id in ("red_2", "blue_3", "blue_4")
    shooter, target, other = st.units["blue_3"], st.units["red_2"], st.units["blue_4"]
    target.base = target.base.placed(20, 14, 180)
    shooter.base = shooter.base.placed(20, 16, 0)  # flush against red_2's front
    other.base = other.base.placed(26, 22, 0)  # 6" off, red_2 in its arc
    assert st._contacts(shooter) == [target]
    assert target in st._shoot_targets(shooter)  # shoots while in contact
    assert target in st._shoot_targets(other)  # shoots at a unit in contact
    assert shooter in st._shoot_targets(target)


@pytest.mark.parametrize("defender_y,hits", [(19, 4), (13, 7)])
def test_hill_halves_only_against_an_attacker_off_the_hill(data, defender_y, hits):
    """ohw_samurai, Hand-to-Hand Combat 2 (Terrain Advantage): 'Defenders ... on a hill ... only
    suffer half' (erratum hill_defence: not when the attacker is on the same hill). A Foot Samurai
    rolls 5 + 2 = 7 hits: halved (rounding up for the attacker) to 4 when it attacks from below
    the hill, 7 when it stands on the hill too."""
    from pipeline.measured.geometry import contact_position
    from pipeline.systems.ohw.engine import _Roll

    st = OhwState(data, data.scenarios[0].model)  # the hill: x 12-24, y 12-20
    for u in st.units.values():
        u.on_table = u.id in ("red_1", "blue_1")
    defender, attacker = st.units["red_1"], st.units["blue_1"]
    defender.base = defender.base.placed(18, defender_y, 180)  # on the hill, facing south
    attacker.base = contact_position(attacker.base, defender.base, "front")
    hill = st.terrain[0][1]
    assert hill.overlaps(defender.base) and hill.overlaps(attacker.base) == (hits == 7)
    st.phase, st.queue = "hand_to_hand", ["blue_1"]
    st.roll = _Roll("melee", "blue_1", "red_1", 5, rerolled=True)
    st._resolve_roll()
    assert defender.hits == hits
