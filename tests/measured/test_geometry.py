"""Geometry of bases on a measured table."""

from __future__ import annotations

import math

import pytest

from pipeline.measured.geometry import Base, Rect, bearing, contact_position
from pipeline.measured.movement import Ground, furthest


def test_corners_turn_with_facing():
    b = Base(10, 10, 90, 4, 2)  # facing east: the front edge runs north-south on the east side
    fl, fr, rr, rl = b.corners()
    assert fl == pytest.approx((11, 8)) and fr == pytest.approx((11, 12))
    assert rr == pytest.approx((9, 12)) and rl == pytest.approx((9, 8))


@pytest.mark.parametrize("point,face", [((10, 0), "front"), ((10, 20), "rear"), ((20, 10), "right"), ((0, 10), "left")])
def test_faces_by_diagonals(point, face):
    assert Base(10, 10, 0, 4, 2).face_towards(point) == face


def test_arc_and_range():
    b = Base(0, 20, 0, 4, 2)
    assert b.in_arc((5, 10), 45) and not b.in_arc((12, 15), 45)
    t = Base(0, 5, 180, 4, 2)
    assert b.distance_to(t) == pytest.approx(13.0)
    assert b.within(t, 13.01) and not b.within(t, 12.9)


def test_overlap_touch_and_contact():
    a = Base(10, 10, 0, 4, 2)
    assert not a.overlaps(Base(14, 10, 0, 4, 2)) and a.touches(Base(14, 10, 0, 4, 2))
    assert a.overlaps(Base(13, 10, 45, 4, 2))
    c = contact_position(Base(30, 10, 0, 4, 3), a, "right")
    assert c.touches(a) and not c.overlaps(a)
    assert c.facing == pytest.approx(270) and c.centre == pytest.approx((13.5, 10))
    assert bearing(c.centre, a.centre) == pytest.approx(270)


def test_rect_contains_base_and_rotation_matters():
    r = Rect(0, 0, 6, 3)
    assert r.contains(Base(3, 2, 0, 4, 2))
    assert not r.contains(Base(3, 2, 90, 4, 2))  # turned, the 4" frontage no longer fits in 3"
    assert not r.contains(Base(5, 2, 0, 4, 2))


def test_furthest_stops_before_blocking_and_other_bases():
    table = Rect(0, 0, 36, 36)
    b = Base(18, 30, 0, 4, 2)
    assert furthest(b, 0, 6, table=table).y == pytest.approx(24)
    wood = Rect(10, 20, 16, 2)
    moved = furthest(b, 0, 9, table=table, ground=Ground(impassable=(wood,)))
    assert moved.y - 1 >= 22 - 1e-9 and moved.y < 30
    enemy = Base(18, 25, 180, 4, 2)
    stop = furthest(b, 0, 9, table=table, others=[enemy], keep_off=[enemy], gap=0.25)
    assert stop.distance_to(enemy) >= 0.25 - 1e-9 and math.isclose(stop.x, 18)


def test_fast_rectangle_tests_agree_with_the_generic_polygon_algorithms():
    """The per-base fast paths (bounding boxes, four-axis test, corner-to-rectangle distances)
    give what the generic separating-axis and corner-to-edge algorithms give, on random bases
    and on the edge cases: flush contact, corner to corner, one base inside another."""
    import random

    from pipeline.measured.geometry import DistanceCache, polygon_distance, polygons_overlap

    rng = random.Random(13)
    cases = [(Base(10, 10, 0, 4, 2), Base(14, 10, 0, 4, 2)),  # flush side by side
             (Base(10, 10, 0, 4, 2), Base(14, 12, 0, 4, 2)),  # corner to corner
             (Base(10, 10, 0, 4, 2), Base(10, 10, 30, 1, 1)),  # inside
             (Base(10, 10, 45, 4, 2), Base(10, 10, 135, 4, 2))]  # a cross: no corner inside the other
    for _ in range(3000):
        cases.append((Base(rng.uniform(0, 20), rng.uniform(0, 20), rng.uniform(0, 360), rng.uniform(0.5, 6), rng.uniform(0.5, 3)),
                      Base(rng.uniform(0, 20), rng.uniform(0, 20), rng.choice([0, 90, 180, 270, rng.uniform(0, 360)]), rng.uniform(0.5, 6), rng.uniform(0.5, 3))))
    cache = DistanceCache(limit=1000)
    for a, b in cases:
        generic = polygon_distance(a.corners(), b.corners())
        assert a.distance_to(b) == pytest.approx(generic, abs=1e-9)
        assert cache.distance(a, b) == pytest.approx(generic, abs=1e-9) == cache.distance(b, a)
        assert a.overlaps(b) == polygons_overlap(a.corners(), b.corners())
        for arc in (45, 90):
            assert a.sees(b, arc) == any(a.in_arc(p, arc) for p in [b.centre, *b.corners()])
        for d in (0.05, 1.0, 6.0):
            assert a.within(b, d) == (generic <= d) == cache.within(a, b, d)
    assert polygon_distance(cases[3][0].corners(), cases[3][1].corners()) == 0 and cases[3][0].distance_to(cases[3][1]) == 0


