"""OHW Samurai print outputs (``gunbai sheets``): counter sheets with every base to scale, the
reference cards and a sheet per scenario, by :mod:`pipeline.measured.printing`.

Copies: of each unit type and army, as many as the scenarios ever field at once (a General's
unit separately); one turn marker.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pipeline.errors import DataError
from pipeline.measured.art import ArtError
from pipeline.measured.printing import (
    Placement,
    PrintSet,
    ScenarioSheet,
    map_label_min,
    scenario_pngs,
)
from pipeline.measured.printing import print_files as _files
from pipeline.measured.printing import write_print as _write
from pipeline.render.cache import RenderCache
from pipeline.render.sheets import PrintOptions
from pipeline.systems.ohw import art
from pipeline.systems.ohw.data import OhwData

DEFAULTS = PrintOptions()


def _d6(modifier: int) -> str:
    """A die roll with its modifier: ``D6+2``, ``D6-2``, ``D6``."""
    return f"D6{modifier:+d}" if modifier else "D6"


def scenario_sheet(data: OhwData, sc) -> ScenarioSheet:
    """The sheet of scenario ``sc``: its table with every unit placed, the forces of each side
    (with the turn each group arrives), victory and objectives, and what a player looks up
    during the game: the unit types in play and the turn in brief (from the rules data, as
    the cards give them)."""
    armies = {s.id: s.army for s in sc.sides}
    units = [Placement(art.counter_spec(data, data.units[up.unit], armies[up.side], up.general is not None), up.x, up.y, up.facing) for up in sc.units]
    sides = []
    for s in sc.sides:
        lines = []
        for dep in [d for d in sc.deployments if d.side == s.id]:
            n = Counter(art.short_name(data.units[up.unit]) + (" with the General" if up.general else "") + (f" behind {', '.join(data.defences[x].name.lower() for x in up.defences)}" if up.defences else "")
                        for up in sc.units if up.deployment == dep.id)
            when = "sets up" if dep.arrives == 1 else f"arrives on turn {dep.arrives}"
            lines.append(f"{dep.id.replace('_', ' ').capitalize()} ({when}): " + ", ".join(f"{k} × {v}" if k > 1 else v for v, k in n.items()) + ".")
        first = " (moves first)" if s.id == sc.first_side else ""
        col = data.system.armies[s.army]
        sides.append({"name": s.name + first, "fill": col.fill, "text": col.text, "lines": lines})
    notes = [o.description for o in sc.objectives]
    s = data.system
    types = []
    for uid in dict.fromkeys(up.unit for up in sc.units):
        u = data.units[uid]
        shoot = f'shoots {u.shooting.range_inches:g}" with {_d6(u.shooting.modifier)}' if u.shooting else "no shooting"
        melee = f"hand-to-hand {_d6(u.melee.modifier)}" + (" (half hits if attacked frontally)" if u.melee.halved_if_attacked_frontally else "")
        types.append(f'{art.short_name(u)}{f" {u.kanji}" if u.kanji else ""}: move {u.move.inches:g}", {shoot}, {melee}; base {u.base.width:g} × {u.base.depth:g}"')
    turn = [f"Orders: a D6 per unit, full move on {s.orders.full_move_on}+ ({s.orders.damaged_full_move_on}+ with {s.orders.damaged_at_hits} hits or more), else {s.orders.reduced_by_inches:g}\" less.",
            f"Then shooting, then hand-to-hand (only the phasing side inflicts hits; flank or rear attacks ×{s.hand_to_hand.flank_rear_multiplier}).",
            f"A unit is eliminated at {s.elimination.hits} hits."]
    reference = [{"title": "Unit types in play", "lines": types}, {"title": "Each turn", "lines": turn}]
    return ScenarioSheet(sc.id, sc.code, sc.name, f"{sc.turns} turns", data.system.name, " ".join(sc.description.split()), sc.victory,
                         art.table_context(data, sc, map_label_min(data.system.table.width, data.system.table.depth)), units, sides, notes,
                         f"One-Hour Wargames pattern {sc.pattern.number} ({sc.pattern.name}). Layout: {sc.layout_source.doc}, {sc.layout_source.section}" + (f" — {sc.layout_source.note}" if sc.layout_source.note else ""),
                         reference)


def print_set(data: OhwData) -> PrintSet:
    """What OHW prints: every unit counter (as many of each as any scenario fields), the cards,
    a sheet per scenario."""
    need: Counter[str] = Counter()
    for loaded in data.scenarios:
        sc = loaded.model
        armies = {s.id: s.army for s in sc.sides}
        here = Counter(art.unit_image(up.unit, armies[up.side], up.general is not None) for up in sc.units)
        need |= here
    counters = {}
    for army in data.system.armies:
        for u in data.units.values():
            for general in (False, True):
                if general and not u.can_carry_general:
                    continue
                name = art.unit_image(u.id, army, general)
                if need[name]:
                    counters[name] = (art.counter_spec(data, u, army, general), need[name])
    return PrintSet("OHW Samurai", counters, art.card_specs(data), [scenario_sheet(data, s.model) for s in data.scenarios])


def print_files(data: OhwData, cache: RenderCache, opts: PrintOptions = DEFAULTS) -> dict[str, bytes]:
    """Every print PDF by file name (:func:`pipeline.measured.printing.print_files`)."""
    return _files(print_set(data), cache, opts)


def write_print(data: OhwData, out_dir: Path, cache: RenderCache, opts: PrintOptions = DEFAULTS) -> list[Path]:
    """Write the print PDFs into ``out_dir/print``; returns the paths (the ``gunbai sheets`` hook)."""
    return _write(print_set(data), out_dir, cache, opts)


def chart_pngs(data: OhwData, cache: RenderCache) -> dict[str, bytes]:
    """The scenario sheets as PNG for VASSAL's chart window."""
    return scenario_pngs(print_set(data), cache)


