"""YAML pieces shared by the measured-table systems, and a loader of a system's data folder.

A measured-table scenario places each unit by its centre ``(x, y)`` in inches and its facing in
degrees (see :mod:`pipeline.measured.geometry` for the axes) inside a named deployment area, an
axis-aligned rectangle ``{x, y, w, h}`` in inches from the table's north-west corner.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from pipeline.data.common import Source, Sources, Strict
from pipeline.data.yamlfile import YamlDocument, format_location
from pipeline.errors import DataError, DataProblem
from pipeline.measured.geometry import Rect


class Area(Strict):
    """A rectangle of the table in inches: north-west corner ``x, y``, size ``w`` × ``h``."""

    x: float
    y: float
    w: float = Field(gt=0)
    h: float = Field(gt=0)

    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.w, self.h)


class TableSize(Strict):
    """The table: ``width`` (west-east) × ``depth`` (north-south) in inches, with its source."""

    width: float = Field(gt=0)
    depth: float = Field(gt=0)
    source: Source

    def rect(self) -> Rect:
        return Rect(0.0, 0.0, self.width, self.depth)


class VassalSettings(Strict):
    """VASSAL settings of a measured-table module (gunbai's choices, not rules data)."""

    module_name: str
    module_version: str = "0.1"
    description: str = ""
    px_per_inch: int = Field(ge=8, le=100)
    date_saved_ms: int = 1735689600000


@dataclass
class Loaded:
    """A validated data file (or scenario) with its parsed document, for line numbers."""

    model: Any
    doc: YamlDocument

    @property
    def path(self) -> Path:
        return self.doc.path


@dataclass
class FolderData:
    """Every file of a measured-table system's data folder.

    Attributes:
        root: the folder.
        files: file name → validated model, for the fixed files.
        docs: file name → parsed document.
        scenarios: the scenarios, sorted by file name.
    """

    root: Path
    files: dict[str, Any]
    docs: dict[str, YamlDocument]
    scenarios: list[Loaded] = field(default_factory=list)


def load_folder(root: Path, files: dict[str, type[BaseModel]], scenario_model: type[BaseModel], scenario_files: list[Path] | None = None) -> FolderData:
    """Read and validate ``root``: the fixed ``files`` and ``scenarios/*.yaml`` (or
    ``scenario_files``). ``sources.yaml`` must be one of ``files``; every citation must name one
    of its documents, an ``L`` citation must carry a note, and every erratum's ``chosen`` must
    index one of its readings.

    Raises:
        DataError: every problem found, one line each.
    """
    problems: list[DataProblem] = []
    models: dict[str, Any] = {}
    docs: dict[str, YamlDocument] = {}
    for name, model in files.items():
        try:
            doc = YamlDocument.load(root / name)
            docs[name] = doc
            models[name] = doc.validate(model)
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    data = FolderData(root, models, docs)
    paths = sorted((root / "scenarios").glob("*.yaml")) if scenario_files is None else scenario_files
    seen: set[str] = set()
    for path in paths:
        try:
            doc = YamlDocument.load(path)
            sc = doc.validate(scenario_model)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        sid = getattr(sc, "id", path.stem)
        if sid in seen:
            problems.append(DataProblem(path, doc.line_of(("id",)), "id", repr(sid), "a scenario id no other file uses"))
        seen.add(sid)
        data.scenarios.append(Loaded(sc, doc))
    sources: Sources = models["sources.yaml"]
    known = {d.id for d in sources.documents}
    checked = [(docs[n], models[n]) for n in files] + [(s.doc, s.model) for s in data.scenarios]
    for doc, model in checked:
        for loc, src in citations(model, ()):
            if src.doc not in known:
                problems.append(DataProblem(doc.path, doc.line_of(loc + ("doc",)), format_location(loc + ("doc",)), repr(src.doc), f"a document id of sources.yaml ({', '.join(sorted(known))})"))
            if src.confidence == "L" and not src.note:
                problems.append(DataProblem(doc.path, doc.line_of(loc), format_location(loc), "confidence L without a note", "a note saying what was inferred and from what"))
    for i, erratum in enumerate(sources.errata):
        if erratum.chosen >= len(erratum.readings):
            d = docs["sources.yaml"]
            problems.append(DataProblem(d.path, d.line_of(("errata", i, "chosen")), f"errata[{i}].chosen", str(erratum.chosen), f"an index below {len(erratum.readings)}"))
    if problems:
        raise DataError(problems)
    return data


def catalogue(items: list[Any], doc: YamlDocument, key: str) -> dict[str, Any]:
    """Items by id, in file order.

    Raises:
        DataError: an id is repeated.
    """
    out: dict[str, Any] = {}
    problems = []
    for i, item in enumerate(items):
        if item.id in out:
            problems.append(DataProblem(doc.path, doc.line_of((key, i, "id")), f"{key}[{i}].id", repr(item.id), "an id not used before in this file"))
        out[item.id] = item
    if problems:
        raise DataError(problems)
    return out


def citations(obj: Any, loc: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Source]]:
    """Every :class:`Source` inside a model, with its path in the document."""
    if isinstance(obj, Source):
        yield loc, obj
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from citations(getattr(obj, name), loc + (name,))
    elif isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            yield from citations(item, loc + (i,))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from citations(v, loc + (k,))
