"""The Genpei art: counters, terrain tiles, markers, the board and reference cards, as named PNG images.

Everything is drawn by the templates in ``templates/genpei/`` from the data (see
:mod:`pipeline.render`); this module only builds each template's context (formatting the
game's numbers as text) and names the images. A new unit, leader, terrain or marker in the data
gets its art with no code change.

Image names are flat archive names for the VASSAL module: lower case, no spaces, ``.png``::

    >>> unit_image_name("sohei_warriors", "red")
    'unit_sohei_warriors_red.png'
    >>> terrain_image_name("palisade", ("E", "NE"))
    'terrain_palisade_ne_e.png'

Sizes (pixels at ``scale=1``, i.e. VASSAL's 100 % zoom, from :class:`HexLayout`): unit counters
``round(0.66 × hex_width)`` square, leaders ``round(0.45 × hex_width)`` round, markers
``round(0.5 × hex_width)``, terrain tiles exactly ``hex_width × ceil(hex_height)`` with
transparent corners, the board exactly ``layout.size``. ``scale`` multiplies every size for
print; :func:`print_scale` gives the scale for a DPI.

Example::

    >>> data = load(Path("source_data/genpei"), scenario_files=[])      # doctest: +SKIP
    >>> layout = HexLayout(data.board, data.system.vassal.hex_width_px, data.system.vassal.board_margin_px)  # doctest: +SKIP
    >>> images = render_counters(data, layout, ["red", "yellow"], [("NE", "E")])  # doctest: +SKIP
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from pipeline.render.cache import RenderCache, RenderJob
from pipeline.render.templates import TemplateRenderer
from pipeline.systems.genpei.layout import DIRECTIONS, HexLayout
from pipeline.systems.genpei.model import (
    STANDARD_COLOUR,
    BoardGeometry,
    DieFace,
    LeaderType,
    MarkerType,
    RuleNote,
    SideColour,
    TerrainType,
    UnitType,
)

#: The templates folder of the repository.
TEMPLATES = Path(__file__).resolve().parents[3] / "templates"

#: Standard colours as drawn (rules-facts §1.2-1.3: green circle, blue triangle, red square).
STANDARD_HEX = {"green": "#2f8f3e", "blue": "#1f5cc4", "red": "#cf2027"}

#: Counter sizes as a fraction of the hex width.
UNIT_FRACTION, LEADER_FRACTION, MARKER_FRACTION = 0.66, 0.45, 0.5

#: Physical hex width (flat side to flat side) that print scales are based on, in inches
#: (this project's choice: the printed board's hexes are 2 inches wide).
PRINT_HEX_WIDTH_IN = 2.0

#: Card sizes in pixels at scale 1.
UNIT_CARD_SIZE = (600, 840)
#: Widths the cards print at, mm: a unit card 90 mm (:data:`pipeline.render.cards.PRINT_MM`;
#: at 63 mm its texts would need 23.5 units for the 7 pt floor), the charts the printable width
#: of A4 (210 mm less two 10 mm margins, narrower than Letter's).
UNIT_CARD_PRINT_MM, CHART_PRINT_MM = 90.0, 190.0


def card_floor(width_units: float, print_mm: float) -> float:
    """The smallest text, in units, of a card ``width_units`` wide shown at a pixel a unit in
    VASSAL (at least) and printed ``print_mm`` wide: the floors of :mod:`pipeline.render.legible`."""
    from pipeline.render.legible import PT_PER_MM, min_units

    return min_units(per_screen_px=1.0, per_print_pt=print_mm * PT_PER_MM / width_units)
NAVAL_CARD_SIZE = (1200, 1400)
TERRAIN_CHART_WIDTH = 1400

UNKNOWN_TEXT = "?"
UNKNOWN_FOOTNOTE = "? = not in the public sources"

_renderer: TemplateRenderer | None = None


def renderer() -> TemplateRenderer:
    """The shared :class:`TemplateRenderer` of ``templates/`` (created once)."""
    global _renderer
    if _renderer is None:
        _renderer = TemplateRenderer(TEMPLATES)
    return _renderer


class ArtData(Protocol):
    """What the art needs of :class:`pipeline.systems.genpei.load.GenpeiData`."""

    board: BoardGeometry
    units: dict[str, UnitType]
    leaders: dict[str, LeaderType]
    terrain: dict[str, TerrainType]
    markers: dict[str, MarkerType]

    @property
    def system(self) -> Any: ...


# ---------------------------------------------------------------------------------------------
# names


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    if not s:
        raise ValueError(f"{text!r} gives an empty image name part")
    return s


def unit_image_name(unit_id: str, army: str) -> str:
    """Image of unit type ``unit_id`` in army colour ``army``: ``unit_<id>_<army>.png``."""
    return f"unit_{_slug(unit_id)}_{_slug(army)}.png"


def leader_image_name(leader_id: str, army: str) -> str:
    """Image of leader type ``leader_id`` in army colour ``army``: ``leader_<id>_<army>.png``."""
    return f"leader_{_slug(leader_id)}_{_slug(army)}.png"


def terrain_image_name(terrain_id: str, hexsides: tuple[str, ...] = ()) -> str:
    """Image of a terrain tile; a hexside tile (Palisade) names its sides in NE, E, SE, SW, W,
    NW order: ``terrain_palisade_ne_e.png``.

    Raises:
        ValueError: a side is not one of the six directions.
    """
    bad = [s for s in hexsides if s not in DIRECTIONS]
    if bad:
        raise ValueError(f"hexsides {bad} are not among {DIRECTIONS}")
    sides = sorted(set(hexsides), key=DIRECTIONS.index)
    return "_".join(["terrain", _slug(terrain_id)] + [s.lower() for s in sides]) + ".png"


def marker_image_name(marker_id: str, direction: str | None = None) -> str:
    """Image of a marker: ``marker_<id>.png``; an arrow marker turned to a hex direction is
    ``marker_<id>_<direction>.png`` (e.g. ``marker_wind_tide_ne.png``)."""
    suffix = f"_{direction.lower()}" if direction else ""
    return f"marker_{_slug(marker_id)}{suffix}.png"


def die_face_image_name(symbol: str) -> str:
    """Image of a battle-die face: ``die_<symbol>.png``."""
    return f"die_{_slug(symbol)}.png"


def board_image_name(board_id: str) -> str:
    """Image of a board: ``board_<id>.png``."""
    return f"board_{_slug(board_id)}.png"


def card_image_name(kind: str, id: str) -> str:
    """Image of a reference card: ``card_<kind>_<id>.png`` (kind ``unit``, ``terrain``, ``naval``…)."""
    return f"card_{_slug(kind)}_{_slug(id)}.png"


# ---------------------------------------------------------------------------------------------
# helpers


def print_scale(layout: HexLayout, dpi: int = 300, hex_width_in: float = PRINT_HEX_WIDTH_IN) -> float:
    """The ``scale`` at which art prints at ``dpi`` with hexes ``hex_width_in`` inches wide."""
    return dpi * hex_width_in / layout.hex_width


def _darker(colour: str, f: float = 0.55) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"#{int(r * f):02x}{int(g * f):02x}{int(b * f):02x}"


def _army(colours: SideColour) -> dict[str, str]:
    return {"fill": colours.fill, "text": colours.text, "edge": _darker(colours.fill, 0.45)}


def _num(v: Any) -> str:
    return UNKNOWN_TEXT if v == "unknown" else str(v)


def _scaled(px: float, scale: float) -> int:
    return max(1, round(px * scale))


def _army_colours(data: ArtData, army: str) -> SideColour:
    try:
        return data.system.armies[army]
    except KeyError:
        raise ValueError(f"army {army!r} is not in system.yaml armies ({', '.join(data.system.armies)})") from None


# ---------------------------------------------------------------------------------------------
# contexts


def unit_context(unit: UnitType, colours: SideColour, figures_badge: bool = True) -> dict[str, Any]:
    """Context of ``genpei/unit_counter.yaml.j2``. ``figures_badge``: draw the unit's figure
    count in the top-right badge (print); the VASSAL counter has none, as its ``Figures`` Label
    trait shows the current count and a number must show once."""
    return {
        "figures_badge": figures_badge,
        "unit": {
            "id": unit.id,
            "name": unit.name,
            "name_ja": unit.name_ja,
            "abbreviation": unit.abbreviation,
            "standard": unit.standard,
            "colour": unit.colour,
            "colour_hex": STANDARD_HEX[unit.colour],
            "mounted": unit.mounted,
            "figures": _num(unit.figures),
            "ranged": unit.ranged is not None,
        },
        "army": _army(colours),
    }


def leader_context(leader: LeaderType, colours: SideColour) -> dict[str, Any]:
    """Context of ``genpei/leader_counter.yaml.j2``."""
    return {
        "leader": {"id": leader.id, "name": leader.name, "name_ja": leader.name_ja, "abbreviation": leader.abbreviation, "kind": leader.kind, "mounted": leader.mounted},
        "army": _army(colours),
    }


#: Open-ground colour behind linear terrain (rivers…) when the data has no ``countryside`` terrain.
DEFAULT_GROUND = "#c9d7a0"


def hex_tile_geometry(layout: HexLayout) -> dict[str, Any]:
    """The canvas of a hex-sized tile: ``canvas`` ``{width, height}`` is the hex's pixel box
    (``hex_width × ceil(hex_height)``, pixels at 100 %), ``centre`` its middle, ``corners`` the
    six :meth:`HexLayout.corners` moved into it, ``hex_width``/``hex_height`` in pixels."""
    w, h = layout.hex_width, math.ceil(layout.hex_height)
    ref = layout.board.all_hexes()[0]
    cx, cy = layout.centre(ref)
    tcx, tcy = w / 2, h / 2
    return {
        "canvas": {"width": w, "height": h},
        "centre": [tcx, tcy],
        "corners": [[x - cx + tcx, y - cy + tcy] for x, y in layout.corners(ref)],
        "hex_width": w,
        "hex_height": layout.hex_height,
    }


#: A terrain tile's name label: its largest size and its width, as fractions of the hex width,
#: and the most lines it may wrap to.
TILE_LABEL_FRACTION, TILE_LABEL_WIDTH_FRACTION, TILE_LABEL_LINES = 0.12, 0.62, 2


def tile_label(name: str, hex_width: float) -> dict[str, Any]:
    """How a terrain tile's name is set: ``{size, min_size, lines, width}`` in tile pixels at
    100 %: the largest size from ``TILE_LABEL_FRACTION × hex_width`` down to
    :data:`~pipeline.render.legible.MIN_SCREEN_PX` at which it fits ``width`` on one line, else
    on :data:`TILE_LABEL_LINES` lines (``Village`` / ``(buildings)``); a name that fits on
    neither at the floor is left to the fit checks to refuse."""
    from pipeline.render.drawing import text_length, wrap_text
    from pipeline.render.legible import MIN_SCREEN_PX

    top, width = hex_width * TILE_LABEL_FRACTION, hex_width * TILE_LABEL_WIDTH_FRACTION
    for lines in range(1, TILE_LABEL_LINES + 1):
        size = top
        while size >= MIN_SCREEN_PX:
            s = max(1, round(size * 8))
            wrapped = wrap_text(name, s, True, width * 8) if lines > 1 else [name]
            if len(wrapped) <= lines and max(text_length(w_, s, True) for w_ in wrapped) <= width * 8 * 0.98:
                return {"size": round(size, 3), "min_size": MIN_SCREEN_PX, "lines": len(wrapped), "width": width}
            size *= 0.95
    return {"size": MIN_SCREEN_PX, "min_size": MIN_SCREEN_PX, "lines": TILE_LABEL_LINES, "width": width}


def terrain_context(terrain: TerrainType, layout: HexLayout, hexsides: tuple[str, ...] = (), ground: str = DEFAULT_GROUND) -> dict[str, Any]:
    """Context of ``genpei/terrain_tile.yaml.j2``: :func:`hex_tile_geometry`, the hexsides and
    the terrain, and how its name label is set (:func:`tile_label`). ``ground`` is the
    open-ground colour linear features (rivers, fords…) are drawn across."""
    return {
        **hex_tile_geometry(layout),
        "label": tile_label(terrain.name, layout.hex_width),
        "directions": list(DIRECTIONS),
        "hexsides": [d for d in DIRECTIONS if d in hexsides],
        "ground": ground,
        "terrain": {"id": terrain.id, "name": terrain.name, "name_ja": terrain.name_ja, "abbreviation": terrain.abbreviation, "colour": terrain.colour, "overlay": terrain.overlay, "hexside_tile": terrain.hexsides, "tile_label": terrain.tile_label},
    }


def marker_context(marker: MarkerType) -> dict[str, Any]:
    """Context of ``genpei/marker.yaml.j2``."""
    return {"marker": {"id": marker.id, "name": marker.name, "name_ja": marker.name_ja, "abbreviation": marker.abbreviation, "symbol": marker.symbol, "colour": marker.colour, "edge": _darker(marker.colour, 0.45), "kind": marker.kind}}


#: Hex label size on the board, as a fraction of the hex width (9.7 px on 84 px hexes).
HEX_LABEL_FRACTION = 0.115
#: Clear space kept between a hex label and the middle of a section line, as a fraction of the
#: hex width (the dotted line is 0.04 wide: 0.05 clear beyond its dots).
LABEL_CLEARANCE_FRACTION = 0.07


def label_x(cx: float, text_width: float, lines: list[float], clearance: float) -> float:
    """Where a label ``text_width`` px wide, centred at ``cx`` by default, is centred so that no
    vertical line at the x positions ``lines`` crosses it or comes within ``clearance`` px: the
    label moves beside the line, to the side its centre is on (right when on the line).

        >>> label_x(100, 20, [300], 3)
        100
        >>> label_x(100, 20, [100], 3)
        113.0
        >>> label_x(100, 20, [104], 3)
        91.0
    """
    half = text_width / 2 + clearance
    for x in lines:
        if abs(cx - x) < half:
            cx = x + half if cx >= x else x - half
    return cx


def board_context(board: BoardGeometry, layout: HexLayout) -> dict[str, Any]:
    """Context of ``genpei/board.yaml.j2``: pixel geometry from :class:`HexLayout` only. Each
    hex's ``label`` stands at ``label_at`` (px): at the top of the hex, moved beside a section
    line that would strike it through (:func:`label_x`); ``label_size`` is its size in px."""
    from pipeline.render.drawing import text_length

    width, height = layout.size
    lines = [layout.margin + x * layout.hex_width for x in board.section_lines]
    size = layout.hex_width * HEX_LABEL_FRACTION
    clearance = layout.hex_width * LABEL_CLEARANCE_FRACTION
    hexes = []
    for hex_ in board.all_hexes():
        cx, cy = layout.centre(hex_)
        label = f"{hex_[0]},{hex_[1]}"
        tw = text_length(label, max(1, round(size * 8)), False) / 8
        hexes.append({"label": label, "centre": [cx, cy], "corners": [list(c) for c in layout.corners(hex_)],
                      "label_at": [label_x(cx, tw, lines, clearance), cy - layout.hex_height * 0.33]})
    return {"canvas": {"width": width, "height": height}, "hexes": hexes, "section_lines": lines, "margin": layout.margin, "hex_width": layout.hex_width,
            "hex_height": layout.hex_height, "name": board.name, "label_size": size}


# -- cards --------------------------------------------------------------------------------------


def _stat_rows(unit: UnitType) -> tuple[list[dict[str, str]], bool]:
    rows: list[dict[str, str]] = []
    unknown = False

    def val(v: Any) -> str:
        nonlocal unknown
        if v == "unknown":
            unknown = True
            return UNKNOWN_TEXT
        return str(v)

    m = unit.movement
    move = f"{val(m.hexes)} hex" + ("" if m.hexes == 1 else "es")
    if m.hexes_no_battle is not None:
        move += f" (or {val(m.hexes_no_battle)}, no battle)"
    rows.append({"label": "Movement", "value": move})
    cc = unit.close_combat
    close = f"{val(cc.dice)} dice"
    if cc.dice_after_move is not None:
        close += f" ({val(cc.dice_after_move)} after moving)"
    if cc.not_when_ordered_by:
        close += "; none when ordered by " + ", ".join(c.replace("_", " ").title() for c in cc.not_when_ordered_by)
    rows.append({"label": "Close combat", "value": close})
    if unit.ranged is None:
        rows.append({"label": "Ranged", "value": "—"})
    else:
        r = unit.ranged
        rng = f"{val(r.dice)} dice at {val(r.min_range)}–{val(r.max_range)} hexes"
        if r.dice_after_move is not None:
            rng += f" ({val(r.dice_after_move)} after moving)"
        if r.weapon != "bow":
            rng += f", {val(r.weapon)}"
        rows.append({"label": "Ranged", "value": rng})
    rows.append({"label": "Figures", "value": val(unit.figures)})
    rows.append({"label": "Flags ignored", "value": val(unit.ignores_flags)})
    rows.append({"label": "Retreat", "value": f"{val(unit.retreat_hf_per_hex)} H&F per hex"})
    return rows, unknown


def unit_card_context(unit: UnitType) -> dict[str, Any]:
    """Context of ``genpei/unit_card.yaml.j2``."""
    rows, unknown = _stat_rows(unit)
    return {
        "card": {"width": UNIT_CARD_SIZE[0], "height": UNIT_CARD_SIZE[1], "floor": card_floor(UNIT_CARD_SIZE[0], UNIT_CARD_PRINT_MM)},
        "unit": {
            "name": unit.name, "name_ja": unit.name_ja, "abbreviation": unit.abbreviation, "standard": unit.standard,
            "colour_hex": STANDARD_HEX[unit.colour], "mounted": unit.mounted, "ranged": unit.ranged is not None,
            "tags": [t.replace("_", " ") for t in unit.tags],
        },
        "stats": rows,
        "rules": [r.summary for r in unit.rules],
        "footnote": UNKNOWN_FOOTNOTE if unknown else None,
        "sources": sorted({s.doc for s in unit.sources}),
    }


def _dice(n: Any) -> str:
    """``n`` battle dice as the rules write it: ``1 die``, ``2 dice``."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def _cap(c: Any) -> str | None:
    """A battle cap as text: ``max 2 dice``, ``foot max 2 dice, mounted max 1 die``; None
    when the terrain sets none."""
    if c.foot is None and c.mounted is None:
        return None
    if c.foot == c.mounted:
        return f"max {_dice(c.foot)}"
    parts = []
    if c.foot is not None:
        parts.append(f"foot max {_dice(c.foot)}")
    if c.mounted is not None:
        parts.append(f"mounted max {_dice(c.mounted)}")
    return ", ".join(parts)


