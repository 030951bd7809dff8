"""The Genpei build: load → verify → render → package → lint, into ``build/genpei/``.

Outputs (paths under the output folder)::

    samurai_battles.vmod  the core module: the base game alone (board, core pieces, dice,
                          cards); written when no base module is set
    genpei.vmdx           the Genpei pack as an extension of the base module (the core module,
                          or the one ``vassal.base_module`` / ``--base-module`` names), every
                          scenario a predefined setup on the base's map
    extension_bases.tsv   which base each extension was built for (``make vassal-check``)
    images/*.png          the board, every counter, tile and marker
    cards/*.png           the reference cards and scenario sheets (also in the Cards windows)

:class:`pipeline.systems.genpei.system.GenpeiSystem` calls :func:`build` and :func:`render`.
Nothing is written when a data file is invalid or a scenario is not legal; each file is written
atomically, and images from an earlier build that the data no longer makes are removed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from pipeline.build import BuildRefused, BuildResult, write_linted_archive
from pipeline.errors import GunbaiError
from pipeline.output import size_of, write_images
from pipeline.systems.genpei.data import GenpeiData
from pipeline.systems.genpei.layout import HexLayout
from pipeline.systems.genpei.load import load
from pipeline.systems.genpei.verify import verify_all as verify_scenarios

#: The core module (the base game alone), written when no base module is set.
MODULE_FILE = "samurai_battles.vmod"
#: Which base module each extension was built for: ``<extension>\t<base .vmod, relative to
#: the output folder>\t<its SHA-256>`` per line.
BASES_FILE = "extension_bases.tsv"
#: The render cache (content-hash keyed PNGs, :mod:`pipeline.render.cache`) under the output folder.
CACHE_DIR = ".cache"


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


def render(data_dir: Path, out_dir: Path, *, what: str, data: GenpeiData | None = None) -> list[Path]:
    """Render ``counters`` (board, units, leaders, terrain, markers, dice faces) or ``cards``
    as PNG into ``out_dir/images`` or ``out_dir/cards``; returns the files written. ``data``: the data of ``data_dir`` when the caller has
    loaded it already (a build's :attr:`~pipeline.build.BuildResult.data`), else it is loaded."""
    from pipeline.systems.genpei import art

    if data is None:
        data = load(data_dir)
        from pipeline.systems.genpei.fit import check_fit

        check_fit(data)
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
    """:func:`_send_images` as soon as the data is loaded, before its text fit checks
    (:func:`~pipeline.systems.genpei.fit.check_fit`) and the scenarios' verification, so that the drawing processes draw while
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


def base_source(data_dir: Path, data: GenpeiData, base_module: Path | None) -> tuple[Path, str | None, str] | None:
    """The base module the extension is built for: ``(path, expected SHA-256, where that digest
    comes from)``: ``base_module`` (``gunbai build --base-module``, no digest asked), else
    ``vassal.base_module`` of ``system.yaml`` (relative to the data folder) with its
    ``base_module_sha256``; None for gunbai's own core module."""
    if base_module is not None:
        return Path(base_module), None, ""
    v = data.system.vassal
    if v.base_module is None:
        return None
    path = Path(v.base_module)
    return (path if path.is_absolute() else Path(data_dir) / path), v.base_module_sha256, f"{Path(data_dir) / 'system.yaml'} base_module_sha256"


def own_mapping(data: GenpeiData, base):
    """The mapping onto gunbai's own core module: drafted from it (every core piece is one of
    gunbai's own, so the draft is complete) and resolved like any mapping file."""
    from pipeline.systems.genpei.base_mapping import draft_mapping, resolve_mapping

    mapping, _facts = draft_mapping(data, base)
    return resolve_mapping(data, base, mapping)


def external_mapping(data_dir: Path, data: GenpeiData, base, base_mapping: Path | None):
    """The mapping onto a base module not gunbai's: ``base_mapping`` or the data folder's
    ``base_mapping.yaml``, read and resolved.

    Raises:
        GunbaiError: no mapping file (with the command that drafts one).
        DataError: the mapping does not fit the base or the data.
    """
    from pipeline.systems.genpei.base_mapping import MAPPING_FILE, load_mapping, resolve_mapping

    path = Path(base_mapping) if base_mapping is not None else Path(data_dir) / MAPPING_FILE
    if not path.is_file():
        raise GunbaiError(f"{path}: no base mapping for base module {base.name!r} ({base.label}); draft one with "
                          f"`gunbai extension draft --base-module {base.label} -o {path}` and complete it")
    mapping, doc = load_mapping(path)
    return resolve_mapping(data, base, mapping, path=path, doc=doc)


def _quarter_turn(png: bytes) -> bytes:
    """A PNG turned a quarter turn clockwise (for a base whose hexes stand in columns)."""
    import io

    from PIL import Image

    from pipeline.render.png import png_bytes

    with Image.open(io.BytesIO(png)) as img:
        return png_bytes(img.transpose(Image.Transpose.ROTATE_270))


def build(data_dir: Path, out_dir: Path, *, progress: bool = True, prepare_print: bool = False,
          base_module: Path | None = None, base_mapping: Path | None = None) -> BuildResult:
    """Build the core module, the Genpei extension, images and cards from ``data_dir`` into
    ``out_dir``. ``prepare_print``: the print files follow (``gunbai build``): their PDF font
    subsets are cut on the drawing processes while the data's text fit checks run here
    (:func:`start_print_subsets`), and their images are drawn after the module's (the same
    bytes either way).

    The extension's base is ``base_module`` (with ``base_mapping``, else the data folder's
    ``base_mapping.yaml``), else ``vassal.base_module`` of ``system.yaml`` (its SHA-256
    checked), else the core module this build writes, read back and mapped by the same code
    (:func:`own_mapping`). With another base no core module is written.

    The images (counters, cards, the chart window sheets' map pictures) are all sent to the
    drawing processes before this process packs the modules, which need their names only
    (:meth:`~pipeline.render.cache.RenderCache.render_all_later`), and awaited afterwards;
    with several drawing processes they are sent as soon as the data is parsed, before its
    text fit checks and the scenarios' verification (:func:`send_images_early`), and a build
    those refuse cancels them (the same message, nothing written).

    Raises:
        DataError: a data file or the base mapping is invalid (nothing is written).
        BuildRefused: a scenario is not legal (nothing is written).
        GunbaiError: the base module is missing, unsafe or not the one ``system.yaml`` names
            (both digests named), a scenario does not fit its board, or a written archive fails
            lint.
    """
    from pipeline.render.sheets import load_pdf_library
    from pipeline.systems.genpei import art
    from pipeline.systems.genpei.extension import (
        EXTENSION_FILE,
        extension_archive_entries,
        pack_extension,
    )
    from pipeline.systems.genpei.module import build_core_module
    from pipeline.systems.genpei.printing import print_jobs, scenario_png_name
    from pipeline.vassal.archive import archive_bytes, resolve_epoch
    from pipeline.vassal.base import BaseModuleError, read_base_module
    from pipeline.vassal.buildfile import write_buildfile, write_moduledata
    from pipeline.vassal.extension import write_extension_file

    result = BuildResult("genpei")
    t0 = time.perf_counter()
    cache = art.render_cache(out_dir / CACHE_DIR)
    sent: list[SentImages] = []
    external: list = []

    def parsed(data: GenpeiData) -> None:  # before the text fit checks: start the drawing processes
        if prepare_print:
            start_print_subsets(data, out_dir)
        if base_module is None and data.system.vassal.base_module is None:  # the core module's images
            early = send_images_early(data, cache)
            if early is not None:
                sent.append(early)

    with _steps(progress, 6) as step:
        try:
            data = load(data_dir)
            parsed(data)
            from pipeline.systems.genpei.fit import check_fit

            check_fit(data)
            result.data = data
            result.seconds["load"] = time.perf_counter() - t0
            step("verifying scenarios")
            t = time.perf_counter()
            findings = verify_scenarios(data)
            BuildRefused.check(findings)
            cache.release()  # checked: the images sent early are stored as they come (Ctrl-C keeps them)
            source = base_source(data_dir, data, base_module)
            if source is not None:
                step("reading the base module")
                path, digest, where = source
                try:
                    external.append(read_base_module(path, expected_sha256=digest, sha_source=where))
                except BaseModuleError as exc:
                    raise GunbaiError(str(exc)) from None
            result.seconds["verify"] = time.perf_counter() - t
            layout = layout_of(data)

            step("rendering counters")
            t = time.perf_counter()
            # every image is sent to the drawing processes first (they take them in that order: the
            # map images the chart window sheets are composed from early); this process packs the
            # module meanwhile (it needs the images' names, not their bytes) and waits for them last;
            # with several drawing processes they were sent as soon as the data was parsed
            wait_counters, compose_sheets, card_jobs, wait_cards = sent[0] if sent else _send_images(data, layout, cache)
            sheet_names = [scenario_png_name(s) for s in data.scenarios]
            core_cards = art.core_card_names(data)
            pack_cards = art.pack_card_names(data) + sheet_names
            card_names = sorted([*card_jobs, *sheet_names])
            date_ms = date_saved_ms(data)
            epoch = resolve_epoch(date_ms // 1000)

            step("packing modules")
            core_entries: dict[str, bytes] | None = None
            if not external:
                module, core_pal = build_core_module(data, layout, core_cards)
                built = write_buildfile(module)
                core_images = {art.board_image_name(data.board.id), *core_cards,
                               *(art.die_face_image_name(f.symbol) for f in data.system.battle_die.faces)}
                from pipeline.systems.genpei.extension import piece_images

                for _name, ps in core_pal:
                    for p in ps:
                        core_images |= piece_images(p.piece)
                core_entries = {"buildFile.xml": built.xml, "moduledata": write_moduledata(module, date_ms)}
                base_bytes = archive_bytes(core_entries, epoch)  # its components (what the extension targets); images follow
                base = read_base_module(base_bytes, label=MODULE_FILE)
                mapping = own_mapping(data, base)
            else:
                base = external[0]
                mapping = external_mapping(data_dir, data, base, base_mapping)
            pack = pack_extension(data, mapping, pack_cards)
            same_art = pack.layout.hex_width == layout.hex_width and not mapping.quarter_turn
            wait_pack = None
            if not same_art:  # the new pieces at the base grid's hex size (turned for hexes in columns)
                jobs = art.counter_jobs(data, pack.layout, gm_armies(data), gm_palisades(data), figures_badge=False)
                wait_pack = cache.render_all_later({n: j for n, j in jobs.items() if n in pack.images})

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
            if wait_pack is not None:
                pack_pngs = dict(wait_pack())
                if mapping.quarter_turn:  # hex tiles and the wind/tide arrow turn with the board
                    from pipeline.systems.genpei.extension import piece_images

                    turned = set()
                    for key, p in pack.pieces.items():
                        if p.kind in ("terrain", "tile") or (p.kind == "marker" and data.markers[key.split(":")[1]].symbol == "arrow"):
                            turned |= piece_images(p.piece)
                    pack_pngs = {n: (_quarter_turn(png) if n in turned else png) for n, png in pack_pngs.items()}
            else:
                pack_pngs = {n: pngs[n] for n in pack.images}
            result.seconds["render"] = time.perf_counter() - t

            t = time.perf_counter()
            if core_entries is not None:
                for name in sorted(core_images):
                    core_entries[f"images/{name}"] = pngs[name] if name in pngs else card_pngs[name]
                base_bytes = archive_bytes(core_entries, epoch)
            ext_images = {**pack_pngs, **{n: card_pngs[n] for n in pack_cards}}
            ext_entries, _ext_built, _ext_saves = extension_archive_entries(data, pack, ext_images, date_saved_ms=date_ms)
            result.seconds["pack"] = time.perf_counter() - t

            step("writing files")
            t = time.perf_counter()
            if core_entries is not None:
                module_path = out_dir / MODULE_FILE
                write_linted_archive(module_path, core_entries, epoch)  # lints before writing
                result.files.append(module_path)
                result.module = module_path
                result.module_entries = len(core_entries)
                base_ref = MODULE_FILE
            else:
                base_bytes = Path(base.label).read_bytes()
                base_ref = os.path.relpath(Path(base.label).resolve(), Path(out_dir).resolve())
            extension_path = out_dir / EXTENSION_FILE
            try:
                write_extension_file(extension_path, ext_entries, epoch=epoch, base=base_bytes)  # lints against the base first
            except ValueError as exc:
                raise GunbaiError(f"{extension_path}: {exc}") from exc
            result.files.append(extension_path)
            result.extension = extension_path
            result.extension_entries = len(ext_entries)
            result.extension_base = f"{base.name} {base.version}"
            from pipeline.output import write_bytes_atomic

            result.files.append(write_bytes_atomic(out_dir / BASES_FILE, f"{EXTENSION_FILE}\t{base_ref}\t{base.sha256}\n".encode()))
            result.files += write_images(out_dir / "images", pngs)  # at gunbai's own size (the extension holds the base's)
            result.files += write_images(out_dir / "cards", card_pngs)
            result.notes += pack.notes
            if wait_print is not None:
                wait_print()  # stored in the render cache for the print step
        except BaseException:  # bad data found while packing, a lint error, Ctrl-C: keep what is
            cache.stop_drawing()  # drawn, cancel the rest (the command would wait for it to exit)
            raise
        result.seconds["write and lint"] = time.perf_counter() - t
        step("module written")  # not "done": the print files come after (written at the end of the build)
    if result.module is not None:
        result.module_bytes = size_of(result.module)
    result.extension_bytes = size_of(extension_path)
    result.scenarios = len(data.scenarios)
    result.files = [p.relative_to(out_dir.parent) if p.is_relative_to(out_dir.parent) else p for p in result.files]
    return result


def gm_armies(data: GenpeiData) -> list[str]:
    """The armies the palette draws units and leaders in (:func:`~.module.armies_used`)."""
    from pipeline.systems.genpei.module import armies_used

    return armies_used(data)


def gm_palisades(data: GenpeiData) -> list[tuple[str, ...]]:
    """The Palisade hexside sets the palette offers (:func:`~.module.palisade_sets`)."""
    from pipeline.systems.genpei.module import palisade_sets

    return palisade_sets(data)
