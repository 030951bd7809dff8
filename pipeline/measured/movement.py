"""Moves on a measured table: how far a base can go in a straight line before it leaves the
table, crosses impassable ground or runs into another base (game-agnostic)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline.measured.geometry import Base, Rect, polygons_overlap, swept


def furthest(base: Base, facing: float, distance: float, *, table: Rect, blocked: Sequence[Rect] = (),
             open_: Sequence[Rect] = (), others: Sequence[Base] = (), passable: Callable[[Base], bool] | None = None,
             keep_off: Sequence[Base] = (), gap: float = 0.25, step: float = 0.5) -> Base:
    """The base moved along ``facing`` (keeping its own facing) as far as it can, at most
    ``distance`` (found to ``step`` by halving): on the table, its path clear of ``blocked`` rectangles
    (unless inside one of ``open_``, e.g. a ford), not crossing ``others`` (unless
    ``passable(other)``), and ending at least ``gap`` from every base of ``keep_off``."""
    def ok(d: float) -> Base | None:
        end = base.moved(d, facing)
        if not table.contains(end):
            return None
        path = swept(base, end)
        if any(polygons_overlap(path, r.corners()) for r in blocked) and not _open_path(path, blocked, open_):
            return None
        for o in others:
            if end.overlaps(o):
                return None
            if (passable is None or not passable(o)) and polygons_overlap(path, o.corners()):
                return None
        if any(end.within(o, gap - 1e-9) for o in keep_off):
            return None
        return end

    if distance <= 0:
        return base
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


def _open_path(path, blocked: Sequence[Rect], open_: Sequence[Rect]) -> bool:
    """A path over blocked ground is allowed only where an open rectangle (ford, bridge) covers
    the crossing: approximated by the path's overlap with every blocked rectangle it touches
    also overlapping an open rectangle."""
    for r in blocked:
        if polygons_overlap(path, r.corners()) and not any(polygons_overlap(path, o.corners()) for o in open_):
            return False
    return True
