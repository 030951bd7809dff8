"""Ronin print outputs (``gunbai sheets``): the model counters of every Buntai the games field
(25 mm round bases, each model of each roster once, with bleed and cut marks), the markers,
the reference and roster cards, and a sheet per game (the table with both deployment zones and
every model as the VASSAL setup places them, the scenario's rules and victory points), through
:mod:`pipeline.render.sheets` and :mod:`pipeline.measured.printing`.

Outputs (under ``build/ronin/print/``)::

    counters_a4.pdf, counters_letter.pdf   model counters per side and Buntai, then markers
    cards.pdf                              reference and roster cards, 90 × 120 mm with cut marks
    game_<id>.pdf                          one A4 landscape sheet per game
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pipeline.errors import DataError, DataProblem
from pipeline.measured.art import Zone
from pipeline.measured.printing import (
    MM_PER_INCH,
    Placement,
    ScenarioSheet,
    scenario_pdf,
    sheet_jobs,
    sheet_pngs,
)
from pipeline.render import sheets
from pipeline.render.cache import RenderCache, RenderJob
from pipeline.render.sheets import PrintOptions, SheetItem
from pipeline.systems.ronin import art
from pipeline.systems.ronin.data import HIRED, RoninData

DEFAULTS = PrintOptions()
#: Printed card size (3:4, two across an A4 page), mm.
CARD_MM = (90.0, 120.0)
#: Copies of each marker on the counter sheets.
MARKER_COPIES = 4


@dataclass(frozen=True)
class RoundPiece:
    """A round counter drawn by a template (a model or a marker) of ``diameter`` inches."""

    template: str
    context: dict[str, Any]
    diameter: float

    def job(self, ppi: float) -> RenderJob:
        """The render job at ``ppi`` pixels per inch."""
        px = max(8, round(self.diameter * ppi))
        return RenderJob(self.template, self.context, size=(px, px))


def _model_piece(data: RoninData, fid: str, model_id: str, side: str) -> RoundPiece:
    models = {(f, m.id): (m, h) for f, m, h in art.all_models(data)}
    m, hired = models[(fid, model_id)]
    col = data.system.sides[side]
    ctx = art.model_context(m, hired, {"fill": col.fill, "text": col.text}, data.system.vassal.faction_colours.get(fid, art.NO_FACTION_COLOUR))
    return RoundPiece("ronin/model_counter.yaml.j2", ctx, data.system.vassal.base_mm / MM_PER_INCH)


def _marker_piece(data: RoninData, marker_id: str) -> RoundPiece:
    mk = next(m for m in data.system.markers if m.id == marker_id)
    return RoundPiece("ronin/marker.yaml.j2", art.marker_job(mk, 100).context, data.system.vassal.base_mm / MM_PER_INCH * 0.8)


def counter_sheet(data: RoninData, opts: PrintOptions) -> tuple[list[SheetItem], dict[str, RenderJob]]:
    """Every model of every Buntai the games field, in the side colour of its game (each
    roster and side once, in roster order), then :data:`MARKER_COPIES` of each marker; the
    back of a counter is its front."""
    from pipeline.systems.ronin.roster import check_roster

    base = data.system.vassal.base_mm
    items: list[SheetItem] = []
    jobs: dict[str, RenderJob] = {}
    seen: set[tuple[str, str]] = set()
    for lg in data.games:
        for side in lg.value.sides:
            if side.roster is None or (side.roster, side.side) in seen:
                continue
            seen.add((side.roster, side.side))
            lr = data.rosters[side.roster]
            for m in check_roster(data, lr).models:
                fid = HIRED if m.hired else lr.value.faction
                name = art.model_image_name(fid, m.model.id, side.side)
                jobs[name] = _model_piece(data, fid, m.model.id, side.side).job(opts.dpi)
                items.append(SheetItem(name, base, base, name))
    mm = base * 0.8
    for mk in data.system.markers:
        name = art.marker_image_name(mk.id)
        jobs[name] = art.marker_job(mk, sheets.SheetSpec(dpi=opts.dpi).px(mm))
        items += [SheetItem(name, mm, mm, name)] * MARKER_COPIES
    return items, sheets.bled_jobs(items, sheets.supersampled(jobs, sheets.print_supersample(opts.dpi / MM_PER_INCH)), opts)


def piece_box(u: Placement) -> tuple[float, float, float, float]:
    """The box ``(x0, y0, x1, y1)`` inches a piece laid on a sheet's table covers (a placement
    is the piece's centre; a terrain piece is ``w`` × ``h``, a round counter its diameter)."""
    p = u.counter
    w, h = (p.w, p.h) if isinstance(p, art.TerrainPiece) else (p.diameter, p.diameter)
    return (u.x - w / 2, u.y - h / 2, u.x + w / 2, u.y + h / 2)


