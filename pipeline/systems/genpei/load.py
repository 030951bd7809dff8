"""Load the Genpei data folder (``source_data/genpei/``) into one :class:`GenpeiData`.

Example::

    >>> data = load(Path("source_data/genpei"))          # doctest: +SKIP
    >>> data.units["sohei_warriors"].close_combat.dice     # doctest: +SKIP
    3
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from pipeline.data.common import Sources
from pipeline.data.folder import UniqueIds, catalogue, load_files, source_problems, unread_files
from pipeline.data.yamlfile import YamlDocument
from pipeline.errors import DataError
from pipeline.systems.genpei.data import GenpeiData, LoadedScenario
from pipeline.systems.genpei.model import (
    BoardGeometry,
    CardsFile,
    LeadersFile,
    MarkersFile,
    Scenario,
    SystemInfo,
    TerrainFile,
    UnitsFile,
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
    "cards.yaml": CardsFile,
}
#: Files of the folder that the build reads, not the loader: the mapping of the data onto the
#: extension's base module (:data:`pipeline.systems.genpei.base_mapping.MAPPING_FILE`).
BUILD_FILES = ("base_mapping.yaml",)


def load(root: Path, *, scenario_files: list[Path] | None = None) -> GenpeiData:
    """Read and validate the data folder ``root``.

    Args:
        root: e.g. ``source_data/genpei``.
        scenario_files: scenario files to read instead of ``root/scenarios/*.yaml``.

    Loading draws nothing: whether the texts fit where the templates draw them is checked apart
    (:func:`pipeline.systems.genpei.fit.check_fit`, by ``gunbai verify``, ``build`` and the
    renderers).

    Raises:
        DataError: any file is missing or invalid, an id is repeated, or a citation names a
            document ``sources.yaml`` does not list. All problems found are reported together.
    """
    models, docs, problems = load_files(root, FILES)
    problems += unread_files(root, [*FILES, *BUILD_FILES], ["scenarios"])
    if problems:
        raise DataError(problems)

    def catalogue_of(file: str, key: str) -> dict[str, Any]:
        return catalogue(getattr(models[file], key), docs[file], key, problems)

    data = GenpeiData(
        root=root,
        system=models["system.yaml"],
        sources=models["sources.yaml"],
        board=models["board.yaml"],
        cards=models["cards.yaml"],
        command_cards=catalogue_of("cards.yaml", "command_cards"),
        dragon_cards=catalogue_of("cards.yaml", "dragon_cards"),
        units=catalogue_of("units.yaml", "units"),
        leaders=catalogue_of("leaders.yaml", "leaders"),
        terrain=catalogue_of("terrain.yaml", "terrain"),
        markers=catalogue_of("markers.yaml", "markers"),
        docs=docs,
    )
    files = sorted((root / "scenarios").glob("*.yaml")) if scenario_files is None else scenario_files
    # the id names its outputs (scenario_<id>.pdf), the code its predefined setup (title)
    ids, codes = UniqueIds("scenario id", problems), UniqueIds("scenario code", problems)
    for path in files:
        try:
            doc = YamlDocument.load(path)
            scenario = doc.validate(Scenario)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        ids.add(scenario.id, doc, ("id",))
        codes.add(scenario.code, doc, ("code",))
        docs[str(path)] = doc
        data.scenarios.append(LoadedScenario(scenario, doc))

    checked = [(docs[name], models[name]) for name in FILES] + [(s.doc, s.scenario) for s in data.scenarios]
    problems += source_problems(checked, data.sources, docs["sources.yaml"])
    if problems:
        raise DataError(problems)
    return data