def _caps(c: Any) -> list[str]:
    """The battle caps of a terrain's combat effects as chart phrases, a pair of equal caps (from
    the hex and into it) said once: ``close combat from and into it: max 2 dice``."""
    out: list[str] = []
    for kind, frm, into in (("close combat", c.close_from, c.close_into), ("ranged", c.ranged_from, c.ranged_into)):
        a, b = _cap(frm), _cap(into)
        if a and a == b:
            out.append(f"{kind} from and into it: {a}")
        else:
            out += [f"{kind} {where} it: {txt}" for where, txt in (("from", a), ("into", b)) if txt]
    return out


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def terrain_row(t: TerrainType) -> dict[str, Any]:
    """One row of the terrain effects chart: text for movement, battle, LOS and ignores."""
    m, c = t.movement, t.combat
    move: list[str] = []
    move.append({"yes": "Passable", "no": "Impassable", "naval": "Naval movement only"}[m.passable])
    if not m.mounted_may_enter:
        move.append("no cavalry")
    if m.must_start_adjacent:
        move.append("start adjacent to enter")
    if m.must_stop:
        move.append("stop on entering")
    if m.no_battle_after_entering:
        move.append("no battle after entering")
    if m.exit_max_hexes is not None:
        move.append(f"leave by {m.exit_max_hexes} hex then stop")
    if t.entry_roll is not None:
        move.append("roll 1 die on entering")
    battle = _caps(c)
    if c.battles_first:
        battle.append("battles first")
    if c.max_range is not None:
        battle.append(f"archers range {c.max_range}")
    if c.no_inspiration:
        battle.append("no Inspiration")
    los = {"no": "Clear", "yes": "Blocks", "between_other_hexes": "Blocks between other hexes"}[t.blocks_los]
    ignores: list[str] = []
    if c.ignore_swords:
        ignores.append(f"{c.ignore_swords} sword" + ("s" if c.ignore_swords > 1 else ""))
    if c.ignore_flags:
        ignores.append(f"{c.ignore_flags} flag" + ("s" if c.ignore_flags > 1 else ""))
    if ignores and c.protection_from == "covered_hexsides":
        ignores.append("across covered sides")
    return {
        "id": t.id, "name": t.name, "name_ja": t.name_ja, "colour": t.colour,
        "movement": "; ".join(move), "battle": _sentence("; ".join(battle)) or "No effect", "los": los,
        "ignores": ", ".join(ignores) or "—",
    }


