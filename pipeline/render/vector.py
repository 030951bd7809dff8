"""Draw a :class:`~pipeline.render.drawing.Drawing` as vector PDF content: the same drawing
description the raster renderer (:func:`pipeline.render.drawing.draw`) turns into pixels, turned
into PDF path, clip and text operators (ISO 32000-1 §8.5, §9.4) on a page of an ``fpdf.FPDF``.

The vector page reproduces the raster page, primitive by primitive:

- geometry goes through the same outlines (:func:`~pipeline.render.drawing._outline_path`,
  arcs as the same polylines), so a hexagon or a rounded rectangle has the same corners;
- strokes are centred on their path with round joins, round or butt caps and the same dash
  pattern (PDF's own ``d`` operator), never thinner than one pixel of the *layout resolution*;
- text is laid out exactly as the raster renderer lays it out at the layout resolution
  (``layout_px_per_mm``, e.g. 300 DPI): the same line breaks, the same whole-pixel font size
  after shrink-to-fit, the same baselines. Each line is real text in the embedded Noto Sans CJK
  JP subset, its character spacing (``Tc``) set so that the line is exactly as wide as the
  raster renderer's hinted advances make it, so left, centred and right aligned lines start and
  end where the raster ones do;
- translucent colours and group ``opacity`` use ``/ca`` and ``/CA`` graphics states (an opacity
  group's children are each faded, which is the raster result wherever they do not overlap);
- ``clip`` (of a group or the canvas) is a clipping path (``W n``), and so is the canvas's
  edge: nothing is drawn outside it, as nothing is outside a raster picture.

Nothing is rasterised: a drawing has no picture primitive, so a vector page holds no image.

Coordinates: the drawing's canvas is mapped onto a box ``(x, y, w, h)`` in millimetres from the
page's top-left corner; PDF points are 72 per inch from the bottom-left corner.
"""

from __future__ import annotations

import math
from typing import Any

from pipeline.render.drawing import (
    RGBA,
    Affine,
    Drawing,
    Point,
    Shape,
    _draw_shapes,
    _group_transform,
    _outline_path,
    text_length,
)

PT_PER_MM = 72 / 25.4


def _n(v: float) -> str:
    """A PDF number with 3 decimals (a thousandth of a point), without a trailing ``.000``."""
    s = f"{v:.3f}"
    if s.endswith(".000"):
        s = s[:-4]
    return "0" if s == "-0" else s


