"""Parse and draw a *drawing*: a list of primitives in a resolution-independent coordinate space.

A drawing is the YAML a template renders (see :mod:`pipeline.render.templates`)::

    canvas: {width: 100, height: 100, background: "#f4ecd8"}   # units; background optional
    shapes:
      - rect: {x: 4, y: 4, w: 92, h: 92, fill: "#b22222", outline: "#000000", width: 2, radius: 8}
      - circle: {cx: 50, cy: 40, r: 18, fill: "#2e8b57"}
      - text: {x: 50, y: 80, text: "僧兵", size: 14, bold: true, max_width: 80}

The canvas is ``width`` × ``height`` *units*; every coordinate, length, stroke width and font
size is in units. :func:`draw` maps units to pixels (``px = unit × scale``), so the same
drawing gives a 56 px VASSAL counter and a 300 DPI print. Shapes are drawn in order at a
supersampled size (4× for counters, 2× for cards and boards, none for print pages) and
downsampled by a box filter, which
anti-aliases every edge. Output is deterministic: the same drawing and size give the same pixels.

Colours are ``#rrggbb`` or ``#rrggbbaa`` (alpha), a CSS colour name, or ``null`` (none).
Translucent colours are alpha-composited over what is below.

Primitives (``required`` | optional = default):

``rect``             x, y, w, h | fill, outline, width=1, radius=0, dash
``circle``           cx, cy, r | fill, outline, width=1, dash
``ellipse``          cx, cy, rx, ry | fill, outline, width=1, dash
``polygon``          points ([[x, y], …]) | fill, outline, width=1, dash
``hexagon``          cx, cy, r (centre to corner) | pointy=true, fill, outline, width=1, dash
``regular_polygon``  cx, cy, r, sides | rotation=0 (degrees, clockwise), fill, outline, width=1, dash
``symbol``           kind (circle, triangle, square, diamond), cx, cy, size (bounding width)
                     | fill, outline, width=1
``line``             points | colour=#000000, width=1, dash ([on, off] units), cap=round|butt,
                     closed=false
``arc``              cx, cy, r, start, end (degrees, 0 = east, clockwise) | colour, width=1, cap
``text``             x, y, text | size=10, bold=false, colour=#000000, anchor=mm, max_width,
                     max_height, wrap=false, min_size, line_height=1.2, stroke_width=0,
                     stroke_colour=#ffffff
``paragraphs``       x, y, w, h, items | valign=top, min_scale=0.4, max_scale=1, gap=0
``group``            shapes | translate=[0, 0], rotate=0, about=[0, 0], scale=1, clip, opacity=1

``text`` anchors are two letters: horizontal ``l``/``m``/``r`` (also the alignment of wrapped
lines) and vertical ``t``/``m``/``b`` of the text block (``a``/``d``/``s`` are read as
``t``/``b``/``b``). With ``max_width`` (and ``max_height``) the text is wrapped when ``wrap``
is true, and shrunk until it fits (not below ``min_size``, default 40 % of ``size``); a word
wider than the line counts as not fitting, so a word is broken between characters only at the
smallest size.

``paragraphs`` lays out ``items`` (each ``{text, size=10, bold, colour, indent=0,
space_before=0, bullet, align=left}``) top to bottom in the box, wrapping each, and scales all
sizes down together until the block fits the box height and every word fits its line; with
``max_scale`` above 1 it first scales them up as far as that, so a short block fills its box
rather than leaving it half empty.

``group`` draws ``shapes`` under a transform (scale, then rotate about ``about``, then
translate) and, with ``clip`` (a one-primitive mapping such as ``{hexagon: {…}}``), only
inside that shape; ``opacity`` fades the whole group. Rotation moves text but does not turn it.

Errors: bad YAML, an unknown primitive, a missing or unknown parameter, or a bad value raise
:class:`RenderError` naming the template (``source``), the shape index and the primitive.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageChops, ImageColor, ImageDraw

from pipeline.errors import GunbaiError
from pipeline.render.fonts import font

RGBA = tuple[int, int, int, int]
Point = tuple[float, float]


class RenderError(GunbaiError):
    """A drawing (or the template that produced it) is invalid.

    Attributes:
        message: what is wrong, without the place (``str()`` of the error gives both).
        source: the template name or other source of the drawing.
        primitive: the primitive concerned, or None.
        where: the shape's position, e.g. ``shapes[3]`` or ``shapes[2].group.shapes[0]``.
    """

    def __init__(self, message: str, *, source: str = "<drawing>", primitive: str | None = None, where: str | None = None):
        self.message, self.source, self.primitive, self.where = message, source, primitive, where
        loc = source + (f": {where}" if where else "") + (f" primitive {primitive!r}" if primitive else "")
        super().__init__(f"{loc}: {message}")

    def __reduce__(self) -> tuple:
        # raised in a drawing process and pickled back: made again from its parts, so that it
        # reads as it does when drawn here (pickling by its args would prefix '<drawing>: ')
        return (_render_error, (self.message, self.source, self.primitive, self.where))


def _render_error(message: str, source: str, primitive: str | None, where: str | None) -> RenderError:
    """A :class:`RenderError` made again from its parts (how one is unpickled)."""
    return RenderError(message, source=source, primitive=primitive, where=where)


# ---------------------------------------------------------------------------------------------
# primitive parameter specifications

_STYLE = {"fill": None, "outline": None, "width": 1.0, "dash": None}
_REQ = object()

SPECS: dict[str, dict[str, Any]] = {
    "rect": {"x": _REQ, "y": _REQ, "w": _REQ, "h": _REQ, "radius": 0.0, **_STYLE},
    "circle": {"cx": _REQ, "cy": _REQ, "r": _REQ, **_STYLE},
    "ellipse": {"cx": _REQ, "cy": _REQ, "rx": _REQ, "ry": _REQ, **_STYLE},
    "polygon": {"points": _REQ, **_STYLE},
    "hexagon": {"cx": _REQ, "cy": _REQ, "r": _REQ, "pointy": True, **_STYLE},
    "regular_polygon": {"cx": _REQ, "cy": _REQ, "r": _REQ, "sides": _REQ, "rotation": 0.0, **_STYLE},
    "symbol": {"kind": _REQ, "cx": _REQ, "cy": _REQ, "size": _REQ, **_STYLE},
    "line": {"points": _REQ, "colour": "#000000", "width": 1.0, "dash": None, "cap": "round", "closed": False},
    "arc": {"cx": _REQ, "cy": _REQ, "r": _REQ, "start": _REQ, "end": _REQ, "colour": "#000000", "width": 1.0, "dash": None, "cap": "round"},
    "text": {
        "x": _REQ, "y": _REQ, "text": _REQ, "size": 10.0, "bold": False, "colour": "#000000", "anchor": "mm",
        "max_width": None, "max_height": None, "wrap": False, "min_size": None, "line_height": 1.2,
        "stroke_width": 0.0, "stroke_colour": "#ffffff",
    },
    "paragraphs": {"x": _REQ, "y": _REQ, "w": _REQ, "h": _REQ, "items": _REQ, "valign": "top", "min_scale": 0.4, "max_scale": 1.0, "gap": 0.0},
    "group": {"shapes": _REQ, "translate": (0.0, 0.0), "rotate": 0.0, "about": (0.0, 0.0), "scale": 1.0, "clip": None, "opacity": 1.0},
}
_ITEM_SPEC = {"text": _REQ, "size": 10.0, "bold": False, "colour": "#000000", "indent": 0.0, "space_before": 0.0, "bullet": None, "align": "left"}
_FILLED = {"rect", "circle", "ellipse", "polygon", "hexagon", "regular_polygon", "symbol"}
_SYMBOLS = {"circle", "triangle", "square", "diamond"}


@dataclass(frozen=True)
class Shape:
    """One parsed primitive: its name, parameters (defaults filled in) and position for errors."""

    name: str
    params: dict[str, Any]
    where: str
    children: tuple[Shape, ...] = ()
    clip: Shape | None = None


@dataclass(frozen=True)
class Drawing:
    """A parsed drawing.

    Attributes:
        width, height: canvas size in units.
        background: canvas colour (RGBA) or None for transparent.
        shapes: the primitives, in drawing order.
        clip: a filled shape outside which the whole canvas is transparent, or None.
        source: template name, for errors.
    """

    width: float
    height: float
    background: RGBA | None
    shapes: tuple[Shape, ...]
    clip: Shape | None = None
    source: str = "<drawing>"
    meta: dict[str, Any] = field(default_factory=dict)


def parse_colour(value: Any) -> RGBA | None:
    """``#rrggbb``, ``#rrggbbaa``, a CSS name or None → RGBA tuple or None.

    Raises:
        ValueError: not a colour; TypeError: not a string.
    """
    if value is None or value == "none":
        return None
    if not isinstance(value, str):
        raise TypeError(f"colour must be a string like '#rrggbb', got {value!r}")
    try:
        c = ImageColor.getrgb(value)
    except ValueError as exc:
        raise ValueError(f"{value!r} is not a colour") from exc
    return (c[0], c[1], c[2], c[3] if len(c) == 4 else 255)


def parse_drawing(doc: Any, source: str = "<drawing>") -> Drawing:
    """Check a loaded YAML document (``{canvas: {...}, shapes: [...]}``) and build a :class:`Drawing`.

    Raises:
        RenderError: the document is not a mapping with ``canvas`` and ``shapes``, or a shape is
            invalid (unknown primitive, missing/unknown parameter, bad colour…).
    """
    if not isinstance(doc, dict) or "canvas" not in doc or "shapes" not in doc:
        raise RenderError("a drawing must be a mapping with 'canvas' and 'shapes'", source=source)
    canvas = doc["canvas"]
    if not isinstance(canvas, dict) or "width" not in canvas or "height" not in canvas:
        raise RenderError("canvas needs 'width' and 'height' (units)", source=source)
    unknown = set(canvas) - {"width", "height", "background", "clip"}
    if unknown:
        raise RenderError(f"canvas has unknown keys {sorted(unknown)}", source=source)
    try:
        width, height = float(canvas["width"]), float(canvas["height"])
        background = parse_colour(canvas.get("background"))
    except (TypeError, ValueError) as exc:
        raise RenderError(f"canvas: {exc}", source=source) from exc
    if width <= 0 or height <= 0:
        raise RenderError("canvas width and height must be positive", source=source)
    clip = _parse_clip(canvas.get("clip"), source, "canvas.clip")
    shapes = _parse_list(doc["shapes"], source, "shapes")
    meta = {k: v for k, v in doc.items() if k not in ("canvas", "shapes")}
    return Drawing(width, height, background, shapes, clip, source, meta)


def _parse_list(items: Any, source: str, where: str) -> tuple[Shape, ...]:
    if items is None:
        return ()
    if not isinstance(items, list):
        raise RenderError(f"{where} must be a list of primitives", source=source)
    return tuple(_parse_shape(item, source, f"{where}[{i}]") for i, item in enumerate(items))


def _parse_clip(value: Any, source: str, where: str) -> Shape | None:
    if value is None:
        return None
    shape = _parse_shape(value, source, where)
    if shape.name not in _FILLED:
        raise RenderError(f"a clip must be a filled shape ({', '.join(sorted(_FILLED))})", source=source, primitive=shape.name, where=where)
    return shape


def _parse_shape(item: Any, source: str, where: str) -> Shape:
    if not isinstance(item, dict) or len(item) != 1:
        raise RenderError(f"each shape must be a one-key mapping {{primitive: {{...}}}}, got {item!r:.80}", source=source, where=where)
    ((name, params),) = item.items()
    if name not in SPECS:
        raise RenderError(f"unknown primitive (known: {', '.join(sorted(SPECS))})", source=source, primitive=str(name), where=where)
    if not isinstance(params, dict):
        raise RenderError("parameters must be a mapping", source=source, primitive=name, where=where)
    spec = SPECS[name]
    extra = set(params) - set(spec)
    if extra:
        raise RenderError(f"unknown parameter(s) {sorted(extra)}; allowed: {sorted(spec)}", source=source, primitive=name, where=where)
    out: dict[str, Any] = {}
    for key, default in spec.items():
        if key in params:
            out[key] = params[key]
        elif default is _REQ:
            raise RenderError(f"missing parameter {key!r}", source=source, primitive=name, where=where)
        else:
            out[key] = default
    try:
        _check_values(name, out)
    except (TypeError, ValueError) as exc:
        raise RenderError(str(exc), source=source, primitive=name, where=where) from exc
    children: tuple[Shape, ...] = ()
    clip = None
    if name == "group":
        children = _parse_list(out["shapes"], source, f"{where}.group.shapes")
        clip = _parse_clip(out["clip"], source, f"{where}.group.clip")
    return Shape(name, out, where, children, clip)


def _num(v: Any, key: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"{key} must be a number, got {v!r}")
    return float(v)


def _points(v: Any, key: str) -> list[Point]:
    if not isinstance(v, list) or len(v) < 2:
        raise ValueError(f"{key} must be a list of at least two [x, y] points")
    pts = []
    for p in v:
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise ValueError(f"{key}: {p!r} is not an [x, y] point")
        pts.append((_num(p[0], key), _num(p[1], key)))
    return pts


def _check_values(name: str, p: dict[str, Any]) -> None:
    """Normalise numbers, colours and point lists in place; raise ValueError on a bad value."""
    numeric = {"x", "y", "w", "h", "r", "rx", "ry", "cx", "cy", "radius", "width", "size", "rotation", "start", "end",
               "line_height", "stroke_width", "rotate", "scale", "opacity", "min_scale", "max_scale", "gap"}
    for key in list(p):
        val = p[key]
        if key in numeric or key in ("max_width", "max_height", "min_size") and val is not None:
            p[key] = _num(val, key)
        elif key in ("fill", "outline", "colour", "stroke_colour"):
            p[key] = parse_colour(val)
        elif key == "points":
            p[key] = _points(val, key)
        elif key in ("translate", "about"):
            if not isinstance(val, (list, tuple)) or len(val) != 2:
                raise ValueError(f"{key} must be [x, y]")
            p[key] = (_num(val[0], key), _num(val[1], key))
        elif key == "dash" and val is not None:
            if not isinstance(val, (list, tuple)) or len(val) != 2:
                raise ValueError("dash must be [on, off] in units")
            p[key] = (_num(val[0], "dash"), _num(val[1], "dash"))
            if p[key][1] <= 0 or p[key][0] < 0:
                raise ValueError("dash needs on >= 0 and off > 0")
    if name == "symbol" and p["kind"] not in _SYMBOLS:
        raise ValueError(f"symbol kind {p['kind']!r} is not one of {sorted(_SYMBOLS)}")
    if name == "regular_polygon" and (not isinstance(p["sides"], int) or p["sides"] < 3):
        raise ValueError("sides must be an integer >= 3")
    if name == "text":
        if not isinstance(p["text"], str):
            p["text"] = str(p["text"])
        a = p["anchor"]
        if not (isinstance(a, str) and len(a) == 2 and a[0] in "lmr" and a[1] in "tmbads"):
            raise ValueError(f"anchor {a!r} must be two letters: l/m/r then t/m/b")
    if name == "line" and p["cap"] not in ("round", "butt"):
        raise ValueError("cap must be round or butt")
    if name == "paragraphs":
        items = p["items"]
        if not isinstance(items, list):
            raise ValueError("items must be a list of {text, size, …}")
        norm = []
        for i, it in enumerate(items):
            if not isinstance(it, dict):
                raise TypeError(f"items[{i}] must be a mapping")
            extra = set(it) - set(_ITEM_SPEC)
            if extra:
                raise ValueError(f"items[{i}] has unknown keys {sorted(extra)}")
            if "text" not in it:
                raise ValueError(f"items[{i}] needs 'text'")
            d = {k: it.get(k, v) for k, v in _ITEM_SPEC.items()}
            d["text"] = str(d["text"])
            for k in ("size", "indent", "space_before"):
                d[k] = _num(d[k], f"items[{i}].{k}")
            d["colour"] = parse_colour(d["colour"])
            if d["align"] not in ("left", "center", "right"):
                raise ValueError(f"items[{i}].align must be left, center or right")
            norm.append(d)
        p["items"] = norm
        if p["valign"] not in ("top", "middle", "bottom"):
            raise ValueError("valign must be top, middle or bottom")


# ---------------------------------------------------------------------------------------------
# geometry


@dataclass(frozen=True)
class Affine:
    """``x' = a·x + b·y + c``, ``y' = d·x + e·y + f``."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 0.0
    e: float = 1.0
    f: float = 0.0

    def __call__(self, p: Point) -> Point:
        x, y = p
        return (self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f)

    def then(self, o: Affine) -> Affine:
        """This transform followed by ``o``."""
        return Affine(
            o.a * self.a + o.b * self.d, o.a * self.b + o.b * self.e, o.a * self.c + o.b * self.f + o.c,
            o.d * self.a + o.e * self.d, o.d * self.b + o.e * self.e, o.d * self.c + o.e * self.f + o.f,
        )

    @property
    def k(self) -> float:
        """Length scale factor (square root of the determinant)."""
        return math.sqrt(abs(self.a * self.e - self.b * self.d))

    @property
    def angle(self) -> float:
        """Rotation in degrees (clockwise on screen)."""
        return math.degrees(math.atan2(self.d, self.a))