#: The terrain chart's text columns: (row key, heading, left x, width), in chart pixels at scale 1.
TERRAIN_CHART_COLUMNS = (("movement", "Movement", 330, 320), ("battle", "Battle", 650, 420), ("los", "Line of sight", 1070, 150), ("ignores", "Ignores", 1220, 150))
#: Text size, line height (× size), side padding and the least padding above and below a cell's
#: text on the terrain chart, in chart pixels at scale 1.
TERRAIN_CELL_SIZE, TERRAIN_CELL_LINE, TERRAIN_CELL_PAD_X, TERRAIN_CELL_PAD_Y = 18.5, 1.15, 10, 12
#: Least height of a terrain chart row (the terrain's hexagon and names), pixels at scale 1.
TERRAIN_ROW_MIN = 92


def terrain_chart_context(terrains: list[TerrainType]) -> dict[str, Any]:
    """Context of ``genpei/terrain_chart.yaml.j2``: each row's ``y`` and ``height`` (pixels at
    scale 1) are as tall as its longest cell wrapped at :data:`TERRAIN_CELL_SIZE` needs, with
    :data:`TERRAIN_CELL_PAD_Y` clear above and below, and at least :data:`TERRAIN_ROW_MIN`:
    a cell never fills its row edge to edge."""
    from pipeline.render.drawing import wrap_text

    head, y = 150, 150
    rows = []
    for t in terrains:
        row = terrain_row(t)
        lines = max(len(wrap_text(row[key], round(TERRAIN_CELL_SIZE * 10), False, (cw - 2 * TERRAIN_CELL_PAD_X) * 10)) for key, _h, _x, cw in TERRAIN_CHART_COLUMNS)
        text_h = ((lines - 1) * TERRAIN_CELL_LINE + 1) * TERRAIN_CELL_SIZE
        height = max(TERRAIN_ROW_MIN, math.ceil(text_h + 2 * TERRAIN_CELL_PAD_Y))
        rows.append({**row, "y": y, "height": height, "text_height": text_h + 4})
        y += height
    return {"card": {"width": TERRAIN_CHART_WIDTH, "height": y + 50, "floor": card_floor(TERRAIN_CHART_WIDTH, CHART_PRINT_MM)}, "rows": rows, "head": head, "total": y,
            "columns": [list(c) for c in TERRAIN_CHART_COLUMNS], "cell": {"size": TERRAIN_CELL_SIZE, "line": TERRAIN_CELL_LINE, "pad": TERRAIN_CELL_PAD_X}}


