"""Set-ups of Ronin games: the module's layout of a side in its zone, and the scenarios' set-up
rules (book, Scenarios p.59-66) checked by ``gunbai verify``, each broken once on purpose."""

from __future__ import annotations

import math
import shutil

import pytest
import yaml

from pipeline.errors import DataError
from pipeline.systems.ronin.deployment import (
    CLEARANCE,
    MARKER_RADIUS,
    base_inside,
    base_radius,
    deployment,
    markers,
    spots,
    zone_gap,
)
from pipeline.systems.ronin.load import load
from pipeline.systems.ronin.model import Zone
from pipeline.systems.ronin.verify import verify_all

from .conftest import DATA

R = 25 / 25.4 / 2  # a 25 mm base (p.5), inches


def test_spots_worked_by_hand():
    # a 6 x 2 inch band: one row through its middle (y = 1), 1.5 inches apart, centred on x = 3
    assert spots(Zone(kind="rect", x=0, y=0, w=6, h=2), 3, 24, r=0.5) == [(1.5, 1.0), (3.0, 1.0), (4.5, 1.0)]
    # four models: the grid offset by half a step keeps them centred (2.25 ... 3.75)
    got = spots(Zone(kind="rect", x=0, y=0, w=6, h=2), 4, 24, r=0.5)
    assert got == [(0.75, 1.0), (2.25, 1.0), (3.75, 1.0), (5.25, 1.0)]
    # a 1-inch-deep band cannot hold a 25 mm base 0.25 inch from... it can (0.98 < 1); a 0.9 one cannot
    with pytest.raises(ValueError, match="fewer than 2 models"):
        spots(Zone(kind="rect", x=0, y=0, w=6, h=0.9), 2, 24, r=R)
    # 5 models on a 3-inch strip: 1.5 apart holds 2, 1.25 holds 2, 1 inch holds 3: not enough
    with pytest.raises(ValueError):
        spots(Zone(kind="rect", x=0, y=0, w=3, h=1), 5, 24, r=R)


def test_spots_keep_clear_of_terrain_and_markers():
    zone = Zone(kind="circle", x=12, y=12, r=6)
    house = Zone(kind="rect", x=9, y=9, w=4, h=2.5)
    got = spots(zone, 12, 24, r=R, terrain=[house], avoid=[(12, 12)])
    assert len(got) == 12 and len(set(got)) == 12
    for p in got:
        assert base_inside(zone, p, R)
        assert zone_gap(house, p) >= R + CLEARANCE - 1e-9
        assert math.hypot(p[0] - 12, p[1] - 12) >= R + MARKER_RADIUS + CLEARANCE - 1e-9
    assert min(math.dist(p, q) for i, p in enumerate(got) for q in got[i + 1:]) >= 1.5 - 1e-9


def test_defend_the_village_models_stand_clear_of_the_farmhouse_fence_and_markers(data):
    """Seen in VASSAL: the Defender's row straddled the farmhouse's edge and a model stood on the
    objective marker."""
    g = next(lg.value for lg in data.games if lg.value.id == "defend_the_village")
    r = base_radius(data)
    for side in g.sides:
        pos = deployment(data, g, side)
        for p in pos:
            assert base_inside(side.zone, p, r)
            for tp in g.terrain:
                assert zone_gap(tp.zone, p) >= r + CLEARANCE - 1e-9, (side.role, p, tp.name)
            for m in markers(g):
                assert math.dist(p, m) >= r + MARKER_RADIUS + CLEARANCE - 1e-9, (side.role, p, m)


def _copy(tmp_path, game: str, change=None, scenario: str | None = None, change_scenario=None):
    copy = tmp_path / "ronin"
    shutil.copytree(DATA, copy)
    for folder, name, fn in (("games", game, change), ("scenarios", scenario, change_scenario)):
        if fn is None:
            continue
        path = copy / folder / f"{name}.yaml"
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        fn(doc)
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return copy


def _findings(copy):
    return [f for f in verify_all(load(copy))]


