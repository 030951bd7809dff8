"""Where a measured table's compass rose and scale bar go, in **inches** on the table (``x``
east, ``y`` south from the north-west corner, as :mod:`pipeline.measured.geometry`).

This is layout, not drawing: a set-up laid out on the table keeps its pieces off these boxes
(:func:`pipeline.systems.ronin.deployment.keep_off`), so it decides games and belongs to the
code the verdicts digest; :mod:`pipeline.measured.art` draws the rose and the bar where these
functions put them.

Example::

    >>> scale_bar_inches(36), scale_bar_inches(24)
    (12, 6)
    >>> decoration_boxes(36, 36)[1]
    (0.8, 0.8, 13.6, 2.5)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["Point", "clear_spot", "decoration_boxes", "decoration_spots", "scale_bar_inches"]

#: A point or a size on the table, inches.
Point = tuple[float, float]


def clear_spot(width: float, depth: float, size: Point, avoid: Sequence[tuple[float, float, float, float]], taken: Sequence[tuple[float, float, float, float]] = ()) -> Point:
    """The top-left corner of a ``size`` (w, h) inch box on the table, from candidate spots along
    the edges, that overlaps ``avoid`` (and ``taken``) the least; ties go to the first candidate
    (north-east corner first)."""
    w, h = size
    m = 0.8
    xs = [width - w - m, m, (width - w) / 2, width * 0.25 - w / 2, width * 0.75 - w / 2]
    ys = [m, depth - h - m, (depth - h) / 2, depth * 0.25 - h / 2, depth * 0.75 - h / 2]
    cands = [(x, y) for y in ys for x in xs if (x in (xs[0], xs[1]) or y in (ys[0], ys[1]))]

    def cover(x: float, y: float) -> float:
        tot = 0.0
        for x0, y0, x1, y1 in list(avoid) + list(taken):
            ix, iy = min(x + w, x1) - max(x, x0), min(y + h, y1) - max(y, y0)
            if ix > 0 and iy > 0:
                tot += ix * iy * (4.0 if (x0, y0, x1, y1) in taken else 1.0)
        return tot

    return min(cands, key=lambda c: cover(*c))


def scale_bar_inches(width: float) -> int:
    """Length of a table's scale bar: 12 inches on tables 30 inches wide or more, else 6."""
    return 12 if width >= 30 else 6


def decoration_spots(width: float, depth: float, avoid: Sequence[tuple[float, float, float, float]] = (),
                     compass: Point | None = None, scale_bar: Point | None = None) -> tuple[Point, Point]:
    """Where a ``width`` × ``depth`` inch table's compass rose (its centre) and scale bar (its
    left end) go, in inches: those given, else the spots along the edges that cover the fewest
    ``avoid`` boxes (:func:`clear_spot`; the scale bar also keeps off the compass)."""
    bar = scale_bar_inches(width)
    if compass is None:
        cx, cy = clear_spot(width, depth, (4.4, 4.4), avoid)
        compass = (cx + 2.2, cy + 2.2)
    if scale_bar is None:
        c = compass
        sx, sy = clear_spot(width, depth, (bar + 0.8, 1.7), avoid, [(c[0] - 2.2, c[1] - 2.2, c[0] + 2.2, c[1] + 2.2)])
        scale_bar = (sx + 0.4, sy + 1.05)
    return compass, scale_bar


def decoration_boxes(width: float, depth: float, avoid: Sequence[tuple[float, float, float, float]] = ()) -> list[tuple[float, float, float, float]]:
    """The boxes ``(x0, y0, x1, y1)`` in inches that a table's compass rose (4.4 inches square)
    and scale bar (its length + 0.8 by 1.7 inches) cover, placed as :func:`decoration_spots`
    places them: what a set-up laid out on the table keeps its pieces off."""
    (cx, cy), (sx, sy) = decoration_spots(width, depth, avoid)
    bar = scale_bar_inches(width)
    return [(cx - 2.2, cy - 2.2, cx + 2.2, cy + 2.2), (sx - 0.4, sy - 1.05, sx - 0.4 + bar + 0.8, sy - 1.05 + 1.7)]