_NAVAL_WORDS = re.compile(r"naval|ocean|ship|boat|sea|grappl|embark|wind|tide", re.IGNORECASE)


def _naval(note: RuleNote) -> bool:
    return bool(_NAVAL_WORDS.search(note.id) or _NAVAL_WORDS.search(note.summary))


def naval_card_context(data: ArtData) -> dict[str, Any]:
    """Context of ``genpei/naval_card.yaml.j2``: the naval RuleNotes of naval terrain (all its
    rules), of markers (naval-related ones: ship, grapple, wind/tide…) and of leaders."""
    sections = []
    for t in data.terrain.values():
        notes = [r.summary for r in t.rules if t.naval or (t.water and _naval(r))]
        if notes:
            sections.append({"title": t.name, "name_ja": t.name_ja, "colour": t.colour, "notes": notes})
    marker_notes = [(m, r) for m in data.markers.values() for r in m.rules if m.symbol in ("ship", "grapple", "arrow") or _naval(r)]
    if marker_notes:
        sections.append({"title": "Markers", "name_ja": None, "colour": "#8a6d3b", "notes": [f"{m.name}: {r.summary}" for m, r in marker_notes]})
    leader_notes = [(ld, r) for ld in data.leaders.values() for r in ld.rules if _naval(r)]
    if leader_notes:
        sections.append({"title": "Leaders", "name_ja": None, "colour": "#5b4a7a", "notes": [r.summary for _, r in leader_notes]})
    # two columns, split between sections so both hold about the same amount of text
    weights = [len(sec["title"]) + sum(len(n) + 60 for n in sec["notes"]) for sec in sections]
    total, run, split = sum(weights), 0, len(sections)
    for i, wgt in enumerate(weights):
        if run + wgt / 2 > total / 2:
            split = max(1, i) if i else 1
            break
        run += wgt
    return {"card": {"width": NAVAL_CARD_SIZE[0], "height": NAVAL_CARD_SIZE[1], "floor": card_floor(NAVAL_CARD_SIZE[0], CHART_PRINT_MM)}, "sections": sections, "columns": [sections[:split], sections[split:]]}


