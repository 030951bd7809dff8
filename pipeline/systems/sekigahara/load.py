"""Load ``source_data/sekigahara/`` into :class:`SekiData`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.data.common import Sources
from pipeline.data.yamlfile import YamlDocument
from pipeline.measured.data import Loaded, catalogue, load_folder
from pipeline.measured.geometry import Base
from pipeline.systems.sekigahara.model import Scenario, SystemInfo, UnitsFile, UnitType

FILES = {"system.yaml": SystemInfo, "sources.yaml": Sources, "units.yaml": UnitsFile}

#: The side id of Kobayakawa's contingent before the treachery roll decides it.
UNDECIDED = "undecided"


@dataclass
class SekiData:
    root: Path
    system: SystemInfo
    sources: Sources
    units: dict[str, UnitType]
    scenarios: list[Loaded] = field(default_factory=list)
    #: the parsed documents of the fixed files by file name (``units.yaml``), for line numbers
    docs: dict[str, YamlDocument] = field(default_factory=dict)

    def base_of(self, up) -> Base:
        """The base of a unit placement: a line of its stands."""
        s = self.system.stand
        return Base(up.x, up.y, up.facing, up.stands * s.width, s.depth)


def load(root: Path, *, scenario_files: list[Path] | None = None) -> SekiData:
    """Read and validate ``root``.

    Raises:
        DataError: a file is missing or invalid, an id repeats, a citation is unknown (the
            texts' fit on the drawings is checked apart: ``printing.check_fit``).
    """
    f = load_folder(root, FILES, Scenario, scenario_files)
    data = SekiData(root, f.files["system.yaml"], f.files["sources.yaml"], catalogue(f.files["units.yaml"].units, f.docs["units.yaml"], "units"), f.scenarios, f.docs)
    return data
