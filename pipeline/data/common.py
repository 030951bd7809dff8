"""Schema pieces every game system's data shares: citations, unknown values, ids, errata.

Every rules datum in ``source_data/`` cites where it comes from: a document listed in the
system's ``sources.yaml`` and the section of it. A value the public sources do not give is
written ``unknown`` and the tools say so rather than guess.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

#: A value that no public source gives. Write ``unknown`` in the data file.
Unknown = Literal["unknown"]

#: An identifier: lower case letters, digits and underscores, starting with a letter.
Id = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]


class Strict(BaseModel):
    """Base of every schema model: unknown keys are errors (a typo in a key is caught), and
    numbers must be finite (``.nan`` and ``.inf`` are refused)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


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
