"""Designed reference cards for any game system: a header band and blocks (numbered steps,
tables with troop symbols or colour swatches, bulleted notes, die-roll tables, stacked bars)
laid out top to bottom and drawn by ``templates/common/card.yaml.j2``.

A card is built in Python as a :class:`Card` of blocks; :meth:`Card.job` lays the blocks out
(each block's height is given or computed from its rows) and returns the render job. Sizes are
card pixels at 1x (the default card is 600 × 840, a poker card's proportions).

Example::

    >>> c = Card("Sequence", blocks=[Steps("Each turn", ["Move", "Shoot"])])
    >>> job = c.job()
    >>> job.context["blocks"][0]["kind"], job.size
    ('steps', (600, 840))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from pipeline.render.cache import RenderJob

HEADER = 128
TITLE = 38
#: The blocks' margin on either side of the card (``X0`` of ``templates/common/card.yaml.j2``).
MARGIN = 28
#: Width a card prints at, mm, unless it says otherwise (:attr:`Card.print_mm`): 90 mm, so
#: that the 600-unit card's texts reach the 7 pt print floor at 16.5 units (at 63 mm they would
#: need 23.5, more than the card's body text).
PRINT_MM = 90.0


@dataclass
class Steps:
    """Numbered steps, ``step_h`` pixels each."""

    title: str
    items: list[str]
    step_h: float = 40

    def height(self) -> float:
        return (TITLE if self.title else 0) + self.step_h * len(self.items)

    def context(self) -> dict[str, Any]:
        return {"kind": "steps", "title": self.title, "items": self.items}


#: A table cell's text keeps this many units from its column's left rule, and ``CELL_PAD`` in all
#: (left and right, ``templates/common/card.yaml.j2``); a header label keeps ``HEAD_PAD``.
CELL_LEFT = 8
CELL_PAD = 14
HEAD_PAD = 12
#: Units a cell's text keeps from the rules above and below its row, in all.
ROW_PAD = 10
#: Body and header text sizes of a table, and the line pitch of a wrapped cell (the template's).
CELL_SIZE = 15
HEAD_SIZE = 14
LINE_HEIGHT = 1.1


def _text_w(text: str, size: float, bold: bool) -> float:
    """Width in units of one line of ``text`` at ``size`` (measured at 8 pixels per unit, as
    the fit checks and the template's ``fit_size`` measure)."""
    from pipeline.render.drawing import text_length

    return text_length(text, max(1, round(size * 8)), bold) / 8


def _text_h(text: str, size: float, bold: bool, width: float) -> float:
    """Height in units of ``text`` wrapped at ``width`` at ``size``, never shrunk."""
    from pipeline.render.drawing import _layout_text

    lines, s = _layout_text({"text": text, "size": size, "bold": bold, "max_width": width, "max_height": None, "wrap": True,
                             "line_height": LINE_HEIGHT, "min_size": size}, 8.0)
    # the lines as the template breaks them (at 8 px a unit), their height at the exact size
    # (a renderer at a finer scale sets the size a little larger than 8 px a unit rounds it to)
    return (len(lines) - 1) * size * LINE_HEIGHT + size


@dataclass
class Table:
    """A table: ``columns`` as ``(label, width fraction)``; each row a list of cells, a cell a
    string or ``{text, symbol, swatch, bold, size}``; ``tints`` colours rows (``None``: banded).
    ``floor`` is the card's smallest text size (:attr:`Card.floor`, set by the card): no text
    of the table is set under it.

    Without ``fit`` every row is one height, ``row_h`` or more where a cell's text needs more
    at the floor, every column its fraction of the width, and the template sets a column's
    cells at the one size its most crowded cell fits at. With ``fit`` the table is sized to its
    text, which is never shrunk (:meth:`measure`): each column at least as wide as its widest
    line (a cell's ``\\n`` lines, its header), each row as high as its most wrapped cell
    (``row_h`` at least), so every cell is set at its size (the floor at the least)."""

    title: str
    columns: list[tuple[str, float]]
    rows: list[list[Any]]
    row_h: float = 46
    tints: list[str | None] | None = None
    fit: bool = False
    floor: float = 0.0

    def cells(self) -> list[list[dict[str, Any]]]:
        """The rows' cells as dicts ``{text, symbol, swatch, bold, size}``."""
        out = []
        for r in self.rows:
            cells = [c if isinstance(c, dict) else {"text": str(c)} for c in r]
            out.append([{"text": c.get("text", ""), "symbol": c.get("symbol"), "swatch": c.get("swatch"), "bold": c.get("bold", False), "size": c.get("size")} for c in cells])
        return out

    def inset(self) -> float:
        """Units a swatch or troop symbol takes before its cell's text, beyond ``CELL_LEFT`` (the
        template's: the mark is ``row_h - 12`` high, at most 54, and the text starts 14 after it)."""
        return min(self.row_h - 12, 54) + 6

    def measure(self, inner_w: float) -> tuple[list[float], list[float]]:
        """The column widths and row heights (units) in a table ``inner_w`` wide.

        Without ``fit``: the columns' fractions of ``inner_w``, and every row ``row_h`` or, when
        a cell's text wrapped at its column's width needs more at the smallest size the
        template sets it (``floor``, 8 at the least), that height plus :data:`ROW_PAD`. With
        ``fit``, column ``i`` needs ``need[i]``, its widest line unwrapped plus the cell
        padding: when the needs fit, each column gets its need and the width left over in
        proportion to its fraction; when they do not, the excess is taken from the columns
        whose texts wrap, each in proportion to what wrapping spares it (its need less that of
        its longest word), so that a column of single words keeps its need. Each row is then as high as its highest cell wrapped at its column's width
        at its size (never under ``floor``), plus :data:`ROW_PAD`, and ``row_h`` at least.

        Example (a column that needs 100 of a 300 wide table and one that needs 150, fractions
        0.5 and 0.5: each gets its need and half of the 50 left)::

            widths = [100 + 25, 150 + 25]
        """
        frac = [w for _, w in self.columns]
        cells = self.cells()
        inset = [[self.inset() if (c["swatch"] or c["symbol"]) else 0.0 for c in r] for r in cells]
        if not self.fit:
            widths = [f * inner_w for f in frac]
            least = max(8.0, self.floor)
            h = self.row_h
            if self.floor:
                for j, r in enumerate(cells):
                    for i, c in enumerate(r[:len(widths)]):
                        if c["text"].strip():
                            w = widths[i] - CELL_PAD - inset[j][i]
                            h = max(h, _text_h(c["text"], least, c["bold"], w) + ROW_PAD)
            return widths, [math.ceil(h * 100 - 1e-6) / 100] * len(self.rows)
        size = [[max(c["size"] or CELL_SIZE, self.floor) for c in r] for r in cells]
        def widest(i: int, pieces: Callable[[str], list[str]]) -> float:
            # column i's header, or the widest of its cells' pieces (lines or words) unwrapped,
            # with the cell padding and half a unit of slack for rounding to pixels
            label = self.columns[i][0]
            n = _text_w(label, max(HEAD_SIZE, self.floor), True) + HEAD_PAD if label else 0.0
            for j, r in enumerate(cells):
                for piece in pieces(r[i]["text"]):
                    n = max(n, _text_w(piece, size[j][i], r[i]["bold"]) + CELL_PAD + inset[j][i])
            return n + 0.5

        need = [widest(i, lambda s: s.split("\n")) for i in range(len(self.columns))]
        if sum(need) <= inner_w:
            left = inner_w - sum(need)
            widths = [n + left * f / sum(frac) for n, f in zip(need, frac, strict=True)]
        else:
            # too wide: the columns whose texts can wrap give up the excess, each in proportion
            # to what wrapping can spare (its need less its longest word's), so a column of
            # single words (a stat, a points value) keeps its whole need
            word = [min(widest(i, str.split), need[i]) for i in range(len(self.columns))]
            spare = [n - wd for n, wd in zip(need, word, strict=True)]
            excess = sum(need) - inner_w
            if sum(spare) >= excess:
                widths = [n - excess * sp / sum(spare) for n, sp in zip(need, spare, strict=True)]
            else:  # cannot fit even wrapped: each column short in proportion (the fit check refuses it)
                widths = [n * inner_w / sum(need) for n in need]
        heights = []
        for j, r in enumerate(cells):
            h = self.row_h
            for i, c in enumerate(r):
                if c["text"].strip():
                    w = widths[i] - CELL_PAD - inset[j][i]
                    h = max(h, _text_h(c["text"], size[j][i], c["bold"], w) + ROW_PAD)
            heights.append(math.ceil(h * 100 - 1e-6) / 100)
        return widths, heights

    def height(self, inner_w: float = 544) -> float:
        return (TITLE if self.title else 0) + 30 + sum(self.measure(inner_w)[1])

    def context(self, inner_w: float = 544) -> dict[str, Any]:
        widths, heights = self.measure(inner_w)
        rows = []
        dy = 0.0
        for i, (cells, h) in enumerate(zip(self.cells(), heights, strict=True)):
            rows.append({"cells": cells, "tint": (self.tints[i] if self.tints else None), "dy": round(dy, 2), "h": h})
            dy += h
        return {"kind": "table", "title": self.title, "row_h": self.row_h, "body_h": round(dy, 2), "fit": self.fit,
                "columns": [{"label": lb, "w": round(w / inner_w, 6)} for (lb, _), w in zip(self.columns, widths, strict=True)], "rows": rows}


@dataclass
class Notes:
    """Bulleted paragraphs in a box of ``h`` pixels (shrunk to fit)."""

    title: str
    items: list[str]
    h: float = 160
    size: float = 16

    def height(self) -> float:
        return self.h

    def needed(self, width: float, floor: float) -> float:
        """The height the items take at their size (at least ``floor``, as the template sets
        them) in a card ``width`` units wide inside its margins, title included: what the block
        must have for its text never to shrink."""
        from pipeline.render.drawing import paragraphs_height

        if not self.items:
            return TITLE if self.title else 0.0
        size = max(self.size, floor)
        items = [{"text": t, "size": size, "bullet": "•", "indent": 20, "space_before": 5} for t in self.items]
        return (TITLE if self.title else 0) + paragraphs_height(items, width - 8) + 2

    def context(self) -> dict[str, Any]:
        return {"kind": "notes", "title": self.title, "items": self.items, "size": self.size}


@dataclass
class Dice:
    """A die-roll table: one row per case (``label``, one ``(text, colour)`` per face)."""

    title: str
    rows: list[tuple[str, list[tuple[str, str]]]]
    legend: list[tuple[str, str]] = field(default_factory=list)
    faces: int = 6
    row_h: float = 40

    def height(self) -> float:
        return (TITLE if self.title else 0) + 36 + self.row_h * len(self.rows) + (40 if self.legend else 0)

    def context(self) -> dict[str, Any]:
        return {"kind": "dice", "title": self.title, "faces": self.faces, "row_h": self.row_h,
                "rows": [{"label": lb, "cells": [{"text": t, "colour": c} for t, c in cells]} for lb, cells in self.rows],
                "legend": [{"text": t, "colour": c} for t, c in self.legend]}


@dataclass
class Bars:
    """Stacked horizontal bars: each row ``(label, [(fraction, colour, text)])``."""

    title: str
    rows: list[tuple[str, list[tuple[float, str, str]]]]
    row_h: float = 30

    def height(self) -> float:
        return (TITLE if self.title else 0) + self.row_h * len(self.rows)

    def context(self) -> dict[str, Any]:
        return {"kind": "bars", "title": self.title, "row_h": self.row_h,
                "rows": [{"label": lb, "parts": [{"frac": round(f, 6), "colour": c, "text": t} for f, c, t in parts]} for lb, parts in self.rows]}


Block = Steps | Table | Notes | Dice | Bars


@dataclass
class Card:
    """A card: ``title``, optional ``subtitle`` and ``kanji`` in the header band of ``colour``,
    the blocks, a ``footer`` (sources), ``size`` in pixels. A :class:`Notes` block whose ``h`` is
    0 takes the height left over."""

    title: str
    blocks: list[Block]
    subtitle: str = ""
    kanji: str = ""
    colour: str = "#7a1f14"
    footer: str = ""
    size: tuple[int, int] = (600, 840)
    gap: float = 16
    print_mm: float = PRINT_MM

    @property
    def floor(self) -> float:
        """The smallest text size in card units: 7 pt printed :attr:`print_mm` wide and 8 px on
        the VASSAL image, drawn at least a pixel a unit (:func:`pipeline.render.legible.min_units`)."""
        from pipeline.render.legible import PT_PER_MM, min_units

        return min_units(per_screen_px=1.0, per_print_pt=self.print_mm * PT_PER_MM / self.size[0])

    def footer_lines(self) -> int:
        """How many lines the footer takes at the card's smallest size (0: none)."""
        from pipeline.render.drawing import wrap_text

        if not self.footer:
            return 0
        return len(wrap_text(self.footer, round(max(12, self.floor) * 10), False, (self.size[0] - 72) * 10))

    def room(self) -> float:
        """The height the blocks share: the card less its header band and its footer (at least
        60 units; more for a footer of more than two lines at the smallest size)."""
        return self.size[1] - HEADER - self._bottom()

    def _bottom(self) -> float:
        return max(60.0, 24 + self.footer_lines() * max(12, self.floor) * 1.1)

    def _inner(self) -> float:
        """The blocks' width: the card less its two margins (:data:`MARGIN`)."""
        return self.size[0] - 2 * MARGIN

    def _set_floor(self) -> None:
        """Give each table the card's smallest text size (its rows are sized to their text there)."""
        for b in self.blocks:
            if isinstance(b, Table):
                b.floor = self.floor

    def _min_height(self, b: Block) -> float:
        if isinstance(b, Notes):
            need = b.needed(self._inner(), self.floor)
            return need if b.h == 0 else max(b.h, need)
        if isinstance(b, Table):
            return b.height(self._inner())
        return b.height()

    def pages(self) -> list[Card]:
        """The card, or the card and its continuations when its blocks, each at its full size
        (a table's rows grown to fit their text at the smallest size, a notes block as tall as
        its items), need more room than one card has: blocks are placed in order, and one that
        does not fit the room left is split between its rows (a table, its column heads
        repeated) or items (notes) when at least one fits, else moved to the next card. Each
        continuation has the same header, numbered ``(2)``, ``(3)``…, and footer."""
        self._set_floor()
        room = self.room()
        pages: list[list[Block]] = [[]]
        used = 0.0
        queue = list(self.blocks)
        while queue:
            b = queue.pop(0)
            gap = self.gap if pages[-1] else 0.0
            need = self._min_height(b)
            if used + gap + need <= room + 1e-6:
                pages[-1].append(b)
                used += gap + need
                continue
            head, rest = self._split(b, room - used - gap)
            if head is not None:
                pages[-1].append(head)
                queue.insert(0, rest)
            elif not pages[-1]:
                pages[-1].append(b)  # alone on a card and still too tall: layout() says so
                continue
            else:
                queue.insert(0, b)
            pages.append([])
            used = 0.0
        pages = [p for p in pages if p]
        if len(pages) == 1:
            return [self]
        return [replace(self, title=self.title if i == 0 else f"{self.title} ({i + 1})", blocks=p) for i, p in enumerate(pages)]

    def _split(self, b: Block, left: float) -> tuple[Block | None, Block]:
        """The part of ``b`` that fits ``left`` units and the rest (``None``: no part fits)."""
        if isinstance(b, Table) and len(b.rows) > 1:
            tints = b.tints
            # the most rows that fit (a fitted table's columns are measured again for its part)
            for n in range(len(b.rows) - 1, 0, -1):
                head = replace(b, rows=b.rows[:n], tints=tints[:n] if tints else None)
                if self._min_height(head) <= left + 1e-6:
                    return head, replace(b, rows=b.rows[n:], tints=tints[n:] if tints else None)
        if isinstance(b, Notes) and len(b.items) > 1:
            for n in range(len(b.items) - 1, 0, -1):
                head = replace(b, items=b.items[:n], h=0)
                if self._min_height(head) <= left + 1e-6:
                    return head, replace(b, items=b.items[n:], h=0)
        return None, b

    def layout(self) -> list[dict[str, Any]]:
        """Each block's context with its ``y`` and ``h``: a table's rows grown to fit their
        text at the card's smallest size, a notes block at least as tall as its items; notes
        whose ``h`` is 0 share the height left over.

        Raises:
            ValueError: the blocks do not fit the card (:meth:`pages` splits such a card).
        """
        self._set_floor()
        room = self.room() - self.gap * (len(self.blocks) - 1)
        flex = [b for b in self.blocks if isinstance(b, Notes) and b.h == 0]
        mins = {id(b): self._min_height(b) for b in self.blocks}
        fixed = sum(mins[id(b)] for b in self.blocks if b not in flex)
        least = sum(mins[id(b)] for b in flex)
        if fixed + least > room + 1e-6:
            raise ValueError(f"card {self.title!r}: the blocks need {fixed + least:.0f} px, the card has {room:.0f}")
        spare = (room - fixed - least) / len(flex) if flex else 0.0
        y = HEADER + 12.0
        out = []
        for b in self.blocks:
            bh = mins[id(b)] + spare if b in flex else mins[id(b)]
            ctx = b.context(self._inner()) if isinstance(b, Table) else b.context()
            ctx.update(y=round(y, 2), h=round(bh, 2))
            out.append(ctx)
            y += bh + self.gap
        return out

    def job(self, scale: float = 1.0) -> RenderJob:
        """The render job at ``scale`` (1 = ``size`` pixels)."""
        w, h = self.size
        ctx = {"card": {"width": w, "height": h, "title": self.title, "subtitle": self.subtitle, "kanji": self.kanji, "colour": self.colour, "footer": self.footer,
                        "floor": self.floor, "footer_y": round(h - self._bottom() / 2 + 2, 2), "footer_h": round(self._bottom() - 20, 2)},
               "blocks": self.layout()}
        return RenderJob("common/card.yaml.j2", ctx, size=(round(w * scale), round(h * scale)))


def paged(named: dict[str, Card]) -> dict[str, Card]:
    """``named`` (image name → card) with each card that needs more than one card's room
    followed by its continuations (:meth:`Card.pages`), named ``<name>_2.png``, ``_3``…"""
    out: dict[str, Card] = {}
    for name, card in named.items():
        for i, page in enumerate(card.pages()):
            out[name if i == 0 else f"{name.removesuffix('.png')}_{i + 1}.png"] = page
    return out
