"""Unit movement of a Genpei game: where an ordered unit may move (land, sea with the
wind/tide, embarking and disembarking, joining a lone leader; terrain entry rules), the move
itself (Command Tent and Ship, lying flat, no battle after the move) and the Marsh entry roll.

:class:`Movement` is a part of :class:`~.state.GenpeiState` (see :mod:`.turn`).
"""

from __future__ import annotations

from pipeline.systems.genpei.engine.board import Hex
from pipeline.systems.genpei.engine.dice import marsh_entry_outcomes
from pipeline.systems.genpei.engine.pieces import Unit


class Movement:
    """Unit movement and the Marsh roll of :class:`~.state.GenpeiState`."""

    # ================================================================ movement
    def destinations(self, u: Unit) -> list[Hex]:
        """Hexes the ordered unit ``u`` may end its move on (its own hex first)."""
        return list(self._reach(u))

    def _reach(self, u: Unit) -> dict[Hex, tuple[int, str]]:
        """Destination → (hexes moved, how: ``land``/``sea``/``embark``/``disembark``/``join``)."""
        rc = self._reach_cache
        if rc is not None and rc[0] == u.uid and rc[1] == u.hex:
            return rc[2]
        out = self._reach_uncached(u)
        self._reach_cache = (u.uid, u.hex, out)
        return out

    def _joinable(self, u: Unit, h: Hex) -> bool:
        """``u`` may move onto the lone leader on ``h`` and join him (ccn_rules_movement: an
        infantry unit takes either leader, a cavalry unit only a cavalry leader)."""
        lid = self.lat.get(h)
        if lid is None or u.leader is not None:
            return False
        le = self.leaders[lid]
        return le.side == u.side and (not u.type.mounted or le.type.mounted)

    def _reach_uncached(self, u: Unit) -> dict[Hex, tuple[int, str]]:
        b = self.board
        at, lat = self.at, self.lat
        start = u.hex
        out: dict[Hex, tuple[int, str]] = {start: (0, "stay")}
        if self.grapples and self.grappled(u):
            return out
        cap = u.move_cap
        naval, impassable = b._naval, b._impassable
        if start in naval:
            two = cap != 1
            wind = b.wind_dirs
            any_wind = u.sea_any_wind
            sea = b.sea_adjacent  # (Ocean neighbours, those with the wind) of each hex
            k = 0 if any_wind else 1
            for d, n in b.neighbours(start):
                if n in at or n in lat or n in impassable:
                    continue
                if n in naval:
                    out[n] = (1, "sea")
                    if two and (any_wind or d in wind):
                        for n2 in sea[n][k]:
                            if n2 not in out and n2 not in at and n2 not in lat:
                                out[n2] = (2, "sea")
                elif self._may_enter(u, n, start):
                    out[n] = (1, "disembark")
            return out
        s = u.stats
        reach = u.move_override if u.move_override is not None else max(s.move, s.move_no_battle)
        em = b.exit_max.get(start)
        if em is not None and em < reach:
            reach = em
        if cap is not None and cap < reach:
            reach = cap
        adjacent, must_stop = b.adjacent, b._must_stop
        special = b.entry_rules
        embark = b.naval_rules
        frontier = [start]
        # Past the first step (or without embarking) Ocean and impassable hexes are never
        # entered: the per-hex table without them gives the same hexes in the same order, unless
        # a lone leader stands at sea (whom the unit could join).
        land = b.land_adjacent
        lean = not lat or naval.isdisjoint(lat)
        for step in range(1, reach + 1):
            nxt = []
            if lean and (step > 1 or not embark):
                # the land table leaves out Ocean and impassable neighbours: the loop below
                # without the impassable and Ocean tests (which never hold on it)
                tag = (step, "land")
                for h in frontier:
                    if h in must_stop and h != start:
                        continue
                    for n in land[h]:
                        if n in out or n in at:
                            continue
                        if n in lat:
                            if self._joinable(u, n):
                                out[n] = (step, "join")
                            continue
                        if n in special and not self._may_enter(u, n, h):
                            continue
                        out[n] = tag
                        nxt.append(n)
                frontier = nxt
                continue
            neighbours = adjacent
            for h in frontier:
                if h in must_stop and h != start:
                    continue
                for n in neighbours[h]:
                    if n in out or n in at or n in impassable:
                        continue
                    if n in lat:
                        if self._joinable(u, n):
                            out[n] = (step, "join")
                        continue
                    if n in naval:
                        if step == 1 and embark:
                            out[n] = (1, "embark")
                        continue
                    if n in special and not self._may_enter(u, n, h):
                        continue
                    out[n] = (step, "land")
                    nxt.append(n)
            frontier = nxt
        return out

    def _may_enter(self, u: Unit, n: Hex, frm: Hex) -> bool:
        """Terrain lets ``u`` enter ``n``: no cavalry unit or unit with a cavalry leader where
        mounted units may not go (Stockade), and a Stockade only from a hex next to it at the
        start of the turn (Genpei pack, Stockade; erratum stockade_take_ground_adjacent)."""
        b = self.board
        if n in b.no_mounted and (u.type.mounted or (u.leader is not None and u.leader.mounted)):
            return False
        return n not in b.start_adjacent or b.distance(u.start_hex, n) == 1

    def _enter_hex(self, u: Unit, dest: Hex) -> None:
        watched = self.temporary.hexes  # a move elsewhere changes no banner (_tent_capture aside)
        if u.hex in watched or dest in watched:
            self._vdirty = True
        del self.at[u.hex]
        u.hex = dest
        self.at[dest] = u.uid
        self.touched.add(u.uid)
        if self.tent_banner and self.markers:
            self._tent_capture(u)

    def _tent_capture(self, u: Unit) -> None:
        """Command tent/ship as a banner objective (erratum command_tent_banner)."""
        if not self.tent_banner:
            return
        for m in self.markers:
            if m[0] in ("command_tent", "command_ship") and m[1] == u.hex and m[2] is not None and m[2] != self.sides[u.side].id:
                self.markers.remove(m)
                self.sides[u.side].banners += 1
                self._vdirty = True
                self._count("command_tent_taken")
                return

    def _move(self, u: Unit, dest: Hex) -> None:
        if dest == u.hex:
            return
        steps, how = self._reach(u)[dest]
        old = u.hex
        if how == "join":
            lid = self.lat[dest]
            le = self.leaders[lid]
            self._remove_leader(lid)
            u.leader = le.type
            self._count("leader_joined")
        self._enter_hex(u, dest)  # marks u touched: moved, no_battle
        u.moved = True
        for m in self.markers if u.type.id == "bodyguard" else ():
            if m[0] in ("command_ship", "command_tent") and m[1] == old:
                if m[0] == "command_ship":
                    m[1] = dest
                    if how == "disembark":
                        m[0] = "command_tent"  # Genpei pack: the tile becomes a fixed Command Tent
                elif how == "embark":
                    m[0], m[1] = "command_ship", dest
        if how in ("embark", "disembark"):
            u.no_battle = True
            u.lying_flat = True
            self.flat.add(u.uid)
        elif how in ("land", "join"):
            limit = u.move_override if u.move_override is not None else u.stats.move
            if steps > limit:
                u.no_battle = True
            if dest in self.board.no_battle_entering:  # a tile with no_battle_after_entering
                u.no_battle = True
        if how in ("land", "disembark", "join") and self.board.entry_roll(dest):
            self._push(("marsh", u.uid, False))

    def _s_marsh(self, uid: int, bonus_after: bool) -> None:
        u = self.units.get(uid)
        if u is None:
            return
        outs = [(("marsh", lost), p) for lost, p in marsh_entry_outcomes(self.data, u.type.standard)]
        self._chance(outs, "_h_marsh", uid, bonus_after)

    def _h_marsh(self, o, uid: int, bonus_after: bool) -> None:
        steps: list[tuple] = []
        if o[1] and uid in self.units:
            before = self.units[uid].figures
            steps += [("hit", uid, 1), ("casualty", uid, before)]
        if bonus_after:
            steps.append(("bonus_q", uid))
        self._push(*steps)
