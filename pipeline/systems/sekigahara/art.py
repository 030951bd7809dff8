"""What the Sekigahara module draws: the field of Sekigahara with its hills, roads, streams and
village, a counter per contingent (its stands to scale, troop symbol, name, facing, leader and
mon), the turn marker and the reference cards (sequence, units and melee, the treachery roll as
a die table), as render jobs of the shared templates (:mod:`pipeline.measured.art`,
:mod:`pipeline.render.cards`).
"""

from __future__ import annotations

from typing import Any

from pipeline.data.common import Source
from pipeline.measured.art import (
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
from pipeline.render.cards import Bars, Card, Dice, Notes, Steps, Table, paged
from pipeline.systems.sekigahara.data import UNDECIDED, SekiData
from pipeline.systems.sekigahara.model import Scenario, UnitPlacement

#: Colours of the treachery outcomes on the cards (the armies' own colours).
UNDECIDED_COLOUR = "#8a8a8a"


def unit_image(unit_id: str) -> str:
    return f"unit_{unit_id}.png"


def table_image(scenario_id: str) -> str:
    return f"table_{scenario_id}.png"


def armies_of(sc: Scenario) -> dict[str, str]:
    """Side id → army id, with the undecided contingent's own colours."""
    return {s.id: s.army for s in sc.sides} | {UNDECIDED: UNDECIDED}


def counter_spec(data: SekiData, sc: Scenario, up: UnitPlacement) -> CounterSpec:
    """The counter of a contingent: its stands as one base, its name whole, troop symbol,
    leader (a commander's fan doubled) and mon."""
    col = data.system.armies[armies_of(sc)[up.side]]
    st = data.system.stand
    leader = "" if up.leader is None else ("commander" if up.leader.commander else "leader")
    mon = {"design": up.mon.design, "text": up.mon.text} if up.mon else None
    return CounterSpec(up.stands * st.width, st.depth, up.name, col.fill, col.text, data.units[up.unit].symbol or "sword",
                       stands=up.stands, leader=leader, mon=mon)


#: Where the setup puts the turn marker (inches) and its size (40 px at 32 px per inch).
TURN_MARKER_AT = (2.0, 2.0)
TURN_MARKER_INCHES = 1.25


def piece_boxes(data: SekiData, sc: Scenario) -> list[Box]:
    """The boxes every piece of ``sc``'s setup covers on the field (each contingent's stands at
    its place and facing, the turn marker): what the field's labels keep off."""
    m = TURN_MARKER_INCHES / 2
    st = data.system.stand
    return [(TURN_MARKER_AT[0] - m, TURN_MARKER_AT[1] - m, TURN_MARKER_AT[0] + m, TURN_MARKER_AT[1] + m)] + \
        [piece_box(up.x, up.y, up.stands * st.width, st.depth, up.facing) for up in sc.units]


def table_context(data: SekiData, sc: Scenario, label_min: float = 0.0) -> dict[str, Any]:
    """The field of ``sc``: every terrain feature and the deployment areas in each army's colour,
    every label off the pieces of its setup (:func:`piece_boxes`); ``label_min``: the least
    label size in inches (a print sheet's floor)."""
    feats = []
    for tp in sc.terrain:
        area = (tp.area.x, tp.area.y, tp.area.w, tp.area.h) if tp.area else None
        path = tuple(tuple(p) for p in tp.path) if tp.path else None
        feats.append(Scenery(tp.terrain, name=tp.name, area=area, path=path, width=tp.width, label_at=tuple(tp.label_at) if tp.label_at else None))  # type: ignore[arg-type]
    names = {s.id: s.name for s in sc.sides} | {UNDECIDED: f"{sc.undecided.leader} (undecided)"}
    armies = armies_of(sc)
    zones = [Zone((d.area.x, d.area.y, d.area.w, d.area.h), data.system.armies[armies[d.side]].fill, f"{names[d.side]}: {d.id.replace('_', ' ')}") for d in sc.deployments]
    t = data.system.table
    return battlefield_context(t.width, t.depth, feats, zones, title=f"{sc.name}", seed=sc.id, compass=(t.width - 2.6, 3.2), scale_bar=(42.5, t.depth - 1.6),
                               pieces=piece_boxes(data, sc), label_min=label_min)


def image_jobs(data: SekiData) -> dict[str, RenderJob]:
    """Render jobs of every image of the module (the field, every contingent, the turn marker)."""
    ppi = data.system.vassal.px_per_inch
    out: dict[str, RenderJob] = {}
    for loaded in data.scenarios:
        sc = loaded.model
        for up in sc.units:
            out[unit_image(up.id)] = counter_job(counter_spec(data, sc, up), ppi)
        out[table_image(sc.id)] = table_job(table_context(data, sc), ppi)
    out["turn_marker.png"] = marker_job("Turn", "#333333", 40)
    return out


# ---------------------------------------------------------------------------------------------
# cards


def treachery_card(data: SekiData) -> Card:
    """Kobayakawa's treachery roll as a designed table: per turn, what each face of the D6 does
    (the reading chosen by erratum ``treachery_table_columns``), and the chance he has joined
    each side by the end of turns 1-6."""
    from pipeline.systems.sekigahara.odds import treachery_by_turn

    tr = data.system.treachery
    east, west = data.system.armies["east"].fill, data.system.armies["west"].fill
    rows = tr.rows()
    dice_rows = []
    for i, r in enumerate(rows):
        label = f"Turn {r.turn}{'+' if i == len(rows) - 1 else ''}"
        if not r.east and not r.west and r.turn == 1:
            dice_rows.append((label, [("no roll", UNDECIDED_COLOUR)] + [("", UNDECIDED_COLOUR)] * 5))
            continue
        dice_rows.append((label, [("East", east) if f in r.east else ("West", west) if f in r.west else ("—", UNDECIDED_COLOUR) for f in range(1, 7)]))
    bars = []
    for t in treachery_by_turn(rows, 6):
        e, w, u = float(t["east_by_end"]), float(t["west_by_end"]), float(t["undecided_after"])
        bars.append((f"by turn {t['turn']}", [(e, east, f"{e:.0%}"), (u, UNDECIDED_COLOUR, f"{u:.0%}"), (w, west, f"{w:.0%}")]))
    other = [e for e in data.sources.errata if e.id == "treachery_table_columns"]
    note = [f"Erratum: {other[0].topic.lower()}. Reading used: {other[0].readings[other[0].chosen]}"] if other else []
    return Card("Kobayakawa's treachery", [
        Dice("At the start of each turn roll a D6", dice_rows, legend=[("joins the East", east), ("still undecided", UNDECIDED_COLOUR), ("joins the West", west)], row_h=40),
        Bars("Chance he has decided, by the end of a turn", bars, row_h=28),
        Notes("", ["Once he joins a side he fights for it to the end; no more rolls.", *note], h=0, size=14),
    ], subtitle=f"{data.scenarios[0].model.undecided.leader if data.scenarios else 'The undecided contingent'} on Mt Matsuo", kanji="裏切",
        colour="#4a4a4a", footer=sources_footer(data, tr.source) + "; chances computed exactly by gunbai")


def sources_footer(data: SekiData, *sources: Source) -> str:
    """A card's footer citing ``sources``: each document once, by its title in ``sources.yaml``,
    with its sections in the order given and without repeats.

    Example: the melee, flank attack and leader rules, all from the rules text, give
    ``"Sources: The Reluctant Samurai: Battle of Sekigahara (1600): Melee, Melee table, Flank
    Attacks, Leaders, …"`` (documents separated by ``;``) rather than the document named three times.
    """
    titles = {d.id: d.title for d in data.sources.documents}
    sections: dict[str, list[str]] = {}
    for src in sources:
        got = sections.setdefault(src.doc, [])
        for part in src.section.split(";"):
            part = part.strip()
            if part and part not in got:
                got.append(part)
    return "Sources: " + "; ".join(f"{titles.get(doc, doc)}: {', '.join(secs)}" for doc, secs in sections.items())


def card_specs(data: SekiData) -> dict[str, Card]:
    """The reference cards, by image name: sequence of play, units and melee, treachery."""
    s = data.system
    names = {"treachery": "Treachery die roll", "east_moves": "Eastern Army moves", "east_shoots": "Eastern Army shoots", "west_moves": "Western Army moves",
             "west_shoots": "Western Army shoots", "charges": f"Charges ({s.charge.first.capitalize()} first if it matters)", "melee": "Melee (both sides at once)"}
    seq = Card("Sequence of play", [
        Steps("Each turn", [names[p] for p in s.sequence.phases], step_h=36),
        Notes("Moving and charging", [f'Move up to {s.movement.inches:g}"; commanders {s.movement.commander_inches:g}".',
                                      f'Charge up to {s.charge.max_inches:g}", only at an enemy in front that the charge can reach; the only way into melee.'], h=110),
        Notes("Shooting", [f'Arquebusiers and Archers, range {s.shooting.range_inches:g}": if any base is in range, all fire. 1 D6 per base; each {s.shooting.hit_on} removes a stand.',
                           "No shooting by, or at, a unit that has fought a round of melee until its melee ends."], h=0),
    ], subtitle="The Reluctant Samurai · Sekigahara 1600", kanji="手順", footer=sources_footer(data, s.sequence.source, s.movement.source, s.shooting.source))
    rows = []
    for u in data.units.values():
        hit = f"{u.melee_hit_on}-6" if u.melee_hit_on < 6 else "6"
        rows.append([{"text": u.name + (f"\n{u.kanji}" if u.kanji else ""), "symbol": u.symbol or "sword", "bold": True},
                     f'{s.movement.inches:g}"', f'{s.shooting.range_inches:g}"' if u.shoots else "—", hit])
    rows.append([{"text": "Leader (with a unit)", "bold": True}, f'{s.movement.commander_inches:g}" (commander)', "—", f"{s.leaders.hit_on}-6, one more base"])
    units = Card("Units and melee", [
        Table("", [("Unit", 0.35), ("Move", 0.25), ("Shoots", 0.15), ("Melee hits on", 0.25)], rows, row_h=58),
        Notes("Melee", [f"Anyone fighting Archers or Arquebusiers hits on {s.melee.versus_missile_troops_hit_on}-6. Each hit removes a stand; engaged units fight again next turn.",
                        f"Flank or rear charge: the enemy fights back with {s.flank_attack.defender_bases} bases, first round only.",
                        f"A unit down to {s.last_stand.removed_at_bases} stand is removed at once.",
                        "A leader is never targeted; if his unit loses bases in melee, a 6 on a D6 kills him. Two leaders in a melee may fight a duel: high roll wins."], h=0),
    ], subtitle="1 D6 per base in the fight", kanji="兵種", footer=sources_footer(data, s.melee.source, s.flank_attack.source, s.leaders.source))
    return paged({"card_sequence.png": seq, "card_units_melee.png": units, "card_treachery.png": treachery_card(data)})


def card_jobs(data: SekiData, scale: float = 1.0) -> dict[str, RenderJob]:
    """Render jobs of the reference cards at ``scale`` (1 = 600 × 840 px)."""
    return {n: c.job(scale) for n, c in card_specs(data).items()}
