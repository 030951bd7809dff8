"""OHW Samurai, rules as written (issue 27): impassable ground for every kind of move (O1),
turning to face by a pivot on the centre (O6), the road bonus for a move spent on the road (O9),
charge reach to any point of contact (C1). Every position is built by hand and its numbers
worked from the rules text (seed 004) in the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.measured.data import Area
from pipeline.measured.geometry import Base, Rect, contact_position
from pipeline.systems.ohw.engine import OhwState
from pipeline.systems.ohw.load import load
from pipeline.systems.ohw.model import TerrainPlacement

DATA = Path(__file__).resolve().parents[2] / "source_data" / "ohw"


@pytest.fixture(scope="module")
def data():
    return load(DATA)


def _state(data, terrain=(), keep=(), scenario=0):
    """A state of an OHW scenario with only the units ``keep`` on the table and ``terrain``
    (``(kind, x, y, w, h)``) instead of the scenario's own; movement phase, Blue to move."""
    sc = data.scenarios[scenario].model
    sc = sc.model_copy(update={"terrain": [TerrainPlacement(terrain=k, area=Area(x=x, y=y, w=w, h=h)) for k, x, y, w, h in terrain]})
    st = OhwState(data, sc)
    for u in st.units.values():
        u.on_table = u.id in keep
        u.alive = u.id in keep
    st.phase, st.roll = "movement", None
    return st


def _place(st, uid, x, y, facing):
    u = st.units[uid]
    u.base = u.base.placed(x, y, facing)
    return u


# ------------------------------------------------------------------ O1: impassable ground


def test_a_ford_elsewhere_does_not_open_woods_to_a_charge(data):
    """ "Woods. Impassible": a Foot Samurai (4" x 2") at (18, 26) facing north, allowance 9",
    faces an Ashigaru at (18, 20) facing south: 4" between the front edges (y 25 and 21). A wood
    18" wide (x 8-26, y 22.5-23.5) lies across the gap, so no turn of 45 degrees or less gets
    round it within 9". The old engine skipped the terrain test for charges once any ford was on
    the table."""
    terrain = [("woods", 8, 22.5, 18, 1), ("ford", 1, 1, 4, 4)]
    st = _state(data, terrain, keep=("blue_1", "red_2"))
    st.allowance = 9
    charger, target = _place(st, "blue_1", 18, 26, 0), _place(st, "red_2", 18, 20, 180)
    assert st._charge_to(charger, target) is None
    assert ("charge", "red_2") not in st._move_options(charger)
    # the same charge without the wood: 4" straight ahead, conformed flush on the front (18, 22)
    clear = _state(data, [("ford", 1, 1, 4, 4)], keep=("blue_1", "red_2"))
    clear.allowance = 9
    end = clear._charge_to(_place(clear, "blue_1", 18, 26, 0), _place(clear, "red_2", 18, 20, 180))
    assert end is not None and end.centre == pytest.approx((18, 22)) and end.facing == pytest.approx(0)


def test_a_move_crosses_a_river_only_on_the_ford(data):
    """ "Rivers - These may only be crossed via bridges and fords" (erratum river_crossing_width:
    the whole base on the crossing). River y 24-26 across the table, a ford x 19-25. An Ashigaru
    (4" x 2") at (18, 30) covers x 16-20: its path over the water is only partly on the ford, so
    it stops with its front edge at the river (y 26): 3" of its 6" (to the 0.5" step of the
    move search: its centre ends at y 27-27.5). The old engine let it cross because its path
    touched the ford. At x 22 (base x 20-24, inside the ford) it crosses the full 6" to y 24."""
    terrain = [("river", 0, 24, 36, 2), ("ford", 19, 23, 6, 4)]
    st = _state(data, terrain, keep=("blue_3", "red_6"))
    st.allowance = 6
    _place(st, "red_6", 18, 4, 180)
    u = _place(st, "blue_3", 18, 30, 0)
    st._do_move(u, ("advance", "enemy", "red_6"))
    assert u.base.x == pytest.approx(18) and 27 - 1e-9 <= u.base.y <= 27.5
    assert not Rect(0, 24, 36, 2).overlaps(u.base)
    st = _state(data, terrain, keep=("blue_3", "red_6"))
    st.allowance = 6
    _place(st, "red_6", 22, 4, 180)
    u = _place(st, "blue_3", 22, 30, 0)
    st._do_move(u, ("advance", "enemy", "red_6"))
    assert u.base.centre == pytest.approx((22, 24))


def test_a_retirement_crosses_a_river_only_on_the_ford(data):
    """ "Units can also retire from combat, moving directly away a full move": an Ashigaru at
    (18, 22) facing north, flush against an enemy's front (y 21), retires south (6"). The river
    (y 25-27) is 2" behind its rear edge (y 23) and the ford (x 19-25) covers only 1" of its
    4" base (x 16-20), so it stops short of the water: the move search (0.5" steps from 6":
    3, 1.5, 2.25, 1.875) leaves it 1.875" back, at y 23.875."""
    terrain = [("river", 0, 25, 36, 2), ("ford", 19, 24, 6, 4)]
    st = _state(data, terrain, keep=("blue_3", "red_2"))
    enemy = _place(st, "red_2", 18, 20, 180)
    u = _place(st, "blue_3", 18, 22, 0)
    assert st._contacts(u) == [enemy]
    st._do_move(u, ("retire",))
    assert u.base.centre == pytest.approx((18, 23.875))


