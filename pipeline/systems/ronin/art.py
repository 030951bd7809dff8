"""What the Ronin module draws, by template (``templates/ronin/``): a round-based counter per
model type and side, the markers, the measured tables, the deployment zones and objective areas
of the set-ups, the reference sheet and a roster card per Buntai.

Sizes: the table is drawn in inches at ``px_per_inch`` of ``system.yaml``; a model's counter is
its 25 mm base at the same scale (about one inch), so the range thread measures true distances
between bases.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from pipeline.measured.geometry import Box
from pipeline.render.cache import RenderCache, RenderJob
from pipeline.render.cards import Card, Notes, Steps, Table, paged
from pipeline.render.templates import TemplateRenderer
from pipeline.systems.ronin.data import HIRED, RoninData
from pipeline.systems.ronin.model import Game, MarkerType, ModelType, Zone
from pipeline.systems.ronin.roster import RosterReport

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"

#: Card size in pixels (reference sheet pages, roster cards).
CARD_SIZE = (900, 1200)

_renderer: TemplateRenderer | None = None


def renderer() -> TemplateRenderer:
    global _renderer
    if _renderer is None:
        _renderer = TemplateRenderer(TEMPLATES)
    return _renderer


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def model_image_name(faction: str, model_id: str, side: str) -> str:
    return f"model_{faction}_{model_id}_{side}.png"


def marker_image_name(marker_id: str) -> str:
    return f"marker_{marker_id}.png"


def table_image_name(side_in: int) -> str:
    return f"table_{side_in}in.png"


def zone_image_name(game_id: str, index: int) -> str:
    return f"zone_{game_id}_{index}.png"


def terrain_image_name(kind: str, footprint: str) -> str:
    return f"terrain_{kind}_{footprint}.png"


def game_terrain_image_name(game_id: str, index: int) -> str:
    return f"game_terrain_{game_id}_{index}.png"


def card_image_name(kind: str, id: str) -> str:
    return f"card_{kind}_{_slug(id)}.png"


def base_px(data: RoninData) -> int:
    """A model's round base in pixels (25 mm at ``px_per_inch``), at least 24."""
    v = data.system.vassal
    return max(24, round(v.base_mm / 25.4 * v.px_per_inch))


def _v(x: Any) -> str:
    return "?" if x == "unknown" else str(x)


ARMOUR_LETTER = {"none": "-", "light": "L", "medium": "M", "heavy": "H", "as_model": "*"}


#: The figure symbol of a model by its weapons (first match wins), else a sword.
WEAPON_SYMBOL = (("teppo", "gun"), ("yumi", "bow"), ("bow", "bow"), ("yari", "spear"), ("nagae_yari", "spear"), ("naginata", "spear"), ("spear", "spear"))
#: Ring colour of a faction with no colour in ``system.yaml``.
NO_FACTION_COLOUR = "#8a8a8a"


def model_symbol(m: ModelType) -> str:
    """The figure symbol of a model's counter: a horse when mounted, else its first missile or
    pole weapon (:data:`WEAPON_SYMBOL`), else a sword."""
    if m.mounted:
        return "horse"
    for weapon, symbol in WEAPON_SYMBOL:
        if weapon in m.weapons:
            return symbol
    return "sword"


def model_context(m: ModelType, hired: bool, side: dict[str, str], faction_colour: str = NO_FACTION_COLOUR) -> dict[str, Any]:
    """Context of ``ronin/model_counter.yaml.j2``."""
    return {
        "model": {
            "name": m.name, "short": m.name.split(" (")[0], "type": m.type, "rank": _v(m.rank), "cp": _v(m.combat_pool), "init": _v(m.initiative),
            "fight": _v(m.fight), "shoot": _v(m.shoot), "armour": ARMOUR_LETTER[m.armour], "mounted": m.mounted, "hired": hired,
            "symbol": model_symbol(m),
        },
        "side": side,
        "faction": {"colour": faction_colour},
    }


def all_models(data: RoninData) -> list[tuple[str, ModelType, bool]]:
    """Every model type: (faction id, model, hired), factions in file order, then the
    scenario-only profiles (Assassination's Chunin and Ninja) under their scenario id."""
    out = [(f.id, m, f.hired_only or f.id == HIRED) for f in data.factions.values() for m in f.models]
    for s in data.scenarios.values():
        out += [(s.id, m, False) for m in s.models]
    return out


def counter_jobs(data: RoninData) -> dict[str, RenderJob]:
    """Render jobs of every model counter (per side) and marker, by image name."""
    px = base_px(data)
    out: dict[str, RenderJob] = {}
    for side_id, colours in data.system.sides.items():
        side = {"fill": colours.fill, "text": colours.text}
        for fid, m, hired in all_models(data):
            colour = data.system.vassal.faction_colours.get(fid, NO_FACTION_COLOUR)
            out[model_image_name(fid, m.id, side_id)] = RenderJob("ronin/model_counter.yaml.j2", model_context(m, hired, side, colour), size=(px, px))
    for mk in data.system.markers:
        out[marker_image_name(mk.id)] = marker_job(mk, round(px * 0.8))
    return out


