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


def battlefield_context(width: float, depth: float, features: Sequence[Scenery], zones: Sequence[Zone] = (), *,
                        title: str = "", subtitle: str = "", seed: str = "", compass: Point | None = None,
                        scale_bar: Point | None = None, avoid: Sequence[tuple[float, float, float, float]] = ()) -> dict[str, Any]:
    """The context of ``templates/measured/table.yaml.j2``: a ``width`` × ``depth`` inch table
    with ground texture, every feature (drawn in a fixed order: fields, marsh, lakes, hills,
    water, roads with bridges where they cross water, woods, villages), the zones, a compass
    rose, a scale bar in inches, edge ticks every 6 inches and the labels on top.

    ``compass`` (its centre) and ``scale_bar`` (its left end) place those (inches; default: the
    spots along the edges that cover the fewest features and zones, and boxes ``(x0, y0, x1, y1)``
    of ``avoid``, e.g. the pieces a print sheet lays on the table:
    :func:`pipeline.measured.layout.clear_spot`).

    Raises:
        ArtError: a feature cannot be drawn.
    """
    ctx_feats = [feature_context(f, (width, depth)) for f in features]
    order = {k: i for i, k in enumerate(("fields", "marsh", "lake", "hill", "river", "stream", "ford", "road", "bridge", "woods", "village", "town"))}
    ctx_feats.sort(key=lambda c: order[c["kind"]])
    bridges = []
    waters = [c for c in ctx_feats if c["kind"] in ("river", "stream")]
    for road in (c for c in ctx_feats if c["kind"] == "road"):
        for water in waters:
            for p, ang in crossings(road["path"], water["path"]):
                bridges.append({"x": _r(p[0]), "y": _r(p[1]), "angle": _r(ang), "length": _r(water["width"] + 0.9), "width": _r(road["width"] + 0.3)})
    labels = [c["label"] for c in ctx_feats if c.get("label")]
    bar = scale_bar_inches(width)
    compass, scale_bar = decoration_spots(width, depth, _boxes(features, zones) + list(avoid), compass, scale_bar)
    return {
        "table": {"width": width, "depth": depth, "title": title, "subtitle": subtitle},
        "ground": ground_texture(width, depth, seed or title),
        "features": ctx_feats,
        "bridges": bridges,
        "labels": labels,
        "zones": [{"x": z.area[0], "y": z.area[1], "w": z.area[2], "h": z.area[3], "colour": z.colour, "label": z.label, "kind": z.kind, "shape": z.shape} for z in zones],
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
                "mon": {"design": self.mon["design"], "text": self.mon.get("text") or ""} if self.mon else None}


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