def _arc_points(cx: float, cy: float, rx: float, ry: float, start: float, end: float, n: int | None = None) -> list[Point]:
    span = end - start
    if n is None:
        n = max(8, int(abs(span) / 4))
    return [(cx + rx * math.cos(math.radians(start + span * i / n)), cy + ry * math.sin(math.radians(start + span * i / n))) for i in range(n + 1)]


def _outline_path(name: str, p: dict[str, Any]) -> list[Point]:
    """Closed outline of a filled shape, in units (before transform)."""
    if name == "rect":
        x, y, w, h, r = p["x"], p["y"], p["w"], p["h"], min(p["radius"], p["w"] / 2, p["h"] / 2)
        if r <= 0:
            return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        pts: list[Point] = []
        for cx, cy, a0 in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180)):
            pts += _arc_points(cx, cy, r, r, a0, a0 + 90, 12)
        return pts
    if name == "circle":
        return _arc_points(p["cx"], p["cy"], p["r"], p["r"], 0, 360, 120)[:-1]
    if name == "ellipse":
        return _arc_points(p["cx"], p["cy"], p["rx"], p["ry"], 0, 360, 120)[:-1]
    if name == "polygon":
        return list(p["points"])
    if name == "hexagon":
        off = -90 if p["pointy"] else 0
        return [(p["cx"] + p["r"] * math.cos(math.radians(off + 60 * i)), p["cy"] + p["r"] * math.sin(math.radians(off + 60 * i))) for i in range(6)]
    if name == "regular_polygon":
        n, off = p["sides"], -90 + p["rotation"]
        return [(p["cx"] + p["r"] * math.cos(math.radians(off + 360 * i / n)), p["cy"] + p["r"] * math.sin(math.radians(off + 360 * i / n))) for i in range(n)]
    if name == "symbol":
        cx, cy, s, kind = p["cx"], p["cy"], p["size"], p["kind"]
        if kind == "circle":
            return _arc_points(cx, cy, s / 2, s / 2, 0, 360, 120)[:-1]
        if kind == "square":
            h = s * 0.44  # a square looks as big as a circle of diameter s when a little smaller
            return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
        if kind == "diamond":
            return [(cx, cy - s / 2), (cx + s / 2, cy), (cx, cy + s / 2), (cx - s / 2, cy)]
        # equilateral triangle pointing up, centred on its bounding box, as wide as s
        th = s * math.sqrt(3) / 2
        return [(cx, cy - th / 2 - s * 0.04), (cx + s / 2, cy + th / 2 - s * 0.04), (cx - s / 2, cy + th / 2 - s * 0.04)]
    raise AssertionError(name)


