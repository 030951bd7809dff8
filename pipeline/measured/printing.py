"""Print outputs of a measured-table game (OHW Samurai, Sekigahara): counter sheets with every
unit's base *to scale* (so the sheets can be cut out and played on a real table), the reference
cards at 90 × 126 mm, and a scenario sheet per scenario (A4 landscape: the table as the VASSAL
setup places it, the sides, victory and notes), through the shared print machinery of
:mod:`pipeline.render.sheets` and the render cache.

A system supplies a :class:`PrintSet` (what to print) and calls :func:`print_files`; its
``printing`` module's ``write_print`` is the hook ``gunbai sheets`` calls.

Outputs (under ``build/<system>/print/``)::

    counters_a4.pdf, counters_letter.pdf   every unit, markers; front 1, back 1 (mirrored), …
    cards.pdf                              the reference cards with cut marks
    scenario_<id>.pdf                      one A4 landscape sheet per scenario
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from pipeline.measured.art import (
    COUNTER_UNITS_PER_INCH,
    CounterSpec,
    counter_job,
    marker_job,
    table_job,
)
from pipeline.render import sheets
from pipeline.render.cache import RenderCache, RenderJob
from pipeline.render.cards import Card
from pipeline.render.parallel import fork_map
from pipeline.render.png import png_bytes
from pipeline.render.sheets import PrintOptions, SheetItem, digest

MM_PER_INCH = 25.4
#: Printed card size, mm: 90 × 126 (the 600 × 840 card's proportions), four to an A4 page; at
#: 63 × 88 mm its texts would need 23.5 units to reach the 7 pt floor
#: (:data:`pipeline.render.cards.PRINT_MM`).
CARD_MM = (90.0, 126.0)
#: Scenario sheet (A4 landscape), mm, and the map box on it.
SHEET_MM = (297.0, 210.0)
MAP_BOX = (8.0, 27.0, 190.0)  # x, y, max width (mm); height follows the table, at most 172 mm
#: Pixels per mm of the scenario sheet PNG for VASSAL's chart window (297 mm → 1485 px).
SHEET_PNG_PX_PER_MM = 5.0
#: Supersampling of the sheet drawing in the chart window PNG (its map picture keeps the
#: default): 1, none. Text, rules and boxes; FreeType anti-aliases text at any factor, so the
#: sheet drawn at its own size looks the same (text a little sharper) for a quarter of the cost
#: of drawing it twice as large and reducing it.
SHEET_PNG_SUPERSAMPLE = 1
#: Diameter of a printed marker, mm.
MARKER_MM = 16.0


class Piece(Protocol):
    """Anything drawn on a scenario map: it gives its render job at a number of pixels per inch
    (its real size on the table)."""

    def job(self, ppi: float) -> RenderJob: ...


@dataclass
class Placement:
    """A piece on a scenario map: its counter (a :class:`CounterSpec` or any :class:`Piece`),
    centre ``x, y`` (inches) and ``facing`` (degrees clockwise from north); ``key``: what it
    shows on the map where its name cannot be set legibly (the number of its side list's
    line), or ``""``."""

    counter: Piece
    x: float
    y: float
    facing: float = 0.0
    key: str = ""


@dataclass
class ScenarioSheet:
    """What a scenario sheet says: the header, the map (``table`` context and ``units``), the
    text column (summary, victory, one block of lines per side, notes, then the ``reference``
    blocks ``{title, lines}``: what a player looks up during the game, e.g. the unit types in
    play) and the source line."""

    id: str
    code: str
    name: str
    date: str
    system: str
    summary: str
    victory: str
    table: dict[str, Any]
    units: list[Placement]
    sides: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    source: str = ""
    reference: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class PrintSet:
    """Everything a system prints: ``title`` (page titles), ``counters`` (front name →
    (counter, copies)), ``turn_marker`` copies, the reference ``cards`` (image name → card),
    the scenario sheets."""

    title: str
    counters: dict[str, tuple[CounterSpec, int]]
    cards: dict[str, Card]
    scenarios: list[ScenarioSheet]
    turn_markers: int = 1


def back_job(c: CounterSpec, ppi: float) -> RenderJob:
    """The back of a counter (army colour, name, mon) at ``ppi``."""
    ctx = {"w": c.w, "d": c.d, "name": c.name, "fill": c.fill, "text": c.text, "mon": c.context()["mon"]}
    return RenderJob("measured/unit_back.yaml.j2", ctx, size=(round(c.w * ppi), round(c.d * ppi)))


def counter_sheet(ps: PrintSet, opts: PrintOptions) -> tuple[list[SheetItem], dict[str, RenderJob]]:
    """The pieces of the counter sheets (every copy, to scale: an inch of base is 25.4 mm) and
    their front and back render jobs at ``opts.dpi``; biggest bases first so shelves fill."""
    ppi = opts.dpi
    items: list[SheetItem] = []
    jobs: dict[str, RenderJob] = {}
    order = sorted(ps.counters.items(), key=lambda kv: (-kv[1][0].w, -kv[1][0].d))
    for name, (c, copies) in order:
        jobs[name] = counter_job(c, ppi)
        jobs["back_" + name] = back_job(c, ppi)
        items += [SheetItem(name, c.w * MM_PER_INCH, c.d * MM_PER_INCH, "back_" + name)] * copies
    px = sheets.SheetSpec(dpi=opts.dpi).px(MARKER_MM)
    jobs["turn_marker.png"] = marker_job("Turn", "#333333", px)
    items += [SheetItem("turn_marker.png", MARKER_MM, MARKER_MM, "turn_marker.png")] * ps.turn_markers
    return items, sheets.bled_jobs(items, sheets.supersampled(jobs, sheets.print_supersample(opts.dpi / MM_PER_INCH)), opts)


def map_jobs(sheet: ScenarioSheet, width_px: int, supersample: int | None = None) -> tuple[dict[str, RenderJob], float]:
    """The render jobs of the scenario's map picture ``width_px`` wide: the table (``table``)
    and each unit (``u<i>``) at the same scale, drawn with ``supersample``; and that scale in
    pixels per inch. A unit counter's texts keep to the print floor there (its name, or its
    key where the name cannot be set at the floor; its second line is left to the counters)."""
    t = sheet.table["table"]
    ppi = width_px / t["width"]
    jobs = {"table": table_job(sheet.table, ppi)}
    floor = map_label_min(t["width"], t["depth"]) * COUNTER_UNITS_PER_INCH
    for i, u in enumerate(sheet.units):
        c = replace(u.counter, floor=floor, key=u.key) if isinstance(u.counter, CounterSpec) else u.counter
        jobs[f"u{i}"] = c.job(ppi)
    return sheets.supersampled(jobs, supersample), ppi


def map_picture(sheet: ScenarioSheet, width_px: int, cache: RenderCache, supersample: int | None = None) -> Image.Image:
    """The scenario's table ``width_px`` wide with every unit drawn at the same scale, turned to
    its facing and centred on its place, as in the VASSAL setup."""
    jobs, ppi = map_jobs(sheet, width_px, supersample)
    imgs = sheets.decode_pngs_shared(cache.render_all(jobs))  # read only: the table is copied
    canvas = imgs["table"].copy()
    for i, u in enumerate(sheet.units):
        im = imgs[f"u{i}"]
        if u.facing % 360:
            im = im.rotate(-u.facing, expand=True, resample=Image.Resampling.BICUBIC)
        canvas.alpha_composite(im, (round(u.x * ppi - im.width / 2), round(u.y * ppi - im.height / 2)))
    return canvas


def map_mm_per_inch(width: float, depth: float) -> float:
    """Millimetres of the scenario sheet's map per inch of a ``width`` × ``depth`` table (the
    map box of :func:`sheet_context`)."""
    return min(MAP_BOX[2], 172.0 * width / depth) / width


def map_label_min(width: float, depth: float) -> float:
    """The least size (inches of table) of a label on the sheet's map of a ``width`` × ``depth``
    table: the print floor :data:`pipeline.render.legible.MIN_PRINT_PT` at the map's scale (a
    36" OHW table: 7 pt = 2.47 mm at 4.78 mm per inch, 0.517"; the 72" Sekigahara field at 2.64
    mm per inch: 0.936")."""
    from pipeline.render.legible import MIN_PRINT_PT, PT_PER_MM

    return round(MIN_PRINT_PT / PT_PER_MM / map_mm_per_inch(width, depth), 3)


