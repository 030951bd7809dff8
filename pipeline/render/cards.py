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

from dataclasses import dataclass, field
from typing import Any

from pipeline.render.cache import RenderJob

HEADER = 128
TITLE = 38


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


@dataclass
class Table:
    """A table: ``columns`` as ``(label, width fraction)``; each row a list of cells, a cell a
    string or ``{text, symbol, swatch, bold, size}``; ``tints`` colours rows (``None``: banded)."""

    title: str
    columns: list[tuple[str, float]]
    rows: list[list[Any]]
    row_h: float = 46
    tints: list[str | None] | None = None

    def height(self) -> float:
        return (TITLE if self.title else 0) + 30 + self.row_h * len(self.rows)

    def context(self) -> dict[str, Any]:
        rows = []
        for i, r in enumerate(self.rows):
            cells = [c if isinstance(c, dict) else {"text": str(c)} for c in r]
            cells = [{"text": c.get("text", ""), "symbol": c.get("symbol"), "swatch": c.get("swatch"), "bold": c.get("bold", False), "size": c.get("size")} for c in cells]
            rows.append({"cells": cells, "tint": (self.tints[i] if self.tints else None)})
        return {"kind": "table", "title": self.title, "row_h": self.row_h, "columns": [{"label": lb, "w": w} for lb, w in self.columns], "rows": rows}


@dataclass
class Notes:
    """Bulleted paragraphs in a box of ``h`` pixels (shrunk to fit)."""

    title: str
    items: list[str]
    h: float = 160
    size: float = 16

    def height(self) -> float:
        return self.h

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

    def layout(self) -> list[dict[str, Any]]:
        """Each block's context with its ``y`` and ``h``.

        Raises:
            ValueError: the blocks do not fit the card.
        """
        w, h = self.size
        room = h - HEADER - 60 - self.gap * (len(self.blocks) - 1)
        fixed = sum(b.height() for b in self.blocks if not (isinstance(b, Notes) and b.h == 0))
        flex = [b for b in self.blocks if isinstance(b, Notes) and b.h == 0]
        if fixed > room + 1e-6 or (flex and fixed >= room):
            raise ValueError(f"card {self.title!r}: the blocks need {fixed:.0f} px, the card has {room:.0f}")
        each = (room - fixed) / len(flex) if flex else 0.0
        y = HEADER + 12.0
        out = []
        for b in self.blocks:
            bh = each if b in flex else b.height()
            ctx = b.context()
            ctx.update(y=round(y, 2), h=round(bh, 2))
            out.append(ctx)
            y += bh + self.gap
        return out

    def job(self, scale: float = 1.0) -> RenderJob:
        """The render job at ``scale`` (1 = ``size`` pixels)."""
        w, h = self.size
        ctx = {"card": {"width": w, "height": h, "title": self.title, "subtitle": self.subtitle, "kanji": self.kanji, "colour": self.colour, "footer": self.footer},
               "blocks": self.layout()}
        return RenderJob("common/card.yaml.j2", ctx, size=(round(w * scale), round(h * scale)))