# ---------------------------------------------------------------------------------------------
# rendering


def render_unit(unit: UnitType, colours: SideColour, px: int) -> Image.Image:
    """A unit counter, ``px`` × ``px`` pixels."""
    return renderer().image("genpei/unit_counter.yaml.j2", unit_context(unit, colours), size=(px, px))


def render_leader(leader: LeaderType, colours: SideColour, px: int) -> Image.Image:
    """A round leader counter, ``px`` × ``px`` pixels, transparent outside the circle."""
    return renderer().image("genpei/leader_counter.yaml.j2", leader_context(leader, colours), size=(px, px))


def render_terrain(terrain: TerrainType, layout: HexLayout, hexsides: tuple[str, ...] = (), scale: float = 1.0, ground: str = DEFAULT_GROUND) -> Image.Image:
    """A terrain tile the size of a hex (``hex_width × ceil(hex_height)`` × ``scale``), transparent
    outside the hex; a hexside tile draws its fence along ``hexsides`` only. Rivers and other
    linear terrain are drawn across ``ground``."""
    ctx = terrain_context(terrain, layout, hexsides, ground)
    w, h = ctx["canvas"]["width"], ctx["canvas"]["height"]
    return renderer().image("genpei/terrain_tile.yaml.j2", ctx, size=(_scaled(w, scale), _scaled(h, scale)))