def text_blocks(ctx: dict[str, Any]) -> list[tuple[float, float]]:
    """``(scale reached, share of its box filled)`` of each text block (``paragraphs``) of the
    scenario sheet drawn with ``ctx``, measured as the fit checks measure (8 px per mm)."""
    from pipeline.measured.art import renderer
    from pipeline.render.drawing import _layout_paragraphs

    d = renderer().drawing("measured/scenario_sheet.yaml.j2", ctx)
    out = []
    for shape in d.shapes:
        if shape.name == "paragraphs":
            _placed, total, scale = _layout_paragraphs(shape.params, 8.0)
            out.append((scale, total / (shape.params["h"] * 8.0)))
    return out


#: Narrowest map of a scenario sheet, mm, and the step it shrinks by (:func:`sheet_context`).
MAP_MIN_W, MAP_STEP = 130.0, 4.0


def sheet_context(sheet: ScenarioSheet) -> dict[str, Any]:
    """Context of ``templates/measured/scenario_sheet.yaml.j2`` (millimetres). Where the map
    leaves room under it, the first sides go there and the others into the right column, as
    many under the map as sets the text largest: the layout whose smallest block scale is the
    highest, then whose blocks fill their boxes the most (:func:`text_blocks`). The map is as
    wide as :data:`MAP_BOX` allows, or narrower, in :data:`MAP_STEP` steps down to
    :data:`MAP_MIN_W`, until every text of the sheet fits at a size the template allows (no
    smaller than the 7 pt print floor): a long order of battle takes room from the map, never
    from the size of its text."""
    from pipeline.measured.art import renderer
    from pipeline.render.drawing import overflows

    t = sheet.table["table"]
    x, y, max_w = MAP_BOX
    w = min(max_w, 172.0 * t["width"] / t["depth"])
    while True:
        h = w * t["depth"] / t["width"]
        ctx = {"sheet": {"width": SHEET_MM[0], "height": SHEET_MM[1]}, "map": {"x": x, "y": y, "w": round(w, 3), "h": round(h, 3)},
               "scenario": {"code": sheet.code, "name": sheet.name, "date": sheet.date, "system": sheet.system, "summary": sheet.summary,
                            "victory": sheet.victory, "notes": sheet.notes, "source": sheet.source, "reference": sheet.reference},
               "sides": sheet.sides, "layout": {"below": len(sheet.sides)}}
        if SHEET_MM[1] - 9 - (y + h + 6) >= 35 and len(sheet.sides) > 1:
            def score(n: int, ctx: dict[str, Any] = ctx) -> tuple[float, float]:
                blocks = text_blocks({**ctx, "layout": {"below": n}})
                return round(min(s for s, _f in blocks), 3), round(min(f for _s, f in blocks), 3)

            ctx["layout"] = {"below": max(range(1, len(sheet.sides) + 1), key=lambda n: (*score(n), -n))}
        if w - MAP_STEP < MAP_MIN_W or not overflows(renderer().drawing("measured/scenario_sheet.yaml.j2", ctx)):
            return ctx
        w -= MAP_STEP


