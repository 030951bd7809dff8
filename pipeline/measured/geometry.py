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
from dataclasses import dataclass
from functools import cached_property, lru_cache

Point = tuple[float, float]
#: An axis-aligned bounding box ``(min x, min y, max x, max y)``.
Box = tuple[float, float, float, float]

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


@lru_cache(maxsize=64)
def _cos_arc(half_angle: float) -> float:
    return math.cos(math.radians(min(180.0, half_angle + 1e-9)))


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
        """Every corner of ``base`` inside (edges included): its bounding box is inside."""
        x0, y0, x1, y1 = base.bbox
        return self.x - EPS <= x0 and x1 <= self.x + self.w + EPS and self.y - EPS <= y0 and y1 <= self.y + self.h + EPS

    def contains_rect(self, other: Rect) -> bool:
        return all(self.contains_point(c) for c in other.corners())

    def corners(self) -> list[Point]:
        return [(self.x, self.y), (self.x + self.w, self.y), (self.x + self.w, self.y + self.h), (self.x, self.y + self.h)]

    def centre(self) -> Point:
        return (self.x + self.w / 2, self.y + self.h / 2)

    @cached_property
    def bbox(self) -> Box:
        """``(min x, min y, max x, max y)``."""
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    @cached_property
    def as_base(self) -> Base:
        """The same rectangle as a base facing north (for the fast rectangle tests)."""
        return Base(self.x + self.w / 2, self.y + self.h / 2, 0.0, self.w, self.h)

    def overlaps(self, base: Base) -> bool:
        """The interiors overlap (touching edges do not)."""
        return self.as_base.overlaps(base)


