"""The loaded OHW Samurai data (:class:`OhwData`): what :func:`pipeline.systems.ohw.load.load`
returns and the engine, the legality checks and the drawings read.

Loading draws nothing and plays nothing: this module holds only the data's shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.data.common import Sources
from pipeline.data.yamlfile import YamlDocument
from pipeline.measured.data import Loaded
from pipeline.systems.ohw.model import (
    DefenceType,
    SystemInfo,
    TerrainType,
    UnitType,
)


@dataclass
class OhwData:
    """Everything in an OHW Samurai data folder, validated against the schema.

    Attributes:
        root: the folder.
        system, sources: ``system.yaml`` and ``sources.yaml``.
        units, terrain, defences: the catalogues by id, in file order (``units.yaml``,
            ``terrain.yaml``).
        scenarios: the scenarios, sorted by file name, each with its document.
        docs: the parsed fixed files by file name, for line numbers.
    """

    root: Path
    system: SystemInfo
    sources: Sources
    units: dict[str, UnitType]
    terrain: dict[str, TerrainType]
    defences: dict[str, DefenceType]
    scenarios: list[Loaded] = field(default_factory=list)
    #: the parsed documents of the fixed files by file name (``units.yaml``), for line numbers
    docs: dict[str, YamlDocument] = field(default_factory=dict)