class PdfPainter:
    """Writes the vector operators of drawings into the current page of ``pdf`` (an
    ``fpdf.FPDF`` whose unit is mm, with the ``noto`` fonts of
    :func:`pipeline.render.sheets.new_pdf`).

    ``f`` converts layout pixels to points; a point ``(x, y)`` in layout pixels from the page's
    top-left corner is ``(x·f, page height − y·f)`` in PDF points."""

    def __init__(self, pdf: Any, layout_px_per_mm: float):
        self.pdf = pdf
        self.L = layout_px_per_mm
        self.f = PT_PER_MM / layout_px_per_mm
        self.page_h = pdf.h * pdf.k  # page height in points
        self.opacity = 1.0
        self.source = "<drawing>"
        self._states: dict[tuple[int, int], str] = {}
        self._ops: list[str] = []

    # -- output --------------------------------------------------------------------------------

    def _xy(self, p: Point) -> str:
        return f"{_n(p[0] * self.f)} {_n(self.page_h - p[1] * self.f)}"

    def _path(self, pts: list[Point], close: bool) -> str:
        out = [f"{self._xy(pts[0])} m"]
        out += [f"{self._xy(p)} l" for p in pts[1:]]
        if close:
            out.append("h")
        return " ".join(out)

    def _alpha(self, fill_a: float | None, stroke_a: float | None) -> str:
        """A ``/GSn gs`` setting fill and stroke alpha (0-255 scaled by the group opacity), or
        "" when both are opaque."""
        fa = 255 if fill_a is None else round(fill_a * self.opacity)
        sa = 255 if stroke_a is None else round(stroke_a * self.opacity)
        if fa == 255 and sa == 255:
            return ""
        key = (fa, sa)
        name = self._states.get(key)
        if name is None:
            from fpdf.drawing import GraphicsStyle
            from fpdf.enums import PDFResourceType

            gs = GraphicsStyle()
            gs.fill_opacity = round(fa / 255, 4)
            gs.stroke_opacity = round(sa / 255, 4)
            name = str(self.pdf._resource_catalog.register_graphics_style(gs))
            self.pdf._resource_catalog.add(PDFResourceType.EXT_G_STATE, name, self.pdf.page)
            self._states[key] = name
        return f"/{name} gs"

    @staticmethod
    def _rgb(c: RGBA, op: str) -> str:
        return f"{_n(c[0] / 255)} {_n(c[1] / 255)} {_n(c[2] / 255)} {op}"

    def out(self, s: str) -> None:
        self._ops.append(s)

    def flush(self) -> None:
        if self._ops:
            self.pdf._out("\n".join(self._ops))
            self._ops = []

    def _stroke_state(self, colour: RGBA, width_px: float, dash_px: tuple[float, float] | None, round_cap: bool) -> str:
        w = max(1.0, width_px) * self.f
        dash = f"[{_n(dash_px[0] * self.f)} {_n(dash_px[1] * self.f)}] 0 d" if dash_px else "[] 0 d"
        return f"{self._rgb(colour, 'RG')} {_n(w)} w {1 if round_cap else 0} J 1 j {dash}"

    # -- primitives (layout pixels) ------------------------------------------------------------

    def fill_and_stroke(self, path: list[Point], fill: RGBA | None, outline: RGBA | None, width_px: float, dash_px: tuple[float, float] | None) -> None:
        stroke = outline is not None and width_px > 0
        if fill is None and not stroke:
            return
        gs = self._alpha(fill[3] if fill else None, outline[3] if stroke else None)  # type: ignore[index]
        ops = ["q"] if gs else []
        if gs:
            ops.append(gs)
        geometry = self._path(path, True)
        if fill is not None:
            ops.append(f"{self._rgb(fill, 'rg')} {geometry} f")
        if stroke:
            ops.append(f"{self._stroke_state(outline, width_px, dash_px, True)} {geometry} S")  # type: ignore[arg-type]
        if gs:
            ops.append("Q")
        self.out(" ".join(ops))

    def polyline(self, path: list[Point], colour: RGBA | None, width_px: float, dash_px: tuple[float, float] | None, round_cap: bool) -> None:
        if colour is None or width_px <= 0:
            return
        gs = self._alpha(None, colour[3])
        body = f"{self._stroke_state(colour, width_px, dash_px, round_cap)} {self._path(path, False)} S"
        self.out(f"q {gs} {body} Q" if gs else body)

    def group(self, shape: Shape, T: Affine) -> None:
        """A ``group`` primitive: its clip a clipping path, its opacity multiplied into every
        colour's alpha inside it (:func:`_group`)."""
        _group(self, shape, T)

    def text_lines(self, lines: list[tuple[str, float, float, str, int, bool]], colour: RGBA | None, stroke_px: int, stroke_colour: RGBA | None) -> None:
        """Text lines ``(text, x, baseline_y, h_anchor, size_px, bold)`` in layout pixels, as
        :meth:`pipeline.render.drawing._Painter.text_lines` draws them."""
        if colour is None:
            return
        from fpdf.enums import PDFResourceType

        pdf = self.pdf
        passes = []
        if stroke_px > 0 and stroke_colour is not None:
            passes.append((stroke_colour, stroke_px))
        passes.append((colour, 0))
        for text, x, y, h, size, bold in lines:
            if not text.strip():
                continue
            size_pt = size * self.f
            pdf.set_font("noto", "B" if bold else "", size_pt)
            previous = pdf._full(text) if hasattr(pdf, "_full") else None
            font = pdf.current_font
            pdf._resource_catalog.add(PDFResourceType.FONT, font.i, pdf.page)
            target = text_length(text, size, bold)  # the raster line's width, layout px
            _, natural = font.get_text_width(text, size_pt, None)  # points
            spacing = (target * self.f - natural) / len(text)
            left = x - {"l": 0.0, "m": target / 2, "r": target}[h]
            encoded = font.encode_text(text)
            for col, sw in passes:
                gs = self._alpha(col[3], col[3])
                mode = f"1 Tr {_n(2 * sw * self.f)} w 1 j {self._rgb(col, 'RG')}" if sw else "0 Tr"
                self.out(f"q {gs} {self._rgb(col, 'rg')} BT /F{font.i} {_n(size_pt)} Tf {_n(spacing)} Tc {mode} "
                         f"{self._xy((left, y))} Td {encoded} ET Q")
            if previous:
                pdf.set_font(*previous)

    # -- clipping and opacity ------------------------------------------------------------------

    def clip(self, path: list[Point]) -> None:
        self.out(f"{self._path(path, True)} W n")


