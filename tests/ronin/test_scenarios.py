"""Scenarios as data, and gunbai verify of a scenario with two rosters (games/*.yaml)."""

from __future__ import annotations

import shutil

import yaml

from pipeline.build import verify_all as verify_everything
from pipeline.systems.ronin.load import load
from pipeline.systems.ronin.verify import recommended_table, verify_all

from .conftest import DATA

SCENARIOS = {"skirmish", "capture", "duel", "defence", "assassination", "tournament", "defend_the_village"}


def test_seven_scenarios(data):
    assert set(data.scenarios) == SCENARIOS
    sc = data.scenarios
    assert sc["defence"].forces.kind == "attacker_double"
    assert sc["defend_the_village"].forces.civilians_per_points == 25
    assert sc["assassination"].forces.defender_points == 150 and sc["assassination"].table_side_in == 36
    assert sc["capture"].game_length == "8 turns."
    assert {g.value.scenario for g in data.games} == SCENARIOS


def test_table_size_by_points(data):
    assert [recommended_table(data, p) for p in (50, 100, 101, 200, 201, 400)] == [24, 24, 36, 36, 48, 48]


def test_shipped_games_are_legal(data):
    assert verify_all(data) == []


def _copy(tmp_path, game: str, change):
    copy = tmp_path / "ronin"
    shutil.copytree(DATA, copy)
    path = copy / "games" / f"{game}.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return copy, path


def _rules(copy):
    return [f.rule for f in verify_all(load(copy))]


def test_defence_needs_the_attacker_at_twice_the_defender(tmp_path):
    def change(doc):
        doc["sides"][0]["roster"] = "bushi_sample_100"  # 100 against 100
    copy, _ = _copy(tmp_path, "defence", change)
    findings = {f.rule: f for f in verify_all(load(copy))}
    # a 100-point game also wants the 24-inch table instead of the 36-inch one
    assert set(findings) == {"attacker-double", "table-size"}
    f = findings["attacker-double"]
    assert "twice the Defender's 100 (200)" in f.message and "Scenarios: Defence" in f.source and "defence.yaml:" in str(f)


def test_equal_points_civilians_and_table(tmp_path):
    def change(doc):
        doc["sides"][0]["roster"] = "bushi_guard_150"  # 150 against 100
        doc["civilians"] = 3
    copy, _ = _copy(tmp_path, "defend_the_village", change)
    assert sorted(_rules(copy)) == ["civilians", "equal-points", "table-size"]


def test_a_roster_problem_fails_the_game(tmp_path):
    copy, _ = _copy(tmp_path, "skirmish", lambda doc: doc["sides"][0].update(roster="bushi_sample_200"))
    rules = _rules(copy)
    assert "points-limit" in rules and "equal-points" in rules


def test_gunbai_verify_routes_a_ronin_game_file(tmp_path):
    findings, n = verify_everything(DATA.parent, [DATA / "games" / "defence.yaml"])
    assert (findings, n) == ([], 1)
    copy, path = _copy(tmp_path, "defence", lambda doc: doc.update(table_side_in=48))
    findings, n = verify_everything(copy.parent, [path])
    # a 48-inch table also puts the objective at (18, 18) off its centre (24, 24)
    assert sorted(f.rule for f in findings) == ["objective-centred", "table-size"] and n == 1
