"""The Ronin build: load → verify the games → render → package → lint, into ``build/ronin/``.

Outputs (paths under the output folder)::

    ronin.vmod         the VASSAL module, every game (scenario + two Buntai) a predefined setup
    images/*.png       the tables, every model counter, marker, terrain piece and deployment zone
    cards/*.png        the reference sheet and a roster card per Buntai
    battlescribe/      Ronin.gst and a .cat per faction (BattleScribe data format)

:class:`pipeline.systems.ronin.system.RoninSystem` calls :func:`build` and :func:`render`.
"""

from __future__ import annotations

import time
from pathlib import Path

from pipeline.build import BuildRefused, BuildResult, write_linted_archive
from pipeline.errors import GunbaiError
from pipeline.output import size_of, write_images
from pipeline.systems.ronin.data import RoninData
from pipeline.systems.ronin.load import load
from pipeline.systems.ronin.verify import verify_all

MODULE_FILE = "ronin.vmod"
def _date_ms(data: RoninData) -> int:
    """``dateSaved`` for metadata: ``SOURCE_DATE_EPOCH`` (seconds) when set, else the data's.

    Raises:
        GunbaiError: ``SOURCE_DATE_EPOCH`` is not a whole number of seconds.
    """
    from pipeline.vassal.archive import resolve_date_saved_ms

    try:
        return resolve_date_saved_ms(data.system.vassal.date_saved_ms)
    except ValueError as exc:
        raise GunbaiError(str(exc)) from exc


#: The render cache (content-hash keyed PNGs, :mod:`pipeline.render.cache`) under the output folder.
CACHE_DIR = ".cache"


def _images(data: RoninData, cache: Path | None) -> dict[str, bytes]:
    from pipeline.systems.ronin import art

    return art.render_pngs({**art.counter_jobs(data), **art.table_jobs(data), **art.zone_jobs(data), **art.terrain_jobs(data)}, cache)


def _cards(data: RoninData, cache: Path | None) -> dict[str, bytes]:
    from pipeline.systems.ronin import art
    from pipeline.systems.ronin.roster import check_roster

    jobs = art.reference_jobs(data)
    for rid, lr in data.rosters.items():
        jobs.update(art.roster_jobs(data, rid, check_roster(data, lr)))
    return art.render_pngs(jobs, cache)


def render(data_dir: Path, out_dir: Path, *, what: str, data: RoninData | None = None) -> list[Path]:
    """Render ``counters`` (tables, models, markers, terrain, zones) or ``cards`` as PNG, or ``sheets``
    (the print PDFs of :mod:`pipeline.systems.ronin.printing`). ``data``: the data of ``data_dir`` when the caller has
    loaded it already (a build's :attr:`~pipeline.build.BuildResult.data`), else it is loaded."""
    if data is None:
        data = load(data_dir)
        from pipeline.systems.ronin.printing import check_fit

        check_fit(data)
    if what == "sheets":
        from pipeline.systems.ronin import art, printing

        return printing.write_print(data, out_dir, art.RenderCache(out_dir / CACHE_DIR, art.renderer()))
    if what == "counters":
        return write_images(out_dir / "images", _images(data, out_dir / CACHE_DIR))
    return write_images(out_dir / "cards", _cards(data, out_dir / CACHE_DIR))


def build(data_dir: Path, out_dir: Path, *, progress: bool = True) -> BuildResult:
    """Build the Ronin module, images and cards from ``data_dir`` into ``out_dir``.

    Raises:
        DataError: a data file is invalid (nothing is written).
        BuildRefused: a game (scenario with two rosters) is not legal (nothing is written).
        GunbaiError: the written module fails lint.
    """
    from pipeline.systems.ronin.module import (
        MAP_NAME,
        board_name,
        build_module,
        placements,
        setup_file_name,
    )
    from pipeline.vassal.archive import resolve_epoch
    from pipeline.vassal.buildfile import write_buildfile, write_moduledata
    from pipeline.vassal.save import PlacedPiece, SaveGame

    result = BuildResult("ronin")
    t0 = time.perf_counter()
    data = load(data_dir)
    from pipeline.systems.ronin.printing import check_fit

    check_fit(data)
    result.data = data
    result.seconds["load"] = time.perf_counter() - t0
    findings = verify_all(data)
    BuildRefused.check(findings)
    t = time.perf_counter()
    pngs = _images(data, out_dir / CACHE_DIR)
    card_pngs = _cards(data, out_dir / CACHE_DIR)
    result.seconds["render"] = time.perf_counter() - t
    t = time.perf_counter()
    module, pal = build_module(data, sorted(card_pngs))
    built = write_buildfile(module)
    date_ms = _date_ms(data)
    moduledata = write_moduledata(module, date_ms)
    entries: dict[str, bytes] = {"buildFile.xml": built.xml, "moduledata": moduledata}
    for name, png in {**pngs, **card_pngs}.items():
        entries[f"images/{name}"] = png
    epoch = resolve_epoch(date_ms // 1000)
    pieces = {p.key: p.piece for _n, ps in pal for p in ps}
    for lg in data.games:
        g = lg.value
        placed = [
            PlacedPiece(str(1000 + i), pieces[p.key], MAP_NAME, p.x, p.y, built.gpids[p.key], stacked=p.stacked, layer=p.layer)
            for i, p in enumerate(placements(data, g))
        ]
        save = SaveGame(module.name, module.version, placed, boards={MAP_NAME: [(board_name(g.table_side_in), 0, 0)]}, description=g.name)
        entries[setup_file_name(g)] = save.to_bytes(moduledata=moduledata, epoch=epoch, date_saved_ms=date_ms)
    result.seconds["pack"] = time.perf_counter() - t
    t = time.perf_counter()
    result.files += write_images(out_dir / "images", pngs)
    result.files += write_images(out_dir / "cards", card_pngs)
    from pipeline.systems.ronin.battlescribe import write_battlescribe

    result.files += write_battlescribe(data, out_dir / "battlescribe")
    module_path = out_dir / MODULE_FILE
    write_linted_archive(module_path, entries, epoch)
    result.files.append(module_path)
    result.seconds["write"] = time.perf_counter() - t
    result.module = module_path
    result.module_entries = len(entries)
    result.module_bytes = size_of(module_path)
    result.scenarios = len(data.games)
    result.files = [p.relative_to(out_dir.parent) if p.is_relative_to(out_dir.parent) else p for p in result.files]
    return result
