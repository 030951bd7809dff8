"""What a measured-table module draws, for any game system (OHW Samurai, Sekigahara): the
battlefield, the unit counters and the marker, as contexts of the templates in
``templates/measured/``.

Everything here is in **inches** on the table (``x`` east, ``y`` south from the north-west
corner, as :mod:`pipeline.measured.geometry`); the templates draw one canvas unit per inch for
the table and ten units per inch for a counter, and :func:`table_job` / :func:`counter_job`
turn that into pixels at the module's ``px_per_inch``.

**Scenery.** A :class:`Scenery` feature is one of :data:`KINDS`, placed either by an area (the
rectangle the rules engine uses) or by a path with a width (roads and streams). Drawing turns
it into terrain: a hill gets layered tints and contour lines, woods get tree crowns, a village
houses, fields paddy dikes, a marsh pools and reeds, a river or road a meandering band. The
organic outline of an area feature is drawn *inside* its rectangle (wobbling inwards by at most
:data:`ROUGHNESS` of its smaller side), so what a player sees never claims ground the rules do
not give it. The wobble is seeded from the feature's name and position, so the same data give
the same picture.

Example::

    >>> hill = Scenery("hill", name="Mt Sasao", area=(4, 0, 14, 10))
    >>> ctx = battlefield_context(72, 48, [hill])
    >>> ctx["features"][0]["kind"], len(ctx["features"][0]["levels"]) > 1
    ('hill', True)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import GunbaiError
from pipeline.measured.geometry import Box
from pipeline.measured.layout import Point, decoration_spots, scale_bar_inches
from pipeline.render.cache import RenderCache, RenderJob
from pipeline.render.templates import TemplateRenderer

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

#: The kinds of scenery the templates draw.
KINDS = ("hill", "woods", "village", "town", "fields", "marsh", "lake", "river", "stream", "road", "ford", "bridge")
#: Kinds drawn as a band along a path (an area of these kinds is drawn along its long axis).
LINEAR = ("river", "stream", "road")
#: Kinds drawn across a river (an area of these kinds is drawn across its long axis).
CROSSINGS = ("ford", "bridge")
#: How far (a fraction of the smaller side) an area feature's drawn edge may wobble inwards.
ROUGHNESS = 0.12

#: Counter canvas units per inch (``templates/measured/unit_counter.yaml.j2``).
COUNTER_UNITS_PER_INCH = 10

#: Troop type symbols the counter templates draw (``templates/measured/_symbols.j2``).
SYMBOLS = ("sword", "spear", "gun", "bow", "horse", "spear_gun")
#: Mon (family crest) designs the counter templates draw, each traced by gunbai from its
#: description in the cited source (``templates/measured/_symbols.j2``).
MON_DESIGNS = ("maru_ni_juji", "kuyo", "mitsuba_aoi", "mitsudomoe", "kanji")


class ArtError(GunbaiError):
    """A feature or counter cannot be drawn (unknown kind, symbol or mon design; a path with
    fewer than two points)."""


@dataclass(frozen=True)
class Scenery:
    """A scenery feature of a table.

    Attributes:
        kind: one of :data:`KINDS`.
        name: the label drawn on the table (``None``: no label).
        area: ``(x, y, w, h)`` inches, the rules' rectangle; or
        path: ``[(x, y), …]`` inches, the centre line of a road or stream (drawn smoothed);
        width: the band's width in inches (path features; an area's is its smaller side).
        label_at: where the label goes (inches); default: the feature's top or the path's middle.
        round: an area feature's outline is the ellipse inscribed in its area (a round piece,
            e.g. a Ronin wood of radius r) rather than a rounded rectangle.
    """

    kind: str
    name: str | None = None
    area: tuple[float, float, float, float] | None = None
    path: tuple[Point, ...] | None = None
    width: float | None = None
    label_at: Point | None = None
    round: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ArtError(f"scenery kind {self.kind!r}: expected one of {', '.join(KINDS)}")
        if (self.area is None) == (self.path is None):
            raise ArtError(f"{self.name or self.kind}: give exactly one of area or path")
        if self.path is not None and len(self.path) < 2:
            raise ArtError(f"{self.name or self.kind}: a path needs at least two points")


@dataclass(frozen=True)
class Zone:
    """A deployment area or objective drawn over the scenery: its bounding box ``(x, y, w, h)``
    inches, its ``colour`` (``#rrggbb``) and ``label``; ``kind`` is ``deploy`` or ``objective``;
    ``shape`` is ``rect`` or ``circle`` (the circle inscribed in the box)."""

    area: tuple[float, float, float, float]
    colour: str
    label: str
    kind: str = "deploy"
    shape: str = "rect"


# ---------------------------------------------------------------------------------------------
# deterministic randomness and plane geometry


def rng_for(*parts: Any) -> random.Random:
    """A random generator seeded from ``parts`` (the same parts give the same numbers)."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _r(v: float) -> float:
    return round(v, 3)


def _pts(points: Iterable[Point]) -> list[list[float]]:
    return [[_r(x), _r(y)] for x, y in points]


def blob(cx: float, cy: float, rx: float, ry: float, rng: random.Random, *, n: int = 40, rough: float = ROUGHNESS,
         square: float = 3.0, scale: float = 1.0, phases: Sequence[float] | None = None) -> list[Point]:
    """An organic closed outline inside the ellipse-to-rectangle ``cx, cy, rx, ry``.

    The shape is a superellipse of exponent ``square`` (2: an ellipse; larger: squarer) whose
    radius is cut by a smooth noise of at most ``rough`` (a fraction), so it never leaves its
    box. ``scale`` shrinks it about the centre (contours); ``phases`` fixes the noise so scaled
    copies keep the same shape. Returns ``n`` points, clockwise on screen.
    """
    ph = list(phases) if phases is not None else [rng.uniform(0, 2 * math.pi) for _ in range(3)]
    amps = (0.5, 0.3, 0.2)
    out = []
    for i in range(n):
        t = 2 * math.pi * i / n
        c, s = math.cos(t), math.sin(t)
        x = math.copysign(abs(c) ** (2 / square), c)
        y = math.copysign(abs(s) ** (2 / square), s)
        k = 1 - rough * sum(a * (0.5 + 0.5 * math.sin(f * t + p)) for a, f, p in zip(amps, (2, 3, 5), ph, strict=True))
        out.append((cx + rx * x * k * scale, cy + ry * y * k * scale))
    return out


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    """Even-odd rule: is ``p`` inside the closed polygon ``poly``?"""
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    ln = dx * dx + dy * dy
    t = 0.0 if ln == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ln))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def edge_distance(p: Point, poly: Sequence[Point]) -> float:
    """Distance from ``p`` to the nearest edge of the closed polygon ``poly``."""
    return min(_seg_dist(p, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def scatter(poly: Sequence[Point], spacing: float, margin: float, rng: random.Random) -> list[Point]:
    """Points about ``spacing`` apart (a jittered grid) inside ``poly``, each at least
    ``margin`` from its edge, in row order."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    out = []
    row = 0
    y = min(ys) + spacing / 2
    while y < max(ys):
        x = min(xs) + spacing * (0.25 if row % 2 else 0.75)
        while x < max(xs):
            q = (x + rng.uniform(-0.3, 0.3) * spacing, y + rng.uniform(-0.3, 0.3) * spacing)
            if point_in_polygon(q, poly) and edge_distance(q, poly) >= margin:
                out.append(q)
            x += spacing
        y += spacing * 0.87
        row += 1
    return out


def smooth(path: Sequence[Point], steps: int = 6) -> list[Point]:
    """A Catmull-Rom curve through ``path`` (``steps`` points per segment, ends kept)."""
    if len(path) < 3:
        return list(path)
    pts = [path[0], *path, path[-1]]
    out: list[Point] = []
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        for k in range(steps):
            t = k / steps
            t2, t3 = t * t, t * t * t
            out.append(tuple(0.5 * (2 * p1[j] + (-p0[j] + p2[j]) * t + (2 * p0[j] - 5 * p1[j] + 4 * p2[j] - p3[j]) * t2 + (-p0[j] + 3 * p1[j] - 3 * p2[j] + p3[j]) * t3) for j in (0, 1)))  # type: ignore[arg-type]
    out.append(path[-1])
    return out


def meander(path: Sequence[Point], amplitude: float, rng: random.Random, wavelength: float = 6.0) -> list[Point]:
    """``path`` resampled every ~0.5 inch with a smooth sideways wiggle of at most
    ``amplitude`` inches (0 at both ends)."""
    out: list[Point] = []
    total = sum(math.dist(a, b) for a, b in zip(path, path[1:], strict=False))
    if total == 0:
        return list(path)
    phase = rng.uniform(0, 2 * math.pi)
    run = 0.0
    for a, b in zip(path, path[1:], strict=False):
        seg = math.dist(a, b)
        n = max(1, math.ceil(seg / 0.5))
        nx, ny = (-(b[1] - a[1]) / seg, (b[0] - a[0]) / seg) if seg else (0.0, 0.0)
        for k in range(n):
            t = k / n
            d = run + seg * t
            env = math.sin(math.pi * d / total)
            off = amplitude * env * (0.7 * math.sin(2 * math.pi * d / wavelength + phase) + 0.3 * math.sin(2 * math.pi * d / (wavelength * 0.45) + 2 * phase))
            out.append((a[0] + (b[0] - a[0]) * t + nx * off, a[1] + (b[1] - a[1]) * t + ny * off))
        run += seg
    out.append(path[-1])
    return out


def _intersection(a: Point, b: Point, c: Point, d: Point) -> Point | None:
    den = (b[0] - a[0]) * (d[1] - c[1]) - (b[1] - a[1]) * (d[0] - c[0])
    if abs(den) < 1e-12:
        return None
    t = ((c[0] - a[0]) * (d[1] - c[1]) - (c[1] - a[1]) * (d[0] - c[0])) / den
    u = ((c[0] - a[0]) * (b[1] - a[1]) - (c[1] - a[1]) * (b[0] - a[0])) / den
    if 0 <= t <= 1 and 0 <= u <= 1:
        return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
    return None


def crossings(road: Sequence[Point], water: Sequence[Point]) -> list[tuple[Point, float]]:
    """Where polyline ``road`` crosses polyline ``water``: ``(point, road bearing in degrees
    clockwise from east)`` each, once (a crossing at a vertex, found on both segments meeting
    there, is kept once)."""
    out: list[tuple[Point, float]] = []
    for a, b in zip(road, road[1:], strict=False):
        for c, d in zip(water, water[1:], strict=False):
            p = _intersection(a, b, c, d)
            if p is not None and all(math.dist(p, q) > 0.3 for q, _ in out):
                out.append((p, math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))))
    return out


# ---------------------------------------------------------------------------------------------
# features → template context


def _area_axis(area: tuple[float, float, float, float]) -> tuple[list[Point], float]:
    """The long-axis centre line of a rectangle and its short side."""
    x, y, w, h = area
    if w >= h:
        return [(x, y + h / 2), (x + w, y + h / 2)], h
    return [(x + w / 2, y), (x + w / 2, y + h)], w


def _label(f: Scenery, at: Point, size: float) -> dict[str, Any] | None:
    if not f.name:
        return None
    p = f.label_at or at
    return {"x": _r(p[0]), "y": _r(p[1]), "text": f.name, "size": size, "kind": f.kind}


def feature_context(f: Scenery, table: tuple[float, float] = (72.0, 48.0)) -> dict[str, Any]:
    """The drawing context of one feature (``templates/measured/_scenery.j2``): its kind,
    outline or path (inches), and what fills it (tree crowns, houses, contour levels, reeds)."""
    rng = rng_for(f.kind, f.name, f.area, f.path)
    ctx: dict[str, Any] = {"kind": f.kind, "name": f.name}
    if f.kind in LINEAR:
        if f.path is not None:
            centre, width = list(f.path), f.width or (0.8 if f.kind == "road" else 0.6)
            line = smooth(centre) if f.kind == "road" else smooth(meander(centre, width * 0.4, rng))
        else:
            assert f.area is not None
            centre, short = _area_axis(f.area)
            width = short * (0.9 if f.kind == "road" else 0.8)
            line = centre if f.kind == "road" else meander(centre, (short - width) / 2, rng)
        ctx.update(path=_pts(line), width=_r(width))
        mid = line[len(line) // 2]
        ctx["label"] = _label(f, (mid[0], mid[1] - width - 0.5), 0.75)
        return ctx
    if f.kind in CROSSINGS:
        assert f.area is not None, "a ford or bridge is placed by its area"
        x, y, w, h = f.area
        along = w >= h
        ctx.update(x=_r(x), y=_r(y), w=_r(w), h=_r(h), along_x=along)
        ctx["stones"] = [[_r(px), _r(py), _r(rng.uniform(0.18, 0.32))] for px, py in scatter([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], 0.55, 0.2, rng)] if f.kind == "ford" else []
        ctx["label"] = _label(f, (x + w / 2, y - 0.5), 0.6)
        return ctx
    assert f.area is not None
    x, y, w, h = f.area
    cx, cy = x + w / 2, y + h / 2
    phases = [rng.uniform(0, 2 * math.pi) for _ in range(3)]
    square = 2.0 if f.round else (2.2 if f.kind in ("hill", "lake") else 3.2)
    outline = blob(cx, cy, w / 2, h / 2, rng, square=square, phases=phases, rough=ROUGHNESS * min(w, h) / max(w, h) * 1.6)
    ctx["outline"] = _pts(outline)
    ctx["label"] = _label(f, (cx, y + min(1.1, h * 0.18)), 0.85 if f.kind == "hill" else 0.7)
    if f.kind == "hill":
        # contour levels shrink towards a summit a little north-west of the centre
        levels = []
        n = max(2, min(5, int(min(w, h) / 2.2) + 1))
        for i in range(n):
            s = 1 - i / n
            sx, sy = cx - (1 - s) * w * 0.08, cy - (1 - s) * h * 0.08
            levels.append(_pts(blob(sx, sy, w / 2, h / 2, rng, square=square, phases=phases, scale=s, rough=ROUGHNESS)))
        ctx["levels"] = levels
        ctx["shadow"] = _pts((px + 0.35, py + 0.45) for px, py in outline)
    elif f.kind == "woods":
        trees = []
        for px, py in scatter(outline, 1.0, 0.45, rng):
            trees.append([_r(px), _r(py), _r(rng.uniform(0.42, 0.62)), rng.randrange(3)])
        ctx["trees"] = trees
    elif f.kind in ("village", "town"):
        angle = rng.uniform(-12, 12)
        houses = []
        for px, py in scatter(outline, 1.55 if f.kind == "town" else 1.9, 0.75, rng):
            hw, hh = rng.uniform(0.9, 1.3), rng.uniform(0.6, 0.85)
            houses.append([_r(px), _r(py), _r(hw), _r(hh), _r(angle + rng.choice((0, 0, 90)) + rng.uniform(-4, 4))])
        ctx["houses"] = houses
        ctx["lanes"] = [_pts([(x + 0.6, cy), (x + w - 0.6, cy)]), _pts([(cx, y + 0.6), (cx, y + h - 0.6)])]
    elif f.kind == "fields":
        step = 1.2
        angle = rng.uniform(-8, 8)
        ctx.update(angle=_r(angle), centre=[_r(cx), _r(cy)], step=step, reach=_r(math.hypot(w, h) / 2 + step),
                   bbox=[_r(x), _r(y), _r(w), _r(h)])
    elif f.kind == "marsh":
        ctx["pools"] = [[_r(px), _r(py), _r(rng.uniform(0.35, 0.8)), _r(rng.uniform(0.18, 0.35))] for px, py in scatter(outline, 1.7, 0.6, rng)]
        ctx["reeds"] = _pts(scatter(outline, 0.9, 0.3, rng))
    elif f.kind == "lake":
        ctx["inner"] = _pts(blob(cx, cy, w / 2, h / 2, rng, square=square, phases=phases, scale=0.78, rough=ROUGHNESS))
    return ctx


def ground_texture(width: float, depth: float, seed: str) -> dict[str, Any]:
    """Soft lighter and darker patches and grass flecks over the whole table, for the look of
    ground rather than a flat colour."""
    rng = rng_for("ground", seed, width, depth)
    patches = []
    for _ in range(int(width * depth / 40)):
        px, py = rng.uniform(0, width), rng.uniform(0, depth)
        r = rng.uniform(2.0, 5.5)
        patches.append([_r(px), _r(py), _r(r), _r(r * rng.uniform(0.5, 0.9)), rng.randrange(2)])
    flecks = []
    for _ in range(int(width * depth / 5)):
        px, py = rng.uniform(0, width), rng.uniform(0, depth)
        flecks.append([_r(px), _r(py), _r(px + rng.uniform(-0.18, 0.18)), _r(py - rng.uniform(0.15, 0.3))])
    return {"patches": patches, "flecks": flecks}


def _boxes(features: Sequence[Scenery], zones: Sequence[Zone]) -> list[tuple[float, float, float, float]]:
    """Bounding boxes ``(x0, y0, x1, y1)`` of what a compass or scale bar should not cover:
    every feature (a path's every segment, widened) and zone edge strip."""
    out = []
    for f in features:
        if f.area is not None:
            x, y, w, h = f.area
            out.append((x, y, x + w, y + h))
        else:
            assert f.path is not None
            r = (f.width or 0.8) / 2 + 0.3
            for a, b in zip(f.path, f.path[1:], strict=False):
                n = max(1, int(math.dist(a, b) / 1.5))
                for k in range(n + 1):
                    px, py = a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n
                    out.append((px - r, py - r, px + r, py + r))
    for z in zones:
        x, y, w, h = z.area
        out.append((x, y, x + w, y + h))
    return out


# ---------------------------------------------------------------------------------------------
# labels: placed where no piece, label or line covers them

#: How far a label's box reaches past its letters (their outline stroke), inches.
LABEL_PAD = 0.12
#: A zone label's size and the least it shrinks to (a narrow zone wraps it between words),
#: inches: 0.45 is 14 px at 32 px per inch.
ZONE_LABEL_SIZE = 0.62
ZONE_LABEL_MIN = 0.45
#: A zone label's gap from its zone's edge (inside it: from the side; outside: from the edge).
ZONE_INSET = 0.45


def overlap(a: Box, b: Box) -> float:
    """The area (square inches) two boxes share.

    >>> overlap((0, 0, 2, 2), (1, 1, 3, 3)), overlap((0, 0, 1, 1), (1, 0, 2, 1))
    (1, 0)
    """
    ix, iy = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    return ix * iy if ix > 0 and iy > 0 else 0


def piece_box(x: float, y: float, w: float, d: float, facing: float = 0.0) -> Box:
    """The box a ``w`` × ``d`` inch base centred on ``x, y`` and turned ``facing`` degrees covers
    (its rotated rectangle's bounding box).

    >>> piece_box(10, 10, 4, 2, 90)
    (9.0, 8.0, 11.0, 12.0)
    """
    c, s = abs(math.cos(math.radians(facing))), abs(math.sin(math.radians(facing)))
    hw, hd = (w * c + d * s) / 2, (w * s + d * c) / 2
    return (_r(x - hw), _r(y - hd), _r(x + hw), _r(y + hd))


def place_labels(candidates: Sequence[Sequence[Box]], pieces: Sequence[Box] = (), lines: Sequence[Box] = (),
                 bounds: Box | None = None, soft: Sequence[Sequence[Box]] | None = None,
                 own_lines: Sequence[Sequence[Box]] | None = None) -> list[int]:
    """Where each label goes: the index of one of its ``candidates`` (the boxes its text would
    cover at each spot around its feature or anchor, in order of preference).

    The rule: a label takes the first candidate that no piece covers (``pieces``: the bases of
    every scenario set up on this board), no label placed before it covers, that lies inside
    ``bounds`` (the table) and that no line crosses (``lines``: zone edges, the compass and the
    scale bar, fords and bridges; ``own_lines[i]``: more lines for label ``i`` alone, e.g. the
    crossings but its own; ``soft[i]``: what else label ``i`` had better keep off, e.g. the other
    deployment zones); when none is free, the least covered: by pieces and the table's edge
    first (a label off the table is lost), then by labels, then lines, then ``soft``, then the
    order. Labels are placed
    in order, each one an obstacle to those after it.

    Example: a label whose first spot a piece covers takes its second::

        >>> place_labels([[(0, 0, 4, 1), (0, 2, 4, 3)]], pieces=[(1, 0.5, 2, 1.5)])
        [1]
    """
    placed: list[Box] = []
    out: list[int] = []

    def outside(b: Box) -> float:
        if bounds is None:
            return 0.0
        return (b[2] - b[0]) * (b[3] - b[1]) - overlap(b, bounds)

    def cost(b: Box, mine: Sequence[Box], extra: Sequence[Box], others: Sequence[Box]) -> tuple[float, float, float, float]:
        return (round(sum(overlap(b, p) for p in pieces) + outside(b), 6), round(sum(overlap(b, q) for q in others), 6),
                round(sum(overlap(b, q) for q in mine), 6), round(sum(overlap(b, q) for q in extra), 6))

    def own(i: int) -> tuple[list[Box], Sequence[Box]]:
        return [*lines, *(own_lines[i] if own_lines is not None else ())], (soft[i] if soft is not None else ())

    for i, cands in enumerate(candidates):
        mine, extra = own(i)
        best = min(range(len(cands)), key=lambda k: (*cost(cands[k], mine, extra, placed), k))  # noqa: B023 - used at once
        out.append(best)
        placed.append(cands[best])
    # a label an earlier one crosses is placed again (the earlier one too), against every other
    # label: a label moves only to a spot strictly less covered, so a layout where no two labels
    # meet is the one pass above made
    for _ in range(len(candidates)):
        moved = False
        for i, cands in enumerate(candidates):
            others = placed[:i] + placed[i + 1:]
            if not any(overlap(placed[i], q) for q in others):
                continue
            mine, extra = own(i)
            now = cost(cands[out[i]], mine, extra, others)
            best = min(range(len(cands)), key=lambda k: (*cost(cands[k], mine, extra, others), k))  # noqa: B023 - used at once
            if cost(cands[best], mine, extra, others) < now:
                out[i], placed[i], moved = best, cands[best], True
        if not moved:
            break
    return out


def _text_box(text: str, size: float, width: float | None = None, line_height: float = 1.05) -> tuple[float, float, int]:
    """``(width, height, lines)`` of a bold ``text`` at ``size`` inches, wrapped between words at
    ``width`` (``None``: one line), measured with the real font."""
    from pipeline.render.drawing import text_length, wrap_text

    k = 100.0
    px = max(1, round(size * k))
    lines = wrap_text(text, px, True, width * k) if width is not None else [text]
    w = max(text_length(line, px, True) for line in lines) / k
    return w, ((len(lines) - 1) * line_height + 1) * size, len(lines)


def two_lines(text: str, size: float = 1.0) -> tuple[str, float]:
    """A bold ``text`` at ``size`` inches on two lines, broken at the space that makes the longer
    line shortest (no word, Japanese ones included, is broken; a text without a space stays on
    one), and a wrap width (inches) a little wider than its longest line.

    >>> two_lines("Mt Matsuo 松尾山")[0], two_lines("Okayama")[0]
    ('Mt Matsuo\\n松尾山', 'Okayama')
    """
    from pipeline.render.drawing import text_length

    k = 100.0
    px = max(1, round(size * k))
    words = text.split(" ")
    i = min(range(1, len(words)), key=lambda i: max(text_length(" ".join(words[:i]), px, True), text_length(" ".join(words[i:]), px, True)),
            default=len(words))
    lines = [" ".join(words[:i]), " ".join(words[i:])] if i < len(words) else [text]
    return "\n".join(lines), _r(max(text_length(line, px, True) for line in lines) / k * 1.05 + 0.02)


def _feature_spots(f: Scenery, ctx: dict[str, Any], size: float) -> list[Point]:
    """Where a feature's label may stand (its centre), in order: the data's ``label_at``, the
    drawing's own spot, then round the feature (an area: inside its top and foot, above and
    below it, its middle, centred and then shifted a quarter and a half of its width to either
    side; a path: beside it at points along it)."""
    spots: list[Point] = [f.label_at] if f.label_at else []
    lab = ctx["label"]
    spots.append((lab["x"], lab["y"]))
    if "path" in ctx:
        line = ctx["path"]
        off = ctx["width"] / 2 + size * 0.7 + 0.15
        for t in (0.5, 0.35, 0.65, 0.2, 0.8):
            px, py = line[min(len(line) - 1, int(t * (len(line) - 1)))]
            spots += [(px, py - off), (px, py + off)]
    elif f.area is not None:
        x, y, w, h = f.area
        cx, cy = x + w / 2, y + h / 2
        inset = min(1.1, h * 0.18)
        ys = [y + inset, y + h - inset, y - size * 0.6 - 0.15, y + h + size * 0.6 + 0.15, cy, y + h * 0.33, y + h * 0.67]
        step = max(w / 4, 1.0)
        spots += [(cx + k * step, sy) for k in (0, -1, 1, -2, 2) for sy in ys]
    return list(dict.fromkeys((_r(a), _r(b)) for a, b in spots))


def _zone_spots(z: Zone, width: float, depth: float, size: float) -> list[dict[str, Any]]:
    """Where a zone's label may stand, in order, each ``{x, y, anchor, max_width, box}``: a
    deployment zone's first outside it, on its side towards the table's centre (below a
    northern zone, above a southern one: where the pieces set up in it do not stand), at its
    left end, its right end, its middle, then on two lines at either end; then inside at its
    foot and top, then outside on the far side; a
    zone from edge to edge, and an objective, inside first (an objective's top left first)."""
    x, y, w, h = z.area
    obj = z.kind == "objective"
    full = y <= 0.5 and y + h >= depth - 0.5
    south = y + h / 2 > depth / 2
    inner = max(w - 2 * ZONE_INSET, size * 2)
    wide = max(inner, min(width - x - 2 * ZONE_INSET, 10.0))
    spots: list[tuple[str, float, str, float]] = []  # (side, y, vertical anchor, max width)
    def row(ly: float, va: str, mw: float) -> list[tuple[str, float, str, float]]:
        # at the zone's left end, its right end, its middle; then on two lines, narrower
        return [(side, ly, va, mw) for side in "lrm"] + [(side, ly, va, max(mw / 2, size * 4)) for side in "lr"]

    above, below = (y - 0.2, "b"), (y + h + 0.2, "t")
    near = row(*(above if south else below), wide)
    far = row(*(below if south else above), wide)
    foot = row(y + h - 0.35, "b", inner)
    top = row(y + 0.35, "t", inner)
    if obj:
        spots = top + foot + near + far
    elif full:
        spots = foot + top
    else:
        spots = near + foot + top + far
    out = []
    for side, ly, va, mw in spots:
        tw, th, _n = _text_box(z.label, size, mw)
        lx = {"l": x + ZONE_INSET, "r": x + w - ZONE_INSET, "m": x + w / 2}[side]
        x0 = {"l": lx, "r": lx - tw, "m": lx - tw / 2}[side]
        y0 = ly if va == "t" else ly - th
        out.append({"x": _r(lx), "y": _r(ly), "anchor": side + va, "max_width": _r(mw), "max_height": _r(th + 0.05),
                    "box": (x0 - LABEL_PAD, y0 - LABEL_PAD, x0 + tw + LABEL_PAD, y0 + th + LABEL_PAD)})
    return out


def _lines(features: Sequence[Scenery], zones: Sequence[Zone]) -> list[tuple[Box, int | None]]:
    """What a label had better not lie across, each with the feature it belongs to (``None``):
    every zone's edges, every ford and bridge. A road's or stream's band is no line here: a
    name across a road reads, and a label that dodged every road would wrap or wander."""
    out: list[tuple[Box, int | None]] = []
    t = 0.06  # half the width of a zone's dashed edge
    for z in zones:
        x, y, w, h = z.area
        out += [((x, y - t, x + w, y + t), None), ((x, y + h - t, x + w, y + h + t), None),
                ((x - t, y, x + t, y + h), None), ((x + w - t, y, x + w + t, y + h), None)]
    for i, f in enumerate(features):
        if f.kind in CROSSINGS and f.area is not None:
            x, y, w, h = f.area
            out.append(((x, y, x + w, y + h), i))
    return out


def place_table_labels(width: float, depth: float, features: Sequence[Scenery], ctx_feats: list[dict[str, Any]],
                       zones: Sequence[Zone], pieces: Sequence[Box], decorations: Sequence[Box],
                       label_min: float = 0.0) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The feature labels and the zone labels of a table, each at the spot :func:`place_labels`
    chooses among its candidates (:func:`_feature_spots`, :func:`_zone_spots`): feature labels
    first, then zone labels, in data order. ``label_min``: the least size of any label (inches;
    a print sheet's floor at its scale). Returns ``(labels, zone labels)``, each label with its
    ``box`` and ``covered`` (the area of it pieces cover: 0 where a free spot was found). A
    feature label of several words may also take each of its spots on two lines (after every
    spot on one line; it then carries ``shown``, the text with its line break, and ``max_width``,
    inches, the template's wrap width)."""
    lines = _lines(features, zones)
    cands: list[list[Box]] = []
    soft: list[list[Box]] = []
    options: list[list[dict[str, Any]]] = []
    for i, (f, c) in enumerate(zip(features, ctx_feats, strict=True)):
        lab = c.get("label")
        if not lab:
            continue
        size = max(lab["size"], label_min)
        tw, th, _n = _text_box(lab["text"], size, line_height=1.0)
        spots = _feature_spots(f, c, size)
        opts = [{**lab, "x": x, "y": y, "size": _r(size), "box": (x - tw / 2 - LABEL_PAD, y - th * 0.55 - LABEL_PAD, x + tw / 2 + LABEL_PAD, y + th * 0.55 + LABEL_PAD), "feature": i}
                for x, y in spots]
        if " " in lab["text"]:  # then the same spots on two lines, broken between words
            two, mw = two_lines(lab["text"], size)
            w2, h2, n2 = _text_box(two, size, mw, line_height=1.05)
            if n2 == 2:
                opts += [{**lab, "shown": two, "x": x, "y": y, "size": _r(size), "max_width": mw, "box": (x - w2 / 2 - LABEL_PAD, y - h2 * 0.55 - LABEL_PAD, x + w2 / 2 + LABEL_PAD, y + h2 * 0.55 + LABEL_PAD), "feature": i}
                         for x, y in spots]
        options.append(opts)
        cands.append([o["box"] for o in opts])
        soft.append([])
    n_features = len(options)
    zsize = max(ZONE_LABEL_SIZE, label_min)
    for z in zones:
        if z.shape != "rect":
            continue
        opts = _zone_spots(z, width, depth, zsize)
        options.append([{**o, "zone": z} for o in opts])
        cands.append([o["box"] for o in opts])
        soft.append([(o.area[0], o.area[1], o.area[0] + o.area[2], o.area[1] + o.area[3]) for o in zones if o is not z])
    # a label may lie on its own ford or bridge: each label's lines leave its feature's out
    own = [[b for b, owner in lines if owner is not None and owner != opts[0].get("feature")] for opts in options]
    common = [b for b, owner in lines if owner is None] + list(decorations)
    chosen = place_labels(cands, pieces, common, (0, 0, width, depth), soft, own)
    labels, zlabels = [], []
    for k, (opts, best) in enumerate(zip(options, chosen, strict=True)):
        o = dict(opts[best])
        o["covered"] = _r(sum(overlap(o["box"], p) for p in pieces))
        o["box"] = [_r(v) for v in o["box"]]
        if k < n_features:
            o.pop("feature", None)
            labels.append(o)
        else:
            zlabels.append(o)
    return labels, zlabels


def battlefield_context(width: float, depth: float, features: Sequence[Scenery], zones: Sequence[Zone] = (), *,
                        title: str = "", subtitle: str = "", seed: str = "", compass: Point | None = None,
                        scale_bar: Point | None = None, pieces: Sequence[Box] = (),
                        label_min: float = 0.0, avoid: Sequence[Box] = ()) -> dict[str, Any]:
    """The context of ``templates/measured/table.yaml.j2``: a ``width`` × ``depth`` inch table
    with ground texture, every feature (drawn in a fixed order: fields, marsh, lakes, hills,
    water, roads with bridges where they cross water, woods, villages), the zones, a compass
    rose, a scale bar in inches, edge ticks every 6 inches and the labels on top.

    ``compass`` (its centre) and ``scale_bar`` (its left end) place those (inches; default: the
    spots along the edges that cover the fewest features and zones and the boxes of ``avoid``,
    e.g. the pieces a print sheet lays on the table, :func:`pipeline.measured.layout.clear_spot`).
    Every label (a feature's name, a zone's) stands where :func:`place_table_labels` puts it:
    off ``pieces`` (the bases of every scenario set up on this table, :func:`piece_box`), the
    other labels, the zone edges, crossings, compass and scale bar; ``label_min``: the least size of
    a label in inches (a print sheet's floor at its scale; 0: the drawing's own sizes).

    Raises:
        ArtError: a feature cannot be drawn.
    """
    ctx_feats = [feature_context(f, (width, depth)) for f in features]
    order = {k: i for i, k in enumerate(("fields", "marsh", "lake", "hill", "river", "stream", "ford", "road", "bridge", "woods", "village", "town"))}
    bridges = []
    waters = [c for c in ctx_feats if c["kind"] in ("river", "stream")]
    for road in (c for c in ctx_feats if c["kind"] == "road"):
        for water in waters:
            for p, ang in crossings(road["path"], water["path"]):
                bridges.append({"x": _r(p[0]), "y": _r(p[1]), "angle": _r(ang), "length": _r(water["width"] + 0.9), "width": _r(road["width"] + 0.3)})
    bar = scale_bar_inches(width)
    compass, scale_bar = decoration_spots(width, depth, _boxes(features, zones) + list(avoid), compass, scale_bar)
    decorations = [(compass[0] - 2.0, compass[1] - 2.0, compass[0] + 2.0, compass[1] + 2.0),
                   (scale_bar[0] - 0.4, scale_bar[1] - 1.05, scale_bar[0] + bar + 0.4, scale_bar[1] + 0.65)]
    labels, zone_labels = place_table_labels(width, depth, features, ctx_feats, zones, pieces, decorations, label_min)
    zl = iter(zone_labels)
    return {
        "table": {"width": width, "depth": depth, "title": title, "subtitle": subtitle},
        "ground": ground_texture(width, depth, seed or title),
        "features": sorted(ctx_feats, key=lambda c: order[c["kind"]]),
        "bridges": bridges,
        "labels": labels,
        "zones": [{"x": z.area[0], "y": z.area[1], "w": z.area[2], "h": z.area[3], "colour": z.colour, "label": z.label, "kind": z.kind, "shape": z.shape,
                   "size": _r(max(ZONE_LABEL_SIZE, label_min)), "min_size": _r(max(ZONE_LABEL_MIN, label_min)),
                   "place": ({k: v for k, v in next(zl).items() if k != "zone"} if z.shape == "rect" else None)} for z in zones],
        "compass": {"x": _r(compass[0]), "y": _r(compass[1]), "r": 2.0},
        "scale_bar": {"x": _r(scale_bar[0]), "y": _r(scale_bar[1]), "inches": bar},
    }


def table_job(ctx: dict[str, Any], ppi: float) -> RenderJob:
    """The render job of a table at ``ppi`` pixels per inch."""
    t = ctx["table"]
    return RenderJob("measured/table.yaml.j2", ctx, size=(round(t["width"] * ppi), round(t["depth"] * ppi)))


# ---------------------------------------------------------------------------------------------
# counters


@dataclass(frozen=True)
class CounterSpec:
    """A unit counter: a base ``w`` × ``d`` inches drawn facing north.

    Attributes:
        name: drawn whole on the counter (wrapped on two lines and shrunk to fit).
        fill, text: army colours (``#rrggbb``).
        symbol: the troop type, one of :data:`SYMBOLS`.
        sub: a short second line (type, move), or ``""``.
        stands: the number of stands (dividers are drawn between them), 0 for one block.
        leader: ``""``, ``"leader"`` or ``"commander"`` (a gold war fan, doubled for a commander).
        mon: ``{"design": …, "text": …}`` (:data:`MON_DESIGNS`) drawn as a watermark, or None.
        floor: the least text size in counter units where the counter is drawn small (a print
            sheet's map: the print floor at the map's scale), 0 for the VASSAL image; with a
            floor the second line is left to the counters, and a name that cannot be set at the
            floor gives way to ``key`` (the mon, a watermark, is left off there too).
        key: what a counter on a sheet's map shows when its name cannot be set legibly there
            (the number its side list gives it), or ``""``.
    """

    w: float
    d: float
    name: str
    fill: str
    text: str
    symbol: str
    sub: str = ""
    stands: int = 0
    leader: str = ""
    mon: dict[str, Any] | None = field(default=None)
    floor: float = 0.0
    key: str = ""

    def __post_init__(self) -> None:
        if self.symbol not in SYMBOLS:
            raise ArtError(f"{self.name}: troop symbol {self.symbol!r}: expected one of {', '.join(SYMBOLS)}")
        if self.mon is not None and self.mon.get("design") not in MON_DESIGNS:
            raise ArtError(f"{self.name}: mon design {self.mon.get('design')!r}: expected one of {', '.join(MON_DESIGNS)}")

    def job(self, ppi: float) -> RenderJob:
        """The render job at ``ppi`` pixels per inch (:func:`counter_job`)."""
        return counter_job(self, ppi)

    def context(self) -> dict[str, Any]:
        """The context of ``templates/measured/unit_counter.yaml.j2``."""
        return {"w": self.w, "d": self.d, "name": self.name, "fill": self.fill, "text": self.text, "symbol": self.symbol,
                "sub": self.sub, "stands": self.stands, "leader": self.leader,
                "mon": {"design": self.mon["design"], "text": self.mon.get("text") or ""} if self.mon else None,
                **({"text_floor": self.floor, "key": self.key} if self.floor else {})}


def counter_job(spec: CounterSpec, ppi: float) -> RenderJob:
    """The render job of a unit counter at ``ppi`` pixels per inch (its base to scale)."""
    return RenderJob("measured/unit_counter.yaml.j2", spec.context(), size=(round(spec.w * ppi), round(spec.d * ppi)))


def marker_job(text: str, fill: str, px: int) -> RenderJob:
    """A round marker (the turn marker) ``px`` pixels wide."""
    return RenderJob("measured/marker.yaml.j2", {"text": text, "fill": fill}, size=(px, px))


# ---------------------------------------------------------------------------------------------
# rendering

_renderer: TemplateRenderer | None = None


def renderer() -> TemplateRenderer:
    """The shared template renderer over ``templates/``."""
    global _renderer
    if _renderer is None:
        _renderer = TemplateRenderer(TEMPLATES)
    return _renderer


def render_cache(folder: Path | None) -> RenderCache:
    """A :class:`RenderCache` over ``folder`` (e.g. ``build/ohw/.cache``; ``None``: no cache)."""
    return RenderCache(folder, renderer())