def game_sheet(data: RoninData, lg: Any) -> ScenarioSheet:
    """The sheet of a game: the table with both zones, the game's terrain pieces (under the
    models, as in the VASSAL setup) and every model, the scenario's text."""
    from pipeline.systems.ronin.module import game_terrain_key, model_key, placements, zone_key

    g = lg.value
    sc = data.scenarios[g.scenario]
    ppi = data.system.vassal.px_per_inch
    zones = []
    for side in g.sides:
        z = side.zone
        col = data.system.sides[side.side].fill
        if z.kind == "circle":
            zones.append(Zone((z.x - z.r, z.y - z.r, 2 * z.r, 2 * z.r), col, f"{side.role} deployment", shape="circle"))
        else:
            zones.append(Zone((z.x, z.y, z.w, z.h), col, f"{side.role} deployment"))
    duel = art.duelling_area(data, g)
    if duel is not None:
        x, y, r = duel
        zones.append(Zone((x - r, y - r, 2 * r, 2 * r), art.DUEL_COLOUR, f'Duelling area ({2 * r:g}" across)', kind="objective", shape="circle"))
    pieces: dict[str, RoundPiece] = {}
    for fid, m, _h in art.all_models(data):
        for side in data.system.sides:
            pieces[model_key(fid, m.id, side)] = _model_piece(data, fid, m.id, side)
    for mk in data.system.markers:
        pieces[f"marker:{mk.id}"] = _marker_piece(data, mk.id)
    for i, (_image, tp) in enumerate(art.game_terrain_pieces(data, g)):
        pieces[game_terrain_key(g.id, i)] = tp
    zone_keys = {zone_key(g.id, i) for i in range(len(g.sides))}
    try:
        placed = placements(data, g)
    except ValueError as exc:  # a zone too small for its force (gunbai verify: zone-room)
        raise DataError([DataProblem(lg.path, lg.doc.line_of(("sides",)), "sides", repr(g.id), f"deployment zones that hold their forces ({exc})")]) from exc
    units = [Placement(pieces[p.key], p.x / ppi, p.y / ppi) for p in placed if p.key not in zone_keys]
    # the compass and scale bar keep off every piece the sheet lays on the table (terrain, models, markers)
    avoid = [piece_box(u) for u in units]
    sides = []
    for side in g.sides:
        col = data.system.sides[side.side]
        lines = []
        if side.roster is not None:
            r = data.rosters[side.roster].value
            lines.append(f"{r.name} ({data.factions[r.faction].name}, {r.points_limit} points)")
        lines += [f"{n} × {mid.replace('_', ' ')}" for mid, n in side.fixed.items()]
        sides.append({"name": f"{side.role} ({side.side})", "fill": col.fill, "text": col.text, "lines": lines})
    notes = [sc.terrain, sc.deployment, sc.game_length, *sc.special_rules] + ([g.note] if g.note else [])
    return ScenarioSheet(g.id, "Ronin", g.name, f'{sc.name} · {g.table_side_in}" table', "Ronin (Osprey Wargames, 2013)", " ".join(sc.description.split()),
                         " ".join(sc.victory_points), art.table_context(g.table_side_in, zones, avoid), units, sides, notes,
                         f"Scenario: {sc.source.doc}, {sc.source.section}. Deployment of the models in their zones: gunbai's.")