def test_assassination_keeps_the_ninja_9_inches_from_the_defenders(tmp_path):
    # the Attacker's band moved to y 12-14: the Defenders' seven at y = 18; the band's edge at
    # y = 14 is 4 inches from their centres, less r = 0.492: 3.51 inches from their bases (< 9).
    # The zone says it (its six models in one row at y = 13 are 4.07 inches from them edge to
    # edge: 0.75 across and 5 down, less 2r), so they are not listed too.
    copy = _copy(tmp_path, "assassination", lambda d: d["sides"][0]["zone"].update(y=12, h=2))
    f = [x for x in _findings(copy) if x.rule == "deploy-apart"]
    assert len(f) == 1
    assert "zone comes 3.51 inches from Defender's model" in f[0].message and "at least 9 apart" in f[0].message
    assert "Assassination, Deployment (p.63)" in f[0].message and "assassination.yaml:" in str(f[0])


def test_defence_keeps_other_terrain_8_inches_from_the_objective(tmp_path):
    # the forest (circle r 3) moved to (18, 8): the shrine (circle r 2 at 18, 18) is 10 - 3 - 2 = 5 away
    copy = _copy(tmp_path, "defence", lambda d: d["terrain"][1]["zone"].update(x=18, y=8))
    f = [x for x in _findings(copy) if x.rule == "terrain-clear"]
    assert len(f) == 1 and "comes 5.00 inches from Shrine" in f[0].message and "8 inches away" in f[0].message


def test_defence_keeps_the_defender_within_12_inches_of_the_objective(tmp_path):
    # the Defender's zone moved to a circle round (18, 31), r 4: its row at y = 31 is 13 from (18, 18)
    copy = _copy(tmp_path, "defence", lambda d: d["sides"][1]["zone"].update(x=18, y=31, r=4))
    rules = [x.rule for x in _findings(copy)]
    assert "deploy-within" in rules


def test_defend_the_village_attacker_within_3_inches_of_an_edge(tmp_path):
    # an 8-inch-deep band along the north edge: the zone the players see reaches 8 inches in
    copy = _copy(tmp_path, "defend_the_village", lambda d: d["sides"][0]["zone"].update(h=8))
    f = [x for x in _findings(copy) if x.rule == "deploy-edge"]
    assert len(f) == 1 and "zone reaches 8.00 inches in from its nearest table edge" in f[0].message
    # the shipped 3-inch band with the models placed in it (as `gunbai import` writes them) passes
    def placed(d):
        d["sides"][0]["zone"].update(h=3)
        d["sides"][0]["placed"] = [{"model": "bushi:ashigaru", "x": 3.0 + 1.5 * k, "y": 1.5} for k in range(4)] + [
            {"model": "bushi:samurai", "x": 12.0, "y": 1.5}]
    copy = _copy(tmp_path / "b", "defend_the_village", placed)
    assert "deploy-edge" not in [x.rule for x in _findings(copy)]


def test_skirmish_sides_on_opposite_edges_or_corners(tmp_path):
    # Player B along the left edge while Player A holds the top one: neither Edges nor Corners
    copy = _copy(tmp_path, "skirmish", lambda d: d["sides"][1]["zone"].update(x=0, y=0, w=2, h=24))
    f = [x for x in _findings(copy) if x.rule == "deployment-option"]
    assert len(f) == 1 and "edges (2 inches) or corners (6 inches)" in f[0].message


def test_duel_keeps_the_duelling_area_clear(tmp_path):
    def change(d):
        d["terrain"] = (d.get("terrain") or []) + [{"name": "Rock", "kind": "shrubs", "zone": {"kind": "circle", "x": 12, "y": 15, "r": 1},
                                                     "source": {"doc": "gunbai", "section": "Game layout", "confidence": "L", "note": "test"}}]
        d["sides"][0]["zone"].update(y=5, h=4)  # the row at y = 7: 5 from the centre, its base 4.51 (< 6)
    copy = _copy(tmp_path, "duel", change)
    rules = sorted(x.rule for x in _findings(copy))
    assert rules == ["deploy-outside", "terrain-clear"]


def test_capture_objective_in_the_centre(tmp_path):
    copy = _copy(tmp_path, "capture", lambda d: d.update(objective=[10, 12]))
    f = [x for x in _findings(copy) if x.rule == "objective-centred"]
    assert len(f) == 1 and "centre (12, 12)" in f[0].message


def test_a_zone_too_small_for_its_force(tmp_path):
    copy = _copy(tmp_path, "skirmish", lambda d: d["sides"][0]["zone"].update(w=3, h=1))
    f = [x for x in _findings(copy) if x.rule == "zone-room"]
    assert len(f) == 1 and "fewer than 5 models" in f[0].message


