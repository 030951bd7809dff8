"""Print outputs of a measured-table game (OHW Samurai, Sekigahara): counter sheets with every
unit's base *to scale* (so the sheets can be cut out and played on a real table), the reference
cards at 63 × 88 mm, and a scenario sheet per scenario (A4 landscape: the table as the VASSAL
setup places it, the sides, victory and notes), through the shared print machinery of
:mod:`pipeline.render.sheets` and the render cache.

A system supplies a :class:`PrintSet` (what to print) and calls :func:`print_files`; its
``printing`` module's ``write_print`` is the hook ``gunbai sheets`` calls.

Outputs (under ``build/<system>/print/``)::

    counters_a4.pdf, counters_letter.pdf   every unit (fronts, then mirrored backs), markers
    cards.pdf                              the reference cards with cut marks
    scenario_<id>.pdf                      one A4 landscape sheet per scenario
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from pipeline.measured.art import CounterSpec, counter_job, marker_job, table_job
from pipeline.render import sheets
from pipeline.render.cache import RenderCache, RenderJob
from pipeline.render.cards import Card
from pipeline.render.png import png_bytes
from pipeline.render.sheets import PrintOptions, SheetItem, decode_pngs, digest

MM_PER_INCH = 25.4
#: Printed card size (poker card), mm.
CARD_MM = (63.0, 88.0)
#: Scenario sheet (A4 landscape), mm, and the map box on it.
SHEET_MM = (297.0, 210.0)
MAP_BOX = (8.0, 27.0, 190.0)  # x, y, max width (mm); height follows the table, at most 172 mm
#: Pixels per mm of the scenario sheet PNG for VASSAL's chart window (297 mm → 1485 px).
SHEET_PNG_PX_PER_MM = 5.0
#: Diameter of a printed marker, mm.
MARKER_MM = 16.0


class Piece(Protocol):
    """Anything drawn on a scenario map: it gives its render job at a number of pixels per inch
    (its real size on the table)."""

    def job(self, ppi: float) -> RenderJob: ...


@dataclass
class Placement:
    """A piece on a scenario map: its counter (a :class:`CounterSpec` or any :class:`Piece`),
    centre ``x, y`` (inches) and ``facing`` (degrees clockwise from north)."""

    counter: Piece
    x: float
    y: float
    facing: float = 0.0


@dataclass
class ScenarioSheet:
    """What a scenario sheet says: the header, the map (``table`` context and ``units``), the
    text column (summary, victory, one block of lines per side, notes) and the source line."""

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
    return items, jobs


def map_picture(sheet: ScenarioSheet, width_px: int, cache: RenderCache) -> Image.Image:
    """The scenario's table ``width_px`` wide with every unit drawn at the same scale, turned to
    its facing and centred on its place, as in the VASSAL setup."""
    t = sheet.table["table"]
    ppi = width_px / t["width"]
    jobs = {"table": table_job(sheet.table, ppi)}
    for i, u in enumerate(sheet.units):
        jobs[f"u{i}"] = u.counter.job(ppi)
    imgs = decode_pngs(cache.render_all(jobs))
    canvas = imgs["table"].copy()
    for i, u in enumerate(sheet.units):
        im = imgs[f"u{i}"]
        if u.facing % 360:
            im = im.rotate(-u.facing, expand=True, resample=Image.Resampling.BICUBIC)
        canvas.alpha_composite(im, (round(u.x * ppi - im.width / 2), round(u.y * ppi - im.height / 2)))
    return canvas


def sheet_context(sheet: ScenarioSheet) -> dict[str, Any]:
    """Context of ``templates/measured/scenario_sheet.yaml.j2`` (millimetres)."""
    t = sheet.table["table"]
    x, y, max_w = MAP_BOX
    w = min(max_w, 172.0 * t["width"] / t["depth"])
    h = w * t["depth"] / t["width"]
    return {"sheet": {"width": SHEET_MM[0], "height": SHEET_MM[1]}, "map": {"x": x, "y": y, "w": round(w, 3), "h": round(h, 3)},
            "scenario": {"code": sheet.code, "name": sheet.name, "date": sheet.date, "system": sheet.system, "summary": sheet.summary,
                         "victory": sheet.victory, "notes": sheet.notes, "source": sheet.source},
            "sides": sheet.sides}


def scenario_png(sheet: ScenarioSheet, px_per_mm: float, cache: RenderCache) -> bytes:
    """The scenario sheet as PNG at ``px_per_mm``, cached by content."""
    ctx = sheet_context(sheet)
    job = RenderJob("measured/scenario_sheet.yaml.j2", ctx, size=(round(SHEET_MM[0] * px_per_mm), round(SHEET_MM[1] * px_per_mm)))
    box = ctx["map"]
    map_w = round(box["w"] * px_per_mm)
    t = sheet.table["table"]
    ppi = map_w / t["width"]
    key = digest("measured-scenario-sheet", cache.key(job), cache.key(table_job(sheet.table, ppi)),
                 [(cache.key(u.counter.job(ppi)), u.x, u.y, u.facing) for u in sheet.units])

    def make() -> bytes:
        base = Image.open(io.BytesIO(cache.png(f"scenario_{sheet.id}_base", job))).convert("RGBA")
        base.alpha_composite(map_picture(sheet, map_w, cache), (round(box["x"] * px_per_mm), round(box["y"] * px_per_mm)))
        return png_bytes(base)

    return cache.blob(f"scenario_{sheet.id}.png", key, make, ext="png")


def scenario_pngs(ps: PrintSet, cache: RenderCache) -> dict[str, bytes]:
    """Every scenario sheet as PNG for VASSAL's chart window, by image name."""
    return {f"scenario_{s.id}.png": scenario_png(s, SHEET_PNG_PX_PER_MM, cache) for s in ps.scenarios}