def draw_pdf(pdf: Any, drawing: Drawing, box_mm: tuple[float, float, float, float], layout_px_per_mm: float, rotate: float = 0.0) -> None:
    """Draw ``drawing`` as vector content on the current page of ``pdf``, its canvas filling
    ``box_mm`` = ``(x, y, w, h)`` (mm from the page's top-left corner).

    ``layout_px_per_mm`` is the resolution whose raster the page reproduces: the text is laid
    out (wrapped, shrunk to fit, sized in whole pixels) as :func:`pipeline.render.drawing.draw`
    lays it out for an image of ``w × layout_px_per_mm`` by ``h × layout_px_per_mm`` pixels, so
    the vector and raster pages break the same lines at the same sizes (300 DPI print pages:
    300 / 25.4). ``rotate`` turns the whole drawing, text included, that many degrees clockwise
    about the box's centre (a counter turned to its facing, as the raster picture is turned).
    Everything is wrapped in ``q … Q``: the page's graphics and text state afterwards are what
    they were before.

    Raises:
        RenderError: a shape cannot be drawn (as the raster renderer raises it).
    """
    x, y, w, h = box_mm
    L = layout_px_per_mm
    painter = PdfPainter(pdf, L)
    painter.source = drawing.source
    T = Affine(w * L / drawing.width, 0, x * L, 0, h * L / drawing.height, y * L)
    painter.out("q")
    if rotate % 360:
        # clockwise on the page is clockwise in PDF space too: the matrix turns by -rotate there
        t = math.radians(rotate)
        a, b, c, d = math.cos(t), -math.sin(t), math.sin(t), math.cos(t)
        cx, cy = (x + w / 2) * PT_PER_MM, painter.page_h - (y + h / 2) * PT_PER_MM
        painter.out(f"{_n(a)} {_n(b)} {_n(c)} {_n(d)} {_n(cx - a * cx - c * cy)} {_n(cy - b * cx - d * cy)} cm")
    corners = [(0.0, 0.0), (drawing.width, 0.0), (drawing.width, drawing.height), (0.0, drawing.height)]
    # nothing outside the canvas, as nothing outside a raster picture's edges
    painter.clip([T(pt) for pt in corners])
    if drawing.clip is not None:
        painter.clip([T(pt) for pt in _outline_path(drawing.clip.name, drawing.clip.params)])
    if drawing.background is not None:
        painter.fill_and_stroke([T(pt) for pt in corners], drawing.background, None, 0, None)
    _draw_shapes(painter, drawing.shapes, T)
    painter.out("Q")
    painter.flush()


def draw_bleed_pdf(pdf: Any, drawing: Drawing, trim_mm: tuple[float, float, float, float], bleed_mm: float) -> None:
    """The bleed of a piece trimmed to ``trim_mm`` = ``(x, y, w, h)``: the ring ``bleed_mm`` wide
    outside the trim box filled with the drawing's canvas background (an even-odd path), so
    that a slightly wide cut shows the piece's paper colour, not a white sliver. A raster
    piece repeats its edge pixels there instead (:func:`pipeline.render.sheets.with_bleed`);
    the pieces drawn this way (cards) are bordered by their background, so both give the same
    colour. A drawing without a background (transparent canvas) leaves the ring blank, the
    paper's white, as the raster piece flattened on white does where its edge is transparent.
    Nothing is drawn inside the trim box."""
    colour = drawing.background
    if bleed_mm <= 0 or colour is None:
        return
    x, y, w, h = trim_mm
    b = bleed_mm
    H = pdf.h * pdf.k

    def rect(x0: float, y0: float, x1: float, y1: float) -> str:
        k = PT_PER_MM
        return f"{_n(x0 * k)} {_n(H - y0 * k)} m {_n(x1 * k)} {_n(H - y0 * k)} l {_n(x1 * k)} {_n(H - y1 * k)} l {_n(x0 * k)} {_n(H - y1 * k)} l h"

    pdf._out(f"q {PdfPainter._rgb(colour, 'rg')} {rect(x - b, y - b, x + w + b, y + h + b)} {rect(x, y, x + w, y + h)} f* Q")


def _group(painter: PdfPainter, shape: Shape, T: Affine) -> None:
    """A group as :func:`pipeline.render.drawing._draw_group` transforms it; its clip a clipping
    path, its opacity multiplied into every colour's alpha inside it."""
    p = shape.params
    inner = _group_transform(p, T)
    if shape.clip is None and p["opacity"] >= 1.0:
        _draw_shapes(painter, shape.children, inner)
        return
    painter.out("q")
    if shape.clip is not None:
        painter.clip([inner(pt) for pt in _outline_path(shape.clip.name, shape.clip.params)])
    saved = painter.opacity
    painter.opacity = saved * max(0.0, min(1.0, p["opacity"]))
    try:
        _draw_shapes(painter, shape.children, inner)
    finally:
        painter.opacity = saved
    painter.out("Q")


def drawing_texts(drawing: Drawing) -> str:
    """Every character the drawing's texts, paragraphs and bullets show (to cut a PDF font
    subset holding them), in order of appearance, each once."""
    seen: dict[str, None] = {}

    def walk(shapes: tuple[Shape, ...]) -> None:
        for sh in shapes:
            if sh.name == "text":
                seen.update(dict.fromkeys(sh.params["text"]))
            elif sh.name == "paragraphs":
                for it in sh.params["items"]:
                    seen.update(dict.fromkeys(it["text"]))
                    if it["bullet"]:
                        seen.update(dict.fromkeys(str(it["bullet"])))
            elif sh.name == "group":
                walk(sh.children)

    walk(drawing.shapes)
    return "".join(seen)