def marker_job(mk: MarkerType, px: int) -> RenderJob:
    return RenderJob("ronin/marker.yaml.j2", {"marker": {"label": mk.label, "sub": mk.sub, "fill": mk.fill, "text": mk.text, "shape": mk.shape}}, size=(px, px))


def table_context(side_in: int, zones: list | None = None, avoid: list | None = None) -> dict[str, Any]:
    """The battlefield context of a bare ``side_in``-inch square table (players place their own
    terrain in Ronin): ground, compass, scale bar, edge ticks, and ``zones``
    (:class:`pipeline.measured.art.Zone`) when given. The compass and scale bar keep off the
    zones and the boxes ``(x0, y0, x1, y1)`` of ``avoid`` (a game sheet's terrain pieces and
    models); the module's boards pass neither, and the set-ups keep their models off where the
    bare table puts them (:func:`pipeline.systems.ronin.deployment.keep_off`)."""
    from pipeline.measured.art import battlefield_context

    return battlefield_context(side_in, side_in, [], zones or [], seed=f"ronin-{side_in}", avoid=avoid or ())


#: Colour of a duelling area's dashed ring and label (neither side's: both duellists enter it).
DUEL_COLOUR = "#5a3d7a"


def duelling_area(data: RoninData, g: Game) -> tuple[float, float, float] | None:
    """The duelling area of game ``g`` as ``(x, y, radius)`` inches, or ``None``: the area of
    radius ``area_in`` round the point of the scenario's ``near_duellist`` deployment rule
    (Duel, seed 001 p.61: "a 12" circular area in the middle of the table must be left clear
    of all terrain"; the duellist stands "on the edge of the duelling area": the data reads 12
    inches across, radius 6, ``scenarios/duel.yaml``)."""
    sc = data.scenarios.get(g.scenario)
    for rule in sc.deployment_rules if sc is not None else ():
        if rule.kind == "near_duellist" and rule.area_in is not None:
            t = g.table_side_in
            c = (t / 2, t / 2) if rule.of == "centre" else g.objective
            if c is not None:
                return (float(c[0]), float(c[1]), float(rule.area_in))
    return None


def table_jobs(data: RoninData) -> dict[str, RenderJob]:
    """The tables, one per size, drawn as ground at ``px_per_inch``."""
    from pipeline.measured.art import table_job

    ppi = data.system.vassal.px_per_inch
    return {table_image_name(s): table_job(table_context(s), ppi) for s in data.system.vassal.boards_inches}


#: Size (inches) of a zone's label (a zone under 4/3 inch deep: 45 % of its depth); where no
#: spot is free at that size the label tries these fractions of it, on one line and on two.
ZONE_LABEL_SIZE = 0.6
ZONE_LABEL_SHRINK = (1.0, 0.8, 0.65)
#: The step (inches) between the spots :func:`zone_label_spots` tries.
ZONE_LABEL_STEP = 0.25
#: How far a label's box reaches past its letters (their outline), inches.
ZONE_LABEL_PAD = 0.06


def zone_label_spots(zone: Zone, label: str) -> list[tuple[Box, dict[str, Any]]]:
    """Where ``zone``'s label may stand, in order of preference: ``(box, spot)``, the box in
    inches from the zone image's top-left, the spot ``{x, y, size, max_width, text}`` the
    template draws. At each size of :data:`ZONE_LABEL_SHRINK`, on one line then on two: in a
    rectangle along its top (left to right, every :data:`ZONE_LABEL_STEP`), then its foot, then
    its middle (a zone under 2.5 inches deep: its middle first); in a circle from its top down,
    each row from the middle outwards, every box wholly inside the circle."""
    from pipeline.measured.art import two_lines
    from pipeline.render.drawing import text_length

    k = 100.0
    if zone.kind == "circle":
        full, inner = ZONE_LABEL_SIZE, zone.r * 1.6
    else:
        full, inner = min(ZONE_LABEL_SIZE, zone.h * 0.45), max(zone.w - 0.6, 1.0)
    st = ZONE_LABEL_STEP
    out: list[tuple[Box, dict[str, Any]]] = []
    for shrink in ZONE_LABEL_SHRINK:
        size = full * shrink
        for text in dict.fromkeys((label, two_lines(label)[0])):
            lines = text.split("\n")
            lw = max(text_length(line, round(size * k), True) for line in lines) / k + 2 * ZONE_LABEL_PAD
            lh = len(lines) * size + 2 * ZONE_LABEL_PAD
            if lw - 2 * ZONE_LABEL_PAD > inner:
                continue
            boxes: list[Box] = []
            if zone.kind == "circle":
                r = zone.r
                for j in range(int((2 * r - lh - r * 0.25) / st) + 1):
                    y = r * 0.25 + j * st
                    row = []
                    for i in range(int(r / st) + 1):
                        for x in (r - lw / 2 - i * st, r - lw / 2 + i * st):
                            b = (x, y, x + lw, y + lh)
                            if all(math.hypot(cx - r, cy - r) <= r - 0.15 for cx in (b[0], b[2]) for cy in (b[1], b[3])):
                                row.append(b)
                    boxes += list(dict.fromkeys(row))
            else:
                w, h = zone.w, zone.h
                top, foot, middle = 0.25, h - 0.25 - lh, (h - lh) / 2
                ys = [top, foot, middle] if h >= 2.5 else [middle, top, foot]
                ys = list(dict.fromkeys(y for y in ys if 0.05 <= y <= h - lh - 0.05 or y == middle))
                xs = [0.3 + i * st for i in range(max(0, int((w - 0.6 - lw) / st)) + 1)]
                boxes = [(x, y, x + lw, y + lh) for y in ys for x in xs]
            spot = {"size": round(size, 3), "max_width": round(inner, 3), "text": text}
            out += [(b, {**spot, "x": round(b[0] + ZONE_LABEL_PAD, 3), "y": round(b[1] + ZONE_LABEL_PAD, 3)}) for b in boxes]
    if not out:  # a label wider than its zone at every size: its top-left, wrapped in the template
        out.append(((0.3, 0.25, 0.3 + inner, 0.25 + full), {"x": 0.3, "y": 0.25, "size": round(full, 3), "max_width": round(inner, 3), "text": label}))
    return out


