"""The turn of a Genpei game: the decks, the start and end of a turn, the phase decisions
(which card, which Dragon card alongside, which pieces to order, to move, to battle with), the
cards and their orders, and Turncoat.

:class:`TurnPhases` is a part of :class:`~.state.GenpeiState` (one of the classes it is made of,
by phase of the turn): its methods run on a ``GenpeiState`` and use its attributes and the other
parts' methods. Its ``_s_*`` steps, ``_h_*`` handlers, ``_pl_*`` phase lists and ``_a_*`` phase
actions are found by :mod:`.state`'s dispatch tables.
"""

from __future__ import annotations

from collections import deque

from pipeline.systems.genpei.engine.deck import DISCARD_DRAGON_HF, END_OF_TURN_HF
from pipeline.systems.genpei.engine.dice import more_hf_probability, shogun_outcomes
from pipeline.systems.genpei.engine.pieces import END_ORDERS, LEADER_BASE, Unit


class TurnPhases:
    """The decks, the turn, the phase decisions and the cards of :class:`~.state.GenpeiState`."""

    # ---------------------------------------------------------------- decks
    def _draw_from(self, deck: dict[str, int], discard: dict[str, int], which: str) -> list | None:
        """The chance outcomes of drawing from ``deck`` (reshuffling ``discard`` into it when it
        is empty): ``(("draw", card), copies / cards left)`` in card id order (``which`` deck of
        :attr:`.deck.Decks.draw_order`)."""
        total = sum(deck.values())
        if not total:
            for k, n in discard.items():
                deck[k] = deck.get(k, 0) + n
            discard.clear()
            total = sum(deck.values())
            if not total:
                return None
        order = self.decks.draw_order[which]
        if len(order) != len(deck):  # a card id the deck did not start with
            order = [(c, ("draw", c)) for c in sorted(deck)]
        return [(o, n / total) for c, o in order if (n := deck[c])]

    def _s_draw_cmd(self, side: int, n: int) -> None:
        outs = self._draw_from(self.cmd_deck, self.cmd_discard, "command")
        if outs is None:
            return
        self._chance(outs, "_h_draw_cmd", side, n)

    def _h_draw_cmd(self, o, side: int, n: int) -> None:
        c = o[1]
        self.cmd_deck[c] -= 1
        if n == 1:
            self.sides[side].hand.append(c)
            return
        self.pick.append(c)
        if len(self.pick) < n:
            self._push(("draw_cmd", side, n))
        else:
            self._push(("keep_one", side))

    def _s_keep_one(self, side: int) -> None:
        self._decide(side, [("keep", c) for c in sorted(set(self.pick))], "_h_keep")

    def _h_keep(self, a, *_args) -> None:
        picks = self.pick
        self.pick = []
        picks.remove(a[1])
        self.sides[self.player].hand.append(a[1])
        for c in picks:
            self.cmd_discard[c] = self.cmd_discard.get(c, 0) + 1

    def _s_draw_dragon(self, side: int) -> None:
        outs = self._draw_from(self.dragon_deck, self.dragon_discard, "dragon")
        if outs is None:
            return
        self._chance(outs, "_h_draw_dragon", side)

    def _h_draw_dragon(self, o, side: int) -> None:
        self.dragon_deck[o[1]] -= 1
        self.sides[side].dragons.append(o[1])

    def _discard_dragon(self, side: int, card: str) -> None:
        self.sides[side].dragons.remove(card)
        self.dragon_discard[card] = self.dragon_discard.get(card, 0) + 1

    def can_play_dragon(self, side: int, effect: str) -> str | None:
        """The card of ``side`` with this Dragon ``effect`` it may play now (one per player per
        turn, H&F cost paid from its reserve; ccn_dragon_cards_gmt), or ``None``."""
        if self.dragon_played[side]:
            return None
        info = self.decks.info
        hf = self.sides[side].hf
        for c in self.sides[side].dragons:
            ci = info[c]
            if ci.effect == effect and hf >= ci.cost:
                return c
        return None

    def _play_dragon(self, side: int, card: str) -> None:
        self.sides[side].hf -= self.decks.info[card].cost
        self._discard_dragon(side, card)
        self.dragon_played[side] = True
        self._count("dragon:" + card)

    def _lose_random_card(self, side: int) -> None:
        hand = self.sides[side].hand
        if not hand:
            return
        outs = [(("lose_card", c), hand.count(c) / len(hand)) for c in sorted(set(hand))]
        self._chance(outs, "_h_lose_card", side)

    def _h_lose_card(self, o, side: int) -> None:
        self.sides[side].hand.remove(o[1])
        self.cmd_discard[o[1]] = self.cmd_discard.get(o[1], 0) + 1

    def _s_lose_card(self, side: int) -> None:
        self._lose_random_card(side)

    # ---------------------------------------------------------------- turn
    def _s_start_turn(self) -> None:
        self.turn += 1
        self.phase = "card"
        me = self.sides[self.player]
        p = self.player
        units = self.units
        if self.flat:
            flat = set()
            for uid in self.flat:
                u = units.get(uid)
                if u is None:
                    continue
                if u.side == p:
                    u.lying_flat = False  # stood up at the start of its owner's next turn
                else:
                    flat.add(uid)
            self.flat = flat
        # Unit.reset of the units whose turn flags or hex changed (the others are as reset)
        for uid in self.touched:
            u = units.get(uid)
            if u is not None:
                u.start_hex = u.hex
                u.moved = u.no_battle = u.took_ground = u.no_ranged = u.sea_any_wind = False
                u.bonus_close = u.bonus_ranged = 0
                u.move_override = u.move_cap = None
        self.touched = set()
        for le in self.leaders.values():
            le.start_hex = le.hex
            le.moved = False
        self.ordered = []
        self.tokens = []
        self.queue = deque()
        self.card = self.card_effect = self.card_mode = None
        self.dragon_played = [False, False]
        if len(me.hand) <= 1:  # surrender (GMT: hand down to 1 Command card at the start of the turn)
            self.winner_ = 1 - self.player
            self._count("surrender")

    def _end_turn(self) -> None:
        self.phase = "end"
        if self.card is not None:
            self.cmd_discard[self.card] = self.cmd_discard.get(self.card, 0) + 1
        draw_two = self.card is not None and self.decks.info[self.card].draw_two
        p = self.player
        steps: list[tuple] = [("end_discard",), ("end_choice",)]
        o = 1 - p
        steps += [("draw_cmd", o, 1)] * self.replacements[o]  # First Strike: the defender draws first
        self.replacements = [0, 0]
        steps.append(("draw_cmd", p, 2 if draw_two else 1))
        steps.append(("next_turn",))
        self._push(*steps)

    def _s_end_discard(self) -> None:
        p = self.player
        me = self.sides[p]
        if self.dragon_played[p] or not me.dragons:
            return
        acts = [("discard", None)] + [("discard", c) for c in sorted(set(me.dragons))]
        self._decide(p, acts, "_h_end_discard")

    def _h_end_discard(self, a) -> None:
        if a[1] is not None:
            self._discard_dragon(self.player, a[1])
            self.sides[self.player].hf += DISCARD_DRAGON_HF
            self._count("end:dragon_discarded")

    def _s_end_choice(self) -> None:
        can_draw = any(self.dragon_deck.values()) or any(self.dragon_discard.values())
        acts = [("eot", "dragon"), ("eot", "hf")] if can_draw else [("eot", "hf")]
        self._decide(self.player, acts, "_h_end_choice")

    def _h_end_choice(self, a) -> None:
        self._count("end:" + a[1])
        if a[1] == "hf":
            self.sides[self.player].hf += END_OF_TURN_HF
        else:
            self._push(("draw_dragon", self.player))

    def _s_next_turn(self) -> None:
        self.player = 1 - self.player
        self._s_start_turn()

    # ================================================================ phase decisions
    def _mixed(self, side: int) -> bool:
        naval = self.board._naval
        kinds = {u.hex in naval for u in self._side_units(side)}
        return len(kinds) == 2

    def _pl_card(self) -> list:
        me = self.sides[self.player]
        info = self.decks.info
        held = sorted(set(me.hand))
        playable = [c for c in held if info[c].effect != "first_strike"] or held
        acts: list = []
        mixed = None
        for c in playable:
            eff = info[c].effect
            if eff in ("cavalry_charge", "infantry_onslaught"):
                if mixed is None:
                    mixed = self._mixed(self.player)
                if mixed:
                    acts += [("card", c, "land"), ("card", c, "naval")]
                    continue
                naval = all(self.board.is_naval(u.hex) for u in self._side_units(self.player))
                acts.append(("card", c, "naval" if naval else "land"))
                continue
            acts.append(("card", c, None))
        return acts

    def _pl_alongside(self) -> list:
        acts = [("no_dragon",)]
        if self.can_play_dragon(self.player, "turncoat"):
            acts += [("dragon", "turncoat", u.uid) for u in self.units.values() if u.side != self.player and u.leader is None]
        return acts

    def _pl_order(self) -> list:
        toks = self.tokens
        if not toks:
            return [END_ORDERS]
        kept = self._order_acts
        if kept is not None and kept[0] == (self.turn, len(toks), len(self.ordered)):
            return kept[1]  # the list before the last order, less the piece ordered (_a_order)
        acts = self._order_actions()
        # With every token alike (and not a naval group) an order changes no other piece's
        # options: the next list is this one less the piece ordered (see _a_order).
        uniform = toks.count(toks[0]) == len(toks) and toks[0][0] != "naval_group"
        self._order_acts = ((self.turn, len(toks), len(self.ordered)), acts) if uniform else None
        return acts

    def _pl_move(self) -> list:
        pid = self.queue[0]
        if pid >= LEADER_BASE:
            return [("move", pid, h) for h in self.leader_destinations(self.leaders[pid])]
        return [("move", pid, h) for h in self._reach(self.units[pid])]  # destinations()

    def _pl_battle(self) -> list:
        u = self.units[self.queue[0]]
        return self.battle_actions(u) + [("pass", u.uid)]

    def _order_actions(self) -> list:
        """The actions of the order phase (tokens left): order a candidate piece
        (:meth:`_order_candidates`), or with a section card detach an attached leader."""
        cands = self._order_candidates()
        acts: list = [("order", pid) for pid in cands] or [END_ORDERS]
        if self.card_effect == "section":  # a section card may detach a leader (1 order)
            p, ordered, naval = self.player, self.ordered, self.board._naval
            toks = self.tokens
            if toks.count(toks[0]) == len(toks) and toks[0][0] == "section":
                # every token the same section: the units a token can order are the candidates
                # (the units first, in id order, as the loop below finds them)
                units = self.units
                for pid in cands:
                    if pid >= LEADER_BASE:
                        break
                    u = units[pid]
                    if u.leader is not None and (u.hex not in naval or self._deck_to_deck(u.hex, u.side, 2, exclude=u.hex)):
                        acts.append(("detach", pid))
                return acts
            for u in self.units.values():
                if u.side != p or u.leader is None or u.uid in ordered or self._token_for(u) is None:
                    continue
                if u.hex not in naval or self._deck_to_deck(u.hex, u.side, 2, exclude=u.hex):
                    acts.append(("detach", u.uid))
        return acts

    def _a_card(self, a) -> None:
        self._play_card(a[1], a[2])

    def _a_no_dragon(self, a) -> None:
        self.phase = "order"

    def _a_dragon(self, a) -> None:
        self._play_dragon(self.player, self.can_play_dragon(self.player, a[1]))  # type: ignore[arg-type]
        self.phase = "order"
        self._push(("turncoat", a[2]))

    def _a_order(self, a) -> None:
        kept = self._order_acts
        pid = a[1]
        fresh = (self.phase == "order" and kept is not None and kept[1][0] is not END_ORDERS
                 and kept[0] == (self.turn, len(self.tokens), len(self.ordered)))
        if fresh:
            acts = kept[1]  # type: ignore[index]
            try:
                i = acts.index(a)
            except ValueError:
                i = -1
            if i >= 0:
                # a listed order while every token is alike: the card spends its first token,
                # and the next list is this one less the order (and a detach) of the piece
                self._order(pid, 0)
                rest = acts.copy()
                del rest[i]
                if rest and rest[-1][0] == "detach":  # detaches come after the orders
                    d = ("detach", pid)
                    if d in rest:
                        rest.remove(d)
                self._order_acts = ((self.turn, len(self.tokens), len(self.ordered)), rest or [END_ORDERS])
                return
        self._order(pid)
        if fresh:
            # nothing but the ordered piece changed: its order (and detach) leave the list
            rest = [x for x in kept[1] if x[1] != pid] or [END_ORDERS]  # type: ignore[index]
            self._order_acts = ((self.turn, len(self.tokens), len(self.ordered)), rest)
        else:
            self._order_acts = None

    def _a_detach(self, a) -> None:
        self._order_acts = None  # a leader left his unit: deck-to-deck options may change
        self._detach(a[1])

    def _a_end_orders(self, a) -> None:
        self.phase = "move"
        self.queue = deque(self.ordered)

    def _a_move(self, a) -> None:
        self.queue.popleft()
        if a[1] >= LEADER_BASE:
            self._move_leader(self.leaders[a[1]], a[2])
        else:
            self._move(self.units[a[1]], a[2])

    def _a_pass(self, a) -> None:
        self.queue.popleft()

    def _a_battle(self, a) -> None:
        self.queue.popleft()
        _, uid, target, bkind, insp = a
        self._push(("declare", uid, target, bkind, insp, False))

    def _a_destroy(self, a) -> None:
        self.queue.popleft()
        _, uid, h, insp = a
        self._destroy(self.units[uid], h, insp)

    # ---------------------------------------------------------------- cards and orders
    def _play_card(self, card: str, mode: str | None) -> None:
        me = self.sides[self.player]
        held = len(me.hand)
        me.hand.remove(card)
        info = self.decks.info[card]
        self.card, self.card_effect, self.card_mode = card, info.effect, mode
        self._count("command:" + card)
        eff = info.effect
        if eff == "section":
            n = held if info.orders == "hand" else int(info.orders)  # type: ignore[arg-type]
            self.tokens = [("section", info.section)] * n
        elif eff == "cavalry_charge":
            if mode == "naval":
                self.tokens = [("naval",)] * 4
            elif any(u.type.mounted and not self.naval(u) for u in self._side_units(self.player)):
                self.tokens = [("cavalry",)] * 4
            else:
                self.tokens = [("any",)]
                self.card_effect = "fallback"
        elif eff == "infantry_onslaught":
            if mode == "naval":
                self.tokens = [("naval_group",)] * 4
            else:
                self.tokens = [("any",)]  # land text not public (erratum infantry_onslaught_land_text)
        elif eff == "shogun":
            self.tokens = []
            self._push(("shogun", held))
        elif eff == "first_strike":
            self.tokens = []  # orders nothing on its own turn (erratum first_strike_own_turn)
        else:  # fallback, serpent_command
            self.tokens = [("any",)]
        if eff != "shogun" and self.can_play_dragon(self.player, "turncoat") is None:
            # no Dragon card to play alongside: the only choice (no_dragon) taken here (after the
            # Shogun roll, which pays H&F, the alongside phase asks)
            self.phase = "order"
        else:
            self.phase = "alongside"

    def _s_shogun(self, dice: int) -> None:
        self._chance(shogun_outcomes(self.faces, dice), "_h_shogun")

    def _h_shogun(self, o) -> None:
        _, c, t, s, flags, hf = o
        self.tokens = [("standard", "circle")] * c + [("standard", "triangle")] * t + [("standard", "square")] * s + [("any",)] * flags
        self.sides[self.player].hf += hf
        for deck, discard in ((self.cmd_deck, self.cmd_discard), (self.dragon_deck, self.dragon_discard)):
            for k, n in discard.items():
                deck[k] = deck.get(k, 0) + n
            discard.clear()

    def _matches(self, tok: tuple, pid: int) -> bool:
        kind = tok[0]
        if kind == "any":
            return True
        if pid >= LEADER_BASE:
            if kind == "section":
                le = self.leaders[pid]
                return tok[1] in self.board.sections(le.hex, self.sides[le.side].edge)
            return False
        u = self.units[pid]
        if kind == "section":
            return tok[1] in self.board.sections(u.hex, self.sides[u.side].edge)
        if kind == "standard":
            return u.type.standard == tok[1]
        if kind == "cavalry":
            return u.type.mounted and not self.naval(u)
        if kind == "naval":
            return self.naval(u)
        if kind == "naval_group":
            if not self.naval(u):
                return False
            done = [self.units[x].hex for x in self.ordered if x in self.units]
            return not done or any(self.board.distance(u.hex, h) == 1 for h in done)
        return False

    def _token_for(self, u: Unit | int) -> int | None:
        """Index of the order token the card spends on piece ``u``: a specific token (section,
        standard, cavalry, naval) before an ``any`` token; ``None`` when the card cannot order it."""
        pid = u if isinstance(u, int) else u.uid
        toks = self.tokens
        if not toks:
            return None
        tok = toks[0]
        if toks.count(tok) == len(toks):  # all alike (most cards): one test
            return 0 if self._matches(tok, pid) else None
        best = None
        for i, tok in enumerate(toks):
            if self._matches(tok, pid):
                if tok[0] != "any":
                    return i
                if best is None:
                    best = i
        return best

    def _order_candidates(self) -> list[int]:
        """The player's units, then lone leaders, not yet ordered that a token of the card can
        order (:meth:`_token_for`), in id order."""
        toks = self.tokens
        if not toks:
            return []
        p = self.player
        ordered = self.ordered
        tok = toks[0]
        kind = tok[0]
        if toks.count(tok) == len(toks) and kind in ("section", "any"):
            # all tokens alike and a test of the hex alone: no call per piece
            if kind == "any":
                out = [u.uid for u in self._side_units(p) if u.uid not in ordered]
                out += [le.lid for le in self.leaders.values() if le.side == p and le.lid not in ordered]
                return out
            section = tok[1]
            secs = self.board.sections_at[self.sides[p].edge]
            out = [u.uid for u in self._side_units(p) if section in secs[u.hex] and u.uid not in ordered]
            if self.leaders:
                out += [le.lid for le in self.leaders.values()
                        if le.side == p and section in secs[le.hex] and le.lid not in ordered]
            return out
        token_for = self._token_for
        out = [u.uid for u in self._side_units(p) if u.uid not in ordered and token_for(u.uid) is not None]
        out += [le.lid for le in self.leaders.values() if le.side == p and le.lid not in ordered and token_for(le.lid) is not None]
        return out

    def _order(self, pid: int, token: int | None = None) -> None:
        """Order piece ``pid`` with the card's token ``token`` (by default :meth:`_token_for`'s)."""
        i = self._token_for(pid) if token is None else token
        del self.tokens[i]  # type: ignore[arg-type]
        self.ordered.append(pid)
        if pid >= LEADER_BASE:
            return
        u = self.units[pid]
        self.touched.add(pid)
        eff = self.card_effect
        if eff == "cavalry_charge":
            u.no_ranged = True
            if self.card_mode == "naval":
                u.bonus_close = 1
            elif u.type.ranged is None:  # Samurai Bow Cavalry: move 2, no extra die (ccn_cavalry_charge)
                u.bonus_close = 1
                if u.type.standard == "square":
                    u.move_override = 3
        elif eff == "infantry_onslaught" and self.card_mode == "naval":
            u.sea_any_wind = True
            u.no_ranged = True
        elif eff == "serpent_command":
            u.move_cap = 1
        elif eff == "shogun":
            u.bonus_close = u.bonus_ranged = 1

    def _detach(self, uid: int) -> None:
        u = self.units[uid]
        i = self._token_for(u)
        del self.tokens[i]  # type: ignore[arg-type]
        ldr = u.leader
        u.leader = None
        le = self._place_leader(u.side, ldr, u.hex, detaching=True)  # type: ignore[arg-type]
        self.ordered.append(le.lid)
        self._count("leader_detached")

    # ---------------------------------------------------------------- Turncoat
    def _s_turncoat(self, uid: int) -> None:
        if uid not in self.units:
            return
        p = self.player
        n = [3, 3]
        b = [self.banners(0), self.banners(1)]
        if b[0] != b[1]:
            n[0 if b[0] > b[1] else 1] += 1
        hf = [s.hf for s in self.sides]
        if hf[0] != hf[1]:
            n[0 if hf[0] > hf[1] else 1] += 2
        mine, theirs = n[p], n[1 - p]
        q = more_hf_probability(self.faces, mine, theirs)
        self._chance([(("turncoat", True), q), (("turncoat", False), 1 - q)], "_h_turncoat", uid)

    def _h_turncoat(self, o, uid: int) -> None:
        if o[1] and uid in self.units:
            u = self.units[uid]
            self._vdirty = True
            u.side = self.player  # defects; not ordered by the change (ccn_faq_dragon_command_cards)
            self.grapples = {g for g in self.grapples if uid not in g}
            self._count("turncoat_defected")