def print_files(ps: PrintSet, cache: RenderCache, opts: PrintOptions) -> dict[str, bytes]:
    """Every print PDF by file name: ``counters_a4.pdf``, ``counters_letter.pdf``, ``cards.pdf``,
    ``scenario_<id>.pdf``.

    Raises:
        ValueError: a counter does not fit the printable area.
    """
    items, jobs = counter_sheet(ps, opts)
    out = {}
    for paper in ("a4", "letter"):
        footer = f"{paper.upper()} · bases to scale (1 inch = 25.4 mm) · bleed {opts.bleed_mm:g} mm · {opts.dpi} dpi"
        out[f"counters_{paper}.pdf"] = sheets.counters_pdf(items, jobs, cache, paper, opts, title=f"{ps.title} counters", pdf_title=f"{ps.title} counters", footer=footer)
    spec = opts.spec("a4")
    scale = spec.px(CARD_MM[0]) / 600
    card_jobs = {n: c.job(scale) for n, c in ps.cards.items()}
    out["cards.pdf"] = sheets.cards_pdf(card_jobs, CARD_MM, {}, cache, "a4", opts, title=f"{ps.title} reference cards", pdf_title=f"{ps.title} reference cards", caption=ps.title)
    for s in ps.scenarios:
        png = scenario_png(s, opts.dpi / MM_PER_INCH, cache)
        out[f"scenario_{s.id}.pdf"] = sheets.sheet_pdf(png, SHEET_MM, cache, name=f"scenario_{s.id}.pdf", title=f"{s.code} {s.name}", heading=f"{s.code}  {s.name}")
    return out


def write_print(ps: PrintSet, out_dir: Path, cache: RenderCache, opts: PrintOptions) -> list[Path]:
    """Write :func:`print_files` into ``out_dir/print`` (unchanged files are left alone)."""
    return sheets.write_files(print_files(ps, cache, opts), out_dir / "print")

