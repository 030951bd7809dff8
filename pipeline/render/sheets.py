"""Print sheets as PDF: pieces laid out on A4 or US Letter with bleed and cut marks, and a
mirrored back sheet for duplex printing. Nothing here knows any game.

Geometry (all lengths in millimetres, origin top-left of the page):

- the *printable area* is the page less ``margin_mm`` on every side; every piece, its bleed and
  its cut marks lie inside it;
- pieces are packed on *shelves*: a shelf holds pieces of one size in a row, left to right, each
  trimmed piece ``w × h`` with ``bleed_mm`` of extended artwork on every side, so neighbouring
  pieces are ``2 × bleed_mm`` apart (one cut on each side of the gutter);
- *cut marks* are short lines continuing every trim edge of a shelf outside it: above and below
  the shelf for each vertical edge, left and right of it for each horizontal edge. A gap of
  ``mark_mm + 1`` separates shelves so marks never touch artwork;
- the *back sheet* is the front layout mirrored left to right (``x' = page_width − x − w``):
  printed duplex and flipped on the long edge, each back lands behind its front.

Images are embedded as 300 DPI (configurable) rasters: the art is drawn by the template engine,
whose output is pixels, so the print images are the same drawings as the VASSAL images at a
higher resolution. Titles and captions are vector text in the embedded Noto Sans CJK JP font
(subset, CID-keyed CFF), so kanji such as 僧兵 are real text in the PDF.

Example::

    >>> pages = pack([SheetItem("a", 25, 25)] * 3, PAPER["a4"])
    >>> len(pages), len(pages[0].pieces)
    (1, 3)
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from PIL import Image

from pipeline.render.fonts import font_path

#: Paper sizes (width, height) in millimetres, portrait.
PAPER: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class SheetSpec:
    """How a sheet is printed.

    Attributes:
        paper: a key of :data:`PAPER`.
        margin_mm: unprintable border of the page (nothing is drawn there).
        bleed_mm: artwork extended past each trim edge.
        mark_mm: length of a cut mark.
        dpi: resolution of the embedded images.
        header_mm: height kept at the top of the printable area for the title line.
    """

    paper: str = "a4"
    margin_mm: float = 10.0
    bleed_mm: float = 1.5
    mark_mm: float = 4.0
    dpi: int = 300
    header_mm: float = 8.0

    @property
    def size(self) -> tuple[float, float]:
        """Page (width, height) in mm."""
        try:
            return PAPER[self.paper]
        except KeyError:
            raise ValueError(f"paper {self.paper!r}: expected one of {', '.join(PAPER)}") from None

    def px(self, mm: float) -> int:
        """Pixels for ``mm`` at :attr:`dpi`."""
        return max(1, round(mm / MM_PER_INCH * self.dpi))


@dataclass(frozen=True)
class SheetItem:
    """A piece to place: ``name`` (its image) trimmed to ``w × h`` mm; ``back`` names the image
    of its back (``None``: the back sheet leaves it blank)."""

    name: str
    w: float
    h: float
    back: str | None = None


@dataclass(frozen=True)
class Placed:
    """A piece on a page: trim box ``x, y, w, h`` (mm, top-left origin)."""

    name: str
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Mark:
    """A cut mark: a line from ``(x0, y0)`` to ``(x1, y1)`` in mm."""

    x0: float
    y0: float
    x1: float
    y1: float


@dataclass
class Page:
    """One page: its pieces, cut marks and title."""

    pieces: list[Placed] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    title: str = ""


def printable_area(spec: SheetSpec) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` of the printable area in mm."""
    w, h = spec.size
    return spec.margin_mm, spec.margin_mm, w - spec.margin_mm, h - spec.margin_mm