#: Screen angle (degrees clockwise from east) of each hex direction of a pointy-topped hex.
DIRECTION_ANGLE = {"E": 0, "SE": 60, "SW": 120, "W": 180, "NW": 240, "NE": 300}


def render_marker(marker: MarkerType, px: int, direction: str | None = None) -> Image.Image:
    """A marker counter, ``px`` × ``px`` pixels; an arrow marker points to ``direction``
    (a hex direction, east when None)."""
    ctx = marker_context(marker)
    ctx["marker"] = {**ctx["marker"], "rotate": DIRECTION_ANGLE[direction or "E"]}
    return renderer().image("genpei/marker.yaml.j2", ctx, size=(px, px))


def render_die_face(face: DieFace, px: int) -> Image.Image:
    """A battle-die face, ``px`` × ``px`` pixels; a standard symbol in its colour."""
    colour = STANDARD_HEX.get(STANDARD_COLOUR.get(face.symbol, ""), "#1d1d1d")
    ctx = {"face": {"symbol": face.symbol, "label": face.label, "colour": colour}}
    return renderer().image("genpei/die_face.yaml.j2", ctx, size=(px, px))


def render_board(data: ArtData, layout: HexLayout, scale: float = 1.0) -> Image.Image:
    """The board image, ``layout.size`` pixels (× ``scale``): countryside background, every hex
    outlined from :meth:`HexLayout.corners`, the section lines dotted, and ``col,row`` labels."""
    ctx = board_context(data.board, layout)
    w, h = layout.size
    return renderer().image("genpei/board.yaml.j2", ctx, size=(_scaled(w, scale), _scaled(h, scale)))


def counter_sizes(layout: HexLayout, scale: float = 1.0) -> dict[str, int]:
    """Pixel sizes of the square counters at ``scale``: ``unit``, ``leader``, ``marker``."""
    hw = layout.hex_width
    return {"unit": _scaled(hw * UNIT_FRACTION, scale), "leader": _scaled(hw * LEADER_FRACTION, scale), "marker": _scaled(hw * MARKER_FRACTION, scale)}


