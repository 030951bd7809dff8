"""The loaded Genpei data (:class:`GenpeiData`): what :func:`pipeline.systems.genpei.load.load`
returns and the engine, the legality checks and the drawings read.

Loading draws nothing and plays nothing: this module holds only the data's shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pipeline.data.common import Sources
from pipeline.data.yamlfile import YamlDocument
from pipeline.systems.genpei.model import (
    BoardGeometry,
    CardsFile,
    CommandCard,
    DragonCard,
    LeaderType,
    MarkerType,
    Scenario,
    SystemInfo,
    TerrainType,
    UnitType,
)


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
        cards: the Command and Dragon decks (``cards.yaml``).
        units, leaders, terrain, markers, command_cards, dragon_cards: the catalogues by id,
            in file order.
        scenarios: the scenarios, sorted by file name.
        docs: the parsed file of each catalogue (file name → document), for line numbers.
    """

    root: Path
    system: SystemInfo
    sources: Sources
    board: BoardGeometry
    cards: CardsFile
    command_cards: dict[str, CommandCard]
    dragon_cards: dict[str, DragonCard]
    units: dict[str, UnitType]
    leaders: dict[str, LeaderType]
    terrain: dict[str, TerrainType]
    markers: dict[str, MarkerType]
    scenarios: list[LoadedScenario] = field(default_factory=list)
    docs: dict[str, YamlDocument] = field(default_factory=dict)