def pack(items: Iterable[SheetItem], paper: tuple[float, float] | None = None, spec: SheetSpec | None = None) -> list[Page]:
    """Lay ``items`` out on pages, in order, on shelves (a new shelf when the size changes or the
    row is full, a new page when the page is full), with cut marks.

    Raises:
        ValueError: a piece (with bleed and marks) is larger than the printable area.
    """
    spec = spec or SheetSpec()
    if paper is not None and paper != spec.size:
        spec = replace(spec, paper=next(k for k, v in PAPER.items() if v == paper))
    x0, y0, x1, y1 = printable_area(spec)
    b, m = spec.bleed_mm, spec.mark_mm
    edge = m + 1.0  # room for marks around a shelf
    top = y0 + spec.header_mm
    pages: list[Page] = [Page()]
    shelf: list[Placed] = []
    shelf_size: tuple[float, float] | None = None
    x = y = 0.0

    def close_shelf() -> None:
        if shelf:
            pages[-1].marks.extend(shelf_marks(shelf, b, m))

    y = top + edge
    x = x0 + edge
    for it in items:
        if it.w + 2 * b + 2 * edge > x1 - x0 or it.h + 2 * b + 2 * edge > y1 - top:
            raise ValueError(f"piece {it.name} ({it.w:.1f} × {it.h:.1f} mm) does not fit the printable area of {spec.paper}")
        size = (it.w, it.h)
        new_row = shelf_size is not None and (size != shelf_size or x + b + it.w + b > x1 - edge)
        if new_row:
            close_shelf()
            y += shelf_size[1] + 2 * b + 2 * edge  # type: ignore[index]
            x = x0 + edge
            shelf = []
        if y + 2 * b + it.h > y1 - edge:
            close_shelf()
            pages.append(Page())
            y, x, shelf = top + edge, x0 + edge, []
        p = Placed(it.name, x + b, y + b, it.w, it.h)
        pages[-1].pieces.append(p)
        shelf.append(p)
        shelf_size = size
        x += it.w + 2 * b
    close_shelf()
    return [p for p in pages if p.pieces]


def shelf_marks(shelf: list[Placed], bleed: float, length: float) -> list[Mark]:
    """Cut marks of one shelf: every distinct vertical trim edge continued above and below the
    shelf, every horizontal trim edge continued left and right, starting ``bleed + 0.5`` mm
    outside the artwork."""
    gap = bleed + 0.5
    top = min(p.y for p in shelf)
    bottom = max(p.y + p.h for p in shelf)
    left = min(p.x for p in shelf)
    right = max(p.x + p.w for p in shelf)
    xs = sorted({round(v, 4) for p in shelf for v in (p.x, p.x + p.w)})
    ys = sorted({round(v, 4) for p in shelf for v in (p.y, p.y + p.h)})
    marks = []
    for x in xs:
        marks.append(Mark(x, top - gap - length, x, top - gap))
        marks.append(Mark(x, bottom + gap, x, bottom + gap + length))
    for y in ys:
        marks.append(Mark(left - gap - length, y, left - gap, y))
        marks.append(Mark(right + gap, y, right + gap + length, y))
    return marks


def mirrored(pages: list[Page], spec: SheetSpec, backs: dict[str, str | None]) -> list[Page]:
    """The back sheet: each page mirrored left to right, each piece replaced by its back image
    (``backs[front name]``; pieces whose back is ``None`` are left out)."""
    w, _ = spec.size
    out = []
    for pg in pages:
        pieces = [Placed(backs[p.name], w - p.x - p.w, p.y, p.w, p.h) for p in pg.pieces if backs.get(p.name)]  # type: ignore[arg-type]
        marks = [Mark(w - mk.x0, mk.y0, w - mk.x1, mk.y1) for mk in pg.marks]
        out.append(Page(pieces, marks, pg.title))
    return out


def with_bleed(img: Image.Image, px: int, background: tuple[int, int, int] = (255, 255, 255)) -> Image.Image:
    """``img`` flattened on ``background`` and grown by ``px`` pixels on every side by repeating
    its edge pixels (the usual bleed for artwork that runs to the trim)."""
    flat = Image.new("RGB", img.size, background)
    flat.paste(img, mask=img.getchannel("A") if img.mode == "RGBA" else None)
    if px <= 0:
        return flat
    w, h = flat.size
    out = Image.new("RGB", (w + 2 * px, h + 2 * px), background)
    out.paste(flat, (px, px))
    out.paste(flat.crop((0, 0, w, 1)).resize((w, px)), (px, 0))
    out.paste(flat.crop((0, h - 1, w, h)).resize((w, px)), (px, h + px))
    out.paste(flat.crop((0, 0, 1, h)).resize((px, h)), (0, px))
    out.paste(flat.crop((w - 1, 0, w, h)).resize((px, h)), (w + px, px))
    for cx, cy, ox, oy in ((0, 0, 0, 0), (w - 1, 0, w + px, 0), (0, h - 1, 0, h + px), (w - 1, h - 1, w + px, h + px)):
        out.paste(flat.getpixel((cx, cy)), (ox, oy, ox + px, oy + px))
    return out


# ---------------------------------------------------------------------------------------------
# PDF

#: Fixed creation date of every PDF (reproducible files).
PDF_DATE = _dt.datetime(2000, 1, 1, tzinfo=_dt.UTC)


