"""Where a Ronin game's models start: laid out in their zones clear of terrain and markers, and
checked against the scenario's set-up rules (book, Scenarios p.59-66).

All lengths are inches on the table, ``(x, y)`` from its top-left corner. A model stands on a
round base of radius ``r`` (25 mm bases, p.5: ``system.yaml``'s ``vassal.base_mm``); distances to
models are measured from the edge of the base, as the book measures range ("from the edge of
one base to the edge of the target's", p.14; erratum ``deployment_measured_from_bases``):

- *within d of a point*: the whole base is, ``|p - c| + r <= d``;
- *at least d from a model*: edge to edge, ``|p - q| - 2r >= d``;
- *within d of a table edge*: the whole base is;
- *outside an area of radius R*: no part of the base is in it, ``|p - c| - r >= R``.

A scenario's rules are data (``deployment_rules`` of ``scenarios/*.yaml``, each citing its page);
the Edges and Corners options of p.59 (``deployment_options``, depths in ``rules.yaml``) are
checked too. :func:`check` returns the problems of one game; :func:`spots` lays out a side whose
game does not place its models.

Example::

    >>> from pipeline.systems.ronin.model import Zone
    >>> spots(Zone(kind="rect", x=0, y=0, w=6, h=2), 3, 24, r=0.5)
    [(1.5, 1.0), (3.0, 1.0), (4.5, 1.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.systems.ronin.data import HIRED, RoninData
from pipeline.systems.ronin.model import DeploymentRule, Game, Scenario, Zone
from pipeline.systems.ronin.roster import check_roster

#: Slack of every comparison, inches (positions are written with a few decimals).
EPS = 1e-6
#: Distances between neighbouring models tried in turn when a zone is laid out (inches).
STEPS = (1.5, 1.25, 1.0)
#: Room kept between a laid-out model's base and a terrain piece or marker (inches).
CLEARANCE = 0.25
#: Radius kept for the objective and civilian markers on the table (inches): they are drawn 0.8 of
#: a model counter across (`art.marker_job`), under 1 inch; 0.5 is kept, a little more.
MARKER_RADIUS = 0.5

Point = tuple[float, float]


@dataclass(frozen=True)
class Problem:
    """A set-up that breaks a rule: ``where`` is the location in the game file (keys and
    indexes, e.g. ``("sides", 1, "zone")``), ``rule`` a verify rule id, ``message`` what is wrong,
    ``model`` the index of the model it is about in its side's positions (None: the side or game)."""

    where: tuple
    rule: str
    message: str
    model: int | None = None


def zone_gap(z: Zone, p: Point) -> float:
    """Distance from ``p`` to the nearest point of zone ``z`` (0 inside it), inches."""
    if z.kind == "circle":
        return max(0.0, math.hypot(p[0] - z.x, p[1] - z.y) - z.r)
    dx = max(z.x - p[0], 0.0, p[0] - (z.x + z.w))
    dy = max(z.y - p[1], 0.0, p[1] - (z.y + z.h))
    return math.hypot(dx, dy)


def zones_gap(a: Zone, b: Zone) -> float:
    """Distance between the nearest points of two zones (0 when they touch or overlap), inches."""
    if a.kind == "circle" and b.kind == "circle":
        return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r)
    if a.kind == "circle":
        return max(0.0, zone_gap(b, (a.x, a.y)) - a.r)
    if b.kind == "circle":
        return max(0.0, zone_gap(a, (b.x, b.y)) - b.r)
    dx = max(a.x - (b.x + b.w), 0.0, b.x - (a.x + a.w))
    dy = max(a.y - (b.y + b.h), 0.0, b.y - (a.y + a.h))
    return math.hypot(dx, dy)


def base_inside(z: Zone, p: Point, r: float) -> bool:
    """Does a base of radius ``r`` at ``p`` lie wholly inside zone ``z``?"""
    if z.kind == "circle":
        return math.hypot(p[0] - z.x, p[1] - z.y) + r <= z.r + EPS
    return z.x + r - EPS <= p[0] <= z.x + z.w - r + EPS and z.y + r - EPS <= p[1] <= z.y + z.h - r + EPS


