"""The loaded Ronin data (:class:`RoninData`): what :func:`pipeline.systems.ronin.load.load`
returns and the engine, the legality checks and the drawings read.

Loading draws nothing and plays nothing: this module holds only the data's shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.data.common import Sources
from pipeline.data.yamlfile import (
    YamlDocument,
)
from pipeline.systems.ronin.model import (
    Attribute,
    Faction,
    ModelType,
    RangeBand,
    RulesFile,
    Scenario,
    SystemInfo,
    TerrainKind,
    Weapon,
)

#: The faction holding the Swords-for-Hire.
HIRED = "swords_for_hire"


@dataclass
class Loaded:
    """A validated document with the file it came from (for line numbers)."""

    value: Any
    doc: YamlDocument

    @property
    def path(self) -> Path:
        return self.doc.path


@dataclass
class RoninData:
    """Everything in a Ronin data folder, validated.

    Attributes:
        factions: by id, in file-name order (``swords_for_hire`` included).
        scenarios: by id.
        rosters: the rosters of ``rosters/`` by id.
        games: the games of ``games/`` (scenario + two rosters).
        terrain: the kinds of terrain piece (``terrain.yaml``) by id, in file order.
    """

    root: Path
    system: SystemInfo
    sources: Sources
    rules: RulesFile
    weapons: dict[str, Weapon]
    range_bands: list[RangeBand]
    attributes: dict[str, Attribute]
    attribute_cost: int
    factions: dict[str, Faction]
    scenarios: dict[str, Scenario]
    terrain: dict[str, TerrainKind] = field(default_factory=dict)
    rosters: dict[str, Loaded] = field(default_factory=dict)
    games: list[Loaded] = field(default_factory=list)
    docs: dict[str, YamlDocument] = field(default_factory=dict)

    def model(self, faction: str, model_id: str) -> tuple[ModelType, bool] | None:
        """The model type ``model_id`` of ``faction`` (or of the Swords-for-Hire), and whether
        it is hired."""
        f = self.factions.get(faction)
        if f is not None:
            for m in f.models:
                if m.id == model_id:
                    return m, f.hired_only
        for m in self.factions[HIRED].models:
            if m.id == model_id:
                return m, True
        return None

    def weapons_bands(self) -> list[RangeBand]:
        """The shooting range bands, nearest first."""
        return sorted(self.range_bands, key=lambda b: b.from_in)

    def base_weapon(self, weapon_id: str) -> str:
        """The weapon a Korean/Ming name stands for (``bow`` → ``yumi``)."""
        w = self.weapons.get(weapon_id)
        return w.same_as if w is not None and w.same_as else weapon_id