def new_pdf(orientation: str = "P", paper: str = "a4", title: str = ""):
    """An ``fpdf.FPDF`` in mm with the Noto Sans CJK JP fonts (``noto``, regular and ``B``) and a
    fixed creation date."""
    from fpdf import FPDF

    pdf = FPDF(orientation=orientation, unit="mm", format=PAPER[paper])
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.add_font("noto", "", str(font_path(False)))
    pdf.add_font("noto", "B", str(font_path(True)))
    pdf.set_creation_date(PDF_DATE)
    pdf.set_producer("gunbai")
    pdf.set_creator("gunbai")
    if title:
        pdf.set_title(title)
    return pdf


def draw_pages(pdf, pages: list[Page], images: dict[str, Image.Image], spec: SheetSpec, *, footer: str = "") -> None:
    """Add ``pages`` to ``pdf``: each piece's image (with bleed, from ``images[name]``, the trim
    size without bleed) placed on its trim box grown by the bleed, then the cut marks (0.2 mm
    black), the page title (left) and ``footer`` (right) on the header line as vector text."""
    b = spec.bleed_mm
    bleed_px: dict[str, Image.Image] = {}
    for pg in pages:
        pdf.add_page()
        for p in pg.pieces:
            if p.name not in bleed_px:
                img = images[p.name]
                bleed_px[p.name] = with_bleed(img, round(b / p.w * img.width))
            pdf.image(bleed_px[p.name], x=p.x - b, y=p.y - b, w=p.w + 2 * b, h=p.h + 2 * b)
        pdf.set_draw_color(0, 0, 0)
        pdf.set_line_width(0.2)
        for mk in pg.marks:
            pdf.line(mk.x0, mk.y0, mk.x1, mk.y1)
        x0, y0, x1, _ = printable_area(spec)
        if pg.title:
            pdf.set_font("noto", "B", 10)
            pdf.set_text_color(40, 30, 20)
            pdf.text(x0, y0 + 4, pg.title)
        if footer:
            pdf.set_font("noto", "", 7)
            pdf.set_text_color(110, 100, 80)
            pdf.text(x1 - pdf.get_string_width(footer), y0 + 4, footer)


def pdf_bytes(pdf) -> bytes:
    """The PDF file of ``pdf``."""
    buf = io.BytesIO()
    pdf.output(buf)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# print files of any system: counter sheets, card sheets, full-page sheets


@dataclass(frozen=True)
class PrintOptions:
    """Print settings shared by every system: the width of a reference counter in mm (a system
    may size its pieces from it or print them to scale), bleed, page margin, cut mark length and
    resolution (DPI)."""

    counter_mm: float = 25.0
    bleed_mm: float = 1.5
    margin_mm: float = 10.0
    mark_mm: float = 4.0
    dpi: int = 300

    def spec(self, paper: str) -> SheetSpec:
        """The :class:`SheetSpec` of these options on ``paper``."""
        return SheetSpec(paper=paper, margin_mm=self.margin_mm, bleed_mm=self.bleed_mm, mark_mm=self.mark_mm, dpi=self.dpi)


