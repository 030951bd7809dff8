"""Schema of the Sekigahara data files (``source_data/sekigahara/``).

Distances in inches, facings in degrees clockwise from north (:mod:`pipeline.measured.geometry`).
A unit is a line of ``stands``; its base is ``stands × stand.width`` wide and ``stand.depth`` deep.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from pipeline.data.common import FieldError, Fixed, HistoricalDate, Id, Source, Strict, Text
from pipeline.data.playability import Playability
from pipeline.measured.data import Area, Mon, TableSize, TroopSymbol, VassalSettings

#: Most men one unit stands for: the largest contingent at Sekigahara was about 30,000 (the whole
#: Eastern Army about 75,000-89,000); a unit's ``men`` is the historical strength it represents.
MAX_MEN = 100_000


class TurnLimit(Strict):
    limit: int = Field(ge=1)
    source: Source


class Sequence(Strict):
    phases: list[Literal["treachery", "east_moves", "east_shoots", "west_moves", "west_shoots", "charges", "melee"]]
    source: Source


class TreacheryRow(Strict):
    """Faces of the D6 on which the contingent joins each side on ``turn`` (the last row holds
    for every later turn)."""

    turn: int = Field(ge=1)
    east: list[int]
    west: list[int]


class Treachery(Strict):
    contingent: Id
    reading: Literal["text", "table"]
    text: list[TreacheryRow] = Field(min_length=1)
    table: list[TreacheryRow] = Field(min_length=1)
    source: Source

    def rows(self, reading: str | None = None) -> list[TreacheryRow]:
        return self.text if (reading or self.reading) == "text" else self.table


class Movement(Strict):
    """Cavalry and infantry move ``inches``; commanders ``commander_inches``. ``commanders``:
    who the text's "Commanders" are (erratum ``who_are_commanders``): ``leaders`` every leader,
    ``army_commanders`` only the two armies' commanders (other leaders move ``inches``)."""

    inches: float
    commander_inches: float
    commanders: Literal["leaders", "army_commanders"]
    source: Source


class ShootingRules(Strict):
    range_inches: float
    die: int
    hit_on: int
    dice_per_base: int
    all_bases_if_any_in_range: bool
    not_when_in_melee: bool
    source: Source


class ChargeRules(Strict):
    max_inches: float
    only_to_front: bool
    must_reach: bool
    first: Literal["east", "west"]
    source: Source


class MeleeRules(Strict):
    die: int
    simultaneous: bool
    versus_missile_troops_hit_on: int
    source: Source


class FlankAttack(Strict):
    defender_bases: int
    first_round_only: bool
    source: Source


class LastStand(Strict):
    removed_at_bases: int
    source: Source


class LeaderRules(Strict):
    extra_base_in_melee: bool
    counts_in_shooting: bool
    hit_on: int
    loss_roll_eliminated_on: list[int]
    source: Source


class PersonalCombat(Strict):
    both_must_agree: bool
    high_roll_wins: bool
    reroll_ties: bool
    source: Source


class Stand(Strict):
    width: float = Field(gt=0)
    depth: float = Field(gt=0)
    source: Source


class Colours(Strict):
    fill: str
    text: str


class SystemInfo(Strict):
    id: Literal["sekigahara"]
    name: Text
    table: TableSize
    turns: TurnLimit
    sequence: Sequence
    treachery: Treachery
    movement: Movement
    shooting: ShootingRules
    charge: ChargeRules
    melee: MeleeRules
    flank_attack: FlankAttack
    last_stand: LastStand
    leaders: LeaderRules
    personal_combat: PersonalCombat
    stand: Stand
    armies: dict[Id, Colours]
    vassal: VassalSettings


class UnitType(Strict):
    """A unit type. ``symbol`` is the troop type its counter shows (display only; default
    ``sword``)."""

    id: Id
    name: Text
    kanji: str | None = None
    symbol: TroopSymbol | None = None
    mounted: bool
    move_source: Source
    shoots: bool
    melee_hit_on: int = Field(ge=1, le=6)
    melee_source: Source
    missile_troops: bool


class UnitsFile(Strict):
    units: list[UnitType] = Field(min_length=1)


class Side(Strict):
    id: Id
    name: Text
    army: Id
    commander: str


class Undecided(Strict):
    contingent: Id
    leader: str
    source: Source


class TerrainPlacement(Strict):
    """A feature drawn on the table. The rules text has no terrain rules: features are scenery
    (and deployment landmarks) only.

    A feature is placed by an ``area`` (hills, woods, villages, fields, marsh) or, for roads and
    streams, by a ``path`` of ``[x, y]`` points (inches) with a ``width``. ``source`` says where
    the feature and its place come from (the map itself is gunbai's: its confidence is that of
    the relative position); ``label_at`` moves the label (inches).
    """

    terrain: Literal["hill", "woods", "river", "stream", "road", "marsh", "town", "village", "fields"]
    name: str | None = None
    area: Area | None = None
    path: list[Fixed[float, float]] | None = Field(default=None, min_length=2)
    width: float | None = Field(default=None, gt=0)
    label_at: Fixed[float, float] | None = None
    source: Source | None = None

    @model_validator(mode="after")
    def _placed_once(self) -> TerrainPlacement:
        if (self.area is None) == (self.path is None):
            raise ValueError("a feature needs exactly one of area (hills, woods, villages…) or path (roads, streams)")
        if self.path is not None and self.terrain not in ("road", "river", "stream"):
            raise FieldError("terrain", f"road, river or stream: only they follow a path (a {self.terrain} takes an area)")
        return self


class Deployment(Strict):
    id: Id
    side: Id
    area: Area


class Leader(Strict):
    name: Text
    commander: bool = False


class UnitPlacement(Strict):
    id: Id
    side: Id
    unit: Id
    name: Text
    stands: int = Field(ge=1)
    x: float
    y: float
    facing: float = Field(ge=0, lt=360)
    deployment: Id
    leader: Leader | None = None
    men: Annotated[int, Field(ge=1, le=MAX_MEN)] | None = None
    mon: Mon | None = None
    source: Source


class Scenario(Strict):
    id: Id
    code: str
    name: Text
    description: str
    date: HistoricalDate
    turns: int = Field(ge=1)
    sides: list[Side] = Field(min_length=2, max_length=2)
    undecided: Undecided
    history_source: Source
    layout_source: Source
    terrain: list[TerrainPlacement] = []
    deployments: list[Deployment]
    units: list[UnitPlacement] = Field(min_length=2)
    victory: str
    victory_source: Source
    #: thresholds and band of ``gunbai verify --play`` (:class:`pipeline.data.playability.Playability`)
    playability: Playability = Playability()
