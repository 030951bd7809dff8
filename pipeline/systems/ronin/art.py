"""What the Ronin module draws, by template (``templates/ronin/``): a round-based counter per
model type and side, the markers, the measured tables, the deployment zones and objective areas
of the set-ups, the reference sheet and a roster card per Buntai.

Sizes: the table is drawn in inches at ``px_per_inch`` of ``system.yaml``; a model's counter is
its 25 mm base at the same scale (about one inch), so the range thread measures true distances
between bases.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PIL import Image

from pipeline.render.cache import RenderCache, RenderJob
from pipeline.render.templates import TemplateRenderer
from pipeline.systems.ronin.load import HIRED, RoninData
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


def table_context(side_in: int, zones: list | None = None) -> dict[str, Any]:
    """The battlefield context of a bare ``side_in``-inch square table (players place their own
    terrain in Ronin): ground, compass, scale bar, edge ticks, and ``zones``
    (:class:`pipeline.measured.art.Zone`) when given."""
    from pipeline.measured.art import battlefield_context

    return battlefield_context(side_in, side_in, [], zones or [], seed=f"ronin-{side_in}")


def table_jobs(data: RoninData) -> dict[str, RenderJob]:
    """The tables, one per size, drawn as ground at ``px_per_inch``."""
    from pipeline.measured.art import table_job

    ppi = data.system.vassal.px_per_inch
    return {table_image_name(s): table_job(table_context(s), ppi) for s in data.system.vassal.boards_inches}


def zone_job(data: RoninData, zone: Zone, colour: str, label: str) -> RenderJob:
    ppi = data.system.vassal.px_per_inch
    ctx = {"zone": {"kind": zone.kind, "w": zone.w, "h": zone.h, "r": zone.r, "fill": colour + "40", "edge": colour, "label": label}}
    return RenderJob("ronin/zone.yaml.j2", ctx, scale=ppi)


def zone_jobs(data: RoninData) -> dict[str, RenderJob]:
    """The deployment zones of every game (one image each)."""
    out = {}
    for lg in data.games:
        g: Game = lg.value
        for i, side in enumerate(g.sides):
            colour = data.system.sides[side.side].fill
            out[zone_image_name(g.id, i)] = zone_job(data, side.zone, colour, f"{side.role} deployment")
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


def _card(title: str, subtitle: str, sections: list[dict[str, Any]], footer: str) -> RenderJob:
    w, h = CARD_SIZE
    return RenderJob("ronin/card.yaml.j2", {"card": {"width": w, "height": h, "title": title, "subtitle": subtitle, "footer": footer}, "sections": sections}, size=CARD_SIZE)


def reference_jobs(data: RoninData) -> dict[str, RenderJob]:
    """The reference sheet as three cards: turn and movement, combat, shooting and weapons."""
    r = data.rules
    wt = [f"{w.min}{'' if w.max == w.min else ('+' if w.max is None else f'-{w.max}')}: {w.name} — {w.effect}" for w in r.wound_table]
    combos = [f"{c.has} + {c.new} → {c.becomes}" for c in r.wound_combinations]
    morale = [f"{m.text}: {m.value:+d}" if isinstance(m.value, int) and m.id not in ("natural_2", "natural_12", "wavering_engage", "routing_act") else m.text for m in r.morale_modifiers]
    moves = [f"{m.text}: {m.value}" for m in r.movement + r.mounted[:3]]
    page1 = [
        {"heading": "Turn sequence", "lines": ["1 Priority (d6 each, re-roll ties; test Morale)", "2 Move (move or shoot, alternating)", "3 Combat", "4 Action (shoot, reload, loot, pick up, mount, rest)", "5 End (remove Stunned: d6 1-2 none, 3-5 one, 6 two; -1 engaged, +1 rested)"]},
        {"heading": "Movement (inches)", "lines": moves + ["Halved: Stunned or Grievous, Encumbered, Difficult terrain (stacks)"]},
        {"heading": "Morale (2d6 ≤ rating passes)", "lines": morale + ["Steady → Wavering → Routing (permanent)"]},
    ]
    melee_w = [w for w in data.weapons.values() if w.kind == "melee" and not w.same_as and w.id not in ("special", "shield")]
    weapons = [f"{w.name}: Init {_mod(w.initiative)}{('/' + _mod(w.initiative_later)) if w.initiative_later is not None else ''}, Attack {_mod(w.attack)}{' (+' + str(w.enhanced_attack_bonus) + ' Enhanced)' if w.enhanced_attack_bonus else ''}" for w in melee_w]
    page2 = [
        {"heading": "Combat", "lines": ["Draw Combat Pool as Attack and Defence counters; Initiative d6 + Init (Enhance: 2d6 keep 1)", "Attack 2d6 + Fight + weapon (Enhance: 3d6 keep 2); Defence 1d6 + Fight + armour (Enhance: 2d6)", "Armour: light +1, medium +2, heavy +3; engaged by 3+: -1 defence"]},
        {"heading": "Wound Score (attack − defence)", "lines": wt + combos},
        {"heading": "Hand-to-hand weapons", "lines": weapons},
    ]
    bands = [f'{b.from_in:g}-{b.to_in:g}": {b.modifier:+d}' + (f" (teppo {b.teppo_modifier:+d})" if b.teppo_modifier is not None else "") for b in data.weapons_bands()]
    page3 = [
        {"heading": "Shooting: 2d6 + Shoot + modifiers vs 6 + armour + cover", "lines": bands + [f"{m.text}: {m.value:+d}" for m in r.shooting_attack_modifiers if isinstance(m.value, int)]},
        {"heading": "Shooting defence", "lines": [f"{m.text}: {m.value:+d}" for m in r.shooting_defence_modifiers] + ["Teppo: light and medium armour give nothing, heavy counts as light"]},
        {"heading": "Missile weapons", "lines": [f'{w.name}: range {w.max_range_in:g}", Shoot {_mod(w.shoot)}' + (f" — {w.special}" if w.special else "") for w in data.weapons.values() if w.kind == "missile" and not w.same_as]},
    ]
    foot = "Sources: ronin_book, ronin_errata (Oct 2013), ronin_reference_sheet, bsdata_ronin"
    return {
        card_image_name("reference", "1 turn"): _card("Ronin reference 1: turn, movement, morale", "", page1, foot),
        card_image_name("reference", "2 combat"): _card("Ronin reference 2: combat and wounds", "", page2, foot),
        card_image_name("reference", "3 shooting"): _card("Ronin reference 3: shooting", "", page3, foot),
    }


def _mod(v: Any) -> str:
    return "?" if v == "unknown" else f"{int(v):+d}"


def roster_job(data: RoninData, report: RosterReport) -> RenderJob:
    """A Buntai's roster card: each model with its statline, weapons, attributes and points."""
    lines = []
    for m in report.models:
        if m.copy:
            continue
        n = sum(1 for x in report.models if x.entry == m.entry)
        mt = m.model
        stats = f"R{_v(mt.rank)} CP{_v(m.combat_pool)} I{_v(mt.initiative)} F{_v(mt.fight)} S{_v(mt.shoot)} {m.armour}"
        ws = ", ".join(data.weapons[w].name if w in data.weapons else w for w in m.weapons)
        at = ", ".join(data.attributes[a].name for a in m.attributes if a in data.attributes)
        lines.append(f"{n} x {mt.name} ({stats}) {ws}" + (f"; {at}" if at else "") + (" ; banner" if m.banner else "") + f" — {m.points} pts" + (" each" if n > 1 else ""))
    faction = data.factions[report.roster.faction]
    sections = [{"heading": f"{faction.name}: {len(report.models)} models, {report.total} of {report.roster.points_limit} points", "lines": lines}]
    morale = [r.text for r in faction.rules if r.kind == "morale"]
    vp = [r.text for r in faction.rules if r.kind == "victory_points"]
    if morale:
        sections.append({"heading": "Morale", "lines": morale})
    if vp:
        sections.append({"heading": "Victory Points", "lines": vp})
    if report.findings or report.notes:
        sections.append({"heading": "Roster check", "lines": [f"{f.rule}: {f.message}" for f in report.findings + report.notes]})
    return _card(report.roster.name, f"Buntai roster ({report.roster.id})", sections, "gunbai roster check; ? = not in the public sources")