def zone_job(data: RoninData, zone: Zone, colour: str, label: str, pieces: list[Box] | None = None, lines: list[Box] | None = None) -> RenderJob:
    """A deployment zone's image (``templates/ronin/zone.yaml.j2``) with its label at the spot
    of :func:`zone_label_spots` that none of ``pieces`` (boxes, inches from the zone image's
    top-left: what the game's setup lays over it) covers, nor ``lines`` (the board's compass
    and scale bar under it), as :func:`pipeline.measured.art.place_labels` chooses (the one
    label rule of the measured tables)."""
    from pipeline.measured.art import place_labels

    ppi = data.system.vassal.px_per_inch
    spots = zone_label_spots(zone, label)
    _box, spot = spots[place_labels([[b for b, _ in spots]], pieces or [], lines or [])[0]]
    ctx = {"zone": {"kind": zone.kind, "w": zone.w, "h": zone.h, "r": zone.r, "fill": colour + "40", "edge": colour, "label": label, "spot": spot}}
    return RenderJob("ronin/zone.yaml.j2", ctx, scale=ppi)


def setup_boxes(data: RoninData, g: Game) -> tuple[list[Box], list[Box]]:
    """What lies over and under a zone in game ``g``'s VASSAL setup, inches on the table: the
    box of every piece but the zones at its start (terrain, models, markers:
    :func:`pipeline.systems.ronin.module.placements`), and the board's compass rose and scale
    bar (:func:`pipeline.measured.layout.decoration_boxes` of the bare table)."""
    from pipeline.measured.art import piece_box
    from pipeline.measured.layout import decoration_boxes
    from pipeline.systems.ronin.module import placements

    ppi = data.system.vassal.px_per_inch
    model_in = base_px(data) / ppi
    marker_in = round(base_px(data) * 0.8) / ppi
    terrain = {f"terrain:{g.id}:{i}": (p.w, p.h) for i, (_n, p) in enumerate(game_terrain_pieces(data, g))}
    out: list[Box] = []
    for p in placements(data, g):
        kind = p.key.split(":", 1)[0]
        if kind == "zone":
            continue
        w, h = terrain[p.key] if kind == "terrain" else ((model_in, model_in) if kind == "model" else (marker_in, marker_in))
        x, y = p.x / ppi, p.y / ppi
        out.append(piece_box(x, y, w, h))
    return out, list(decoration_boxes(g.table_side_in, g.table_side_in))


def zone_origin(zone: Zone) -> tuple[float, float]:
    """The table inches of a zone image's top-left corner."""
    return (zone.x - zone.r, zone.y - zone.r) if zone.kind == "circle" else (zone.x, zone.y)


def zone_jobs(data: RoninData) -> dict[str, RenderJob]:
    """The deployment zones of every game (one image each), each zone's label where none of
    the game's pieces nor the board's compass or scale bar lies (:func:`setup_boxes`)."""
    out = {}
    for lg in data.games:
        g: Game = lg.value
        pieces, board = setup_boxes(data, g)
        for i, side in enumerate(g.sides):
            colour = data.system.sides[side.side].fill
            ox, oy = zone_origin(side.zone)
            local = [[(x0 - ox, y0 - oy, x1 - ox, y1 - oy) for x0, y0, x1, y1 in boxes] for boxes in (pieces, board)]
            out[zone_image_name(g.id, i)] = zone_job(data, side.zone, colour, f"{side.role} deployment", *local)
    return out


# ---------------------------------------------------------------------------------------------
# terrain pieces