def nearest_point(z: Zone, p: Point) -> Point:
    """The point of zone ``z`` nearest ``p`` (``p`` itself when inside), inches."""
    if z.kind == "circle":
        d = math.hypot(p[0] - z.x, p[1] - z.y)
        if d <= z.r:
            return p
        return (z.x + (p[0] - z.x) * z.r / d, z.y + (p[1] - z.y) * z.r / d)
    return (min(max(p[0], z.x), z.x + z.w), min(max(p[1], z.y), z.y + z.h))


def duellist_spot(z: Zone, centre: Point, area: float, r: float) -> Point:
    """Where a side's duellist stands (Duel, p.61: "at some point on the edge of the duelling
    area"): his base inside the area of radius ``area`` round ``centre``, touching its edge, at
    the point of the edge nearest the side's zone ``z``, inches.

    >>> duellist_spot(Zone(kind="rect", x=7.5, y=0.5, w=9, h=5.5), (12, 12), 6, 0.5)
    (12.0, 6.5)
    """
    q = nearest_point(z, centre)
    dx, dy = q[0] - centre[0], q[1] - centre[1]
    d = math.hypot(dx, dy)
    if d == 0:
        dx, dy, d = 0.0, -1.0, 1.0
    return (centre[0] + dx / d * (area - r), centre[1] + dy / d * (area - r))


def _farthest_base(z: Zone, c: Point, r: float) -> float:
    """Distance from ``c`` to the farthest centre a base of radius ``r`` wholly inside zone ``z``
    may have, inches."""
    if z.kind == "circle":
        return math.hypot(z.x - c[0], z.y - c[1]) + max(0.0, z.r - r)
    xs = (z.x + r, z.x + z.w - r) if z.w > 2 * r else (z.x + z.w / 2,)
    ys = (z.y + r, z.y + z.h - r) if z.h > 2 * r else (z.y + z.h / 2,)
    return max(math.hypot(x - c[0], y - c[1]) for x in xs for y in ys)


def markers(g: Game) -> list[Point]:
    """Where a game's objective and civilian markers stand (the civilians in a row 2 inches
    below the objective, or the table's centre, 1.5 inches apart), inches."""
    out: list[Point] = []
    if g.objective is not None:
        out.append(g.objective)
    if g.civilians:
        ox, oy = g.objective or (g.table_side_in / 2, g.table_side_in / 2)
        out += [(ox - 1.5 * (g.civilians - 1) / 2 + 1.5 * k, oy + 2) for k in range(g.civilians)]
    return out