def unit_job(unit: UnitType, colours: SideColour, px: int, figures_badge: bool = True) -> RenderJob:
    """The render job of a unit counter (see :func:`render_unit`; ``figures_badge`` as
    :func:`unit_context`)."""
    return RenderJob("genpei/unit_counter.yaml.j2", unit_context(unit, colours, figures_badge), size=(px, px))


def leader_job(leader: LeaderType, colours: SideColour, px: int) -> RenderJob:
    """The render job of a leader counter (see :func:`render_leader`)."""
    return RenderJob("genpei/leader_counter.yaml.j2", leader_context(leader, colours), size=(px, px))


def terrain_job(terrain: TerrainType, layout: HexLayout, hexsides: tuple[str, ...] = (), scale: float = 1.0, ground: str = DEFAULT_GROUND) -> RenderJob:
    """The render job of a terrain tile (see :func:`render_terrain`)."""
    ctx = terrain_context(terrain, layout, hexsides, ground)
    w, h = ctx["canvas"]["width"], ctx["canvas"]["height"]
    return RenderJob("genpei/terrain_tile.yaml.j2", ctx, size=(_scaled(w, scale), _scaled(h, scale)))


def tile_marker_job(marker: MarkerType, layout: HexLayout, scale: float = 1.0) -> RenderJob:
    """The render job of a tile marker (``kind: tile``: Command Tent, Command Ship): a hex-sized
    image (:func:`hex_tile_geometry` × ``scale``) drawn under the unit on it, showing around it."""
    ctx = {**hex_tile_geometry(layout), **marker_context(marker)}
    w, h = ctx["canvas"]["width"], ctx["canvas"]["height"]
    return RenderJob("genpei/tile_marker.yaml.j2", ctx, size=(_scaled(w, scale), _scaled(h, scale)))


def marker_job(marker: MarkerType, px: int, direction: str | None = None) -> RenderJob:
    """The render job of a marker (see :func:`render_marker`)."""
    ctx = marker_context(marker)
    ctx["marker"] = {**ctx["marker"], "rotate": DIRECTION_ANGLE[direction or "E"]}
    return RenderJob("genpei/marker.yaml.j2", ctx, size=(px, px))


def ground_colour(data: ArtData) -> str:
    """The open-ground colour: the ``countryside`` terrain's, else :data:`DEFAULT_GROUND`."""
    return data.terrain["countryside"].colour if "countryside" in data.terrain else DEFAULT_GROUND


def counter_jobs(data: ArtData, layout: HexLayout, armies: list[str], palisade_sides: list[tuple[str, ...]], *, scale: float = 1.0, dpi: int | None = None, figures_badge: bool = True) -> dict[str, RenderJob]:
    """The render job of every counter image by archive image name (arguments as
    :func:`render_counters`; ``figures_badge`` as :func:`unit_context`). The same jobs at
    another ``scale`` give the print images. A tile marker is hex-sized (:func:`tile_marker_job`)."""
    if dpi is not None:
        scale = print_scale(layout, dpi)
    px = counter_sizes(layout, scale)
    out: dict[str, RenderJob] = {}
    for army in armies:
        colours = _army_colours(data, army)
        for unit in data.units.values():
            out[unit_image_name(unit.id, army)] = unit_job(unit, colours, px["unit"], figures_badge)
        for leader in data.leaders.values():
            out[leader_image_name(leader.id, army)] = leader_job(leader, colours, px["leader"])
    ground = ground_colour(data)
    for terrain in data.terrain.values():
        variants: list[tuple[str, ...]] = [()]
        if terrain.hexsides:
            variants += [tuple(s) for s in palisade_sides]
        for sides in variants:
            name = terrain_image_name(terrain.id, sides)
            if name not in out:
                out[name] = terrain_job(terrain, layout, sides, scale, ground)
    for marker in data.markers.values():
        if marker.kind == "tile":
            out[marker_image_name(marker.id)] = tile_marker_job(marker, layout, scale)
            continue
        out[marker_image_name(marker.id)] = marker_job(marker, px["marker"])
        if marker.symbol == "arrow":
            for d in DIRECTION_ANGLE:
                out[marker_image_name(marker.id, d)] = marker_job(marker, px["marker"], d)
    return out


