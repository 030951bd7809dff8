"""The game ready to play: both Buntai fielded from their rosters (each model's
:class:`Profile`), their deployment, Morale Ratings and reserves, and the turn cap."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from pipeline.errors import GunbaiError
from pipeline.systems.ronin.data import RoninData
from pipeline.systems.ronin.model import AttributeNear, Faction, Game, ModelType, Scenario, Zone

if TYPE_CHECKING:
    from pipeline.systems.ronin.engine.state import RoninState

#: The five characteristics a model must have to be played.
STATS = ("rank", "combat_pool", "initiative", "fight", "shoot")
ARMOUR = {"none": 0, "light": 1, "medium": 2, "heavy": 3}
D6 = tuple((f, Fraction(1, 6)) for f in range(1, 7))
#: Turns after which a game with no turn limit (Defend the Village) is cut off as undecided. 200
#: random-play games of the shipped Defend the Village lasted 60 turns at the median, 211 at the
#: 99th percentile, 236 at most: the cap leaves the rare stalled game undecided.
OPEN_ENDED_CAP = 250
#: How far apart two models in base contact may be (edge to edge, inches).
TOUCH = 0.05


class UnplayableGame(GunbaiError):
    """A game the engine cannot play: a model's statline is ``unknown``, or a side is empty."""


# --------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class Profile:
    """A fielded model, ready to play: characteristics after its options, its weapons (base ids:
    a Korean ``bow`` is a ``yumi``), the hand-to-hand weapon it fights with and its missile
    weapon."""

    key: str
    name: str
    type: str
    rank: int
    combat_pool: int
    initiative: int
    fight: int
    shoot: int
    armour: str
    melee: str
    missile: str | None
    attributes: frozenset[str]
    banner: bool = False
    mounted: bool = False
    hired: bool = False
    civilian: bool = False
    attributes_near: tuple[AttributeNear, ...] = ()
    unreliable: bool = False


@dataclass(frozen=True)
class SidePlan:
    """One side of a game: role, faction (None for a fixed force), its models in roster order,
    where they deploy, the turn each arrives (Reserves), its Morale Rating and extras."""

    role: str
    name: str
    faction: Faction | None
    models: tuple[Profile, ...]
    zone: Zone
    arrives: tuple[int, ...]
    morale: int | None
    kiai: int = 0
    no_morale: bool = False


def _missing(m: ModelType, cp: int | str) -> list[str]:
    vals = {"rank": m.rank, "combat_pool": cp, "initiative": m.initiative, "fight": m.fight, "shoot": m.shoot}
    return [k.replace("_", " ").title() for k in STATS if not isinstance(vals[k], int)]