@dataclass(frozen=True)
class Base:
    """A unit's base: centre, facing (degrees), width (frontage) and depth (inches).

    Derived values (corners, bounding box, axes) are computed once per base and kept: a base is
    immutable, a move makes a new one.
    """

    x: float
    y: float
    facing: float
    width: float
    depth: float

    @property
    def centre(self) -> Point:
        return (self.x, self.y)

    def forward(self) -> Point:
        return self._frame[0]

    def right(self) -> Point:
        return self._frame[1]

    @cached_property
    def _frame(self) -> tuple[Point, Point]:
        """Unit vectors forward and to the right (one sine and cosine per base)."""
        r = math.radians(self.facing)
        s, c = math.sin(r), math.cos(r)
        return ((s, -c), (c, s))

    def to_world(self, lx: float, ly: float) -> Point:
        (fx, fy), (rx, ry) = self._frame
        return (self.x + rx * lx + fx * ly, self.y + ry * lx + fy * ly)

    def to_local(self, p: Point) -> Point:
        dx, dy = p[0] - self.x, p[1] - self.y
        (fx, fy), (rx, ry) = self._frame
        return (dx * rx + dy * ry, dx * fx + dy * fy)

    def corners(self) -> list[Point]:
        """Front-left, front-right, rear-right, rear-left."""
        return list(self._corners)

    @cached_property
    def _corners(self) -> tuple[Point, ...]:
        (fx, fy), (rx, ry) = self._frame
        w, d = self.width / 2, self.depth / 2
        ax, ay = rx * w, ry * w
        bx, by = fx * d, fy * d
        x, y = self.x, self.y
        return ((x - ax + bx, y - ay + by), (x + ax + bx, y + ay + by), (x + ax - bx, y + ay - by), (x - ax - bx, y - ay - by))

    @cached_property
    def bbox(self) -> Box:
        """Axis-aligned bounding box ``(min x, min y, max x, max y)``."""
        (fx, fy), (rx, ry) = self._frame
        hx = abs(rx) * self.width / 2 + abs(fx) * self.depth / 2
        hy = abs(ry) * self.width / 2 + abs(fy) * self.depth / 2
        return (self.x - hx, self.y - hy, self.x + hx, self.y + hy)

    @cached_property
    def radius(self) -> float:
        """Half the diagonal: no point of the base is further from the centre."""
        return math.hypot(self.width, self.depth) / 2

    def edge(self, face: str) -> tuple[Point, Point]:
        """The two ends of a face's edge, left to right as seen from outside."""
        fl, fr, rr, rl = self._corners
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
        """Some point of ``other`` (its centre or a corner) is within the arc (as
        :meth:`in_arc`, by the cosine of the angle instead of a bearing per point)."""
        (fx, fy), _ = self._frame
        c = _cos_arc(half_angle)
        x, y = self.x, self.y
        if fx * (other.x - x) + fy * (other.y - y) >= c * math.hypot(other.x - x, other.y - y):
            return True  # the centre, the usual case
        for px, py in other._corners:
            dx, dy = px - x, py - y
            n = math.hypot(dx, dy)
            if n < EPS or dx * fx + dy * fy >= c * n:
                return True
        return False

    def _separated(self, other: Base, eps: float) -> bool:
        """Separating-axis test of two rectangles on the four axes of their edges: ``True`` when
        an axis separates them, or their overlap on it is at most ``eps`` thick.

        With ``c`` and ``s`` the cosine and sine between the two facings, the half extent of a
        rectangle on the other's forward axis is ``w|s| + d|c|`` and on its right axis
        ``w|c| + d|s|``; the centres are ``|D . n|`` apart on axis ``n``.
        """
        dx, dy = other.x - self.x, other.y - self.y
        (f1x, f1y), (r1x, r1y) = self._frame
        (f2x, f2y), (r2x, r2y) = other._frame
        w1, d1, w2, d2 = self.width / 2, self.depth / 2, other.width / 2, other.depth / 2
        c = abs(f1x * f2x + f1y * f2y)
        sn = abs(f1x * r2x + f1y * r2y)
        return (abs(dx * f1x + dy * f1y) >= d1 + w2 * sn + d2 * c - eps
                or abs(dx * r1x + dy * r1y) >= w1 + w2 * c + d2 * sn - eps
                or abs(dx * f2x + dy * f2y) >= d2 + w1 * sn + d1 * c - eps
                or abs(dx * r2x + dy * r2y) >= w2 + w1 * c + d1 * sn - eps)

    def _point_distance(self, px: float, py: float) -> float:
        """Distance from a point to this rectangle (0 inside)."""
        (fx, fy), (rx, ry) = self._frame
        dx, dy = px - self.x, py - self.y
        ex = abs(dx * rx + dy * ry) - self.width / 2
        ey = abs(dx * fx + dy * fy) - self.depth / 2
        if ex <= 0.0:
            return ey if ey > 0.0 else 0.0
        if ey <= 0.0:
            return ex
        return math.hypot(ex, ey)

    def _corner_distance(self, other: Base) -> float:
        """Least distance from a corner of ``other`` to this rectangle."""
        (fx, fy), (rx, ry) = self._frame
        x, y, hw, hd = self.x, self.y, self.width / 2, self.depth / 2
        best = math.inf
        for px, py in other._corners:
            dx, dy = px - x, py - y
            ex = abs(dx * rx + dy * ry) - hw
            ey = abs(dx * fx + dy * fy) - hd
            if ex <= 0.0:
                d = ey if ey > 0.0 else 0.0
            elif ey <= 0.0:
                d = ex
            else:
                d = math.hypot(ex, ey)
            if d < best:
                best = d
        return best

    def distance_to(self, other: Base) -> float:
        """Closest distance between the two rectangles (0 when they touch or overlap).

        Two disjoint convex polygons are closest at a corner of one of them, so the distance is
        the least corner-to-rectangle distance both ways, each measured in the rectangle's own
        frame.
        """
        if not self._separated(other, 0.0):
            return 0.0
        a = other._corner_distance(self)
        b = self._corner_distance(other)
        return a if a < b else b

    def within(self, other: Base, distance: float) -> bool:
        """The closest distance to ``other`` is at most ``distance`` (bounding boxes first)."""
        a, b = self.bbox, other.bbox
        if a[0] - b[2] > distance or b[0] - a[2] > distance or a[1] - b[3] > distance or b[1] - a[3] > distance:
            return False
        return self.distance_to(other) <= distance

    def overlaps(self, other: Base) -> bool:
        """The interiors overlap (touching edges, or an overlap thinner than ``EPS``, do not)."""
        a, b = self.bbox, other.bbox
        if a[0] >= b[2] - EPS or b[0] >= a[2] - EPS or a[1] >= b[3] - EPS or b[1] >= a[3] - EPS:
            return False
        return not self._separated(other, EPS)

    def touches(self, other: Base, eps: float = 0.05) -> bool:
        return self.within(other, eps)

    def moved(self, distance: float, facing: float | None = None) -> Base:
        """Moved ``distance`` inches along ``facing`` (default: its own facing)."""
        h = self._frame[0] if facing is None else heading(facing)
        return Base(self.x + h[0] * distance, self.y + h[1] * distance, self.facing, self.width, self.depth)

    def turned(self, facing: float) -> Base:
        """Pivoted on its centre to ``facing``."""
        return Base(self.x, self.y, norm(facing), self.width, self.depth)

    def placed(self, x: float, y: float, facing: float | None = None) -> Base:
        return Base(x, y, self.facing if facing is None else norm(facing), self.width, self.depth)


