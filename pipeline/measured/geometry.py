"""Bases on a measured table.

Coordinates are inches. ``x`` grows to the east (right), ``y`` to the south (down), from the
table's north-west corner, as on screen and in VASSAL. A facing is in degrees clockwise from
north: 0 faces north (towards ``y = 0``), 90 east, 180 south, 270 west.

A :class:`Base` is a rectangle: centre ``(x, y)``, ``facing``, ``width`` (its frontage, the
front edge) and ``depth``. In the base's own frame ``lx`` runs to its right and ``ly`` forward;
the front edge is at ``ly = depth / 2``.

>>> b = Base(10, 10, 0, 4, 2)
>>> [tuple(round(c, 3) for c in p) for p in b.corners()]
[(8.0, 9.0), (12.0, 9.0), (12.0, 11.0), (8.0, 11.0)]
>>> b.face_towards((10, 3)), b.face_towards((20, 10)), b.face_towards((10, 20))
('front', 'right', 'rear')
>>> round(b.distance_to(Base(10, 5, 180, 4, 2)), 3)
3.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property

Point = tuple[float, float]

#: Tolerance in inches: bases closer than this touch; overlaps smaller than this do not count.
EPS = 1e-6

FACES = ("front", "right", "rear", "left")


def heading(facing: float) -> Point:
    """Unit vector of a facing (0 = north = ``(0, -1)``)."""
    r = math.radians(facing)
    return (math.sin(r), -math.cos(r))


def bearing(a: Point, b: Point) -> float:
    """Facing (degrees, 0-360) that looks from ``a`` towards ``b``.

    >>> bearing((0, 0), (0, -5)), bearing((0, 0), (5, 0)), bearing((0, 0), (0, 5))
    (0.0, 90.0, 180.0)
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    return math.degrees(math.atan2(dx, -dy)) % 360.0


def angle_between(f1: float, f2: float) -> float:
    """Smallest absolute difference of two facings, 0-180 degrees."""
    d = abs(f1 - f2) % 360.0
    return 360.0 - d if d > 180.0 else d


def norm(facing: float) -> float:
    """Facing in ``[0, 360)``."""
    return facing % 360.0


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle of the table (a deployment area, a terrain feature): north-west
    corner ``(x, y)``, size ``w`` × ``h`` inches."""

    x: float
    y: float
    w: float
    h: float

    def contains_point(self, p: Point, eps: float = EPS) -> bool:
        return self.x - eps <= p[0] <= self.x + self.w + eps and self.y - eps <= p[1] <= self.y + self.h + eps

    def contains(self, base: Base) -> bool:
        """Every corner of ``base`` inside (edges included)."""
        return all(self.contains_point(c) for c in base.corners())

    def contains_rect(self, other: Rect) -> bool:
        return all(self.contains_point(c) for c in other.corners())

    def corners(self) -> list[Point]:
        return [(self.x, self.y), (self.x + self.w, self.y), (self.x + self.w, self.y + self.h), (self.x, self.y + self.h)]

    def centre(self) -> Point:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def overlaps(self, base: Base) -> bool:
        return polygons_overlap(self.corners(), base.corners())


@dataclass(frozen=True)
class Base:
    """A unit's base: centre, facing (degrees), width (frontage) and depth (inches)."""

    x: float
    y: float
    facing: float
    width: float
    depth: float

    @property
    def centre(self) -> Point:
        return (self.x, self.y)

    def forward(self) -> Point:
        return heading(self.facing)

    def right(self) -> Point:
        return heading(self.facing + 90.0)

    def to_world(self, lx: float, ly: float) -> Point:
        f, r = self.forward(), self.right()
        return (self.x + r[0] * lx + f[0] * ly, self.y + r[1] * lx + f[1] * ly)

    def to_local(self, p: Point) -> Point:
        dx, dy = p[0] - self.x, p[1] - self.y
        f, r = self.forward(), self.right()
        return (dx * r[0] + dy * r[1], dx * f[0] + dy * f[1])

    def corners(self) -> list[Point]:
        """Front-left, front-right, rear-right, rear-left."""
        return list(self._corners)

    @cached_property
    def _corners(self) -> tuple[Point, ...]:
        w, d = self.width / 2, self.depth / 2
        return (self.to_world(-w, d), self.to_world(w, d), self.to_world(w, -d), self.to_world(-w, -d))

    @property
    def radius(self) -> float:
        """Half the diagonal: no point of the base is further from the centre."""
        return math.hypot(self.width, self.depth) / 2

    def edge(self, face: str) -> tuple[Point, Point]:
        """The two ends of a face's edge, left to right as seen from outside."""
        fl, fr, rr, rl = self.corners()
        return {"front": (fr, fl), "right": (rr, fr), "rear": (rl, rr), "left": (fl, rl)}[face]

    def edge_midpoint(self, face: str) -> Point:
        a, b = self.edge(face)
        return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)

    def face_towards(self, p: Point) -> str:
        """The face of this base a point lies beyond, by the base's diagonals (front, right,
        rear or left)."""
        lx, ly = self.to_local(p)
        sx, sy = lx / (self.width / 2), ly / (self.depth / 2)
        if abs(sy) >= abs(sx):
            return "front" if sy > 0 else "rear"
        return "right" if sx > 0 else "left"

    def in_arc(self, p: Point, half_angle: float) -> bool:
        """``p`` lies within ``half_angle`` degrees either side of the facing, seen from the
        centre."""
        if math.dist(self.centre, p) < EPS:
            return True
        return angle_between(self.facing, bearing(self.centre, p)) <= half_angle + 1e-9

    def sees(self, other: Base, half_angle: float) -> bool:
        """Some point of ``other`` (its centre or a corner) is within the arc."""
        return any(self.in_arc(p, half_angle) for p in [other.centre, *other.corners()])

    def distance_to(self, other: Base) -> float:
        """Closest distance between the two rectangles (0 when they touch or overlap)."""
        return polygon_distance(self._corners, other._corners)

    def within(self, other: Base, distance: float) -> bool:
        """The closest distance to ``other`` is at most ``distance`` (quick reject first)."""
        if math.dist(self.centre, other.centre) - self.radius - other.radius > distance:
            return False
        return polygon_distance(self._corners, other._corners) <= distance

    def overlaps(self, other: Base) -> bool:
        """The interiors overlap (touching edges do not)."""
        if math.dist(self.centre, other.centre) >= self.radius + other.radius:
            return False
        return polygons_overlap(self._corners, other._corners)

    def touches(self, other: Base, eps: float = 0.05) -> bool:
        return self.within(other, eps)

    def moved(self, distance: float, facing: float | None = None) -> Base:
        """Moved ``distance`` inches along ``facing`` (default: its own facing)."""
        h = heading(self.facing if facing is None else facing)
        return replace(self, x=self.x + h[0] * distance, y=self.y + h[1] * distance)

    def turned(self, facing: float) -> Base:
        """Pivoted on its centre to ``facing``."""
        return replace(self, facing=norm(facing))

    def placed(self, x: float, y: float, facing: float | None = None) -> Base:
        return replace(self, x=x, y=y, facing=self.facing if facing is None else norm(facing))