def test_no_pivot_sweeps_a_corner_through_woods(data):
    """ "Units turn by pivoting on their central point" and woods are impassable: a Foot Samurai
    (4" x 2") at (10, 10) facing north turning a quarter east swings its front-left corner 2.24"
    north of its centre (y 7.76) on the way, into a wood whose edge is at y 7.8, though it
    starts 1" and ends 2" deep (y 9 and 8). It may neither face the enemy to the east nor
    advance on it (which starts with that pivot); the old engine offered both."""
    st = _state(data, [("woods", 6, 3, 8, 4.8)], keep=("blue_1", "red_6"))
    st.allowance = 9
    u = _place(st, "blue_1", 10, 10, 0)
    _place(st, "red_6", 30, 10, 270)
    opts = st._move_options(u)
    assert ("face", "red_6") not in opts and ("advance", "enemy", "red_6") not in opts and ("hold",) in opts
    # 0.3" further from the wood the corner clears it (2.24" < 2.5")
    st = _state(data, [("woods", 6, 3, 8, 4.5)], keep=("blue_1", "red_6"))
    st.allowance = 9
    u = _place(st, "blue_1", 10, 10, 0)
    _place(st, "red_6", 30, 10, 270)
    assert {("face", "red_6"), ("advance", "enemy", "red_6")} <= set(st._move_options(u))


def test_legality_keeps_bases_off_the_water_beside_a_ford(data):
    """verify's not-impassable rule reads the ground as the engine does. OHW4's Blue line stands
    at y 32-34 (4" bases centred at x 3, 9, 15, 21, 27). A river (x 0-24, y 31-33) with a ford
    x 0-6 and one x 14-18; woods x 24-30 with a ford drawn over them. blue_6 (x 1-5) stands on
    the first ford; blue_1 (x 13-17) has 1" in the water beside the second; blue_2 (x 7-11) and
    blue_3 (x 19-23) stand in the river; blue_4 (x 25-29) in the woods, which no ford opens. The
    old check passed any base that overlapped a crossing (blue_1 and blue_4)."""
    import dataclasses

    from pipeline.systems.ohw.verify import verify_scenario

    loaded = data.scenarios[0]
    terrain = [("river", 0, 31, 24, 2), ("ford", 0, 30, 6, 4), ("ford", 14, 30, 4, 4), ("woods", 24, 30, 6, 6), ("ford", 24, 30, 6, 6)]
    model = loaded.model.model_copy(update={"terrain": [TerrainPlacement(terrain=k, area=Area(x=x, y=y, w=w, h=h)) for k, x, y, w, h in terrain]})
    findings = verify_scenario(data, dataclasses.replace(loaded, model=model))
    assert {f.unit for f in findings if f.rule_id == "not-impassable"} == {"blue_1", "blue_2", "blue_3", "blue_4"}


# ------------------------------------------------------------------ O6: turning to face


def test_turning_to_face_pivots_on_the_centre_and_keeps_the_tate(data):
    """ "Units turn by pivoting on their central point"; tate "remove from play if the unit
    moves" (erratum turn_to_face_pivot). Red's Ashigaru red_2 (tate) at (20, 14) facing south is
    charged in its right flank (the west side, x 18) by a Foot Samurai standing flush at
    (17, 14) facing east. Turning to face, red_2 pivots on (20, 14) to face west (270): its new
    front edge is at x 19, so the attacker conforms to (18, 14), still facing east. The old
    engine re-placed red_2 against the attacker at (19, 14), so it lost its tate."""
    st = _state(data, keep=("red_2", "blue_1"))
    target = _place(st, "red_2", 20, 14, 180)
    attacker = st.units["blue_1"]
    attacker.base = contact_position(attacker.base, target.base, "right")
    assert attacker.base.centre == pytest.approx((17, 14)) and attacker.base.facing == pytest.approx(90)
    assert "tate" in target.defences
    (turn,) = [a for a in st._move_options(target) if a[0] == "turn_to_face"]
    st._do_move(target, turn)
    assert target.base.centre == pytest.approx((20, 14)) and target.base.facing == pytest.approx(270)
    assert "tate" in target.defences
    assert attacker.base.centre == pytest.approx((18, 14)) and attacker.base.facing == pytest.approx(90)
    assert target.base.touches(attacker.base) and not target.base.overlaps(attacker.base)
    assert target.base.face_towards(attacker.base.centre) == "front"  # now attacked frontally: Ashigaru halve
    assert turn == ("turn_to_face", "blue_1")  # one action per attacker in the flank or rear


