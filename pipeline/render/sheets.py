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

Full-page sheets and cards are **vector pages** (:func:`vector_pdf`, :func:`cards_pdf`): the
same drawings as the VASSAL images, drawn by :mod:`pipeline.render.vector` as PDF paths and
real text, laid out as the 300 DPI raster would be, with no image. Counter sheets embed each
counter as a 300 DPI (configurable) raster drawn by the template engine with its bleed around
it (:func:`bled_jobs`), once per PDF, as the zlib stream of its cached PNG file
(:func:`embed_png`), placed by the page's coordinates wherever a page shows it. All text is in the embedded Noto Sans CJK JP font (subset, CID-keyed CFF), so kanji
such as 僧兵 are real text in the PDF.

Example::

    >>> pages = pack([SheetItem("a", 25, 25)] * 3, PAPER["a4"])
    >>> len(pages), len(pages[0].pieces)
    (1, 3)
"""

from __future__ import annotations

import copy
import datetime as _dt
import hashlib
import io
import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from PIL import Image

from pipeline.render.fonts import PDF_REPERTOIRE

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
    """A piece on a page: trim box ``x, y, w, h`` (mm, top-left origin, as it lies on the page);
    ``rotate``: its picture turned that many degrees counterclockwise (0 or 90 on a front, 270
    on the mirrored back of a piece turned 90), so ``w × h`` is the piece's ``h × w``."""

    name: str
    x: float
    y: float
    w: float
    h: float
    rotate: int = 0


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


#: Slack for lengths that fit exactly (3 cards of 63 mm and their bleed in 192 mm).
_EPS = 1e-6


def _pitch(w: float, h: float, spec: SheetSpec, butted: bool) -> tuple[float, float, float]:
    """Room one piece takes in a block (``w``, ``h`` with the gutters) and the block's outer bleed."""
    b = spec.bleed_mm
    return (w, h, 2 * b) if butted else (w + 2 * b, h + 2 * b, 0.0)