def card_jobs(data: RoninData, opts: PrintOptions) -> dict[str, RenderJob]:
    """The reference and roster cards printed :data:`CARD_MM` at ``opts.dpi``."""
    from pipeline.systems.ronin.roster import check_roster

    scale = sheets.SheetSpec(dpi=opts.dpi).px(CARD_MM[0]) / art.CARD_SIZE[0]
    size = (round(art.CARD_SIZE[0] * scale), round(art.CARD_SIZE[1] * scale))
    cards = {n: RenderJob(j.template, j.context, size=size) for n, j in art.reference_jobs(data).items()}
    for rid, lr in data.rosters.items():
        for name, j in art.roster_jobs(data, rid, check_roster(data, lr)).items():
            cards[name] = RenderJob(j.template, j.context, size=size)
    return sheets.supersampled(cards, sheets.print_supersample(opts.dpi / MM_PER_INCH))


def print_files(data: RoninData, cache: RenderCache, opts: PrintOptions = DEFAULTS) -> dict[str, bytes]:
    """Every print PDF by file name (``counters_a4.pdf``, ``counters_letter.pdf``,
    ``cards.pdf``, ``game_<id>.pdf``): every image drawn first on every core, then the files
    assembled in parallel processes (:func:`pipeline.render.sheets.print_files`)."""
    items, jobs = counter_sheet(data, opts)
    cards = card_jobs(data, opts)
    games = [game_sheet(data, lg) for lg in data.games]
    text = sheets.jobs_text([*jobs.values(), *cards.values(), *(j for s in games for j in sheet_jobs(s, 1.0).values())], cache.renderer.root)
    text += "".join(c for s in games for c in f"{s.code}{s.name}" if ord(c) > 0x7E)
    makers: dict[str, Callable[[], bytes]] = {}
    for paper in ("a4", "letter"):
        footer = f"{paper.upper()} · {data.system.vassal.base_mm:g} mm bases · bleed {opts.bleed_mm:g} mm · {opts.dpi} dpi"
        makers[f"counters_{paper}.pdf"] = partial(sheets.counters_pdf, items, jobs, cache, paper, opts, title="Ronin counters", pdf_title="Ronin counters", footer=footer,
                                                  text=text)
    makers["cards.pdf"] = partial(sheets.cards_pdf, cards, CARD_MM, {}, cache, "a4", opts, title="Ronin cards", pdf_title="Ronin reference and roster cards", caption="Ronin",
                                  text=text)
    # the game sheets and cards are vector pages (scenario_pdf, cards_pdf): no picture of them is drawn
    all_jobs = {f"counters/{n}": j for n, j in jobs.items()}
    for s in games:
        makers[f"game_{s.id}.pdf"] = partial(scenario_pdf, s, cache, opts, f"game_{s.id}.pdf", f"{s.code}: {s.name}", text)
    return sheets.print_files(cache, all_jobs, makers, text)


def write_print(data: RoninData, out_dir: Path, cache: RenderCache, opts: PrintOptions = DEFAULTS) -> list[Path]:
    """Write the print PDFs into ``out_dir/print``; returns the paths (the ``gunbai sheets`` hook)."""
    return sheets.write_files(print_files(data, cache, opts), out_dir / "print")


def chart_pngs(data: RoninData, cache: RenderCache) -> dict[str, bytes]:
    """The game sheets as PNG for VASSAL's chart window."""
    return sheet_pngs({f"game_{lg.value.id}.png": game_sheet(data, lg) for lg in data.games}, cache)


