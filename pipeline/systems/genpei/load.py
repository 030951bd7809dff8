"""Load the Genpei data folder (``source_data/genpei/``) into one :class:`GenpeiData`.

Example::

    >>> data = load(Path("source_data/genpei"))          # doctest: +SKIP
    >>> data.units["sohei_warriors"].close_combat.dice     # doctest: +SKIP
    3
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pipeline.data.common import Source, Sources
from pipeline.data.yamlfile import YamlDocument
from pipeline.errors import DataError, DataProblem
from pipeline.systems.genpei.model import (
    BoardGeometry,
    LeadersFile,
    LeaderType,
    MarkersFile,
    MarkerType,
    Scenario,
    SystemInfo,
    TerrainFile,
    TerrainType,
    UnitsFile,
    UnitType,
)

#: The files of a Genpei data folder and the schema model of each (``scenarios/`` aside).
FILES: dict[str, type[BaseModel]] = {
    "system.yaml": SystemInfo,
    "sources.yaml": Sources,
    "board.yaml": BoardGeometry,
    "units.yaml": UnitsFile,
    "leaders.yaml": LeadersFile,
    "terrain.yaml": TerrainFile,
    "markers.yaml": MarkersFile,
}


@dataclass
class LoadedScenario:
    """A scenario with the file it came from (for line numbers in findings)."""

    scenario: Scenario
    doc: YamlDocument

    @property
    def path(self) -> Path:
        return self.doc.path


@dataclass
class GenpeiData:
    """Everything in a Genpei data folder, validated against the schema.

    Attributes:
        root: the folder.
        system, sources, board: the single-document files.
        units, leaders, terrain, markers: the catalogues by id, in file order.
        scenarios: the scenarios, sorted by file name.
        docs: the parsed file of each catalogue (file name → document), for line numbers.
    """

    root: Path
    system: SystemInfo
    sources: Sources
    board: BoardGeometry
    units: dict[str, UnitType]
    leaders: dict[str, LeaderType]
    terrain: dict[str, TerrainType]
    markers: dict[str, MarkerType]
    scenarios: list[LoadedScenario] = field(default_factory=list)
    docs: dict[str, YamlDocument] = field(default_factory=dict)


def load(root: Path, *, scenario_files: list[Path] | None = None) -> GenpeiData:
    """Read and validate the data folder ``root``.

    Args:
        root: e.g. ``source_data/genpei``.
        scenario_files: scenario files to read instead of ``root/scenarios/*.yaml``.

    Raises:
        DataError: any file is missing or invalid, an id is repeated, or a citation names a
            document ``sources.yaml`` does not list. All problems found are reported together.
    """
    problems: list[DataProblem] = []
    models: dict[str, Any] = {}
    docs: dict[str, YamlDocument] = {}
    for name, model in FILES.items():
        try:
            doc = YamlDocument.load(root / name)
            docs[name] = doc
            models[name] = doc.validate(model)
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)

    def catalogue(file: str, key: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for i, item in enumerate(getattr(models[file], key)):
            if item.id in out:
                problems.append(DataProblem(docs[file].path, docs[file].line_of((key, i, "id")), f"{key}[{i}].id", repr(item.id), "an id not used before in this file"))
            out[item.id] = item
        return out

    data = GenpeiData(
        root=root,
        system=models["system.yaml"],
        sources=models["sources.yaml"],
        board=models["board.yaml"],
        units=catalogue("units.yaml", "units"),
        leaders=catalogue("leaders.yaml", "leaders"),
        terrain=catalogue("terrain.yaml", "terrain"),
        markers=catalogue("markers.yaml", "markers"),
        docs=docs,
    )
    files = sorted((root / "scenarios").glob("*.yaml")) if scenario_files is None else scenario_files
    seen: set[str] = set()
    for path in files:
        try:
            doc = YamlDocument.load(path)
            scenario = doc.validate(Scenario)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if scenario.id in seen:
            problems.append(DataProblem(path, doc.line_of(("id",)), "id", repr(scenario.id), "a scenario id no other file uses"))
        seen.add(scenario.id)
        docs[str(path)] = doc
        data.scenarios.append(LoadedScenario(scenario, doc))

    known_docs = {d.id for d in data.sources.documents}
    for file_key, doc in docs.items():
        model = models.get(file_key) or next((s.scenario for s in data.scenarios if str(s.path) == file_key), None)
        for loc, src in _citations(model, ()):
            if src.doc not in known_docs:
                problems.append(DataProblem(doc.path, doc.line_of(loc + ("doc",)), _fmt(loc + ("doc",)), repr(src.doc), f"a document id of sources.yaml ({', '.join(sorted(known_docs))})"))
            if src.confidence == "L" and not src.note:
                problems.append(DataProblem(doc.path, doc.line_of(loc), _fmt(loc), "confidence L without a note", "a note saying what was inferred and from what"))
    for i, erratum in enumerate(data.sources.errata):
        if erratum.chosen >= len(erratum.readings):
            problems.append(DataProblem(docs["sources.yaml"].path, docs["sources.yaml"].line_of(("errata", i, "chosen")), f"errata[{i}].chosen", str(erratum.chosen), f"an index below {len(erratum.readings)}"))
    if problems:
        raise DataError(problems)
    return data


def _fmt(loc: tuple[Any, ...]) -> str:
    from pipeline.data.yamlfile import format_location

    return format_location(loc)


def _citations(obj: Any, loc: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Source]]:
    """Every :class:`Source` inside a model, with its path in the document."""
    if isinstance(obj, Source):
        yield loc, obj
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from _citations(getattr(obj, name), loc + (name,))
    elif isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            yield from _citations(item, loc + (i,))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _citations(v, loc + (k,))