def test_no_turn_to_face_when_engaged_frontally(data):
    """ "Units may turn to face an attack upon their flank or rear, but only if they are not
    simultaneously being frontally engaged"."""
    st = _state(data, keep=("red_2", "blue_1", "blue_2"))
    target = _place(st, "red_2", 20, 14, 180)
    st.units["blue_1"].base = contact_position(st.units["blue_1"].base, target.base, "right")
    st.units["blue_2"].base = contact_position(st.units["blue_2"].base, target.base, "front")
    assert not [a for a in st._move_options(target) if a[0] == "turn_to_face"]


# ------------------------------------------------------------------ O9: roads


def test_the_road_bonus_needs_the_whole_move_on_the_road(data):
    """ "Units moving by road increase their movement distance by 3\\" if their entire move is
    spent on the road" (erratum road_move). OHW11's roads: x 17-19 (north-south) and y 17-19
    (east-west). An Ashigaru (6") at (18, 27) advancing on an enemy at bearing 340 degrees,
    20" away at (11.16, 8.21): 9" would end at (14.92, 18.54), on the other road, but its centre
    leaves the north-south road after 1 / sin 20 = 2.92". It moves 6", to
    (18 - 6 sin 20, 27 - 6 cos 20) = (15.95, 21.36). Straight up the road it moves 9"."""
    import math

    st = _state(data, [("road", 17, 0, 2, 36), ("road", 0, 17, 36, 2)], keep=("blue_3", "red_6"), scenario=1)
    st.allowance = 6
    s20, c20 = math.sin(math.radians(20)), math.cos(math.radians(20))
    _place(st, "red_6", 18 - 20 * s20, 27 - 20 * c20, 180)
    u = _place(st, "blue_3", 18, 27, 340)
    st._do_move(u, ("advance", "enemy", "red_6"))
    assert u.base.centre == pytest.approx((18 - 6 * s20, 27 - 6 * c20))
    st = _state(data, [("road", 17, 0, 2, 36), ("road", 0, 17, 36, 2)], keep=("blue_3", "red_6"), scenario=1)
    st.allowance = 6
    _place(st, "red_6", 18, 4, 180)
    u = _place(st, "blue_3", 18, 27, 0)
    st._do_move(u, ("advance", "enemy", "red_6"))
    assert u.base.centre == pytest.approx((18, 18))


# ------------------------------------------------------------------ C1: charge reach


def test_a_charge_reaches_the_corner_of_a_face(data):
    """ "Charges are resolved by moving the attacking unit into contact with its target"
    (erratum charge_reach). A Foot Samurai (4" x 2") at (9.5, 20.5) facing north, allowance 6":
    its front edge (y 19.5, x 7.5-11.5) meets the front edge of an Ashigaru at (13, 13) facing
    south (y 14, x 11-15) 5.5" straight ahead, at the corner (11, 14). It conforms flush and
    centred on that front: (13, 15), facing north, 6.52" from where it started
    (sqrt(3.5^2 + 5.5^2)), which is why the old engine, measuring to the centred place, refused.
    2" further back (front edge 7.5" from the Ashigaru's, more than 6" plus the 1.71" a 45-degree
    pivot moves a corner) no charge reaches."""
    st = _state(data, keep=("blue_1", "red_2"))
    st.allowance = 6
    charger, target = _place(st, "blue_1", 9.5, 20.5, 0), _place(st, "red_2", 13, 13, 180)
    assert ("charge", "red_2") in st._move_options(charger)
    st._do_move(charger, ("charge", "red_2"))
    assert charger.base.centre == pytest.approx((13, 15)) and charger.base.facing == pytest.approx(0)
    assert charger.base.touches(target.base) and target.base.face_towards(charger.base.centre) == "front"
    st = _state(data, keep=("blue_1", "red_2"))
    st.allowance = 6
    charger, target = _place(st, "blue_1", 9.5, 22.5, 0), _place(st, "red_2", 13, 13, 180)
    assert st._charge_to(charger, target) is None


def test_a_charge_reaches_round_a_friend_it_may_not_pass(data):
    """The reach must be on a clear path: a Foot Samurai at (18, 28) facing north, allowance 9",
    6" from an Ashigaru's front (y 21); a friendly Ashigaru at (15, 24.5) (x 13-17, y 23.5-25.5),
    which a Foot Samurai may not pass through ("Only Skirmishers may pass through other units"),
    stands across the left inch of the straight line (x 16-20). Turned 30 degrees right, the
    charger's left edge runs clear of it and its front corner meets the front edge after
    5.93"; it conforms on the front at (18, 22)."""
    from pipeline.measured.geometry import swept_overlaps

    st = _state(data, keep=("blue_1", "blue_3", "red_2"))
    st.allowance = 9
    charger, target = _place(st, "blue_1", 18, 28, 0), _place(st, "red_2", 18, 20, 180)
    friend = _place(st, "blue_3", 15, 24.5, 0)
    start = Base(18, 28, 0, 4, 2)
    assert swept_overlaps(start, start.moved(6, 0), friend.base)  # straight on: through the friend
    turned = start.turned(30)
    assert not swept_overlaps(turned, turned.moved(5.93, 30), friend.base)
    end = st._charge_to(charger, target)
    assert end is not None and end.centre == pytest.approx((18, 22)) and end.facing == pytest.approx(0)
