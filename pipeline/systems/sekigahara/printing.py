"""Sekigahara print outputs (``gunbai sheets``): every contingent's stands to scale on counter
sheets, the reference cards (the treachery table among them) and the battle's scenario sheet,
by :mod:`pipeline.measured.printing`.
"""

from __future__ import annotations

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
from pipeline.systems.sekigahara import art
from pipeline.systems.sekigahara.data import UNDECIDED, SekiData

DEFAULTS = PrintOptions()


def scenario_sheet(data: SekiData, sc) -> ScenarioSheet:
    """The sheet of ``sc``: the field with every contingent placed, each side's order of battle
    (stands, men, leader), Kobayakawa's contingent, victory (gunbai's, as the data says). Each
    contingent's line is numbered, and its counter on the map shows that number."""
    armies = art.armies_of(sc)
    names = {s.id: s.name for s in sc.sides} | {UNDECIDED: f"{sc.undecided.leader}: undecided"}
    order = [s.id for s in sc.sides] + [UNDECIDED]
    # each contingent numbered in the order of the side lists: the number is what its counter
    # shows on the map, where the name cannot be set legibly on a 1" deep base
    keys = {up.id: str(i + 1) for i, up in enumerate(sorted(sc.units, key=lambda u: order.index(u.side)))}
    units = [Placement(art.counter_spec(data, sc, up), up.x, up.y, up.facing, keys[up.id]) for up in sc.units]
    sides = []
    for side in order:
        col = data.system.armies[armies[side]]
        lines, bullets = [], []
        for up in sc.units:
            if up.side != side:
                continue
            men = f", {up.men:,} men" if up.men else ""
            lead = f"; {up.leader.name}{' (commander)' if up.leader.commander else ''}" if up.leader else ""
            lines.append(f"{up.name}: {up.stands} stands of {data.units[up.unit].name}{men}{lead}")
            bullets.append(keys[up.id])
        sides.append({"name": names[side], "fill": col.fill, "text": col.text, "lines": lines, "bullets": bullets})
    victory_note = " (gunbai's own condition: the rules text gives none)" if sc.victory_source.doc == "gunbai" and "gunbai" not in sc.victory else ""
    notes = ["Kobayakawa rolls for his side at the start of every turn from turn 2 (treachery card); until then nobody moves, shoots or charges with or at his contingent."]
    return ScenarioSheet(sc.id, sc.code, sc.name, sc.date, data.system.name, " ".join(sc.description.split()), sc.victory + victory_note,
                         art.table_context(data, sc, map_label_min(data.system.table.width, data.system.table.depth)), units, sides, notes,
                         f"Order of battle: {sc.history_source.doc}, {sc.history_source.section}. Map: gunbai's, features cited in the scenario file ({sc.layout_source.note or sc.layout_source.section}).")


def print_set(data: SekiData) -> PrintSet:
    """What Sekigahara prints: each contingent once, the cards, the scenario sheet."""
    counters = {}
    for loaded in data.scenarios:
        sc = loaded.model
        for up in sc.units:
            counters[art.unit_image(up.id)] = (art.counter_spec(data, sc, up), 1)
    return PrintSet("Sekigahara 1600", counters, art.card_specs(data), [scenario_sheet(data, s.model) for s in data.scenarios])


def print_files(data: SekiData, cache: RenderCache, opts: PrintOptions = DEFAULTS) -> dict[str, bytes]:
    """Every print PDF by file name (:func:`pipeline.measured.printing.print_files`)."""
    return _files(print_set(data), cache, opts)


def write_print(data: SekiData, out_dir: Path, cache: RenderCache, opts: PrintOptions = DEFAULTS) -> list[Path]:
    """Write the print PDFs into ``out_dir/print``; returns the paths (the ``gunbai sheets`` hook)."""
    return _write(print_set(data), out_dir, cache, opts)


def chart_pngs(data: SekiData, cache: RenderCache) -> dict[str, bytes]:
    """The scenario sheet as PNG for VASSAL's chart window."""
    return scenario_pngs(print_set(data), cache)


def drawing_problems(data: SekiData, docs: dict) -> list:
    """Every data text that does not fit where its template draws it, or uses a character the
    font lacks (:mod:`pipeline.measured.fit`): each contingent's name on its counter, the unit
    type names on the cards, each scenario's texts on its sheet. ``docs``: the parsed documents
    by file name (``units.yaml``)."""
    from pipeline.measured import fit
    from pipeline.render.fit import document_glyph_problems

    out: list = []
    document_glyph_problems([*docs.values(), *(s.doc for s in data.scenarios)], out)  # every text of every file
    units_doc = docs["units.yaml"]
    names = [(units_doc, ("units", i, "name"), u.name) for i, u in enumerate(data.units.values())]
    fit.card_problems(art.card_specs(data).values(), names, out)
    fit.turn_marker_problems(out)
    for loaded in data.scenarios:
        sc, doc = loaded.model, loaded.doc
        try:
            specs = [art.counter_spec(data, sc, up) for up in sc.units]
            sheet = scenario_sheet(data, sc)
        except (LookupError, ArtError):
            continue  # an unknown unit type or side: verify reports it
        for i, (up, spec) in enumerate(zip(sc.units, specs, strict=True)):
            fit.counter_problems(spec, [(doc, ("units", i, "name"), up.name)], out, data.system.vassal.px_per_inch)
        fields = [(doc, ("name",), sc.name), (doc, ("code",), sc.code), (doc, ("description",), sc.description), (doc, ("victory",), sc.victory)]
        fields += [(doc, ("sides", i, "name"), s.name) for i, s in enumerate(sc.sides)]
        fields += [(doc, ("units", i, "name"), up.name) for i, up in enumerate(sc.units)]
        fields += [(doc, ("units", i, "leader", "name"), up.leader.name) for i, up in enumerate(sc.units) if up.leader]
        fit.sheet_problems(sheet, fields, out)
    return out


def check_fit(data: SekiData) -> None:
    """Refuse ``data`` whose texts do not fit where the templates draw them (:func:`drawing_problems`):
    verification's check, run by ``gunbai verify``, the builds and the renderers after loading.

    Raises:
        DataError: every such text, with its file, line and value.
    """
    DataError.check(drawing_problems(data, data.docs))