def test_a_rule_naming_a_role_the_scenario_lacks_is_refused_with_its_line(tmp_path):
    copy = _copy(tmp_path, "assassination", scenario="assassination",
                 change_scenario=lambda d: d["deployment_rules"][1].update(apart_from="Defendr"))
    with pytest.raises(DataError) as exc:
        load(copy)
    text = str(exc.value)
    assert "scenarios/assassination.yaml:" in text and "deployment_rules[1].apart_from" in text and "'Defendr'" in text


def test_laid_out_models_keep_off_the_compass_and_scale_bar(data):
    """Seen in VASSAL: the Defence Attacker's row of twelve stood on the 36-inch board's scale bar
    (top left, 0.8-13.6 by 0.8-2.5 inches). Every shipped game's laid-out models now keep off
    both drawn boxes (the 12-model row falls back to 1.25 inches apart to fit between them)."""
    from pipeline.measured.layout import decoration_boxes

    assert decoration_boxes(36, 36)[1] == pytest.approx((0.8, 0.8, 13.6, 2.5))
    r = base_radius(data)
    for lg in data.games:
        g = lg.value
        boxes = [Zone(kind="rect", x=a, y=b, w=c - a, h=d - b) for a, b, c, d in decoration_boxes(g.table_side_in, g.table_side_in)]
        for side in g.sides:
            if side.placed:
                continue
            for p in deployment(data, g, side):
                assert all(zone_gap(b, p) >= r + CLEARANCE - 1e-9 for b in boxes), (g.id, side.role, p)


# --- found by a tester trying to break the checks (each was accepted before) -----------------


def test_a_role_the_scenario_lacks_or_two_alike(tmp_path):
    """A rule binds a role by name: a side renamed "Raider" escaped the Attacker's 3-inch rule."""
    copy = _copy(tmp_path, "defend_the_village", lambda d: d["sides"][0].update(role="Raider"))
    f = [x for x in _findings(copy) if x.rule == "known-role"]
    assert len(f) == 1 and "'Raider' is not a role of the Defend the Village scenario (Attacker, Defender)" in f[0].message
    copy = _copy(tmp_path / "b", "skirmish", lambda d: d["sides"][1].update(role="Player A"))
    assert [x.rule for x in _findings(copy)] == ["known-role"]


def test_a_fixed_force_zone_off_the_table(tmp_path):
    """The Assassination Attacker (a fixed force, no roster) skipped the zone-on-table check."""
    def change(d):
        d["sides"][0]["zone"] = {"kind": "rect", "x": -30, "y": 0, "w": 20, "h": 4}
    copy = _copy(tmp_path, "assassination", change)
    assert "zone-on-table" in [x.rule for x in _findings(copy)]


def test_placed_models_whole_base_on_the_table_and_apart(tmp_path):
    """Placed at y = 0 half of each base was off the table; six on one point passed."""
    def change(d):
        d["sides"][0]["zone"] = {"kind": "rect", "x": 0, "y": 0, "w": 24, "h": 2}
        ids = ["bushi:ashigaru"] * 4 + ["bushi:samurai"]
        d["sides"][0]["placed"] = [{"model": m, "x": 3.0 + 2 * k, "y": 0.0 if k == 0 else 1.0} for k, m in enumerate(ids)]
    copy = _copy(tmp_path, "skirmish", change)
    f = [x for x in _findings(copy) if x.rule == "placed-force"]
    assert len(f) == 1 and "at (3, 0) has its base" in f[0].message
    def stacked(d):
        change(d)
        for pm in d["sides"][0]["placed"]:
            pm.update(x=5.0, y=1.0)
    copy = _copy(tmp_path / "b", "skirmish", stacked)
    f = [x for x in _findings(copy) if x.rule == "bases-apart"]
    assert len(f) == 1 and "stand 0.00 apart" in f[0].message


def test_the_second_side_laid_out_keeps_off_the_first(tmp_path):
    """Defend the Village's Defender may deploy anywhere: in the Attacker's band the two rows
    overlapped. The Defender (listed second) now keeps off the Attacker's models."""
    copy = _copy(tmp_path, "defend_the_village", lambda d: d["sides"][1].update(zone={"kind": "rect", "x": 0, "y": 0, "w": 24, "h": 3}))
    data = load(copy)
    g = next(lg.value for lg in data.games if lg.value.id == "defend_the_village")
    a, b = deployment(data, g, g.sides[0]), deployment(data, g, g.sides[1])
    r = base_radius(data)
    assert min(math.dist(p, q) for p in a for q in b) >= 2 * r
    assert "bases-apart" not in [x.rule for x in verify_all(data)]


