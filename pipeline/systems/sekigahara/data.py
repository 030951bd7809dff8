"""The loaded Sekigahara data (:class:`SekiData`): what :func:`pipeline.systems.sekigahara.load.load`
returns and the engine, the legality checks and the drawings read.

Loading draws nothing and plays nothing: this module holds only the data's shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.data.common import Sources
from pipeline.data.yamlfile import YamlDocument
from pipeline.measured.data import Loaded
from pipeline.measured.geometry import Base
from pipeline.systems.sekigahara.model import SystemInfo, UnitType

#: The side id of Kobayakawa's contingent before the treachery roll decides it.
UNDECIDED = "undecided"


@dataclass
class SekiData:
    """Everything in a Sekigahara data folder, validated against the schema.

    Attributes:
        root: the folder.
        system, sources: ``system.yaml`` and ``sources.yaml``.
        units: the unit types by id, in file order (``units.yaml``).
        scenarios: the scenarios, sorted by file name, each with its document.
        docs: the parsed fixed files by file name, for line numbers.
    """

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