def drawing_problems(data: OhwData, docs: dict) -> list:
    """Every data text that does not fit where its template draws it, or uses a character the
    font lacks (:mod:`pipeline.measured.fit`): each unit type's name and kanji on its counter
    (with the General's line where it can carry him) and on the cards, each scenario's texts on
    its sheet. ``docs``: the parsed documents by file name (``units.yaml``)."""
    from pipeline.measured import fit
    from pipeline.render.fit import document_glyph_problems

    out: list = []
    document_glyph_problems([*docs.values(), *(s.doc for s in data.scenarios)], out)  # every text of every file
    army = next(iter(data.system.armies))
    units_doc = docs["units.yaml"]
    names = []
    for i, u in enumerate(data.units.values()):
        fields = [(units_doc, ("units", i, "name"), art.short_name(u)), (units_doc, ("units", i, "kanji"), u.kanji or "")]
        names.append(fields[0])
        fit.counter_problems(art.counter_spec(data, u, army, u.can_carry_general), fields, out, data.system.vassal.px_per_inch)
    fit.card_problems(art.card_specs(data).values(), names, out)
    fit.turn_marker_problems(out)
    for loaded in data.scenarios:
        sc, doc = loaded.model, loaded.doc
        fields = [(doc, ("name",), sc.name), (doc, ("code",), sc.code), (doc, ("description",), sc.description), (doc, ("victory",), sc.victory)]
        fields += [(doc, ("sides", i, "name"), s.name) for i, s in enumerate(sc.sides)]
        fields += [(doc, ("objectives", i, "description"), o.description) for i, o in enumerate(sc.objectives)]
        try:
            sheet = scenario_sheet(data, sc)
        except (LookupError, ArtError):
            continue  # an unknown unit, side or terrain: verify reports it
        fit.sheet_problems(sheet, fields, out)
    return out


def check_fit(data: OhwData) -> None:
    """Refuse ``data`` whose texts do not fit where the templates draw them (:func:`drawing_problems`):
    verification's check, run by ``gunbai verify``, the builds and the renderers after loading.

    Raises:
        DataError: every such text, with its file, line and value.
    """
    DataError.check(drawing_problems(data, data.docs))