def spots(z: Zone, n: int, table: float, *, r: float, terrain: Sequence[Zone] = (), avoid: Sequence[Point] = ()) -> list[Point]:
    """``n`` positions for models of base radius ``r`` inside zone ``z`` of a ``table``-inch
    table: on a grid 1.5 inches apart (1.25, then 1 inch when the zone is too small), the whole
    base inside the zone and on the table, and kept :data:`CLEARANCE` clear of the ``terrain``
    zones and of the markers at ``avoid``; the rows nearest the zone's middle first, each row
    centred; returned row by row, top to bottom, left to right (the side's models take them in
    roster order).

    Raises:
        ValueError: the zone cannot hold ``n`` such models even 1 inch apart.
    """
    cx, cy = (z.x, z.y) if z.kind == "circle" else (z.x + z.w / 2, z.y + z.h / 2)
    half_w, half_h = (z.r, z.r) if z.kind == "circle" else (z.w / 2, z.h / 2)
    if n == 0:
        return []

    def free(p: Point) -> bool:
        return (base_inside(z, p, r) and r - EPS <= p[0] <= table - r + EPS and r - EPS <= p[1] <= table - r + EPS
                and all(zone_gap(t, p) >= r + CLEARANCE for t in terrain)
                and all(math.hypot(p[0] - a[0], p[1] - a[1]) >= r + MARKER_RADIUS + CLEARANCE for a in avoid))

    for step in STEPS:
        best: list[Point] = []
        best_cost: tuple[float, float, float] = (math.inf, math.inf, math.inf)
        # the grid is centred on the zone, or offset by half a step (an even count of columns or
        # rows straddles the middle): one of these four lattices is used
        for ox, oy in ((0.0, 0.0), (step / 2, 0.0), (0.0, step / 2), (step / 2, step / 2)):
            cols, rows = int(half_w // step) + 1, int(half_h // step) + 1
            cands = []
            for j in range(-rows, rows + 1):
                for i in range(-cols, cols + 1):
                    p = (round(cx + ox + i * step, 6), round(cy + oy + j * step, 6))
                    if free(p):
                        # rows nearest the middle first (the upper of two as near), each row
                        # filled from its middle outwards
                        cands.append((abs(p[1] - cy), p[1], abs(p[0] - cx), p[0], p))
            if len(cands) < n:
                continue
            cands.sort()
            chosen = cands[:n]
            # fewest rows, then nearest the middle, then most evenly balanced about it
            cost = (len({c[1] for c in chosen}), round(sum(c[0] + c[2] for c in chosen), 6),
                    round(abs(sum(c[3] - cx for c in chosen)) + abs(sum(c[1] - cy for c in chosen)), 6))
            if cost < best_cost:
                best, best_cost = [c[4] for c in chosen], cost
        if best:
            return sorted(best, key=lambda p: (p[1], p[0]))
    raise ValueError(f"a {_describe(z)} zone holds fewer than {n} models 1 inch apart clear of terrain and markers")


def _describe(z: Zone) -> str:
    return f"{z.r:g}-inch circle" if z.kind == "circle" else f"{z.w:g} x {z.h:g}-inch"


# ---------------------------------------------------------------------------------------------
# checks


def _point_of(rule: DeploymentRule, g: Game) -> Point | None:
    t = g.table_side_in
    if rule.of == "centre":
        return (t / 2, t / 2)
    if rule.of == "objective":
        return g.objective
    return None


def _objective_piece(g: Game) -> int | None:
    """Index of the terrain piece that is the objective (marked ``objective``, else the piece
    under the game's objective)."""
    for i, tp in enumerate(g.terrain):
        if tp.objective:
            return i
    if g.objective is not None:
        for i, tp in enumerate(g.terrain):
            if zone_gap(tp.zone, g.objective) == 0:
                return i
    return None


def check(g: Game, sc: Scenario, positions: Sequence[Sequence[Point]], r: float, options: dict[str, float]) -> list[Problem]:
    """Problems of game ``g``'s set-up under its scenario ``sc``: ``positions[i]`` are where side
    ``i``'s models start (inches), ``r`` the base radius, ``options`` the depth in inches of
    each deployment option of ``rules.yaml`` (``edges``: 2, ``corners``: 6).

    Checks every rule of ``sc.deployment_rules`` and, when the scenario lists
    ``deployment_options``, that the two sides stand as one of them says (within the depth of
    one table edge and of the opposite one; or of one corner and the opposite one).
    """
    out: list[Problem] = []
    roles = [s.role for s in g.sides]
    t = g.table_side_in
    for rule in sc.deployment_rules:
        cite = f"({rule.source.section})"
        sides = [i for i, role in enumerate(roles) if rule.who in (None, role)]
        if rule.kind in ("within", "outside"):
            c = _point_of(rule, g)
            if c is None:
                out.append(Problem(("objective",), "deploy-" + rule.kind, f"the {sc.name} scenario measures from the objective {cite}; the game places none"))
                continue
            for i in sides:
                z = g.sides[i].zone
                # the zone the module draws for the players obeys the rule too
                far = _farthest(z, c)
                if rule.kind == "within" and far > rule.inches + EPS:
                    out.append(Problem(("sides", i, "zone"), "deploy-within",
                                       f"{roles[i]}'s zone reaches {far:.2f} inches from the {rule.of}; the {sc.name} scenario deploys it within {rule.inches:g} {cite}"))
                    continue  # the zone says it: its models are not listed too
                if rule.kind == "outside" and zone_gap(z, c) < rule.inches - EPS:
                    out.append(Problem(("sides", i, "zone"), "deploy-outside",
                                       f"{roles[i]}'s zone comes {zone_gap(z, c):.2f} inches from the {rule.of}; the {sc.name} scenario keeps it {rule.inches:g} inches away {cite}"))
                    continue
                for m, p in enumerate(positions[i]):
                    d = math.hypot(p[0] - c[0], p[1] - c[1])
                    if rule.kind == "within" and d + r > rule.inches + EPS:
                        out.append(Problem(("sides", i, "zone"), "deploy-within",
                                           f"{roles[i]}'s model at ({p[0]:g}, {p[1]:g}) reaches {d + r:.2f} inches from the {rule.of}; "
                                           f"the {sc.name} scenario deploys it within {rule.inches:g} {cite}", m))
                        break
                    if rule.kind == "outside" and d - r < rule.inches - EPS:
                        out.append(Problem(("sides", i, "zone"), "deploy-outside",
                                           f"{roles[i]}'s model at ({p[0]:g}, {p[1]:g}) comes {max(0.0, d - r):.2f} inches from the {rule.of}; "
                                           f"the {sc.name} scenario keeps it {rule.inches:g} inches away {cite}", m))
                        break
        elif rule.kind == "apart":
            others = [i for i, role in enumerate(roles) if role == rule.apart_from]
            for i in sides:
                # the zone the module draws obeys the rule too: no base in it comes nearer
                gap, q = min(((zone_gap(g.sides[i].zone, q) - r, q) for j in others for q in positions[j]), default=(math.inf, None))
                if q is not None and gap < rule.inches - EPS:
                    out.append(Problem(("sides", i, "zone"), "deploy-apart",
                                       f"{roles[i]}'s zone comes {max(0.0, gap):.2f} inches from {rule.apart_from}'s model at ({q[0]:g}, {q[1]:g}), base edge to base edge; "
                                       f"the {sc.name} scenario keeps them at least {rule.inches:g} apart {cite}"))
                    continue
                gap, m, p, q = min(((math.hypot(p[0] - q[0], p[1] - q[1]) - 2 * r, m, p, q) for j in others for m, p in enumerate(positions[i]) for q in positions[j]),
                                   default=(math.inf, None, None, None))
                if p is not None and q is not None and gap < rule.inches - EPS:
                    out.append(Problem(("sides", i, "zone"), "deploy-apart",
                                       f"{roles[i]}'s model at ({p[0]:g}, {p[1]:g}) is {max(0.0, gap):.2f} inches from {rule.apart_from}'s at ({q[0]:g}, {q[1]:g}); "
                                       f"the {sc.name} scenario keeps them at least {rule.inches:g} apart {cite}", m))
        elif rule.kind == "edge":
            for i in sides:
                depth = _edge_depth(g.sides[i].zone, t)
                if depth > rule.inches + EPS:
                    out.append(Problem(("sides", i, "zone"), "deploy-edge",
                                       f"{roles[i]}'s zone reaches {depth:.2f} inches in from its nearest table edge; "
                                       f"the {sc.name} scenario deploys it within {rule.inches:g} of an edge {cite}"))
                    continue
                for m, p in enumerate(positions[i]):
                    d = min(p[0], p[1], t - p[0], t - p[1]) + r
                    if d > rule.inches + EPS:
                        out.append(Problem(("sides", i, "zone"), "deploy-edge",
                                           f"{roles[i]}'s model at ({p[0]:g}, {p[1]:g}) reaches {d:.2f} inches from the nearest table edge; "
                                           f"the {sc.name} scenario deploys it within {rule.inches:g} of an edge {cite}", m))
                        break
        elif rule.kind == "clear":
            piece = _objective_piece(g) if rule.of == "objective_piece" else None
            if rule.of == "objective_piece" and piece is None:
                out.append(Problem(("terrain",), "terrain-clear", f"the {sc.name} scenario keeps terrain away from the objective's piece {cite}; the game has none"))
                continue
            c = _point_of(rule, g)
            for j, tp in enumerate(g.terrain):
                if j == piece:
                    continue
                if piece is not None:
                    gap = zones_gap(tp.zone, g.terrain[piece].zone)
                    what = g.terrain[piece].name
                elif c is not None:
                    gap, what = zone_gap(tp.zone, c), f"the {rule.of}"
                else:
                    out.append(Problem(("objective",), "terrain-clear", f"the {sc.name} scenario measures from the objective {cite}; the game places none"))
                    break
                if gap < rule.inches - EPS:
                    out.append(Problem(("terrain", j, "zone"), "terrain-clear",
                                       f"{tp.name} comes {gap:.2f} inches from {what}; the {sc.name} scenario keeps all other terrain {rule.inches:g} inches away {cite}"))
        elif rule.kind == "near_duellist":
            c = _point_of(rule, g)
            if c is None or rule.area_in is None:
                out.append(Problem(("objective",), "deploy-near", f"the {sc.name} scenario measures from the objective {cite}; the game places none"))
                continue
            for i in sides:
                z = g.sides[i].zone
                spot = duellist_spot(z, c, rule.area_in, r)
                where = f"its duellist's place on the edge of the duelling area ({spot[0]:.2f}, {spot[1]:.2f})"
                far = _farthest_base(z, spot, r) - 2 * r
                if far > rule.inches + EPS:
                    out.append(Problem(("sides", i, "zone"), "deploy-near",
                                       f"{roles[i]}'s zone reaches {far:.2f} inches, base edge to base edge, from {where}; "
                                       f"the {sc.name} scenario deploys the rest of the Buntai within {rule.inches:g} of the duellist {cite}"))
                    continue
                for m, p in enumerate(positions[i]):
                    d = math.hypot(p[0] - spot[0], p[1] - spot[1]) - 2 * r
                    if d > rule.inches + EPS:
                        out.append(Problem(("sides", i, "zone"), "deploy-near",
                                           f"{roles[i]}'s model at ({p[0]:g}, {p[1]:g}) is {d:.2f} inches, base edge to base edge, from {where}; "
                                           f"the {sc.name} scenario deploys the rest of the Buntai within {rule.inches:g} of the duellist {cite}", m))
                        break
        elif rule.kind == "centred":
            if g.objective is None or math.hypot(g.objective[0] - t / 2, g.objective[1] - t / 2) > EPS:
                out.append(Problem(("objective",), "objective-centred",
                                   f"the objective is at {g.objective or 'no place'}; the {sc.name} scenario places it in the centre ({t / 2:g}, {t / 2:g}) {cite}"))
            # the objective's piece (Defence) stands under the objective (checked above to be
            # in the centre): one finding when only the objective is off-centre
            piece = next((j for j, tp in enumerate(g.terrain) if tp.objective), None)
            at = g.objective or (t / 2, t / 2)
            if piece is not None and zone_gap(g.terrain[piece].zone, at) > EPS:
                out.append(Problem(("terrain", piece, "zone"), "objective-centred",
                                   f"{g.terrain[piece].name}, the objective's piece, does not cover the objective ({at[0]:g}, {at[1]:g}) "
                                   f"(it is {zone_gap(g.terrain[piece].zone, at):.2f} inches away); the {sc.name} scenario places it in the centre {cite}"))
    if sc.deployment_options and len(positions) == 2 and all(positions):
        if not any(_by_option(opt, options.get(opt), positions, r, t) for opt in sc.deployment_options):
            names = " or ".join(f"{o} ({options[o]:g} inches)" if o in options else o for o in sc.deployment_options)
            out.append(Problem(("sides",), "deployment-option",
                               f"{roles[0]} and {roles[1]} do not stand as {names} deployment puts them: each within the depth of one "
                               f"table edge (corner) and the other of the opposite one (the {sc.name} scenario; Deployment Rules, p.59)"))
    return out


def _farthest(z: Zone, c: Point) -> float:
    """Distance from ``c`` to the farthest point of zone ``z``, inches."""
    if z.kind == "circle":
        return math.hypot(z.x - c[0], z.y - c[1]) + z.r
    return max(math.hypot(x - c[0], y - c[1]) for x in (z.x, z.x + z.w) for y in (z.y, z.y + z.h))


def _edge_depth(z: Zone, t: float) -> float:
    """How far zone ``z`` reaches in from the table edge it lies along (the edge that gives the
    smallest such depth), inches: a 24 x 3 band on the north edge of a table reaches 3."""
    if z.kind == "circle":
        x0, y0, x1, y1 = z.x - z.r, z.y - z.r, z.x + z.r, z.y + z.r
    else:
        x0, y0, x1, y1 = z.x, z.y, z.x + z.w, z.y + z.h
    return min(y1, t - y0, x1, t - x0)


def _by_option(option: str, depth: float | None, positions: Sequence[Sequence[Point]], r: float, t: float) -> bool:
    """Do the two sides stand as deployment ``option`` (``edges``/``corners``) with ``depth``
    inches puts them: every model of a side wholly within the depth of one edge (corner), the
    other side's of the opposite one?"""
    if depth is None:
        return False
    if option == "edges":
        def near(p: Point, k: int) -> float:
            return (p[1], t - p[0], t - p[1], p[0])[k] + r
    elif option == "corners":
        corners = ((0.0, 0.0), (t, 0.0), (t, t), (0.0, t))

        def near(p: Point, k: int) -> float:
            return math.hypot(p[0] - corners[k][0], p[1] - corners[k][1]) + r
    else:
        return False
    fits = [{k for k in range(4) if all(near(p, k) <= depth + EPS for p in side)} for side in positions]
    return any((k + 2) % 4 in fits[1] for k in fits[0])


def force(data: RoninData, g: Game, side) -> list[str]:
    """The models a side fields, as ``<faction>:<model id>`` in roster order (hired models
    ``hired:<id>``), then the scenario's fixed force (``<scenario>:<id>``)."""
    out = []
    if side.roster is not None:
        lr = data.rosters[side.roster]
        for m in check_roster(data, lr).models:
            out.append(f"{HIRED if m.hired else lr.value.faction}:{m.model.id}")
    for mid, n in side.fixed.items():
        out += [f"{g.scenario}:{mid}"] * n
    return out


def base_radius(data: RoninData) -> float:
    """Radius of a model's round base in inches (``vassal.base_mm`` of system.yaml; 25 mm, p.5)."""
    return data.system.vassal.base_mm / 25.4 / 2


def keep_off(g: Game) -> list[Zone]:
    """What a laid-out set-up keeps its models off, inches: the game's terrain pieces and the
    board's compass rose and scale bar (:func:`pipeline.measured.layout.decoration_boxes` of the
    bare table the module's board is drawn from, :func:`pipeline.systems.ronin.art.table_context`)."""
    from pipeline.measured.layout import decoration_boxes

    t = g.table_side_in
    boxes = [Zone(kind="rect", x=x0, y=y0, w=x1 - x0, h=y1 - y0) for x0, y0, x1, y1 in decoration_boxes(t, t)]
    return [tp.zone for tp in g.terrain] + boxes


def deployment(data: RoninData, g: Game, side) -> list[tuple[float, float]]:
    """Where each model of :func:`force` (in that order) starts, in inches: the game's
    ``placed`` positions when it lists them (each model takes the first unused position of a
    model of its kind), else :func:`spots` in its zone, clear
    of the game's terrain pieces, the board's compass and scale bar (:func:`keep_off`), its
    objective and civilian markers and the models of the sides listed before it.

    Raises:
        ValueError: a placed set-up lacks a model of the force, or the zone cannot hold the force.
    """
    models = force(data, g, side)
    if not side.placed:
        # the sides set up in the game's order: a side's models also keep off those set up before
        before = [p for other in g.sides[:g.sides.index(side)] for p in deployment(data, g, other)]
        return spots(side.zone, len(models), g.table_side_in, r=base_radius(data), terrain=keep_off(g), avoid=markers(g) + before)
    free = list(side.placed)
    out = []
    for m in models:
        i = next((k for k, pm in enumerate(free) if pm.model == m), None)
        if i is None:
            raise ValueError(f"game {g.id}: {side.role} places no {m} (verify rule placed-force)")
        pm = free.pop(i)
        out.append((pm.x, pm.y))
    return out
