"""OHW Samurai build: load → verify → render → package → lint, into ``build/ohw/``; and the
playability entry point :func:`play` (``gunbai verify --play N``).

Outputs: ``ohw.vmod`` (table with a range line in inches, unit counters with bases to scale and
free facing, Hits 0-15, a turn marker 1-15, the D6, reference cards, each scenario a predefined
setup), ``images/*.png``, ``cards/*.png``.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from pipeline.build import BuildRefused, BuildResult
from pipeline.measured.vassal_module import Placed, UnitPiece, build_measured_module
from pipeline.output import size_of, write_images
from pipeline.render.png import png_bytes
from pipeline.render.templates import TemplateRenderer
from pipeline.systems.ohw.load import OhwData, load
from pipeline.systems.ohw.verify import verify_all as verify_scenarios
from pipeline.vassal.archive import resolve_date_saved_ms as resolve_date_ms
from pipeline.vassal.buildfile import DiceButton

MODULE_FILE = "ohw.vmod"
TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def verify(data_dir: Path, scenario_files: list[Path] | None) -> tuple[list, int]:
    data = load(data_dir, scenario_files=scenario_files)
    return verify_scenarios(data), len(data.scenarios)


def _new_state(data, scenario):
    from pipeline.systems.ohw.engine import OhwState

    return OhwState(data, scenario)


def play(data_dir: Path, n: int, seed: int, *, workers: int = 1) -> list:
    """Play ``n`` seeded games of every scenario under the random policy: one
    :class:`pipeline.play.PlayabilityReport` per scenario (win rate per side with a 95% Wilson
    interval, mean length in player turns, share cut off by the turn cap = 2 × turns + 1)."""
    from pipeline.play import random_policy, run_playability

    data = load(data_dir)
    reports = []
    for loaded in data.scenarios:
        sc = loaded.model
        reports.append(run_playability(partial(_new_state, data, sc), random_policy, games=n, seed=seed, turn_cap=2 * sc.turns + 1,
                                       side_names=[s.name for s in sc.sides], label=f"ohw {sc.code} {sc.name} (random play)", workers=workers))
    return reports


def _renderer() -> TemplateRenderer:
    return TemplateRenderer(TEMPLATES)


def unit_image(unit_id: str, army: str) -> str:
    return f"unit_{unit_id}_{army}.png"


def render_images(data: OhwData) -> dict[str, bytes]:
    r = _renderer()
    ppi = data.system.vassal.px_per_inch
    out: dict[str, bytes] = {}
    for army, col in data.system.armies.items():
        for u in data.units.values():
            for general in (False, True):
                if general and not u.can_carry_general:
                    continue
                ctx = {"w": u.base.width, "d": u.base.depth, "fill": col.fill, "text": col.text, "label": u.name.split(" (")[0], "sub": f'{u.move.inches:g}"' + (" +General" if general else ""), "general": general}
                name = unit_image(u.id + ("_general" if general else ""), army)
                out[name] = png_bytes(r.image("ohw/unit_counter.yaml.j2", ctx, size=(round(u.base.width * ppi), round(u.base.depth * ppi))))
    out["turn_marker.png"] = png_bytes(r.image("ohw/marker.yaml.j2", {"text": "Turn", "fill": "#333333"}, width_px=40))
    t = data.system.table
    for loaded in data.scenarios:
        sc = loaded.model
        feats = [{"x": tp.area.x, "y": tp.area.y, "w": tp.area.w, "h": tp.area.h, "colour": data.terrain[tp.terrain].colour, "name": tp.name or data.terrain[tp.terrain].name} for tp in sc.terrain]
        armies = {s.id: s.army for s in sc.sides}
        areas = [{"x": d.area.x, "y": d.area.y, "w": d.area.w, "h": d.area.h, "colour": data.system.armies[armies[d.side]].fill, "name": d.id} for d in sc.deployments]
        out[f"table_{sc.id}.png"] = png_bytes(r.image("ohw/table.yaml.j2", {"width": t.width, "depth": t.depth, "features": feats, "areas": areas}, size=(round(t.width * ppi), round(t.depth * ppi))))
    return out


def render_cards(data: OhwData) -> dict[str, bytes]:
    r = _renderer()
    s = data.system
    o = s.orders
    seq = [{"text": "Sequence of play (each player turn)", "bold": True},
           {"text": f"1 Movement, 2 Shooting, 3 Hand-to-hand combat, 4 Eliminating units. The game ends after {s.turns.limit} turns."},
           {"text": "Orders", "bold": True},
           {"text": f"Each unit rolls a D6: {o.full_move_on}+ moves its full allowance, otherwise {o.reduced_by_inches:g}\" less. With {o.damaged_at_hits}+ hits it needs {o.damaged_full_move_on}+."},
           {"text": "Turning: pivot on the centre at the start and/or end of the move. Charges: one turn of at most 45 degrees at the start; one attacker per face (front, flanks, rear)."},
           {"text": "Interpenetration: only Skirmishers (Mounted Samurai) pass through units, and units through them."},
           {"text": "General (Daimyo)", "bold": True},
           {"text": "Attached to a Foot Samurai unit for the whole game, removed with it. May re-roll any die of his unit once; the re-roll stands."}]
    units = [{"text": "Unit types", "bold": True}]
    for u in data.units.values():
        sh = f"shoots 12\" D6{u.shooting.modifier:+d}" if u.shooting else "no shooting"
        units.append({"text": f"{u.name}: move {u.move.inches:g}\", {sh}, melee D6{u.melee.modifier:+d}" + (", half hits if attacked frontally" if u.melee.halved_if_attacked_frontally else "") + f"; base {u.base.width:g}\" x {u.base.depth:g}\"."})
    units += [{"text": "Shooting", "bold": True}, {"text": "One target within 45 degrees of the front, range 12\". Cover (town, tate): half hits, rounded up."},
              {"text": "Hand-to-hand", "bold": True}, {"text": "Only the phasing side inflicts hits. Half hits (rounded up) for Ashigaru attacked frontally, defenders in a town, on a hill or at a river crossing, or behind a bamboo palisade (once at most). Flank or rear attacks: double."},
              {"text": f"Eliminated at {s.elimination.hits} hits."}]
    terr = [{"text": "Terrain", "bold": True}]
    for t in data.terrain.values():
        eff = []
        if not t.passable:
            eff.append("impassable")
        if t.blocks_sight:
            eff.append("blocks sight")
        if t.shooting_cover:
            eff.append("cover from shooting")
        if t.melee_halved:
            eff.append("defenders take half hits in hand-to-hand")
        if t.road:
            eff.append("+3\" for a move wholly on the road (not charging)")
        terr.append({"text": f"{t.name}: {', '.join(eff) or 'no effect'}."})
    terr.append({"text": "Field defences", "bold": True})
    for d in data.defences.values():
        terr.append({"text": f"{d.name}: halves {d.halves.replace('_', '-')} hits against the unit; removed if the unit moves."})
    errata = [{"text": "Readings chosen (errata)", "bold": True}] + [{"text": f"{e.topic}: {e.readings[e.chosen]}", "size": 14} for e in data.sources.errata]
    cards = {"card_sequence_orders.png": ("Sequence, orders, General", seq), "card_units_combat.png": ("Units and combat", units),
             "card_terrain_defences.png": ("Terrain and defences", terr), "card_errata.png": ("Errata", errata)}
    return {n: png_bytes(r.image("ohw/card.yaml.j2", {"title": t, "items": items}, size=(600, 840))) for n, (t, items) in cards.items()}


def render(data_dir: Path, out_dir: Path, *, what: str) -> list[Path]:
    data = load(data_dir)
    if what == "counters":
        return write_images(out_dir / "images", render_images(data))
    return write_images(out_dir / "cards", render_cards(data))


def build(data_dir: Path, out_dir: Path, *, progress: bool = True) -> BuildResult:
    result = BuildResult("ohw")
    t0 = time.perf_counter()
    data = load(data_dir)
    findings = verify_scenarios(data)
    BuildRefused.check(findings)
    images = render_images(data)
    cards = render_cards(data)
    ppi = data.system.vassal.px_per_inch
    t = data.system.table
    palette = []
    for army, _col in data.system.armies.items():
        pieces = []
        for u in data.units.values():
            for general in (False, True):
                if general and not u.can_carry_general:
                    continue
                key = f"unit:{u.id}{':general' if general else ''}:{army}"
                nm = f"{u.name.split(' (')[0]}{' + General' if general else ''} ({army})"
                pieces.append(UnitPiece(key, nm, unit_image(u.id + ("_general" if general else ""), army), (round(u.base.width * ppi), round(u.base.depth * ppi)),
                                        (("Side", army), ("Unit", u.id), ("General", str(general).lower())), "hits", data.system.elimination.hits))
        palette.append((f"{army.capitalize()} army", pieces))
    palette.append(("Markers", [UnitPiece("marker:turn", "Turn marker", "turn_marker.png", (40, 40), (("Marker", "turn"),), "turn", data.system.turns.limit, 1, rotates=False)]))
    setups = []
    for loaded in data.scenarios:
        sc = loaded.model
        armies = {s.id: s.army for s in sc.sides}
        placed = [Placed("marker:turn", 1.5, 1.5, counter=1)]
        for up in sc.units:
            placed.append(Placed(f"unit:{up.unit}{':general' if up.general else ''}:{armies[up.side]}", up.x, up.y, up.facing, 0))
        setups.append((f"{sc.id}.vsav", f"{sc.code} {sc.name}", sc.description, f"{sc.code} table", placed))
    tables = [(f"{s.model.code} table", f"table_{s.model.id}.png") for s in data.scenarios]
    v = data.system.vassal
    module_path = out_dir / MODULE_FILE
    entries, n_setups = build_measured_module(
        name=v.module_name, version=v.module_version, description=v.description, sides=[a.capitalize() for a in data.system.armies],
        tables=tables, table_px=(round(t.width * ppi), round(t.depth * ppi)), ppi=ppi, palette=palette,
        dice=[DiceButton("D6", 1, 6, text="D6", tooltip="Roll a D6 (orders, shooting, hand-to-hand)")],
        cards=sorted(cards), setups=setups, images={**images, **cards}, out_path=module_path, date_ms=resolve_date_ms(v.date_saved_ms))
    result.files += write_images(out_dir / "images", images) + write_images(out_dir / "cards", cards)
    result.files.append(module_path)
    result.module = module_path
    result.module_entries = entries
    result.module_bytes = size_of(module_path)
    result.scenarios = n_setups
    result.seconds["total"] = time.perf_counter() - t0
    return result
