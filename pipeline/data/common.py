"""Schema pieces every game system's data shares: citations, unknown values, ids, errata.

Every rules datum in ``source_data/`` cites where it comes from: a document listed in the
system's ``sources.yaml`` and the section of it. A value the public sources do not give is
written ``unknown`` and the tools say so rather than guess.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
)

#: A value that no public source gives. Write ``unknown`` in the data file.
Unknown = Literal["unknown"]

#: An identifier: lower case letters, digits and underscores, starting with a letter.
Id = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]


class Strict(BaseModel):
    """Base of every schema model: unknown keys are errors (a typo in a key is caught), and
    numbers must be finite (``.nan`` and ``.inf`` are refused).

    A data file is validated in pydantic's strict mode
    (:meth:`pipeline.data.yamlfile.YamlDocument.validate`): a number is a number and a yes/no a
    boolean, nothing is converted. ``figures: true`` is not 1, ``figures: "4"`` is not 4,
    ``figures: 4.0`` is not 4 and ``hidden: 1`` is not ``true``. A fixed-length list is written
    :class:`Fixed` so that strict mode reads a YAML list as a tuple.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class FieldError(ValueError):
    """The error of a model validator about one of its fields (``section_lines`` of a board whose
    lines are out of order): the message then names that field, its line and its value, not the
    whole mapping.

    Example::

        >>> raise FieldError("section_lines", "increasing lines inside the board")  # doctest: +SKIP
    """

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def _list_as_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


class Fixed:
    """A fixed-length list of a data file, read as a tuple: ``Fixed[int, int]`` is
    ``tuple[int, int]`` that also takes the YAML list ``[3, 4]`` in strict mode (which otherwise
    takes only a tuple, and YAML has none). Every tuple of a schema is written this way
    (``tests/data/test_strict_values.py`` checks every model).

    Example::

        >>> from pydantic import TypeAdapter
        >>> TypeAdapter(Fixed[int, int]).validate_python([3, 4], strict=True)
        (3, 4)
    """

    def __class_getitem__(cls, items: Any) -> Any:
        return Annotated[tuple[items], BeforeValidator(_list_as_tuple)]


class Source(Strict):
    """Where a datum comes from.

    Attributes:
        doc: id of a document in the system's ``sources.yaml``.
        section: section, heading or table of that document.
        confidence: ``H`` read in the source itself; ``M`` a secondary source or pieced together;
            ``L`` this project's inference (allowed only with a ``note`` saying why).
        note: free text, e.g. what was inferred and from what.
    """

    doc: Id
    section: str = Field(min_length=1)
    confidence: Literal["H", "M", "L"] = "H"
    note: str | None = None


class Document(Strict):
    """A document data files cite.

    Attributes:
        id: the id used in ``Source.doc``.
        title: the document's title.
        author: author or publisher.
        where: a path (e.g. ``shared/seeds/000_…txt``) or a public address.
        note: how the project uses it.
    """

    id: Id
    title: str
    author: str | None = None
    where: str
    note: str | None = None


class Erratum(Strict):
    """A place where the rules text is ambiguous or contradicts itself, and the reading chosen.

    Attributes:
        id: stable id, referred to by tests and by ``gunbai verify --explain``.
        topic: what it is about.
        readings: the possible readings, each as text (at least two).
        chosen: index into ``readings`` of the reading gunbai implements.
        why: why that reading.
        sources: where each reading comes from.
    """

    id: Id
    topic: str
    readings: list[str] = Field(min_length=2)
    chosen: int = Field(ge=0)
    why: str
    sources: list[Source] = Field(min_length=1)


class Sources(Strict):
    """The ``sources.yaml`` file of a game system: its documents and its errata."""

    documents: list[Document] = Field(min_length=1)
    errata: list[Erratum] = []


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("a text with something other than spaces")
    return value


#: A name or other text that is drawn or printed: not empty, not only spaces. (How long it may
#: be is decided by the place the template gives it: see ``pipeline/systems/genpei/fit.py``.)
Text = Annotated[str, AfterValidator(_not_blank), Field(json_schema_extra={"minLength": 1, "pattern": "\\S"})]

_FULL_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december")
#: Month names a date may use: the English name, its first three letters, or "Sept".
_MONTH_NAMES = {n: i + 1 for i, n in enumerate(_FULL_MONTHS)} | {n[:3]: i + 1 for i, n in enumerate(_FULL_MONTHS)} | {"sept": 9}
_DATE_FORMS = "YYYY, YYYY-MM, YYYY-MM-DD, 'Mon YYYY' or 'D Mon YYYY' (e.g. 1600-10-21, Feb 1184, 21 Oct 1600), or unknown"


def _historical_date(value: str) -> str:
    """A date as the sources give it, checked to be a real calendar date (proleptic Gregorian,
    as Python's ``datetime``; only the day/month combination is checked for old dates)."""
    import calendar
    import re

    v = value.strip()
    if v == "unknown":
        return value
    m = re.fullmatch(r"(\d{3,4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?", v)
    if m:
        year, month, day = int(m.group(1)), m.group(2), m.group(3)
    else:
        m = re.fullmatch(r"(?:(\d{1,2}) )?([A-Za-z]{3,9})\.? (\d{3,4})", v)
        if not m or m.group(2).lower() not in _MONTH_NAMES:
            raise ValueError(f"a date written {_DATE_FORMS}")
        year, month, day = int(m.group(3)), str(_MONTH_NAMES[m.group(2).lower()]), m.group(1)
    if month is not None and not 1 <= int(month) <= 12:
        raise ValueError(f"a real date: month {int(month)} does not exist ({_DATE_FORMS})")
    if day is not None and not 1 <= int(day) <= calendar.monthrange(max(year, 1), int(month or 1))[1]:
        raise ValueError(f"a real date: {calendar.month_name[int(month or 1)]} has no day {int(day)} ({_DATE_FORMS})")
    return value


#: A historical date: ``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD``, ``Mon YYYY``, ``D Mon YYYY`` (a real
#: calendar date: ``1600-13-45`` is refused), or ``unknown``.
HistoricalDate = Annotated[str, AfterValidator(_historical_date), Field(json_schema_extra={"description": f"A date: {_DATE_FORMS}."})]

#: ``dateSaved`` in ms since 1970, up to the last date a ZIP entry can hold (2107-12-31).
DateSavedMs = Annotated[int, Field(ge=0, le=4_354_819_199_000)]
