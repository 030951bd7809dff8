"""Battles of a Genpei game: what an ordered unit may battle (close, ranged, at a lone leader,
a Palisade or Stockade), Leader Inspiration, the declaration, Personal Challenge, the
defender's reaction (First Strike, Ambush, a Stockade battling first), the rolls with grappling
at sea, hits, leader casualty checks, retreats, battle back, taking ground and bonus combat,
and attacks on Palisades and Stockades.

:class:`Battles` is a part of :class:`~.state.GenpeiState` (see :mod:`.turn`).
"""

from __future__ import annotations

from collections import deque

from pipeline.systems.genpei import odds
from pipeline.systems.genpei.engine.board import Hex
from pipeline.systems.genpei.engine.combat import (
    Fighter,
    Setup,
    close_setup,
    destroy_setup,
    leader_target_setup,
    max_range,
    ranged_setup,
    score,
)
from pipeline.systems.genpei.engine.dice import casualty_check_probability, challenge_outcomes
from pipeline.systems.genpei.engine.pieces import BACK, LEADER_BASE, STATUS, Leader, Unit
from pipeline.systems.genpei.model import LeaderType


class Battles:
    """The battles of :class:`~.state.GenpeiState`."""

    # ================================================================ battle choices
    def inspiration(self, u: Unit) -> LeaderType | None:
        """The leader that may inspire ``u`` now (attached, or an adjacent cavalry leader on
        land, attached or alone), or ``None``: not on a tile that forbids it
        (:func:`~.combat.inspiration_allowed`), not without the H&F to pay; at sea every leader
        inspires only its own unit (Genpei pack)."""
        b = self.board
        h = u.hex
        if h in b.no_inspiration:
            return None
        hf = self.sides[u.side].hf
        if u.leader is not None and hf >= u.leader.inspiration.hf_cost:
            return u.leader
        naval = b._naval
        if h in naval:
            return None
        at, lat, side = self.at, self.lat, u.side
        for n in b.adjacent[h]:
            uid = at.get(n)
            ldr = None
            if uid is not None:
                o = self.units[uid]
                if o.side == side and n not in naval:
                    ldr = o.leader
            else:
                lid = lat.get(n)
                if lid is not None and self.leaders[lid].side == side:
                    ldr = self.leaders[lid].type
            if ldr is not None and ldr.inspiration.reach == "attached_or_adjacent" and hf >= ldr.inspiration.hf_cost:
                return ldr
        return None

    def close_targets(self, u: Unit) -> list[int]:
        """Adjacent enemy units and lone leaders."""
        out = []
        at, lat, units, side = self.at, self.lat, self.units, u.side
        for n in self.board.adjacent[u.hex]:
            uid = at.get(n)
            if uid is not None:
                if units[uid].side != side:
                    out.append(uid)
                continue
            lid = lat.get(n)
            if lid is not None and self.leaders[lid].side != side:
                out.append(lid)
        return out

    def max_range(self, u: Unit) -> int:
        """How far ``u`` fires from its hex (:func:`~.combat.max_range`, cached per unit type
        and the tiles of the hex)."""
        b = self.board
        key = (u.type.id, b.tile_key.get(u.hex, ()))
        r = self._ranges.get(key)
        if r is None:
            r = self._ranges[key] = max_range(Fighter(u.type, b.terrain(u.hex), naval=u.hex in b._naval))
        return r

    def ranged_targets(self, u: Unit, close: list[int] | None = None) -> list[int]:
        """Enemy units and lone leaders ``u`` may fire at: in range (Arrow Tower, long shot),
        in line of sight, not when an enemy is adjacent, not after a move that forbids it, not
        under a card that forbids ranged combat. ``close``: :meth:`close_targets` of ``u`` when
        the caller has them."""
        st = u.stats
        if st.ranged <= 0 or u.no_ranged:
            return []
        if close is None:
            close = self.close_targets(u)
        if close:
            return []
        b = self.board
        if u.moved and u.hex not in b._naval and st.ranged_after_move <= 0:
            return []
        r = self.max_range(u)
        lo = st.min_range
        h = u.hex
        row = b.dist[h]
        side = u.side
        out = []
        for o in self._side_units(1 - side):
            if lo <= row[o.hex] <= r and self.has_los(h, o.hex):
                out.append(o.uid)
        for le in self.leaders.values():
            if le.side != side and not le.detaching and lo <= row[le.hex] <= r and self.has_los(h, le.hex):
                out.append(le.lid)
        return out

    def has_los(self, a: Hex, b: Hex) -> bool:
        """Line of sight from ``a`` to ``b``: no unit or lone leader between, no blocking terrain."""
        at, lat = self.at, self.lat
        for h in self.board.between(a, b):
            if h in at or h in lat:
                return False
        return not self.board.los_blocked_by_terrain(a, b)

    def destroyable(self, u: Unit) -> list[Hex]:
        """Palisade and Stockade hexes ``u`` may attack: a Stockade next to it, or a Palisade
        whose covered hexside it stands across (Genpei pack, Palisade; Stockade)."""
        b = self.board
        near = b.destructible_adjacent.get(u.hex)
        if near is None:
            return []
        out = []
        for n in near:
            o = self.at.get(n)
            if o is not None and self.units[o].side == u.side:
                continue
            for t in b.terrain(n):
                if t.destruction is None:
                    continue
                if t.hexsides:
                    back = b.direction(n, u.hex)
                    if back not in b.palisade_sides.get(n, ()):
                        continue
                out.append(n)
                break
        return out

    def battle_actions(self, u: Unit) -> list:
        """The battles the ordered unit ``u`` may fight now (without the ``pass``)."""
        acts: list = []
        card_forbids = self.card_effect is not None and self.card_effect in u.type.close_combat.not_when_ordered_by
        uid = u.uid
        close = self.close_targets(u)
        ranged = self.ranged_targets(u, close)
        walls = [] if card_forbids else self.destroyable(u)
        if not (ranged or walls or (close and not card_forbids)):
            return acts  # nothing to battle: no need to ask for inspiration
        insp = (False, True) if self.inspiration(u) is not None else (False,)
        if not card_forbids:
            for o in close:
                for i in insp:
                    acts.append(("battle", uid, o, "close", i))
        for o in ranged:
            for i in insp:
                acts.append(("battle", uid, o, "ranged", i))
        for h in walls:
            for i in insp:
                acts.append(("destroy", uid, h, i))
        return acts

    def setup_for(self, att: Unit, dfn: Unit, kind: str, inspired: bool, extra: int = 0) -> Setup:
        """The :class:`~.combat.Setup` of ``att``'s roll at ``dfn`` now (``extra``: Ambush).

        Cached for the scenario by everything the two :class:`~.combat.Fighter` and the
        arguments of :func:`~.combat.close_setup`/:func:`~.combat.ranged_setup` hold."""
        ldr = self.inspiration(att) if inspired else None
        b = self.board
        ah, dh = att.hex, dfn.hex
        covered = b.covered(dh, ah)
        tk, naval = b.tile_key, b._naval
        bonus = (att.bonus_close if kind == "close" else att.bonus_ranged) + extra
        distance = 1 if kind == "close" else b.distance(ah, dh)
        key = (kind, att.type.id, tk.get(ah, ()), ah in naval, att.moved, att.lying_flat, ldr.id if ldr is not None else None,
               dfn.type.id, tk.get(dh, ()), dh in naval, dfn.moved, dfn.lying_flat, dfn.leader.id if dfn.leader is not None else None,
               covered, distance, bonus)
        got = self._setups.get(key)
        if got is not None:
            return got
        fa = self.fighter(att, ldr or False)
        fd = self.fighter(dfn)
        if kind == "close":
            setup = close_setup(fa, fd, covered=covered, inspired=ldr is not None, bonus_dice=bonus)
        else:
            setup = ranged_setup(fa, fd, distance, covered=covered, inspired=ldr is not None, bonus_dice=bonus)
        self._setups[key] = setup
        return setup

    def leader_setup_for(self, att: Unit, le: Leader, kind: str, inspired: bool) -> Setup:
        """The :class:`~.combat.Setup` of ``att``'s roll at the lone leader ``le``.

        Cached for the scenario (as :meth:`setup_for`) by everything the attacker's
        :class:`~.combat.Fighter` and the arguments of :func:`~.combat.leader_target_setup` hold."""
        ldr = self.inspiration(att) if inspired else None
        b = self.board
        ah, lh = att.hex, le.hex
        tk = b.tile_key
        bonus = att.bonus_close if kind == "close" else att.bonus_ranged
        distance = b.distance(ah, lh)
        key = ("leader", kind, att.type.id, tk.get(ah, ()), ah in b._naval, att.moved, att.lying_flat,
               ldr.id if ldr is not None else None, tk.get(lh, ()), distance, bonus)
        got = self._setups.get(key)
        if got is not None:
            return got
        fa = self.fighter(att, ldr or False)
        setup = self._setups[key] = leader_target_setup(fa, b.terrain(lh), kind, distance, inspired=ldr is not None,
                                                        bonus_dice=bonus)
        return setup

    # ================================================================ battle resolution
    def _pay_inspiration(self, u: Unit, inspired: bool) -> bool:
        ldr = self.inspiration(u) if inspired else None
        if ldr is None:
            return False
        self.sides[u.side].hf -= ldr.inspiration.hf_cost
        return True

    def _stockade_first(self, att: Unit, dfn: Unit) -> bool:
        """A unit in a Stockade attacked in close combat from a non-Stockade hex battles first
        (Genpei pack, Stockade)."""
        own = {t.id for t in self.board.terrain(att.hex)}
        return any(t.combat.battles_first and t.id not in own for t in self.board.terrain(dfn.hex))

    def _s_declare(self, uid: int, target: int, kind: str, insp: bool, bonus: bool) -> None:
        att = self.units.get(uid)
        if att is None or not self.alive(target):
            return
        if target >= LEADER_BASE:
            paid = self._pay_inspiration(att, insp)
            self._push(("roll_leader", uid, target, kind, paid, bonus, att.hex))
            return
        paid = self._pay_inspiration(att, insp)
        if kind != "close":
            self._push(("roll", uid, target, kind, "attack", paid, bonus, 0, att.hex))
            return
        self._push(("challenge_q", uid, target, 0), ("react_q", uid, target, paid, bonus))

    # ---------------------------------------------------------------- Personal Challenge
    def _s_challenge_q(self, uid: int, target: int, asked: int) -> None:
        att, dfn = self.units.get(uid), self.units.get(target)
        if att is None or dfn is None or att.leader is None or dfn.leader is None or asked > 1:
            return
        side = att.side if asked == 0 else dfn.side
        if self.can_play_dragon(side, "personal_challenge") is None:
            self._push(("challenge_q", uid, target, asked + 1))
            return
        self._decide(side, [("challenge", False), ("challenge", True)], "_h_challenge", uid, target, asked, side)

    def _h_challenge(self, a, uid: int, target: int, asked: int, side: int) -> None:
        if not a[1]:
            self._push(("challenge_q", uid, target, asked + 1))
            return
        self._play_dragon(side, self.can_play_dragon(side, "personal_challenge"))  # type: ignore[arg-type]
        att, dfn = self.units[uid], self.units[target]
        ptr = self.player
        n = [len(self.sides[i].hand) + (1 if i == ptr else 0) for i in (0, 1)]
        n[side] += 2
        hf = [s.hf for s in self.sides]
        if hf[0] != hf[1]:
            n[0 if hf[0] > hf[1] else 1] += 1
        lead = {att.side: att.leader, dfn.side: dfn.leader}
        st = [STATUS.get(lead[i].kind, 1) for i in (0, 1)]  # type: ignore[union-attr]
        if st[0] != st[1]:
            n[0 if st[0] > st[1] else 1] += 1
        self._chance(challenge_outcomes(self.faces, n[0], n[1]), "_h_challenge_roll", uid, target)

    def _h_challenge_roll(self, o, uid: int, target: int) -> None:
        _, result, hf0, hf1 = o
        self.sides[0].hf += hf0
        self.sides[1].hf += hf1
        if result == 0:
            return
        loser = 1 if result > 0 else 0  # result > 0: side 0 rolled more swords
        for pid in (uid, target):
            u = self.units.get(pid)
            if u is not None and u.side == loser and u.leader is not None:
                u.leader = None
                self._leader_lost(loser, banner=False)  # no victory banner (ccn_personal_challenge)
        self._push(("lose_card", loser))

    # ---------------------------------------------------------------- reactions
    def _s_react_q(self, uid: int, target: int, paid: bool, bonus: bool) -> None:
        att, dfn = self.units.get(uid), self.units.get(target)
        if att is None or dfn is None:
            return
        d = dfn.side
        stockade = self._stockade_first(att, dfn)
        acts: list = [("react", None)]
        if not stockade and any(self.decks.info[c].effect == "first_strike" for c in self.sides[d].hand):
            acts.append(("react", "first_strike"))
        if self.can_play_dragon(d, "ambush") is not None:
            acts.append(("react", "ambush"))
        if len(acts) == 1:
            self._h_react(acts[0], uid, target, paid, bonus)
            return
        self._decide(d, acts, "_h_react", uid, target, paid, bonus)

    def _h_react(self, a, uid: int, target: int, paid: bool, bonus: bool) -> None:
        att, dfn = self.units[uid], self.units[target]
        first = self._stockade_first(att, dfn)
        extra = 0
        if a[1] == "first_strike":
            hand = self.sides[dfn.side].hand
            card = next(c for c in hand if self.decks.info[c].effect == "first_strike")
            hand.remove(card)
            self.cmd_discard[card] = self.cmd_discard.get(card, 0) + 1
            self.replacements[dfn.side] += 1
            self._count("command:" + card)
            first = True
        elif a[1] == "ambush":
            self._play_dragon(dfn.side, self.can_play_dragon(dfn.side, "ambush"))  # type: ignore[arg-type]
            first = True
            extra = 1
        if first:
            # the defender battles first; the attacker then battles as ordered (no battle back)
            self._push(("inspire_q", target, uid, "first", bonus, extra, (uid, paid, att.hex)))
        else:
            self._push(("roll", uid, target, "close", "attack", paid, bonus, 0, att.hex))

    def _s_inspire_q(self, roller: int, target: int, role: str, bonus: bool, extra: int, then) -> None:
        r = self.units.get(roller)
        t = self.units.get(target)
        if r is None or t is None:
            if then is not None:
                self._push(("after_first", then, target))
            return
        if self.inspiration(r) is None:
            self._h_inspire(("inspire", False), roller, target, role, bonus, extra, then)
            return
        self._decide(r.side, [("inspire", False), ("inspire", True)], "_h_inspire", roller, target, role, bonus, extra, then)

    def _h_inspire(self, a, roller: int, target: int, role: str, bonus: bool, extra: int, then) -> None:
        r = self.units[roller]
        paid = self._pay_inspiration(r, a[1])
        self._push(("roll", roller, target, "close", role, paid, bonus, extra, r.hex))
        if then is not None:
            self._push_after(("after_first", then, roller))

    def _push_after(self, step: tuple) -> None:
        """Queue ``step`` after the roll just pushed and everything it will push: a marker the
        roll's resolution runs up to."""
        # the roll step is first in the queue; its resolution pushes its own steps in front of
        # everything behind it, so inserting right after it keeps the order
        self.steps.insert(1, step)

    def _s_after_first(self, then, defender: int) -> None:
        uid, paid, hex_ = then
        att = self.units.get(uid)
        if att is None or att.hex != hex_ or defender not in self.units:
            return  # eliminated or retreated by the first strike
        self._push(("roll", uid, defender, "close", "after_first", paid, False, 0, att.hex))

    # ---------------------------------------------------------------- rolls
    def _s_roll(self, roller: int, target: int, kind: str, role: str, insp: bool, bonus: bool, extra: int, roller_hex: Hex) -> None:
        r = self.units.get(roller)
        t = self.units.get(target)
        if r is None or t is None or r.hex != roller_hex:
            return
        setup = self.setup_for(r, t, kind, insp, extra)
        if setup.dice <= 0:
            return
        self._chance(odds.chance_list(self.data, setup), "_h_roll", roller, target, kind, role, bonus, t.hex, setup)

    def _h_roll(self, o, roller: int, target: int, kind: str, role: str, bonus: bool, start_hex: Hex, setup: Setup) -> None:
        r, t = self.units[roller], self.units[target]
        sym, swords, flags, hf = o[1:]
        if setup.grapple and swords > 0 and (self.naval(r) or self.board.distance(r.hex, t.hex) == 1):
            pair = frozenset((roller, target))
            lost = score(setup, sym, swords, flags)[0] - score(setup, sym, swords, flags, grapple=True)[0]
            self.pending_grapple = (roller, target, lost, pair in self.grapples)
            self._decide(r.side, [("grapple", False), ("grapple", True)], "_h_grapple", roller, target, kind, role, bonus, start_hex, setup, (sym, swords, flags, hf))
            return
        self._resolve(roller, target, kind, role, bonus, (sym, swords, flags, hf), False, start_hex, setup)

    def _h_grapple(self, a, roller, target, kind, role, bonus, start_hex, setup, roll) -> None:
        self.pending_grapple = None
        self._resolve(roller, target, kind, role, bonus, roll, a[1], start_hex, setup)

    def _resolve(self, roller: int, target: int, kind: str, role: str, bonus: bool, roll: tuple[int, int, int, int],
                 spend_sword: bool, start_hex: Hex, setup: Setup) -> None:
        sym, swords, flags, hf = roll
        r, t = self.units[roller], self.units[target]
        self.sides[r.side].hf += hf
        if spend_sword:
            self._vdirty = True
            pair = frozenset((roller, target))
            if pair in self.grapples:
                self.grapples.discard(pair)  # severed: both free at once
            else:
                self.grapples.add(pair)
        hits, retreat = score(setup, sym, swords, flags, grapple=spend_sword)
        steps: list[tuple] = []
        if hits:
            steps.append(("hit", target, hits))
        if retreat:
            steps.append(("retreat", target, retreat))
        if hits or retreat:
            steps.append(("casualty", target, t.figures))
        steps.append(("after", roller, target, kind, role, bonus, start_hex))
        self._push(*steps)

    def _s_after(self, roller: int, target: int, kind: str, role: str, bonus: bool, start_hex: Hex) -> None:
        r = self.units.get(roller)
        if r is None or kind != "close":
            return
        t = self.units.get(target)
        vacated = not self.occupied(start_hex)
        if role == "attack":
            if t is not None and t.hex == start_hex and t.hex == t.start_hex:
                # battle back (not after a retreat, not by a unit that moved this turn)
                self._push(("inspire_q", target, roller, "back", bonus, 0, None))
            elif vacated:
                self._push(("ground_q", roller, start_hex, bonus))
        elif role == "after_first" and vacated:
            self._push(("ground_q", roller, start_hex, bonus))

    def _s_roll_leader(self, uid: int, lid: int, kind: str, paid: bool, bonus: bool, roller_hex: Hex) -> None:
        u, le = self.units.get(uid), self.leaders.get(lid)
        if u is None or le is None or u.hex != roller_hex:
            return
        setup = self.leader_setup_for(u, le, kind, paid)
        if setup.dice <= 0:
            return
        self._chance(odds.chance_list(self.data, setup), "_h_roll_leader", uid, lid, kind, bonus, le.hex)

    def _h_roll_leader(self, o, uid: int, lid: int, kind: str, bonus: bool, start_hex: Hex) -> None:
        u, le = self.units[uid], self.leaders[lid]
        self.sides[u.side].hf += o[4]
        steps: list[tuple] = []
        if o[2] > 0:  # one sword or more: the leader is eliminated
            self._remove_leader(lid)
            self._leader_lost(le.side, banner=True)
        else:
            steps.append(("leader_escape", lid))
        if kind == "close":
            steps.append(("ground_after_leader", uid, start_hex, bonus))
        self._push(*steps)

    def _s_ground_after_leader(self, uid: int, h: Hex, bonus: bool) -> None:
        if uid in self.units and not self.occupied(h):
            self._push(("ground_q", uid, h, bonus))

    # ---------------------------------------------------------------- taking ground, bonus
    def may_take_ground(self, u: Unit, h: Hex) -> bool:
        """``u`` may take the vacated hex ``h`` after a close combat: cavalry (mounted, not at
        sea) and units with a leader (rules-facts §1.4); never between land and sea (Genpei
        pack); not grappled; once per turn; not after entering or leaving a Marsh by its move
        this turn (one that started in a Marsh and did not move may take ground out of it);
        Stockade entry rules (erratum stockade_take_ground_adjacent)."""
        if u.took_ground or self.occupied(h) or self.grappled(u):
            return False
        b = self.board
        at_sea = b.is_naval(u.hex)
        if not ((u.type.mounted and not at_sea) or u.leader is not None):
            return False
        if at_sea != b.is_naval(h) or b.impassable(h):
            return False
        if u.moved and (b.entry_roll(u.hex) or b.entry_roll(u.start_hex)):
            return False
        return self._may_enter(u, h, u.hex)

    def _s_ground_q(self, uid: int, h: Hex, bonus: bool) -> None:
        u = self.units.get(uid)
        if u is None or not self.may_take_ground(u, h):
            return
        self._decide(u.side, [("take_ground", uid, False), ("take_ground", uid, True)], "_h_ground", h, bonus)

    def _h_ground(self, a, h: Hex, bonus: bool) -> None:
        if not a[2]:
            return
        u = self.units[a[1]]
        self._enter_hex(u, h)
        u.took_ground = True
        self._count("took_ground")
        if self.board.entry_roll(h):
            self._push(("marsh", u.uid, not bonus))  # the roll, then the bonus combat
        elif not bonus:
            self._push(("bonus_q", u.uid))

    def _s_bonus_q(self, uid: int) -> None:
        u = self.units.get(uid)
        if u is None:
            return
        if not ((u.type.mounted and not self.naval(u)) or u.leader is not None):
            return  # a dismounted naval unit without a leader takes ground but gets no bonus
        insp = (False, True) if self.inspiration(u) is not None else (False,)
        acts: list = [("pass", uid)] + [("bonus", uid, o, i) for o in self.close_targets(u) for i in insp]
        if len(acts) == 1:
            return
        self._decide(u.side, acts, "_h_bonus")

    def _h_bonus(self, a) -> None:
        if a[0] == "bonus":
            self._count("bonus_combat")
            self._push(("declare", a[1], a[2], "close", a[3], True))

    # ---------------------------------------------------------------- losses and retreats
    def _s_hit(self, uid: int, n: int) -> None:
        u = self.units.get(uid)
        if u is None:
            return
        u.figures -= n
        if u.figures <= 0:
            self._eliminate(u)

    def _lose(self, u: Unit, figures: int) -> None:
        self._push(("hit", u.uid, figures))

    def _eliminate(self, u: Unit) -> None:
        self._vdirty = True
        del self.units[u.uid]
        del self.at[u.hex]
        if self.grapples:
            self.grapples = {g for g in self.grapples if u.uid not in g}
        if u.uid in self.queue:
            self.queue = deque(x for x in self.queue if x != u.uid)
        me = self.sides[u.side]
        self.sides[1 - u.side].banners += 1
        me.hf = max(0, me.hf - u.type.hf_lost_when_eliminated)
        if u.leader is not None:
            # the leader stays alone on the hex: casualty check with 1 die, then retreat or seppuku
            le = self._place_leader(u.side, u.leader, u.hex)
            self._push(("elim_check", le.lid))

    def _s_elim_check(self, lid: int) -> None:
        if lid not in self.leaders:
            return
        p = casualty_check_probability(self.faces, 1)
        self._chance([(("casualty", True), p), (("casualty", False), 1 - p)], "_h_elim_check", lid)

    def _h_elim_check(self, o, lid: int) -> None:
        le = self.leaders[lid]
        if o[1]:
            self._remove_leader(lid)
            self._leader_lost(le.side, banner=True)
            return
        self._push(("leader_escape", lid))

    def _s_casualty(self, uid: int, before: int) -> None:
        u = self.units.get(uid)
        if u is None or u.leader is None or u.figures >= before:
            return
        p = casualty_check_probability(self.faces, 2)
        self._chance([(("casualty", True), p), (("casualty", False), 1 - p)], "_h_casualty", uid)

    def _h_casualty(self, o, uid: int) -> None:
        if o[1] and uid in self.units:
            u = self.units[uid]
            u.leader = None
            self._leader_lost(u.side, banner=True)

    def retreat_hexes(self, u: Unit, frm: Hex) -> list[Hex]:
        """Hexes ``u`` may retreat into from ``frm``: toward its own edge, free, passable, land
        for a land unit (Genpei pack: no retreat onto Ocean), no Stockade for cavalry or a unit
        with a cavalry leader."""
        out = []
        b = self.board
        mounted = u.type.mounted or (u.leader is not None and u.leader.mounted)
        for d in BACK[self.sides[u.side].edge]:
            n = b.neighbour(frm, d)
            if n is None or n in self.at or n in self.lat or b.impassable(n) or b.is_naval(n):
                continue
            if mounted and any(not t.movement.mounted_may_enter for t in b.terrain(n)):
                continue
            out.append(n)
        return out

    def _s_retreat(self, uid: int, left: int) -> None:
        u = self.units.get(uid)
        if u is None or left <= 0:
            return
        options = [] if self.grappled(u) or self.naval(u) else self.retreat_hexes(u, u.hex)
        if not options:
            self._push(("hit", uid, left))  # 1 figure per hex it cannot retreat (ccn_faq_retreats)
            return
        if len(options) == 1:
            self._h_retreat(("retreat", uid, options[0]), left)
            return
        self._decide(u.side, [("retreat", uid, n) for n in options], "_h_retreat", left)

    def _h_retreat(self, a, left: int) -> None:
        u = self.units[a[1]]
        me = self.sides[u.side]
        cost = u.stats.retreat_hf + (1 if u.leader is not None else 0)
        steps: list[tuple] = []
        if me.hf >= cost:
            me.hf -= cost
        else:
            steps.append(("hit", u.uid, 1))  # Lack of Honor: a block instead of the tokens
        self._enter_hex(u, a[2])
        if self.board.entry_roll(a[2]):
            steps.append(("marsh", u.uid, False))  # entering a Marsh stops the retreat
        else:
            steps.append(("retreat", u.uid, left - 1))
        self._push(*steps)

    # ---------------------------------------------------------------- palisade / stockade
    def _destroy(self, u: Unit, h: Hex, inspired: bool) -> None:
        insp = self._pay_inspiration(u, inspired)
        b = self.board
        # cached for the scenario by what :func:`~.combat.destroy_setup` reads of the Fighter
        key = ("destroy", u.type.id, b.tile_key.get(u.hex, ()), u.hex in b._naval, u.moved,
               u.leader.id if u.leader is not None else None, insp, u.bonus_close)
        setup = self._setups.get(key)
        if setup is None:
            setup = self._setups[key] = destroy_setup(self.fighter(u), inspired=insp, bonus_dice=u.bonus_close)
        tile = next(t for t in b.terrain(h) if t.destruction is not None)
        self._chance(odds.chance_list(self.data, setup), "_h_destroy", h, tile.id, u.side)

    def _h_destroy(self, o, h: Hex, tile_id: str, side: int) -> None:
        self.sides[side].hf += o[4]
        tile = self.data.terrain[tile_id]
        if o[2] >= tile.destruction.swords_needed:  # type: ignore[union-attr]
            self.board.remove_tile(h, tile_id)
            self._vdirty = True
            self._count("tile_destroyed")
            lost = tile.destruction.occupant_loses_figures  # type: ignore[union-attr]
            occ = self.at.get(h)
            if occ is not None and lost:
                self._push(("hit", occ, lost), ("casualty", occ, self.units[occ].figures))