def sheet_jobs(sheet: ScenarioSheet, px_per_mm: float) -> dict[str, RenderJob]:
    """Every image the scenario sheet at ``px_per_mm`` is made of: the sheet itself (``sheet``)
    and the table and units of its map (:func:`map_jobs`); drawn without supersampling at print
    resolution (:func:`pipeline.render.sheets.print_supersample`). The ``sheet`` is drawn
    straight into the composed sheet (:func:`_sheet_parts`), never cached as a PNG of its own
    (used once; its PNG would cost more than its drawing): pre-draw lists leave it out."""
    ctx = sheet_context(sheet)
    ss = sheets.print_supersample(px_per_mm)
    jobs, _ppi = map_jobs(sheet, round(ctx["map"]["w"] * px_per_mm), ss)
    base = RenderJob("measured/scenario_sheet.yaml.j2", ctx, size=(round(SHEET_MM[0] * px_per_mm), round(SHEET_MM[1] * px_per_mm)))
    return {**sheets.supersampled({"sheet": base}, ss), **jobs}


def cached_sheet_jobs(sheet: ScenarioSheet, px_per_mm: float) -> dict[str, RenderJob]:
    """The jobs of :func:`sheet_jobs` that go through the render cache (drawn at once on every
    core before the sheets are composed): the table and units of the map, not the ``sheet``."""
    return {n: j for n, j in sheet_jobs(sheet, px_per_mm).items() if n != "sheet"}


