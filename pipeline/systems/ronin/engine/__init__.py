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
banner re-rolls a failure, Fearless models ignore the result (the Temple Attendant is Fearless
within 3" of a friendly model of Rank 2 or higher, p.39); hired Ronin leave a Wavering Buntai
on 4+ and a Routing one at once, p.52), the **Move Phase** (players activate models
alternately, the player with Priority first: move 6" (mounted 12"), Run 9" (Gallop 18") not
passing within 1" of an enemy, charge into base contact, Withdraw 2" out of contact with one
free attack at +1 allowed (errata: one per turn; the striker does not move again that phase),
or shoot with a -1; halved movement when Stunned, Grievously wounded or through Difficult
terrain, never below 1"; mounted models (a horse bought in the roster too) never enter
Difficult terrain or buildings; reserves move onto the table in the Move Phase of their turn;
Wavering models roll d6 + Rank ≥ 7 to charge, Routing ones to act at all at every activation
of either phase, else they run for the nearest edge), the **Combat Phase** (p.17-23: every
model in base contact fights once; combats formed
so that one side only has several models, at most four against one; each model splits its
Combat Pool into Attack and Defence counters, rolls Initiative (d6, Enhanced: best of 2d6 for an
Attack counter), and in Initiative order makes attacks: 2d6 (Enhanced 3d6 keep 2) + Fight +
modifiers against 1d6 (Enhanced 2d6) + Fight + armour + modifiers, each side's Fight less its
wound's penalty; -2 to attack mounted, -1 Initiative and Attack with a long-handled weapon
inside a building; the Wound Score on the wound table, wounds combined by the errata), the
**Action Phase** (shoot again, reload a teppo, take a
head, pick up a banner, rest) and the **End Phase** (Stunned counters removed on the d6 table,
the scenario's end checked). Shooting (p.14-16): 2d6 + Shoot + range band and other modifiers
against 6 + armour (a teppo ignores light and medium armour) + cover (a target under 6" gets
+1, each other band holds its upper end: erratum range_band_boundaries); a failed shot at an
engaged model is tried again at another model of that combat.

Scenario rules (``scenarios/*.yaml`` ``length`` and ``scoring``): game length (d6+6 rolled at the
start, fixed, or none: Defend the Village lasts until a side is destroyed or has withdrawn),
standard Victory Points (enemy killed: its Rank, Rank 0 half a point; captured
banner 5; routed off the table: half the Rank) with the factions' own (Bushi, Koreans) and the
scenario's (the Skirmish's rolled Minor Objective, the objective of Capture and Defence, the
Duel's duellists (only they act in turns 1-2, and no one shoots; a fallen duellist may be
replaced) and penalties, the civilians of Defend the Village), the Assassination's Leader
kill, and the Tournament's matches of six turns won on match points, in the orders the players
recorded in secret.

Decisions (``current_player()`` 0 = the game's first side, 1 = the second) and their actions:

* ``("kiai",)`` / ``("no_kiai",)``; the Duel's duellist ``("duellist", model_id)``, and its
  replacement ``("duellist", model_id)`` / ``("no_duellist",)``; the Tournament's order, a
  model at a time: ``("order", model_id)``;
* a model's Move Phase activation: ``("hold",)``, ``("pass",)`` (the player's phase ends),
  ``("charge", enemy)``, ``("advance", goal)`` / ``("run", goal)`` with goal ``enemy``,
  ``objective``, ``marker`` (the nearest enemy Slain marker) or ``back`` (away from the nearest
  enemy), ``("shoot", enemy)``; a reserve ``("enter",)``; engaged: ``("stay",)``,
  ``("withdraw",)``; a civilian
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

Hidden information: the counters a player draws are secret until both reveal them, and the
Tournament's orders until each match (:mod:`~pipeline.systems.ronin.engine.search`: ``clone``,
``determinize``, ``information_key``).

The modules, by phase: :mod:`~pipeline.systems.ronin.engine.game` (the game ready to play: profiles,
sides, the turn cap), :mod:`~pipeline.systems.ronin.engine.state` (:class:`RoninState`, the protocol
and the step machinery), :mod:`~pipeline.systems.ronin.engine.turn` (set-up, the turn, activations),
:mod:`~pipeline.systems.ronin.engine.priority` (Priority and Morale),
:mod:`~pipeline.systems.ronin.engine.movement` (the Move Phase),
:mod:`~pipeline.systems.ronin.engine.shooting` (shooting and the Action Phase),
:mod:`~pipeline.systems.ronin.engine.combat` (wounds and the Combat Phase),
:mod:`~pipeline.systems.ronin.engine.end` (the End Phase, Victory Points, the Tournament),
:mod:`~pipeline.systems.ronin.engine.pieces` (models, sides, combats),
:mod:`~pipeline.systems.ronin.engine.search` (the search hooks),
:mod:`~pipeline.systems.ronin.engine.rules` (the rules it plays, for ``gunbai verify --explain``),
:mod:`~pipeline.systems.ronin.engine.geometry` (``gunbai verify --play`` plays it through
:class:`pipeline.systems.ronin.system.RoninSystem`).

Abstractions of the engine (not rules; what a player would decide is made simple): models move in
straight lines towards a goal; a model activates in roster order (its player chooses what it
does, or passes for all the rest); the combats are formed and taken in roster order; each model
fights with its best hand-to-hand weapon (Attack then Initiative modifier); a bujutsu re-roll is
taken on a die of 3 or less (the odds tool's rule); a Grievous wound takes an Attack counter
before a Defence counter; line of sight is the line between base centres; a Subdue or Disarm
attack is never declared, so the Skirmish's Minor Objective 1 (capture a model) is never met; a
reserve moves on to its place in the side's edge zone (its move); a duellist stands at the
point of the duelling area's edge nearest his side's zone; every room is small (a long weapon
indoors always pays); no player concedes (conceding is losing); the Tournament's final match
takes the first of equally ranked survivors; Inexorable, Yojimbo, Senjo-jutsu, Ninja disguise,
mounts as separate targets (a warhorse's own attack, thrown riders), ride-by attacks, mounting
and dismounting, carrying objects, looting, weather and the time of day (fine weather in
daylight) are not played.
"""

from pipeline.systems.ronin.engine.game import (
    STATS,
    Profile,
    RoninGame,
    SidePlan,
    UnplayableGame,
    turn_cap,
)
from pipeline.systems.ronin.engine.game import _profile as _profile
from pipeline.systems.ronin.engine.pieces import Combat, Model, SideState
from pipeline.systems.ronin.engine.state import RoninState

__all__ = ["STATS", "Combat", "Model", "Profile", "RoninGame", "RoninState", "SidePlan", "SideState", "UnplayableGame", "turn_cap"]