class RoninGame:
    """A game of ``games/*.yaml`` made ready to play: both Buntai fielded from their rosters (or
    the scenario's fixed force), each model's profile, deployment spots and reserves.

    Raises (from :meth:`from_game`):
        UnplayableGame: a model's Rank, Combat Pool, Initiative, Fight or Shoot is ``unknown``
            (the message names the game, the side, the model and the characteristics).
    """

    def __init__(self, data: RoninData, game: Game, scenario: Scenario, sides: tuple[SidePlan, SidePlan], civilian: Profile | None):
        self.data = data
        self.game = game
        self.scenario = scenario
        self.sides = sides
        self.civilian = civilian
        self.radius = data.system.vassal.base_mm / 25.4 / 2
        self.bands = data.weapons_bands()
        #: combat roll modifiers of rules.yaml by id (banner_bearer, mounted_attack, long_weapon_building…)
        self.roll_modifiers = {x.id: int(x.value) for x in data.rules.defence_modifiers if x.value != "unknown"}

    @classmethod
    def from_game(cls, data: RoninData, game: Game) -> RoninGame:
        from pipeline.systems.ronin.deployment import deployment
        from pipeline.systems.ronin.roster import check_roster

        sc = data.scenarios[game.scenario]
        problems: list[str] = []
        plans = []
        for side in game.sides:
            profiles: list[Profile] = []
            faction = None
            kiai = 0
            if side.roster is not None:
                lr = data.rosters[side.roster]
                faction = data.factions[lr.value.faction]
                kiai = lr.value.extras.get("fearsome_kiai", 0)
                for i, fm in enumerate(check_roster(data, lr).models):
                    miss = _missing(fm.model, fm.combat_pool)
                    if miss:
                        problems.append(f"{side.role} ({side.roster}): {fm.model.name} has {', '.join(miss)} unknown")
                        continue
                    profiles.append(_profile(data, f"{side.side}{i + 1}", fm.model, fm.weapons, fm.armour, int(fm.combat_pool), fm.attributes, fm.banner, fm.hired,
                                             mounted=fm.mount is not None))
            for mid, n in side.fixed.items():
                mt = next((m for m in sc.models if m.id == mid), None)
                if mt is None:
                    problems.append(f"{side.role}: {mid!r} is not a model of the {sc.name} scenario")
                    continue
                miss = _missing(mt, mt.combat_pool)
                if miss:
                    problems.append(f"{side.role}: {mt.name} (scenario {sc.id}) has {', '.join(miss)} unknown")
                    continue
                for _ in range(n):
                    profiles.append(_profile(data, f"{side.side}{len(profiles) + 1}", mt, list(mt.weapons), mt.armour, int(mt.combat_pool), list(mt.attributes), False, False))
            arrives = [1] * len(profiles)
            if sc.reserves == "attacker" and side.role == "Attacker":
                n = len(profiles)
                first = -(-n // 2)
                second = -(-(n - first) // 2)
                arrives = [1] * first + [2] * second + [3] * (n - first - second)
            morale, no_morale = _morale_rating(faction, profiles, sc, side.role)
            plans.append(SidePlan(side.role, side.roster or "+".join(side.fixed), faction, tuple(profiles), side.zone, tuple(arrives), morale, kiai, no_morale))
        if problems:
            raise UnplayableGame(f"ronin game {game.id}: cannot be played: " + "; ".join(problems) + " (statlines the public sources do not give; see sources.yaml)")
        for p in plans:
            if not p.models:
                raise UnplayableGame(f"ronin game {game.id}: {p.role} fields no model")
        civilian = None
        if game.civilians:
            mt = next((m for m in sc.models if m.id == "civilian"), None)
            if mt is None or _missing(mt, mt.combat_pool):
                raise UnplayableGame(f"ronin game {game.id}: the civilians' profile is not in the {sc.name} scenario")
            civilian = _profile(data, "civ", mt, list(mt.weapons), mt.armour, int(mt.combat_pool), [], False, False, civilian=True)
        g = cls(data, game, sc, (plans[0], plans[1]), civilian)
        g.spots = [deployment(data, game, side) for side in game.sides]
        return g

    def new_state(self) -> RoninState:
        """The state at the start of the game (before the game-length roll)."""
        from pipeline.systems.ronin.engine.state import RoninState

        return RoninState(self)

    def label(self) -> str:
        return f"ronin {self.game.id} ({self.sides[0].name} v {self.sides[1].name})"


def _profile(data: RoninData, key: str, mt: ModelType, weapons: list[str], armour: str, cp: int, attributes: list[str], banner: bool, hired: bool,
             civilian: bool = False, *, mounted: bool | None = None) -> Profile:
    """The :class:`Profile` of a fielded model; ``mounted`` when it rides (a horse bought in its
    roster, p.27-28; default: the model list's own mounted models)."""
    base = [data.base_weapon(w) for w in weapons if w in data.weapons]
    melee_ids = [w for w in base if data.weapons[w].kind == "melee" and w != "shield"]
    if banner:
        melee_ids = ["katana"]  # a banner bearer fights only with a katana (p.27)
    if not melee_ids:
        melee_ids = ["weaponless"]

    def score(w: str) -> tuple[int, int]:
        wp = data.weapons[w]
        a = wp.attack if isinstance(wp.attack, int) else 0
        i = wp.initiative if isinstance(wp.initiative, int) else 0
        return (a, i)

    melee = max(melee_ids, key=score)
    missile = next((w for w in base if data.weapons[w].kind == "missile"), None)
    attrs = set(attributes)
    if "niten" in attrs:
        cp += 1
    return Profile(key, mt.name, mt.type, int(mt.rank), cp, int(mt.initiative), int(mt.fight), int(mt.shoot), armour if armour in ARMOUR else "none",
                   melee, missile, frozenset(attrs), banner, mt.mounted if mounted is None else mounted, hired, civilian, tuple(mt.attributes_near), hired and mt.unreliable)


def _morale_rating(faction: Faction | None, models: list[Profile], sc: Scenario, role: str) -> tuple[int | None, bool]:
    """The Buntai's Morale Rating and whether it never tests (Assassination's Ninja; a Buntai
    whose models are all Fearless)."""
    if faction is None:
        return None, True
    if all("fearless" in m.attributes for m in models):
        return faction.morale, True
    rules = {r.id: r.value for r in faction.rules}
    rating = faction.morale
    if "ikko_morale_banner" in rules and any(m.banner for m in models):
        rating = int(rules["ikko_morale_banner"])
    return rating, False


def turn_cap(game: RoninGame) -> int:
    """Player turns after which :func:`pipeline.play.play_game` cuts a game off: one more than
    the longest game (d6+6 → 12 turns; a Tournament: six turns a match and a final match), or
    :data:`OPEN_ENDED_CAP` for a game with no turn limit."""
    ln = game.scenario.length
    if ln.match_turns:
        return ln.match_turns * min(len(game.sides[0].models), len(game.sides[1].models)) + 30
    if ln.open_ended:
        return OPEN_ENDED_CAP
    return (ln.turns or 6 + (ln.d6_plus or 0)) + 1
