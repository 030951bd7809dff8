"""``gunbai verify`` for Ronin: a game (a scenario with two rosters, ``games/*.yaml``) obeys the
scenario: the forces (equal points; the Defence attacker at twice the defender's points; the
Assassination defender at 150 points against the fixed Ninja force; the Tournament's agreed
models), one civilian per 25 points, the table size for the points, the deployment zones on the
table, the terrain pieces of known kinds and on the table, and every roster legal (:mod:`pipeline.systems.ronin.roster`).

A problem is printed as one line::

    source_data/ronin/games/defence.yaml:9: defence: attacker-double: Attacker ikko_ikki_league_200 has 150 points; the Defence scenario gives the Attacker twice the Defender's 100 (200) [ronin_book, Scenarios: Defence (p.62)]
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

from pipeline.legality import LegalityRule, rules
from pipeline.legality import explain as explain_rule
from pipeline.play.judge import PLAY_RULES
from pipeline.systems.ronin.data import Loaded, RoninData
from pipeline.systems.ronin.engine.rules import ENGINE_RULES
from pipeline.systems.ronin.model import Game, Roster, Zone
from pipeline.systems.ronin.roster import RosterFinding, check_roster

#: Rule ids of the scenario checks, with a statement and source (``--explain``).
RULES: dict[str, LegalityRule] = rules(
    LegalityRule("known-scenario", "A game names a scenario of scenarios/.", "gunbai", "Game format"),
    LegalityRule("known-roster", "Each side names a roster of rosters/ (or the scenario's fixed force).", "gunbai", "Game format"),
    LegalityRule("equal-points", "Both sides select a force of equal points value.", "ronin_book", "Scenarios (p.59-65)"),
    LegalityRule("attacker-double", "The Attacker has twice as many points as the Defender.", "ronin_book", "Scenarios: Defence (p.62)"),
    LegalityRule("fixed-force", "The Defender selects the scenario's points; the Attacker fields the scenario's fixed models.", "ronin_book", "Scenarios: Assassination (p.63)"),
    LegalityRule("agreed-models", "Both players field the same number of models of the same ranks.", "ronin_book", "Scenarios: Tournament (p.64)"),
    LegalityRule("civilians", "One civilian model for every 25 points.", "ronin_book", "Scenarios: Defend the Village (p.65)"),
    LegalityRule("table-size", "Up to 100 points a 24-inch table, to 200 points 36 inches, more 48 inches (or the scenario's own size).", "ronin_book", "Scenarios: Playing Area (p.57)"),
    LegalityRule("zone-on-table", "A deployment zone lies on the table.", "gunbai", "Game format"),
    LegalityRule("distinct-sides", "The two sides use different colours.", "gunbai", "Game format"),
    LegalityRule("known-terrain", "A terrain piece of a game names a kind of terrain.yaml (how it is drawn).", "gunbai", "Game format"),
    LegalityRule("terrain-on-table", "A terrain piece of a game lies on the table.", "gunbai", "Game format"),
    LegalityRule("placed-force", "Models a game places (an imported set-up) are exactly the side's force, each inside its deployment zone.", "gunbai", "Game format"),
    LegalityRule("known-role", "Each side of a game takes a different role of its scenario (Attacker, Defender, Player A...): the scenario's set-up rules bind the roles.", "ronin_book", "Scenarios (p.59-66)"),
    LegalityRule("bases-apart", "No two models' bases overlap where the set-up puts them.", "ronin_book", "Introduction: Models (p.5, 25 mm round bases)"),
    LegalityRule("zone-room", "A deployment zone holds its side's models, 1 inch apart at least, clear of terrain and markers.", "gunbai", "Game format"),
    LegalityRule("deploy-within", "Every model of the role lies wholly within the scenario's distance of the centre or objective (Defence: 12 inches of the objective; Assassination: the Defender within 12 of the centre).", "ronin_book", "Scenarios: Defence (p.62), Assassination (p.63)"),
    LegalityRule("deploy-outside", "No model of the role comes within the scenario's distance of the centre (Duel: outside the 12-inch duelling area).", "ronin_book", "Scenarios: Duel (p.61)"),
    LegalityRule("deploy-apart", "Every model of the role stands at least the scenario's distance from every model of the other (Assassination: 9 inches), base edge to base edge; so does every base its deployment zone can hold.", "ronin_book", "Scenarios: Assassination (p.63)"),
    LegalityRule("deploy-near", "Every model of the side stands within the scenario's distance of its duellist, base edge to base edge, who is placed on the edge of the duelling area at the point nearest the side's zone (Duel: 6 inches; the 12-inch area); so does every base its deployment zone can hold.", "ronin_book", "Scenarios: Duel, Deployment (p.61)"),
    LegalityRule("deploy-edge", "Every model of the role lies wholly within the scenario's distance of a table edge (Defend the Village: 3 inches; Defence: 2, erratum defence_attacker_edge_depth).", "ronin_book", "Scenarios: Defence (p.62), Defend the Village (p.65-66)"),
    LegalityRule("terrain-clear", "No terrain piece but the objective's comes within the scenario's distance of it (Defence: 8 inches; Duel: the 12-inch circle in the middle).", "ronin_book", "Scenarios: Duel (p.61), Defence (p.62)"),
    LegalityRule("objective-centred", "The objective stands in the exact centre of the table, on its piece when the scenario has one.", "ronin_book", "Scenarios: Capture (p.60), Defence (p.62)"),
    LegalityRule("deployment-option", "The sides stand as one of the scenario's deployment options puts them: Edges (each within 2 inches of an edge, opposite edges) or Corners (within 6 inches of opposite corners).", "ronin_book", "Scenarios: Deployment Rules (p.59)"),
)
RULES.update(PLAY_RULES)  # the rules of play every system shares (gunbai verify --play)

# The rules the engine plays (morale, moving, shooting, combat, the scenarios), so that --explain
# names them too.
RULES.update(ENGINE_RULES)


def explain(rule: str) -> str:
    """The statement and source of a rule id.

    Raises:
        KeyError: no such rule.
    """
    return explain_rule(RULES, rule)


def _check_placed(data: RoninData, g: Game, i: int, side, fail) -> None:
    from collections import Counter

    from pipeline.systems.ronin.deployment import force

    want, got = Counter(force(data, g, side)), Counter(pm.model for pm in side.placed)
    if want != got:
        more, fewer = got - want, want - got
        fail(("sides", i, "placed"), "placed-force", f"{side.role} places {dict(more) or 'nothing more'} beyond its force and lacks {dict(fewer) or 'nothing'}")
    from pipeline.systems.ronin.deployment import base_inside, base_radius
    from pipeline.systems.ronin.model import Zone

    # the whole base inside the zone and on the table (erratum deployment_measured_from_bases),
    # with 0.01 inch of slack for positions read back from a VASSAL setup
    r = base_radius(data) - 0.01
    t = g.table_side_in
    table = Zone(kind="rect", x=0, y=0, w=t, h=t)
    for k, pm in enumerate(side.placed):
        if not base_inside(side.zone, (pm.x, pm.y), r) or not base_inside(table, (pm.x, pm.y), r):
            fail(("sides", i, "placed", k), "placed-force", f"{side.role}'s {pm.model} at ({pm.x:g}, {pm.y:g}) has its base (radius {r + 0.01:.2f} inches) "
                 "outside its deployment zone or off the table")


def recommended_table(data: RoninData, points: int) -> int:
    """Table side in inches for a game of ``points`` (erratum table_size_boundaries)."""
    for t in sorted(data.rules.table_sizes, key=lambda t: (t.max_points is None, t.max_points or 0)):
        if t.max_points is None or points <= t.max_points:
            return t.side_inches
    return data.rules.table_sizes[-1].side_inches


def on_table(z: Zone, side_in: float) -> bool:
    """Does zone ``z`` (a rect or circle, inches) lie wholly on a ``side_in``-inch table?"""
    if z.kind == "rect":
        return 0 <= z.x and 0 <= z.y and z.x + z.w <= side_in and z.y + z.h <= side_in
    return z.r <= z.x <= side_in - z.r and z.r <= z.y <= side_in - z.r


def _check_deployment(data: RoninData, g: Game, sc, fail) -> None:
    """Where the sides' models start (the game's own positions or the module's layout) against
    the zones' room and the scenario's set-up rules (:func:`pipeline.systems.ronin.deployment.check`)."""
    from pipeline.systems.ronin import deployment as dep
    from pipeline.systems.ronin.deployment import base_radius, deployment

    positions: list[list[tuple[float, float]]] = []
    for i, side in enumerate(g.sides):
        if side.roster is not None and side.roster not in data.rosters:
            return
        try:
            positions.append(deployment(data, g, side))
        except ValueError as exc:
            if not side.placed:  # a placed set-up that lacks a model is reported by placed-force
                fail(("sides", i, "zone"), "zone-room", f"{side.role}: {exc}")
            return
    r = base_radius(data)
    seen: list[tuple[int, tuple[float, float]]] = []
    for i, side in enumerate(g.sides):
        for k, p in enumerate(positions[i]):
            hit = next(((j, q) for j, q in seen if math.dist(p, q) < 2 * r - 0.01), None)
            if hit is not None:
                where = ("sides", i, "placed", _placed_index(data, g, i, k)) if side.placed else ("sides", i, "zone")
                fail(where, "bases-apart", f"{side.role}'s model at ({p[0]:g}, {p[1]:g}) overlaps {g.sides[hit[0]].role}'s at ({hit[1][0]:g}, {hit[1][1]:g}): "
                     f"bases {2 * r:.2f} inches across stand {math.dist(p, hit[1]):.2f} apart")
                break
            seen.append((i, p))
    depths = {d.id: d.depth_in for d in data.rules.deployments if d.depth_in is not None}
    for p in dep.check(g, sc, positions, r, depths):
        where = p.where
        if p.model is not None and g.sides[where[1]].placed:
            # the model's own line: positions follow the force's order, each taking the first
            # unused placed entry of its kind (deployment.deployment), so find which one it took
            where = ("sides", where[1], "placed", _placed_index(data, g, where[1], p.model))
        fail(where, p.rule, p.message)


def _placed_index(data: RoninData, g: Game, i: int, m: int) -> int:
    """Index in ``g.sides[i].placed`` of the entry the ``m``-th model of the side's force stands on."""
    from pipeline.systems.ronin.deployment import force

    free = list(range(len(g.sides[i].placed)))
    for n, model in enumerate(force(data, g, g.sides[i])):
        k = next(k for k in free if g.sides[i].placed[k].model == model)
        free.remove(k)
        if n == m:
            return k
    return 0