def grid(w: float, h: float, spec: SheetSpec, *, butted: bool = False) -> tuple[int, int]:
    """``(columns, rows)`` of ``w × h`` mm pieces an empty page of ``spec`` holds as one block
    (:func:`pack`'s rules: bleed, gutters, cut marks round the block, the title line), e.g.
    cards of 63 × 88 mm butted on A4 with a 5 mm margin and 3 mm marks:

    >>> grid(63, 88, SheetSpec(margin_mm=5, mark_mm=3), butted=True)
    (3, 3)
    >>> grid(63, 88, SheetSpec())
    (2, 2)
    """
    x0, y0, x1, y1 = printable_area(spec)
    edge = spec.mark_mm + 1.0
    pw, ph, extra = _pitch(w, h, spec, butted)
    cols = int((x1 - x0 - 2 * edge - extra + _EPS) // pw)
    rows = int((y1 - y0 - spec.header_mm - 2 * edge - extra + _EPS) // ph)
    return max(cols, 0), max(rows, 0)


def capacity(w: float, h: float, spec: SheetSpec, *, butted: bool = False, rotate: bool = False) -> int:
    """How many ``w × h`` mm pieces an empty page of ``spec`` holds (turned a quarter when that
    holds more and ``rotate``): what "fits" means when a page's fill is measured
    (:func:`fill`)."""
    c, r = grid(w, h, spec, butted=butted)
    if rotate and w != h:
        rc, rr = grid(h, w, spec, butted=butted)
        return max(c * r, rc * rr)
    return c * r


def fill(page: Page, sizes: dict[str, tuple[float, float]], spec: SheetSpec, *, butted: bool = False, rotate: bool = False) -> float:
    """The share of ``page`` its pieces use: each piece counts ``1 / capacity`` of its size
    (``sizes[name]``, the trim size before any turn), so a page of one size filled as
    :func:`pack` fills it is 1.0 and a page with half of them 0.5."""
    return sum(1.0 / capacity(*sizes[p.name], spec, butted=butted, rotate=rotate) for p in page.pieces)


def _room(f: tuple[float, float, int], row: tuple[float, float, float, float, float], spec: SheetSpec, butted: bool) -> int:
    """How many pieces ``f`` (w, h, turn) fit in the rest of a partial row ``row`` (:func:`pack`)."""
    _top, nx, right, rh, _bottom = row
    pw = _pitch(f[0], f[1], spec, butted)[0]
    return 0 if f[1] > rh + _EPS or nx + f[0] > right + _EPS else int((right - nx - f[0] + _EPS) // pw) + 1


def pack(items: Iterable[SheetItem], paper: tuple[float, float] | None = None, spec: SheetSpec | None = None, *,
         butted: bool = False, rotate: bool = False) -> list[Page]:
    """Lay ``items`` out on pages, in order, in *blocks*: the pieces of one size that follow
    each other fill rows left to right, the rows stacked, ``2 × bleed`` apart (``butted``:
    edge to edge, sharing their cut lines, the bleed only round the block, as card sheets are
    printed); the cut marks continue every trim edge outside the block; a new block (below,
    past the marks) when the size changes, a new page when the page is full, once the pieces
    of the later sizes that fit what is left of it have filled it (a block of each, largest
    share first: OHW's turn marker below its big bases), and so does the strip right of a
    block narrower than the page (Sekigahara's turn marker beside its long bases); pieces of
    the next size that are no taller go on in a block's partial last row first. ``rotate``: each size
    is placed upright or turned a quarter (:attr:`Placed.rotate` 90), whichever begins fewer
    pages, then fills more of the current one (by :func:`fill`'s measure), then uses less of
    the last (OHW's 4 × 2 inch bases: 6 a page on their side, 4 upright).

    Raises:
        ValueError: a piece (with bleed and marks) is larger than the printable area.
    """
    spec = spec or SheetSpec()
    if paper is not None and paper != spec.size:
        spec = replace(spec, paper=next(k for k, v in PAPER.items() if v == paper))
    x0, y0, x1, y1 = printable_area(spec)
    b, m = spec.bleed_mm, spec.mark_mm
    edge = m + 1.0  # room for marks around a block
    top = y0 + spec.header_mm
    pages: list[Page] = [Page()]
    y = top + edge  # top of the next block's artwork (bleed included)
    runs: list[list[SheetItem]] = []
    for it in items:
        if runs and (runs[-1][0].w, runs[-1][0].h) == (it.w, it.h):
            runs[-1].append(it)
        else:
            runs.append([it])
    # the partial last row of the block just placed: (its top, next free x, the block's right
    # edge, the row's piece height, the block's bottom); pieces of the next sizes no taller go
    # on in that row, top-aligned, their vertical cuts marked below the block and the lower
    # edge of a shorter one right of it
    row: tuple[float, float, float, float, float] | None = None

    def oriented(w: float, h: float) -> list[tuple[float, float, int]]:
        return [(w, h, 0)] + ([(h, w, 90)] if rotate and w != h else [])

    def cost(w: float, h: float, n: int, best: int) -> tuple[int, float, float]:
        """(pages begun, less the share of this page filled, height used on the last page)
        placing ``n`` pieces ``w × h`` from ``y``; ``best``: the size's :func:`capacity`."""
        cols, rows = grid(w, h, spec, butted=butted)
        pw, ph, extra = _pitch(w, h, spec, butted)
        here = max(0, int((y1 - edge - y - extra + _EPS) // ph)) * cols
        if n <= here:
            return 0, -n / best, -(-n // cols) * ph
        left = n - here
        full = rows * cols
        return -(-left // full), -here / best, -(-(left - (-(-left // full) - 1) * full) // cols) * ph

    def place(block_items: list[SheetItem], w: float, h: float, turn: int, y: float, left: float | None = None,
              cols: int | None = None, later: list[list[SheetItem]] | None = None) -> tuple[float, tuple[float, float, float, float, float] | None]:
        """Lay ``block_items`` out as one block from ``y`` on the last page, its artwork from
        ``left`` (default: the page's left) in at most ``cols`` columns: the next block's ``y``
        and the block's partial last row (or ``None``). ``later``: the runs still to place;
        those that fit the strip right of the block's full rows go there first."""
        left = x0 + edge if left is None else left
        cols = cols or grid(w, h, spec, butted=butted)[0]
        pw, ph, extra = _pitch(w, h, spec, butted)
        block = []
        for k, it in enumerate(block_items):
            r, c = divmod(k, cols)
            block.append(Placed(it.name, left + b + c * pw, y + b + r * ph, w, h, turn))
        pages[-1].pieces.extend(block)
        pages[-1].marks.extend(shelf_marks(block, b, m))
        used_rows = -(-len(block) // cols)
        last = len(block) - (used_rows - 1) * cols
        bottom = y + used_rows * ph + extra - b  # the block's lowest trim edge
        part = (block[-1].y, block[-1].x + pw, left + b + cols * pw - (0.0 if butted else 2 * b), h, bottom) if last < cols else None
        full_rows = used_rows - (1 if last < cols else 0)
        if later and full_rows:
            # the strip right of the block's full rows, past both rings of marks
            fill_strip(left + min(cols, len(block)) * pw + extra + 2 * edge, y, y + full_rows * ph + extra, later)
        return y + used_rows * ph + extra + 2 * edge, part

    def fill_strip(sx: float, sy: float, sy1: float, later: list[list[SheetItem]]) -> None:
        """Place pieces of the ``later`` runs, in order, as blocks stacked in the strip from
        ``sx`` to the page's right and from ``sy`` to ``sy1`` (artwork), each taking them out of
        its run."""
        for run in later:
            while run:
                best = None
                for f in oriented(run[0].w, run[0].h):
                    pw, ph, extra = _pitch(f[0], f[1], spec, butted)
                    c = int((x1 - edge - sx - extra + _EPS) // pw)
                    r = int((sy1 - sy - extra + _EPS) // ph)
                    if c >= 1 and r >= 1 and (best is None or min(c * r, len(run)) > best[1]):
                        best = (f, min(c * r, len(run)), c)
                if best is None:
                    break
                (fw, fh, turn), take, c = best
                nonlocal_y = place(run[:take], fw, fh, turn, sy, sx, min(c, take))[0]
                del run[:take]
                sy = nonlocal_y

    for ri, run in enumerate(runs):
        if not run:
            continue  # every piece of it went on to fill an earlier page
        fits = [(w, h, t) for w, h, t in oriented(run[0].w, run[0].h) if min(grid(w, h, spec, butted=butted)) >= 1]
        if not fits:
            raise ValueError(f"piece {run[0].name} ({run[0].w:.1f} × {run[0].h:.1f} mm) does not fit the printable area of {spec.paper}")
        i = 0
        if row is not None:  # go on in the last block's partial row, in the turn that places most
            top_y, nx, right, rh, bottom = row

            best = max(fits, key=lambda f: _room(f, row, spec, butted))
            if _room(best, row, spec, butted) > 0:
                w, h, turn = best
                pw = _pitch(w, h, spec, butted)[0]
                beside = []
                while i < len(run) and nx + w <= right + _EPS:
                    beside.append(Placed(run[i].name, nx, top_y, w, h, turn))
                    nx += pw
                    i += 1
                pages[-1].pieces.extend(beside)
                gap = b + 0.5
                for x in sorted({round(v, 4) for q in beside for v in (q.x, q.x + q.w)}):
                    pages[-1].marks.append(Mark(x, bottom + gap, x, bottom + gap + m))
                if h < rh - _EPS:  # a shorter piece's lower edge, marked right of the block
                    pages[-1].marks.append(Mark(right + gap, top_y + h, right + gap + m, top_y + h))
                row = (top_y, nx, right, rh, bottom)
            if i >= len(run):
                continue
        rest = len(run) - i
        best_cap = capacity(run[0].w, run[0].h, spec, butted=butted, rotate=rotate)
        w, h, turn = min(fits, key=lambda f: cost(f[0], f[1], rest, best_cap))
        cols, rows = grid(w, h, spec, butted=butted)
        pw, ph, extra = _pitch(w, h, spec, butted)
        while i < len(run):
            here = int((y1 - edge - y - extra + _EPS) // ph)
            if here < 1:
                # the page is full for this size: the smaller pieces that follow fill what is
                # left of it before a new page begins
                for later in runs[ri + 1:]:
                    while later:
                        room = [(f, int((y1 - edge - y - _pitch(f[0], f[1], spec, butted)[2] + _EPS) // _pitch(f[0], f[1], spec, butted)[1]))
                                for f in oriented(later[0].w, later[0].h) if min(grid(f[0], f[1], spec, butted=butted)) >= 1]
                        room = [(f, n * grid(f[0], f[1], spec, butted=butted)[0]) for f, n in room if n >= 1]
                        if not room:
                            break
                        (lw, lh, lturn), n = max(room, key=lambda fr: min(fr[1], len(later)))
                        take = min(n, len(later))
                        y, _row = place(later[:take], lw, lh, lturn, y)
                        del later[:take]
                pages.append(Page())
                y = top + edge
                row = None
                continue
            take = min(len(run) - i, here * cols)
            y, row = place(run[i:i + take], w, h, turn, y, later=runs[ri + 1:])
            i += take
    return [p for p in pages if p.pieces]


def shelf_marks(shelf: list[Placed], bleed: float, length: float) -> list[Mark]:
    """Cut marks of one block (or shelf) of pieces: every distinct vertical trim edge continued
    above and below it, every horizontal trim edge continued left and right, starting
    ``bleed + 0.5`` mm outside the artwork."""
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
        # a piece turned a quarter one way shows its back turned the other way, seen from behind
        pieces = [Placed(backs[p.name], w - p.x - p.w, p.y, p.w, p.h, (360 - p.rotate) % 360) for p in pg.pieces if backs.get(p.name)]  # type: ignore[arg-type]
        marks = [Mark(w - mk.x0, mk.y0, w - mk.x1, mk.y1) for mk in pg.marks]
        out.append(Page(pieces, marks, pg.title))
    return out


def duplex(fronts: list[Page], backs: list[Page]) -> list[Page]:
    """Pages in duplex order: front 1, back 1, front 2, back 2… A duplex printer prints each
    odd page on the front of a sheet and the next one on its back, so every back lands behind
    its own front (all fronts then all backs would put front 2 behind front 1).

    >>> [p.title for p in duplex([Page(title="f1"), Page(title="f2")], [Page(title="b1"), Page(title="b2")])]
    ['f1', 'b1', 'f2', 'b2']
    """
    if len(fronts) != len(backs):
        raise ValueError(f"{len(fronts)} front pages but {len(backs)} back pages")
    return [pg for pair in zip(fronts, backs, strict=True) for pg in pair]


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
#: zlib level of the images embedded in PDFs: level 3 assembles the Genpei counter sheet in
#: two thirds of the time of the default (6) for a file a fifth larger (measured: 1.35 s and
#: 922 KB against 2.0 s and 763 KB).
PDF_IMAGE_LEVEL = 3


#: What the PDF makers and the font subsetting import on first use: the PDF library, fontTools'
#: subsetter and the table modules a CFF-flavoured OpenType subset is read with, the vector pages.
PDF_MODULES = ("fpdf", "fpdf.output", "fontTools.subset", "fontTools.ttLib.tables.C_F_F_", "fontTools.ttLib.tables._c_m_a_p",
               "fontTools.ttLib.tables._h_m_t_x", "fontTools.ttLib.tables.O_S_2f_2", "fontTools.ttLib.tables._p_o_s_t",
               "fontTools.ttLib.tables._n_a_m_e", "fontTools.ttLib.tables._h_e_a_d", "fontTools.ttLib.tables._h_h_e_a",
               "fontTools.ttLib.tables._m_a_x_p", "pipeline.render.vector")


def load_pdf_library(*, subsetter_only: bool = False) -> None:
    """Import :data:`PDF_MODULES` now, in this process, before it forks the drawing processes
    and the PDF makers (:func:`pipeline.render.parallel.fork_map`): each of those, a copy of this
    process, then finds them loaded instead of importing them on its first subset or PDF
    (measured: 0.12-0.15 s CPU once here; a maker's first counter sheet 0.42 s → 0.22 s, its
    first vector scenario sheet 0.15 s → 0.05 s). Importing changes no output.
    ``subsetter_only``: only the fontTools modules (0.18 s CPU of the 0.38 s), which the drawing
    processes use to cut the PDF font subsets; a caller that forks the PDF makers later imports
    the rest then (a second call without it).

    Raises:
        ImportError: the PDF library or fontTools is not installed.
    """
    import importlib

    for name in PDF_MODULES:
        if not subsetter_only or name.startswith("fontTools."):
            importlib.import_module(name)


def new_pdf(orientation: str = "P", paper: str = "a4", title: str = "", text: str = ""):
    """An ``fpdf.FPDF`` in mm with the Noto Sans CJK JP fonts (``noto``, regular and ``B``) and a
    fixed creation date.

    The fonts are subsets (:func:`pipeline.render.fonts.pdf_subset_path`) of the common Latin,
    punctuation and kana characters plus those of ``title`` and ``text`` (give the texts the PDF
    will show): loading and embedding a subset takes milliseconds, the 16 MB font a second or
    more per PDF. A text with a character outside the subset is still drawn right: that text
    alone uses a second subset that has it.
    """
    from fpdf import FPDF

    from pipeline.render.fonts import (
        no_seac_closure_for_cid_fonts,
        no_subroutine_pass_without_subroutines,
        pdf_subset_path,
    )

    no_seac_closure_for_cid_fonts()  # fpdf subsets the fonts again when it writes the file
    no_subroutine_pass_without_subroutines()  # ... from subsets with no subroutine
    remember_embedded_fonts()  # ... to the same glyphs as a document before
    subset_chars = frozenset(PDF_REPERTOIRE) | frozenset(title) | frozenset(text)

    class _Pdf(FPDF):
        """FPDF whose ``noto`` text falls back to a larger subset for characters outside its own,
        and whose embedded font subsets keep the font's bounding box: the library would otherwise
        run every kept glyph's outline program again to recompute it when it writes the file
        (half of the time of writing a one-page PDF, measured).  The kept box, the whole font's,
        encloses every glyph, which is all a PDF reader asks of it (ISO 32000-1 §9.8.1).

        For a CID-keyed CFF font (Noto Sans CJK JP) the library writes the whole subset font
        file (every table compiled) and then drops it, embedding the ``CFF`` table compiled on
        its own: that unused file is not written (:func:`_unused_font_file`). The embedded
        bytes are the same (tested); writing a PDF costs a third less (measured)."""

        covered = subset_chars

        def add_font(self, family=None, style="", fname=None, *args, **kwargs):  # type: ignore[override]
            fontkey = f"{family.lower()}{style}" if family and style in ("", "B") else None
            model = _font_models.get(str(fname)) if fontkey and not args and not kwargs else None
            if model is not None and fontkey not in self.fonts:
                self.fonts[fontkey] = _font_from_model(model, len(self.fonts) + 1, fontkey, style)
                self._set_min_pdf_version("1.6")  # a CID-keyed CFF font, as FPDF.add_font says
            else:
                super().add_font(family, style, fname, *args, **kwargs)
                if fontkey and not args and not kwargs and fontkey in self.fonts:
                    _keep_font_model(str(fname), self.fonts[fontkey])
            for f in self.fonts.values():
                if getattr(f, "ttfont", None) is not None:
                    f.ttfont.recalcBBoxes = False
                    if f.is_cff and f.is_cid_keyed and not f.is_compressed:
                        f.ttfont.save = _unused_font_file
                        f.ttfont.pdf_font_file = str(f.ttffile)  # its embedded programs are remembered

        def _full(self, txt: str):
            if self.font_family != "noto" or set(txt) <= self.covered:
                return None
            style = self.font_style.replace("I", "")
            extra = "".join(sorted(set(txt) - self.covered))
            family = f"noto{len(self.fonts)}"
            self.add_font(family, style, str(pdf_subset_path("B" in style, "".join(sorted(self.covered)) + extra)))
            previous = (self.font_family, self.font_style, self.font_size_pt)
            self.set_font(family, style, self.font_size_pt)
            return previous

        def text(self, x, y, text=""):  # type: ignore[override]
            previous = self._full(str(text))
            try:
                return super().text(x, y, text)
            finally:
                if previous:
                    self.set_font(*previous)

        def get_string_width(self, s, normalized=False, markdown=False):  # type: ignore[override]
            previous = self._full(str(s))
            try:
                return super().get_string_width(s, normalized, markdown)
            finally:
                if previous:
                    self.set_font(*previous)

    pdf = _Pdf(orientation=orientation, unit="mm", format=PAPER[paper])
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.add_font("noto", "", str(pdf_subset_path(False, title + text)))
    pdf.add_font("noto", "B", str(pdf_subset_path(True, title + text)))
    pdf.set_creation_date(PDF_DATE)
    pdf.set_producer("gunbai")
    pdf.set_creator("gunbai")
    if title:
        pdf.set_title(title)
    return pdf


#: The fonts :func:`new_pdf` loaded before in this process, by file: what fpdf's ``TTFFont``
#: reads from a font file (widths, character map, glyph ids, descriptor), kept from the first
#: document that loaded it (:func:`_keep_font_model`), before any document used it.
_font_models: dict[str, dict] = {}

#: The attributes of an fpdf ``TTFFont`` that belong to one document: its number there, the
#: fontTools font it subsets when the file is written, the characters it used, their widths and
#: map (copied), the descriptor the writer numbers.
_PER_DOCUMENT = ("i", "fontkey", "emphasis", "ttfont", "subset", "missing_glyphs", "biggest_size_pt", "_hbfont", "cw", "cmap", "desc")


def _keep_font_model(fname: str, font) -> None:
    """Keep what ``font`` (an fpdf ``TTFFont`` just made from ``fname``) read from its file, for
    :func:`_font_from_model`: only a plain CID-keyed CFF font (the Noto Sans CJK JP subsets),
    not a colour, variable, compressed or range-limited one."""
    from fpdf.fonts import TTFFont

    plain = (isinstance(font, TTFFont) and font.is_cff and font.is_cid_keyed and not font.is_compressed and not font.is_symbol
             and font.color_font is None and getattr(font, "unicode_range", None) is None and font.collection_font_number == 0)
    if not plain or fname in _font_models:
        return
    model = {name: getattr(font, name) for name in TTFFont.__slots__ if name not in _PER_DOCUMENT and hasattr(font, name)}
    model["cw"] = copy.copy(font.cw)
    model["cmap"] = dict(font.cmap)
    model["desc"] = copy.copy(font.desc)
    _font_models[fname] = model


def _font_from_model(model: dict, i: int, fontkey: str, style: str):
    """A new fpdf ``TTFFont`` numbered ``i`` in its document, as ``TTFFont(...)`` would read it
    from the model's file, without reading the file's tables again (fpdf's constructor
    decompiles the character map and metrics and walks every character of the subset: about
    6 ms per font, two fonts per PDF, measured). It gets a fontTools font of its own, loaded
    lazily from the file (the writer subsets that font in place), its own copies of the widths,
    character map and descriptor, and an empty glyph subset."""
    from fontTools import ttLib
    from fpdf.enums import TextEmphasis
    from fpdf.fonts import SubsetMap, TTFFont

    font = object.__new__(TTFFont)
    for name, value in model.items():
        setattr(font, name, value)
    font.i = i
    font.fontkey = fontkey
    font.emphasis = TextEmphasis.coerce(style)
    font._hbfont = None
    font.biggest_size_pt = 0
    font.missing_glyphs = []
    font.cw = copy.copy(model["cw"])
    font.cmap = dict(model["cmap"])
    font.desc = copy.copy(model["desc"])
    font.ttfont = ttLib.TTFont(font.ttffile, recalcTimestamp=False, fontNumber=0, lazy=True)
    font.subset = SubsetMap(font)
    return font


#: The font programs fpdf embedded before in this process (the ``CFF`` table of a font file
#: subset to a document's glyphs, compiled) and the subset font's glyph ids, by (font file,
#: glyph names, subsetting options): :func:`remember_embedded_fonts`.
_embedded: dict[tuple, tuple[bytes, dict[str, int]]] = {}
#: How many font programs are kept before the memo starts again.
EMBEDDED_MEMO = 64


class _CompiledCFF:
    """Stands for the ``CFF`` table of a font whose subset program is remembered: compiling it
    gives the remembered bytes."""

    def __init__(self, data: bytes):
        self.data = data

    def compile(self, _font) -> bytes:
        return self.data


def remember_embedded_fonts() -> None:
    """Make fontTools' subsetter remember, for the fonts of :func:`new_pdf` (a fontTools font
    with a ``pdf_font_file``: a CID-keyed CFF font), what fpdf makes of it when it writes a PDF
    (``OutputProducer._add_fonts``: it subsets the document's font to the glyphs the document
    used, then compiles its ``CFF`` table alone and embeds that), and give it back when another
    document of the process uses the same glyphs of the same file: the font is then not
    subset, and its ``CFF`` table compiles to the remembered bytes, its glyph ids those of the
    subset font. fpdf embeds nothing else of the font. The result of subsetting and compiling
    depends only on the file, the set of glyphs and the options, so the bytes are the same
    (tested). 18 of Genpei's 30 scenario PDFs use the same glyphs of the regular font.
    Idempotent; changes fontTools for this process (and the processes it forks); other fonts
    are subset as before."""
    from fontTools import subset

    full = subset.Subsetter.subset
    if getattr(full, "remembers_pdf_fonts", False):
        return

    def subset_font(self, font):
        source = font.__dict__.get("pdf_font_file")
        if source is None or "CFF " not in font:
            return full(self, font)
        key = (source, frozenset(self.glyph_names_requested), frozenset(self.glyph_ids_requested), frozenset(self.unicodes_requested),
               repr(sorted(vars(self.options).items())))
        known = _embedded.get(key)
        if known is not None:
            data, ids = known
            font.tables["CFF "] = _CompiledCFF(data)
            font.getGlyphID = ids.__getitem__
            return None
        result = full(self, font)
        table = font["CFF "]
        compile_table = table.compile
        ids = {name: i for i, name in enumerate(font.getGlyphOrder())}

        def compile_and_remember(ttfont):
            data = compile_table(ttfont)
            if len(_embedded) >= EMBEDDED_MEMO:
                _embedded.clear()
            _embedded[key] = (data, ids)
            return data

        table.compile = compile_and_remember
        return result

    subset_font.remembers_pdf_fonts = True  # type: ignore[attr-defined]
    subset_font.full = full  # type: ignore[attr-defined]
    subset.Subsetter.subset = subset_font


def _unused_font_file(*_args, **_kwargs) -> None:
    """Stands for ``TTFont.save`` on the fonts of :func:`new_pdf`: fpdf 2.8 saves a subset font
    whole (``OutputProducer._add_fonts``) and, for a CID-keyed CFF font, replaces what it saved
    by the font's ``CFF`` table compiled alone before using it; nothing else of fpdf saves an
    uncompressed font. Writes nothing."""


def embed_image(pdf, img: Image.Image) -> str:
    """Put ``img`` (mode ``RGB`` or ``L``, opaque) into ``pdf`` once and return the key that
    places it: ``pdf.image(key, x=…, y=…, w=…, h=…)`` (mm) draws it at any size and position,
    as often as wanted, from the one embedded copy.

    The image is stored as its raw samples compressed with zlib at :data:`PDF_IMAGE_LEVEL`
    (``/FlateDecode`` without a predictor, ISO 32000-1 §7.4.4): one C call, instead of the PDF
    library's own path, which copies the samples three times, hashes them with MD5 and adds a
    predictor byte to every row in Python (0.2 s per 300 DPI A4 sheet, measured). The key is
    the image's number in this PDF, so the same input gives the same file.

    Raises:
        ValueError: ``img`` has another mode (flatten it first, e.g. :func:`with_bleed`).
    """
    import zlib

    from fpdf.image_datastructures import RasterImageInfo

    colours = {"RGB": (3, "DeviceRGB"), "L": (1, "DeviceGray")}.get(img.mode)
    if colours is None:
        raise ValueError(f"image mode {img.mode!r}: expected RGB or L (flatten transparency first)")
    dpn, space = colours
    key = f"gunbai-image-{len(pdf.image_cache.images) + 1}"
    info = RasterImageInfo(data=zlib.compress(img.tobytes(), PDF_IMAGE_LEVEL), w=img.width, h=img.height, cs=space, iccp=None, bpc=8, dpn=dpn,
                           f="FlateDecode", inverted=False, dp=f"/Colors {dpn} /Columns {img.width}")
    info["i"] = len(pdf.image_cache.images) + 1
    info["usages"] = 0
    info["iccp_i"] = None
    pdf.image_cache.images[key] = info
    return key


def embed_png(pdf, png: bytes) -> str:
    """Put the PNG file ``png`` into ``pdf`` once, as its compressed samples as they are, and
    return the key that places it (as :func:`embed_image`): PDF's Flate filter with the PNG
    predictors (``/Predictor 15``, ISO 32000-1 §7.4.4.4) reads a PNG's zlib stream of
    filtered rows unchanged, so nothing is decoded, filtered or compressed again. The PNG must
    be 8-bit RGB or grey, not interlaced (as :func:`pipeline.render.png.png_bytes` writes an
    opaque picture, e.g. one with its print bleed drawn around it).

    Raises:
        ValueError: ``png`` is not such a PNG file.
    """
    import struct

    from fpdf.image_datastructures import RasterImageInfo

    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, header, idat = 8, None, []
    while pos + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None or not idat:
        raise ValueError("PNG file without IHDR or IDAT")
    width, height, depth, colour_type, _compression, _filter, interlace = header
    colours = {2: (3, "DeviceRGB"), 0: (1, "DeviceGray")}.get(colour_type)
    if colours is None or depth != 8 or interlace != 0:
        raise ValueError(f"PNG colour type {colour_type}, {depth} bits, interlace {interlace}: expected 8-bit RGB or grey, not interlaced")
    dpn, space = colours
    n = len(pdf.image_cache.images) + 1
    info = RasterImageInfo(data=b"".join(idat), w=width, h=height, cs=space, iccp=None, bpc=8, dpn=dpn, f="FlateDecode", inverted=False,
                           dp=f"/Predictor 15 /Colors {dpn} /Columns {width}")
    info["i"] = n
    info["usages"] = 0
    info["iccp_i"] = None
    key = f"gunbai-image-{n}"
    pdf.image_cache.images[key] = info
    return key


def draw_pages(pdf, pages: list[Page], images: dict[str, Image.Image | bytes], spec: SheetSpec, *, footer: str = "") -> None:
    """Add ``pages`` to ``pdf``: each piece's image (with bleed, from ``images[name]``, the trim
    size without bleed) placed on its trim box grown by the bleed, then the cut marks (0.2 mm
    black), the page title (left) and ``footer`` (right) on the header line as vector text.
    Each image is embedded once (:func:`embed_image`), however many copies the pages place. An
    image given as PNG bytes is a picture with its bleed drawn already (:func:`bled_jobs`),
    embedded as it is (:func:`embed_png`)."""
    b = spec.bleed_mm
    placed: dict[str, str] = {}  # image name -> its key in the PDF, once embedded
    for pg in pages:
        pdf.add_page()
        for p in pg.pieces:
            if p.name not in placed:
                img = images[p.name]
                placed[p.name] = embed_png(pdf, img) if isinstance(img, bytes) else embed_image(pdf, with_bleed(img, round(b / p.w * img.width)))
            if p.rotate:  # the picture upright (its w × h is the box's h × w), turned about the box's centre
                cx, cy = p.x + p.w / 2, p.y + p.h / 2
                with pdf.rotation(p.rotate, x=cx, y=cy):
                    pdf.image(placed[p.name], x=cx - p.h / 2 - b, y=cy - p.w / 2 - b, w=p.h + 2 * b, h=p.w + 2 * b)
            else:
                pdf.image(placed[p.name], x=p.x - b, y=p.y - b, w=p.w + 2 * b, h=p.h + 2 * b)
        _marks_and_titles(pdf, pg, spec, footer)


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


#: Pixels per mm from which images are drawn for print: at 8 px/mm (200 DPI) and above a pixel is
#: at most 0.125 mm, so images are drawn without supersampling (text is anti-aliased by the font
#: engine anyway), which cuts the drawing time of the print sheets.
PRINT_PX_PER_MM = 8.0


def print_supersample(px_per_mm: float) -> int | None:
    """1 (no supersampling) for images drawn at print resolution (:data:`PRINT_PX_PER_MM` and
    above), else None (the drawing's default)."""
    return 1 if px_per_mm >= PRINT_PX_PER_MM else None


#: zlib level of the cached PNGs of print-resolution images: they are only ever decoded again
#: to go into a PDF (which compresses them itself), so they are stored at the fastest level.
PRINT_PNG_LEVEL = 1


def supersampled(jobs: dict, supersample: int | None) -> dict:
    """``jobs`` (name → :class:`~pipeline.render.cache.RenderJob`) drawn with ``supersample``
    and cached as PNG at :data:`PRINT_PNG_LEVEL` (``None``: not print resolution, unchanged)."""
    if supersample is None:
        return jobs
    return {n: replace(j, supersample=supersample, png_level=PRINT_PNG_LEVEL) for n, j in jobs.items()}


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


_decoded: dict[bytes, Image.Image] = {}
#: Most decoded images :func:`decode_pngs_shared` keeps (a 300 DPI board is 13 MB decoded).
DECODED_MEMO = 64


def decode_pngs_shared(pngs: dict[str, bytes]) -> dict[str, Image.Image]:
    """As :func:`decode_pngs`, but an image decoded before in this process (the same PNG bytes)
    is the same object: the board and counters every scenario map of a process repeats are
    decoded once. The images are shared: callers must not change them (copy first)."""
    out = {}
    for n, b in pngs.items():
        img = _decoded.get(b)
        if img is None:
            if len(_decoded) >= DECODED_MEMO:
                _decoded.clear()
            img = _decoded[b] = Image.open(io.BytesIO(b)).convert("RGBA")
        out[n] = img
    return out


def counter_pages(items: list[SheetItem], spec: SheetSpec, title: str) -> tuple[list[Page], list[Page]]:
    """Front pages and mirrored back pages of ``items`` (packed in blocks, a size turned a
    quarter where a page then holds more of it: :func:`pack`), titled ``<title>: front i/n`` and
    ``<title>: back i/n (print duplex, flip on long edge)``."""
    fronts = pack(items, spec=spec, rotate=True)
    backs = mirrored(fronts, spec, {it.name: it.back for it in items})
    for i, pg in enumerate(fronts):
        pg.title = f"{title}: front {i + 1}/{len(fronts)}"
    for i, pg in enumerate(backs):
        pg.title = f"{title}: back {i + 1}/{len(backs)} (print duplex, flip on long edge)"
    return fronts, backs


def bled_jobs(items: list[SheetItem], jobs: dict, opts: PrintOptions) -> dict:
    """The render jobs of a counter sheet's pictures with their print bleed drawn by the drawing
    processes (:class:`~pipeline.render.cache.RenderJob` ``bleed``: ``opts.bleed_mm`` over the
    width of the first piece showing the picture, front or back, as :func:`draw_pages` grows it)
    and their PNG compressed at :data:`PDF_IMAGE_LEVEL`, so that :func:`counters_pdf` embeds each
    file as it is (:func:`embed_png`): the same pixels as a picture drawn plainly and grown by
    :func:`with_bleed` in the process making the PDF, which then decoded it, grew it and
    compressed it again for each paper size. Jobs no piece shows are left as they are."""
    fraction: dict[str, float] = {}
    for it in items:
        fraction.setdefault(it.name, opts.bleed_mm / it.w)
        if it.back:
            fraction.setdefault(it.back, opts.bleed_mm / it.w)
    return {n: replace(j, bleed=fraction[n], png_level=PDF_IMAGE_LEVEL) if n in fraction else j for n, j in jobs.items()}


def counters_pdf(items: list[SheetItem], jobs: dict, cache, paper: str, opts: PrintOptions, *, title: str, pdf_title: str, footer: str,
                 text: str = "") -> bytes:
    """A counter sheet PDF on ``paper``: ``items`` (every copy, in order) packed with bleed and
    cut marks, in duplex order (front 1, back 1, front 2, back 2…, :func:`duplex`, each back page
    mirrored); images drawn from ``jobs`` (name → :class:`~pipeline.render.cache.RenderJob`)
    through ``cache`` (a :class:`~pipeline.render.cache.RenderCache`); a job with its ``bleed``
    (:func:`bled_jobs`) is embedded as its PNG file (:func:`embed_png`), any other is grown by
    :func:`with_bleed` here. The PDF itself is cached by content. ``text``: characters beyond
    Latin and kana the page texts use (kanji of a title).

    Raises:
        ValueError: a piece does not fit the printable area.
    """
    spec = opts.spec(paper)
    pngs = cache.render_all(jobs)
    fronts, backs = counter_pages(items, spec, title)
    pages = duplex(fronts, backs)
    key = digest("counters-pdf", asdict(opts), paper, title, pdf_title, footer, text, [[asdict(p) for p in pg.pieces] for pg in pages],
                 {n: hashlib.sha256(b).hexdigest() for n, b in sorted(pngs.items())})

    def make() -> bytes:
        images = {n: b if jobs[n].bleed is not None else decode_pngs({n: b})[n] for n, b in pngs.items()}
        pdf = new_pdf("P", paper, title=pdf_title, text=title + footer + text)
        draw_pages(pdf, pages, images, spec, footer=footer)
        return pdf_bytes(pdf)

    return cache.blob(f"counters_{paper}.pdf", key, make, ext="pdf")


def job_size(job, drawing) -> tuple[int, int]:
    """The pixel size a render job draws ``drawing`` at (its ``size``, or its canvas at its
    ``scale``)."""
    from pipeline.render.drawing import pixel_size

    return job.size or pixel_size(drawing, scale=job.scale if job.scale is not None else 1.0)


def draw_pages_vector(pdf, pages: list[Page], drawings: dict, spec: SheetSpec, *, footer: str = "") -> None:
    """Add ``pages`` to ``pdf`` as :func:`draw_pages` does, each piece drawn as vector content
    instead of a picture: ``drawings[name]`` is ``(Drawing, layout px per mm)``; every piece's
    bleed (:func:`pipeline.render.vector.draw_bleed_pdf`) round its trim box, then each
    piece's drawing on its trim box (over a butted neighbour's bleed), then the cut marks,
    title and footer."""
    from pipeline.render.vector import draw_bleed_pdf, draw_pdf

    b = spec.bleed_mm
    for pg in pages:
        pdf.add_page()
        for p in pg.pieces:  # every bleed first: butted pieces cover their neighbours' bleed
            draw_bleed_pdf(pdf, drawings[p.name][0], (p.x, p.y, p.w, p.h), b)
        for p in pg.pieces:
            drawing, L = drawings[p.name]
            draw_pdf(pdf, drawing, (p.x, p.y, p.w, p.h), L)
        _marks_and_titles(pdf, pg, spec, footer)


def _marks_and_titles(pdf, pg: Page, spec: SheetSpec, footer: str) -> None:
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


#: The page margin of card sheets (mm): the cards are butted in a grid whose cut marks lie in
#: the margin, and most printers print to within 4-5 mm of the edge, so nine cards of 63 × 88
#: mm fit an A4 page (a 10 mm margin holds four).
CARD_MARGIN_MM = 5.0
#: The cut marks' length on card sheets (mm), so the marks of a 3-card row fit A4's margin.
CARD_MARK_MM = 3.0


def card_spec(opts: PrintOptions, paper: str) -> SheetSpec:
    """The :class:`SheetSpec` of a card sheet: ``opts`` on ``paper`` with at most
    :data:`CARD_MARGIN_MM` of margin and :data:`CARD_MARK_MM` marks."""
    spec = opts.spec(paper)
    return replace(spec, margin_mm=min(spec.margin_mm, CARD_MARGIN_MM), mark_mm=min(spec.mark_mm, CARD_MARK_MM))


def card_pages(names: list[str], card_mm: tuple[float, float], spec: SheetSpec, title: str) -> list[Page]:
    """The pages of the cards ``names`` at ``card_mm``: butted in a grid (:func:`pack`,
    ``butted``), titled ``<title> i/n``."""
    pages = pack([SheetItem(n, *card_mm) for n in names], spec=spec, butted=True) if names else []
    for i, pg in enumerate(pages):
        pg.title = f"{title} {i + 1}/{len(pages)}"
    return pages


def cards_pdf(card_jobs: dict, card_mm: tuple[float, float], page_jobs: dict, cache, paper: str, opts: PrintOptions, *, title: str, pdf_title: str,
              caption: str, name: str = "cards.pdf", text: str = "") -> bytes:
    """A cards PDF of vector pages: the ``card_jobs`` drawings at ``card_mm`` (w, h) with bleed and
    cut marks, packed on pages titled ``<title> i/n``, then each of ``page_jobs`` on its own page
    fitted to the printable area, captioned ``<caption> · <its name>``. Each drawing is drawn
    as paths and real text (:func:`pipeline.render.vector.draw_pdf`), its text laid out as the
    job's raster picture (its pixel size over its printed size) lays it out; no picture is
    drawn or embedded. Cached by content (the drawings' YAML) under ``name``. ``text``:
    characters beyond Latin and kana the pages use (the font subset).

    Raises:
        RenderError: a drawing is invalid. ValueError: a card does not fit the printable area.
    """
    spec = card_spec(opts, paper)
    x0, y0, x1, y1 = spec.margin_mm, spec.margin_mm + spec.header_mm, spec.size[0] - spec.margin_mm, spec.size[1] - spec.margin_mm
    pages = card_pages(list(card_jobs), card_mm, spec, title)
    r = cache.renderer
    jobs = {**card_jobs, **page_jobs}
    key = digest("cards-vector-pdf", vector_key(), asdict(opts), paper, title, pdf_title, caption, text, card_mm, list(card_jobs), list(page_jobs),
                 {n: [j.template, r.render_yaml(j.template, j.context), j.size, j.scale] for n, j in sorted(jobs.items())})

    def make() -> bytes:
        from pipeline.render.vector import draw_pdf

        drawings = {n: job_drawing(cache, j) for n, j in jobs.items()}
        sizes = {n: job_size(jobs[n], d) for n, d in drawings.items()}
        pdf = new_pdf("P", paper, title=pdf_title, text=title + caption + text)
        draw_pages_vector(pdf, pages, {n: (drawings[n], sizes[n][0] / card_mm[0]) for n in card_jobs}, spec,
                          footer=f"{paper.upper()} · cards {card_mm[0]:g} × {card_mm[1]:g} mm")
        for n in page_jobs:
            pw, ph = sizes[n]
            w = x1 - x0
            h = w * ph / pw
            if h > y1 - y0:
                h = y1 - y0
                w = h * pw / ph
            pdf.add_page()
            pdf.set_font("noto", "B", 10)
            pdf.text(x0, spec.margin_mm + 4, f"{caption} · " + n.removesuffix(".png").removeprefix("card_").replace("_", " "))
            draw_pdf(pdf, drawings[n], (x0, y0, w, h), pw / w)
        return pdf_bytes(pdf)

    return cache.blob(name, key, make, ext="pdf")


def vector_key() -> str:
    """SHA-256 (hex) of the code that turns drawings into vector PDF pages
    (:mod:`pipeline.render.vector`, the layout code of :mod:`pipeline.render.drawing`, this
    module and the fonts): part of the cache key of every vector PDF, so a change to it makes
    them again."""
    global _vector_key
    if _vector_key is None:
        here = Path(__file__).resolve().parent
        h = hashlib.sha256()
        for n in ("vector.py", "drawing.py", "sheets.py", "fonts.py"):
            h.update(n.encode() + b"\0" + (here / n).read_bytes())
        _vector_key = h.hexdigest()
    return _vector_key


_vector_key: str | None = None


_drawings: dict[str, object] = {}
#: Most parsed drawings :func:`job_drawing` keeps per process.
DRAWING_MEMO = 256


def job_drawing(cache, job):
    """The parsed :class:`~pipeline.render.drawing.Drawing` of ``job`` (a
    :class:`~pipeline.render.cache.RenderJob`) through ``cache``'s renderer: a drawing parsed
    before in this process (the same rendered YAML: a board every scenario sheet repeats) is the
    same object, and a long drawing's loaded YAML is kept as JSON in the cache folder for other
    processes (:func:`pipeline.render.templates.parse_drawing_text`). Drawings are shared:
    callers must not change them.

    Raises:
        RenderError: the template fails or its output is not a valid drawing.
    """
    return text_drawing(cache, cache.renderer.render_yaml(job.template, job.context), job.template)


def text_drawing(cache, text: str, template: str):
    """The parsed :class:`~pipeline.render.drawing.Drawing` of ``text``, the YAML ``template``
    rendered (:meth:`pipeline.render.templates.TemplateRenderer.render_yaml`), as :func:`job_drawing`
    gives it: for a caller that has the text already (it rendered it for a cache key), so the
    template's context is not looked up again. Drawings are shared: callers must not change them.

    Raises:
        RenderError: the text is not a valid drawing (``template`` names it in the error).
    """
    from pipeline.render.cache import DOCS_DIR
    from pipeline.render.templates import parse_drawing_text

    drawing = _drawings.get(text)
    if drawing is None:
        if len(_drawings) >= DRAWING_MEMO:
            _drawings.clear()
        docs = cache.folder / DOCS_DIR if cache.folder is not None else None
        drawing = _drawings[text] = parse_drawing_text(text, template, docs)
    return drawing


def jobs_text(jobs, templates: Path, folders: Iterable[str] = ("common",)) -> str:
    """Every character beyond ASCII the drawings of ``jobs`` (render jobs) can show, sorted,
    each once: those of their contexts and of their templates' folders and ``folders`` under
    ``templates`` (text a template writes itself). One PDF font subset of these serves every
    print file of a build."""
    parts = [json.dumps(j.context, ensure_ascii=False, default=str) for j in jobs]
    names = sorted({j.template.split("/")[0] for j in jobs} | set(folders))
    parts += [f.read_text(encoding="utf-8") for n in names for f in sorted((templates / n).glob("*.j2"))]
    return "".join(sorted({c for p in parts for c in p if ord(c) > 0x7E and c.isprintable()}))


def vector_pdf(key: str, layers: Callable[[], list], size_mm: tuple[float, float], cache, *, name: str, title: str, text: str = "",
               layout_px_per_mm: float = 300 / MM_PER_INCH) -> bytes:
    """A one-page PDF of ``size_mm`` (A4 landscape is 297 × 210) drawn as vector content: each
    of ``layers()`` (a list of ``(Drawing, (x, y, w, h) mm)`` or ``(Drawing, box, degrees
    clockwise)``, called only when the PDF is not cached) drawn in order by :func:`pipeline.render.vector.draw_pdf`, its text laid out as the
    raster renderer lays it out at ``layout_px_per_mm`` (the 300 DPI print raster by default).
    No image is embedded: every shape is a path, every text real text in the embedded font
    subset. The page's TrimBox and BleedBox are the whole page (a full-page sheet has no
    bleed). ``key`` is the content hash of the layers; the PDF is cached under ``name``.
    ``text``: the characters beyond Latin and kana the page shows (the font subset holds them;
    give every file of a build the same ``text`` and one subset serves them all).

    Raises:
        RenderError: a drawing cannot be drawn.
    """
    pdf_key = digest("vector-pdf", vector_key(), name, title, text, size_mm, layout_px_per_mm, key)

    def make() -> bytes:
        from pipeline.render.vector import draw_pdf

        w, h = size_mm
        paper = next((k for k, v in PAPER.items() if {round(v[0], 1), round(v[1], 1)} == {round(w, 1), round(h, 1)}), "a4")
        pdf = new_pdf("L" if w > h else "P", paper, title=title, text=text)
        pdf.add_page()
        set_print_boxes(pdf, 0.0)
        for drawing, box, *turn in layers():
            draw_pdf(pdf, drawing, box, layout_px_per_mm, *turn)
        return pdf_bytes(pdf)

    return cache.blob(name, pdf_key, make, ext="pdf")


def set_print_boxes(pdf, bleed_mm: float) -> None:
    """Give the current page of ``pdf`` a TrimBox (the page less ``bleed_mm`` on every side) and a
    BleedBox (the whole page) beside its MediaBox, in points (ISO 32000-1 §14.11.2).

    fpdf has no setter for page boxes; its page object writes its ``media_box`` text after
    ``/MediaBox`` as it is (and keeps it when the page has the document's size), so the two
    other boxes are written in that text."""
    w, h = pdf.w * pdf.k, pdf.h * pdf.k
    b = bleed_mm * pdf.k
    page = pdf.pages[pdf.page]
    page.media_box = f"[0 0 {w:.2f} {h:.2f}] /BleedBox [0 0 {w:.2f} {h:.2f}] /TrimBox [{b:.2f} {b:.2f} {w - b:.2f} {h - b:.2f}]"


class PendingFiles(dict):
    """The print files of one system not made yet (name → maker), as :func:`print_files` returns
    them inside :func:`print_files_together`: :func:`write_files` registers them, and they are
    made and written when the block ends, with every other system's, by one set of forked
    processes. ``subsets``: waits until their font subsets are cut (called before forking)."""

    def __init__(self, makers: dict[str, Callable[[], bytes]], subsets: Callable[[], None] = lambda: None):
        super().__init__(makers)
        self.subsets = subsets


#: Print files registered by :func:`write_files` inside :func:`print_files_together`: a list of
#: (folder, pending files), or ``None`` outside such a block.
_together: list[tuple[Path, PendingFiles]] | None = None


@contextmanager
def print_files_together() -> Iterator[None]:
    """Make the print files of every system written inside this block at its end, all at once
    on :func:`pipeline.render.parallel.fork_map`'s forked processes (one per core), instead of
    forking processes for each system's files (``gunbai build`` of several systems: two forks
    instead of eight, each child loading the PDF library and fonts once, and no core idle at the
    tail of each system's files). Inside it, :func:`print_files` still draws a system's images
    at once, starts cutting its font subsets on the drawing processes (this process goes on to
    the next system meanwhile; they are waited for at the block's end, before forking), and
    :func:`write_files` returns the paths it will write; the files are written (in the running transaction, unchanged ones left alone) when the
    block ends without an exception, and dropped when it raises. The bytes are the same as made
    one system at a time (each file's maker is the same callable). Nested blocks are one block.

    Raises:
        Exception: the exception of the first failing maker (in the order the files were
            registered), re-raised at the end of the block.
    """
    global _together
    if _together is not None:
        yield
        return
    _together = []
    try:
        yield
        batch = _together
    finally:
        _together = None
    for _folder, files in batch:
        files.subsets()
    makers = {(folder, n): m for folder, files in batch for n, m in files.items()}
    if not makers:
        return
    from pipeline import progress
    from pipeline.render.parallel import fork_map

    keys = list(makers)
    # the step of the systems whose files these are (the last system's own step is over)
    systems = list(dict.fromkeys(folder.parent.name for folder, _files in batch))
    progress.step(", ".join(systems), "writing the print files")
    made = fork_map({str(i): makers[k] for i, k in enumerate(keys)},
                    on_done=lambda done, total: progress.count(done, total, "print files"))
    for i, (folder, n) in enumerate(keys):
        _write_one(folder / n, made[str(i)])


def print_files(cache, jobs: dict, makers: dict[str, Callable[[], bytes]], text: str = "") -> dict[str, bytes]:
    """Make a system's print files: every image they need (``jobs``, name →
    :class:`~pipeline.render.cache.RenderJob`) is drawn first, at once on every core, into the
    render ``cache``; the PDF font subsets with the characters of ``text`` are cut once; then each
    file's maker (a callable returning its bytes, reading its images back from the cache) runs in
    one of the forked processes, one per core (:func:`pipeline.render.parallel.fork_map`), with progress.
    Inside :func:`print_files_together` the makers are not run: a :class:`PendingFiles` of them
    is returned, for :func:`write_files`.

    Returns:
        File name → bytes, in the order of ``makers``.

    Raises:
        RenderError: a drawing is invalid. ValueError: a piece does not fit its page.
    """
    from pipeline import progress
    from pipeline.render.fonts import (
        keep_subsets_in,
        prepare_pdf_subsets,
        prepare_pdf_subsets_later,
    )
    from pipeline.render.parallel import fork_map

    cache.render_all(jobs)
    if cache.folder is not None:
        keep_subsets_in(cache.folder / "fonts")
    if _together is not None:
        # the subsets are cut on the drawing processes while this process goes on (the next
        # system's data); the block's end waits for them before forking the PDF makers
        return PendingFiles(makers, subsets=prepare_pdf_subsets_later(text))
    prepare_pdf_subsets(text)
    return fork_map(makers, on_done=lambda done, total: progress.count(done, total, "print files"))


def write_files(files: dict[str, bytes], folder: Path) -> list[Path]:
    """Write ``files`` (name → bytes) into ``folder`` atomically, leaving unchanged files alone;
    returns the paths. A :class:`PendingFiles` (inside :func:`print_files_together`) is written
    at the end of that block."""
    if isinstance(files, PendingFiles):
        if _together is None:
            raise RuntimeError("pending print files outside print_files_together()")
        _together.append((folder, files))
        return [folder / n for n in files]
    return [_write_one(folder / n, data) for n, data in files.items()]


def _write_one(path: Path, data: bytes) -> Path:
    from pipeline.output import write_bytes_atomic

    if not (path.is_file() and path.read_bytes() == data):
        write_bytes_atomic(path, data)
    return path
