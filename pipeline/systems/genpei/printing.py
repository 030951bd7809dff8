"""Genpei print outputs: counter sheets, reference cards and scenario sheets, as PDF (and the
scenario sheets also as PNG for VASSAL's chart window).

Everything is drawn by the same templates as the VASSAL images (:mod:`pipeline.systems.genpei.art`),
at print resolution, through the content-hash :class:`~pipeline.render.cache.RenderCache`, and
laid out by :mod:`pipeline.render.sheets`.

Outputs (under ``build/genpei/``)::

    print/counters_a4.pdf       every counter, `copies` of each (units and leaders in every
    print/counters_letter.pdf   army colour the scenarios use): front 1, back 1, front 2, back 2…
    print/cards.pdf             unit cards (63 × 88 mm, cut marks), terrain chart, naval summary
    print/scenario_<id>.pdf     one A4 landscape sheet per scenario
    cards/scenario_<id>.png     the same sheet for VASSAL's chart window

**Backs.** A unit's back is its army colour with its standard, abbreviation and Japanese name
and *no* figure count (Commands & Colours tracks losses by removing figures, so there is no
reduced side); a leader's back is the same on a disc. Terrain tiles and markers print the same
picture on both sides. The back pages mirror the front pages left to right, so duplex printing
flipped on the long edge puts every back behind its front.

**Sizes.** ``counter_mm`` is the width of a unit counter; leaders, markers and terrain tiles keep
their VASSAL proportions to it (:data:`art.UNIT_FRACTION` …), so a terrain hex is
``counter_mm / 0.66`` wide.

**Scenario sheets** place exactly what the VASSAL setup places: the map picture is the board with
every piece of :func:`pipeline.systems.genpei.module.placements` pasted on its hex.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from PIL import Image

from pipeline.render import sheets
from pipeline.render.cache import RenderCache, RenderJob, task_key
from pipeline.render.parallel import call_all_later, fork_map
from pipeline.render.sheets import (
    Page,
    PrintOptions,
    SheetItem,
    SheetSpec,
    digest,
    duplex,
    print_supersample,
    supersampled,
)
from pipeline.systems.genpei import art
from pipeline.systems.genpei.layout import HexLayout
from pipeline.systems.genpei.module import (
    armies_used,
    leader_key,
    marker_key,
    palisade_sets,
    placements,
    unit_key,
)

#: Default width of a printed unit counter, in mm (about an inch).
COUNTER_MM = 25.0
#: The default print settings (a unit counter of :data:`COUNTER_MM`).
DEFAULTS = PrintOptions(counter_mm=COUNTER_MM)
#: Printed unit card size, mm: 90 × 126 (the 600 × 840 card's proportions, four to an A4 page),
#: so that its texts reach the 7 pt floor (:data:`pipeline.systems.genpei.art.UNIT_CARD_PRINT_MM`).
UNIT_CARD_MM = (art.UNIT_CARD_PRINT_MM, round(art.UNIT_CARD_PRINT_MM * 1.4, 3))
#: Scenario sheet (A4 landscape), mm.
SCENARIO_SHEET_MM = (297.0, 210.0)
#: Pixels per mm of the scenario sheet PNG for VASSAL's chart window (297 mm → 1485 px).
SCENARIO_PNG_PX_PER_MM = 5.0
#: Supersampling of the scenario sheet drawing in the chart window PNG (its map picture keeps the
#: default): 1, none. The sheet is text, straight rules and a few rounded corners; FreeType
#: anti-aliases (and hints) text at any factor, so drawing the 1485 × 1050 px sheet at its own
#: size looks the same (text a little sharper, wrapped by its real pixel widths) and costs a
#: quarter of drawing 2970 × 2100 px and reducing it (0.32 s against 1.15 s for 30 sheets).
SCENARIO_PNG_SUPERSAMPLE = 1
#: Names of the system on sheets.
SYSTEM_NAME_JA = "源平合戦"


# ---------------------------------------------------------------------------------------------
# counter sheets


def _back_context(piece: Any, colours: Any, shape: str) -> dict[str, Any]:
    std = getattr(piece, "standard", None)
    return {
        "piece": {"name": piece.name, "name_ja": piece.name_ja, "abbreviation": piece.abbreviation, "standard": std, "colour_hex": art.STANDARD_HEX[piece.colour] if std else None},
        "shape": shape,
        "army": art._army(colours),
    }


def counter_sheet(data: Any, layout: HexLayout, opts: PrintOptions = DEFAULTS) -> tuple[list[SheetItem], dict[str, RenderJob]]:
    """The pieces of the counter sheets in print order (every copy) and the render job of every
    front and back image they name (print resolution).

    Order: for each army the scenarios use, its units then its leaders; then terrain tiles
    (a hexside terrain's copies spread over the Palisade hexside sets the scenarios use); then
    markers (an arrow marker pointing east)."""
    spec = opts.spec("a4")
    unit_mm = opts.counter_mm
    k = unit_mm / (layout.hex_width * art.UNIT_FRACTION)  # mm per layout pixel
    leader_mm = layout.hex_width * art.LEADER_FRACTION * k
    marker_mm = layout.hex_width * art.MARKER_FRACTION * k
    tile_w, tile_h = layout.hex_width * k, (layout.hex_height + 0.5) // 1 * k
    px_per_layout_px = spec.px(unit_mm) / (layout.hex_width * art.UNIT_FRACTION)
    jobs: dict[str, RenderJob] = {}
    items: list[SheetItem] = []

    for army in armies_used(data):
        colours = art._army_colours(data, army)
        for u in data.units.values():
            front, back = art.unit_image_name(u.id, army), "back_" + art.unit_image_name(u.id, army)
            jobs[front] = art.unit_job(u, colours, spec.px(unit_mm))
            jobs[back] = RenderJob("genpei/counter_back.yaml.j2", _back_context(u, colours, "square"), size=(spec.px(unit_mm),) * 2)
            items += [SheetItem(front, unit_mm, unit_mm, back)] * u.copies
        for ld in data.leaders.values():
            front, back = art.leader_image_name(ld.id, army), "back_" + art.leader_image_name(ld.id, army)
            jobs[front] = art.leader_job(ld, colours, spec.px(leader_mm))
            jobs[back] = RenderJob("genpei/counter_back.yaml.j2", _back_context(ld, colours, "round"), size=(spec.px(leader_mm),) * 2)
            items += [SheetItem(front, leader_mm, leader_mm, back)] * ld.copies
    ground = art.ground_colour(data)
    sets = palisade_sets(data)
    for t in data.terrain.values():
        variants = [tuple(s) for s in sets] if t.hexsides else [()]
        for i in range(t.copies):
            sides = variants[i % len(variants)]
            name = art.terrain_image_name(t.id, sides)
            if name not in jobs:
                jobs[name] = art.terrain_job(t, layout, sides, px_per_layout_px, ground)
            items.append(SheetItem(name, tile_w, tile_h, name))
    for m in data.markers.values():
        name = art.marker_image_name(m.id, "E" if m.symbol == "arrow" else None)
        if m.kind == "tile":
            jobs[name] = art.tile_marker_job(m, layout, px_per_layout_px)
            items += [SheetItem(name, tile_w, tile_h, name)] * m.copies
            continue
        jobs[name] = art.marker_job(m, spec.px(marker_mm), "E" if m.symbol == "arrow" else None)
        items += [SheetItem(name, marker_mm, marker_mm, name)] * m.copies
    return items, sheets.bled_jobs(items, supersampled(jobs, print_supersample(opts.dpi / 25.4)), opts)


_digest = digest
_decode = sheets.decode_pngs_shared  # read only: scenario_map copies the board before drawing on it

#: Title of the counter sheet pages.
COUNTERS_TITLE = f"Genpei {SYSTEM_NAME_JA} counters"


def counter_pages(items: list[SheetItem], spec: SheetSpec) -> tuple[list[Page], list[Page]]:
    """Front pages and mirrored back pages of ``items``."""
    return sheets.counter_pages(items, spec, COUNTERS_TITLE)


def print_order(items: list[SheetItem], spec: SheetSpec) -> list[Page]:
    """The pages of the counter sheet PDF in the order they are printed: front 1, back 1,
    front 2, back 2… (:func:`pipeline.render.sheets.duplex`)."""
    return duplex(*counter_pages(items, spec))


def counters_pdf(data: Any, layout: HexLayout, cache: RenderCache, paper: str, opts: PrintOptions = DEFAULTS, text: str = SYSTEM_NAME_JA) -> bytes:
    """The counter sheet PDF on ``paper`` (``a4`` or ``letter``) in duplex order: each front page
    followed by its (mirrored) back page, so a duplex print flipped on the long edge puts every
    back behind its front (:func:`pipeline.render.sheets.counters_pdf`)."""
    items, jobs = counter_sheet(data, layout, opts)
    footer = f"{paper.upper()} · unit counter {opts.counter_mm:g} mm · bleed {opts.bleed_mm:g} mm · {opts.dpi} dpi"
    return sheets.counters_pdf(items, jobs, cache, paper, opts, title=COUNTERS_TITLE, pdf_title="Genpei counters", footer=footer, text=text)


# ---------------------------------------------------------------------------------------------
# cards


def card_sheet_jobs(data: Any, spec: SheetSpec) -> tuple[dict[str, RenderJob], dict[str, RenderJob]]:
    """The render jobs of the cards PDF at ``spec``: the unit cards (63 × 88 mm) and the charts
    that each fill the printable width (terrain effects, naval summary)."""
    card_px = spec.px(UNIT_CARD_MM[0])
    unit_scale = card_px / art.UNIT_CARD_SIZE[0]
    width_px = spec.px(spec.size[0] - 2 * spec.margin_mm)
    chart_scale = width_px / art.TERRAIN_CHART_WIDTH
    naval_scale = width_px / art.NAVAL_CARD_SIZE[0]
    unit_jobs = {n: j for n, j in art.card_jobs(data, scale=unit_scale).items() if n.startswith("card_unit_")}
    charts = {n: j for n, j in art.card_jobs(data, scale=chart_scale).items() if n == art.card_image_name("terrain", "effects")}
    charts.update({n: j for n, j in art.card_jobs(data, scale=naval_scale).items() if n == art.card_image_name("naval", "summary")})
    ss = print_supersample(spec.dpi / 25.4)
    return supersampled(unit_jobs, ss), supersampled(charts, ss)


def cards_pdf(data: Any, cache: RenderCache, paper: str = "a4", opts: PrintOptions = DEFAULTS, text: str = SYSTEM_NAME_JA) -> bytes:
    """The reference cards PDF of vector pages (:func:`pipeline.render.sheets.cards_pdf`): unit
    cards at 63 × 88 mm with cut marks, then the terrain effects chart and the naval summary,
    each on its own page fitted to the printable area."""
    unit_jobs, charts = card_sheet_jobs(data, opts.spec(paper))
    return sheets.cards_pdf(unit_jobs, UNIT_CARD_MM, charts, cache, paper, opts, title=f"Genpei {SYSTEM_NAME_JA} unit cards",
                            pdf_title="Genpei reference cards", caption=f"Genpei {SYSTEM_NAME_JA}", name=f"cards_{paper}.pdf", text=text)


# ---------------------------------------------------------------------------------------------
# scenario sheets


#: Widths the scenario sheet's map may take, in mm, widest first (184 leaves two lines under
#: it; 112, 10.8 mm hexes, the least): the map is the widest of them that leaves its side lists
#: and the right column room for their text at full size (steps of 4 mm, not any width, so
#: the 30 sheets share the map art of a few sizes: 4 for the pack's 30).
SCENARIO_MAP_WIDTHS_MM = tuple(float(w) for w in range(184, 111, -4))
#: Text sizes on the scenario sheet (em, mm): the side lists' items, the right column's body,
#: its headings, its summary, and the source note that closes it.
SHEET_SIZES = {"side": 2.9, "body": 3.0, "heading": 3.8, "summary": 3.1, "note": 2.6}
#: The scenario sheet's frame: left and top of the map box, gaps and margins, in mm.
SHEET_MAP_X, SHEET_MAP_Y, SHEET_GAP, SHEET_MARGIN = 8.0, 27.0, 4.0, 8.0
RED = "#7a1f14"
#: The characters beyond ASCII the sheet's own words use (bullets, the times sign, the middle
#: dot of a side's start), for the PDF font subset (:func:`print_text`).
SHEET_MARKS = "•◆×·"


def _side_items(side: dict[str, Any]) -> list[dict[str, Any]]:
    """The paragraphs items of a side's list under the map: its start, then its units and its
    leaders, one a line."""
    size = SHEET_SIZES["side"]
    items = [{"text": side["line"], "size": size}]
    for f in side["forces"]:
        ja = f" {f['name_ja']}" if f["name_ja"] else ""
        items.append({"text": f"{f['count']} × {f['name']}{ja} ({f['abbreviation']})", "size": size, "bullet": "•", "indent": 3})
    items += [{"text": f"{ld['count']} × {ld['name']}", "size": size, "bullet": "◆", "indent": 3, "colour": RED} for ld in side["leaders"]]
    return items


def _right_items(sc: dict[str, Any]) -> list[dict[str, Any]]:
    """The paragraphs items of the right column: the summary, victory, special rules and the
    source note."""
    body, head = SHEET_SIZES["body"], SHEET_SIZES["heading"]
    items: list[dict[str, Any]] = [{"text": sc["summary"], "size": SHEET_SIZES["summary"], "colour": "#3b2a1a"}] if sc["summary"] else []
    items.append({"text": "Victory", "size": head, "bold": True, "colour": RED, "space_before": 3 if items else 0})
    items.append({"text": "Victory banners: not public." if sc["banners"] == "unknown" else f"{sc['banners']} victory banners win.", "size": body, "bullet": "•", "indent": 3})
    items += [{"text": r, "size": body, "bullet": "•", "indent": 3, "space_before": 1} for r in sc["victory_rules"]]
    items.append({"text": "Special rules", "size": head, "bold": True, "colour": RED, "space_before": 3})
    if sc["wind_tide"]:
        items.append({"text": sc["wind_tide"], "size": body, "bullet": "•", "indent": 3})
    items += [{"text": r, "size": body, "bullet": "•", "indent": 3, "space_before": 1} for r in sc["special_rules"]]
    if not sc["special_rules"] and not sc["wind_tide"]:
        items.append({"text": "None." if sc["rules_known"] else "Not known from the public text.", "size": body})
    if sc["provenance"]:
        items.append({"text": sc["provenance"], "size": SHEET_SIZES["note"], "colour": "#6b5a40", "space_before": 4})
    return items


def _min_scale(items: list[dict[str, Any]]) -> float:
    """The least scale a paragraphs block of ``items`` may shrink to with no item under
    :data:`~pipeline.render.legible.MIN_PRINT_PT` (sizes in mm)."""
    from pipeline.render.legible import MIN_PRINT_PT, PT_PER_MM

    return min(1.0, round(max(MIN_PRINT_PT / PT_PER_MM / it["size"] for it in items) + 0.005, 3))


#: The side's name on its bar under the map: its size and the least it may shrink to (mm).
SIDE_NAME_MM, SIDE_NAME_MIN_MM = 3.4, 2.5


def sheet_layout(board_size: tuple[int, int], side_items: list[list[dict[str, Any]]], right_items: list[dict[str, Any]],
                 side_names: list[str] = ()) -> dict[str, Any]:
    """Where the scenario sheet puts its parts, in mm of the A4 landscape sheet: the widest map
    of :data:`SCENARIO_MAP_WIDTHS_MM` (its height from ``board_size``, pixels) that leaves the
    side lists under it (``side_items``, one list per side, in two columns as wide as the map)
    and the right column beside it (``right_items``) room for their text at full size
    (:func:`pipeline.render.drawing.paragraphs_height`); the narrowest when none does (the text
    then shrinks, never under 7 pt: the fit checks refuse what still overflows). A width whose
    side columns cannot hold a side's name (``side_names``, on its bar) at its smallest size is
    never taken while a wider one can. Returns
    ``{map: {x, y, w, h}, side_box: {y, h, column}, right: {x, y, w, h}}`` (``side_box.y``:
    the top of the sides' name bars; their lists start 7.5 mm lower and are ``h`` high).

        >>> lay = sheet_layout((1056, 876), [[{"text": "1 × Samurai", "size": 2.9}]] * 2, [{"text": "Short.", "size": 3}])
        >>> lay["map"]["w"], lay["right"]["x"]
        (184.0, 199.0)
    """
    from pipeline.render.drawing import paragraphs_height, text_length

    W, H = SCENARIO_SHEET_MM
    bw, bh = board_size
    longest = max((text_length(n, round(SIDE_NAME_MIN_MM * 8), True) / 8 for n in side_names), default=0.0)
    widths = [w for w in SCENARIO_MAP_WIDTHS_MM if longest <= (w - SHEET_GAP) / 2 - 4] or list(SCENARIO_MAP_WIDTHS_MM[:1])
    for map_w in widths:
        map_h = map_w * bh / bw
        side_y = SHEET_MAP_Y + map_h + SHEET_GAP
        side_h = H - side_y - 7.5 - 6.5
        column = (map_w - SHEET_GAP) / 2
        rx = SHEET_MAP_X + map_w + 7
        right = {"x": rx, "y": SHEET_MAP_Y, "w": W - rx - SHEET_MARGIN, "h": H - SHEET_MAP_Y - SHEET_MARGIN}
        fits = all(paragraphs_height(items, column - 2) <= side_h for items in side_items) and paragraphs_height(right_items, right["w"]) <= right["h"]
        if fits:
            break
    return {"map": {"x": SHEET_MAP_X, "y": SHEET_MAP_Y, "w": map_w, "h": round(map_h, 4)},
            "side_box": {"y": round(side_y, 4), "h": round(side_h, 4), "column": column}, "right": right}


def scenario_context(data: Any, layout: HexLayout, loaded: Any) -> dict[str, Any]:
    """Context of ``genpei/scenario_sheet.yaml.j2`` (millimetre units, A4 landscape): the
    scenario and its sides, each side's list and the right column as paragraphs items
    (``side.lines``, ``right_items``) with the least scale each may shrink to at 7 pt
    (``side_min_scale``, ``right_min_scale``), and where the parts go (:func:`sheet_layout`)."""
    sc = loaded.scenario
    W, H = SCENARIO_SHEET_MM
    sides = []
    for side in sc.sides:
        forces: dict[str, int] = {}
        leaders: dict[str, int] = {}
        for up in sc.units:
            if up.side == side.id:
                forces[up.unit] = forces.get(up.unit, 0) + 1
                if up.leader:
                    leaders[up.leader] = leaders.get(up.leader, 0) + 1
        for lp in sc.leaders:
            if lp.side == side.id:
                leaders[lp.leader] = leaders.get(lp.leader, 0) + 1
        sides.append({
            "id": side.id, "name": f"{side.army.capitalize()} army (name not public)" if side.name == "unknown" else side.name,
            "army": art._army(art._army_colours(data, side.army)), "edge": side.edge,
            "command_cards": side.command_cards, "dragon_cards": side.dragon_cards, "honour_fortune": side.honour_fortune,
            "line": _side_line(side),
            "first": side.id == sc.first_player,
            "forces": [{"abbreviation": data.units[u].abbreviation, "name": data.units[u].name, "name_ja": data.units[u].name_ja, "count": n} for u, n in forces.items()],
            "leaders": [{"name": data.leaders[ld].name, "count": n} for ld, n in leaders.items()],
        })
    for side in sides:
        side["lines"] = _side_items(side)
    wind = None
    if sc.wind_tide is not None:
        wind = "Wind and tide push " + ", ".join(sc.wind_tide.directions) + " (arrow on the map)."
    scenario = {
        "code": sc.code, "name": sc.title.removeprefix(sc.code + " "), "date": "date not public" if sc.date == "unknown" else sc.date,
        "rules_known": bool(sc.special_rules) or sc.map != "not public", "summary": " ".join(sc.summary.split()),
        "first_player": sc.first_player, "naval": sc.naval, "wind_tide": wind, "banners": sc.victory.banners,
        "victory_rules": [" ".join(r.summary.split()) for r in sc.victory.rules],
        "special_rules": [" ".join(r.summary.split()) for r in sc.special_rules],
        "map": sc.map, "provenance": _provenance(sc),
    }
    right = _right_items(scenario)
    names = [s["name"] + (" (moves first)" if s["first"] else "") for s in sides]
    lay = sheet_layout(layout.size, [s["lines"] for s in sides], right, names)
    return {
        "sheet": {"width": W, "height": H},
        **lay,
        "scenario": scenario,
        "sides": sides,
        "side_min_scale": min((_min_scale(s["lines"]) for s in sides), default=1.0),
        "right_items": right,
        "right_min_scale": _min_scale(right),
        "system": {"name": data.system.name, "name_ja": SYSTEM_NAME_JA},
    }


def _count(value: Any, what: str) -> str:
    return f"{what}: not public" if value == "unknown" else f"{value} {what}"


def _side_line(side: Any) -> str:
    """The side's start on the sheet; a value no public text gives reads "not public"."""
    edge = "Board edge not public" if side.edge == "unknown" else f"From the {side.edge} edge"
    return " · ".join([edge, _count(side.command_cards, "Command cards"), _count(side.dragon_cards, "Dragon cards"),
                       _count(side.honour_fortune, "Honour & Fortune tokens")])


def _provenance(sc: Any) -> str:
    """The sheet's footnote: where the map and set-up come from (``Scenario.map``)."""
    if sc.map == "not public":
        return ("Map not public: the designer published it only as a picture. Import a VASSAL setup of it "
                "(gunbai import) to complete and play this scenario.")
    if sc.map == "entered" and sc.map_source is not None:
        return f"Set-up entered in gunbai edit from a picture of the map ({sc.map_source.doc}, {sc.map_source.section})."
    if sc.reconstruction is not None:
        prefix = "Map and set-up reconstructed by gunbai: " if sc.map == "reconstructed" or not sc.reconstruction.map_known else ""
        return prefix + " ".join(sc.reconstruction.note.split())
    if sc.map == "imported":
        return "Set-up imported from a VASSAL setup (gunbai import)."
    return ""


#: Offsets (in hex widths) of stacked pieces on the scenario map, so a leader or marker on a
#: unit's hex stays visible: a leader's centre on the unit's top-right corner (where the VASSAL
#: setup shows it, :func:`~pipeline.systems.genpei.module.leader_stack_metrics`), markers to the
#: upper left. Tile markers (a tent) lie centred under the unit.
STACK_OFFSET = {"leader": (art.UNIT_FRACTION / 2, -art.UNIT_FRACTION / 2), "marker": (-0.24, -0.26)}


def map_pieces(data: Any, layout: HexLayout, loaded: Any) -> list[tuple[str, str, float, float]]:
    """``(image name, placement key, x, y)`` of every piece on the scenario map at scale 1 (layout
    pixels), from :func:`~pipeline.systems.genpei.module.placements`, in drawing order: the
    centre of the image, with stacked leaders and markers offset."""
    names: dict[str, str] = {}
    for army in data.system.armies:
        for u in data.units.values():
            names[unit_key(u.id, army)] = art.unit_image_name(u.id, army)
        for ld in data.leaders.values():
            names[leader_key(ld.id, army)] = art.leader_image_name(ld.id, army)
    for m in data.markers.values():
        names[marker_key(m.id)] = art.marker_image_name(m.id)
    out = []
    for p in placements(data, layout, loaded):
        kind = p.key.split(":")[0]
        if kind == "terrain":
            parts = p.key.split(":")
            sides = tuple(parts[2].split("-")) if len(parts) > 2 else ()
            name = art.terrain_image_name(parts[1], sides)
        elif kind == "marker" and p.layer_value is not None:
            from pipeline.systems.genpei.layout import DIRECTIONS

            name = art.marker_image_name(p.key.split(":")[1], DIRECTIONS[p.layer_value - 1])
        else:
            name = names[p.key]
        is_tile = kind == "marker" and data.markers[p.key.split(":")[1]].kind == "tile"
        dx, dy = (0.0, 0.0) if is_tile else STACK_OFFSET.get(kind, (0.0, 0.0))
        out.append((name, p.key, p.x + dx * layout.hex_width, p.y + dy * layout.hex_width))
    return out


def map_jobs(data: Any, layout: HexLayout, loaded: Any, width_px: int, supersample: int | None = None) -> tuple[dict[str, RenderJob], list[tuple[str, str, float, float]], float]:
    """The render jobs of the scenario map picture ``width_px`` wide (the board and each image a
    placement uses, at the same scale, drawn with ``supersample``), the pieces
    (:func:`map_pieces`) and the scale. The board and counter jobs are made once per process
    for the same data, layout and width (:func:`_map_art`)."""
    scale = width_px / layout.size[0]
    board_name, board, counters = _map_art(data, layout, width_px)
    jobs = {board_name: board}
    pieces = map_pieces(data, layout, loaded)
    needed = {n for n, *_ in pieces}
    jobs.update({n: j for n, j in counters.items() if n in needed})
    return supersampled(jobs, supersample), pieces, scale


#: The board job and every counter job of the scenario maps ``width_px`` wide, by
#: ``(id(data), id(layout), width_px)``: each value keeps its ``data`` and ``layout`` (so
#: their ids are not reused while it is kept) and is used only for those very objects.
_map_arts: dict[tuple, tuple] = {}
#: How many map sizes are kept before the memo starts again.
MAP_ART_MEMO = 8


def _map_art(data: Any, layout: HexLayout, width_px: int) -> tuple[str, RenderJob, dict[str, RenderJob]]:
    """``(board image name, board job, every counter job)`` of a scenario map ``width_px`` wide
    (:func:`map_jobs`), made once per process for the same data, layout and width: they depend
    on neither the scenario nor its pieces, and making them (every hex's corners, every counter's
    context) cost about 8 ms for each of the 30 scenario sheets, twice per sheet (its PDF and its
    chart window picture). The jobs are shared: callers must not change them."""
    key = (id(data), id(layout), width_px)
    memo = _map_arts.get(key)
    if memo is not None and memo[0] is data and memo[1] is layout:
        return memo[2]
    scale = width_px / layout.size[0]
    w, h = layout.size
    board_name = art.board_image_name(data.board.id)
    board = RenderJob("genpei/board.yaml.j2", art.board_context(data.board, layout), size=(round(w * scale), round(h * scale)))
    counters = art.counter_jobs(data, layout, armies_used(data), palisade_sets(data), scale=scale)
    if len(_map_arts) >= MAP_ART_MEMO:
        _map_arts.clear()
    _map_arts[key] = (data, layout, (board_name, board, counters))
    return board_name, board, counters


def scenario_map(data: Any, layout: HexLayout, loaded: Any, width_px: int, cache: RenderCache, supersample: int | None = None) -> Image.Image:
    """The scenario's map picture, ``width_px`` wide: the board and every placed piece drawn at
    the same scale, each piece centred on its hex as in the VASSAL setup."""
    jobs, pieces, scale = map_jobs(data, layout, loaded, width_px, supersample)
    images = _decode(cache.render_all(jobs))
    return _map_picture(images, art.board_image_name(data.board.id), [(name, x * scale, y * scale) for name, _key, x, y in pieces],
                        loaded.scenario.map == "not public")


def _map_picture(images: dict[str, Image.Image], board: str, pieces: list[tuple[str, float, float]], not_public: bool) -> Image.Image:
    """A copy of ``images[board]`` with each piece ``(image name, x, y)`` centred on ``(x, y)``
    px, veiled when ``not_public`` (:func:`_not_public`)."""
    canvas = images[board].copy()
    for name, x, y in pieces:
        im = images[name]
        canvas.alpha_composite(im, (round(x - im.width / 2), round(y - im.height / 2)))
    if not_public:
        _not_public(canvas)
    return canvas


def _not_public(canvas: Image.Image) -> None:
    """Veil an empty board and say why it is empty: the scenario's map is only a picture."""
    from PIL import ImageDraw

    from pipeline.render.fonts import font

    veil = Image.new("RGBA", canvas.size, (244, 236, 216, 150))
    canvas.alpha_composite(veil)
    draw = ImageDraw.Draw(canvas)
    big, small = font(max(12, canvas.width // 16), bold=True), font(max(8, canvas.width // 40))
    cx, cy = canvas.width / 2, canvas.height / 2
    draw.text((cx, cy - canvas.width / 40), "Map not public", font=big, fill=(59, 42, 26, 255), anchor="mm")
    draw.text((cx, cy + canvas.width / 22), "import a VASSAL setup of it with gunbai import", font=small, fill=(59, 42, 26, 255), anchor="mm")


def scenario_sheet_jobs(data: Any, layout: HexLayout, loaded: Any, px_per_mm: float) -> dict[str, RenderJob]:
    """Every image the scenario sheet at ``px_per_mm`` is made of: the sheet itself (``sheet``)
    and the board and pieces of its map (by image name). The ``sheet`` is drawn straight into
    the composed sheet (:func:`_sheet_parts`), never cached as a PNG of its own: it is used once,
    and at 300 DPI (8.7 Mpx) encoding and decoding its PNG cost 5 times its drawing; the pre-draw
    lists use :func:`map_image_jobs`."""
    ctx = scenario_context(data, layout, loaded)
    W, H = SCENARIO_SHEET_MM
    ss = print_supersample(px_per_mm)
    jobs, _pieces, _ = map_jobs(data, layout, loaded, round(ctx["map"]["w"] * px_per_mm), ss)
    return {**supersampled({"sheet": RenderJob("genpei/scenario_sheet.yaml.j2", ctx, size=(round(W * px_per_mm), round(H * px_per_mm)))}, ss), **jobs}


def map_image_jobs(data: Any, layout: HexLayout, loaded: Any, px_per_mm: float) -> dict[str, RenderJob]:
    """The jobs of :func:`scenario_sheet_jobs` that go through the render cache: the board and
    pieces of the map (shared by scenarios and drawn at once on every core), not the sheet."""
    return {n: j for n, j in scenario_sheet_jobs(data, layout, loaded, px_per_mm).items() if n != "sheet"}


def _sheet_parts(data: Any, layout: HexLayout, loaded: Any, px_per_mm: float, cache: RenderCache, sheet_supersample: int | None = None):
    ctx = scenario_context(data, layout, loaded)
    W, H = SCENARIO_SHEET_MM
    ss = print_supersample(px_per_mm)
    job = supersampled({"sheet": RenderJob("genpei/scenario_sheet.yaml.j2", ctx, size=(round(W * px_per_mm), round(H * px_per_mm)))}, ss)["sheet"]
    if sheet_supersample is not None:
        job = replace(job, supersample=sheet_supersample)
    box = ctx["map"]
    map_w = round(box["w"] * px_per_mm)
    jobs, pieces, _ = map_jobs(data, layout, loaded, map_w, ss)
    key = _digest("scenario-sheet", cache.key(job), [(n, k, round(x, 3), round(y, 3)) for n, k, x, y in pieces], {n: cache.key(j) for n, j in sorted(jobs.items())},
                  loaded.scenario.map)

    def image() -> Image.Image:
        sheet = job.render(cache.renderer)  # drawn here, not cached: see scenario_sheet_jobs
        picture = scenario_map(data, layout, loaded, map_w, cache, ss)
        sheet.alpha_composite(picture, (round(box["x"] * px_per_mm), round(box["y"] * px_per_mm)))
        return sheet

    return key, image


def scenario_sheet(data: Any, layout: HexLayout, loaded: Any, px_per_mm: float, cache: RenderCache) -> bytes:
    """The scenario sheet as PNG at ``px_per_mm``: the template drawing (drawn at
    :data:`SCENARIO_PNG_SUPERSAMPLE`) with the map pasted in."""
    from pipeline.render.png import png_bytes

    key, image = _sheet_parts(data, layout, loaded, px_per_mm, cache, SCENARIO_PNG_SUPERSAMPLE)
    return cache.blob(f"scenario_{loaded.scenario.id}.png", key, lambda: png_bytes(image()), ext="png")


def scenario_png_name(loaded: Any) -> str:
    """Image name of a scenario sheet in the chart window: ``scenario_<id>.png``."""
    return f"scenario_{loaded.scenario.id}.png"


def scenario_layers(data: Any, layout: HexLayout, loaded: Any, px_per_mm: float, cache: RenderCache):
    """``(key, layers)`` of the vector scenario sheet: ``layers()`` gives the drawings of the
    page in order as ``(Drawing, (x, y, w, h) mm)``: the sheet template filling the page, the
    board in the map box, every placed piece on its hex (centred where :func:`scenario_map`
    pastes its picture, at the size of that picture at ``px_per_mm``), and the veil of a map
    that is not public. ``key`` is their content hash (the drawings' YAML and the pieces)."""
    from pipeline.render.drawing import pixel_size

    ctx = scenario_context(data, layout, loaded)
    W, H = SCENARIO_SHEET_MM
    job = RenderJob("genpei/scenario_sheet.yaml.j2", ctx, size=(round(W * px_per_mm), round(H * px_per_mm)))
    box = ctx["map"]
    jobs, pieces, scale = map_jobs(data, layout, loaded, round(box["w"] * px_per_mm))
    board_name = art.board_image_name(data.board.id)
    r = cache.renderer
    sheet_text = r.render_yaml(job.template, job.context)
    texts = {n: r.render_yaml(j.template, j.context) for n, j in sorted(jobs.items())}
    key = _digest("scenario-vector", sheet_text, [(n, round(x, 3), round(y, 3)) for n, _k, x, y in pieces],
                  {n: [j.template, texts[n], j.size, j.scale] for n, j in sorted(jobs.items())}, loaded.scenario.map, px_per_mm)

    def layers() -> list:
        drawings = {n: sheets.text_drawing(cache, texts[n], j.template) for n, j in jobs.items()}
        sizes = {n: jobs[n].size or pixel_size(d, scale=jobs[n].scale or 1.0) for n, d in drawings.items()}
        bw, bh = sizes[board_name]
        out = [(sheets.text_drawing(cache, sheet_text, job.template), (0.0, 0.0, W, H)), (drawings[board_name], (box["x"], box["y"], bw / px_per_mm, bh / px_per_mm))]
        for name, _key, x, y in pieces:
            w, h = sizes[name]
            out.append((drawings[name], (box["x"] + (x * scale - w / 2) / px_per_mm, box["y"] + (y * scale - h / 2) / px_per_mm, w / px_per_mm, h / px_per_mm)))
        if loaded.scenario.map == "not public":
            out.append((_veil(bw, bh), (box["x"], box["y"], bw / px_per_mm, bh / px_per_mm)))
        return out

    return key, layers


@lru_cache(maxsize=8)
def _veil(bw: int, bh: int):
    """The veil and words of :func:`_not_public` as a drawing over a ``bw × bh`` px map picture
    (its pixels): one object per size and process, so the 28 sheets without a public map share
    it (and its vector operators, :func:`pipeline.render.vector.draw_pdf`). Shared: callers
    must not change it."""
    from pipeline.render.drawing import parse_drawing

    big, small = max(12, bw // 16), max(8, bw // 40)
    return parse_drawing({"canvas": {"width": bw, "height": bh}, "shapes": [
        {"rect": {"x": 0, "y": 0, "w": bw, "h": bh, "fill": "#f4ecd896"}},
        {"text": {"x": bw / 2, "y": bh / 2 - bw / 40, "text": "Map not public", "size": big, "bold": True, "colour": "#3b2a1a", "anchor": "mm"}},
        {"text": {"x": bw / 2, "y": bh / 2 + bw / 22, "text": "import a VASSAL setup of it with gunbai import", "size": small, "colour": "#3b2a1a", "anchor": "mm"}},
    ]}, source="scenario map veil")


def scenario_pdf(data: Any, layout: HexLayout, loaded: Any, cache: RenderCache, opts: PrintOptions = DEFAULTS, text: str = SYSTEM_NAME_JA) -> bytes:
    """The scenario sheet as a one-page A4 landscape PDF of vector content
    (:func:`pipeline.render.sheets.vector_pdf`): the sheet template, the board and every piece
    drawn as paths and real text, laid out as the ``opts.dpi`` raster sheet
    (:func:`scenario_sheet`) lays them out, with no image. ``text``: the characters of the
    font subset (:func:`print_text`)."""
    key, layers = scenario_layers(data, layout, loaded, opts.dpi / 25.4, cache)
    sc = loaded.scenario
    return sheets.vector_pdf(key, layers, SCENARIO_SHEET_MM, cache, name=f"scenario_{sc.id}.pdf", title=sc.title, text=text,
                             layout_px_per_mm=opts.dpi / 25.4)


# ---------------------------------------------------------------------------------------------
# everything


def scenario_pngs(data: Any, layout: HexLayout, cache: RenderCache) -> dict[str, bytes]:
    """Every scenario sheet PNG for the chart window, by image name: their images drawn at once
    on every core, then the sheets not in the cache composed on the drawing processes
    (:func:`pipeline.render.parallel.call_all`: no process forked for them; each reads the board
    and pieces back from the render cache, decoding each once). The same bytes as
    :func:`scenario_sheet`. Without a cache folder the sheets are composed in forked processes
    (:func:`pipeline.render.parallel.fork_map`)."""
    return scenario_pngs_later(data, layout, cache)()()


def scenario_pngs_later(data: Any, layout: HexLayout, cache: RenderCache) -> Callable[[], Callable[[], dict[str, bytes]]]:
    """:func:`scenario_pngs` in three steps, so that the calling process works meanwhile (a
    build packs its module): this call renders the sheets' templates, sends their map images
    to the drawing processes (:meth:`~pipeline.render.cache.RenderCache.render_all_later`) and
    returns ``compose``; ``compose()`` waits for the map images (they are in the render cache
    then), sends the sheets not in the cache to the drawing processes
    (:func:`pipeline.render.parallel.call_all_later`) and returns ``wait``; ``wait()`` gives
    the PNGs by image name, the same bytes as :func:`scenario_pngs`. Without a cache folder
    ``compose()`` makes the sheets in forked processes (:func:`pipeline.render.parallel.fork_map`).

    Raises:
        RenderError: a template (here) or a drawing (by ``compose`` or ``wait``) is invalid.
    """
    px = SCENARIO_PNG_PX_PER_MM
    if cache.folder is None:
        def compose_forked() -> Callable[[], dict[str, bytes]]:
            cache.render_all({f"{s.scenario.id}/{n}": j for s in data.scenarios for n, j in map_image_jobs(data, layout, s, px).items()})
            made = fork_map({scenario_png_name(s): partial(scenario_sheet, data, layout, s, px, cache) for s in data.scenarios})
            return lambda: made

        return compose_forked
    parts = {scenario_png_name(s): _chart_sheet_parts(data, layout, s, px) for s in data.scenarios}
    wait_maps = cache.render_all_later({f"{s.scenario.id}/{n}": j for s, (_ctx, jobs, _pieces, _scale) in zip(data.scenarios, parts.values(), strict=True)
                                        for n, j in jobs.items()})
    keys: dict[str, str] = {}
    args: dict[str, tuple] = {}
    job_keys: dict[str, tuple[RenderJob, str]] = {}  # image name -> (job, cache key): one board, the same pieces, for every scenario
    for s, (name, part) in zip(data.scenarios, parts.items(), strict=True):
        keys[name], args[name] = _chart_sheet_key_and_args(data, s, px, cache, part, job_keys)

    def compose() -> Callable[[], dict[str, bytes]]:
        wait_maps()  # every map image is in the render cache now, where compose_sheet_png reads it
        calls = {name: a for name, a in args.items() if cache.cached_blob(keys[name], "png") is None}
        wait_made = call_all_later(compose_sheet_png, list(calls.values()))

        def wait() -> dict[str, bytes]:
            made = dict(zip(calls, wait_made(), strict=True))
            return {name: cache.blob(name, key, partial(made.__getitem__, name), ext="png") for name, key in keys.items()}

        return wait

    return compose


def _chart_sheet_parts(data: Any, layout: HexLayout, loaded: Any, px_per_mm: float) -> tuple[dict[str, Any], dict[str, RenderJob], list, float]:
    """The chart window sheet of ``loaded`` at ``px_per_mm``: its template context, the jobs of
    its map picture (:func:`map_jobs`, as :func:`map_image_jobs` gives them), the pieces and the
    scale, each made once (:func:`_sheet_parts` makes them again for one sheet)."""
    ctx = scenario_context(data, layout, loaded)
    jobs, pieces, scale = map_jobs(data, layout, loaded, round(ctx["map"]["w"] * px_per_mm), print_supersample(px_per_mm))
    return ctx, jobs, pieces, scale


def _chart_sheet_key_and_args(data: Any, loaded: Any, px_per_mm: float, cache: RenderCache, part: tuple, job_keys: dict[str, tuple[RenderJob, str]]) -> tuple[str, tuple]:
    """The render cache key of the chart window sheet of ``loaded`` (that of :func:`_sheet_parts`
    with :data:`SCENARIO_PNG_SUPERSAMPLE`) and the arguments of :func:`compose_sheet_png` for it
    from its :func:`_chart_sheet_parts` ``part``: the sheet's
    template rendered once for both, and each map image's key computed once for all scenarios
    (``job_keys``: image name → (job, key), reused for an equal job)."""
    ctx, jobs, pieces, scale = part
    W, H = SCENARIO_SHEET_MM
    box = ctx["map"]
    ss = print_supersample(px_per_mm)
    sheet = RenderJob("genpei/scenario_sheet.yaml.j2", ctx, size=(round(W * px_per_mm), round(H * px_per_mm)))
    job = replace(supersampled({"sheet": sheet}, ss)["sheet"], supersample=SCENARIO_PNG_SUPERSAMPLE)
    task = job.task(cache.renderer)
    image_keys = {}
    for n, j in jobs.items():
        known = job_keys.get(n)
        if known is None or known[0] != j:
            known = job_keys[n] = (j, cache.key(j))
        image_keys[n] = known[1]
    key = _digest("scenario-sheet", task_key(cache._engine, task), [(n, k, round(x, 3), round(y, 3)) for n, k, x, y in pieces],
                  {n: image_keys[n] for n in sorted(jobs)}, loaded.scenario.map)
    assert cache.folder is not None
    files = {n: str(cache.folder / f"{k}.png") for n, k in image_keys.items()}
    placed = [(files[name], x * scale, y * scale) for name, _key, x, y in pieces]
    args = (task.text, sheet.template, sheet.size, SCENARIO_PNG_SUPERSAMPLE, files[art.board_image_name(data.board.id)], placed,
            (round(box["x"] * px_per_mm), round(box["y"] * px_per_mm)), loaded.scenario.map == "not public")
    return key, args


def compose_sheet_png(text: str, source: str, size: tuple[int, int], supersample: int, board: str, pieces: list[tuple[str, float, float]],
                      at: tuple[int, int], not_public: bool) -> bytes:
    """A chart window scenario sheet as PNG, composed in a drawing process: the sheet drawing
    (YAML ``text`` of template ``source``) drawn at ``size`` px with ``supersample``; the map
    picture: the ``board`` PNG (a render cache file) with each piece PNG ``(file, x, y)`` centred
    on ``(x, y)`` px (:func:`scenario_map`; veiled when ``not_public``), pasted at ``at``.

    Raises:
        RenderError: the sheet drawing is invalid. OSError: a cache file is missing.
    """
    from pipeline.render.drawing import draw
    from pipeline.render.png import png_bytes
    from pipeline.render.templates import parse_drawing_text

    sheet = draw(parse_drawing_text(text, source), size, supersample=supersample)
    sheet.alpha_composite(_chart_map_picture(board, pieces, not_public), at)
    return png_bytes(sheet)


_chart_maps: dict[tuple, Image.Image] = {}
#: Most map pictures :func:`_chart_map_picture` keeps per process (one is 0.9 Mpx RGBA).
CHART_MAP_MEMO = 8


def _chart_map_picture(board: str, pieces: list[tuple[str, float, float]], not_public: bool) -> Image.Image:
    """The map picture of :func:`compose_sheet_png` (:func:`_map_picture` of the render cache
    files ``board`` and ``pieces``). A picture made before in this process from the same files
    and positions is the same object: the 28 Genpei scenarios whose map is not public all show
    the same veiled empty board, made once per process instead of once per sheet. Render cache
    files are named by the hash of their content, so the same names are the same pictures.
    Shared: callers must not change it."""
    key = (board, tuple(pieces), not_public)
    picture = _chart_maps.get(key)
    if picture is None:
        files = [board, *dict.fromkeys(f for f, _x, _y in pieces)]
        images = _decode({f: Path(f).read_bytes() for f in files})
        if len(_chart_maps) >= CHART_MAP_MEMO:
            _chart_maps.clear()
        picture = _chart_maps[key] = _map_picture(images, board, pieces, not_public)
    return picture


def print_jobs(data: Any, layout: HexLayout, opts: PrintOptions = DEFAULTS) -> dict[str, RenderJob]:
    """Every image the print PDFs are made of (keys ``<file>/<image>``): the counters. The
    scenario sheets and cards are vector pages (:func:`scenario_pdf`, :func:`cards_pdf`) and
    need no image."""
    _items, counter_jobs = counter_sheet(data, layout, opts)
    return {f"counters/{n}": j for n, j in counter_jobs.items()}


def print_text(data: Any, templates: Path | None = None) -> str:
    """Every character beyond ASCII the print files can show, sorted, each once: those of the
    system's Japanese name, of every unit, leader, marker, terrain and scenario of ``data`` (all
    their fields), and of the ``genpei`` and ``common`` templates under ``templates``. One PDF
    font subset of these serves every print file of the build (cut once, :func:`print_files`)."""
    import json

    parts = [SYSTEM_NAME_JA, SHEET_MARKS]
    for group in (data.units, data.leaders, data.markers, data.terrain):
        parts += [json.dumps(v.model_dump(mode="json"), ensure_ascii=False) for v in group.values()]
    parts += [json.dumps(s.scenario.model_dump(mode="json"), ensure_ascii=False) for s in data.scenarios]
    if templates is not None:
        parts += [f.read_text(encoding="utf-8") for folder in ("genpei", "common") for f in sorted((templates / folder).glob("*.j2"))]
    return "".join(sorted({c for p in parts for c in p if ord(c) > 0x7E and c.isprintable()}))


def print_files(data: Any, layout: HexLayout, cache: RenderCache, opts: PrintOptions = DEFAULTS) -> dict[str, bytes]:
    """Every print PDF by file name (``counters_a4.pdf``, ``counters_letter.pdf``, ``cards.pdf``,
    ``scenario_<id>.pdf``). Every image they need is drawn first, at once on every core
    (:func:`print_jobs`); then the files are assembled in parallel processes, each reading its
    images from the cache (:func:`pipeline.render.sheets.print_files`). Every file embeds the
    same font subsets, those of :func:`print_text`."""
    text = print_text(data, cache.renderer.root)
    makers = {f"counters_{paper}.pdf": partial(counters_pdf, data, layout, cache, paper, opts, text) for paper in ("a4", "letter")}
    makers["cards.pdf"] = partial(cards_pdf, data, cache, "a4", opts, text)
    for s in data.scenarios:
        makers[f"scenario_{s.scenario.id}.pdf"] = partial(scenario_pdf, data, layout, s, cache, opts, text)
    return sheets.print_files(cache, print_jobs(data, layout, opts), makers, text)


def write_print(data: Any, layout: HexLayout, out_dir: Path, cache: RenderCache, opts: PrintOptions = DEFAULTS) -> list[Path]:
    """Write :func:`print_files` into ``out_dir/print`` (unchanged files are left alone); returns
    the paths."""
    return sheets.write_files(print_files(data, layout, cache, opts), out_dir / "print")
