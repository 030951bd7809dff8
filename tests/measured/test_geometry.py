"""Geometry of bases on a measured table."""

from __future__ import annotations

import math

import pytest

from pipeline.measured.geometry import Base, Rect, bearing, contact_position
from pipeline.measured.movement import furthest


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
    moved = furthest(b, 0, 9, table=table, blocked=[wood])
    assert moved.y - 1 >= 22 - 1e-9 and moved.y < 30
    enemy = Base(18, 25, 180, 4, 2)
    stop = furthest(b, 0, 9, table=table, others=[enemy], keep_off=[enemy], gap=0.25)
    assert stop.distance_to(enemy) >= 0.25 - 1e-9 and math.isclose(stop.x, 18)