#: How each ``draw`` of terrain.yaml is drawn by the measured-table scenery
#: (``templates/measured/_scenery.j2``); the others are Ronin's own (``templates/ronin/_terrain.j2``).
SCENERY_KIND = {"woods": "woods", "undergrowth": "woods", "paddy": "fields", "marsh": "marsh", "pond": "lake", "hill": "hill",
                "stream": "stream", "river": "river"}
#: Draws laid along the long side of their footprint (walls, fences, hedges, water).
LINEAR_DRAWS = ("stone_wall", "plaster_wall", "fence", "palisade", "hedge", "stream", "river")
MOVEMENT_WORD = {"open": "Open", "difficult": "Difficult", "impassable": "Impassable"}
COVER_WORD = {"none": "no cover", "light": "Light cover", "heavy": "Heavy cover"}


def effects_text(movement: str, cover: str) -> str:
    """The effects line of a terrain piece, e.g. ``"Difficult · Heavy cover"``."""
    return f"{MOVEMENT_WORD[movement]} · {COVER_WORD[cover]}"


@dataclass(frozen=True)
class TerrainPiece:
    """A terrain piece drawn to scale (``templates/ronin/terrain.yaml.j2``).

    Attributes:
        draw: how it is drawn (``draw`` of a terrain.yaml kind).
        shape: ``rect`` (``w`` × ``h`` inches) or ``circle`` (``w`` = ``h`` = its diameter).
        name: the label drawn on it (area pieces at least 2.5 inches across; none on walls).
        movement, cover: its effects, drawn under the name.
        seed: makes the organic detail (trees, stones) of two pieces of the same kind and size
            differ, the same on every build.
    """

    draw: str
    shape: str
    w: float
    h: float
    name: str
    movement: str
    cover: str
    seed: str = ""

    def context(self) -> dict[str, Any]:
        """The template context: ``piece`` {draw, shape, w, h, name, effects, label, along_x} and
        ``feature`` (the scenery context of :mod:`pipeline.measured.art` for the kinds it draws,
        else the detail points of :func:`detail_context`), inches from the piece's top-left."""
        from pipeline.measured.art import Scenery, feature_context

        along_x = self.w >= self.h
        labelled = self.draw not in LINEAR_DRAWS and min(self.w, self.h) >= 2.5
        piece = {"draw": self.draw, "shape": self.shape, "w": self.w, "h": self.h, "name": self.name,
                 "effects": effects_text(self.movement, self.cover), "label": labelled, "along_x": along_x,
                 # a shrine's hall fills its middle: its label goes on the court above it
                 "label_y": round(self.h * (0.17 if self.draw == "shrine" else 0.5), 3)}
        if self.draw in SCENERY_KIND:
            # the name (not drawn: label None) seeds the trees and wobble of this piece
            sc = Scenery(SCENERY_KIND[self.draw], name=f"{self.name}|{self.seed}", area=(0.0, 0.0, self.w, self.h), round=self.shape == "circle")
            feature = feature_context(sc, (self.w, self.h))
            feature["label"] = None
        else:
            feature = detail_context(self)
        if self.draw == "undergrowth":
            feature["scrub"] = detail_context(self, feature["outline"])["points"]
        return {"piece": piece, "feature": feature}

    def job(self, ppi: float) -> RenderJob:
        """The render job at ``ppi`` pixels per inch (the piece to scale); its label keeps the
        8 px floor of :mod:`pipeline.render.legible` at that scale (``piece.min_text``, inches)."""
        from pipeline.render.legible import MIN_SCREEN_PX

        ctx = self.context()
        ctx["piece"]["min_text"] = round(MIN_SCREEN_PX / ppi + 0.0005, 3)
        return RenderJob("ronin/terrain.yaml.j2", ctx, size=(max(2, round(self.w * ppi)), max(2, round(self.h * ppi))))