def contact_position(mover: Base, target: Base, face: str) -> Base:
    """Where ``mover`` stands flush against ``target``'s ``face``, centred on it and facing it."""
    out = {"front": 0.0, "right": 90.0, "rear": 180.0, "left": 270.0}[face]
    normal = heading(target.facing + out)
    mid = target.edge_midpoint(face)
    facing = norm(target.facing + out + 180.0)
    return Base(mid[0] + normal[0] * mover.depth / 2, mid[1] + normal[1] * mover.depth / 2, facing, mover.width, mover.depth)


def swept(start: Base, end: Base) -> list[Point]:
    """Convex hull of a base at both ends of a straight move (the area it crosses)."""
    return convex_hull(start.corners() + end.corners())


# --------------------------------------------------------------------------- polygons


def convex_hull(points: list[Point]) -> list[Point]:
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _axes(poly: list[Point]) -> list[Point]:
    out = []
    for i, a in enumerate(poly):
        b = poly[(i + 1) % len(poly)]
        ex, ey = b[0] - a[0], b[1] - a[1]
        n = math.hypot(ex, ey)
        if n > 0:
            out.append((-ey / n, ex / n))
    return out


def polygons_overlap(p: list[Point], q: list[Point], eps: float = EPS) -> bool:
    """Separating-axis test of two convex polygons; an overlap thinner than ``eps`` does not
    count (bases may touch)."""
    for ax in _axes(p) + _axes(q):
        pa = [x * ax[0] + y * ax[1] for x, y in p]
        qa = [x * ax[0] + y * ax[1] for x, y in q]
        if min(pa) >= max(qa) - eps or min(qa) >= max(pa) - eps:
            return False
    return True


def _point_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    n2 = ax * ax + ay * ay
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / n2))
    return math.dist(p, (a[0] + ax * t, a[1] + ay * t))


def polygon_distance(p: list[Point], q: list[Point]) -> float:
    """Closest distance between two convex polygons (0 when they overlap)."""
    if polygons_overlap(p, q, eps=0.0):
        return 0.0
    best = math.inf
    for poly, other in ((p, q), (q, p)):
        for pt in poly:
            for i, a in enumerate(other):
                best = min(best, _point_segment(pt, a, other[(i + 1) % len(other)]))
    return best
