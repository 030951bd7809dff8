"""The Ronin rules engine (book p.10-28 and the Scenarios chapter), to the state protocol of
:mod:`pipeline.play`: the games of ``games/*.yaml`` played turn by turn.

A :class:`RoninGame` is a game ready to play (the scenario, both Buntai fielded from their
rosters, the terrain, the deployment); :meth:`RoninGame.new_state` starts a :class:`RoninState`.
Models whose statline is ``unknown`` cannot be played: :meth:`RoninGame.from_game` raises
:class:`UnplayableGame` naming each model and the missing characteristics.

A turn (p.10): **Priority** (each player a d6, re-rolling ties: a chance node; a Bushi Fearsome
Kiai wins it outright; the Assassination's Attacker has it on turn 1), **Morale** tests (p.11-12:
when Wavering, after 25% of the starting strength or the Leader took a Critical wound the turn
before; 2d6 + modifiers against the faction's Morale Rating, a natural 2 passes and 12 fails, a
banner re-rolls a failure, Fearless models ignore the result), the **Move Phase** (players
activate models alternately, the player with Priority first: move 6" (mounted 12"), Run 9"
(Gallop 18") not passing within 1" of an enemy, charge into base contact, Withdraw 2" out of
contact with one free attack at +1 allowed (errata: one per turn), or shoot with a -1; halved
movement when Stunned, Grievously wounded or through Difficult terrain, never below 1"; Wavering
models roll d6 + Rank ≥ 7 to charge, Routing ones to act at all, else they run for the nearest
edge), the **Combat Phase** (p.17-23: every model in base contact fights once; combats formed
so that one side only has several models, at most four against one; each model splits its
Combat Pool into Attack and Defence counters, rolls Initiative (d6, Enhanced: best of 2d6 for an
Attack counter), and in Initiative order makes attacks: 2d6 (Enhanced 3d6 keep 2) + Fight +
modifiers against 1d6 (Enhanced 2d6) + Fight + armour + modifiers; the Wound Score on the wound
table, wounds combined by the errata), the **Action Phase** (shoot again, reload a teppo, take a
head, pick up a banner, rest) and the **End Phase** (Stunned counters removed on the d6 table,
the scenario's end checked). Shooting (p.14-16): 2d6 + Shoot + range band and other modifiers
against 6 + armour (a teppo ignores light and medium armour) + cover; a failed shot at an
engaged model is tried again at another model of that combat.

Scenario rules (``scenarios/*.yaml`` ``length`` and ``scoring``): game length (d6+6 rolled at the
start, or fixed), standard Victory Points (enemy killed: its Rank, Rank 0 half a point; captured
banner 5; routed off the table: half the Rank) with the factions' own (Bushi, Koreans) and the
scenario's (the Skirmish's rolled Minor Objective, the objective of Capture and Defence, the
Duel's penalties and duellists, the civilians of Defend the Village), the Assassination's
Leader kill, and the Tournament's matches of six turns won on match points.

Decisions (``current_player()`` 0 = the game's first side, 1 = the second) and their actions:

* ``("kiai",)`` / ``("no_kiai",)``; the Duel's duellist ``("duellist", model_id)``;
* a model's Move Phase activation: ``("hold",)``, ``("pass",)`` (the player's phase ends),
  ``("charge", enemy)``, ``("advance", goal)`` / ``("run", goal)`` with goal ``enemy``,
  ``objective``, ``marker`` (the nearest enemy Slain marker) or ``back`` (away from the nearest
  enemy), ``("shoot", enemy)``; engaged: ``("stay",)``, ``("withdraw",)``; a civilian
  ``("stay",)`` / ``("flee",)``; a free attack on a withdrawing model ``("strike", model)`` /
  ``("let_go",)``;
* combat: ``("counters", attack)`` (Attack counters, the rest Defence), ``("enhance",)`` /
  ``("plain",)`` for the Initiative, Defence and Attack rolls, ``("strike", target)`` /
  ``("pass",)``;
* an Action Phase activation: ``("rest",)``, ``("shoot", enemy)``, ``("reload",)``,
  ``("take_head", slain)``, ``("take_banner", slain)``.

Chance nodes: priority (``0``/``1``), a d6 or a pass/fail test with its exact chance, the result
of an attack or shot (``none``, ``stunned``, ``light``, ``grievous``, ``critical``: exact, from
:mod:`pipeline.systems.ronin.odds`), the model a missed shot into a combat hits next.

Abstractions of the engine (not rules; what a player would decide is made simple): models move in
straight lines towards a goal; a model activates in roster order (its player chooses what it
does, or passes for all the rest); the combats are formed and taken in roster order; each model
fights with its best hand-to-hand weapon (Attack then Initiative modifier); a bujutsu re-roll is
taken on a die of 3 or less (the odds tool's rule); a Grievous wound takes an Attack counter
before a Defence counter; line of sight is the line between base centres; a Subdue or Disarm
attack is never declared, so the Skirmish's Minor Objective 1 (capture a model) is never met;
Inexorable, Yojimbo, Senjo-jutsu, Ninja disguise, mounts as separate targets, carrying objects,
looting, weather and the time of day (fine weather in daylight) are not played.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from pipeline.errors import GunbaiError
from pipeline.systems.ronin.load import RoninData
from pipeline.systems.ronin.model import Faction, Game, GameTerrain, ModelType, Scenario, Zone
from pipeline.systems.ronin.odds import (
    RESULTS,
    MeleeSide,
    ShootSide,
    melee_distribution,
    shooting_distribution,
)

#: The five characteristics a model must have to be played.
STATS = ("rank", "combat_pool", "initiative", "fight", "shoot")
ARMOUR = {"none": 0, "light": 1, "medium": 2, "heavy": 3}
D6 = tuple((f, Fraction(1, 6)) for f in range(1, 7))
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

    @classmethod
    def from_game(cls, data: RoninData, game: Game) -> RoninGame:
        from pipeline.systems.ronin.module import deployment
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
                    profiles.append(_profile(data, f"{side.side}{i + 1}", fm.model, fm.weapons, fm.armour, int(fm.combat_pool), fm.attributes, fm.banner, fm.hired))
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
        return RoninState(self)

    def label(self) -> str:
        return f"ronin {self.game.id} ({self.sides[0].name} v {self.sides[1].name})"


def _profile(data: RoninData, key: str, mt: ModelType, weapons: list[str], armour: str, cp: int, attributes: list[str], banner: bool, hired: bool, civilian: bool = False) -> Profile:
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
                   melee, missile, frozenset(attrs), banner, mt.mounted, hired, civilian)


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
    the longest game (d6+6 → 12 turns; a Tournament: six turns a match and a final match)."""
    ln = game.scenario.length
    if ln.match_turns:
        return ln.match_turns * min(len(game.sides[0].models), len(game.sides[1].models)) + 30
    return (ln.turns or 6 + (ln.d6_plus or 0)) + 1


# --------------------------------------------------------------------------- geometry


def _seg_point(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    dx, dy = bx - ax, by - ay
    n2 = dx * dx + dy * dy
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n2))
    return math.hypot(ax + dx * t - px, ay + dy * t - py)


def _in_zone(z: Zone, x: float, y: float, pad: float = 0.0) -> bool:
    if z.kind == "circle":
        return math.hypot(x - z.x, y - z.y) <= z.r + pad
    return z.x - pad <= x <= z.x + z.w + pad and z.y - pad <= y <= z.y + z.h + pad


def _seg_zone(z: Zone, ax: float, ay: float, bx: float, by: float, pad: float) -> bool:
    """Does the segment come within ``pad`` of the zone?"""
    if z.kind == "circle":
        return _seg_point(ax, ay, bx, by, z.x, z.y) <= z.r + pad
    return _clip(z, ax, ay, bx, by, pad) > 0 or _in_zone(z, ax, ay, pad)


