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
    markers,
    spots,
    zone_gap,
)
from pipeline.systems.ronin.load import load
from pipeline.systems.ronin.model import Zone
from pipeline.systems.ronin.module import base_radius, deployment
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
    # the Attacker's band moved to y 12-14: its six in one row at y = 13, x = 14.25 + 1.5k; the
    # Defenders' seven at y = 18, x = 13.5 + 1.5k: the nearest pair is 0.75 across and 5 down,
    # sqrt(0.75² + 5²) = 5.056 centre to centre, less 2r = 0.984: 4.07 inches edge to edge (< 9)
    copy = _copy(tmp_path, "assassination", lambda d: d["sides"][0]["zone"].update(y=12, h=2))
    f = [x for x in _findings(copy) if x.rule == "deploy-apart"]
    assert len(f) == 1
    assert "4.07 inches from Defender's" in f[0].message and "at least 9 apart" in f[0].message
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
    # an 8-inch-deep band: the one row stands at y = 4, its bases reach 4 + r = 4.49 inches in
    copy = _copy(tmp_path, "defend_the_village", lambda d: d["sides"][0]["zone"].update(h=8))
    f = [x for x in _findings(copy) if x.rule == "deploy-edge"]
    assert len(f) == 1 and "4.49 inches from the nearest table edge" in f[0].message


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
    from pipeline.measured.art import decoration_boxes

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
