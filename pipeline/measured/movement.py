"""Moves on a measured table: how far a base can go in a straight line before it leaves the
table, crosses impassable ground or runs into another base, and whether it may pivot on its
centre (game-agnostic).

Impassable ground is a :class:`Ground`: rectangles no base enters (woods, marshland, lakes),
and rectangles a base crosses only where a crossing covers it (a river and its fords and
bridges). A straight move's path is the area its base sweeps (:func:`~.geometry.swept`).

>>> river = Ground(fordable=(Rect(0, 10, 36, 2),), crossings=(Rect(16, 9, 6, 4),))
>>> river.path_clear(Base(19, 15, 0, 4, 2), Base(19, 7, 0, 4, 2))  # over the ford
True
>>> river.path_clear(Base(12, 15, 0, 4, 2), Base(12, 7, 0, 4, 2))  # over the water beside it
False
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pipeline.measured.geometry import (
    Base,
    Rect,
    angle_between,
    bearing,
    clip_to_rect,
    covered,
    first_contact,
    norm,
    swept,
    swept_overlaps,
)


@dataclass(frozen=True)
class Ground:
    """The impassable ground of a table.

    Attributes:
        impassable: rectangles no base may enter or cross (woods, marshland, lakes).
        fordable: rectangles a base may be over only where ``crossings`` cover it (rivers).
        crossings: fords and bridges (rectangles). A crossing opens only ``fordable`` ground:
            a ford that overlaps a wood does not make the wood passable.
    """

    impassable: tuple[Rect, ...] = ()
    fordable: tuple[Rect, ...] = ()
    crossings: tuple[Rect, ...] = ()

    def path_clear(self, start: Base, end: Base) -> bool:
        """The area a base sweeps moving straight from ``start`` to ``end`` (same facing and
        size) touches no impassable rectangle, and lies on a crossing wherever it is over
        fordable ground (``start`` is ``end`` for a base standing still)."""
        for r in self.impassable:
            if swept_overlaps(start, end, r.as_base):
                return False
        for r in self.fordable:
            if swept_overlaps(start, end, r.as_base):
                if not covered(clip_to_rect(swept(start, end), r), self.crossings):
                    return False
        return True

    def base_clear(self, base: Base) -> bool:
        """A base standing here is on no impassable ground (:meth:`path_clear` of a standstill)."""
        return self.path_clear(base, base)


#: No impassable ground.
OPEN_GROUND = Ground()


def furthest(base: Base, facing: float, distance: float, *, table: Rect, ground: Ground = OPEN_GROUND,
             others: Sequence[Base] = (), passable: Callable[[Base], bool] | None = None,
             keep_off: Sequence[Base] = (), gap: float = 0.25, step: float = 0.5) -> Base:
    """The base moved along ``facing`` (keeping its own facing) as far as it can, at most
    ``distance`` inches (found to ``step`` by halving): on the table, its path clear of the
    ``ground`` (:meth:`Ground.path_clear`), not crossing ``others`` (unless ``passable(other)``),
    never ending on one, and ending at least ``gap`` from every base of ``keep_off``. ``base``
    itself when no distance is legal."""
    def ok(d: float) -> Base | None:
        end = base.moved(d, facing)
        if not table.contains(end):
            return None
        if not ground.path_clear(base, end):
            return None
        for o in others:
            if end.overlaps(o):
                return None
            if (passable is None or not passable(o)) and swept_overlaps(base, end, o):
                return None
        if any(end.within(o, gap - 1e-9) for o in keep_off):
            return None
        return end

    if distance <= 0:
        return base
    # only bases the move can reach matter: within the distance and both radii of the start
    x, y, reach = base.x, base.y, distance + base.radius
    others = [o for o in others if math.hypot(o.x - x, o.y - y) < reach + o.radius]
    keep_off = [o for o in keep_off if math.hypot(o.x - x, o.y - y) < reach + o.radius + gap]
    full = ok(distance)
    if full is not None:
        return full
    # binary search on the legal distance (to ``step``): the largest legal one found
    lo, hi, best = 0.0, distance, base
    while hi - lo > step:
        mid = (lo + hi) / 2
        got = ok(mid)
        if got is not None:
            lo, best = mid, got
        else:
            hi = mid
    return best


def pivot_clear(base: Base, facing: float, *, table: Rect, ground: Ground = OPEN_GROUND, others: Sequence[Base] = (),
                passable: Callable[[Base], bool] | None = None, step_degrees: float = 15.0) -> bool:
    """May ``base`` pivot on its centre to ``facing`` (the shorter way round)? The turned base must
    stand on the table, on no impassable ground and on no base of ``others``; on the way (checked
    every ``step_degrees`` at most) its corners may cross no impassable ground and no base of
    ``others`` that is not ``passable``.

    A 4" x 2" base turning a quarter right sweeps its front-left corner 2.24" north of its centre
    (at y 7.76 here), though it starts and ends 1" and 2" deep (y 9 and 8):

    >>> table = Rect(0, 0, 36, 36)
    >>> pivot_clear(Base(10, 10, 0, 4, 2), 90, table=table, ground=Ground(impassable=(Rect(6, 3, 8, 4.8),)))
    False
    >>> pivot_clear(Base(10, 10, 0, 4, 2), 90, table=table, ground=Ground(impassable=(Rect(6, 3, 8, 4.5),)))
    True
    """
    turn = angle_between(base.facing, facing)
    if turn < 1e-9:
        return True
    # only what the pivoting base can reach: within its radius of its centre
    x, y, r = base.x, base.y, base.radius
    near = [o for o in others if math.hypot(o.x - x, o.y - y) < r + o.radius]
    rects = [g for g in (*ground.impassable, *ground.fordable) if g.x - r < x < g.x + g.w + r and g.y - r < y < g.y + g.h + r]
    if not near and not rects:
        return table.contains(base.turned(facing))  # nothing within reach of its corners
    near_ground = Ground(tuple(g for g in ground.impassable if g in rects), tuple(g for g in ground.fordable if g in rects), ground.crossings) if rects else OPEN_GROUND
    sign = 1.0 if (facing - base.facing) % 360.0 <= 180.0 else -1.0
    n = max(1, math.ceil(turn / step_degrees))
    for i in range(1, n + 1):
        b = base.turned(base.facing + sign * turn * i / n)
        if rects and not near_ground.base_clear(b):
            return False
        last = i == n
        for o in near:
            if b.overlaps(o) and (last or passable is None or not passable(o)):
                return False
        if last and not table.contains(b):
            return False
    return True


#: Courses tried by :func:`reach_courses` on each side of the facing, in degrees apart.
REACH_SAMPLE_DEGREES = 5.0


@lru_cache(maxsize=8192)
def reach_courses(base: Base, target: Base, max_turn: float, within: float) -> tuple[tuple[float, float], ...]:
    """Ways ``base`` can reach ``target`` by pivoting on its centre at most ``max_turn`` degrees
    and then moving straight ahead at most ``within`` inches until any point of it touches any
    point of ``target``: ``(distance, course)`` pairs (inches, degrees), shortest first.

    The courses are the facing, every :data:`REACH_SAMPLE_DEGREES` either side of it up to
    ``max_turn``, the two extremes, and the bearings of the target's centre and corners inside
    that arc; when the shortest of them is within half an inch of ``within`` (a course between
    two samples may be shorter), it is refined by a golden-section search over one sample step
    each side. Remembered for pairs of bases and limits (a pure function: bases are values).

    >>> reach_courses(Base(9.5, 20.5, 0, 4, 2), Base(13, 13, 180, 4, 2), 0, 6)  # straight on: the corner at 5.5"
    ((5.5, 0.0),)
    >>> reach_courses(Base(9.5, 20.5, 0, 4, 2), Base(13, 13, 180, 4, 2), 0, 5)
    ()
    """
    f = base.facing
    n = int(max_turn // REACH_SAMPLE_DEGREES)
    offsets = {k * REACH_SAMPLE_DEGREES for k in range(-n, n + 1)} | {-max_turn, max_turn}
    for p in (target.centre, *target.corners()):
        off = ((bearing(base.centre, p) - f + 180.0) % 360.0) - 180.0
        if abs(off) <= max_turn:
            offsets.add(off)

    def dist(off: float) -> float:
        c = f + off
        return first_contact(base.turned(c), c, target)

    found = {off: dist(off) for off in sorted(offsets)}
    d0, off0 = min((d, off) for off, d in found.items())
    if d0 < math.inf and within < d0 <= within + 0.5 and max_turn > 0:
        lo, hi = max(-max_turn, off0 - REACH_SAMPLE_DEGREES), min(max_turn, off0 + REACH_SAMPLE_DEGREES)
        g = (math.sqrt(5) - 1) / 2
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        da, db = dist(a), dist(b)
        while hi - lo > 0.01:
            if da <= db:
                hi, b, db = b, a, da
                a = hi - g * (hi - lo)
                da = dist(a)
            else:
                lo, a, da = a, b, db
                b = lo + g * (hi - lo)
                db = dist(b)
        found[a], found[b] = da, db
    return tuple(sorted((d, norm(f + off)) for off, d in found.items() if d <= within + 1e-9))
