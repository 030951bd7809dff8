"""The Genpei build: load → verify → render → package → lint, into ``build/genpei/``.

Outputs (paths under the output folder)::

    genpei.vmod        the VASSAL module, every scenario a predefined setup inside it
    images/*.png       the board, every counter, tile and marker packed in the module
    cards/*.png        the reference cards (also packed, shown in the Cards chart window)

Nothing is written when a data file is invalid or a scenario is not legal; each file is written
atomically, and images from an earlier build that the data no longer makes are removed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from pipeline.build import BuildRefused, BuildResult, write_linted_archive
from pipeline.errors import GunbaiError
from pipeline.output import size_of, write_images
from pipeline.systems.genpei.layout import HexLayout
from pipeline.systems.genpei.load import GenpeiData, load
from pipeline.systems.genpei.verify import verify_all as verify_scenarios

MODULE_FILE = "genpei.vmod"
#: This system writes print PDFs (``gunbai sheets``).
PRINT_SHEETS = True
#: The render cache (content-hash keyed PNGs, :mod:`pipeline.render.cache`) under the output folder.
CACHE_DIR = ".cache"
#: :func:`build` takes ``prepare_print`` (``gunbai build`` makes the print files right after it).
PREPARE_PRINT = True


def layout_of(data: GenpeiData) -> HexLayout:
    """The board layout at the VASSAL size given in ``system.yaml``."""
    v = data.system.vassal
    return HexLayout(data.board, hex_width=v.hex_width_px, margin=v.board_margin_px)


def date_saved_ms(data: GenpeiData) -> int:
    """``dateSaved`` for metadata: ``SOURCE_DATE_EPOCH`` (seconds) when set, else the data's.

    Raises:
        GunbaiError: ``SOURCE_DATE_EPOCH`` is not a whole number of seconds.
    """
    from pipeline.vassal.archive import resolve_date_saved_ms

    try:
        return resolve_date_saved_ms(data.system.vassal.date_saved_ms)
    except ValueError as exc:
        raise GunbaiError(str(exc)) from exc


def verify(data_dir: Path, scenario_files: list[Path] | None) -> tuple[list, int]:
    """Findings for the scenarios of ``data_dir`` (or for ``scenario_files``) and their count."""
    data = load(data_dir, scenario_files=scenario_files)
    return verify_scenarios(data), len(data.scenarios)


def render(data_dir: Path, out_dir: Path, *, what: str, data: GenpeiData | None = None) -> list[Path]:
    """Render ``counters`` (board, units, leaders, terrain, markers, dice faces) or ``cards``
    as PNG into ``out_dir/images`` or ``out_dir/cards``; returns the files written. ``data``: the data of ``data_dir`` when the caller has
    loaded it already (a build's :attr:`~pipeline.build.BuildResult.data`), else it is loaded."""
    from pipeline.systems.genpei import art

    data = data if data is not None else load(data_dir)
    layout = layout_of(data)
    cache = art.render_cache(out_dir / CACHE_DIR)
    if what == "counters":
        return write_images(out_dir / "images", cache.render_all(art.all_counter_jobs(data, layout)))
    if what == "sheets":
        from pipeline.systems.genpei import printing

        return printing.write_print(data, layout, out_dir, cache)
    cards = cache.render_all(art.card_jobs(data))
    cards.update(printing_scenario_pngs(data, layout, cache))
    return write_images(out_dir / "cards", cards)


def printing_scenario_pngs(data: GenpeiData, layout: HexLayout, cache) -> dict[str, bytes]:
    """The scenario sheets (PNG) for the chart window (:mod:`pipeline.systems.genpei.printing`)."""
    from pipeline.systems.genpei import printing

    return printing.scenario_pngs(data, layout, cache)


def printing_scenario_pngs_later(data: GenpeiData, layout: HexLayout, cache):
    """:func:`printing_scenario_pngs` in steps (:func:`pipeline.systems.genpei.printing.scenario_pngs_later`):
    returns ``compose``, whose result ``wait()`` gives the PNGs."""
    from pipeline.systems.genpei import printing

    return printing.scenario_pngs_later(data, layout, cache)


@contextmanager
def _steps(progress: bool, total: int) -> Iterator:
    """Report each step on the command's progress line (:mod:`pipeline.progress`: shown on a
    terminal only)."""
    from pipeline import progress as shown

    shown.step("genpei", "loading data")
    yield lambda desc: shown.step("genpei", desc)


def start_print_subsets(data: GenpeiData, out_dir: Path) -> None:
    """Start cutting the PDF font subsets of the print files (:func:`printing.print_text`) on the
    drawing processes now (:func:`pipeline.render.fonts.prepare_pdf_subsets_early`: into a
    temporary folder, unless the render cache's ``fonts`` folder holds them already); the print
    step (:func:`pipeline.render.sheets.print_files`) waits for this cut instead of cutting
    them again, and keeps the files in the render cache. The same files as cut later.

    Raises:
        FontError: the font package is missing.
    """
    from pipeline.render.fonts import prepare_pdf_subsets_early
    from pipeline.systems.genpei import art
    from pipeline.systems.genpei.printing import print_text

    cache = art.render_cache(out_dir / CACHE_DIR)
    prepare_pdf_subsets_early(print_text(data, cache.renderer.root), (cache.folder or out_dir / CACHE_DIR) / "fonts")


class SentImages(NamedTuple):
    """The module's images sent to the drawing processes (:func:`send_images_early`)."""

    #: waits for the counters, board, tiles, markers and dice faces; gives their PNGs by name
    wait_counters: Callable[[], dict[str, bytes]]
    #: composes the chart window sheets once their map pictures are drawn
    #: (:func:`printing_scenario_pngs_later`)
    compose_sheets: Callable[[], Callable[[], dict[str, bytes]]]
    #: the cards' jobs by image name
    card_jobs: dict
    #: waits for the cards; gives their PNGs by name
    wait_cards: Callable[[], dict[str, bytes]]


def _send_images(data: GenpeiData, layout: HexLayout, cache) -> SentImages:
    """Send the module's counters, chart window map pictures and cards to the drawing processes,
    in that order (:meth:`~pipeline.render.cache.RenderCache.render_all_later`).

    Raises:
        RenderError: a template is invalid.
    """
    from pipeline.systems.genpei import art

    wait_counters = cache.render_all_later(art.all_counter_jobs(data, layout))
    compose_sheets = printing_scenario_pngs_later(data, layout, cache)
    card_jobs = art.card_jobs(data)
    return SentImages(wait_counters, compose_sheets, card_jobs, cache.render_all_later(card_jobs))


def send_images_early(data: GenpeiData, cache) -> SentImages | None:
    """:func:`_send_images` as soon as the data is parsed (``load(on_parsed=...)``), before its
    text fit checks and the scenarios' verification, so that the drawing processes draw while
    this process checks (one core). Only with several drawing processes (with one, the images
    would be drawn here, now, before the checks).

    Data the checks will refuse may still be drawn, but nothing is written: the images are sent
    with the cache's :attr:`~pipeline.render.cache.RenderCache.hold`, and the build, refused,
    drops them (:meth:`~pipeline.render.cache.RenderCache.stop_drawing`); the output folder
    stays as it was, render cache included, as when nothing was sent. A build its checks pass
    releases them (:meth:`~pipeline.render.cache.RenderCache.release`): from then on each is
    stored as it comes, so that a later failure or Ctrl-C keeps what is drawn, as on one
    process. Making the jobs of data the checks have not passed may fail in other ways than the
    checks would (an unknown army colour); then nothing is sent (``None``), and the build sends
    the images after the checks, whose message is the one given.

    Args:
        data: the parsed data, not yet checked.
        cache: the build's render cache (:func:`pipeline.systems.genpei.art.render_cache`).

    Returns:
        What was sent, or ``None`` when nothing was (one drawing process, or jobs not made).
    """
    from pipeline.render.parallel import workers

    if workers() <= 1:
        return None
    cache.hold = True  # nothing written in the render cache before the build waits for them
    try:
        return _send_images(data, layout_of(data), cache)
    except Exception:  # the checks (or the same call after them) say what is wrong
        cache.stop_drawing()
        return None
    finally:
        cache.hold = False


def build(data_dir: Path, out_dir: Path, *, progress: bool = True, prepare_print: bool = False) -> BuildResult:
    """Build the Genpei module, images and cards from ``data_dir`` into ``out_dir``.
    ``prepare_print``: the print files follow (``gunbai build``): their PDF font subsets are
    cut on the drawing processes while the data's text fit checks run here
    (:func:`start_print_subsets`), and their images are drawn after the module's (the same
    bytes either way).

    The images (counters, cards, the chart window sheets' map pictures) are all sent to the
    drawing processes before this process packs the module, which needs their names only
    (:meth:`~pipeline.render.cache.RenderCache.render_all_later`), and awaited afterwards;
    with several drawing processes they are sent as soon as the data is parsed, before its
    text fit checks and the scenarios' verification (:func:`send_images_early`), and a build
    those refuse cancels them (the same message, nothing written).

    Raises:
        DataError: a data file is invalid (nothing is written).
        BuildRefused: a scenario is not legal (nothing is written).
        GunbaiError: the written module fails lint.
    """
    from pipeline.render.sheets import load_pdf_library
    from pipeline.systems.genpei import art
    from pipeline.systems.genpei.extension import EXTENSION_FILE, extension_archive_entries
    from pipeline.systems.genpei.module import (
        build_module,
        scenario_saves,
    )
    from pipeline.systems.genpei.printing import print_jobs, scenario_png_name
    from pipeline.vassal.archive import resolve_epoch
    from pipeline.vassal.buildfile import write_buildfile, write_moduledata
    from pipeline.vassal.extension import write_extension_file

    result = BuildResult("genpei")
    t0 = time.perf_counter()
    cache = art.render_cache(out_dir / CACHE_DIR)
    sent: list[SentImages] = []

    def parsed(data: GenpeiData) -> None:  # before the text fit checks: start the drawing processes
        if prepare_print:
            start_print_subsets(data, out_dir)
        early = send_images_early(data, cache)
        if early is not None:
            sent.append(early)

    with _steps(progress, 6) as step:
        try:
            data = load(data_dir, on_parsed=parsed)
            result.data = data
            result.seconds["load"] = time.perf_counter() - t0
            step("verifying scenarios")
            t = time.perf_counter()
            findings = verify_scenarios(data)
            BuildRefused.check(findings)
            cache.release()  # checked: the images sent early are stored as they come (Ctrl-C keeps them)
            result.seconds["verify"] = time.perf_counter() - t
            layout = layout_of(data)

            step("rendering counters")
            t = time.perf_counter()
            # every image is sent to the drawing processes first (they take them in that order: the
            # map images the chart window sheets are composed from early); this process packs the
            # module meanwhile (it needs the images' names, not their bytes) and waits for them last;
            # with several drawing processes they were sent as soon as the data was parsed
            wait_counters, compose_sheets, card_jobs, wait_cards = sent[0] if sent else _send_images(data, layout, cache)
            card_names = sorted([*card_jobs, *(scenario_png_name(s) for s in data.scenarios)])

            step("packing module")
            module, _palette = build_module(data, layout, card_names)
            built = write_buildfile(module)
            date_ms = date_saved_ms(data)
            moduledata = write_moduledata(module, date_ms)
            epoch = resolve_epoch(date_ms // 1000)
            saves = {file_name: save.to_bytes(moduledata=moduledata, epoch=epoch, date_saved_ms=date_ms)
                     for file_name, save in scenario_saves(data, layout, _palette, built.gpids, module.name, module.version).items()}

            step("rendering cards")
            wait_sheets = compose_sheets()
            # the print images (gunbai build makes the print files next) are drawn after the sheets,
            # while this process writes and lints the module, into the render cache, where the
            # print step finds them
            wait_print = cache.render_all_later(print_jobs(data, layout)) if prepare_print else None
            if prepare_print:
                # the PDF makers forked after this build need fpdf loaded; imported here, where this
                # process would wait for the drawing processes, instead of before forking them
                load_pdf_library()
            pngs = wait_counters()
            card_pngs = dict(wait_cards())
            card_pngs.update(wait_sheets())
            if sorted(card_pngs) != card_names:  # pragma: no cover - the module was packed with these names
                raise GunbaiError(f"chart window images {sorted(set(card_pngs) ^ set(card_names))} differ from those the module names")
            result.seconds["render"] = time.perf_counter() - t

            t = time.perf_counter()
            entries: dict[str, bytes] = {"buildFile.xml": built.xml, "moduledata": moduledata}
            for name, png in {**pngs, **card_pngs}.items():
                entries[f"images/{name}"] = png
            entries.update(saves)
            ext_entries, _ext_built, _ext_saves = extension_archive_entries(data, layout, {**pngs, **card_pngs}, card_names, date_saved_ms=date_ms)
            result.seconds["pack"] = time.perf_counter() - t

            step("writing files")
            t = time.perf_counter()
            module_path = out_dir / MODULE_FILE
            write_linted_archive(module_path, entries, epoch)  # lints before writing
            result.files.append(module_path)
            extension_path = out_dir / EXTENSION_FILE
            try:
                write_extension_file(extension_path, ext_entries, epoch=epoch)  # lints before writing
            except ValueError as exc:
                raise GunbaiError(f"{extension_path}: {exc}") from exc
            result.files.append(extension_path)
            result.files += write_images(out_dir / "images", pngs)
            result.files += write_images(out_dir / "cards", card_pngs)
            if wait_print is not None:
                wait_print()  # stored in the render cache for the print step
        except BaseException:  # bad data found while packing, a lint error, Ctrl-C: keep what is
            cache.stop_drawing()  # drawn, cancel the rest (the command would wait for it to exit)
            raise
        result.seconds["write and lint"] = time.perf_counter() - t
        step("module written")  # not "done": the print files come after (written at the end of the build)
    result.module = module_path
    result.module_entries = len(entries)
    result.module_bytes = size_of(module_path)
    result.scenarios = len(data.scenarios)
    result.files = [p.relative_to(out_dir.parent) if p.is_relative_to(out_dir.parent) else p for p in result.files]
    return result


def _slots(palette):
    for _name, pieces in palette:
        for p in pieces:
            yield p.key, p.piece