def detail_context(p: TerrainPiece, outline: list | None = None) -> dict[str, Any]:
    """The detail of a piece the Ronin templates draw, inches from its top-left: ``outline``
    (an organic edge inside the footprint, for round and area pieces; ``outline`` when given,
    e.g. the wood's edge its underbrush grows inside) and ``points``
    ``[[x, y, size, variant]]`` (bushes, bamboo clumps, boulders, stones, posts, logs), seeded
    from the piece so builds are byte-identical."""
    from pipeline.measured.art import blob, rng_for, scatter

    rng = rng_for("ronin-terrain", p.draw, p.shape, p.w, p.h, p.name, p.seed)
    w, h = p.w, p.h
    if outline is None:
        outline = blob(w / 2, h / 2, w / 2, h / 2, rng, square=2.0 if p.shape == "circle" else 3.2, rough=0.1)
    pts: list[list[float]] = []
    r3 = lambda v: round(v, 3)  # noqa: E731
    if p.draw in ("shrubs", "bamboo", "rocks", "undergrowth"):
        spacing, lo, hi = {"shrubs": (0.85, 0.28, 0.45), "bamboo": (0.75, 0.26, 0.4), "rocks": (0.95, 0.18, 0.42), "undergrowth": (0.6, 0.1, 0.18)}[p.draw]
        for x, y in scatter(outline, spacing, hi * 0.9, rng):
            pts.append([r3(x), r3(y), r3(rng.uniform(lo, hi)), rng.randrange(3)])
    elif p.draw in LINEAR_DRAWS:
        length, depth = (w, h) if w >= h else (h, w)
        if p.draw == "stone_wall":
            rows = 2
            for row in range(rows):
                x = rng.uniform(0, 0.2) if row else 0.0
                while x < length - 0.05:
                    sl = min(rng.uniform(0.3, 0.55), length - x)
                    pts.append([r3(x), r3(row * depth / rows), r3(sl), rng.randrange(3)])
                    x += sl
        elif p.draw in ("fence", "palisade"):
            step = 0.8 if p.draw == "fence" else depth * 0.8
            n = max(2, round(length / step))
            for i in range(n + 1 if p.draw == "fence" else n):
                x = (length * i / n) if p.draw == "fence" else (length * (i + 0.5) / n)
                pts.append([r3(x), r3(depth / 2), r3(depth * 0.42), rng.randrange(3)])
        elif p.draw == "hedge":
            # bushes overlapping along the run, each inside the footprint
            n = max(1, round((length - depth) / (depth * 0.5)))
            for i in range(n + 1):
                r = depth * rng.uniform(0.38, 0.47)
                x = depth / 2 + (length - depth) * i / n
                pts.append([r3(x), r3(depth / 2 + rng.uniform(-0.5, 0.5) * (depth / 2 - r)), r3(r), rng.randrange(3)])
    return {"outline": [[r3(x), r3(y)] for x, y in outline], "points": pts}


def terrain_pieces(data: RoninData) -> dict[str, TerrainPiece]:
    """Every piece of the terrain palette (each kind of terrain.yaml in each footprint) by
    image name, with the kind's effects."""
    out = {}
    for t in data.terrain.values():
        for fp in t.footprints:
            w, h = fp.size()
            out[terrain_image_name(t.id, fp.id)] = TerrainPiece(t.draw, fp.kind, w, h, t.name, t.movement, t.cover, seed=fp.id)
    return out


def game_terrain_pieces(data: RoninData, g: Game) -> list[tuple[str, TerrainPiece]]:
    """The terrain pieces of game ``g`` (``(image name, piece)`` in the game's order), each
    drawn as its kind at its zone's size with the game's name and effects."""
    out = []
    for i, tp in enumerate(g.terrain):
        z = tp.zone
        w, h = (2 * z.r, 2 * z.r) if z.kind == "circle" else (z.w, z.h)
        out.append((game_terrain_image_name(g.id, i), TerrainPiece(data.terrain[tp.kind].draw, z.kind, w, h, tp.name, tp.movement, tp.cover, seed=f"{g.id}:{i}")))
    return out


def terrain_jobs(data: RoninData) -> dict[str, RenderJob]:
    """Render jobs of the terrain palette and of every game's terrain, at ``px_per_inch``."""
    ppi = data.system.vassal.px_per_inch
    out = {name: p.job(ppi) for name, p in terrain_pieces(data).items()}
    for lg in data.games:
        out.update((name, p.job(ppi)) for name, p in game_terrain_pieces(data, lg.value))
    return out


def render_jobs(jobs: dict[str, RenderJob]) -> dict[str, Image.Image]:
    """Draw every job (no cache): PIL images by name."""
    r = renderer()
    return {name: job.render(r) for name, job in jobs.items()}


def render_pngs(jobs: dict[str, RenderJob], cache_folder: Path | None) -> dict[str, bytes]:
    """PNG bytes of every job by name, through the content-hash render cache in
    ``cache_folder`` (``None``: no cache)."""
    return RenderCache(cache_folder, renderer()).render_all(jobs)


# ---------------------------------------------------------------------------------------------
# cards


#: A card's layout size in pixels (3:4, as printed at 90 × 120 mm); the images are drawn at
#: :data:`CARD_SIZE`, i.e. at ``CARD_SIZE[0] / CARD_LAYOUT[0]`` times.
CARD_LAYOUT = (600, 800)
#: Card header colour (Ronin's red) and the row tints of the wound table, mildest first.
CARD_COLOUR = "#7a1f14"
WOUND_TINTS = {"stunned": "#f3e6b3", "light": "#f1d0a4", "grievous": "#e8ad98", "critical": "#d98b80"}


def _srcs(*docs: str) -> str:
    return "Sources: " + ", ".join(dict.fromkeys(docs))


def _dice(rolls: list[int]) -> str:
    """``[3, 4, 5]`` → ``"3-5"``, ``[6]`` → ``"6"`` (consecutive faces of a d6)."""
    return str(rolls[0]) if len(rolls) == 1 else f"{rolls[0]}-{rolls[-1]}"


def _signed(v: Any) -> str:
    """A modifier as printed on the cards: ``+1``, ``-2``, ``0``; ``unknown`` → ``?``."""
    return "?" if v == "unknown" else (f"{int(v):+d}" if int(v) else "0")