def test_defence_attacker_along_an_edge_and_the_objective_piece_in_the_centre(tmp_path):
    """Erratum defence_attacker_edge_depth: the Attacker within 2 inches of an edge; the shrine
    (the objective's piece) must cover the centre."""
    def change(d):
        d["sides"][0]["zone"] = {"kind": "rect", "x": 10, "y": 24, "w": 16, "h": 2}  # y 24-26: 12 inches in from the south edge
        d["terrain"][0]["zone"] = {"kind": "circle", "x": 16.5, "y": 18, "r": 1}     # 0.5 inches short of (18, 18)
    copy = _copy(tmp_path, "defence", change)
    f = {x.rule: x for x in _findings(copy)}
    assert "deploy-edge" in f and "zone reaches 12.00 inches in from its nearest table edge" in f["deploy-edge"].message
    assert "objective-centred" in f and "(it is 0.50 inches away)" in f["objective-centred"].message


def test_a_zone_wider_than_its_rule(tmp_path):
    """A Defender circle of r 16 round the objective passed because its laid-out models happened
    to fall within 12 inches; the module draws the zone for players, so it must obey the rule."""
    copy = _copy(tmp_path, "defence", lambda d: d["sides"][1]["zone"].update(r=16))
    f = [x for x in _findings(copy) if x.rule == "deploy-within"]
    assert len(f) == 1 and "zone reaches 16.00 inches from the objective" in f[0].message


@pytest.mark.parametrize("rule, expected", [
    ({"kind": "apart", "who": "Defender", "apart_from": "Defender", "inches": 9}, "apart_from: 'Defender' is not valid; expected a role other than 'who'"),
    ({"kind": "apart", "apart_from": "Defender", "inches": 9}, "kind: 'apart' is not valid; expected a 'apart' rule with who"),
    ({"kind": "edge", "who": "Attacker", "of": "centre", "inches": 3}, "kind: 'edge' is not valid; expected a 'edge' rule without of"),
    ({"kind": "centred", "inches": 4}, "kind: 'centred' is not valid; expected a 'centred' rule without inches"),
    ({"kind": "within", "who": "Defender", "inches": 12}, "kind: 'within' is not valid; expected a 'within' rule with of"),
])
def test_malformed_deployment_rules_are_refused_with_their_line(tmp_path, rule, expected):
    def change(d):
        d["deployment_rules"][0] = {**rule, "source": {"doc": "ronin_book", "section": "Scenarios: Assassination, Deployment (p.63)"}}
    copy = _copy(tmp_path, "assassination", scenario="assassination", change_scenario=change)
    with pytest.raises(DataError) as exc:
        load(copy)
    assert "scenarios/assassination.yaml:" in str(exc.value) and expected in str(exc.value)


def test_reserves_is_not_a_deployment_option_that_places_models(tmp_path):
    copy = _copy(tmp_path, "skirmish", scenario="skirmish", change_scenario=lambda d: d.update(deployment_options=["reserves"]))
    with pytest.raises(DataError, match=r"deployment_options\[0\]: 'reserves'.*places the models"):
        load(copy)


def test_gunbai_sheets_refuses_a_zone_too_small_in_one_line(tmp_path):
    """`gunbai sheets` printed a traceback (ValueError from the layout) where verify names the game."""
    from typer.testing import CliRunner

    from pipeline.cli import app

    copy = _copy(tmp_path, "skirmish", lambda d: d["sides"][0]["zone"].update(w=2, h=2))
    res = CliRunner().invoke(app, ["sheets", "--system", "ronin", "--data", str(copy.parent), "--out", str(tmp_path / "out")])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "games/skirmish.yaml:" in res.output and "fewer than 5 models" in res.output


def test_verify_counts_games_with_problems_not_problems(tmp_path):
    """One game with two problems printed "4 legal, 3 with problems" for 7 games."""
    from typer.testing import CliRunner

    from pipeline.cli import app

    def change(d):
        d["sides"][1]["role"] = "Player A"
        d["sides"][1]["zone"].update(x=30)
    copy = _copy(tmp_path, "skirmish", change)
    res = CliRunner().invoke(app, ["verify", "--system", "ronin", "--data", str(copy.parent), "--out", str(tmp_path / "out")])
    assert res.exit_code == 1
    assert "ronin: 7 scenario(s): 6 legal, 1 with problems" in res.output