def _clip(z: Zone, ax: float, ay: float, bx: float, by: float, pad: float = 0.0) -> float:
    """Length of the segment inside the zone (grown by ``pad``)."""
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return 0.0
    dx, dy = bx - ax, by - ay
    if z.kind == "circle":
        fx, fy = ax - z.x, ay - z.y
        a = dx * dx + dy * dy
        b = 2 * (fx * dx + fy * dy)
        c = fx * fx + fy * fy - (z.r + pad) ** 2
        disc = b * b - 4 * a * c
        if disc <= 0:
            return 0.0
        s = math.sqrt(disc)
        t0, t1 = max(0.0, (-b - s) / (2 * a)), min(1.0, (-b + s) / (2 * a))
        return max(0.0, t1 - t0) * length
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - (z.x - pad)), (dx, z.x + z.w + pad - ax), (-dy, ay - (z.y - pad)), (dy, z.y + z.h + pad - ay)):
        if p == 0:
            if q < 0:
                return 0.0
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    return max(0.0, t1 - t0) * length


# --------------------------------------------------------------------------- state


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


class RoninState:
    """A game in progress; see the module docstring for the turn, the decisions and the chance
    nodes."""

    def __init__(self, game: RoninGame):
        self.g = game
        self.data = game.data
        self.sc = game.scenario
        self.sco = game.scenario.scoring
        self.table = game.game.table_side_in
        self.r = game.radius
        self.models: dict[str, Model] = {}
        self.sides = [SideState(p, kiai=p.kiai) for p in game.sides]
        for s, plan in enumerate(game.sides):
            top = max(m.rank for m in plan.models)
            leader_set = False
            for i, prof in enumerate(plan.models):
                x, y = game.spots[s][i]
                m = Model(prof.key, s, prof, x, y, arrives=plan.arrives[i])
                if prof.rank == top and not leader_set:
                    m.leader = leader_set = True
                self.models[m.id] = m
        self.civilians: list[str] = []
        if game.civilian is not None:
            ox, oy = game.game.objective or (self.table / 2, self.table / 2)
            n = game.game.civilians
            defender = next(i for i, s in enumerate(game.sides) if s.role == "Defender")
            for k in range(n):
                m = Model(f"civ{k + 1}", defender, game.civilian, ox - 1.5 * (n - 1) / 2 + 1.5 * k, oy + 2)
                self.models[m.id] = m
                self.civilians.append(m.id)
        self.terrain: list[GameTerrain] = list(game.game.terrain)
        self.objective = game.game.objective
        self.slain: list[str] = []
        self.turn = 0
        self.turns_begun = 0
        self.length: int | None = self.sc.length.turns
        self.priority = 0
        self.steps: list[tuple[str, int, Hashable]] = []
        self.pending: tuple[list[tuple[Hashable, float]], str, Hashable] | None = None
        self._opts: list[tuple] = []
        self.combat: Combat | None = None
        self.queue: list[list[str]] = [[], []]
        self.phase = "setup"
        self.done = False
        self._winner: int | None = None
        self.vp = [0.0, 0.0]
        self.first_intruder = False
        self.first_outside_attack = False
        self.match: tuple[str, str] | None = None
        self.match_turn = 0
        self.final = False
        self.history: list = []
        self._tab: tuple[list[Model], list[Model], list[Model]] | None = None
        self.steps = [("setup", -1, None)]
        self._run()

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        if self.done or self.pending is not None:
            return -1
        return self.steps[0][1]

    def legal_actions(self) -> list[tuple]:
        if self.done or self.pending is not None:
            return []
        return list(self._opts)

    def is_chance_node(self) -> bool:
        return not self.done and self.pending is not None

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        return [(o, float(p)) for o, p in self.pending[0]]

    def is_terminal(self) -> bool:
        return self.done

    def winner(self) -> int | None:
        return self._winner

    def returns(self) -> list[float]:
        if self._winner is None:
            return [0.0, 0.0]
        return [1.0 if i == self._winner else -1.0 for i in (0, 1)]

    def turn_count(self) -> int:
        return self.turns_begun

    def apply_action(self, action) -> None:
        if self.pending is not None:
            _outs, callback, payload = self.pending
            self.pending = None
            getattr(self, "_on_" + callback)(payload, action)
        else:
            kind, player, payload = self.steps.pop(0)
            getattr(self, "_do_" + kind)(payload, action)
        self._run()

    # ------------------------------------------------------------------ machinery
    def _run(self) -> None:
        """Run automatic steps until a decision with options or a chance node is due."""
        while not self.done and self.pending is None and self.steps:
            kind, player, payload = self.steps[0]
            if player >= 0:
                opts = getattr(self, "_options_" + kind)(payload)
                if opts:
                    self._opts = opts
                    return
                self.steps.pop(0)
                continue
            self.steps.pop(0)
            getattr(self, "_auto_" + kind)(payload)

    def _chance(self, outcomes, callback: str, payload=None) -> None:
        outs = [(o, p) for o, p in outcomes if p > 0]
        if len(outs) == 1:
            getattr(self, "_on_" + callback)(payload, outs[0][0])
            return
        self.pending = (outs, callback, payload)

    def _test(self, p_pass: Fraction, callback: str, payload=None) -> None:
        self._chance([("pass", p_pass), ("fail", 1 - p_pass)], callback, payload)

    def _push(self, *steps: tuple) -> None:
        self.steps[0:0] = list(steps)

    # ------------------------------------------------------------------ queries
    def on_table(self, side: int | None = None) -> list[Model]:
        """Living models on the table (of ``side``), kept until one dies, arrives or leaves."""
        if self._tab is None:
            every = [m for m in self.models.values() if m.alive and m.on_table]
            self._tab = (every, [m for m in every if m.side == 0], [m for m in every if m.side == 1])
        return self._tab[0 if side is None else side + 1]

    def buntai(self, side: int) -> list[Model]:
        """The side's Buntai (its civilians are not part of it)."""
        return [m for m in self.models.values() if m.side == side and not m.p.civilian]

    def dist(self, a: Model, b: Model) -> float:
        """Edge-to-edge distance (inches)."""
        return math.hypot(a.x - b.x, a.y - b.y) - 2 * self.r

    def contacts(self, m: Model) -> list[Model]:
        return [o for o in self.on_table(1 - m.side) if self.dist(m, o) <= TOUCH]

    def engaged(self, m: Model) -> bool:
        return bool(self.contacts(m))

    def _leader(self, side: int) -> Model | None:
        return next((m for m in self.models.values() if m.side == side and m.leader), None)

    def _in_combat_with(self, m: Model) -> list[Model]:
        """Every model in ``m``'s fight (it, the enemies touching it, their other opponents)."""
        group = {m.id}
        frontier = [m]
        while frontier:
            x = frontier.pop()
            for o in self.contacts(x):
                if o.id not in group:
                    group.add(o.id)
                    frontier.append(o)
        return [self.models[i] for i in sorted(group)]

    # ------------------------------------------------------------------ setup and turns
    def _auto_setup(self, _payload) -> None:
        ln = self.sc.length
        steps: list[tuple] = []
        if ln.d6_plus is not None:
            steps.append(("roll_length", -1, None))
        if self.sco.minor_objective:
            steps.append(("roll_minor", -1, 0))
            steps.append(("roll_minor", -1, 1))
        if self.sco.duellists_only_turns:
            steps += [("duellist", 0, 0), ("duellist", 1, 1)]
        if self.sco.kind == "tournament":
            steps.append(("next_match", -1, None))
        else:
            steps.append(("turn_start", -1, None))
        self._push(*steps)

    def _auto_roll_length(self, _payload) -> None:
        self._chance(D6, "length")

    def _on_length(self, _payload, face) -> None:
        self.length = int(face) + (self.sc.length.d6_plus or 0)

    def _auto_roll_minor(self, side) -> None:
        self._chance(D6, "minor", side)

    def _on_minor(self, side, face) -> None:
        self.sides[side].minor = int(face)

    def _options_duellist(self, side) -> list[tuple]:
        return [("duellist", m.id) for m in self.buntai(side)]

    def _do_duellist(self, side, action) -> None:
        self.models[action[1]].duellist = True

    def _auto_turn_start(self, _payload) -> None:
        self.phase = "priority"
        self.turn += 1
        self.turns_begun += 1
        for s in self.sides:
            s.criticals_last, s.criticals = s.criticals, 0
            s.leader_hit_last, s.leader_hit = s.leader_hit, False
            s.kiai_now = False
        self._tab = None
        for m in self.models.values():
            m.moved, m.shots, m.fought, m.rested, m.struck_on_withdraw, m.activated = "", 0, False, False, False, False
            if m.alive and not m.on_table and not m.fled and m.arrives <= self.turn and (self.match is None or m.id in self.match):
                m.on_table = True
                if self.turn == 1 and self.sco.duellists_only_turns and m.duellist:
                    self._place_duellist(m)
        steps: list[tuple] = [("priority", -1, None)]
        if self.sco.kind != "tournament":
            steps.append(("morale", -1, None))
        steps += [("phase", -1, "move"), ("phase", -1, "combat"), ("phase", -1, "action"), ("end_phase", -1, None), ("turn_end", -1, None)]
        self._push(*steps)

    def _place_duellist(self, m: Model) -> None:
        """A duellist stands on the edge of the duelling area (p.61), on the side of its Buntai."""
        cx, cy = self.objective or (self.table / 2, self.table / 2)
        d = math.hypot(m.x - cx, m.y - cy) or 1.0
        m.x, m.y = cx + (m.x - cx) / d * (6 - self.r), cy + (m.y - cy) / d * (6 - self.r)

    # priority ---------------------------------------------------------
    def _auto_priority(self, _payload) -> None:
        if self.turn == 1 and self.sco.kind == "kill_leader":
            self.priority = next(i for i, s in enumerate(self.sides) if s.plan.role == "Attacker")
            return
        self._push(*[("kiai", i, i) for i in (0, 1) if self.sides[i].kiai > 0], ("priority_roll", -1, None))

    def _options_kiai(self, side) -> list[tuple]:
        return [("kiai",), ("no_kiai",)] if self.sides[side].kiai > 0 else []

    def _do_kiai(self, side, action) -> None:
        if action[0] == "kiai":
            self.sides[side].kiai -= 1
            self.sides[side].kiai_now = True

    def _auto_priority_roll(self, _payload) -> None:
        k = [s.kiai_now for s in self.sides]
        if k[0] != k[1]:
            self.priority = 0 if k[0] else 1
            return
        self._chance([(0, Fraction(1, 2)), (1, Fraction(1, 2))], "priority")

    def _on_priority(self, _payload, side) -> None:
        self.priority = int(side)

    # morale -------------------------------------------------------------
    def _auto_morale(self, _payload) -> None:
        for s in (self.priority, 1 - self.priority):
            st = self.sides[s]
            if st.plan.no_morale or st.morale == "routing" or st.plan.morale is None:
                continue
            start = len(st.plan.models)
            if st.morale == "wavering" or st.criticals_last * 4 >= start and st.criticals_last > 0 or st.leader_hit_last:
                self._push(("morale_test", -1, s))

    def morale_pass_chance(self, side: int) -> Fraction:
        """Chance the side passes its Morale Test now (p.11-12 and errata): 2d6 + modifiers at
        most the rating; a natural 2 passes, a natural 12 fails; a living banner re-rolls a
        failure."""
        st = self.sides[side]
        left = sum(1 for m in self.buntai(side) if m.alive and m.on_table or m.alive and not m.fled and not m.on_table)
        start = len(st.plan.models)
        mod = 0
        mod += 1 if left * 2 < start else 0
        mod += 1 if left * 4 < start else 0
        mod += 1 if st.morale == "wavering" else 0
        mod -= 1 if any(m.alive and "commander" in m.p.attributes for m in self.buntai(side)) else 0
        rating = st.plan.morale or 0
        p = Fraction(0)
        for a, b in itertools.product(range(1, 7), repeat=2):
            t = a + b
            ok = t == 2 or (t != 12 and t + mod <= rating)
            p += Fraction(1, 36) if ok else 0
        if any(m.alive and m.p.banner and not m.banner_taken for m in self.buntai(side)):
            p = p + (1 - p) * p
        return p

    def _auto_morale_test(self, side) -> None:
        self._test(self.morale_pass_chance(side), "morale", side)

    def _on_morale(self, side, result) -> None:
        st = self.sides[side]
        if result == "pass":
            if st.morale == "wavering":
                st.morale = "steady"
        else:
            st.morale = "wavering" if st.morale == "steady" else "routing"

    # phases ---------------------------------------------------------------
    def _auto_phase(self, phase) -> None:
        self.phase = phase
        if phase == "combat":
            self._push(("next_combat", -1, self.priority))
            return
        for s in (0, 1):
            self.queue[s] = [m.id for m in self.models.values() if m.side == s]
            self.sides[s].done = False
        self._push(("next_activation", -1, self.priority))

    def _auto_next_activation(self, side) -> None:
        for s in (side, 1 - side):
            if self.sides[s].done:
                continue
            m = self._next_model(s)
            if m is None:
                self.sides[s].done = True
                continue
            m.activated = True
            if self.phase == "move":
                st = self.sides[s]
                if st.morale == "routing" and not self._ignores_morale(m) and not self.engaged(m):
                    self._push(("rout_check", -1, m.id))
                else:
                    self._push(("move", s, m.id))
            else:
                self._push(("act", s, m.id))
            self._push_next(s)
            return

    def _push_next(self, side: int) -> None:
        # after this activation, the other player activates next (if he has models left)
        self.steps.insert(1, ("next_activation", -1, 1 - side))

    def _next_model(self, side: int) -> Model | None:
        while self.queue[side]:
            m = self.models[self.queue[side].pop(0)]
            if not (m.alive and m.on_table):
                continue
            if self.phase == "move":
                if self._duel_locked(m):
                    continue
                if m.p.civilian and not any(self.dist(m, f) <= 6 for f in self.on_table(m.side) if not f.p.civilian):
                    continue
                return m
            if not self.engaged(m) and not m.p.civilian:
                return m
        return None

    def _ignores_morale(self, m: Model) -> bool:
        return "fearless" in m.p.attributes or self.sides[m.side].plan.no_morale or m.p.civilian

    def _duel_locked(self, m: Model) -> bool:
        n = self.sco.duellists_only_turns
        return bool(n) and self.turn <= n and not m.duellist

    # ------------------------------------------------------------------ movement
    def allowance(self, m: Model, kind: str) -> float:
        """How far ``m`` may move (inches): 6 (mounted 12), Run 9 (Gallop 18), Withdraw 2;
        halved when Stunned or Grievously wounded (p.13)."""
        base = {"move": 6.0, "run": 9.0, "withdraw": 2.0}[kind]
        if m.p.mounted and kind != "withdraw":
            base = 12.0 if kind == "move" else 18.0
        if m.stunned or m.wound == "grievous":
            base /= 2
        return base

    def _blocked(self, m: Model, x: float, y: float, ignore: set[str] = frozenset()) -> bool:
        """The straight path of ``m`` to ``(x, y)`` crosses another model or impassable ground,
        or the spot is off the table."""
        r = self.r
        if not (r <= x <= self.table - r and r <= y <= self.table - r):
            return True
        if self.match is not None:  # a Tournament match stays in the 12" duelling area (p.64)
            cx, cy = self.objective or (self.table / 2, self.table / 2)
            if math.hypot(x - cx, y - cy) > 6 - r:
                return True
        acro = "acrobatic" in m.p.attributes
        gap = 2 * r - 1e-9
        lox, hix, loy, hiy = min(m.x, x) - gap, max(m.x, x) + gap, min(m.y, y) - gap, max(m.y, y) + gap
        for o in self.on_table():
            if o is m or o.id in ignore or not (lox <= o.x <= hix and loy <= o.y <= hiy):
                continue
            if acro and o.side == m.side:
                if math.hypot(o.x - x, o.y - y) < gap:
                    return True
                continue
            if _seg_point(m.x, m.y, x, y, o.x, o.y) < gap:
                return True
        for t in self.terrain:
            if t.movement == "impassable" and not acro and _seg_zone(t.zone, m.x, m.y, x, y, r):
                return True
        return False

    def _difficult(self, m: Model, x: float, y: float) -> bool:
        """The way to ``(x, y)`` starts, ends or passes in difficult ground (Acrobatic: only
        impassable ground counts, as difficult; p.13, p.29)."""
        slow = "impassable" if "acrobatic" in m.p.attributes else "difficult"
        return any(t.movement == slow and _seg_zone(t.zone, m.x, m.y, x, y, self.r) for t in self.terrain)

    def _path(self, m: Model, gx: float, gy: float, reach: float, stop: float, *, ignore: set[str] = frozenset(), run: bool = False) -> tuple[float, float] | None:
        """Where ``m`` ends moving straight towards ``(gx, gy)``: at most ``reach`` (halved if the
        way crosses difficult ground, never below 1"), ``stop`` inches short of the goal, not
        through other models or impassable ground (a Run never within 1" of an enemy)."""
        d = math.hypot(gx - m.x, gy - m.y)
        want = d - stop
        if want <= 0.05:
            return None
        ux, uy = (gx - m.x) / d, (gy - m.y) / d
        length = min(reach, want)
        if self._difficult(m, m.x + ux * length, m.y + uy * length):
            length = min(max(1.0, reach / 2), want)

        def ok(t: float) -> bool:
            x, y = m.x + ux * t, m.y + uy * t
            if self._blocked(m, x, y, ignore):
                return False
            if run and any(_seg_point(m.x, m.y, x, y, e.x, e.y) < 2 * self.r + 1.0 for e in self.on_table(1 - m.side)):
                return False
            return True

        if ok(length):
            t = length
        else:
            lo, hi, t = 0.0, length, 0.0
            while hi - lo > 0.25:
                mid = (lo + hi) / 2
                if ok(mid):
                    lo = t = mid
                else:
                    hi = mid
            if t < 0.25:
                return None
        return (m.x + ux * t, m.y + uy * t)

    def _charge_spot(self, m: Model, e: Model) -> tuple[float, float] | None:
        """Where ``m`` ends a charge on ``e``: in base contact on the line between them (or beside
        it when that spot is taken), within its move."""
        reach = self.allowance(m, "move")
        d = math.hypot(e.x - m.x, e.y - m.y)
        if d - 2 * self.r > reach + 1e-9:
            return None
        base = math.atan2(m.y - e.y, m.x - e.x)
        for off in (0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5):
            a = base + off
            x, y = e.x + math.cos(a) * 2 * self.r, e.y + math.sin(a) * 2 * self.r
            need = math.hypot(x - m.x, y - m.y)
            length = reach
            if self._difficult(m, x, y):
                length = max(1.0, reach / 2)
            if need > length + 1e-9:
                continue
            if not self._blocked(m, x, y, {e.id}):
                return (x, y)
        return None

    def _goal(self, m: Model, goal: str) -> tuple[float, float] | None:
        enemies = self.on_table(1 - m.side)
        if goal == "enemy":
            if not enemies:
                return None
            e = min(enemies, key=lambda e: self.dist(m, e))
            return (e.x, e.y)
        if goal == "back":
            if not enemies:
                return None
            e = min(enemies, key=lambda e: self.dist(m, e))
            d = math.hypot(m.x - e.x, m.y - e.y) or 1.0
            return (m.x + (m.x - e.x) / d * 20, m.y + (m.y - e.y) / d * 20)
        if goal == "objective":
            obj = self._objective_point()
            return obj
        if goal == "marker":
            marks = [s for s in (self.models[i] for i in self.slain) if s.side != m.side and (not s.head_taken or (s.p.banner and not s.banner_taken))]
            if not marks:
                return None
            s = min(marks, key=lambda s: math.hypot(s.x - m.x, s.y - m.y))
            return (s.x, s.y)
        return None

    def _objective_point(self) -> tuple[float, float] | None:
        for t in self.terrain:
            if t.objective:
                return (t.zone.x + t.zone.w / 2, t.zone.y + t.zone.h / 2) if t.zone.kind == "rect" else (t.zone.x, t.zone.y)
        if self.sco.objective_control and self.objective:
            return self.objective
        return None

    def _may_engage(self, m: Model) -> bool:
        if m.p.civilian:
            return False
        if m.p.banner:  # errata banner_engage: only as the Buntai's last unengaged model
            free = [o for o in self.on_table(m.side) if not o.p.civilian and not self.engaged(o)]
            return free == [m]
        return True

    def _options_move(self, mid) -> list[tuple]:
        """A model's Move Phase options; ``mid`` is ``(model id, "no_charge")`` after a Wavering
        model failed its roll to charge (it may still do something else, p.12)."""
        no_charge = isinstance(mid, tuple)
        m = self.models[mid[0] if no_charge else mid]
        if not (m.alive and m.on_table):
            return []
        if self.engaged(m):
            opts: list[tuple] = [("stay",)]
            if self._withdraw_spot(m) is not None:
                opts.append(("withdraw",))
            return opts
        if m.p.civilian:
            spot = self._path(m, *self._goal(m, "back"), 6.0, 0.0) if self._goal(m, "back") else None
            return [("stay",)] + ([("flee",)] if spot else [])
        opts = [("hold",), ("pass",)]
        duel_early = self._duel_locked_turn()
        if not no_charge and self._may_engage(m):
            for e in self.on_table(1 - m.side):
                if duel_early and not e.duellist:
                    continue
                if self._charge_spot(m, e) is not None:
                    opts.append(("charge", e.id))
        # the way is measured when the move is made: a move that cannot go anywhere leaves the
        # model where it stands
        for g in ("enemy", "back", "objective", "marker"):
            if self._goal(m, g) is not None:
                opts += [("advance", g), ("run", g)]
        if not (duel_early and m.duellist):
            opts += [("shoot", t.id) for t in self._shoot_targets(m)]
        return opts

    def _duel_locked_turn(self) -> bool:
        n = self.sco.duellists_only_turns
        return bool(n) and self.turn <= n

    def _do_move(self, mid, action) -> None:
        m = self.models[mid[0] if isinstance(mid, tuple) else mid]
        kind = action[0]
        if kind == "pass":
            self.queue[m.side] = []
            self.sides[m.side].done = True
            return
        if kind in ("hold", "stay"):
            return
        if kind == "charge":
            if self.sides[m.side].morale == "wavering" and not self._ignores_morale(m):
                self._test(Fraction(sum(1 for f in range(1, 7) if f + m.p.rank >= 7), 6), "wavering_charge", (m.id, action[1]))
                return
            self._charge(m, self.models[action[1]])
        elif kind in ("advance", "run"):
            pt = self._goal(m, action[1])
            stop = 2 * self.r + 1.0 if action[1] == "enemy" else (0.0 if action[1] == "back" else 2 * self.r)
            end = self._path(m, *pt, self.allowance(m, kind if kind == "run" else "move"), stop, run=kind == "run")
            if end is not None:
                self._move_to(m, *end, kind="run" if kind == "run" else "move")
        elif kind == "flee":
            end = self._path(m, *self._goal(m, "back"), 6.0, 0.0)
            if end is not None:
                self._move_to(m, *end, kind="move")
        elif kind == "withdraw":
            self._withdraw(m)
        elif kind == "shoot":
            self._shoot(m, self.models[action[1]])

    def _on_wavering_charge(self, payload, result) -> None:
        mid, eid = payload
        m = self.models[mid]
        if result == "pass":
            self._charge(m, self.models[eid])
        else:  # may not move into contact, may do something else (p.12)
            self._push(("move", m.side, (mid, "no_charge")))

    def _move_to(self, m: Model, x: float, y: float, *, kind: str) -> None:
        cx, cy = self.objective or (self.table / 2, self.table / 2)
        was_out = math.hypot(m.x - cx, m.y - cy) > 6
        m.x, m.y = x, y
        m.moved = "run" if kind == "run" or m.moved == "run" else "move"
        if self.sco.first_non_duellist_enters and not m.duellist and not self.first_intruder and was_out and math.hypot(x - cx, y - cy) < 6:
            self.first_intruder = True
            self.sides[m.side].penalties += self.sco.first_non_duellist_enters

    def _charge(self, m: Model, e: Model) -> None:
        spot = self._charge_spot(m, e)
        if spot is not None:
            self._move_to(m, *spot, kind="move")

    def _withdraw_spot(self, m: Model) -> tuple[float, float] | None:
        cs = self.contacts(m)
        cx, cy = sum(o.x for o in cs) / len(cs), sum(o.y for o in cs) / len(cs)
        d = math.hypot(m.x - cx, m.y - cy) or 1.0
        x, y = m.x + (m.x - cx) / d * self.allowance(m, "withdraw"), m.y + (m.y - cy) / d * self.allowance(m, "withdraw")
        if self._blocked(m, x, y, {o.id for o in cs}):
            return None
        if any(math.hypot(o.x - x, o.y - y) - 2 * self.r <= TOUCH for o in self.on_table() if o is not m):
            return None  # errata: not into contact with another model
        return (x, y)

    def _withdraw(self, m: Model) -> None:
        foes = self.contacts(m)
        spot = self._withdraw_spot(m)
        if spot is None:
            return
        m.x, m.y = spot
        m.moved = "move"
        m.rounds = 0
        if "acrobatic" not in m.p.attributes and not m.struck_on_withdraw:
            self._push(("free_attack", 1 - m.side, (m.id, tuple(f.id for f in foes))))

    def _options_free_attack(self, payload) -> list[tuple]:
        mid, foes = payload
        strikers = [f for f in foes if self.models[f].alive and not self.models[f].p.civilian]
        return [("let_go",)] + [("strike", f) for f in strikers] if strikers else []

    def _do_free_attack(self, payload, action) -> None:
        if action[0] == "strike":
            m = self.models[payload[0]]
            m.struck_on_withdraw = True
            a = self.models[action[1]]
            self._note_attack(a)
            self._chance(self._melee_odds(a, m, enhance_attack=False, enhance_defence=False, extra_attack=1), "wound", (a.id, m.id, "melee"))

    def _on_rout_check(self, mid, result) -> None:
        m = self.models[mid]
        if result == "pass":
            self._push(("move", m.side, mid))
            return
        self._flee_to_edge(m)

    def _auto_rout_check(self, mid) -> None:
        m = self.models[mid]
        self._test(Fraction(sum(1 for f in range(1, 7) if f + m.p.rank >= 7), 6), "rout_check", mid)

    def _flee_to_edge(self, m: Model) -> None:
        """A Routing model that fails its roll runs for the nearest table edge (p.12) and leaves
        the table when it reaches it."""
        edges = [(m.x, -10.0, m.y), (m.x, self.table + 10.0, self.table - m.y), (-10.0, m.y, m.x), (self.table + 10.0, m.y, self.table - m.x)]
        gx, gy, d = min(edges, key=lambda e: e[2])
        reach = self.allowance(m, "run")
        if d - self.r <= reach:
            m.on_table = False
            m.fled = True
            self._tab = None
            return
        end = self._path(m, gx, gy, reach, 0.0)
        if end is not None:
            m.x, m.y = end
            m.moved = "run"

    # ------------------------------------------------------------------ shooting
    def _shoot_targets(self, m: Model) -> list[Model]:
        w = m.p.missile
        if w is None or m.stunned or self.engaged(m) or m.p.civilian:
            return []
        wp = self.data.weapons[w]
        if wp.reload and not m.loaded:
            return []
        if wp.mounted_shoot == "forbidden" and m.p.mounted:
            return []
        if self.phase == "action" and m.fought:
            return []  # errata no_missile_after_combat
        if m.moved and self.phase == "move" and w != "shuriken":
            return []  # a model may not move once it used a missile weapon: shooting ends its activation
        if (w == "yumi" and m.shots >= 2) or (w != "yumi" and m.shots >= 1):
            return []
        rng = wp.max_range_in or 0
        out = []
        for e in self.on_table(1 - m.side):
            if self.dist(m, e) <= rng and self._line_of_sight(m, e):
                out.append(e)
        return out

    def _line_of_sight(self, a: Model, b: Model) -> bool:
        """No other model's base on the line between the centres; at most 2" of light cover;
        heavy cover only in front of a target that moved or shot this turn (p.15)."""
        for o in self.on_table():
            if o is a or o is b:
                continue
            if _seg_point(a.x, a.y, b.x, b.y, o.x, o.y) < self.r - 1e-9:
                return False
        light = sum(_clip(t.zone, a.x, a.y, b.x, b.y) for t in self.terrain if t.cover == "light")
        if light > 2.0:
            return False
        heavy = any(_clip(t.zone, a.x, a.y, b.x, b.y) > 0 for t in self.terrain if t.cover == "heavy" and not _in_zone(t.zone, a.x, a.y))
        return not (heavy and not b.moved and not b.shots)

    def _cover(self, a: Model, b: Model) -> int:
        best = 0
        for t in self.terrain:
            if t.cover == "none" or _in_zone(t.zone, a.x, a.y):
                continue
            if _in_zone(t.zone, b.x, b.y) or _clip(t.zone, a.x, a.y, b.x, b.y) > 0:
                best = max(best, 2 if t.cover == "heavy" else 1)
        return best

    def shot_odds(self, m: Model, e: Model) -> tuple[tuple[str, Fraction], ...]:
        """Exact chances of each wound result of ``m`` shooting at ``e`` now."""
        w = m.p.missile
        wp = self.data.weapons[w]
        d = max(0.0, self.dist(m, e))
        band = next((b for b in self.g.bands if b.from_in <= d <= b.to_in), self.g.bands[-1])
        teppo = wp.reload
        band_mod = band.teppo_modifier if (teppo and band.teppo_modifier is not None) else band.modifier
        mod = 0
        if self.engaged(e):
            mod -= 1
        if w != "shuriken":
            mod -= {"": 0, "move": 1, "run": 2}[m.moved]
        mod -= 1 if m.shots else 0
        mod -= 1 if self.phase == "move" else 0
        mod -= 1 if m.wound == "grievous" else 0  # erratum grievous_shoot_penalty: once
        if m.p.mounted and isinstance(wp.mounted_shoot, int) and "bajutsu" not in m.p.attributes:
            mod += wp.mounted_shoot
        if w == "yumi" and "yadome_jutsu" in e.p.attributes:
            mod -= 2
        armour = e.p.armour
        if wp.armour_as:
            armour = wp.armour_as.get(armour, armour)
        defence = self.data.rules.shooting_defence_base + ARMOUR[armour] + self._cover(m, e)
        reroll = 3 if self._bujutsu(m, w) else 0
        shoot = m.p.shoot + (wp.shoot if isinstance(wp.shoot, int) else 0)
        return _shot(shoot, reroll, mod, band_mod, defence)

    def _bujutsu(self, m: Model, weapon: str) -> bool:
        return any(weapon in self.data.attributes[a].weapons for a in m.p.attributes if a in self.data.attributes and self.data.attributes[a].category == "bujutsu")

    def _shoot(self, m: Model, e: Model) -> None:
        self._note_attack(m)
        odds = self.shot_odds(m, e)
        m.shots += 1
        if self.data.weapons[m.p.missile].reload:
            m.loaded = False
        self._chance(odds, "shot", (m.id, e.id))

    def _on_shot(self, payload, result) -> None:
        mid, eid = payload[0], payload[1]
        retry = len(payload) == 2
        e = self.models[eid]
        if result == "none" and retry and self.engaged(e):
            others = [o for o in self._in_combat_with(e) if o.id not in (eid, mid) and o.alive]
            if others:
                self._chance([(o.id, Fraction(1, len(others))) for o in others], "stray", mid)
            return
        self._wound(self.models[mid], e, result, "shot")

    def _on_stray(self, mid, oid) -> None:
        m, o = self.models[mid], self.models[oid]
        self._chance(self.shot_odds_again(m, o), "shot", (mid, oid, "second"))

    def shot_odds_again(self, m: Model, o: Model) -> tuple[tuple[str, Fraction], ...]:
        """A missed shot into a combat tried against another model of it: a new Shooting Attack
        with the same shot's modifiers (this one does not count as firing again)."""
        m.shots -= 1
        try:
            return self.shot_odds(m, o)
        finally:
            m.shots += 1

    def _note_attack(self, m: Model) -> None:
        if self.sco.first_non_duellist_attack and not m.duellist and not self.first_outside_attack:
            self.first_outside_attack = True
            self.sides[m.side].penalties += self.sco.first_non_duellist_attack

    # ------------------------------------------------------------------ wounds
    def _wound(self, attacker: Model, m: Model, result: str, how: str) -> None:
        """Apply a wound-table result to ``m`` (errata wound_combination)."""
        if result == "none" or not m.alive:
            return
        if self.match is not None and result in ("light", "grievous", "critical"):
            self.sides[attacker.side].match_points += (self.sco.match_points or {}).get(result, 0)
        if result == "stunned":
            m.stunned += 1
            return
        if result == "light":
            new = {"none": "light", "light": "grievous", "grievous": "critical"}[m.wound]
        elif result == "grievous":
            new = "grievous" if m.wound == "none" else "critical"
        else:
            new = "critical"
        if new == "critical":
            self._kill(attacker.p.rank, m)
            return
        if new == "grievous" and m.wound != "grievous" and self.combat is not None and m.id in self.combat.attack:
            if self.combat.attack[m.id] > 0:
                self.combat.attack[m.id] -= 1
            elif self.combat.defence.get(m.id, 0) > 0:
                self.combat.defence[m.id] -= 1
        m.wound = new

    def _kill(self, killer_rank: int, m: Model, *, final: bool = False) -> None:
        """``m`` takes a Critical wound from a model of Rank ``killer_rank`` (a Tough model in
        the Combat Phase falls only at its end, ``final``)."""
        st = self.sides[m.side]
        if m.dying and not final:
            return
        if "tough" in m.p.attributes and self.phase == "combat" and self.combat is not None and not final:
            m.dying = True  # removed at the end of the Combat Phase (p.29)
            m.killer_rank = killer_rank
            return
        m.alive = False
        self._tab = None
        m.killer_rank = killer_rank
        if not m.p.civilian:
            st.criticals += 1
            if m.leader:
                st.leader_hit = True
        self.slain.append(m.id)
        if self.combat is not None:
            self.combat.attack.pop(m.id, None)
            self.combat.defence.pop(m.id, None)  # errata dead_model_counters
        if self.sco.kind == "kill_leader" and m.leader and self.sides[m.side].plan.role == "Defender":
            self._end(1 - m.side)

    # ------------------------------------------------------------------ combat
    def _auto_next_combat(self, side) -> None:
        for s in (side, 1 - side):
            for m in self.models.values():
                if m.side == s and m.alive and m.on_table and not m.fought and self.engaged(m):
                    self._push(("next_combat", -1, 1 - s))
                    self._start_combat(m)  # its steps go before the next combat's
                    return
        # the phase is over: Tough models that took a Critical wound fall now
        for m in self.models.values():
            if m.dying and m.alive:
                self._kill(m.killer_rank or 0, m, final=True)
                m.dying = False
            if m.alive and m.on_table:
                m.rounds = m.rounds + 1 if m.fought else 0
        self.combat = None

    def _start_combat(self, m: Model) -> None:
        foes = [o for o in self.contacts(m) if not o.fought]
        if len(foes) == 1:
            single = foes[0]
            many = [o for o in self.contacts(single) if not o.fought][:4]
            sides = {single.side: [single.id], 1 - single.side: [o.id for o in many]}
        else:
            sides = {m.side: [m.id], 1 - m.side: [o.id for o in foes[:4]]}
        c = Combat((sides[0], sides[1]))
        self.combat = c
        steps: list[tuple] = []
        for s in (0, 1):
            for mid in c.sides[s]:
                self.models[mid].fought = True
                if self.models[mid].p.civilian and self.models[mid].civilian_fights is None:
                    steps.append(("civilian_roll", -1, mid))
                steps.append(("counters", s, mid))
        # every Initiative Enhancement is declared before the dice are rolled (p.19)
        steps += [("enhance_init", s, mid) for s in (0, 1) for mid in c.sides[s]]
        steps += [("init_roll", -1, mid) for s in (0, 1) for mid in c.sides[s]]
        steps += [("init_order", -1, None), ("attack_next", -1, None)]
        self._push(*steps)

    def _auto_civilian_roll(self, mid) -> None:
        self._test(Fraction(1, 2), "civilian", mid)

    def _on_civilian(self, mid, result) -> None:
        self.models[mid].civilian_fights = result == "pass"

    def pool(self, m: Model) -> int:
        """Combat Pool now: -1 with a Grievous wound; a civilian who rolled 1-3 has none; Intuition
        gives one more (a Defence counter)."""
        if m.p.civilian and not m.civilian_fights:
            return 0
        return max(0, m.p.combat_pool - (1 if m.wound == "grievous" else 0))

    def _options_counters(self, mid) -> list[tuple]:
        m = self.models[mid]
        if not m.alive:
            return []
        return [("counters", k) for k in range(self.pool(m) + 1)]

    def _do_counters(self, mid, action) -> None:
        m = self.models[mid]
        k = action[1]
        self.combat.attack[mid] = k
        self.combat.defence[mid] = self.pool(m) - k + (1 if "intuition" in m.p.attributes else 0)

    def _options_enhance_init(self, mid) -> list[tuple]:
        return [("enhance",), ("plain",)] if self.combat.attack.get(mid, 0) > 0 and self.models[mid].alive else []

    def _do_enhance_init(self, mid, action) -> None:
        if action[0] == "enhance":
            self.combat.attack[mid] -= 1
            self.combat.enhanced_init.add(mid)

    def initiative_bonus(self, m: Model) -> int:
        """Initiative + modifiers: the weapon's (first round or later), wounds, Fast, banner."""
        wp = self.data.weapons[m.p.melee]
        w = wp.initiative if isinstance(wp.initiative, int) else 0
        if m.rounds > 0 and wp.initiative_later is not None:
            w = wp.initiative_later
        pen = {"none": 0, "light": 0 if "tough" in m.p.attributes else 1, "grievous": 2}[m.wound] + (1 if m.stunned else 0)
        bonus = 1 if "fast" in m.p.attributes else 0
        bonus -= 1 if m.p.banner else 0
        return max(0, m.p.initiative - pen) + w + bonus

    def _auto_init_roll(self, mid) -> None:
        if not self.models[mid].alive:
            return
        enh = mid in self.combat.enhanced_init
        faces = [(f, Fraction(2 * f - 1, 36) if enh else Fraction(1, 6)) for f in range(1, 7)]
        self._chance(faces, "init", mid)

    def _on_init(self, mid, face) -> None:
        self.combat.init[mid] = int(face) + self.initiative_bonus(self.models[mid])

    def _auto_init_order(self, _payload) -> None:
        c = self.combat
        ids = [i for s in c.sides for i in s if self.models[i].alive]
        by = sorted(ids, key=lambda i: -c.init.get(i, 0))
        groups = [list(g) for _k, g in itertools.groupby(by, key=lambda i: c.init.get(i, 0))]
        self._tie_groups = groups
        c.order = []
        self._push(("tie_break", -1, 0))

    def _auto_tie_break(self, k) -> None:
        groups = self._tie_groups
        if k >= len(groups):
            return
        g = groups[k]
        fast = [i for i in g if "fast" in self.models[i].p.attributes]
        rest = [i for i in g if i not in fast]
        self.combat.order += fast
        if len(rest) <= 1:
            self.combat.order += rest
            self._push(("tie_break", -1, k + 1))
            return
        perms = list(itertools.permutations(rest))
        self._chance([(p, Fraction(1, len(perms))) for p in perms], "tie", k)

    def _on_tie(self, k, perm) -> None:
        self.combat.order += list(perm)
        self._push(("tie_break", -1, k + 1))

    def _foes_in_combat(self, mid: str) -> list[str]:
        c = self.combat
        s = 0 if mid in c.sides[0] else 1
        return [i for i in c.sides[1 - s] if self.models[i].alive]

    def _auto_attack_next(self, _payload) -> None:
        c = self.combat
        n = len(c.order)
        active = [i for i in c.order if self.models[i].alive and c.attack.get(i, 0) > 0 and self._foes_in_combat(i)]
        if not active or c.passes >= len(active):
            return  # every model emptied its pool or passed in succession
        for k in range(n):
            mid = c.order[(c.at + k) % n]
            if mid in active:
                c.at = (c.order.index(mid) + 1) % n
                self._push(("attack", self.models[mid].side, mid))
                return

    def _options_attack(self, mid) -> list[tuple]:
        m = self.models[mid]
        if not m.alive or self.combat.attack.get(mid, 0) <= 0:
            return []
        return [("strike", t) for t in self._foes_in_combat(mid)] + [("pass",)]

    def _do_attack(self, mid, action) -> None:
        c = self.combat
        if action[0] == "pass":
            c.passes += 1
            self._push(("attack_next", -1, None))
            return
        c.passes = 0
        c.attack[mid] -= 1
        m, t = self.models[mid], self.models[action[1]]
        self._note_attack(m)
        self._push(("enhance_defence", t.side, (mid, t.id)), ("enhance_attack", m.side, (mid, t.id)), ("strike", -1, (mid, t.id)), ("attack_next", -1, None))
        self._enh = {"a": False, "d": False}

    def _defence_pool(self, t: Model) -> list[str]:
        c = self.combat
        s = 0 if t.id in c.sides[0] else 1
        own = [t.id] if c.defence.get(t.id, 0) > 0 else []
        return own + [i for i in c.sides[s] if i != t.id and self.models[i].alive and c.defence.get(i, 0) > 0]

    def _options_enhance_defence(self, payload) -> list[tuple]:
        t = self.models[payload[1]]
        return [("enhance",), ("plain",)] if t.alive and self._defence_pool(t) else []

    def _do_enhance_defence(self, payload, action) -> None:
        if action[0] == "enhance":
            t = self.models[payload[1]]
            self.combat.defence[self._defence_pool(t)[0]] -= 1
            self._enh["d"] = True

    def _options_enhance_attack(self, payload) -> list[tuple]:
        return [("enhance",), ("plain",)] if self.combat.attack.get(payload[0], 0) > 0 else []

    def _do_enhance_attack(self, payload, action) -> None:
        if action[0] == "enhance":
            self.combat.attack[payload[0]] -= 1
            self._enh["a"] = True

    def _auto_strike(self, payload) -> None:
        a, t = self.models[payload[0]], self.models[payload[1]]
        if not (a.alive and t.alive):
            return
        self._chance(self._melee_odds(a, t, enhance_attack=self._enh["a"], enhance_defence=self._enh["d"]), "wound", (a.id, t.id, "melee"))

    def _on_wound(self, payload, result) -> None:
        self._wound(self.models[payload[0]], self.models[payload[1]], result, payload[2])

    def _melee_odds(self, a: Model, t: Model, *, enhance_attack: bool, enhance_defence: bool, extra_attack: int = 0) -> tuple[tuple[str, Fraction], ...]:
        """Exact chances of each wound result of one attack of ``a`` on ``t`` (p.19-23)."""
        wp = self.data.weapons[a.p.melee]
        amod = extra_attack + (1 if "powerful" in a.p.attributes else 0) - (1 if a.p.banner else 0)
        if a.p.mounted and "bajutsu" not in a.p.attributes:
            amod -= 2
        if t.p.armour == "heavy":
            amod += wp.vs_heavy_attack
        dmod = -(1 if t.p.banner else 0)
        if len(self.contacts(t)) >= 3:
            dmod -= 1
        a_fight = 0 if (a.p.civilian and not a.civilian_fights) else a.p.fight
        t_fight = 0 if (t.p.civilian and not t.civilian_fights) else t.p.fight
        att = MeleeSide(fight=a_fight, weapon_attack=wp.attack if isinstance(wp.attack, int) else 0, enhanced_attack_bonus=wp.enhanced_attack_bonus,
                        enhance=enhance_attack, reroll_at_most=3 if self._bujutsu(a, a.p.melee) else 0, wound=a.wound, tough="tough" in a.p.attributes, modifiers=amod)
        dfn = MeleeSide(fight=t_fight, armour=ARMOUR[t.p.armour], enhance=enhance_defence, reroll_at_most=3 if self._bujutsu(t, t.p.melee) else 0,
                        wound=t.wound, tough="tough" in t.p.attributes, modifiers=dmod)
        return _melee(att, dfn)

    # ------------------------------------------------------------------ action phase
    def _options_act(self, mid) -> list[tuple]:
        m = self.models[mid]
        if not (m.alive and m.on_table) or self.engaged(m):
            return []
        opts: list[tuple] = [("rest",)]
        opts += [("shoot", t.id) for t in self._shoot_targets(m)]
        wp = self.data.weapons[m.p.missile] if m.p.missile else None
        if wp is not None and wp.reload and not m.loaded and not m.moved and not m.shots and not m.fought and not m.stunned:
            opts.append(("reload",))
        if not m.stunned:
            for sid in self.slain:
                s = self.models[sid]
                if s.side == m.side or math.hypot(s.x - m.x, s.y - m.y) - 2 * self.r > TOUCH:
                    continue
                if not s.head_taken:
                    opts.append(("take_head", sid))
                if s.p.banner and not s.banner_taken:
                    opts.append(("take_banner", sid))
        return opts

    def _do_act(self, mid, action) -> None:
        m = self.models[mid]
        kind = action[0]
        if kind == "rest":
            m.rested = True
        elif kind == "shoot":
            self._shoot(m, self.models[action[1]])
        elif kind == "reload":
            m.loaded = True
        elif kind == "take_head":
            self.models[action[1]].head_taken = True
            m.heads += 1
        elif kind == "take_banner":
            self.models[action[1]].banner_taken = True
            self.sides[m.side].banners_captured += 1

    # ------------------------------------------------------------------ end of turn
    def _auto_end_phase(self, _payload) -> None:
        for m in self.models.values():
            if m.alive and m.on_table and m.stunned:
                self._push(("stun_roll", -1, m.id))

    def _auto_stun_roll(self, mid) -> None:
        m = self.models[mid]
        sr = self.data.rules.stunned_removal
        mods = {x.id: int(x.value) for x in sr.modifiers if x.value != "unknown"}
        mod = (mods.get("engaged", 0) if self.engaged(m) else 0) + (mods.get("rested", 0) if m.rested else 0)
        out: dict[int, Fraction] = {}
        for f in range(1, 7):
            k = sr.removed(f + mod)
            out[k] = out.get(k, Fraction(0)) + Fraction(1, 6)
        self._chance(sorted(out.items()), "stun", mid)

    def _on_stun(self, mid, k) -> None:
        m = self.models[mid]
        m.stunned = max(0, m.stunned - int(k))

    def _auto_turn_end(self, _payload) -> None:
        if self.match is not None:
            self._match_turn_end()
            return
        gone = [not any(m.on_table and m.alive for m in self.buntai(s)) and all(m.arrives <= self.turn or not m.alive for m in self.buntai(s)) for s in (0, 1)]
        if any(gone) or (self.length is not None and self.turn >= self.length):
            self._finish()
            return
        self._push(("turn_start", -1, None))

    # ------------------------------------------------------------------ victory
    def victory_points(self) -> list[float]:
        """Each side's Victory Points now (p.58-59, the factions' and the scenario's)."""
        vp = [0.0, 0.0]
        for m in self.models.values():
            s = 1 - m.side
            if m.p.civilian:
                if not m.alive and self.sco.civilian_slain:
                    vp[s] += self.sco.civilian_slain
                continue
            if not m.alive:
                vp[s] += 0.5 if m.p.rank == 0 else m.p.rank
                if self._faction_rule(m.side, "bushi_vp_killed_by_lower") is not None and m.killer_rank is not None and m.killer_rank < m.p.rank:
                    vp[m.side] += self._faction_rule(m.side, "bushi_vp_killed_by_lower")
                if m.p.type == "Samurai" and self._faction_rule(s, "koreans_vp_samurai") is not None:
                    vp[s] += self._faction_rule(s, "koreans_vp_samurai")
            elif m.fled:
                vp[s] += m.p.rank / 2
        for s in (0, 1):
            st = self.sides[s]
            vp[s] += st.banners_captured * 5 + st.penalties
            heads = self._faction_rule(s, "bushi_vp_heads")
            if heads is not None:
                vp[s] += heads * sum(m.heads for m in self.buntai(s) if m.alive and m.p.type == "Samurai")
            ninja = self._faction_rule(s, "bushi_vp_ninja")
            if ninja is not None and any(m.p.hired and m.p.type == "Ninja" for m in self.buntai(s)):
                vp[s] += ninja
            if self.sco.civilian_left and st.plan.role == "Defender":
                vp[s] += self.sco.civilian_left * sum(1 for c in self.civilians if self.models[c].alive)
        if self.sco.objective_control:
            holder = self.objective_holder()
            if holder is not None:
                vp[holder] += self.sco.objective_control
        if self.sco.minor_objective:
            for s in (0, 1):
                if self.minor_objective_met(s):
                    vp[s] += self.sco.minor_objective
        return vp

    def _faction_rule(self, side: int, rule_id: str) -> float | None:
        f = self.sides[side].plan.faction
        if f is None:
            return None
        for r in f.rules:
            if r.id == rule_id:
                return float(r.value) if isinstance(r.value, (int, float)) else None
        return None

    def objective_holder(self) -> int | None:
        """The side controlling the objective: a model (not engaged) in base contact with the
        objective marker, or in or touching the objective terrain piece, and no enemy model
        there."""
        there = [set(), set()]
        for m in self.on_table():
            if m.p.civilian or self.engaged(m):
                continue
            if self._at_objective(m):
                there[m.side].add(m.id)
        if there[0] and not there[1]:
            return 0
        if there[1] and not there[0]:
            return 1
        return None

    def _at_objective(self, m: Model) -> bool:
        for t in self.terrain:
            if t.objective:
                return _in_zone(t.zone, m.x, m.y, self.r + TOUCH)
        if self.objective:
            return math.hypot(m.x - self.objective[0], m.y - self.objective[1]) <= 2 * self.r + TOUCH
        return False

    def minor_objective_met(self, side: int) -> bool:
        """The Skirmish's Minor Objective (p.60) of ``side``: 1 capture a Rank 2+ model (never:
        the engine declares no Subdue), 2 most models in every table quarter, 3 the enemy
        Leader killed, 4 at most 25% of the force lost, 5 more than 75% of the enemy killed;
        6 the opponent's objective (both 6: none)."""
        mine, theirs = self.sides[side].minor, self.sides[1 - side].minor
        if mine == 6:
            if theirs == 6 or theirs is None:
                return False
            mine = theirs
        start_me, start_them = len(self.buntai(side)), len(self.buntai(1 - side))
        if mine == 2:
            h = self.table / 2
            for qx, qy in ((0, 0), (1, 0), (0, 1), (1, 1)):
                n = [sum(1 for m in self.on_table(s) if not m.p.civilian and (m.x >= h) == bool(qx) and (m.y >= h) == bool(qy)) for s in (0, 1)]
                if n[side] <= n[1 - side]:
                    return False
            return True
        if mine == 3:
            ld = self._leader(1 - side)
            return ld is not None and not ld.alive
        if mine == 4:
            lost = sum(1 for m in self.buntai(side) if not m.alive or m.fled)
            return lost * 4 <= start_me
        if mine == 5:
            dead = sum(1 for m in self.buntai(1 - side) if not m.alive)
            return dead * 4 > start_them * 3
        return False

    def _finish(self) -> None:
        if self.sco.kind == "kill_leader":
            attacker = next(i for i, s in enumerate(self.sides) if s.plan.role == "Attacker")
            ld = self._leader(1 - attacker)
            self._end(attacker if ld is not None and not ld.alive else 1 - attacker)
            return
        vp = self.victory_points()
        self.vp = vp
        win = None if vp[0] == vp[1] else (0 if vp[0] > vp[1] else 1)
        if win is not None:
            loser = 1 - win
            seppuku = self._faction_rule(loser, "bushi_vp_seppuku")
            ld = self._leader(loser)
            if seppuku is not None and ld is not None and ld.alive and vp[loser] + seppuku >= vp[win]:
                win = None  # seppuku may make a draw, never a win (p.34)
        self._end(win)

    def _end(self, winner: int | None) -> None:
        self.done = True
        self._winner = winner
        self.steps = []
        self.pending = None

    # ------------------------------------------------------------------ tournament
    def _auto_next_match(self, _payload) -> None:
        """The next match of the Tournament (p.64): the next model of each side in roster order,
        on opposite edges of the 12" duelling area, six turns or until one is killed."""
        order = [[m.id for m in self.buntai(s) if m.alive and not m.fled and not m.matched] for s in (0, 1)]
        if order[0] and order[1]:
            a, b = self.models[order[0][0]], self.models[order[1][0]]
        else:
            w = [self.sides[s].match_wins for s in (0, 1)]
            pts = [self.sides[s].match_points for s in (0, 1)]
            if w[0] != w[1]:
                self._end(0 if w[0] > w[1] else 1)
                return
            if pts[0] != pts[1]:
                self._end(0 if pts[0] > pts[1] else 1)
                return
            if self.final:
                self._end(None)
                return
            best = [max((m for m in self.buntai(s) if m.alive), key=lambda m: m.p.rank, default=None) for s in (0, 1)]
            if best[0] is None or best[1] is None:
                self._end(None if best[0] is best[1] else (0 if best[0] else 1))
                return
            self.final = True
            a, b = best
        for m in self.models.values():
            m.on_table = False
        self._tab = None
        a.matched = b.matched = True
        cx, cy = self.objective or (self.table / 2, self.table / 2)
        a.x, a.y, b.x, b.y = cx, cy - 6 + self.r, cx, cy + 6 - self.r
        a.stunned = b.stunned = 0
        self.match = (a.id, b.id)
        self.match_turn = 0
        self._match_score = (self.sides[0].match_points, self.sides[1].match_points)
        self._push(("turn_start", -1, None))

    def _match_turn_end(self) -> None:
        self.match_turn += 1
        a, b = (self.models[i] for i in self.match)
        over = not (a.alive and b.alive) or (not self.final and self.match_turn >= (self.sc.length.match_turns or 6))
        if not over:
            self._push(("turn_start", -1, None))
            return
        gained = [self.sides[s].match_points - self._match_score[s] for s in (0, 1)]
        if not b.alive and a.alive:
            win = a.side
        elif not a.alive and b.alive:
            win = b.side
        elif gained[0] != gained[1]:
            win = 0 if gained[0] > gained[1] else 1
        else:
            win = None
        if win is not None:
            self.sides[win].match_wins += 1
        if self.final:
            self._end(win)
            return
        self.match = None
        self._push(("next_match", -1, None))