def reference_cards(data: RoninData) -> dict[str, Card]:
    """The reference sheet as designed cards (:mod:`pipeline.render.cards`), by image name:
    turn sequence, combat, wounds, shooting, shooting modifiers and missile weapons,
    hand-to-hand weapons, movement and morale. Every number comes from ``rules.yaml`` and
    ``weapons.yaml`` (which cite seed 001, the errata and the reference sheet).

    Raises:
        ValueError: a card's tables no longer fit it (more rows than the layout has room for).
    """
    r = data.rules
    st = r.stunned_removal
    seq = Card("Turn sequence", [
        Steps("Each turn", [f"{p.name}: {p.text}" for p in r.turn_sequence], step_h=60),
        Table("End Phase: removing Stunned counters (d6 per model)", [("d6", 0.18), ("Result", 0.82)],
              [[{"text": _dice(row.rolls), "bold": True}, row.text] for row in st.rows]
              + [[{"text": _signed(m.value), "bold": True}, f"to the roll: {m.text[0].lower()}{m.text[1:]}"] for m in st.modifiers],
              row_h=30, tints=[None] * len(st.rows) + ["#e3d3b0"] * len(st.modifiers)),
    ], subtitle="Priority, Move, Combat, Action, End", kanji="手順", colour=CARD_COLOUR, size=CARD_LAYOUT,
        footer=_srcs(*(p.source.doc for p in r.turn_sequence), *(row.source.doc for row in st.rows)))
    en = r.enhance
    armour = ", ".join(f"{a.name} {_signed(a.defence)}" for a in r.armour)
    combat = Card("Combat", [
        Table("The rolls (one counter each)", [("Roll", 0.2), ("Dice", 0.13), ("Adds", 0.3), ("Enhanced", 0.37)], [
            [{"text": "Initiative", "bold": True}, f"{r.initiative_dice}d6", "Initiative + weapon", en["initiative"]],
            [{"text": "Attack", "bold": True}, f"{r.attack_dice}d6", "Fight + weapon (Attack counter)", en["attack"]],
            [{"text": "Defence", "bold": True}, f"{r.defence_dice}d6", "Fight + armour (Defence counter)", en["defence"]],
        ], row_h=42),
        Table("Modifiers", [("When", 0.84), ("", 0.16)], [[m.text, {"text": _signed(m.value), "bold": True}] for m in r.defence_modifiers], row_h=32),
        Notes("", [f"Armour to the Defence Roll: {armour}.",
                   f"At most {r.max_attackers} models attack one model.",
                   f"Bujutsu: {en['bujutsu']}.",
                   "Wound Score = Attack Roll − Defence Roll (the Wounds card)."], h=0, size=15),
    ], subtitle="Combat Pool drawn as Attack and Defence counters", kanji="戦闘", colour=CARD_COLOUR, size=CARD_LAYOUT,
        footer=_srcs(*(m.source.doc for m in r.defence_modifiers), *(a.source.doc for a in r.armour)))

    def score(w: Any) -> str:
        return f"{w.min}+" if w.max is None else (str(w.min) if w.max == w.min else f"{w.min}-{w.max}")

    name = {w.id: w.name for w in r.wound_table}
    wounds = Card("Wounds", [
        Table("Wound Score (Attack − Defence)", [("Score", 0.14), ("Wound", 0.24), ("Effect", 0.62)],
              [[{"text": score(w), "bold": True}, {"text": w.name, "bold": True}, w.effect] for w in r.wound_table],
              row_h=62, tints=[WOUND_TINTS.get(w.id) for w in r.wound_table]),
        Table("A model already wounded", [("Has", 0.3), ("Suffers", 0.3), ("Becomes", 0.4)],
              [[name[c.has], name[c.new], {"text": name[c.becomes], "bold": True}] for c in r.wound_combinations],
              row_h=34, tints=[WOUND_TINTS.get(c.becomes) for c in r.wound_combinations]),
    ], subtitle="Wound Score = Attack Roll − Defence Roll", kanji="負傷", colour=CARD_COLOUR, size=CARD_LAYOUT,
        footer=_srcs(*(w.source.doc for w in r.wound_table), *(c.source.doc for c in r.wound_combinations)))
    teppo = data.weapons.get("teppo")
    bands = data.weapons_bands()
    shooting = Card("Shooting", [
        Table(f"Shooting Roll: 2d6 + Shoot + range{' (teppo: its own column)' if teppo else ''}",
              [("Range", 0.34), ("Modifier", 0.33), ("Teppo", 0.33)],
              [[{"text": f'{b.from_in:g}-{b.to_in:g}"', "bold": True}, _signed(b.modifier),
                _signed(b.teppo_modifier if b.teppo_modifier is not None else b.modifier)] for b in bands], row_h=34),
        Table(f"Number needed: {r.shooting_defence_base} + the target's", [("Target", 0.84), ("", 0.16)],
              [[m.text, {"text": _signed(m.value), "bold": True}] for m in r.shooting_defence_modifiers], row_h=34),
        Notes("", [f"{teppo.name}: {teppo.special}" if teppo and teppo.special else "",
                   "The Wound Score is the Shooting Roll − the number needed, as in combat."], h=0, size=15),
    ], subtitle="In the Move Phase or the Action Phase", kanji="射撃", colour=CARD_COLOUR, size=CARD_LAYOUT,
        footer=_srcs(*(b.source.doc for b in bands), *(m.source.doc for m in r.shooting_defence_modifiers)))
    missile = [w for w in data.weapons.values() if w.kind == "missile" and not w.same_as]
    shoot_mods = Card("Shooting modifiers", [
        Table("To the Shooting Roll", [("When", 0.86), ("", 0.14)],
              [[m.text, {"text": _signed(m.value), "bold": True}] for m in r.shooting_attack_modifiers], row_h=29),
        Table("Missile weapons", [("Weapon", 0.2), ("Range", 0.13), ("Shoot", 0.13), ("Special", 0.54)],
              [[{"text": w.name, "bold": True}, f'{w.max_range_in:g}"' if w.max_range_in else "?", _signed(w.shoot), w.special or "—"] for w in missile],
              row_h=44),
    ], subtitle="Korean bow = yumi, arquebus = teppo", kanji="弓鉄砲", colour=CARD_COLOUR, size=CARD_LAYOUT,
        footer=_srcs(*(m.source.doc for m in r.shooting_attack_modifiers), *(w.source.doc for w in missile)))
    melee = [w for w in data.weapons.values() if w.kind == "melee" and not w.same_as and w.id not in ("special", "shield")]

    def init(w: Any) -> str:
        return _signed(w.initiative) + (f" / {_signed(w.initiative_later)}" if w.initiative_later is not None else "")

    def notes(w: Any) -> str:
        bits = (["long-handled"] if w.long_handled else []) + ([f"{_signed(w.enhanced_attack_bonus)} Enhanced"] if w.enhanced_attack_bonus else []) \
            + ([f"{_signed(w.vs_heavy_attack)} vs heavy armour"] if w.vs_heavy_attack else [])
        return ", ".join(bits) or "—"

    aliases = ", ".join(f"{w.name} = {data.weapons[w.same_as].name}" for w in data.weapons.values() if w.same_as and w.kind == "melee")
    weapons = Card("Hand-to-hand weapons", [
        Table("", [("Weapon", 0.26), ("Initiative", 0.22), ("Attack", 0.14), ("Notes", 0.38)],
              [[{"text": w.name, "bold": True}, init(w), _signed(w.attack), notes(w)] for w in melee], row_h=30),
        Notes("", [f"{w.name}: {w.special}" for w in melee if w.special] + [f"Korean and Chinese weapons: {aliases}."], h=0, size=14),
    ], subtitle="Initiative: first round / later rounds", kanji="武器", colour=CARD_COLOUR, size=CARD_LAYOUT,
        footer=_srcs(*(w.source.doc for w in melee)))
    moves = [m for m in r.movement if m.id != "inexorable"] + [m for m in r.mounted if m.id in ("mounted_move", "gallop", "ride_by_in")]
    morale_rows = [m for m in r.morale_modifiers if m.id not in ("natural_2", "natural_12", "wavering_engage", "routing_act")]
    special = {m.id: m for m in r.morale_modifiers}
    morale_notes = [f"A natural {special['natural_2'].value} always passes, a natural {special['natural_12'].value} always fails." if "natural_2" in special and "natural_12" in special else "",
                    "Fail: Steady → Wavering → Routing (for the rest of the game); pass when Wavering: back to Steady.",
                    f"Wavering: to move into contact roll d6 + Rank, {special['wavering_engage'].value} or more." if "wavering_engage" in special else "",
                    f"Routing: to act as wished roll d6 + Rank, {special['routing_act'].value} or more; else Run or Gallop to the nearest edge." if "routing_act" in special else ""]
    morale = Card("Movement and morale", [
        Table("Moves (inches)", [("Move", 0.82), ("", 0.18)], [[m.text.replace(" (inches)", "").replace(" (inches; ", " (").replace("(inches each)", "(each way)"), {"text": f'{m.value}"', "bold": True}] for m in moves], row_h=31),
        Table("Morale Test: 2d6 + modifiers ≤ the Morale Rating passes", [("When", 0.84), ("", 0.16)],
              [[m.text, {"text": _signed(m.value), "bold": True}] for m in morale_rows], row_h=31),
        Notes("", ["Moves are halved in Difficult terrain, when Encumbered or Grievously wounded.", *(t for t in morale_notes if t)], h=0, size=14),
    ], subtitle="Moves and the Morale Test", kanji="移動士気", colour=CARD_COLOUR, size=CARD_LAYOUT,
        footer=_srcs(*(m.source.doc for m in moves), *(m.source.doc for m in r.morale_modifiers)))
    cards = [("1 turn", seq), ("2 combat", combat), ("3 wounds", wounds), ("4 shooting", shooting), ("5 shooting modifiers", shoot_mods),
             ("6 weapons", weapons), ("7 movement morale", morale)]
    for _n, c in cards:
        c.blocks = [b for b in c.blocks if not (isinstance(b, Notes) and not any(b.items))]
        for b in c.blocks:
            if isinstance(b, Notes):
                b.items = [t for t in b.items if t]
            elif isinstance(b, Table):
                b.fit = True  # every row at the table's text size, as high as its text (issue 32, item 10)
    return paged({card_image_name("reference", n): c for n, c in cards})


