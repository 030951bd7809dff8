"""Lone leaders of a Genpei game: where an ordered lone (or detaching) leader may move, deck to
deck at sea, the Marsh roll of a lone leader, and the retreat (escape) or seppuku of a lone
leader forced to leave his hex.

:class:`LoneLeaders` is a part of :class:`~.state.GenpeiState` (see :mod:`.turn`).
"""

from __future__ import annotations

from collections import deque

from pipeline.systems.genpei.engine.board import Hex
from pipeline.systems.genpei.engine.deck import LONE_LEADER_RETREAT_HF, SEPPUKU_HF
from pipeline.systems.genpei.engine.dice import marsh_entry_outcomes
from pipeline.systems.genpei.engine.pieces import BACK, Leader


class LoneLeaders:
    """Lone leaders' moves, Marsh rolls and retreats of :class:`~.state.GenpeiState`."""

    # ---------------------------------------------------------------- lone leaders
    def _deck_to_deck(self, frm: Hex, side: int, reach: int, *, exclude: Hex | None = None, dirs: tuple[str, ...] | None = None) -> list[Hex]:
        """Hexes a naval leader may reach from ``frm`` stepping only onto hexes that hold a
        friendly unit (1 or 2 hexes, or only in ``dirs``), ending on one without a leader
        (Genpei pack, naval leaders)."""
        b = self.board
        out: list[Hex] = []
        frontier = [frm]
        seen = {frm}
        for _ in range(reach):
            nxt = []
            for h in frontier:
                for d, n in b.neighbours(h):
                    if n in seen or (dirs is not None and d not in dirs):
                        continue
                    uid = self.at.get(n)
                    if uid is None or self.units[uid].side != side:
                        continue
                    seen.add(n)
                    nxt.append(n)
                    if self.units[uid].leader is None and n != exclude and n not in out:
                        out.append(n)
            frontier = nxt
        return out

    def leader_destinations(self, le: Leader) -> list[Hex]:
        """Where an ordered lone (or detaching) leader may end his move: 1-3 hexes through
        friendly units, not through enemies, stopped by must-stop terrain and Marsh, onto an
        empty land hex or a friendly unit without a leader he may join; at sea deck to deck
        only (errata lone_leader_move; Genpei pack, naval leaders). His own hex first."""
        b = self.board
        start = le.hex
        out = [start]
        naval = b._naval
        if start in naval:
            return out + self._deck_to_deck(start, le.side, 2, exclude=start)
        reach = min(3, b.exit_max.get(start, 3))
        passable, must_stop, special = b.passable_adjacent, b._must_stop, b.entry_rules
        at, lat, units, side, mounted = self.at, self.lat, self.units, le.side, le.type.mounted
        frontier = [start]
        seen = set(lat)  # other lone leaders' hexes are never entered: as if seen
        seen.add(start)
        for _ in range(reach):
            nxt = []
            for h in frontier:
                if h in must_stop and h != start:
                    continue
                for n in passable[h]:  # impassable hexes left out
                    if n in seen:
                        continue
                    seen.add(n)
                    if n in special and n not in naval and not self._leader_may_enter(le, n):
                        continue
                    uid = at.get(n)
                    if uid is not None:
                        o = units[uid]
                        if o.side != side:
                            continue
                        if o.leader is None and not (o.type.mounted and not mounted):
                            out.append(n)
                        if n not in naval:
                            nxt.append(n)
                        continue
                    if n in naval:
                        continue  # open ocean: impassable to lone leaders
                    out.append(n)
                    nxt.append(n)
            frontier = nxt
        return out

    def _leader_may_enter(self, le: Leader, n: Hex, *, retreat: bool = False) -> bool:
        """Terrain lets ``le`` enter ``n``: never a Stockade for a cavalry leader; an ordered
        move into a Stockade only from next to it at the start of the turn (Genpei pack)."""
        b = self.board
        if n in b.no_mounted and le.type.mounted:
            return False
        return retreat or n not in b.start_adjacent or b.distance(le.start_hex, n) == 1

    def _move_leader(self, le: Leader, dest: Hex) -> None:
        if dest == le.hex:
            if le.detaching:  # stays: attached again to the unit there, else alone on the hex
                uid = self.at.get(le.hex)
                if uid is not None and self.units[uid].leader is None:
                    self.units[uid].leader = le.type
                    del self.leaders[le.lid]
                else:
                    le.detaching = False
                    self.lat[le.hex] = le.lid
            return
        le.moved = True
        self._relocate_leader(le, dest)
        if le.lid in self.leaders and self.board.entry_roll(dest):
            self._push(("leader_marsh", le.lid))

    def _relocate_leader(self, le: Leader, dest: Hex) -> None:
        """Put ``le`` on ``dest``: joins the friendly unit there, else stands alone."""
        if self.lat.get(le.hex) == le.lid:
            del self.lat[le.hex]
        le.detaching = False
        uid = self.at.get(dest)
        if uid is not None:
            self.units[uid].leader = le.type
            del self.leaders[le.lid]
            if le.lid in self.queue:
                self.queue = deque(x for x in self.queue if x != le.lid)
            self._count("leader_joined")
            return
        le.hex = dest
        self.lat[dest] = le.lid

    def _s_leader_marsh(self, lid: int) -> None:
        if lid not in self.leaders:
            return
        p = marsh_entry_outcomes(self.data, None)
        self._chance([(("leader_marsh", lost), q) for lost, q in p], "_h_leader_marsh", lid)

    def _h_leader_marsh(self, o, lid: int) -> None:
        if o[1] and lid in self.leaders:
            side = self.leaders[lid].side
            self._remove_leader(lid)
            self._leader_lost(side, banner=True)

    def leader_escapes(self, le: Leader) -> list[Hex | str]:
        """Where a lone leader forced to retreat may go: 1-3 hexes toward his own baseline (each
        step to one of the two hexes behind) through friendly units, ending on an empty land hex
        or a friendly unit without a leader, or ``"off"`` the board through his baseline; at sea,
        or with only open sea behind, 1-2 hexes deck to deck (erratum lone_leader_retreat;
        Genpei pack, naval leaders). Empty: he must commit seppuku."""
        b = self.board
        dirs = BACK[self.sides[le.side].edge]
        if b.is_naval(le.hex):
            return list(self._deck_to_deck(le.hex, le.side, 2, dirs=dirs))
        out: list[Hex | str] = []
        frontier = [le.hex]
        seen = {le.hex}
        for _ in range(3):
            nxt = []
            for h in frontier:
                for d in dirs:
                    n = b.neighbour(h, d)
                    if n is None:
                        if "off" not in out and self._on_baseline(h, le.side):
                            out.append("off")
                        continue
                    if n in seen or b.impassable(n) or n in self.lat:
                        continue
                    seen.add(n)
                    if not b.is_naval(n) and not self._leader_may_enter(le, n, retreat=True):
                        continue  # a cavalry leader never enters a Stockade (Genpei pack)
                    uid = self.at.get(n)
                    if uid is not None:
                        o = self.units[uid]
                        if o.side != le.side:
                            continue
                        if o.leader is None and not (o.type.mounted and not le.type.mounted):
                            out.append(n)
                        if not b.is_naval(n):
                            nxt.append(n)
                        continue
                    if b.is_naval(n):
                        continue
                    out.append(n)
                    nxt.append(n)
            frontier = nxt
        return out

    def _on_baseline(self, h: Hex, side: int) -> bool:
        return h[1] == (self.board.geometry.rows if self.sides[side].edge == "south" else 1)

    def _s_leader_escape(self, lid: int) -> None:
        le = self.leaders.get(lid)
        if le is None:
            return
        opts = self.leader_escapes(le) if self.sides[le.side].hf >= LONE_LEADER_RETREAT_HF else []
        acts: list = [("escape", lid, h) for h in opts] + [("seppuku", lid)]
        self._decide(le.side, acts, "_h_leader_escape")

    def _h_leader_escape(self, a) -> None:
        lid = a[1]
        le = self.leaders[lid]
        side = le.side
        if a[0] == "seppuku":
            self._remove_leader(lid)
            self.sides[side].hf += SEPPUKU_HF
            self._count("seppuku")
            # +5 H&F, a random Command card lost, the opponent draws a Dragon card (ccn_faq_retreats)
            self._push(("lose_card", side), ("draw_dragon", 1 - side))
            return
        self.sides[side].hf -= LONE_LEADER_RETREAT_HF
        self._count("leader_escaped")
        if a[2] == "off":
            self._remove_leader(lid)  # off through his baseline: out of the game, no banner
            return
        self._relocate_leader(le, a[2])