# ---------------------------------------------------------------------------------------------
# painting


class _Painter:
    """Draws shapes onto an RGBA canvas (supersampled pixels)."""

    def __init__(self, img: Image.Image, source: str):
        self.img = img
        self.source = source

    # -- low level -----------------------------------------------------------------------------

    def _layer_paint(self, pts_all: list[Point], pad: float, colours: list[RGBA | None], fn: Callable[[ImageDraw.ImageDraw, float, float], None]) -> None:
        """Run ``fn(draw, ox, oy)`` directly when every colour is opaque, else on a layer that is
        then alpha-composited (``ox, oy`` is subtracted from coordinates)."""
        if all(c is None or c[3] == 255 for c in colours):
            fn(ImageDraw.Draw(self.img), 0.0, 0.0)
            return
        W, H = self.img.size
        xs = [p[0] for p in pts_all]
        ys = [p[1] for p in pts_all]
        x0, y0 = max(0, math.floor(min(xs) - pad)), max(0, math.floor(min(ys) - pad))
        x1, y1 = min(W, math.ceil(max(xs) + pad) + 1), min(H, math.ceil(max(ys) + pad) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
        fn(ImageDraw.Draw(layer), float(x0), float(y0))
        self.img.alpha_composite(layer, dest=(x0, y0))

    def fill_and_stroke(self, path: list[Point], fill: RGBA | None, outline: RGBA | None, width_px: float, dash_px: tuple[float, float] | None) -> None:
        def fn(d: ImageDraw.ImageDraw, ox: float, oy: float) -> None:
            pts = [(x - ox, y - oy) for x, y in path]
            if fill is not None:
                d.polygon(pts, fill=fill)
            if outline is not None and width_px > 0:
                _stroke(d, pts + [pts[0]], outline, width_px, dash_px, True)

        self._layer_paint(path, width_px + 2, [fill, outline], fn)

    def polyline(self, path: list[Point], colour: RGBA | None, width_px: float, dash_px: tuple[float, float] | None, round_cap: bool) -> None:
        if colour is None or width_px <= 0:
            return

        def fn(d: ImageDraw.ImageDraw, ox: float, oy: float) -> None:
            _stroke(d, [(x - ox, y - oy) for x, y in path], colour, width_px, dash_px, round_cap)

        self._layer_paint(path, width_px + 2, [colour], fn)

    def group(self, shape: Shape, T: Affine) -> None:
        """A ``group`` primitive: its children drawn through :func:`_draw_group` (a layer when
        it clips or fades)."""
        _draw_group(self, shape, T)

    def text_lines(self, lines: list[tuple[str, float, float, str, int, bool]], colour: RGBA | None, stroke_px: int, stroke_colour: RGBA | None) -> None:
        """Draw text lines ``(text, x, baseline_y, h_anchor, size_px, bold)`` through an L mask."""
        if colour is None or not lines:
            return
        W, H = self.img.size
        boxes = []
        for text, x, y, h, size, bold in lines:
            if text:
                # the ink box from the advance width: no glyph is rasterised to measure it
                w = text_length(text, size, bold)
                left = x - {"l": 0.0, "m": w / 2, "r": w}[h]
                pad = stroke_px + 0.15 * size + 2
                boxes.append((left - pad, y - 1.25 * size - pad, left + w + pad, y + 0.45 * size + pad))
        if not boxes:
            return
        x0, y0 = max(0, int(min(b[0] for b in boxes))), max(0, int(min(b[1] for b in boxes)))
        x1, y1 = min(W, int(max(b[2] for b in boxes)) + 1), min(H, int(max(b[3] for b in boxes)) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        size = (x1 - x0, y1 - y0)
        passes = []
        if stroke_px > 0 and stroke_colour is not None:
            passes.append((stroke_colour, stroke_px))
        passes.append((colour, 0))
        for col, sw in passes:
            mask = Image.new("L", size, 0)
            md = ImageDraw.Draw(mask)
            for text, x, y, h, fsize, bold in lines:
                if text:
                    md.text((x - x0, y - y0), text, fill=255, font=font(fsize, bold), anchor=h + "s", stroke_width=sw, stroke_fill=255)
            if col[3] != 255:
                mask = mask.point(lambda v, a=col[3]: v * a // 255)
            layer = Image.new("RGBA", size, col[:3] + (0,))
            layer.putalpha(mask)
            self.img.alpha_composite(layer, dest=(x0, y0))


def _stroke(d: ImageDraw.ImageDraw, pts: list[Point], colour: RGBA, width: float, dash: tuple[float, float] | None, round_cap: bool) -> None:
    """Stroke a polyline centred on its path (round joins), optionally dashed."""
    w = max(1, round(width))
    segments = [pts] if dash is None else _dash(pts, dash)
    for seg in segments:
        if len(seg) >= 2 and any(seg[i] != seg[0] for i in range(1, len(seg))):
            d.line(seg, fill=colour, width=w, joint="curve")
        if round_cap and w > 2:
            r = width / 2
            ends = [seg[0], seg[-1]] if len(seg) > 1 else [seg[0]]
            for x, y in ends:
                d.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def _dash(pts: list[Point], dash: tuple[float, float]) -> list[list[Point]]:
    on, off = dash
    out: list[list[Point]] = []
    cur: list[Point] = []
    drawing, left = True, on
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while pos < seg:
            step = min(left, seg - pos)
            t0, t1 = pos / seg, (pos + step) / seg
            a = (x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0)
            b = (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)
            if drawing:
                if not cur:
                    cur.append(a)
                cur.append(b)
            pos += step
            left -= step
            if left <= 1e-9:
                if drawing:
                    out.append(cur or [a])
                    cur = []
                drawing = not drawing
                left = on if drawing else off
                if drawing and on == 0:
                    out.append([b])
                    drawing, left = False, off
    if cur:
        out.append(cur)
    return out


# ---------------------------------------------------------------------------------------------
# text layout

#: Line-break tokens: a CJK character, a word with its leading and trailing hyphens and spaces
#: (so a line may break after the hyphen of "Ashigaru-gashira", but never after the minus sign
#: of "-1CP"), a run of hyphens, a run of spaces.
_TOKEN = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]|-*[^\s\-\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]+-*\s*|-+\s*|\s+")


@functools.lru_cache(maxsize=1 << 18)
def _advance(ch: str, size_px: int, bold: bool) -> float:
    return font(size_px, bold).getlength(ch)


def text_length(text: str, size_px: int, bold: bool) -> float:
    """Advance width of one line of ``text`` at ``size_px`` pixels, in pixels: exactly what
    Pillow's ``getlength`` gives.

    The basic layout has no kerning, so a line's width is the sum of its characters' (hinted)
    advances, added left to right; each is measured once per size and remembered, which makes
    wrapping and shrink-to-fit loops cheap.
    """
    w = 0.0
    for c in text:
        w += _advance(c, size_px, bold)
    return w


def _prefix_widths(text: str, size_px: int, bold: bool, start: float = 0.0) -> list[float]:
    """``[start + width of text[:1], start + width of text[:2], …]``, each added left to right as
    :func:`text_length` adds them (so with ``start`` 0 the last is exactly its width)."""
    out = []
    w = start
    for c in text:
        w += _advance(c, size_px, bold)
        out.append(w)
    return out


def wrap_text(text: str, size_px: int, bold: bool, max_width_px: float) -> list[str]:
    """Break ``text`` into lines no wider than ``max_width_px`` at a font size of ``size_px``.

    Lines break at spaces, after hyphens and between CJK characters; a word wider than the line is broken
    between characters. Newlines in ``text`` are kept. Time is linear in the length of the text:
    the widths of the current line's prefixes are kept as it grows (``widths[i]`` is the width of
    its first ``i`` characters, added left to right as :func:`text_length` adds them), so no
    token measures the line again.
    """
    lines: list[str] = []
    for para in text.split("\n"):
        cur = ""
        widths = [0.0]
        for tok in _TOKEN.findall(para):
            trial = cur + tok
            grown = _prefix_widths(tok, size_px, bold, widths[-1])
            kept = len(trial.rstrip())  # the trial line's width is that of its first `kept` characters
            if not cur.strip() or (widths[kept] if kept < len(widths) else grown[kept - len(widths)]) <= max_width_px:
                cur = trial
                widths += grown
            else:
                lines.append(cur.rstrip())
                cur = tok.lstrip()
                widths = [0.0, *_prefix_widths(cur, size_px, bold)]
            while len(cur.rstrip()) > 1:
                # a single over-long word: break it between characters (the longest prefix no
                # wider than the line, at least one character: widths never decrease)
                n = max(1, bisect.bisect_right(widths, max_width_px, lo=1) - 1)
                if n >= len(cur.rstrip()):
                    break
                lines.append(cur[:n])
                cur = cur[n:]
                widths = [0.0, *_prefix_widths(cur, size_px, bold)]
        lines.append(cur.rstrip())
    return lines


def widest_word(text: str, size_px: int, bold: bool) -> float:
    """Width in pixels of the widest run of ``text`` that :func:`wrap_text` keeps on one line
    unless forced (a word with its trailing hyphens; one CJK character), at ``size_px``.

    A text whose widest word is wider than its line must be shrunk (or is broken between
    characters, mid-word, at its smallest size).

    Example::

        >>> widest_word("a bb", 10, False) == text_length("bb", 10, False)
        True
    """
    return max((text_length(t.rstrip(), size_px, bold) for t in _TOKEN.findall(text)), default=0.0)


_ASCENT = 0.88  # baseline position in an em box (CJK ideographic box: 0.88 above, 0.12 below)


def _layout_text(p: dict[str, Any], k: float) -> tuple[list[str], int]:
    """Lines and pixel size of a text primitive after wrapping/shrinking at length scale ``k``."""
    size = p["size"] * k
    min_size = (p["min_size"] if p["min_size"] is not None else p["size"] * 0.4) * k
    max_w = p["max_width"] * k if p["max_width"] is not None else None
    max_h = p["max_height"] * k if p["max_height"] is not None else None
    while True:
        s = max(1, round(size))
        if size <= min_size:
            # at the smallest size the template allows, never round up past it: a text the data
            # checks found to fit at that size (measured at a large scale) must fit when drawn
            # small too, where rounding 19.8 px up to 20 broke a name that fitted
            s = max(1, min(s, math.floor(min_size + 1e-6)))
        if max_w is not None and p["wrap"]:
            lines = wrap_text(p["text"], s, p["bold"], max_w)
        else:
            lines = p["text"].split("\n")
        wide = max_w is not None and (max(text_length(line, s, p["bold"]) for line in lines) > max_w
                                      # a word broken mid-word does not fit either: shrink first
                                      or (p["wrap"] and widest_word(p["text"], s, p["bold"]) > max_w))
        tall = max_h is not None and (len(lines) - 1) * s * p["line_height"] + s > max_h
        if not (wide or tall) or size <= min_size or s <= 1:
            return lines, s
        size = max(min_size, size * 0.93)


# ---------------------------------------------------------------------------------------------
# drawing


def _draw_shapes(painter: _Painter, shapes: tuple[Shape, ...], T: Affine) -> None:
    for shape in shapes:
        try:
            _draw_shape(painter, shape, T)
        except RenderError:
            raise
        except (ValueError, TypeError, OSError) as exc:
            raise RenderError(str(exc), source=painter.source, primitive=shape.name, where=shape.where) from exc


def _draw_shape(painter: _Painter, shape: Shape, T: Affine) -> None:
    """One primitive through ``painter``: the raster :class:`_Painter` or the vector
    :class:`pipeline.render.vector.PdfPainter` (both give ``fill_and_stroke``, ``polyline``,
    ``text_lines`` and ``group``), so that both renderers read a drawing through one switch."""
    name, p = shape.name, shape.params
    k = T.k
    if name in _FILLED:
        path = [T(pt) for pt in _outline_path(name, p)]
        dash = (p["dash"][0] * k, p["dash"][1] * k) if p.get("dash") else None
        painter.fill_and_stroke(path, p["fill"], p["outline"], p["width"] * k, dash)
    elif name in ("line", "arc"):
        if name == "line":
            pts = list(p["points"]) + ([p["points"][0]] if p["closed"] else [])
        else:
            pts = _arc_points(p["cx"], p["cy"], p["r"], p["r"], p["start"], p["end"])
        dash = (p["dash"][0] * k, p["dash"][1] * k) if p["dash"] else None
        painter.polyline([T(pt) for pt in pts], p["colour"], p["width"] * k, dash, p["cap"] == "round")
    elif name == "text":
        lines, s = _layout_text(p, k)
        pitch = s * p["line_height"]
        block = (len(lines) - 1) * pitch + s
        x, y = T((p["x"], p["y"]))
        v = {"a": "t", "d": "b", "s": "b"}.get(p["anchor"][1], p["anchor"][1])
        top = y if v == "t" else y - block / 2 if v == "m" else y - block
        placed = [(line, x, top + i * pitch + _ASCENT * s, p["anchor"][0], s, p["bold"]) for i, line in enumerate(lines)]
        painter.text_lines(placed, p["colour"], round(p["stroke_width"] * k), p["stroke_colour"])
    elif name == "paragraphs":
        _draw_paragraphs(painter, p, T)
    elif name == "group":
        painter.group(shape, T)
    else:  # pragma: no cover - SPECS and this switch list the same names
        raise RenderError("primitive has no drawing code", source=painter.source, primitive=name, where=shape.where)


def _layout_paragraphs(p: dict[str, Any], k: float, x: float = 0.0) -> tuple[list[tuple], float, float]:
    """Lines of a paragraphs primitive at length scale ``k`` after scaling to fit its box (from
    ``max_scale`` down, in steps of 6 %, to ``min_scale`` at the least):
    ``(placed, total height, scale reached)``, each placed line ``(item, text, x, baseline from the top,
    h_anchor, size, bullet, bullet x)``."""
    w, h = p["w"] * k, p["h"] * k
    scale = max(1.0, p["max_scale"])
    while True:
        placed = []
        cy = 0.0
        for i, it in enumerate(p["items"]):
            s = max(1, round(it["size"] * k * scale))
            indent = it["indent"] * k * scale
            if i:
                cy += (it["space_before"] + p["gap"]) * k * scale
            lines = wrap_text(it["text"], s, it["bold"], w - indent)
            h_anchor = {"left": "l", "center": "m", "right": "r"}[it["align"]]
            lx = {"l": x + indent, "m": x + indent + (w - indent) / 2, "r": x + w}[h_anchor]
            for j, line in enumerate(lines):
                placed.append((it, line, lx, cy + _ASCENT * s, h_anchor, s, it["bullet"] if j == 0 else None, x))
                cy += s * 1.25
        total = cy
        # a word wider than its line (broken mid-word by wrap_text) does not fit either
        broken = any(widest_word(it["text"], max(1, round(it["size"] * k * scale)), it["bold"]) > w - it["indent"] * k * scale
                     for it in p["items"])
        if (total <= h and not broken) or scale <= p["min_scale"]:
            return placed, total, scale
        scale = max(p["min_scale"], scale * 0.94)


def paragraphs_height(items: list[dict[str, Any]], w: float, k: float = 8.0, gap: float = 0.0) -> float:
    """Height in units of ``items`` (paragraphs items, as a template gives them) laid out at
    full size in a ``w`` units wide block, measured with the real font at ``k`` pixels per unit:
    what a ``paragraphs`` box must hold for its text never to shrink. For layouts that size
    their boxes to their text (a scenario sheet's map shrinks to give its side lists room).

        >>> paragraphs_height([{"text": "a", "size": 4}], 50) == 4 * 1.25
        True
    """
    d = parse_drawing({"canvas": {"width": w, "height": 1}, "shapes": [{"paragraphs": {"x": 0, "y": 0, "w": w, "h": 1e9, "items": items, "gap": gap}}]},
                      source="paragraphs_height")
    _placed, total, _scale = _layout_paragraphs(d.shapes[0].params, k)
    return total / k


def _draw_paragraphs(painter: _Painter, p: dict[str, Any], T: Affine) -> None:
    k = T.k
    x, y = T((p["x"], p["y"]))
    h = p["h"] * k
    placed, total, _scale = _layout_paragraphs(p, k, x)
    off = y + {"top": 0.0, "middle": (h - total) / 2, "bottom": h - total}[p["valign"]]
    for it, line, lx, by, ha, s, bullet, bx in placed:
        painter.text_lines([(line, lx, off + by, ha, s, it["bold"])], it["colour"], 0, None)
        if bullet:
            painter.text_lines([(bullet, bx, off + by, "l", s, it["bold"])], it["colour"], 0, None)


@dataclass(frozen=True)
class Overflow:
    """A text that does not fit its box even at its smallest size.

    Attributes:
        where: the shape, e.g. ``shapes[12]`` or ``shapes[3].paragraphs.items[0]``.
        text: the text (for paragraphs: the whole block's texts joined by newlines).
        need: how much of the box it needs at the smallest size, e.g. ``1.8 × the width``.
    """

    where: str
    text: str
    need: str


def overflows(drawing: Drawing, k: float = 8.0) -> list[Overflow]:
    """Every text of ``drawing`` that overflows its box (``max_width``/``max_height`` of a text,
    the box of a paragraphs block), or has a word wider than its line (which would be broken
    mid-word), even after shrinking to its smallest size, measured with the
    real font at ``k`` pixels per unit: what a template's space can show, found without drawing.
    Text in groups is measured at the group's scale."""
    out: list[Overflow] = []

    def walk(shapes: tuple[Shape, ...], scale: float) -> None:
        for shape in shapes:
            p = shape.params
            kk = k * scale
            if shape.name == "text" and (p["max_width"] is not None or p["max_height"] is not None):
                lines, s = _layout_text(p, kk)
                width = max(text_length(line, s, p["bold"]) for line in lines)
                height = (len(lines) - 1) * s * p["line_height"] + s
                ratios = []
                if p["max_width"] is not None and width > p["max_width"] * kk * 1.001:
                    ratios.append(f"{width / (p['max_width'] * kk):.1f} × the width")
                elif p["max_width"] is not None and p["wrap"] and (word := widest_word(p["text"], s, p["bold"])) > p["max_width"] * kk * 1.001:
                    ratios.append(f"{word / (p['max_width'] * kk):.1f} × the width for one word, which would be broken mid-word")
                if p["max_height"] is not None and height > p["max_height"] * kk * 1.001:
                    ratios.append(f"{height / (p['max_height'] * kk):.1f} × the height")
                if ratios:
                    out.append(Overflow(shape.where, p["text"], " and ".join(ratios)))
            elif shape.name == "paragraphs":
                _placed, total, reached = _layout_paragraphs(p, kk)
                texts = "\n".join(it["text"] for it in p["items"])
                if total > p["h"] * kk * 1.001:
                    out.append(Overflow(shape.where, texts, f"{total / (p['h'] * kk):.1f} × the height"))
                else:
                    for it in p["items"]:
                        s = max(1, round(it["size"] * kk * reached))
                        room = p["w"] * kk - it["indent"] * kk * reached
                        if (word := widest_word(it["text"], s, it["bold"])) > room * 1.001:
                            out.append(Overflow(shape.where, texts, f"{word / room:.1f} × the width for one word, which would be broken mid-word"))
                            break
            elif shape.name == "group":
                walk(shape.children, scale * p["scale"])

    walk(drawing.shapes, 1.0)
    return out


def _group_transform(p: dict[str, Any], T: Affine) -> Affine:
    """The transform of a group's children: scale about the origin, rotate about ``about``,
    translate, then the group's own ``T`` (shared by the raster and vector painters)."""
    s, ang = p["scale"], math.radians(p["rotate"])
    ax, ay = p["about"]
    tx, ty = p["translate"]
    G = Affine(s, 0, 0, 0, s, 0)
    G = G.then(Affine(1, 0, -ax, 0, 1, -ay)).then(Affine(math.cos(ang), -math.sin(ang), 0, math.sin(ang), math.cos(ang), 0)).then(Affine(1, 0, ax + tx, 0, 1, ay + ty))
    return G.then(T)


def _draw_group(painter: _Painter, shape: Shape, T: Affine) -> None:
    p = shape.params
    inner = _group_transform(p, T)
    if shape.clip is None and p["opacity"] >= 1.0:
        _draw_shapes(painter, shape.children, inner)
        return
    layer = Image.new("RGBA", painter.img.size, (0, 0, 0, 0))
    _draw_shapes(_Painter(layer, painter.source), shape.children, inner)
    _apply_clip_and_opacity(layer, shape.clip, inner, p["opacity"])
    painter.img.alpha_composite(layer)


def _apply_clip_and_opacity(layer: Image.Image, clip: Shape | None, T: Affine, opacity: float) -> None:
    alpha = layer.getchannel("A")
    if clip is not None:
        mask = Image.new("L", layer.size, 0)
        ImageDraw.Draw(mask).polygon([T(pt) for pt in _outline_path(clip.name, clip.params)], fill=255)
        alpha = ImageChops.multiply(alpha, mask)
    if opacity < 1.0:
        alpha = alpha.point(lambda v: int(v * max(0.0, opacity)))
    layer.putalpha(alpha)


def pixel_size(drawing: Drawing, *, width_px: int | None = None, scale: float | None = None) -> tuple[int, int]:
    """The pixel size a drawing gets at ``width_px`` (height follows the aspect) or ``scale`` (px per unit)."""
    if (width_px is None) == (scale is None):
        raise ValueError("give exactly one of width_px or scale")
    sc = width_px / drawing.width if width_px is not None else scale
    assert sc is not None
    return max(1, round(drawing.width * sc)), max(1, round(drawing.height * sc))


def draw(drawing: Drawing, size: tuple[int, int] | None = None, *, scale: float | None = None, supersample: int | None = None) -> Image.Image:
    """Draw ``drawing`` to an RGBA image.

    Args:
        drawing: a parsed drawing.
        size: the image size ``(width, height)`` in pixels; units map to pixels by
            ``width / drawing.width`` horizontally and ``height / drawing.height`` vertically
            (lengths, stroke widths and font sizes use their geometric mean).
        scale: instead of ``size``, pixels per unit (size = canvas × scale, rounded).
        supersample: drawing resolution factor before the box-filter downsample (each output
            pixel the mean of ``supersample²`` samples); default 4 up to 40 000 pixels (a
            200 × 200 counter), 2 up to 2 000 000, 1 above (print pages at 300 DPI, where a
            pixel is 0.085 mm; text is anti-aliased by the font engine at any factor).

    Returns:
        an RGBA image of ``size``; transparent where nothing was drawn and no background.

    Raises:
        RenderError: a shape cannot be drawn (e.g. a font size below 1 px).
    """
    if size is None:
        if scale is None:
            raise ValueError("give size or scale")
        size = pixel_size(drawing, scale=scale)
    pw, ph = size
    if supersample is None:
        supersample = 4 if pw * ph <= 40_000 else 2 if pw * ph <= 2_000_000 else 1
    ss = supersample
    W, H = pw * ss, ph * ss
    img = Image.new("RGBA", (W, H), drawing.background or (0, 0, 0, 0))
    T = Affine(W / drawing.width, 0, 0, 0, H / drawing.height, 0)
    painter = _Painter(img, drawing.source)
    _draw_shapes(painter, drawing.shapes, T)
    if drawing.clip is not None:
        _apply_clip_and_opacity(img, drawing.clip, T, 1.0)
    if ss != 1:
        img = _resolve(img, ss)
    return img


def _resolve(img: Image.Image, ss: int) -> Image.Image:
    """The SSAA resolve: a box filter over ``ss × ss`` samples, on premultiplied alpha. An opaque
    image (a sheet, a card, a board: alpha 255 everywhere) is filtered on its colour channels
    alone, which gives the same pixels (premultiplying by 255 changes nothing) without Pillow
    converting the whole supersampled image to premultiplied form and back (half the time)."""
    if img.getchannel("A").getextrema() == (255, 255):
        return img.convert("RGB").reduce(ss).convert("RGBA")
    return img.reduce(ss)
