"""Load ``source_data/sekigahara/`` into :class:`SekiData`."""

from __future__ import annotations

from pathlib import Path

from pipeline.data.common import Sources
from pipeline.measured.data import catalogue, load_folder
from pipeline.systems.sekigahara.data import SekiData
from pipeline.systems.sekigahara.model import Scenario, SystemInfo, UnitsFile

FILES = {"system.yaml": SystemInfo, "sources.yaml": Sources, "units.yaml": UnitsFile}


def load(root: Path, *, scenario_files: list[Path] | None = None) -> SekiData:
    """Read and validate ``root``.

    Raises:
        DataError: a file is missing or invalid, an id repeats, a citation is unknown (the
            texts' fit on the drawings is checked apart: ``printing.check_fit``).
    """
    f = load_folder(root, FILES, Scenario, scenario_files)
    data = SekiData(root, f.files["system.yaml"], f.files["sources.yaml"], catalogue(f.files["units.yaml"].units, f.docs["units.yaml"], "units"), f.scenarios, f.docs)
    return data
