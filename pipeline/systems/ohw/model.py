"""Schema of the OHW Samurai data files (``source_data/ohw/``).

Distances are inches, facings degrees clockwise from north (:mod:`pipeline.measured.geometry`).
Every rules datum carries a :class:`~pipeline.data.common.Source`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pipeline.data.common import Id, Source, Strict, Text
from pipeline.data.playability import Playability
from pipeline.measured.data import Area, SceneryKind, TableSize, TroopSymbol, VassalSettings

Face = Literal["front", "left", "right", "rear"]


class TurnLimit(Strict):
    limit: int = Field(ge=1)
    source: Source


class Sequence(Strict):
    phases: list[Literal["movement", "shooting", "hand_to_hand", "eliminating_units"]]
    source: Source


class OrdersRoll(Strict):
    """D6 per unit: ``full_move_on`` or more moves the full allowance, else ``reduced_by_inches``
    less; a unit with ``damaged_at_hits`` hits or more needs ``damaged_full_move_on``."""

    die: int = 6
    full_move_on: int
    reduced_by_inches: float
    damaged_full_move_on: int
    damaged_at_hits: int
    source: Source


class Turning(Strict):
    pivot: Literal["centre"]
    when: list[Literal["start", "end"]]
    source: Source


class Road(Strict):
    bonus_inches: float
    whole_move_on_road: bool
    not_when_charging: bool
    source: Source


class Interpenetration(Strict):
    only_skirmishers: bool
    source: Source


class ChargeRules(Strict):
    max_turn_degrees: float
    turns_allowed: int
    one_attacker_per_face: bool
    faces: list[Face]
    source: Source


class ShootingRules(Strict):
    arc_half_angle_degrees: float
    targets: int
    cover_divisor: int
    rounding: Literal["attacker"]
    source: Source


class HandToHandRules(Strict):
    one_sided: bool
    halving_divisor: int
    rounding: Literal["attacker"]
    flank_rear_multiplier: int
    turn_to_face_if_not_frontally_engaged: bool
    retire_full_move: bool
    source: Source


class Elimination(Strict):
    hits: int
    source: Source


class GeneralRules(Strict):
    """The General (Daimyo): attached to a unit of ``attached_to``, ``per_side`` a side, removed
    with his unit. ``reroll``: which die rolls he may re-roll once, keeping the second value:
    ``own_side`` every roll of his side, ``own_unit`` only his own unit's (erratum
    ``general_reroll``)."""

    attached_to: Id
    per_side: int
    removed_with_unit: bool
    reroll: Literal["own_side", "own_unit"]
    source: Source


class Limit(Strict):
    value: int
    source: Source


class Colours(Strict):
    fill: str
    text: str


class SystemInfo(Strict):
    """``system.yaml``."""

    id: Literal["ohw"]
    name: Text
    table: TableSize
    turns: TurnLimit
    sequence: Sequence
    orders: OrdersRoll
    turning: Turning
    road: Road
    interpenetration: Interpenetration
    charge: ChargeRules
    shooting: ShootingRules
    hand_to_hand: HandToHandRules
    elimination: Elimination
    general: GeneralRules
    max_units_per_side: Limit
    armies: dict[Id, Colours]
    vassal: VassalSettings


class Move(Strict):
    inches: float = Field(gt=0)
    source: Source


class BaseSize(Strict):
    width: float = Field(gt=0)
    depth: float = Field(gt=0)
    source: Source


class Shooting(Strict):
    range_inches: float = Field(gt=0)
    modifier: int
    source: Source


class Melee(Strict):
    modifier: int
    halved_if_attacked_frontally: bool
    source: Source


class UnitType(Strict):
    """A unit type. ``symbol`` is the troop type its counter shows (display only; default
    ``sword``)."""

    id: Id
    name: Text
    kanji: str | None = None
    symbol: TroopSymbol | None = None
    role: str
    role_source: Source
    move: Move
    base: BaseSize
    shooting: Shooting | None
    shooting_source: Source
    melee: Melee
    skirmisher: bool
    skirmisher_source: Source
    can_carry_general: bool


class UnitsFile(Strict):
    units: list[UnitType] = Field(min_length=1)


class TerrainType(Strict):
    """A kind of terrain feature. ``melee_halved``: a defender in it suffers half the
    hand-to-hand hits; ``melee_halved_only_against_attackers_off_it``: only when the attacker
    is not in the same feature (a hill defended against an attack from below, erratum
    ``hill_defence``). ``passable: false`` with ``crossed_at_crossings``: impassable except where
    a ``crossing`` feature (ford, bridge) covers it (a river); without it, impassable to every
    move whatever crossing lies on it (woods, marshland, lakes). ``draw`` is how the table draws
    it (display only; default: its ``id``, which must then be a scenery kind)."""

    id: Id
    name: Text
    draw: SceneryKind | None = None
    passable: bool
    blocks_sight: bool
    shooting_cover: bool
    melee_halved: bool
    melee_halved_only_against_attackers_off_it: bool = False
    crossed_at_crossings: bool = False
    crossing: bool = False
    road: bool = False
    colour: str
    source: Source


class DefenceType(Strict):
    id: Id
    name: Text
    halves: Literal["shooting", "hand_to_hand"]
    removed_if_unit_moves: bool
    source: Source


class TerrainFile(Strict):
    terrain: list[TerrainType]
    defences: list[DefenceType]


class Pattern(Strict):
    number: int
    name: Text
    source: Source


class Side(Strict):
    id: Id
    name: Text
    army: Id


class TerrainPlacement(Strict):
    terrain: Id
    area: Area
    name: str | None = None


class Deployment(Strict):
    """A named deployment area of one side; its units enter play on turn ``arrives``."""

    id: Id
    side: Id
    area: Area
    arrives: int = Field(default=1, ge=1)


class UnitPlacement(Strict):
    id: Id
    side: Id
    unit: Id
    x: float
    y: float
    facing: float = Field(ge=0, lt=360)
    deployment: Id
    general: str | None = None
    defences: list[Id] = []


class Objective(Strict):
    """``hold``: control ``area`` at the end (units of one side in it, none of the other);
    ``survive``: ``side`` wins if any of its units is left at the end, else the other side."""

    id: Id
    kind: Literal["hold", "survive"]
    area: Area | None = None
    side: Id | None = None
    description: str


class Scenario(Strict):
    id: Id
    code: str
    name: Text
    pattern: Pattern
    description: str
    turns: int = Field(ge=1)
    first_side: Id
    sides: list[Side] = Field(min_length=2, max_length=2)
    layout_source: Source
    terrain: list[TerrainPlacement] = []
    deployments: list[Deployment] = Field(min_length=2)
    units: list[UnitPlacement] = Field(min_length=2)
    objectives: list[Objective] = Field(min_length=1)
    victory: str
    victory_source: Source
    #: thresholds and band of ``gunbai verify --play`` (:class:`pipeline.data.playability.Playability`)
    playability: Playability = Playability()
