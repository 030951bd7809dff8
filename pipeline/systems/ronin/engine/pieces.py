"""What a game in progress is made of: the models on the table, the two sides' state, and a
combat of the Combat Phase."""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.systems.ronin.engine.game import Profile, SidePlan


@dataclass
class Model:
    """A model in play: its :class:`Profile`, position (inches), wounds and what it did this
    turn."""

    id: str
    side: int
    p: Profile
    x: float
    y: float
    arrives: int = 1
    alive: bool = True
    on_table: bool = False
    fled: bool = False  # left the table while Routing
    wound: str = "none"  # none | light | grievous
    stunned: int = 0
    loaded: bool = True
    moved: str = ""  # "" | "move" | "run"
    shots: int = 0
    fought: bool = False
    rested: bool = False
    rounds: int = 0  # combat phases fought in a row
    struck_on_withdraw: bool = False
    dying: bool = False
    leader: bool = False
    duellist: bool = False
    killer_rank: int | None = None
    head_taken: bool = False
    banner_taken: bool = False
    heads: int = 0
    activated: bool = False
    civilian_fights: bool | None = None
    matched: bool = False


@dataclass
class SideState:
    plan: SidePlan
    morale: str = "steady"  # steady | wavering | routing
    criticals: int = 0  # this turn
    criticals_last: int = 0
    leader_hit: bool = False
    leader_hit_last: bool = False
    kiai: int = 0
    kiai_now: bool = False
    banners_captured: int = 0
    minor: int | None = None
    penalties: float = 0.0
    match_wins: int = 0
    match_points: int = 0
    done: bool = False


@dataclass
class Combat:
    """One combat of the Combat Phase: the models of each side, their Attack counters and their
    own Defence counters, the Initiative order."""

    sides: tuple[list[str], list[str]]
    attack: dict[str, int] = field(default_factory=dict)
    defence: dict[str, int] = field(default_factory=dict)
    enhanced_init: set[str] = field(default_factory=set)
    init: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    at: int = 0
    passes: int = 0
