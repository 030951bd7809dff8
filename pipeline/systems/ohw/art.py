"""What the OHW Samurai module draws: each scenario's table as a battlefield, a counter per unit
type, army and General, the turn marker and the reference cards, as render jobs of the shared
measured-table templates (:mod:`pipeline.measured.art`, :mod:`pipeline.render.cards`).

Sizes: the table and the counters are drawn at ``vassal.px_per_inch`` of ``system.yaml``, so a
4" base is 4 inches of table in VASSAL and the range thread measures true distances.
"""

from __future__ import annotations

from typing import Any

from pipeline.measured.art import (
    KINDS,
    ArtError,
    Box,
    CounterSpec,
    Scenery,
    Zone,
    battlefield_context,
    counter_job,
    marker_job,
    piece_box,
    table_job,
)
from pipeline.render.cache import RenderJob
from pipeline.render.cards import Card, Notes, Steps, Table, paged
from pipeline.systems.ohw.data import OhwData
from pipeline.systems.ohw.model import Scenario, UnitType

#: Colour of objectives on the table.
OBJECTIVE = "#b8860b"
#: Swatch colours of the terrain chart (the table's own colours for each scenery kind).
SWATCH = {"woods": "#477834", "town": "#8d7456", "village": "#8d7456", "marsh": "#98ab82", "lake": "#6f9fc0", "river": "#86b7d6",
          "stream": "#86b7d6", "ford": "#a9d0e4", "bridge": "#9a7a52", "road": "#dcc79e", "hill": "#cdbd8a", "fields": "#cfd08e"}


def unit_image(unit_id: str, army: str, general: bool = False) -> str:
    """Image name of a unit counter: ``unit_<type>[_general]_<army>.png``."""
    return f"unit_{unit_id}{'_general' if general else ''}_{army}.png"


def table_image(scenario_id: str) -> str:
    return f"table_{scenario_id}.png"


def short_name(u: UnitType) -> str:
    """The unit type's name without its bracketed gloss (``Mounted Samurai (Skirmishers)`` →
    ``Mounted Samurai``)."""
    return u.name.split(" (")[0]


def counter_spec(data: OhwData, u: UnitType, army: str, general: bool) -> CounterSpec:
    """The counter of unit type ``u`` of ``army`` (with the General when ``general``)."""
    col = data.system.armies[army]
    sub = " · ".join(p for p in (u.kanji or "", f'move {u.move.inches:g}"', "General" if general else "") if p)
    return CounterSpec(u.base.width, u.base.depth, short_name(u), col.fill, col.text, u.symbol or "sword", sub=sub, leader="commander" if general else "")


def scenery_kind(data: OhwData, terrain_id: str) -> str:
    """How a terrain type is drawn: its ``draw`` field, else its id.

    Raises:
        ArtError: neither is a scenery kind.
    """
    t = data.terrain[terrain_id]
    kind = t.draw or t.id
    if kind not in KINDS:
        raise ArtError(f"terrain {t.id!r}: no drawing for it; give it draw: one of {', '.join(KINDS)} in terrain.yaml")
    return kind


#: Where the setups put the turn marker (inches) and its size (40 px at 32 px per inch).
TURN_MARKER_AT = (1.5, 1.5)
TURN_MARKER_INCHES = 1.25


def piece_boxes(data: OhwData, sc: Scenario) -> list[Box]:
    """The boxes every piece of ``sc``'s setup covers on its table (each unit's base at its
    place and facing, the turn marker): what the table's labels keep off."""
    m = TURN_MARKER_INCHES / 2
    out = [(TURN_MARKER_AT[0] - m, TURN_MARKER_AT[1] - m, TURN_MARKER_AT[0] + m, TURN_MARKER_AT[1] + m)]
    for up in sc.units:
        b = data.units[up.unit].base
        out.append(piece_box(up.x, up.y, b.width, b.depth, up.facing))
    return out


