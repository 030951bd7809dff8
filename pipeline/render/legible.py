"""The smallest text a player can read, and the check that every template keeps to it.

A template gives each text a size and, when the text comes from the data and has a box, a
smallest size it may shrink to (``min_size`` of a ``text``, ``min_scale`` of a ``paragraphs``
block; see :mod:`pipeline.render.drawing`). Those smallest sizes are in the drawing's units; how
large they come out depends on where the drawing is shown. Two floors, one per medium:

- :data:`MIN_SCREEN_PX`: the em height in pixels of any text in an image VASSAL shows at 100 %
  zoom (a 55 px unit counter, a 38 px leader disc, a 42 px marker);
- :data:`MIN_PRINT_PT`: the em height in points of any text on a printed page.

:func:`floor_problems` finds every text of a drawing whose smallest size, at the given pixels
(or points) per unit, is under the floor. A template that passes it lets no text shrink below
the floor, so the data checks of :mod:`pipeline.render.fit` (which lay every data text out at
its smallest size) refuse a name or rule that could only fit smaller.

    >>> from pipeline.render.drawing import parse_drawing
    >>> d = parse_drawing({"canvas": {"width": 100, "height": 100},
    ...                    "shapes": [{"text": {"x": 50, "y": 50, "text": "WIND", "size": 19, "max_width": 52, "min_size": 10}}]})
    >>> [(p.where, round(p.smallest, 2)) for p in floor_problems(d, 0.42, MIN_SCREEN_PX)]
    [('shapes[0]', 4.2)]
    >>> floor_problems(d, 0.9, MIN_SCREEN_PX)
    []
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.render.drawing import Drawing, Shape

#: Smallest em height of a text in a VASSAL image at 100 % zoom, in pixels (this project's
#: choice: at 8 px a kanji such as 総 keeps its strokes apart; at 5 px it was a blot).
MIN_SCREEN_PX = 8.0
#: Smallest em height of a text on a printed page, in points (this project's choice: 7 pt is
#: the usual floor of printed game aids' fine print; the 6 pt side lists and the 2.5 pt
#: footnote of the first scenario sheets were under it).
MIN_PRINT_PT = 7.0
#: The floors the measured tables' pieces keep (Ronin, OHW, Sekigahara: this project's choice,
#: under Genpei's because their 55 px counters carry a stat line or a mon beside the name): a
#: font size of 7 px, capitals about 5 px high, what a player still reads at zoom 1; and 5.5 pt,
#: a printed chart's footnotes read at arm's length. One floor for every system is to come.
LEGIBLE_PX = 7.0
LEGIBLE_PT = 5.5
#: Points per millimetre (72 pt to the inch).
PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class SmallText:
    """A text that may come out under the floor.

    Attributes:
        where: the shape, e.g. ``shapes[12]`` or ``shapes[3].paragraphs.items[0]``.
        text: the text as the template drew it.
        smallest: its smallest em height, in the floor's measure (pixels or points).
    """

    where: str
    text: str
    smallest: float


def smallest_sizes(drawing: Drawing) -> list[tuple[str, str, float]]:
    """``(where, text, smallest size in units)`` of every text of ``drawing``, groups' scales
    applied: a text with a box shrinks to its ``min_size`` (40 % of its size when none is
    given), one without a box is drawn at its size, a paragraphs item at ``size × min_scale``."""
    out: list[tuple[str, str, float]] = []

    def walk(shapes: tuple[Shape, ...], scale: float) -> None:
        for shape in shapes:
            p = shape.params
            if shape.name == "text" and p["text"].strip():
                boxed = p["max_width"] is not None or p["max_height"] is not None
                least = (p["min_size"] if p["min_size"] is not None else p["size"] * 0.4) if boxed else p["size"]
                out.append((shape.where, p["text"], least * scale))
            elif shape.name == "paragraphs":
                for i, it in enumerate(p["items"]):
                    if it["text"].strip():
                        out.append((f"{shape.where}.paragraphs.items[{i}]", it["text"], it["size"] * p["min_scale"] * scale))
            elif shape.name == "group":
                walk(shape.children, scale * p["scale"])

    walk(drawing.shapes, 1.0)
    return out


def floor_problems(drawing: Drawing, per_unit: float, floor: float) -> list[SmallText]:
    """Every text of ``drawing`` whose smallest size (:func:`smallest_sizes`) times
    ``per_unit`` (pixels per unit of the VASSAL image, or points per unit of the page) is under
    ``floor`` (:data:`MIN_SCREEN_PX` or :data:`MIN_PRINT_PT`); a hundredth of a unit of rounding
    is allowed."""
    return [SmallText(w, t, s * per_unit) for w, t, s in smallest_sizes(drawing) if s * per_unit < floor - 0.01]
