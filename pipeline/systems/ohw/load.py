"""Load ``source_data/ohw/`` into :class:`OhwData`."""

from __future__ import annotations

from pathlib import Path

from pipeline.data.common import Sources
from pipeline.measured.data import catalogue, load_folder
from pipeline.systems.ohw.data import OhwData
from pipeline.systems.ohw.model import (
    Scenario,
    SystemInfo,
    TerrainFile,
    UnitsFile,
)

FILES = {"system.yaml": SystemInfo, "sources.yaml": Sources, "units.yaml": UnitsFile, "terrain.yaml": TerrainFile}


def load(root: Path, *, scenario_files: list[Path] | None = None) -> OhwData:
    """Read and validate ``root``.

    Raises:
        DataError: a file is missing or invalid, an id repeats, a citation is unknown (the
            texts' fit on the drawings is checked apart: ``printing.check_fit``).
    """
    f = load_folder(root, FILES, Scenario, scenario_files)
    terrain: TerrainFile = f.files["terrain.yaml"]
    data = OhwData(
        root=root,
        system=f.files["system.yaml"],
        sources=f.files["sources.yaml"],
        units=catalogue(f.files["units.yaml"].units, f.docs["units.yaml"], "units"),
        terrain=catalogue(terrain.terrain, f.docs["terrain.yaml"], "terrain"),
        defences=catalogue(terrain.defences, f.docs["terrain.yaml"], "defences"),
        scenarios=f.scenarios,
        docs=f.docs,
    )
    return data