def render_counters(data: ArtData, layout: HexLayout, armies: list[str], palisade_sides: list[tuple[str, ...]], *, scale: float = 1.0, dpi: int | None = None) -> dict[str, Image.Image]:
    """Every counter image by archive image name.

    Args:
        data: the Genpei data.
        layout: the board layout (sizes follow ``layout.hex_width``).
        armies: army colour names (keys of ``system.yaml`` armies) to draw units and leaders in.
        palisade_sides: the hexside sets to draw for every hexside terrain (e.g. ``[("NE", "E")]``);
            a plain tile with no sides is always drawn too.
        scale: size multiplier (1 = VASSAL's 100 % zoom); ``dpi`` instead sets it by :func:`print_scale`.

    Raises:
        ValueError: an army is not in ``system.yaml`` or a side is not a direction.
    """
    r = renderer()
    return {name: job.render(r) for name, job in counter_jobs(data, layout, armies, palisade_sides, scale=scale, dpi=dpi).items()}


#: Size of a die-face image in VASSAL's dice result window, in pixels.
DIE_FACE_PX = 40


def all_counter_jobs(data: Any, layout: HexLayout) -> dict[str, RenderJob]:
    """The board and every counter, tile, marker and die face the module packs, as render jobs
    by image name: units and leaders in every army colour the scenarios use, and every Palisade
    hexside set the palette offers (:func:`pipeline.systems.genpei.module.palisade_sets`). Unit
    counters have no figures badge: the module's ``Figures`` Label trait shows the count."""
    from pipeline.systems.genpei.module import armies_used, palisade_sets

    w, h = layout.size
    out = {board_image_name(data.board.id): RenderJob("genpei/board.yaml.j2", board_context(data.board, layout), size=(w, h))}
    out.update(counter_jobs(data, layout, armies_used(data), palisade_sets(data), figures_badge=False))
    for face in data.system.battle_die.faces:
        colour = STANDARD_HEX.get(STANDARD_COLOUR.get(face.symbol, ""), "#1d1d1d")
        out[die_face_image_name(face.symbol)] = RenderJob("genpei/die_face.yaml.j2", {"face": {"symbol": face.symbol, "label": face.label, "colour": colour}}, size=(DIE_FACE_PX, DIE_FACE_PX))
    return out


def render_all_counters(data: Any, layout: HexLayout) -> dict[str, Image.Image]:
    """The images of :func:`all_counter_jobs`, drawn (no cache)."""
    r = renderer()
    return {name: job.render(r) for name, job in all_counter_jobs(data, layout).items()}


def card_jobs(data: ArtData, *, scale: float = 1.0) -> dict[str, RenderJob]:
    """The reference cards as render jobs by image name (see :func:`render_cards`)."""
    out: dict[str, RenderJob] = {}
    for unit in data.units.values():
        out[card_image_name("unit", unit.id)] = RenderJob("genpei/unit_card.yaml.j2", unit_card_context(unit), scale=scale)
    out[card_image_name("terrain", "effects")] = RenderJob("genpei/terrain_chart.yaml.j2", terrain_chart_context(list(data.terrain.values())), scale=scale)
    # the same chart in two halves: the base game's terrain (the core module's Cards window)
    # and the pack's (the extension's)
    for which, base in (("base", True), ("genpei", False)):
        terrains = [t for t in data.terrain.values() if t.base is base]
        if terrains:
            out[card_image_name("terrain", which)] = RenderJob("genpei/terrain_chart.yaml.j2", terrain_chart_context(terrains), scale=scale)
    out[card_image_name("naval", "summary")] = RenderJob("genpei/naval_card.yaml.j2", naval_card_context(data), scale=scale)
    return out


def core_card_names(data: ArtData) -> list[str]:
    """The reference cards of the base game, in display order: a unit card per base-game unit
    type and the base game's terrain chart (the core module's Cards window)."""
    units = [card_image_name("unit", u.id) for u in data.units.values() if u.base]
    return sorted(units) + ([card_image_name("terrain", "base")] if any(t.base for t in data.terrain.values()) else [])


def pack_card_names(data: ArtData) -> list[str]:
    """The Genpei pack's reference cards, in display order: a unit card per pack unit type, the
    pack's terrain chart and the naval warfare summary (the extension adds them)."""
    units = [card_image_name("unit", u.id) for u in data.units.values() if not u.base]
    chart = [card_image_name("terrain", "genpei")] if any(not t.base for t in data.terrain.values()) else []
    return sorted(units) + chart + [card_image_name("naval", "summary")]


def render_cards(data: ArtData, *, scale: float = 1.0) -> dict[str, Image.Image]:
    """The reference cards by image name: one unit card per unit type
    (``card_unit_<id>.png``, 600 × 840 px), the terrain effects chart (``card_terrain_effects.png``,
    1400 px wide; and its halves ``card_terrain_base.png``, the base game's terrain, and
    ``card_terrain_genpei.png``, the pack's) and the naval warfare summary (``card_naval_summary.png``, 1200 × 900 px, two
    columns)."""
    r = renderer()
    return {name: job.render(r) for name, job in card_jobs(data, scale=scale).items()}


def render_cache(folder: Path | None) -> RenderCache:
    """A :class:`RenderCache` over ``folder`` (e.g. ``build/genpei/.cache``) with the shared renderer."""
    return RenderCache(folder, renderer())