def table_context(data: OhwData, sc: Scenario, label_min: float = 0.0) -> dict[str, Any]:
    """The battlefield of scenario ``sc``: its terrain, deployment areas (each side's colour,
    with the turn it arrives) and objectives, every label off the pieces of its setup
    (:func:`piece_boxes`; each scenario has a table of its own); ``label_min``: the least label
    size in inches (a print sheet's floor)."""
    feats = []
    for tp in sc.terrain:
        a = tp.area
        kind = scenery_kind(data, tp.terrain)
        name = tp.name if kind in ("road", "river", "stream", "ford", "bridge") else tp.name or data.terrain[tp.terrain].name
        feats.append(Scenery(kind, name=name, area=(a.x, a.y, a.w, a.h)))
    sides = {s.id: s for s in sc.sides}
    zones = []
    for d in sc.deployments:
        side = sides[d.side]
        when = "set up" if d.arrives == 1 else f"arrives turn {d.arrives}"
        zones.append(Zone((d.area.x, d.area.y, d.area.w, d.area.h), data.system.armies[side.army].fill, f"{side.name}: {d.id.replace('_', ' ')} ({when})"))
    for o in sc.objectives:
        if o.area is not None:
            zones.append(Zone((o.area.x, o.area.y, o.area.w, o.area.h), OBJECTIVE, f"Objective: {o.id.replace('_', ' ')}", "objective"))
    t = data.system.table
    return battlefield_context(t.width, t.depth, feats, zones, title=f"{sc.code} {sc.name}", seed=sc.id, pieces=piece_boxes(data, sc), label_min=label_min)


def image_jobs(data: OhwData) -> dict[str, RenderJob]:
    """Render jobs of every image of the module (tables, unit counters, turn marker), by name."""
    ppi = data.system.vassal.px_per_inch
    out: dict[str, RenderJob] = {}
    for army in data.system.armies:
        for u in data.units.values():
            for general in (False, True):
                if general and not u.can_carry_general:
                    continue
                out[unit_image(u.id, army, general)] = counter_job(counter_spec(data, u, army, general), ppi)
    out["turn_marker.png"] = marker_job("Turn", "#333333", 40)
    for loaded in data.scenarios:
        sc = loaded.model
        out[table_image(sc.id)] = table_job(table_context(data, sc), ppi)
    return out


# ---------------------------------------------------------------------------------------------
# cards


def _srcs(*docs: str) -> str:
    return "Sources: " + ", ".join(dict.fromkeys(docs))