def drawing_problems(data: RoninData) -> list:
    """Every data text that does not fit where its template draws it, or uses a character the
    font lacks (:mod:`pipeline.measured.fit`): each model's name on its counter, each game's
    and scenario's texts on the game sheet."""
    from pipeline.errors import GunbaiError
    from pipeline.measured import fit
    from pipeline.render.fit import document_glyph_problems
    from pipeline.systems.ronin.roster import check_roster

    out: list = []
    # every text of every file (the rosters' and games' too), printed or not yet
    document_glyph_problems([*data.docs.values(), *(r.doc for r in data.rosters.values()), *(g.doc for g in data.games)], out)
    side = next(iter(data.system.sides.values()))
    colours = {"fill": side.fill, "text": side.text}
    from pipeline.render.legible import PT_PER_MM

    # a model's base and a marker (0.8 of it) as VASSAL shows them and as the counter sheet prints them
    px, mm = art.base_px(data), data.system.vassal.base_mm
    model_media = [(px / 100, "screen"), (mm * PT_PER_MM / 100, "print")]
    marker_media = [(round(px * 0.8) / 100, "screen"), (mm * 0.8 * PT_PER_MM / 100, "print")]
    system_doc = data.docs.get("system.yaml")
    for i, mk in enumerate(data.system.markers):
        job = art.marker_job(mk, round(px * 0.8))
        fields = [(system_doc, ("markers", i, k), getattr(mk, k) or "") for k in ("label", "sub")] if system_doc is not None else []
        fit.template_problems(job.template, job.context, fields, out, marker_media)
    # the terrain palette's pieces to scale in VASSAL: each kind's name on its pieces
    ppi = data.system.vassal.px_per_inch
    terrain_doc = data.docs.get("terrain.yaml")
    index = {t.id: i for i, t in enumerate(data.terrain.values())}
    for piece in art.terrain_pieces(data).values():
        job = piece.job(ppi)
        i = next((index[k] for k in index if data.terrain[k].name == piece.name), None)
        fields = [(terrain_doc, ("terrain", i, "name"), piece.name)] if terrain_doc is not None and i is not None else []
        fit.template_problems(job.template, job.context, fields, out, [(ppi, "screen")])
    cards = list(art.reference_cards(data).values())
    for lr in data.rosters.values():
        try:
            cards += art.roster_card(data, check_roster(data, lr)).pages()
        except (LookupError, GunbaiError, ValueError):
            continue  # a roster that breaks a rule: verify reports it
    fit.card_problems(cards, [(lr.doc, ("name",), lr.value.name) for lr in data.rosters.values()], out, CARD_MM, art.CARD_SIZE[0] / art.CARD_LAYOUT[0])
    scenario_docs = {d.data.get("id"): d for k, d in data.docs.items() if k.startswith("scenarios/") and isinstance(d.data, dict)}
    for key, doc in data.docs.items():
        if not (key.startswith("factions/") or key.startswith("scenarios/")) or not isinstance(doc.data, dict):
            continue
        fid = doc.data.get("id")
        owner = data.factions.get(fid) or data.scenarios.get(fid)
        hired = key.startswith("factions/") and (fid == HIRED or getattr(owner, "hired_only", False))
        for i, m in enumerate(getattr(owner, "models", [])):
            ctx = art.model_context(m, hired, colours, data.system.vassal.faction_colours.get(fid, art.NO_FACTION_COLOUR))
            fit.template_problems("ronin/model_counter.yaml.j2", ctx, [(doc, ("models", i, "name"), m.name)], out, model_media)
    for lg in data.games:
        g, doc = lg.value, lg.doc
        sc = data.scenarios.get(g.scenario)
        fields = [(doc, ("name",), g.name)] + ([(doc, ("note",), g.note)] if g.note else [])
        sdoc = scenario_docs.get(g.scenario)
        if sc is not None and sdoc is not None:
            fields += [(sdoc, (k,), getattr(sc, k)) for k in ("name", "description", "terrain", "deployment", "game_length")]
            fields += [(sdoc, ("victory_points", i), t) for i, t in enumerate(sc.victory_points)]
            fields += [(sdoc, ("special_rules", i), t) for i, t in enumerate(sc.special_rules)]
        try:
            sheet = game_sheet(data, lg)
        except (LookupError, GunbaiError, ValueError):
            continue  # an unknown scenario, roster or model, a zone too small: verify reports it
        fit.sheet_problems(sheet, fields, out)
    return out


def check_fit(data: RoninData) -> None:
    """Refuse ``data`` whose texts do not fit where the templates draw them (:func:`drawing_problems`):
    verification's check, run by ``gunbai verify``, the builds and the renderers after loading.

    Raises:
        DataError: every such text, with its file, line and value.
    """
    DataError.check(drawing_problems(data))
