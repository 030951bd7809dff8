"""Sekigahara build: load → verify → render → package → lint, into ``build/sekigahara/``
(:class:`pipeline.systems.sekigahara.system.SekigaharaSystem` calls :func:`build` and :func:`render`).

The module: the field of Sekigahara drawn as a battlefield (:mod:`pipeline.systems.sekigahara.art`)
with a range line in inches, units of stands to scale with free facing and a Stands counter, a turn
marker to the turn limit, a D6, the treachery roll as one button per turn (turn 2, 3 and "4+")
whose die faces read the outcome of the chosen reading, reference cards and the scenario sheet,
and the scenario as a predefined setup. ``gunbai sheets`` writes ``print/``
(:mod:`pipeline.systems.sekigahara.printing`).
"""

from __future__ import annotations

import time
from pathlib import Path

from pipeline.build import BuildRefused, BuildResult
from pipeline.measured.art import render_cache
from pipeline.measured.vassal_module import Placed, UnitPiece, build_measured_module
from pipeline.output import size_of, write_images
from pipeline.systems.sekigahara import art
from pipeline.systems.sekigahara.data import SekiData
from pipeline.systems.sekigahara.load import load
from pipeline.systems.sekigahara.verify import verify_all as verify_scenarios
from pipeline.vassal.archive import resolve_date_saved_ms as resolve_date_ms
from pipeline.vassal.buildfile import DiceButton, SpecialDiceButton, SpecialDie, SpecialDieFace

MODULE_FILE = "sekigahara.vmod"
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


#: The render cache (content-hash keyed PNGs, :mod:`pipeline.render.cache`) under the output folder.
CACHE_DIR = ".cache"


def render_images(data: SekiData, cache_dir: Path | None = None) -> dict[str, bytes]:
    """PNG bytes of the field, every contingent and the turn marker, through the render cache."""
    return render_cache(cache_dir).render_all(art.image_jobs(data))


def render_cards(data: SekiData, cache_dir: Path | None = None) -> dict[str, bytes]:
    """PNG bytes of every reference card and scenario sheet (for the chart window), through the
    render cache in ``cache_dir``."""
    from pipeline.systems.sekigahara import printing

    cache = render_cache(cache_dir)
    return {**cache.render_all(art.card_jobs(data)), **printing.chart_pngs(data, cache)}


def render(data_dir: Path, out_dir: Path, *, what: str, data: SekiData | None = None) -> list[Path]:
    """Render ``counters`` (field, counters, marker), ``cards`` or ``sheets`` (print PDFs). ``data``: the data of ``data_dir`` when the caller has
    loaded it already (a build's :attr:`~pipeline.build.BuildResult.data`), else it is loaded."""
    if data is None:
        data = load(data_dir)
        from pipeline.systems.sekigahara.printing import check_fit

        check_fit(data)
    if what == "counters":
        return write_images(out_dir / "images", render_images(data, out_dir / CACHE_DIR))
    if what == "sheets":
        from pipeline.systems.sekigahara import printing

        return printing.write_print(data, out_dir, render_cache(out_dir / CACHE_DIR))
    return write_images(out_dir / "cards", render_cards(data, out_dir / CACHE_DIR))


def build(data_dir: Path, out_dir: Path, *, progress: bool = True) -> BuildResult:
    result = BuildResult("sekigahara")
    t0 = time.perf_counter()
    data = load(data_dir)
    from pipeline.systems.sekigahara.printing import check_fit

    check_fit(data)
    result.data = data
    findings = verify_scenarios(data)
    BuildRefused.check(findings)
    images = render_images(data, out_dir / CACHE_DIR)
    cards = render_cards(data, out_dir / CACHE_DIR)
    ppi = data.system.vassal.px_per_inch
    st = data.system.stand
    t = data.system.table
    palette: dict[str, list[UnitPiece]] = {}
    setups = []
    for loaded in data.scenarios:
        sc = loaded.model
        placed = [Placed("marker:turn", *art.TURN_MARKER_AT, counter=1)]
        for up in sc.units:
            key = f"unit:{up.id}"
            group = {"east": "Eastern Army", "west": "Western Army"}.get(up.side, "Kobayakawa (undecided)")
            w = up.stands * st.width
            palette.setdefault(group, []).append(UnitPiece(key, up.name, art.unit_image(up.id), (round(w * ppi), round(st.depth * ppi)),
                                                           (("Side", up.side), ("Unit", up.unit), ("Leader", up.leader.name if up.leader else "")), "stands", up.stands, up.stands))
            placed.append(Placed(key, up.x, up.y, up.facing, up.stands))
        setups.append((f"{sc.id}.vsav", f"{sc.code} {sc.name}", sc.description, f"{sc.code} table", placed))
    pal = [(g, ps) for g, ps in palette.items()] + [("Markers", [UnitPiece("marker:turn", "Turn marker", "turn_marker.png", (40, 40), (("Marker", "turn"),), "turn", data.system.turns.limit, 1, rotates=False)])]
    v = data.system.vassal
    module_path = out_dir / MODULE_FILE
    entries, n = build_measured_module(
        name=v.module_name, version=v.module_version, description=v.description, sides=["East", "West"],
        tables=[(f"{s.model.code} table", art.table_image(s.model.id)) for s in data.scenarios], table_px=(round(t.width * ppi), round(t.depth * ppi)), ppi=ppi,
        palette=pal, dice=[DiceButton("D6", 1, 6, text="D6", tooltip="Roll a D6"), *treachery_buttons(data)], cards=sorted(cards),
        setups=setups, images={**images, **cards}, out_path=module_path, date_ms=resolve_date_ms(v.date_saved_ms))
    result.files += write_images(out_dir / "images", images) + write_images(out_dir / "cards", cards)
    result.files.append(module_path)
    result.module, result.module_entries, result.module_bytes, result.scenarios = module_path, entries, size_of(module_path), n
    result.seconds["total"] = time.perf_counter() - t0
    return result