def verify_game(data: RoninData, loaded: Loaded) -> list[RosterFinding]:
    """Findings (errors) of one game."""
    g: Game = loaded.value
    doc = loaded.doc
    out: list[RosterFinding] = []

    def fail(loc: tuple, rule: str, msg: str) -> None:
        out.append(RosterFinding(loaded.path, doc.line_of(loc), g.id, rule, msg, f"{RULES[rule].doc}, {RULES[rule].section}"))

    sc = data.scenarios.get(g.scenario)
    if sc is None:
        fail(("scenario",), "known-scenario", f"{g.scenario!r} is not a scenario ({', '.join(data.scenarios)})")
        return out
    if g.sides[0].side == g.sides[1].side:
        fail(("sides", 1, "side"), "distinct-sides", f"both sides are {g.sides[0].side}")
    for i, side in enumerate(g.sides):
        if side.role not in sc.roles:
            fail(("sides", i, "role"), "known-role", f"{side.role!r} is not a role of the {sc.name} scenario ({', '.join(sc.roles)})")
        elif i == 1 and side.role == g.sides[0].role:
            fail(("sides", 1, "role"), "known-role", f"both sides are {side.role!r}: the {sc.name} scenario has {', '.join(sc.roles)}")
        if not on_table(side.zone, g.table_side_in):
            fail(("sides", i, "zone"), "zone-on-table", f"{side.role}'s zone leaves the {g.table_side_in}-inch table")
    rosters: list[Roster | None] = []
    totals: list[int] = []
    for i, side in enumerate(g.sides):
        if side.side not in data.system.sides:
            fail(("sides", i, "side"), "distinct-sides", f"{side.side!r} is not a side colour of system.yaml ({', '.join(data.system.sides)})")
        if side.roster is None:
            rosters.append(None)
            totals.append(0)
            continue
        lr = data.rosters.get(side.roster)
        if lr is None:
            fail(("sides", i, "roster"), "known-roster", f"{side.roster!r} is not a roster of rosters/ ({', '.join(data.rosters)})")
            rosters.append(None)
            totals.append(0)
            continue
        rep = check_roster(data, lr)
        for f in rep.findings:
            out.append(RosterFinding(f.file, f.line, f"{g.id} ({side.role})", f.rule, f.message, f.source))
        rosters.append(lr.value)
        totals.append(rep.total)
    for i, tp in enumerate(g.terrain):
        if tp.kind not in data.terrain:
            fail(("terrain", i, "kind"), "known-terrain", f"{tp.name}: {tp.kind!r} is not a kind of terrain.yaml ({', '.join(data.terrain)})")
        if not on_table(tp.zone, g.table_side_in):
            fail(("terrain", i, "zone"), "terrain-on-table", f"{tp.name} leaves the {g.table_side_in}-inch table")
    for i, side in enumerate(g.sides):
        if side.placed and (side.roster is None or side.roster in data.rosters):
            _check_placed(data, g, i, side, fail)
    _check_deployment(data, g, sc, fail)
    f = sc.forces
    roles = [s.role for s in g.sides]
    limits = [r.points_limit if r else None for r in rosters]
    if f.kind == "equal":
        if None not in limits and limits[0] != limits[1]:
            fail(("sides",), "equal-points", f"{roles[0]} {limits[0]} points, {roles[1]} {limits[1]}: the {sc.name} scenario gives both sides equal points")
    elif f.kind == "attacker_double":
        try:
            ai, di = roles.index("Attacker"), roles.index("Defender")
        except ValueError:
            fail(("sides",), "attacker-double", f"the {sc.name} scenario needs an Attacker and a Defender (roles: {', '.join(roles)})")
        else:
            la, ld = limits[ai], limits[di]
            if la is not None and ld is not None and la != 2 * ld:
                fail(("sides", ai, "roster"), "attacker-double", f"Attacker {g.sides[ai].roster} has {la} points; the {sc.name} scenario gives the Attacker twice the Defender's {ld} ({2 * ld})")
    elif f.kind == "fixed":
        for i, side in enumerate(g.sides):
            if side.role == "Attacker":
                if dict(side.fixed) != dict(f.attacker_models):
                    fail(("sides", i, "fixed"), "fixed-force", f"Attacker fields {dict(side.fixed) or side.roster}; the {sc.name} scenario fixes {dict(f.attacker_models)}")
            elif limits[i] is not None and f.defender_points is not None and limits[i] != f.defender_points:
                fail(("sides", i, "roster"), "fixed-force", f"Defender {side.roster} has {limits[i]} points; the {sc.name} scenario gives the Defender {f.defender_points}")
    elif f.kind == "agreed" and None not in rosters:
        ranks = []
        for r in rosters:
            assert r is not None
            c: Counter = Counter()
            for e in r.models:
                found = data.model(r.faction, e.model)
                c[found[0].rank if found else "?"] += e.count
            ranks.append(c)
        if sum(ranks[0].values()) != sum(ranks[1].values()) or ranks[0] != ranks[1]:
            show = ["; ".join(f"Rank {k}: {v}" for k, v in sorted(c.items(), key=str)) for c in ranks]
            fail(("sides",), "agreed-models", f"{roles[0]} fields {show[0]}, {roles[1]} {show[1]}: the players agree on the number and ranks of the models")
    if f.civilians_per_points:
        pts = max((x for x in limits if x is not None), default=0)
        need = pts // f.civilians_per_points
        if g.civilians != need:
            fail(("civilians",), "civilians", f"{g.civilians} civilians for {pts} points; one per {f.civilians_per_points} points: {need}")
    if sc.table_side_in is not None:
        want = sc.table_side_in
        why = f"the {sc.name} scenario is played on a {want}-inch table"
    elif f.kind == "agreed":
        want, why = g.table_side_in, ""
    else:
        pts = max((x for x in limits if x is not None), default=0)
        want = recommended_table(data, pts)
        why = f"a {pts}-point game is played on a {want}-inch table"
    if g.table_side_in != want:
        fail(("table_side_in",), "table-size", f"a {g.table_side_in}-inch table; {why}")
    if g.table_side_in not in data.system.vassal.boards_inches:
        fail(("table_side_in",), "table-size", f"no {g.table_side_in}-inch board in system.yaml ({data.system.vassal.boards_inches})")
    return out


def verify_all(data: RoninData) -> list[RosterFinding]:
    """Findings of every game of the data folder (with the rosters it uses). Rosters no game
    uses are checked by ``gunbai roster check``: the book's 200-point sample is 3 points over
    its limit as costed from the model list, and says so there."""
    out: list[RosterFinding] = []
    for lg in data.games:
        out += verify_game(data, lg)
    return out


def classify(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """Split files given to ``gunbai verify`` into roster files and game files (a game names a
    ``scenario``)."""
    import yaml

    rosters, games = [], []
    for p in paths:
        try:
            head = yaml.safe_load(p.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            head = None
        (games if isinstance(head, dict) and "scenario" in head else rosters).append(p)
    return rosters, games