class DistanceCache:
    """Closest distances between pairs of bases, remembered by their positions.

    A game state keeps one so that contacts, ranges and gaps are measured once per pair of
    positions, however often the rules ask (every decision asks again who touches whom). Bases
    are immutable values, so an entry never goes stale; the cache empties itself when it holds
    ``limit`` entries (memory stays bounded over a long game).
    """

    __slots__ = ("_d", "limit")

    def __init__(self, limit: int = 50_000):
        self._d: dict[tuple[Base, Base], float] = {}
        self.limit = limit

    def distance(self, a: Base, b: Base) -> float:
        """``a.distance_to(b)`` (inches)."""
        key = (a, b)
        got = self._d.get(key)
        if got is None:
            got = self._d.get((b, a))
            if got is None:
                if len(self._d) >= self.limit:
                    self._d.clear()
                got = self._d[key] = a.distance_to(b)
        return got

    def within(self, a: Base, b: Base, distance: float) -> bool:
        """``a.within(b, distance)``, the bounding boxes tested before the cache."""
        p, q = a.bbox, b.bbox
        if p[0] - q[2] > distance or q[0] - p[2] > distance or p[1] - q[3] > distance or q[1] - p[3] > distance:
            return False
        return self.distance(a, b) <= distance

    def touches(self, a: Base, b: Base, eps: float = 0.05) -> bool:
        """``a.touches(b)``."""
        return self.within(a, b, eps)


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


def _interval(b: Base, nx: float, ny: float) -> tuple[float, float]:
    (fx, fy), (rx, ry) = b._frame
    c = b.x * nx + b.y * ny
    h = b.width / 2 * abs(rx * nx + ry * ny) + b.depth / 2 * abs(fx * nx + fy * ny)
    return c - h, c + h


def swept_overlaps(start: Base, end: Base, other: Base, eps: float = EPS) -> bool:
    """Does the area ``start`` crosses on a straight move to ``end`` (same facing and size:
    :func:`swept`) overlap ``other`` by more than ``eps``?

    The swept area is a convex polygon whose edges run along the base's two axes and along the
    move, so five axes (those three normals and ``other``'s two) decide it; the projection of
    the swept area on an axis is the hull of the base's projections at both ends. Bounding
    boxes are compared first.
    """
    a0, a1, b = start.bbox, end.bbox, other.bbox
    if min(a0[0], a1[0]) >= b[2] - eps or b[0] >= max(a0[2], a1[2]) - eps or min(a0[1], a1[1]) >= b[3] - eps or b[1] >= max(a0[3], a1[3]) - eps:
        return False
    (fx, fy), (rx, ry) = start._frame
    (gx, gy), (sx, sy) = other._frame
    axes = [(fx, fy), (rx, ry), (gx, gy), (sx, sy)]
    mx, my = end.x - start.x, end.y - start.y
    n = math.hypot(mx, my)
    if n > 0:
        axes.append((-my / n, mx / n))
    for nx, ny in axes:
        lo0, hi0 = _interval(start, nx, ny)
        lo1, hi1 = _interval(end, nx, ny)
        olo, ohi = _interval(other, nx, ny)
        if min(lo0, lo1) >= ohi - eps or olo >= max(hi0, hi1) - eps:
            return False
    return True


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


