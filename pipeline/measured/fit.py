"""Texts of a measured-table game (OHW, Sekigahara, Ronin) that must fit where the shared
templates draw them (:mod:`pipeline.render.fit`): a unit's name on its counter
(``measured/unit_counter.yaml.j2``, wrapped on two lines and shrunk to its smallest size), the
texts of a scenario sheet (``measured/scenario_sheet.yaml.j2``: title, date, summary, victory,
each side's lines, notes, source) and the data texts on reference cards
(``common/card.yaml.j2``). Each system lists which data field each text comes from; nothing is
drawn.

Each template is held, where it is shown, to the one legibility floor of every system
(:mod:`pipeline.render.legible`: 8 px in VASSAL at 100 %, 7 pt in print): its smallest sizes at
the image's pixels and the page's points per unit (:data:`MEDIA`), so a text that fits only
smaller is refused with its file, line and value.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pipeline.errors import DataProblem
from pipeline.render.fit import Field, check, floor_check

#: Where a drawing is shown: ``(units per pixel or point, medium)`` pairs, e.g. a card's
#: ``[(1.0, "screen"), (0.425, "print")]``.
Media = Iterable[tuple[float, str]]

#: What each template is, for messages.
PLACES = {
    "measured/unit_counter.yaml.j2": "the unit counter",
    "measured/scenario_sheet.yaml.j2": "the scenario sheet",
    "common/card.yaml.j2": "the reference card",
    "ronin/model_counter.yaml.j2": "the model counter",
    "ronin/marker.yaml.j2": "the marker",
    "ronin/terrain.yaml.j2": "the terrain piece",
    "measured/marker.yaml.j2": "the turn marker",
}


def _check(template: str, context: dict[str, Any], fields: Iterable[Field], out: list[DataProblem], media: Media = ()) -> None:
    from pipeline.measured.art import renderer

    place = PLACES.get(template, template)
    check(renderer(), template, context, fields, out, place)
    for per_unit, medium in media:
        floor_check(renderer(), template, context, per_unit, medium, out, place)


def counter_media(spec: Any, ppi: float) -> list[tuple[float, str]]:
    """Where a unit counter of ``spec`` is shown: the VASSAL image at ``ppi`` pixels per inch
    and the counter sheet, to scale (an inch is 72 pt); the template draws 10 units an inch."""
    from pipeline.measured.art import COUNTER_UNITS_PER_INCH

    return [(ppi / COUNTER_UNITS_PER_INCH, "screen"), (72 / COUNTER_UNITS_PER_INCH, "print")]


def card_media(card: Any, card_mm: tuple[float, float] | None = None, screen_scale: float = 1.0) -> list[tuple[float, str]]:
    """Where a reference card is shown: the VASSAL card image (``screen_scale`` pixels a unit)
    and the printed card, ``card_mm`` wide (default :data:`pipeline.measured.printing.CARD_MM`)."""
    from pipeline.measured.printing import CARD_MM
    from pipeline.render.legible import PT_PER_MM

    return [(screen_scale, "screen"), ((card_mm or CARD_MM)[0] * PT_PER_MM / card.size[0], "print")]


def sheet_media() -> list[tuple[float, str]]:
    """Where a scenario sheet (drawn in mm) is shown: VASSAL's chart window and the A4 page."""
    from pipeline.measured.printing import SHEET_PNG_PX_PER_MM
    from pipeline.render.legible import PT_PER_MM

    return [(SHEET_PNG_PX_PER_MM, "screen"), (PT_PER_MM, "print")]


def counter_problems(spec: Any, fields: Iterable[Field], out: list[DataProblem], ppi: float | None = None) -> None:
    """The unit counter of ``spec`` (a :class:`~pipeline.measured.art.CounterSpec`) against the
    data ``fields`` its name and second line come from, and (with ``ppi``, the VASSAL image's
    pixels per inch) against the legibility floor on screen and in print."""
    _check("measured/unit_counter.yaml.j2", spec.context(), fields, out, counter_media(spec, ppi) if ppi else ())


def sheet_problems(sheet: Any, fields: Iterable[Field], out: list[DataProblem]) -> None:
    """The scenario sheet ``sheet`` (a :class:`~pipeline.measured.printing.ScenarioSheet`)
    against the data ``fields`` its texts come from."""
    from pipeline.measured.printing import sheet_context

    _check("measured/scenario_sheet.yaml.j2", sheet_context(sheet), fields, out, sheet_media())


def card_problems(cards: Iterable[Any], fields: list[Field], out: list[DataProblem], card_mm: tuple[float, float] | None = None, screen_scale: float = 1.0) -> None:
    """Each reference card (a :class:`~pipeline.render.cards.Card`) against the data ``fields``
    it may show (a field is blamed only for a text that holds it), and each against the
    legibility floor on screen and in print (:func:`card_media`)."""
    from pathlib import Path

    from pipeline.measured.art import renderer

    for card in cards:
        try:
            job = card.job()
        except ValueError as e:  # a block too tall for a card of its own
            out.append(DataProblem(Path(renderer().root) / "common/card.yaml.j2", None, repr(card.title), repr(card.title),
                                   f"blocks that fit a card with every text at the legibility floor: {e}"))
            continue
        _check(job.template, job.context, fields, out, card_media(card, card_mm, screen_scale))


def template_problems(template: str, context: dict[str, Any], fields: Iterable[Field], out: list[DataProblem], media: Media = ()) -> None:
    """Any other template (``ronin/model_counter.yaml.j2``) with ``context`` against ``fields``
    and the legibility floor of each of ``media``."""
    _check(template, context, fields, out, media)


def turn_marker_problems(out: list[DataProblem]) -> None:
    """The turn marker (``measured/marker.yaml.j2``, 40 units: 40 px in VASSAL, 16 mm printed)
    against the legibility floor."""
    from pipeline.measured.printing import MARKER_MM
    from pipeline.render.legible import PT_PER_MM

    _check("measured/marker.yaml.j2", {"text": "Turn", "fill": "#333333"}, [], out, [(1.0, "screen"), (MARKER_MM * PT_PER_MM / 40, "print")])
