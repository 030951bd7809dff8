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


#: A placeholder in recorded operators: ``\x00<n>\x00`` stands for the n-th value a replay computes
#: (operators are ASCII text and never hold a NUL).
_SLOT = "\x00"


class _Recording:
    """The vector content of one drawing placed in one box (:func:`draw_pdf`), recorded once and
    replayed into any PDF page of the same height and font subset.

    ``parts`` are the operators with their page-dependent pieces cut out; ``slots[i]`` is the
    index, in the values a replay computes, of the piece between ``parts[i]`` and
    ``parts[i + 1]``. ``items`` are the page-dependent steps, in the order the drawing made them
    (the order matters: fpdf numbers graphics states and the glyphs of its font subsets in order
    of first use):

    - ``("gs", fill_alpha, stroke_alpha)``: a ``/ca``/``/CA`` graphics state registered in the
      document and on the page; one value, ``/GSn gs``;
    - ``("text", fontkey, text, size_pt)``: a text line in a font of the document, registered on
      the page, its characters mapped into the font's subset; two values, the font's number and
      the encoded string;
    - ``("fallback", style, size_pt, text, target_pt)``: a text line with a character outside
      the document's font subset (:func:`pipeline.render.sheets.new_pdf` adds a larger subset
      for it): the font is chosen and measured at replay; three values, the font's number, the
      character spacing and the encoded string.

    ``last_font``: the ``(style, size_pt)`` of ``noto`` the drawing leaves selected.
    ``cacheable``: no fallback text (a fallback adds a font to the document)."""

    __slots__ = ("drawing", "parts", "slots", "items", "last_font", "cacheable")

    def __init__(self, drawing: Any, text: str, items: list[tuple], last_font: tuple[str, float] | None):
        pieces = text.split(_SLOT)
        self.drawing = drawing  # kept alive: the memo is keyed by its id
        self.parts = pieces[0::2]
        self.slots = [int(v) for v in pieces[1::2]]
        self.items = items
        self.last_font = last_font
        self.cacheable = all(it[0] != "fallback" for it in items)

    def replay(self, pdf: Any) -> None:
        """Write the recorded content into the current page of ``pdf``: the same operator bytes
        and the same registrations (graphics states, fonts on the page, glyphs in the subsets)
        as drawing the drawing there would make."""
        from fpdf.enums import PDFResourceType

        catalog = pdf._resource_catalog
        page = pdf.page
        values: list[str] = []
        for item in self.items:
            kind = item[0]
            if kind == "text":
                _, fontkey, text, size_pt = item
                font = pdf.fonts[fontkey]
                catalog.add(PDFResourceType.FONT, font.i, page)
                if size_pt > font.biggest_size_pt:  # as font.get_text_width records it
                    font.biggest_size_pt = size_pt
                values.append(str(font.i))
                values.append(font.encode_text(text))
            elif kind == "gs":
                values.append(f"/{_graphics_state(pdf, item[1], item[2])} gs")
            else:  # fallback: chosen, measured and encoded here, as PdfPainter.text_lines did
                _, style, size_pt, text, target_pt = item
                pdf.set_font("noto", style, size_pt)
                previous = pdf._full(text)
                font = pdf.current_font
                catalog.add(PDFResourceType.FONT, font.i, page)
                _, natural = font.get_text_width(text, size_pt, None)
                values.append(str(font.i))
                values.append(_n((target_pt - natural) / len(text)))
                values.append(font.encode_text(text))
                if previous:
                    pdf.set_font(*previous)
        parts = self.parts
        out = [parts[0]]
        for slot, part in zip(self.slots, parts[1:], strict=True):
            out.append(values[slot])
            out.append(part)
        if len(out) > 1 or out[0]:
            pdf._out("".join(out))
        if self.last_font is not None:
            pdf.set_font("noto", *self.last_font)


def _graphics_state(pdf: Any, fill_a: int, stroke_a: int) -> str:
    """The name of the graphics state setting fill and stroke alpha ``fill_a``/``stroke_a``
    (0-255) in ``pdf``, registered (once per document) and used on the current page."""
    from fpdf.drawing import GraphicsStyle
    from fpdf.enums import PDFResourceType

    gs = GraphicsStyle()
    gs.fill_opacity = round(fill_a / 255, 4)
    gs.stroke_opacity = round(stroke_a / 255, 4)
    name = str(pdf._resource_catalog.register_graphics_style(gs))
    pdf._resource_catalog.add(PDFResourceType.EXT_G_STATE, name, pdf.page)
    return name