@lru_cache(maxsize=4096)
def _melee(att: MeleeSide, dfn: MeleeSide) -> tuple[tuple[str, Fraction], ...]:
    d = melee_distribution(att, MeleeSide(**{**dfn.__dict__, "wound": "none"}))
    return tuple((r, d[r]) for r in RESULTS)


@lru_cache(maxsize=4096)
def _shot(shoot: int, reroll: int, mod: int, band_mod: int, defence: int) -> tuple[tuple[str, Fraction], ...]:
    d = shooting_distribution(ShootSide(shoot=shoot, reroll_at_most=reroll, modifiers=mod), band_mod, defence)
    return tuple((r, d[r]) for r in RESULTS)


@dataclass(frozen=True)
class NotPlayed:
    """A game ``gunbai verify --play`` could not play, with the reason (a model's unknown
    statline): printed as one line in place of its report."""

    label: str
    reason: str

    def lines(self) -> list[str]:
        return [f"{self.label}: not played: {self.reason}"]


def play(data_dir, n: int, seed: int, *, workers: int = 1) -> list:
    """``n`` seeded random-policy games of every game of ``games/``: a
    :class:`pipeline.play.PlayabilityReport` per game (win rate of each side with its 95%
    interval, mean length in turns, share cut off by :func:`turn_cap`), or a
    :class:`NotPlayed` for a game with a model whose statline is ``unknown``."""
    from pipeline.play import Job, random_policy, run_many
    from pipeline.systems.ronin.load import load

    data = load(data_dir)
    out: list = []
    jobs, slots = [], []
    for lg in data.games:
        try:
            g = RoninGame.from_game(data, lg.value)
        except UnplayableGame as exc:
            out.append(NotPlayed(f"ronin {lg.value.id}", str(exc).split(": cannot be played: ", 1)[-1]))
            continue
        slots.append(len(out))
        out.append(None)
        jobs.append(Job(g.new_state, random_policy, n, seed, turn_cap(g), side_names=[f"{s.role} ({s.name})" for s in g.sides], label=f"{g.label()} (random play)"))
    for k, rep in zip(slots, run_many(jobs, workers=workers), strict=True):
        out[k] = rep
    return out


__all__ = ["NotPlayed", "Profile", "RoninGame", "RoninState", "UnplayableGame", "play", "turn_cap"]
