"""YAML pieces shared by the measured-table systems, and a loader of a system's data folder.

A measured-table scenario places each unit by its centre ``(x, y)`` in inches and its facing in
degrees (see :mod:`pipeline.measured.geometry` for the axes) inside a named deployment area, an
axis-aligned rectangle ``{x, y, w, h}`` in inches from the table's north-west corner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from pipeline.data.common import DateSavedMs, Source, Strict
from pipeline.data.folder import UniqueIds, load_files, source_problems, unread_files
from pipeline.data.folder import catalogue as shared_catalogue
from pipeline.data.yamlfile import YamlDocument
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


#: The troop type symbol a counter shows (display only; see ``templates/common/_icons.j2``).
TroopSymbol = Literal["sword", "spear", "gun", "bow", "horse", "spear_gun"]

#: Mon (family crest) designs gunbai draws (``templates/common/_mon.j2``).
MonDesign = Literal["maru_ni_juji", "kuyo", "mitsuba_aoi", "mitsudomoe", "kanji"]

#: Scenery kinds a table draws (:data:`pipeline.measured.art.KINDS`).
SceneryKind = Literal["hill", "woods", "village", "town", "fields", "marsh", "lake", "river", "stream", "road", "ford", "bridge"]


class Mon(Strict):
    """A family crest drawn on a unit's counter (display only), with where it comes from.

    Attributes:
        design: the design gunbai draws (traced from the source's description; no art copied).
        text: the characters of a ``kanji`` design (e.g. 大一大万大吉).
        source: the public source that gives the crest.
    """

    design: MonDesign
    text: str | None = Field(default=None, max_length=8)
    source: Source


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
    date_saved_ms: DateSavedMs = 1735689600000


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
    models, docs, problems = load_files(root, files)
    problems += unread_files(root, files, ["scenarios"])
    if problems:
        raise DataError(problems)
    data = FolderData(root, models, docs)
    paths = sorted((root / "scenarios").glob("*.yaml")) if scenario_files is None else scenario_files
    # the id names its outputs (scenario_<id>.pdf, table_<id>.png), the code its predefined
    # setup and its board in the module ("<code> <name>", "<code> table")
    ids, codes = UniqueIds("scenario id", problems), UniqueIds("scenario code", problems)
    for path in paths:
        try:
            doc = YamlDocument.load(path)
            sc = doc.validate(scenario_model)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        ids.add(getattr(sc, "id", path.stem), doc, ("id",))
        if hasattr(sc, "code"):
            codes.add(sc.code, doc, ("code",))
        data.scenarios.append(Loaded(sc, doc))
    checked = [(docs[n], models[n]) for n in files] + [(s.doc, s.model) for s in data.scenarios]
    problems += source_problems(checked, models["sources.yaml"], docs["sources.yaml"])
    if problems:
        raise DataError(problems)
    return data


def catalogue(items: list[Any], doc: YamlDocument, key: str) -> dict[str, Any]:
    """Items by id, in file order.

    Raises:
        DataError: an id is repeated.
    """
    problems: list[DataProblem] = []
    out = shared_catalogue(items, doc, key, problems)
    if problems:
        raise DataError(problems)
    return out