def card_specs(data: OhwData) -> dict[str, Card]:
    """The reference cards, by image name: sequence and orders, unit types, terrain and
    defences, errata."""
    s = data.system
    o = s.orders
    g = s.general
    seq = Card("Turn sequence", [
        Steps("Each player turn", ["Movement: roll orders, then move, turn and charge", "Shooting: Ashigaru and Skirmishers", "Hand-to-hand combat: the phasing side inflicts hits", f"Eliminating units: {s.elimination.hits} hits or more"], step_h=44),
        Table("Orders (a D6 per unit)", [("Unit", 0.42), ("Full move on", 0.29), ("Else", 0.29)], [
            [f"fewer than {o.damaged_at_hits} hits", f"{o.full_move_on}+", f'{o.reduced_by_inches:g}" less'],
            [f"{o.damaged_at_hits} hits or more", f"{o.damaged_full_move_on}+", f'{o.reduced_by_inches:g}" less']], row_h=40),
        Notes("Moving", [
            "Turn by pivoting on the centre, at the start and/or the end of the move.",
            f"Charge: one turn of at most {s.charge.max_turn_degrees:g}° at the start; one attacker per face (front, flanks, rear).",
            "Only Skirmishers pass through units, and units through them.",
            f'Road: +{s.road.bonus_inches:g}" for a move wholly on the road, not when charging.'], h=0),
        Notes("General (Daimyo)", [
            f"Attached to a {short_name(data.units[g.attached_to])} unit for the whole game, removed with it.",
            "May re-roll any die roll of his side once; the re-roll stands (erratum general_reroll)." if g.reroll == "own_side"
            else "May re-roll his own unit's dice once; the re-roll stands (erratum general_reroll)."], h=110),
    ], subtitle=f"{s.turns.limit} turns", kanji="手順", footer=_srcs(s.sequence.source.doc, o.source.doc, g.source.doc))
    rows = []
    for u in data.units.values():
        shoot = f'{u.shooting.range_inches:g}", D6{u.shooting.modifier:+d}' if u.shooting else "—"
        melee = f"D6{u.melee.modifier:+d}" + (" · half if attacked frontally" if u.melee.halved_if_attacked_frontally else "")
        rows.append([{"text": short_name(u) + (f"\n{u.kanji}" if u.kanji else ""), "symbol": u.symbol or "sword", "bold": True}, f'{u.move.inches:g}"', shoot, melee, f'{u.base.width:g}×{u.base.depth:g}"'])
    units = Card("Unit types", [
        Table("", [("Type", 0.33), ("Move", 0.12), ("Shoot", 0.18), ("Hand-to-hand", 0.24), ("Base", 0.13)], rows, row_h=66),
        Notes("Shooting", [f"One target within {s.shooting.arc_half_angle_degrees:g}° of the front. Hits = the score.",
                           "Cover (a town, or tate): half hits, rounded for the shooter."], h=120),
        Notes("Hand-to-hand", ["Only the phasing side inflicts hits: D6 + modifier.",
                               "Half hits (rounded for the attacker) to Ashigaru attacked frontally, defenders in a town, at a river crossing, behind a bamboo palisade, or on a hill against an attacker not on it.",
                               f"Flank or rear attacks: ×{s.hand_to_hand.flank_rear_multiplier} hits. A unit may turn to face a flank or rear attack unless engaged in front, or retire a full move."], h=0),
    ], subtitle=f"Eliminated at {s.elimination.hits} hits", kanji="兵種", footer=_srcs(*(u.move.source.doc for u in data.units.values()), s.shooting.source.doc, s.hand_to_hand.source.doc))
    trows = []
    for t in data.terrain.values():
        kind = t.draw or t.id
        move = "impassable" if not t.passable else ("crossing" if t.crossing else (f'+{s.road.bonus_inches:g}" on road' if t.road else "open"))
        trows.append([{"text": t.name, "swatch": SWATCH.get(kind, "#cccccc"), "bold": True}, move, "blocks" if t.blocks_sight else "—",
                      "half hits" if t.shooting_cover else "—",
                      ("half hits from attackers off it" if t.melee_halved_only_against_attackers_off_it else "half hits") if t.melee_halved else "—"])
    for d in data.defences.values():
        trows.append([{"text": d.name, "swatch": "#a0785a", "bold": True}, "removed if the unit moves", "—",
                      "half hits" if d.halves == "shooting" else "—", "half hits" if d.halves == "hand_to_hand" else "—"])
    terrain = Card("Terrain and defences", [
        Table("", [("Terrain", 0.3), ("Movement", 0.22), ("Sight", 0.13), ("Shot at", 0.16), ("Defending", 0.19)], trows, row_h=50),
    ], subtitle="Effects on the unit in or behind it", kanji="地形", footer=_srcs(*(t.source.doc for t in data.terrain.values())))
    errata = Card("Readings chosen", [Notes("", [f"{e.topic} — {e.readings[e.chosen]}" for e in data.sources.errata], h=0, size=15)],
                  subtitle="Where the rules text is ambiguous", kanji="正誤", footer="Every erratum lists both readings and its sources in source_data/ohw/sources.yaml")
    return paged({"card_sequence_orders.png": seq, "card_units_combat.png": units, "card_terrain_defences.png": terrain, "card_errata.png": errata})


def card_jobs(data: OhwData, scale: float = 1.0) -> dict[str, RenderJob]:
    """Render jobs of the reference cards at ``scale`` (1 = 600 × 840 px)."""
    return {n: c.job(scale) for n, c in card_specs(data).items()}