def digest(*parts: object) -> str:
    """SHA-256 (hex) of ``parts`` (bytes as they are, anything else as canonical JSON): the
    cache key of a composed file."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else json.dumps(p, sort_keys=True, default=str).encode())
        h.update(b"\0")
    return h.hexdigest()


def decode_pngs(pngs: dict[str, bytes]) -> dict[str, Image.Image]:
    """PNG bytes by name → RGBA images by name."""
    return {n: Image.open(io.BytesIO(b)).convert("RGBA") for n, b in pngs.items()}


def counter_pages(items: list[SheetItem], spec: SheetSpec, title: str) -> tuple[list[Page], list[Page]]:
    """Front pages and mirrored back pages of ``items``, titled ``<title>: front i/n`` and
    ``<title>: back i/n (print duplex, flip on long edge)``."""
    fronts = pack(items, spec=spec)
    backs = mirrored(fronts, spec, {it.name: it.back for it in items})
    for i, pg in enumerate(fronts):
        pg.title = f"{title}: front {i + 1}/{len(fronts)}"
    for i, pg in enumerate(backs):
        pg.title = f"{title}: back {i + 1}/{len(backs)} (print duplex, flip on long edge)"
    return fronts, backs


def counters_pdf(items: list[SheetItem], jobs: dict, cache, paper: str, opts: PrintOptions, *, title: str, pdf_title: str, footer: str) -> bytes:
    """A counter sheet PDF on ``paper``: ``items`` (every copy, in order) packed with bleed and
    cut marks, front pages then mirrored back pages; images drawn from ``jobs`` (name →
    :class:`~pipeline.render.cache.RenderJob`) through ``cache`` (a
    :class:`~pipeline.render.cache.RenderCache`); the PDF itself is cached by content.

    Raises:
        ValueError: a piece does not fit the printable area.
    """
    spec = opts.spec(paper)
    pngs = cache.render_all(jobs)
    fronts, backs = counter_pages(items, spec, title)
    key = digest("counters-pdf", asdict(opts), paper, title, footer, [asdict(p) for pg in fronts + backs for p in pg.pieces],
                 {n: hashlib.sha256(b).hexdigest() for n, b in sorted(pngs.items())})

    def make() -> bytes:
        images = decode_pngs(pngs)
        pdf = new_pdf("P", paper, title=pdf_title)
        draw_pages(pdf, fronts, images, spec, footer=footer)
        draw_pages(pdf, backs, images, spec, footer=footer)
        return pdf_bytes(pdf)

    return cache.blob(f"counters_{paper}.pdf", key, make, ext="pdf")


def cards_pdf(card_jobs: dict, card_mm: tuple[float, float], page_jobs: dict, cache, paper: str, opts: PrintOptions, *, title: str, pdf_title: str,
              caption: str, name: str = "cards.pdf") -> bytes:
    """A cards PDF: the ``card_jobs`` images at ``card_mm`` (w, h) with cut marks, packed on
    pages titled ``<title> i/n``, then each of ``page_jobs`` on its own page fitted to the
    printable area, captioned ``<caption> · <its name>``. Cached by content under ``name``."""
    spec = opts.spec(paper)
    x0, y0, x1, y1 = spec.margin_mm, spec.margin_mm + spec.header_mm, spec.size[0] - spec.margin_mm, spec.size[1] - spec.margin_mm
    pngs = cache.render_all({**card_jobs, **page_jobs})
    items = [SheetItem(n, *card_mm) for n in card_jobs]
    pages = pack(items, spec=spec) if items else []
    for i, pg in enumerate(pages):
        pg.title = f"{title} {i + 1}/{len(pages)}"
    key = digest("cards-pdf", asdict(opts), paper, title, card_mm, list(card_jobs), list(page_jobs), {n: hashlib.sha256(b).hexdigest() for n, b in sorted(pngs.items())})

    def make() -> bytes:
        images = decode_pngs(pngs)
        pdf = new_pdf("P", paper, title=pdf_title)
        draw_pages(pdf, pages, images, spec, footer=f"{paper.upper()} · cards {card_mm[0]:g} × {card_mm[1]:g} mm")
        for n in page_jobs:
            img = images[n]
            w = x1 - x0
            h = w * img.height / img.width
            if h > y1 - y0:
                h = y1 - y0
                w = h * img.width / img.height
            pdf.add_page()
            pdf.set_font("noto", "B", 10)
            pdf.text(x0, spec.margin_mm + 4, f"{caption} · " + n.removesuffix(".png").removeprefix("card_").replace("_", " "))
            pdf.image(img.convert("RGB"), x=x0, y=y0, w=w, h=h)
        return pdf_bytes(pdf)

    return cache.blob(name, key, make, ext="pdf")


def sheet_pdf(png: bytes, size_mm: tuple[float, float], cache, *, name: str, title: str, heading: str, heading_at: tuple[float, float] = (10, 15.5)) -> bytes:
    """A one-page PDF of a sheet image ``png`` filling a ``size_mm`` page (A4 landscape is
    297 × 210), with ``heading`` as searchable vector text under the picture at ``heading_at``
    (mm). Cached by content under ``name``."""
    key = digest("sheet-pdf", name, title, heading, size_mm, hashlib.sha256(png).hexdigest())

    def make() -> bytes:
        w, h = size_mm
        paper = next((k for k, v in PAPER.items() if {round(v[0], 1), round(v[1], 1)} == {round(w, 1), round(h, 1)}), "a4")
        pdf = new_pdf("L" if w > h else "P", paper, title=title)
        pdf.add_page()
        pdf.set_font("noto", "B", 9)
        pdf.set_text_color(246, 240, 220)
        pdf.text(heading_at[0], heading_at[1], heading)
        pdf.image(Image.open(io.BytesIO(png)).convert("RGB"), x=0, y=0, w=w, h=h)
        return pdf_bytes(pdf)

    return cache.blob(name, key, make, ext="pdf")


def write_files(files: dict[str, bytes], folder: Path) -> list[Path]:
    """Write ``files`` (name → bytes) into ``folder`` atomically, leaving unchanged files alone;
    returns the paths."""
    from pipeline.output import write_bytes_atomic

    written = []
    for n, data in files.items():
        path = folder / n
        if not (path.is_file() and path.read_bytes() == data):
            write_bytes_atomic(path, data)
        written.append(path)
    return written