def test_swept_area_test_agrees_with_the_hull():
    import random

    from pipeline.measured.geometry import polygons_overlap, swept, swept_overlaps

    rng = random.Random(7)
    for _ in range(3000):
        start = Base(rng.uniform(0, 20), rng.uniform(0, 20), rng.uniform(0, 360), rng.uniform(0.5, 6), rng.uniform(0.5, 3))
        end = start.moved(rng.uniform(0, 9), rng.uniform(0, 360))
        other = Base(rng.uniform(0, 20), rng.uniform(0, 20), rng.uniform(0, 360), rng.uniform(0.5, 6), rng.uniform(0.5, 3))
        assert swept_overlaps(start, end, other) == polygons_overlap(swept(start, end), other.corners())
    # a base moving straight past another, 1" clear of it, does not touch it; 1" closer it does
    assert not swept_overlaps(Base(0, 0, 0, 2, 2), Base(10, 0, 0, 2, 2), Base(5, 3, 0, 2, 2))
    assert swept_overlaps(Base(0, 0, 0, 2, 2), Base(10, 0, 0, 2, 2), Base(5, 2, 0, 2, 2.5))


def test_first_contact_agrees_with_stepping_the_move():
    """:func:`first_contact` (corner rays against edges) agrees with moving the base in 0.01"
    steps until it touches, on random bases and courses."""
    import random

    from pipeline.measured.geometry import first_contact

    rng = random.Random(27)
    checked = 0
    for _ in range(400):
        mover = Base(rng.uniform(0, 20), rng.uniform(0, 20), rng.uniform(0, 360), rng.uniform(1, 6), rng.uniform(0.5, 3))
        target = Base(rng.uniform(0, 20), rng.uniform(0, 20), rng.uniform(0, 360), rng.uniform(1, 6), rng.uniform(0.5, 3))
        course = rng.uniform(0, 360)
        got = first_contact(mover, course, target)
        step, d, hit = 0.01, 0.0, math.inf
        while d <= 30:
            if mover.moved(d, course).distance_to(target) <= 1e-9:
                hit = d
                break
            d += step
        if hit < math.inf:  # the stepped move overlaps the target: the first touch is within the last step
            checked += 1
            assert hit - step - 1e-9 < got <= hit + 1e-9
        if got < math.inf:  # a touch (a grazing one may fall between two steps)
            assert mover.moved(got, course).distance_to(target) == pytest.approx(0, abs=1e-6)
            assert got == 0 or mover.moved(got - 0.005, course).distance_to(target) > 0
    assert checked > 50


def test_cover_of_a_polygon_by_rectangles():
    from pipeline.measured.geometry import (
        clip_to_rect,
        covered,
        covered_length,
        polygon_area,
        swept,
    )

    start, end = Base(10, 20, 0, 4, 2), Base(10, 10, 0, 4, 2)  # sweeps x 8-12, y 9-21
    river = Rect(0, 14, 36, 2)
    wet = clip_to_rect(swept(start, end), river)
    assert polygon_area(wet) == pytest.approx(8)  # 4" x 2"
    assert covered(wet, [Rect(7, 13, 6, 4)])  # a ford wider than the base
    assert covered(wet, [Rect(7, 13, 3, 4), Rect(10, 13, 3, 4)])  # two fords side by side
    assert not covered(wet, [Rect(9, 13, 6, 4)])  # 1" of the base beside the ford
    assert not covered(wet, [])
    # a diagonal move: the part over the river is a parallelogram
    diag = clip_to_rect(swept(Base(10, 20, 45, 4, 2), Base(10, 20, 45, 4, 2).moved(10, 45)), river)
    assert covered(diag, [Rect(0, 14, 36, 2)]) and not covered(diag, [Rect(0, 14, 12, 2)])
    # road lengths: on the road from x 1, east: 9" of road pieces, then open ground
    assert covered_length((1, 10), 90, 20, [Rect(0, 9, 6, 2), Rect(6, 9, 4, 2)]) == pytest.approx(9)
    assert covered_length((1, 10), 90, 5, [Rect(0, 9, 6, 2)]) == pytest.approx(5)  # capped at the length
    assert covered_length((1, 12), 90, 5, [Rect(0, 9, 6, 2)]) == 0  # starts off the road
    assert covered_length((1, 10), 90, 20, [Rect(0, 9, 6, 2), Rect(6.5, 9, 4, 2)]) == pytest.approx(5)  # a gap
    assert covered_length((18, 27), 0, 9, [Rect(17, 0, 2, 36)]) == pytest.approx(9)