def _sheet_parts(sheet: ScenarioSheet, px_per_mm: float, cache: RenderCache,
                 sheet_supersample: int | None = None) -> tuple[str, Callable[[], Image.Image]]:
    """The content key of the scenario sheet at ``px_per_mm`` and a function composing it;
    ``sheet_supersample``: the sheet drawing's supersampling (``None``: as :func:`sheet_jobs`)."""
    ctx = sheet_context(sheet)
    jobs = sheet_jobs(sheet, px_per_mm)
    if sheet_supersample is not None:
        jobs["sheet"] = replace(jobs["sheet"], supersample=sheet_supersample)
    box = ctx["map"]
    map_w = round(box["w"] * px_per_mm)
    ss = sheets.print_supersample(px_per_mm)
    key = digest("measured-scenario-sheet", {n: cache.key(j) for n, j in sorted(jobs.items())}, [(u.x, u.y, u.facing) for u in sheet.units])

    def image() -> Image.Image:
        base = jobs["sheet"].render(cache.renderer)  # drawn here, not cached: see sheet_jobs
        base.alpha_composite(map_picture(sheet, map_w, cache, ss), (round(box["x"] * px_per_mm), round(box["y"] * px_per_mm)))
        return base

    return key, image


def scenario_png(sheet: ScenarioSheet, px_per_mm: float, cache: RenderCache) -> bytes:
    """The scenario sheet as PNG at ``px_per_mm``, cached by content; the sheet drawing (not its
    map) drawn at :data:`SHEET_PNG_SUPERSAMPLE`."""
    key, image = _sheet_parts(sheet, px_per_mm, cache, SHEET_PNG_SUPERSAMPLE)
    return cache.blob(f"scenario_{sheet.id}.png", key, lambda: png_bytes(image()), ext="png")


def sheet_layers(sheet: ScenarioSheet, px_per_mm: float, cache: RenderCache) -> tuple[str, Callable[[], list]]:
    """``(key, layers)`` of the vector scenario sheet: ``layers()`` gives the page's drawings in
    order as ``(Drawing, (x, y, w, h) mm, degrees clockwise)``: the sheet template filling the
    page, the table in the map box, every unit turned to its facing and centred on its place
    (where :func:`map_picture` pastes its picture, at that picture's size at ``px_per_mm``).
    ``key`` is their content hash (the drawings' YAML, sizes and places)."""
    from pipeline.render.drawing import pixel_size

    ctx = sheet_context(sheet)
    box = ctx["map"]
    base = RenderJob("measured/scenario_sheet.yaml.j2", ctx, size=(round(SHEET_MM[0] * px_per_mm), round(SHEET_MM[1] * px_per_mm)))
    jobs, ppi = map_jobs(sheet, round(box["w"] * px_per_mm))
    r = cache.renderer
    key = digest("measured-scenario-vector", r.render_yaml(base.template, base.context), {n: [j.template, r.render_yaml(j.template, j.context), j.size, j.scale] for n, j in sorted(jobs.items())},
                 [(u.x, u.y, u.facing) for u in sheet.units], px_per_mm)

    def size(job: RenderJob, d) -> tuple[int, int]:
        return job.size or pixel_size(d, scale=job.scale or 1.0)

    def layers() -> list:
        table = sheets.job_drawing(cache, jobs["table"])
        tw, th = size(jobs["table"], table)
        out = [(sheets.job_drawing(cache, base), (0.0, 0.0, *SHEET_MM), 0.0), (table, (box["x"], box["y"], tw / px_per_mm, th / px_per_mm), 0.0)]
        for i, u in enumerate(sheet.units):
            d = sheets.job_drawing(cache, jobs[f"u{i}"])
            w, h = size(jobs[f"u{i}"], d)
            cx, cy = box["x"] + u.x * ppi / px_per_mm, box["y"] + u.y * ppi / px_per_mm
            out.append((d, (cx - w / px_per_mm / 2, cy - h / px_per_mm / 2, w / px_per_mm, h / px_per_mm), float(u.facing % 360)))
        return out

    return key, layers


def print_text(ps: PrintSet, templates: Path) -> str:
    """Every character beyond ASCII the print files of ``ps`` can show (its counters', cards' and
    sheets' drawings, :func:`pipeline.render.sheets.jobs_text`): one font subset for the build."""
    jobs = [j for c, _n in ps.counters.values() for j in (c.job(1.0), back_job(c, 1.0))] + [c.job(1.0) for c in ps.cards.values()]
    for s in ps.scenarios:
        jobs.append(RenderJob("measured/scenario_sheet.yaml.j2", sheet_context(s), size=(1, 1)))
        jobs += list(map_jobs(s, 100)[0].values())
    return sheets.jobs_text(jobs, templates) + "".join(c for s in ps.scenarios for c in f"{s.code}{s.name}" if ord(c) > 0x7E)


