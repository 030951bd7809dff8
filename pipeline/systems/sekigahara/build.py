"""Sekigahara build: load → verify → render → package → lint, into ``build/sekigahara/``; and
the playability entry point :func:`play` (``gunbai verify --play N``).

The module: the table with a range line in inches, units of stands to scale with free facing and
a Stands counter, a turn marker to the turn limit, a D6, the treachery roll as one button per
turn (turn 2, 3 and "4+") whose die faces read the outcome of the chosen reading, reference cards,
and the scenario as a predefined setup.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from pipeline.build import BuildRefused, BuildResult
from pipeline.measured.vassal_module import Placed, UnitPiece, build_measured_module
from pipeline.output import write_images
from pipeline.render.png import png_bytes
from pipeline.render.templates import TemplateRenderer
from pipeline.systems.sekigahara.load import UNDECIDED, SekiData, load
from pipeline.systems.sekigahara.verify import verify_all as verify_scenarios
from pipeline.vassal.archive import resolve_date_saved_ms as resolve_date_ms
from pipeline.vassal.buildfile import DiceButton, SpecialDiceButton, SpecialDie, SpecialDieFace

MODULE_FILE = "sekigahara.vmod"
TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
TERRAIN_COLOURS = {"hill": "#b7b27a", "woods": "#3f6b35", "river": "#5b8fc0", "marsh": "#7f9a78", "town": "#a08060"}


def verify(data_dir: Path, scenario_files: list[Path] | None) -> tuple[list, int]:
    data = load(data_dir, scenario_files=scenario_files)
    return verify_scenarios(data), len(data.scenarios)


def _new_state(data, scenario):
    from pipeline.systems.sekigahara.engine import SekiState

    return SekiState(data, scenario)


def play(data_dir: Path, n: int, seed: int, *, workers: int = 1) -> list:
    """``n`` seeded random-policy games of every scenario: one
    :class:`pipeline.play.PlayabilityReport` each (East = player 0, West = player 1). The label
    says that the winner is decided by gunbai's own victory condition
    (:data:`~pipeline.systems.sekigahara.engine.VICTORY_NOTE`): the rules text gives none."""
    from pipeline.play import random_policy, run_playability
    from pipeline.systems.sekigahara.engine import VICTORY_NOTE

    data = load(data_dir)
    out = []
    for loaded in data.scenarios:
        sc = loaded.model
        out.append(run_playability(partial(_new_state, data, sc), random_policy, games=n, seed=seed, turn_cap=sc.turns + 1,
                                   side_names=["Eastern Army", "Western Army"], label=f"sekigahara {sc.code} {sc.name} (random play; {VICTORY_NOTE})", workers=workers))
    return out


def treachery_buttons(data: SekiData) -> list[SpecialDiceButton]:
    """One button per treachery row from turn 2: a D6 whose faces read the outcome."""
    tr = data.system.treachery
    rows = tr.rows()
    out = []
    for i, row in enumerate(rows):
        if row.turn == 1:
            continue
        last = i == len(rows) - 1
        label = f"{row.turn}+" if last else str(row.turn)
        faces = [SpecialDieFace(f"{f}: " + ("joins the East" if f in row.east else "joins the West" if f in row.west else "undecided"), f) for f in range(1, 7)]
        out.append(SpecialDiceButton(f"Treachery turn {label}", [SpecialDie("Kobayakawa", faces)], text=f"Treachery T{label}",
                                     tooltip=f"Kobayakawa's treachery roll on turn {label} ({tr.reading} reading, erratum treachery_table_columns)",
                                     format=f"** Treachery roll, turn {label}: Kobayakawa $result1$ *** <$PlayerName$>"))
    return out


def _r() -> TemplateRenderer:
    return TemplateRenderer(TEMPLATES)


def render_images(data: SekiData) -> dict[str, bytes]:
    r = _r()
    ppi = data.system.vassal.px_per_inch
    st = data.system.stand
    out: dict[str, bytes] = {}
    for loaded in data.scenarios:
        sc = loaded.model
        armies = {s.id: s.army for s in sc.sides} | {UNDECIDED: UNDECIDED}
        for up in sc.units:
            col = data.system.armies[armies[up.side]]
            w = up.stands * st.width
            ctx = {"w": w, "d": st.depth, "fill": col.fill, "text": col.text, "label": up.name.split(" (")[0], "sub": data.units[up.unit].name, "general": up.leader is not None}
            out[f"unit_{up.id}.png"] = png_bytes(r.image("sekigahara/unit_counter.yaml.j2", ctx, size=(round(w * ppi), round(st.depth * ppi))))
        t = data.system.table
        feats = [{"x": tp.area.x, "y": tp.area.y, "w": tp.area.w, "h": tp.area.h, "colour": TERRAIN_COLOURS[tp.terrain], "name": tp.name or tp.terrain} for tp in sc.terrain]
        areas = [{"x": d.area.x, "y": d.area.y, "w": d.area.w, "h": d.area.h, "colour": data.system.armies[armies[d.side]].fill, "name": d.id} for d in sc.deployments]
        out[f"table_{sc.id}.png"] = png_bytes(r.image("sekigahara/table.yaml.j2", {"width": t.width, "depth": t.depth, "features": feats, "areas": areas}, size=(round(t.width * ppi), round(t.depth * ppi))))
    out["turn_marker.png"] = png_bytes(r.image("sekigahara/marker.yaml.j2", {"text": "Turn", "fill": "#333333"}, width_px=40))
    return out


def render_cards(data: SekiData) -> dict[str, bytes]:
    from pipeline.systems.sekigahara.odds import treachery_by_turn

    s = data.system
    r = _r()
    seq = [{"text": "Sequence of play", "bold": True}, {"text": "1 Treachery roll, 2 East moves, 3 East shoots, 4 West moves, 5 West shoots, 6 Charges (East first), 7 Melee."},
           {"text": f"Movement: up to {s.movement.inches:g}\"; commanders {s.movement.commander_inches:g}\"."},
           {"text": f"Shooting: Arquebusiers and Archers, {s.shooting.range_inches:g}\". If any base is in range all fire: 1 D6 per base, each 6 removes a stand. Not while in melee, nor at units in melee."},
           {"text": f"Charges: up to {s.charge.max_inches:g}\", only at an enemy in front that can be reached."},
           {"text": "Melee: both sides roll 1 D6 per base (a leader is one more) at once: Cavalry and Leaders hit on 4-6, Foot Samurai 5-6, Ashigaru Spears 6, anyone against Archers or Arquebusiers 4-6. Engaged units fight again next turn."},
           {"text": f"Flank or rear charge: the enemy fights back with {s.flank_attack.defender_bases} bases, first round only. A unit down to 1 stand is removed."},
           {"text": "Leaders: not targeted; if their unit loses bases in melee, a 6 on a D6 kills them. Personal combat if both agree: high roll wins, ties re-rolled."}]
    tr = [{"text": f"Treachery die roll ({s.treachery.reading} reading)", "bold": True}]
    for row in s.treachery.rows():
        e = "-".join(str(x) for x in (row.east[:1] + row.east[-1:] if len(row.east) > 1 else row.east)) or "-"
        w = "-".join(str(x) for x in (row.west[:1] + row.west[-1:] if len(row.west) > 1 else row.west)) or "-"
        tr.append({"text": f"Turn {row.turn}{'+' if row is s.treachery.rows()[-1] else ''}: East on {e}, West on {w}."})
    tr.append({"text": "Chance by the end of each turn (East / West / undecided)", "bold": True})
    for t in treachery_by_turn(s.treachery.rows(), 6):
        tr.append({"text": f"Turn {t['turn']}: {float(t['east_by_end']):.1%} / {float(t['west_by_end']):.1%} / {float(t['undecided_after']):.1%}", "size": 15})
    tr.append({"text": "Erratum: the article's table swaps the text's East and West columns; gunbai follows the text.", "size": 14})
    cards = {"card_sequence.png": ("The Reluctant Samurai", seq), "card_treachery.png": ("Kobayakawa's treachery", tr)}
    return {n: png_bytes(r.image("sekigahara/card.yaml.j2", {"title": t, "items": it}, size=(600, 840))) for n, (t, it) in cards.items()}


def render(data_dir: Path, out_dir: Path, *, what: str) -> list[Path]:
    data = load(data_dir)
    if what == "counters":
        return write_images(out_dir / "images", render_images(data))
    return write_images(out_dir / "cards", render_cards(data))


def build(data_dir: Path, out_dir: Path, *, progress: bool = True) -> BuildResult:
    result = BuildResult("sekigahara")
    t0 = time.perf_counter()
    data = load(data_dir)
    findings = verify_scenarios(data)
    BuildRefused.check(findings)
    images = render_images(data)
    cards = render_cards(data)
    ppi = data.system.vassal.px_per_inch
    st = data.system.stand
    t = data.system.table
    palette: dict[str, list[UnitPiece]] = {}
    setups = []
    for loaded in data.scenarios:
        sc = loaded.model
        placed = [Placed("marker:turn", 2, 2, counter=1)]
        for up in sc.units:
            key = f"unit:{up.id}"
            group = {"east": "Eastern Army", "west": "Western Army"}.get(up.side, "Kobayakawa (undecided)")
            w = up.stands * st.width
            palette.setdefault(group, []).append(UnitPiece(key, up.name, f"unit_{up.id}.png", (round(w * ppi), round(st.depth * ppi)),
                                                           (("Side", up.side), ("Unit", up.unit), ("Leader", up.leader.name if up.leader else "")), "stands", up.stands, up.stands))
            placed.append(Placed(key, up.x, up.y, up.facing, up.stands))
        setups.append((f"{sc.id}.vsav", f"{sc.code} {sc.name}", sc.description, f"{sc.code} table", placed))
    pal = [(g, ps) for g, ps in palette.items()] + [("Markers", [UnitPiece("marker:turn", "Turn marker", "turn_marker.png", (40, 40), (("Marker", "turn"),), "turn", data.system.turns.limit, 1, rotates=False)])]
    v = data.system.vassal
    module_path = out_dir / MODULE_FILE
    entries, n = build_measured_module(
        name=v.module_name, version=v.module_version, description=v.description, sides=["East", "West"],
        tables=[(f"{s.model.code} table", f"table_{s.model.id}.png") for s in data.scenarios], table_px=(round(t.width * ppi), round(t.depth * ppi)), ppi=ppi,
        palette=pal, dice=[DiceButton("D6", 1, 6, text="D6", tooltip="Roll a D6"), *treachery_buttons(data)], cards=sorted(cards),
        setups=setups, images={**images, **cards}, out_path=module_path, date_ms=resolve_date_ms(v.date_saved_ms))
    result.files += write_images(out_dir / "images", images) + write_images(out_dir / "cards", cards)
    result.files.append(module_path)
    result.module, result.module_entries, result.module_bytes, result.scenarios = module_path, entries, module_path.stat().st_size, n
    result.seconds["total"] = time.perf_counter() - t0
    return result