def bbox_of(poly: list[Point]) -> Box:
    """Axis-aligned bounding box of points."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def polygons_overlap(p: list[Point], q: list[Point], eps: float = EPS) -> bool:
    """Separating-axis test of two convex polygons; an overlap thinner than ``eps`` does not
    count (bases may touch). The bounding boxes are compared first: most pairs on a table are
    far apart and need no more."""
    a, b = bbox_of(p), bbox_of(q)
    if a[0] >= b[2] - eps or b[0] >= a[2] - eps or a[1] >= b[3] - eps or b[1] >= a[3] - eps:
        return False
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
    """Closest distance between two convex polygons (0 when they overlap): the generic
    algorithm (every corner against every edge); :meth:`Base.distance_to` is the fast one for
    two bases."""
    if polygons_overlap(p, q, eps=0.0):
        return 0.0
    best = math.inf
    for poly, other in ((p, q), (q, p)):
        for pt in poly:
            for i, a in enumerate(other):
                best = min(best, _point_segment(pt, a, other[(i + 1) % len(other)]))
    return best


# --------------------------------------------------------------------------- reach and cover


def first_contact(mover: Base, course: float, target: Base) -> float:
    """How far (inches) ``mover`` travels along ``course``, keeping its facing, before it first
    touches ``target``: ``0.0`` when they touch or overlap already, ``math.inf`` when that line of
    travel never brings them together.

    Two convex polygons moving apart from each other first meet where a corner of one reaches an
    edge of the other, so the answer is the least hit of a ray from each corner of ``mover``
    along the course against the edges of ``target``, and of a ray from each corner of
    ``target`` against the course against the edges of ``mover``.

    >>> first_contact(Base(0, 10, 0, 4, 2), 0.0, Base(3, 0, 180, 4, 2))  # front corner to corner
    8.0
    >>> first_contact(Base(0, 10, 0, 4, 2), 0.0, Base(5, 0, 180, 4, 2))  # passes 1" clear of it
    inf
    """
    if not mover._separated(target, -EPS):
        return 0.0  # no axis shows a gap of EPS: they touch or overlap
    vx, vy = heading(course)
    best = math.inf
    for corners, edges, dx, dy in ((mover._corners, target._corners, vx, vy), (target._corners, mover._corners, -vx, -vy)):
        for i in range(4):
            ax, ay = edges[i]
            bx, by = edges[(i + 1) % 4]
            ex, ey = bx - ax, by - ay
            den = dx * ey - dy * ex
            if -1e-12 < den < 1e-12:
                continue  # the edge runs along the course: its ends are met by the other rays
            for px, py in corners:
                wx, wy = ax - px, ay - py
                t = (wx * ey - wy * ex) / den
                if -1e-9 <= t < best:
                    sv = (wx * dy - wy * dx) / den
                    if -1e-9 <= sv <= 1 + 1e-9:
                        best = t if t > 0.0 else 0.0
    return best


def closest_points(a: Base, b: Base) -> tuple[Point, Point]:
    """The closest pair of points ``(on a, on b)`` of two bases that do not overlap (for two that
    do, both points are ``a``'s centre). Translating ``a`` by the vector between them brings it
    into contact with ``b`` without overlap: the shortest straight move into contact.

    >>> closest_points(Base(0, 10, 0, 4, 2), Base(5, 5, 0, 2, 2))
    ((2.0, 9.0), (4.0, 6.0))
    """
    if not a._separated(b, 0.0):
        return a.centre, a.centre
    best, pair = math.inf, (a.centre, a.centre)
    for corners, edges, flip in ((a._corners, b._corners, False), (b._corners, a._corners, True)):
        for p in corners:
            for i in range(4):
                q = _closest_on_segment(p, edges[i], edges[(i + 1) % 4])
                d = math.dist(p, q)
                if d < best - 1e-12:
                    best, pair = d, ((q, p) if flip else (p, q))
    return pair


def _closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    ax, ay = b[0] - a[0], b[1] - a[1]
    n2 = ax * ax + ay * ay
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / n2))
    return (a[0] + ax * t, a[1] + ay * t)


def _clip(poly: list[Point], axis: int, value: float, keep_below: bool) -> list[Point]:
    """``poly`` clipped to the half-plane ``coordinate[axis] <= value`` (``keep_below``) or
    ``>= value`` (Sutherland-Hodgman against one line)."""
    def inside(p: Point) -> bool:
        return p[axis] <= value if keep_below else p[axis] >= value

    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        pin, qin = inside(p), inside(q)
        if pin:
            out.append(p)
        if pin != qin:
            t = (value - p[axis]) / (q[axis] - p[axis])
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
    return out


def clip_to_rect(poly: list[Point], rect: Rect) -> list[Point]:
    """The part of a convex polygon inside an axis-aligned rectangle (a convex polygon, empty when
    they do not meet).

    >>> sorted(clip_to_rect([(0, 0), (4, 0), (4, 4), (0, 4)], Rect(2, 1, 5, 2)))
    [(2.0, 1.0), (2.0, 3.0), (4.0, 1.0), (4.0, 3.0)]
    """
    for axis, value, below in ((0, rect.x, False), (0, rect.x + rect.w, True), (1, rect.y, False), (1, rect.y + rect.h, True)):
        poly = _clip(poly, axis, value, below)
        if len(poly) < 3:
            return []
    return poly


def polygon_area(poly: list[Point]) -> float:
    """Area of a simple polygon (square inches; shoelace formula)."""
    n = len(poly)
    return abs(sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))) / 2 if n >= 3 else 0.0


def _minus_rect(poly: list[Point], r: Rect) -> list[list[Point]]:
    """A convex polygon less an axis-aligned rectangle, as up to four convex pieces."""
    pieces = []
    rest = poly
    for axis, value, below in ((0, r.x, True), (0, r.x + r.w, False), (1, r.y, True), (1, r.y + r.h, False)):
        outside = _clip(rest, axis, value, below)
        if len(outside) >= 3:
            pieces.append(outside)
        rest = _clip(rest, axis, value, not below)
        if len(rest) < 3:
            break
    return pieces


def covered(poly: list[Point], rects: list[Rect] | tuple[Rect, ...], area_eps: float = 1e-6) -> bool:
    """Every part of a convex polygon lies inside the union of ``rects`` (parts thinner than
    ``area_eps`` square inches left uncovered do not count).

    >>> square = [(0, 0), (4, 0), (4, 4), (0, 4)]
    >>> covered(square, [Rect(0, 0, 2, 4), Rect(2, 0, 2, 4)]), covered(square, [Rect(0, 0, 2, 4), Rect(2, 0, 2, 3.9)])
    (True, False)
    """
    pieces = [poly] if len(poly) >= 3 else []
    for r in rects:
        pieces = [q for p in pieces for q in _minus_rect(p, r) if polygon_area(q) > area_eps]
        if not pieces:
            return True
    return not pieces


def covered_length(start: Point, course: float, length: float, rects: list[Rect] | tuple[Rect, ...]) -> float:
    """How far (inches, at most ``length``) the straight line from ``start`` along ``course``
    runs without leaving the union of ``rects`` (0 when ``start`` is outside them all).

    >>> covered_length((1, 10), 90.0, 20, [Rect(0, 9, 6, 2), Rect(6, 9, 4, 2)])  # two road pieces, then open ground
    9.0
    """
    hx, hy = heading(course)
    spans = []
    for r in rects:
        lo, hi = 0.0, length
        for p, h, a, b in ((start[0], hx, r.x, r.x + r.w), (start[1], hy, r.y, r.y + r.h)):
            if abs(h) < 1e-12:
                if not a - EPS <= p <= b + EPS:
                    lo, hi = 1.0, 0.0
                continue
            t0, t1 = (a - p) / h, (b - p) / h
            if t0 > t1:
                t0, t1 = t1, t0
            lo, hi = max(lo, t0), min(hi, t1)
        if lo <= hi + EPS:
            spans.append((lo, hi))
    reach = 0.0
    for lo, hi in sorted(spans):
        if lo > reach + EPS:
            break
        reach = max(reach, hi)
    return min(max(reach, 0.0), length) if any(lo <= EPS for lo, _ in spans) else 0.0
