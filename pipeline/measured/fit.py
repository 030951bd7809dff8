"""Texts of a measured-table game (OHW, Sekigahara, Ronin) that must fit where the shared
templates draw them (:mod:`pipeline.render.fit`): a unit's name on its counter
(``measured/unit_counter.yaml.j2``, wrapped on two lines and shrunk to its smallest size), the
texts of a scenario sheet (``measured/scenario_sheet.yaml.j2``: title, date, summary, victory,
each side's lines, notes, source) and the data texts on reference cards
(``common/card.yaml.j2``). Each system lists which data field each text comes from; nothing is
drawn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pipeline.errors import DataProblem
from pipeline.render.fit import Field, check

#: What each template is, for messages.
PLACES = {
    "measured/unit_counter.yaml.j2": "the unit counter",
    "measured/scenario_sheet.yaml.j2": "the scenario sheet",
    "common/card.yaml.j2": "the reference card",
    "ronin/model_counter.yaml.j2": "the model counter",
}


def _check(template: str, context: dict[str, Any], fields: Iterable[Field], out: list[DataProblem]) -> None:
    from pipeline.measured.art import renderer

    check(renderer(), template, context, fields, out, PLACES.get(template, template))


def counter_problems(spec: Any, fields: Iterable[Field], out: list[DataProblem]) -> None:
    """The unit counter of ``spec`` (a :class:`~pipeline.measured.art.CounterSpec`) against the
    data ``fields`` its name and second line come from."""
    _check("measured/unit_counter.yaml.j2", spec.context(), fields, out)


def sheet_problems(sheet: Any, fields: Iterable[Field], out: list[DataProblem]) -> None:
    """The scenario sheet ``sheet`` (a :class:`~pipeline.measured.printing.ScenarioSheet`)
    against the data ``fields`` its texts come from."""
    from pipeline.measured.printing import sheet_context

    _check("measured/scenario_sheet.yaml.j2", sheet_context(sheet), fields, out)


def card_problems(cards: Iterable[Any], fields: list[Field], out: list[DataProblem]) -> None:
    """Each reference card (a :class:`~pipeline.render.cards.Card`) against the data ``fields``
    it may show (a field is blamed only for a text that holds it)."""
    for card in cards:
        job = card.job()
        _check(job.template, job.context, fields, out)


def template_problems(template: str, context: dict[str, Any], fields: Iterable[Field], out: list[DataProblem]) -> None:
    """Any other template (``ronin/model_counter.yaml.j2``) with ``context`` against ``fields``."""
    _check(template, context, fields, out)
