"""Moves on a measured table: how far a base can go in a straight line before it leaves the
table, crosses impassable ground or runs into another base (game-agnostic)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline.measured.geometry import Base, Rect, swept_overlaps


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
        hit = [r for r in blocked if swept_overlaps(base, end, r.as_base)]
        if hit and not _open_path(base, end, hit, open_):
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


def _open_path(start: Base, end: Base, hit: Sequence[Rect], open_: Sequence[Rect]) -> bool:
    """A path over blocked ground is allowed only where an open rectangle (ford, bridge) covers
    the crossing: approximated by the path overlapping an open rectangle whenever it overlaps
    blocked ground (``hit``: the blocked rectangles it overlaps)."""
    return not hit or any(swept_overlaps(start, end, o.as_base) for o in open_)
