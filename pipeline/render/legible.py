"""The smallest text a player can read: one floor for every game system, and the check that every
template keeps to it.

A template gives each text a size and, when the text comes from the data and has a box, a
smallest size it may shrink to (``min_size`` of a ``text``, ``min_scale`` of a ``paragraphs``
block; see :mod:`pipeline.render.drawing`). Those smallest sizes are in the drawing's units; how
large they come out depends on where the drawing is shown. One floor per medium, the same for
Genpei, OHW, Sekigahara and Ronin:

- :data:`MIN_SCREEN_PX`: 8 px, in any image VASSAL shows at 100 % zoom (a counter, a marker, a
  card, a chart window's sheet, a table's labels);
- :data:`MIN_PRINT_PT`: 7 pt, on any printed page (counter sheets, cards, scenario sheets).

"Height" is measured one way everywhere: the **font size** (the em, the height the font is set
at: ``size`` of a text shape times the units' pixels or points), not the cap height or the
x-height. With Noto Sans CJK JP a kanji fills about 0.9 em and a capital about 0.73 em, so 8 px
gives capitals about 5.8 px high and 7 pt about 5.1 pt.

:func:`floor_problems` finds every text of a drawing whose smallest size, at the given pixels
(or points) per unit, is under the floor. A template that passes it lets no text shrink below
the floor, so the data checks of :mod:`pipeline.render.fit` (which lay every data text out at
its smallest size) refuse a name or rule that could only fit smaller, naming its file, line and
value; :func:`pipeline.render.fit.floor_check` refuses the template itself.

A text that cannot meet the floor without breaking a rule of the game's look is listed, with the
reason, in :data:`EXCEPTIONS`; nothing else is let through.

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

#: Smallest font size (em) of a text in a VASSAL image at 100 % zoom, in pixels, for every
#: system (this project's choice: at 8 px a kanji such as 総 keeps its strokes apart; at 5 px it
#: was a blot, and the 7 px stat lines of the measured tables' counters were hard to read).
MIN_SCREEN_PX = 8.0
#: Smallest font size (em) of a text on a printed page, in points, for every system (this
#: project's choice: 7 pt is the usual floor of printed game aids' fine print; the 6 pt side
#: lists, the 2.5 pt footnote of the first scenario sheets and the 2-5 pt texts of the 63 mm
#: cards were under it).
MIN_PRINT_PT = 7.0
#: Points per millimetre (72 pt to the inch).
PT_PER_MM = 72 / 25.4
#: The floor of each medium: ``screen`` (pixels) and ``print`` (points).
FLOORS = {"screen": (MIN_SCREEN_PX, "px"), "print": (MIN_PRINT_PT, "pt")}

#: The reviewed exceptions: ``(template, shape text) → reason``. A text listed here is not held
#: to the floor. Each has a reason a player can check; README.md ("Legibility") lists them.
EXCEPTIONS: dict[tuple[str, str], str] = {}


def floor_of(medium: str) -> float:
    """The floor of ``medium`` (``screen``: :data:`MIN_SCREEN_PX`; ``print``: :data:`MIN_PRINT_PT`)."""
    return FLOORS[medium][0]


def min_units(per_screen_px: float | None = None, per_print_pt: float | None = None) -> float:
    """The smallest text size, in a drawing's units, that keeps both floors where the drawing is
    shown at ``per_screen_px`` pixels per unit (VASSAL) and printed at ``per_print_pt`` points
    per unit (either may be None: not shown there), rounded up to a hundredth.

        >>> min_units(per_screen_px=1.0, per_print_pt=90 * PT_PER_MM / 600)  # a 600-unit card printed 90 mm wide
        16.47
    """
    import math

    need = [f / p for f, p in ((MIN_SCREEN_PX, per_screen_px), (MIN_PRINT_PT, per_print_pt)) if p]
    return math.ceil(max(need) * 100 - 1e-6) / 100 if need else 0.0


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


def floor_problems(drawing: Drawing, per_unit: float, floor: float, template: str | None = None) -> list[SmallText]:
    """Every text of ``drawing`` whose smallest size (:func:`smallest_sizes`) times
    ``per_unit`` (pixels per unit of the VASSAL image, or points per unit of the page) is under
    ``floor`` (:data:`MIN_SCREEN_PX` or :data:`MIN_PRINT_PT`); a hundredth of a unit of rounding
    is allowed. With ``template`` (the drawing's template), a text :data:`EXCEPTIONS` lists for
    it is left out."""
    return [SmallText(w, t, s * per_unit) for w, t, s in smallest_sizes(drawing)
            if s * per_unit < floor - 0.01 and (template, t) not in EXCEPTIONS]