def scenario_pdf(sheet: ScenarioSheet, cache: RenderCache, opts: PrintOptions, name: str, title: str, text: str = "") -> bytes:
    """The scenario sheet as a one-page A4 landscape PDF of vector content
    (:func:`pipeline.render.sheets.vector_pdf`): the sheet template, the table and every unit as
    paths and real text, laid out as the ``opts.dpi`` raster sheet lays them out, with no image;
    cached by content under ``name``. ``text``: the characters of the font subset
    (:func:`print_text`)."""
    key, layers = sheet_layers(sheet, opts.dpi / MM_PER_INCH, cache)
    return sheets.vector_pdf(key, layers, SHEET_MM, cache, name=name, title=title, text=text, layout_px_per_mm=opts.dpi / MM_PER_INCH)


def sheet_pngs(named: dict[str, ScenarioSheet], cache: RenderCache) -> dict[str, bytes]:
    """The sheets of ``named`` (image name → sheet) as PNG for VASSAL's chart window: every image
    they are made of drawn at once on every core, then the sheets composed on every core."""
    cache.render_all({f"{n}/{k}": j for n, s in named.items() for k, j in cached_sheet_jobs(s, SHEET_PNG_PX_PER_MM).items()})
    return fork_map({n: partial(scenario_png, s, SHEET_PNG_PX_PER_MM, cache) for n, s in named.items()})


def scenario_pngs(ps: PrintSet, cache: RenderCache) -> dict[str, bytes]:
    """Every scenario sheet as PNG for VASSAL's chart window, by image name."""
    return sheet_pngs({f"scenario_{s.id}.png": s for s in ps.scenarios}, cache)


def card_jobs(cards: dict[str, Card], card_mm: tuple[float, float], opts: PrintOptions) -> dict[str, RenderJob]:
    """The render jobs of ``cards`` printed ``card_mm[0]`` wide at ``opts.dpi``."""
    scale = sheets.SheetSpec(dpi=opts.dpi).px(card_mm[0]) / 600
    return sheets.supersampled({n: c.job(scale) for n, c in cards.items()}, sheets.print_supersample(opts.dpi / MM_PER_INCH))


def print_files(ps: PrintSet, cache: RenderCache, opts: PrintOptions) -> dict[str, bytes]:
    """Every print PDF by file name: ``counters_a4.pdf``, ``counters_letter.pdf``, ``cards.pdf``,
    ``scenario_<id>.pdf``; every image drawn first on every core, then the files assembled in
    parallel processes (:func:`pipeline.render.sheets.print_files`).

    Raises:
        ValueError: a counter does not fit the printable area.
    """
    items, jobs = counter_sheet(ps, opts)
    cards = card_jobs(ps.cards, CARD_MM, opts)
    text = print_text(ps, cache.renderer.root)
    makers: dict[str, Callable[[], bytes]] = {}
    for paper in ("a4", "letter"):
        footer = f"{paper.upper()} · bases to scale (1 inch = 25.4 mm) · bleed {opts.bleed_mm:g} mm · {opts.dpi} dpi"
        makers[f"counters_{paper}.pdf"] = partial(sheets.counters_pdf, items, jobs, cache, paper, opts, title=f"{ps.title} counters",
                                                  pdf_title=f"{ps.title} counters", footer=footer, text=text)
    makers["cards.pdf"] = partial(sheets.cards_pdf, cards, CARD_MM, {}, cache, "a4", opts, title=f"{ps.title} reference cards",
                                  pdf_title=f"{ps.title} reference cards", caption=ps.title, text=text)
    # the scenario sheets and cards are vector pages (scenario_pdf, cards_pdf): no picture of them is drawn
    all_jobs = {f"counters/{n}": j for n, j in jobs.items()}
    for s in ps.scenarios:
        makers[f"scenario_{s.id}.pdf"] = partial(scenario_pdf, s, cache, opts, f"scenario_{s.id}.pdf", f"{s.code} {s.name}", text)
    return sheets.print_files(cache, all_jobs, makers, text)


def write_print(ps: PrintSet, out_dir: Path, cache: RenderCache, opts: PrintOptions) -> list[Path]:
    """Write :func:`print_files` into ``out_dir/print`` (unchanged files are left alone)."""
    return sheets.write_files(print_files(ps, cache, opts), out_dir / "print")