class PdfPainter:
    """Records the vector operators of a drawing for a page of ``pdf`` (an ``fpdf.FPDF`` whose
    unit is mm, with the ``noto`` fonts of :func:`pipeline.render.sheets.new_pdf`), as a
    :class:`_Recording` that :func:`draw_pdf` replays into the page: the geometry, colours and
    text layout are worked out here once; the page-dependent pieces (graphics state names, font
    numbers, the text encoded in the document's font subsets) are left as slots filled at replay.

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
        self._items: list[tuple] = []
        self._values = 0
        self._last_font: tuple[str, float] | None = None

    def _slots(self, item: tuple, count: int) -> list[str]:
        """Record a page-dependent step giving ``count`` values; their placeholders."""
        self._items.append(item)
        first = self._values
        self._values += count
        return [f"{_SLOT}{first + i}{_SLOT}" for i in range(count)]

    # -- output --------------------------------------------------------------------------------

    def _xy(self, p: Point) -> str:
        return f"{_n(p[0] * self.f)} {_n(self.page_h - p[1] * self.f)}"

    def _path(self, pts: list[Point], close: bool) -> str:
        """``x y m x y l … [h]``: the numbers as :func:`_n` writes them, formatted in one pass
        (each point once, then every ``.000`` and ``-0`` fixed in the whole text: here a ``-``
        only ever starts a number, and every number is followed by a space)."""
        f, H = self.f, self.page_h
        x, y = pts[0]
        out = [f"{x * f:.3f} {H - y * f:.3f} m"]
        out += [f"{x * f:.3f} {H - y * f:.3f} l" for x, y in pts[1:]]
        if close:
            out.append("h")
        return " ".join(out).replace(".000 ", " ").replace("-0 ", "0 ")

    def _alpha(self, fill_a: float | None, stroke_a: float | None) -> str:
        """A ``/GSn gs`` setting fill and stroke alpha (0-255 scaled by the group opacity), or
        "" when both are opaque (a slot: the name is the document's, given at replay)."""
        fa = 255 if fill_a is None else round(fill_a * self.opacity)
        sa = 255 if stroke_a is None else round(stroke_a * self.opacity)
        if fa == 255 and sa == 255:
            return ""
        key = (fa, sa)
        slot = self._states.get(key)
        if slot is None:
            slot = self._states[key] = self._slots(("gs", fa, sa), 1)[0]
        return slot

    @staticmethod
    def _rgb(c: RGBA, op: str) -> str:
        return f"{_n(c[0] / 255)} {_n(c[1] / 255)} {_n(c[2] / 255)} {op}"

    def out(self, s: str) -> None:
        self._ops.append(s)

    def recording(self, drawing: Any) -> _Recording:
        """What was drawn, as a :class:`_Recording` of ``drawing``."""
        return _Recording(drawing, "\n".join(self._ops), self._items, self._last_font)

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
        :meth:`pipeline.render.drawing._Painter.text_lines` draws them. A line with a character
        outside the document's font subset (``pdf.covered``) is a fallback slot: its font is
        chosen and measured at replay."""
        if colour is None:
            return
        pdf = self.pdf
        covered = getattr(pdf, "covered", None) if hasattr(pdf, "_full") else None
        passes = []
        if stroke_px > 0 and stroke_colour is not None:
            passes.append((stroke_colour, stroke_px))
        passes.append((colour, 0))
        for text, x, y, h, size, bold in lines:
            if not text.strip():
                continue
            size_pt = size * self.f
            style = "B" if bold else ""
            target = text_length(text, size, bold)  # the raster line's width, layout px
            self._last_font = (style, size_pt)
            if covered is not None and not set(text) <= covered:
                font_no, spacing, encoded = self._slots(("fallback", style, size_pt, text, target * self.f), 3)
            else:
                pdf.set_font("noto", style, size_pt)
                font = pdf.current_font
                _, natural = font.get_text_width(text, size_pt, None)  # points
                spacing = _n((target * self.f - natural) / len(text))
                font_no, encoded = self._slots(("text", font.fontkey, text, size_pt), 2)
            left = x - {"l": 0.0, "m": target / 2, "r": target}[h]
            for col, sw in passes:
                gs = self._alpha(col[3], col[3])
                mode = f"1 Tr {_n(2 * sw * self.f)} w 1 j {self._rgb(col, 'RG')}" if sw else "0 Tr"
                self.out(f"q {gs} {self._rgb(col, 'rg')} BT /F{font_no} {_n(size_pt)} Tf {spacing} Tc {mode} "
                         f"{self._xy((left, y))} Td {encoded} ET Q")

    # -- clipping and opacity ------------------------------------------------------------------

    def clip(self, path: list[Point]) -> None:
        self.out(f"{self._path(path, True)} W n")


#: Recordings of drawings placed before in this process (:func:`draw_pdf`), by drawing (its
#: ``id``; the recording keeps it alive), box, resolution, turn, page height and font subset.
_recordings: dict[tuple, _Recording] = {}
#: How many recordings are kept before the memo starts again (a board's is about 0.1 MB).
RECORDING_MEMO = 256


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

    The operators are worked out once per process for the same drawing object in the same box
    on a page of the same height with the same font subset (a board every scenario sheet shows,
    a counter placed on many sheets) and replayed after that (:class:`_Recording`): the same
    bytes as working them out again. Only documents of :func:`pipeline.render.sheets.new_pdf`
    (whose ``noto`` fonts follow from their ``covered`` characters) reuse recordings.

    Raises:
        RenderError: a shape cannot be drawn (as the raster renderer raises it).
    """
    covered = getattr(pdf, "covered", None)  # new_pdf's documents: their fonts follow from it
    key = (id(drawing), tuple(box_mm), layout_px_per_mm, rotate, pdf.h * pdf.k, covered)
    recording = _recordings.get(key) if covered is not None else None
    if recording is None or recording.drawing is not drawing:
        recording = _record(pdf, drawing, box_mm, layout_px_per_mm, rotate)
        if recording.cacheable and covered is not None:
            if len(_recordings) >= RECORDING_MEMO:
                _recordings.clear()
            _recordings[key] = recording
    recording.replay(pdf)


def _record(pdf: Any, drawing: Drawing, box_mm: tuple[float, float, float, float], layout_px_per_mm: float, rotate: float) -> _Recording:
    """The :class:`_Recording` of ``drawing`` in ``box_mm`` on a page like ``pdf``'s current one
    (:func:`draw_pdf`)."""
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
    return painter.recording(drawing)


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