def reference_jobs(data: RoninData, scale: float | None = None) -> dict[str, RenderJob]:
    """Render jobs of the reference cards at ``scale`` (default: :data:`CARD_SIZE`)."""
    k = CARD_SIZE[0] / CARD_LAYOUT[0] if scale is None else scale
    return {n: c.job(k) for n, c in reference_cards(data).items()}


#: Text size (card units) of a roster card's weapons and options: the smallest a printed card
#: keeps (:data:`pipeline.render.legible.MIN_PRINT_PT` at :data:`CARD_LAYOUT` units to the
#: 90 mm card width: 5.5 pt is 12.9 units), the model names and stats 15.
ROSTER_DETAIL_SIZE = 13


def roster_card(data: RoninData, report: RosterReport) -> Card:
    """A Buntai's roster card: one row per roster line (count × model) with Rank, Combat Pool,
    Initiative, Fight, Shoot, armour, weapons, options (attributes, banner) and points each; a
    stat no public source gives shows ``?`` (it is ``unknown`` in the data). Then the faction's
    morale and Victory Points rules and the roster check's findings.

    Raises:
        ValueError: the Buntai has more roster lines than the card has room for.
    """
    rows = []
    for m in report.models:
        if m.copy:
            continue
        n = sum(1 for x in report.models if x.entry == m.entry)
        mt = m.model
        ws = ", ".join(data.weapons[w].name if w in data.weapons else w for w in m.weapons)
        opts = [data.attributes[a].name for a in m.attributes if a in data.attributes] + (["banner"] if m.banner else []) + (["mounted"] if mt.mounted else [])
        rows.append([{"text": f"{n} × {mt.name}" if n > 1 else mt.name, "bold": True}, _v(mt.rank), _v(m.combat_pool), _v(mt.initiative), _v(mt.fight), _v(mt.shoot),
                     ARMOUR_LETTER.get(m.armour, m.armour), {"text": ws + (f"\n{', '.join(opts)}" if opts else ""), "size": ROSTER_DETAIL_SIZE},
                     {"text": str(m.points), "bold": True}])
    faction = data.factions[report.roster.faction]
    morale = [r.text for r in faction.rules if r.kind == "morale"] or ([f"The Morale Rating of {faction.name} is {faction.morale}"] if faction.morale else [])
    vp = [r.text for r in faction.rules if r.kind == "victory_points"]
    checks = [f"{f.rule}: {f.message}" for f in report.findings + report.notes]
    row_h = 44 if len(rows) <= 8 else max(26, 330 / len(rows))
    blocks: list[Any] = [Table("", [("Model", 0.24), ("R", 0.045), ("CP", 0.055), ("I", 0.045), ("F", 0.045), ("S", 0.045), ("A", 0.045), ("Weapons · options", 0.415), ("Pts", 0.065)],
                               rows, row_h=row_h, fit=True)]
    if morale or vp:
        blocks.append(Notes("Morale and Victory Points", morale + vp, h=0, size=14))
    if checks:
        blocks.append(Notes("Roster check", checks, h=0, size=13))
    sub = f"{faction.name} · {len(report.models)} models · {report.total} of {report.roster.points_limit} points"
    return Card(report.roster.name, blocks, subtitle=sub, kanji="分隊", colour=CARD_COLOUR, size=CARD_LAYOUT,
                footer="R Rank · CP Combat Pool · I Initiative · F Fight · S Shoot · A Armour (L light, M medium, H heavy, - none); points each · ? = not in the public sources (gunbai roster check)")


def roster_job(data: RoninData, report: RosterReport, scale: float | None = None) -> RenderJob:
    """The render job of a Buntai's (first) roster card at ``scale`` (default: :data:`CARD_SIZE`)."""
    return roster_card(data, report).pages()[0].job(CARD_SIZE[0] / CARD_LAYOUT[0] if scale is None else scale)


def roster_jobs(data: RoninData, roster_id: str, report: RosterReport, scale: float | None = None) -> dict[str, RenderJob]:
    """The render jobs of a Buntai's roster cards by image name: one card, or more when its
    rows and notes at the legibility floor need more (:func:`pipeline.render.cards.paged`)."""
    k = CARD_SIZE[0] / CARD_LAYOUT[0] if scale is None else scale
    return {n: c.job(k) for n, c in paged({card_image_name("roster", roster_id): roster_card(data, report)}).items()}
