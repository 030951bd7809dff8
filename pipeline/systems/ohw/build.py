"""OHW Samurai build: load → verify → render → package → lint, into ``build/ohw/``
(:class:`pipeline.systems.ohw.system.OhwSystem` calls :func:`build` and :func:`render`).

Outputs: ``ohw.vmod`` (each scenario's table drawn as a battlefield, a range line in inches, unit
counters with bases to scale and free facing, Hits 0-15, a turn marker 1-15, the D6, reference
cards and scenario sheets, each scenario a predefined setup), ``images/*.png``, ``cards/*.png``;
``gunbai sheets`` writes ``print/`` (:mod:`pipeline.systems.ohw.printing`).
"""

from __future__ import annotations

import time
from pathlib import Path

from pipeline.build import BuildRefused, BuildResult
from pipeline.measured.art import render_cache
from pipeline.measured.vassal_module import Placed, UnitPiece, build_measured_module
from pipeline.output import size_of, write_images
from pipeline.systems.ohw import art
from pipeline.systems.ohw.data import OhwData
from pipeline.systems.ohw.load import load
from pipeline.systems.ohw.verify import verify_all as verify_scenarios
from pipeline.vassal.archive import resolve_date_saved_ms as resolve_date_ms
from pipeline.vassal.buildfile import DiceButton

MODULE_FILE = "ohw.vmod"
#: The render cache (content-hash keyed PNGs, :mod:`pipeline.render.cache`) under the output folder.
CACHE_DIR = ".cache"


def render_images(data: OhwData, cache_dir: Path | None = None) -> dict[str, bytes]:
    """PNG bytes of every table, counter and marker, through the render cache in ``cache_dir``."""
    return render_cache(cache_dir).render_all(art.image_jobs(data))


def render_cards(data: OhwData, cache_dir: Path | None = None) -> dict[str, bytes]:
    """PNG bytes of every reference card and scenario sheet (for the chart window), through the
    render cache in ``cache_dir``."""
    from pipeline.systems.ohw import printing

    cache = render_cache(cache_dir)
    return {**cache.render_all(art.card_jobs(data)), **printing.chart_pngs(data, cache)}


def render(data_dir: Path, out_dir: Path, *, what: str, data: OhwData | None = None) -> list[Path]:
    """Render ``counters`` (tables, counters, marker), ``cards`` or ``sheets`` (print PDFs). ``data``: the data of ``data_dir`` when the caller has
    loaded it already (a build's :attr:`~pipeline.build.BuildResult.data`), else it is loaded."""
    if data is None:
        data = load(data_dir)
        from pipeline.systems.ohw.printing import check_fit

        check_fit(data)
    if what == "counters":
        return write_images(out_dir / "images", render_images(data, out_dir / CACHE_DIR))
    if what == "sheets":
        from pipeline.systems.ohw import printing

        return printing.write_print(data, out_dir, render_cache(out_dir / CACHE_DIR))
    return write_images(out_dir / "cards", render_cards(data, out_dir / CACHE_DIR))


def build(data_dir: Path, out_dir: Path, *, progress: bool = True) -> BuildResult:
    result = BuildResult("ohw")
    t0 = time.perf_counter()
    data = load(data_dir)
    from pipeline.systems.ohw.printing import check_fit

    check_fit(data)
    result.data = data
    findings = verify_scenarios(data)
    BuildRefused.check(findings)
    images = render_images(data, out_dir / CACHE_DIR)
    cards = render_cards(data, out_dir / CACHE_DIR)
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
                pieces.append(UnitPiece(key, nm, art.unit_image(u.id, army, general), (round(u.base.width * ppi), round(u.base.depth * ppi)),
                                        (("Side", army), ("Unit", u.id), ("General", str(general).lower())), "hits", data.system.elimination.hits))
        palette.append((f"{army.capitalize()} army", pieces))
    palette.append(("Markers", [UnitPiece("marker:turn", "Turn marker", "turn_marker.png", (40, 40), (("Marker", "turn"),), "turn", data.system.turns.limit, 1, rotates=False)]))
    setups = []
    for loaded in data.scenarios:
        sc = loaded.model
        armies = {s.id: s.army for s in sc.sides}
        placed = [Placed("marker:turn", *art.TURN_MARKER_AT, counter=1)]
        for up in sc.units:
            placed.append(Placed(f"unit:{up.unit}{':general' if up.general else ''}:{armies[up.side]}", up.x, up.y, up.facing, 0))
        setups.append((f"{sc.id}.vsav", f"{sc.code} {sc.name}", sc.description, f"{sc.code} table", placed))
    tables = [(f"{s.model.code} table", art.table_image(s.model.id)) for s in data.scenarios]
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
