"""The main job: for every game system under the data folder, verify, render and package.

``gunbai build`` calls :func:`build_all`; ``gunbai verify`` calls :func:`verify_all`;
``gunbai counters`` / ``cards`` / ``sheets`` call :func:`render_only`. A game system is a folder
of ``source_data/`` whose name is a key of :data:`pipeline.systems.base.SYSTEMS`.

Every command that writes runs in one :class:`~pipeline.output.Transaction` over the output
folder: a build that fails anywhere (bad data in one system, a lint error in another, Ctrl-C)
changes no output at all. A system whose inputs, code and outputs are as its last build left
them is skipped (:mod:`pipeline.stamp`). Images are drawn on every core
(:mod:`pipeline.render.parallel`).

Every system is a :class:`~pipeline.systems.base.GameSystem` (``pipeline/systems/<system>/system.py``):
its ``build``, ``verify``, ``render`` and ``print_sheets`` are all this module uses; the registry
:data:`~pipeline.systems.base.SYSTEMS` imports a system only when a command uses it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import GunbaiError


@dataclass
class BuildResult:
    """What one game system's build wrote.

    Attributes:
        system: the system id.
        files: every file written, relative paths under the output folder.
        module: the ``.vmod`` path, if one was written.
        module_entries: number of entries in the module archive.
        module_bytes: its size in bytes.
        scenarios: number of scenarios packaged as predefined setups.
        seconds: wall time of the build steps, by step name.
    """

    system: str
    files: list[Path] = field(default_factory=list)
    module: Path | None = None
    module_entries: int = 0
    module_bytes: int = 0
    scenarios: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    #: the line of the last build when this one was skipped (inputs and outputs unchanged)
    skipped: str | None = None
    #: the data the build loaded, handed to the print sheets step so that it is not loaded (and
    #: its texts fitted) a second time; dropped once the system is built
    data: Any = None
    #: files this build changed (created, replaced or removed) in the output folder
    changed: int = 0
    #: images drawn (not found in the render cache) by this build
    drawn: int = 0
    #: the extension (``.vmdx``) written, its entries, size in bytes, and its base module
    #: (``name version``)
    extension: Path | None = None
    extension_entries: int = 0
    extension_bytes: int = 0
    extension_base: str = ""
    #: what a module maker should know that did not stop the build (one line each)
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line for the terminal."""
        if self.skipped is not None:
            from pipeline.stamp import skipped_line

            return skipped_line(self.system, self.skipped)
        setups = f"{self.scenarios} setup{'' if self.scenarios == 1 else 's'}"
        if self.extension is not None:  # the setups are the extension's
            mod = f"{self.module} ({self.module_entries} entries, {self.module_bytes / 1024:.0f} KiB); " if self.module else ""
            mod += (f"{self.extension} ({self.extension_entries} entries, {self.extension_bytes / 1024:.0f} KiB, {setups}, "
                    f"for {self.extension_base})")
        else:
            mod = f"{self.module} ({self.module_entries} entries, {self.module_bytes / 1024:.0f} KiB, {setups})" if self.module else "no module"
        return f"{self.system}: {mod}; {len(self.files)} files, {self.changed} changed, {self.drawn} images drawn"


class BuildRefused(GunbaiError):
    """A scenario is not legal: the build stops before writing a module (the findings are the
    message, one per line)."""

    @classmethod
    def check(cls, findings: list) -> None:
        """Raise when there is any blocking finding (notes such as an incomplete scenario,
        ``blocking = False``, do not stop a build), with one line per finding and a count.

        Raises:
            BuildRefused: ``findings`` holds a blocking finding.
        """
        problems = blocking(findings)
        if problems:
            raise cls("\n".join(str(f) for f in problems) + f"\nbuild refused: {len(problems)} problem(s); nothing written")


def blocking(findings: list) -> list:
    """The findings that are problems (an error in a scenario), without the notes: an
    incomplete scenario (map not public, values unknown) is reported but is not an error."""
    return [f for f in findings if getattr(f, "blocking", True)]


def _systems():
    """The registry (:data:`pipeline.systems.base.SYSTEMS`): system name → maker."""
    from pipeline.systems.base import SYSTEMS

    return SYSTEMS


def _system(name: str):
    from pipeline.systems.base import get_system

    return get_system(name)


def systems_in(data_root: Path, only: str | None = None) -> list[str]:
    """The game systems that have a data folder under ``data_root``, in a fixed order (just
    ``only`` when given).

    Raises:
        GunbaiError: ``data_root`` is not a folder, or holds no known system, or a folder that is
            not one; ``only`` is not a system or has no folder there.
    """
    if only is not None and only not in _systems():
        raise GunbaiError(f"--system {only!r} is not valid; expected one of {', '.join(_systems())}")
    if not data_root.is_dir():
        raise GunbaiError(f"{data_root}: no such data folder")
    found = [s for s in _systems() if (data_root / s).is_dir()]
    strays = sorted(d.name for d in data_root.iterdir() if d.is_dir() and d.name not in _systems() and not d.name.startswith((".", "_")))
    if strays:
        raise GunbaiError(f"{data_root}: folder(s) {', '.join(strays)} are not game systems (expected: {', '.join(_systems())})")
    if not found:
        raise GunbaiError(f"{data_root}: no game system folder (expected one of: {', '.join(_systems())})")
    if only is not None:
        if only not in found:
            raise GunbaiError(f"{data_root / only}: no such data folder (--system {only})")
        return [only]
    return found


def check_environment() -> None:
    """Refuse a bad ``SOURCE_DATE_EPOCH`` or ``GUNBAI_JOBS`` before anything is read or written.

    Raises:
        GunbaiError: one line naming the variable, its value and what is expected.
    """
    from pipeline.render.parallel import workers
    from pipeline.vassal.archive import resolve_epoch

    try:
        resolve_epoch()
        workers()
    except ValueError as exc:
        raise GunbaiError(str(exc)) from None


#: What a build, ``counters``, ``cards``, ``sheets`` and ``verify --play`` write at the top of a
#: system's output folder (hidden names aside: the render cache ``.cache/``, the stamp).
OUTPUT_NAMES = ("cards", "images", "print", "battlescribe", "playability.png", "samurai_battles.vmod", "extension_bases.tsv")


def check_output_folders(data_root: Path, out_root: Path, systems: list[str], *, force: bool = False) -> None:
    """Refuse, before anything is read or written, an output folder that would write over the
    command's inputs or over files gunbai did not write.

    ``out_root/<system>`` must not be a system's data folder, the templates or gunbai's code, nor
    inside one, nor hold one or the data folder: never, ``force`` or not. It must be a folder
    (or not exist yet), and unless ``force`` it must be gunbai's: empty, or holding its render
    cache or stamp, or only the names gunbai writes there (:data:`OUTPUT_NAMES`, the module).

    Raises:
        GunbaiError: one line naming the folder, what is wrong and the way out.
    """
    from pipeline.stamp import REPO, STAMP_FILE

    if out_root.exists() and not out_root.is_dir():
        raise GunbaiError(f"--out {out_root}: is a file; expected the folder the outputs go to")
    inputs = {f"the data folder (--data) of {s}": data_root / s for s in _systems() if (data_root / s).is_dir()}
    inputs |= {"gunbai's templates": REPO / "templates", "gunbai's code": REPO / "pipeline"}
    for name in systems:
        folder = out_root / name
        for what, path in [*inputs.items(), ("the data folder (--data)", data_root)]:
            a, b = Path(os.path.realpath(folder)), Path(os.path.realpath(path))
            inside = a.is_relative_to(b) and path != data_root  # beside the systems' folders is no harm
            if a == b or inside or b.is_relative_to(a):
                where = "is" if a == b else "is inside" if inside else "holds"
                raise GunbaiError(f"--out {out_root}: the {name} outputs would go to {folder}, which {where} {what} ({path}); "
                                  "choose an --out outside the data (the default is build)")
        if folder.exists() and not folder.is_dir():
            raise GunbaiError(f"{folder}: is a file; expected the folder of the {name} outputs (move it, or choose another --out)")
        if force or not folder.is_dir():
            continue
        entries = sorted(e.name for e in folder.iterdir())
        if ".cache" in entries or STAMP_FILE in entries:
            continue
        foreign = [e for e in entries if not e.startswith(".") and e not in OUTPUT_NAMES + (f"{name}.vmod", f"{name}.vmdx")]
        if foreign:
            shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
            raise GunbaiError(f"{folder}: holds files gunbai did not write ({shown}) and no gunbai build; the {name} outputs would "
                              "be written among them: choose another --out, or pass --force to write there")


def build_all(data_root: Path, out_root: Path, *, progress: bool = True, system: str | None = None, force: bool = False,
              base_module: Path | None = None, base_mapping: Path | None = None) -> list[BuildResult]:
    """Build every system found under ``data_root`` (or just ``system``) into
    ``out_root/<system>/``: verify, render, package, lint, and the print sheets of every system
    that has them. All or nothing: the outputs change only when every system built. The print
    PDFs of every system are made together after the last module
    (:func:`pipeline.render.sheets.print_files_together`: one forked process per core for all of
    them, not per system).

    A system whose stamp says its inputs and outputs are unchanged is skipped (``force``: never,
    and an output folder holding other files is written into: :func:`check_output_folders`).

    ``base_module`` (with ``base_mapping``): build the extension of a system that
    :attr:`~pipeline.systems.base.GameSystem.extends_base_module` (Genpei) for that module
    instead of the one its data names (``gunbai build --base-module``); the module's SHA-256 and
    the mapping's are part of the stamp.

    Raises:
        DataError: a data file is invalid (nothing is written).
        BuildRefused: a scenario is not legal (nothing is written).
        GunbaiError: a written module fails lint, or the environment is bad (nothing is written).
    """
    from pipeline import progress as shown
    from pipeline import stamp
    from pipeline.output import Transaction
    from pipeline.render.sheets import print_files_together
    from pipeline.stamp import BUILD_OPTIONS

    check_environment()
    chosen = systems_in(data_root, system)
    check_output_folders(data_root, out_root, chosen, force=force)
    options = dict(BUILD_OPTIONS)
    base_opts: dict[str, Path] = {}
    if base_module is not None or base_mapping is not None:
        base_opts = _base_options(chosen, base_module, base_mapping, options)
    results: list[BuildResult] = []
    digests: dict[str, str] = {}
    with _template_caches(), Transaction(out_root) as tx:
        # every system's print PDFs are made together at the end of this block, on one set of
        # forked processes (sheets.print_files_together), still inside the transaction
        with print_files_together():
            for name in chosen:
                data_dir, out_dir = data_root / name, out_root / name
                tree = stamp.tree_digest(data_dir, name)
                last = None if force else stamp.fresh(data_dir, out_dir, name, options, tree=tree)
                if last is not None:
                    results.append(BuildResult(name, skipped=last))
                    continue
                digests[name] = stamp.with_options(tree, options)
                shown.step(name, "building")
                gs = _system(name)
                early = gs.prepare_print and gs.print_sheets
                if gs.print_sheets:
                    from pipeline.render.sheets import load_pdf_library

                    # before forking: every process then has it loaded; a build preparing its print
                    # files imports the rest of the PDF library itself while it waits for drawings
                    load_pdf_library(subsetter_only=early)
                _compiled_templates(out_dir)
                _start_drawing()
                from pipeline.render import cache

                drawn = cache.drawn_total
                extra = base_opts if base_opts and gs.extends_base_module else {}
                result = gs.build(data_dir, out_dir, progress=progress, prepare_print=early, **extra)
                if gs.print_sheets:
                    shown.step(name, "print sheets")
                    result.files += [_relative(p, out_root) for p in gs.render(data_dir, out_dir, what="sheets", data=result.data)]
                result.data = None
                result.drawn = cache.drawn_total - drawn
                results.append(result)
        shown.clear()
        written = {r.system: tx.written_under(out_root / r.system) for r in results if r.skipped is None}
    for r in results:
        if r.skipped is None:
            base = Path(os.path.abspath(out_root / r.system))
            r.changed = sum(1 for p in tx.changed + tx.removed if p.is_relative_to(base))
            stamp.write(out_root / r.system, digests[r.system], r.summary(), written[r.system])
    return results


#: The build's figures beside the systems' folders (``gunbai report`` shows them).
FIGURES_FILE = "build-figures.json"


def write_figures(out_root: Path, results: list[BuildResult], seconds: float, cpu: float) -> Path:
    """Write ``OUT/build-figures.json``: the last build's wall ``seconds`` and ``cpu`` seconds
    (of the command's process: the drawing processes, which outlive it, are not counted) and,
    per system, its summary line, whether it was
    skipped (and its last build's line), the seconds of each step, the images drawn, files
    written and changed, and the notes. Sorted keys, atomic. Returns the path.

    The figures are the only part of ``gunbai report``'s page that differs from one build of
    the same input to the next.
    """
    import json

    from pipeline.output import write_bytes_atomic

    systems = [{"system": r.system, "summary": r.summary(), "skipped": r.skipped is not None, "last": r.skipped,
                "seconds": {k: round(v, 2) for k, v in r.seconds.items()}, "drawn": r.drawn, "files": len(r.files),
                "changed": r.changed, "notes": list(r.notes)} for r in results]
    doc = {"format": 1, "seconds": round(seconds, 2), "cpu": round(cpu, 2), "systems": systems}
    return write_bytes_atomic(Path(out_root) / FIGURES_FILE, (json.dumps(doc, sort_keys=True, indent=1) + "\n").encode())


def _base_options(chosen: list[str], base_module: Path | None, base_mapping: Path | None, options: dict) -> dict[str, Path]:
    """The ``base_module``/``base_mapping`` build options, after checking that a chosen system
    takes them and the files exist; their SHA-256 go into ``options`` (the stamp).

    Raises:
        GunbaiError: no chosen system builds an extension, or a file is missing.
    """
    import hashlib

    takers = [s for s in chosen if _system(s).extends_base_module]
    if not takers:
        raise GunbaiError(f"--base-module: no system built here makes an extension ({', '.join(chosen)}); use --system genpei")
    out: dict[str, Path] = {}
    for key, path in (("base_module", base_module), ("base_mapping", base_mapping)):
        if path is None:
            continue
        if not Path(path).is_file():
            raise GunbaiError(f"{path}: no such file (--{key.replace('_', '-')})")
        out[key] = Path(path)
        options[key + "_sha256"] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return out


def _relative(path: Path, out_root: Path) -> Path:
    return path.relative_to(out_root.parent) if path.is_relative_to(out_root.parent) else path


#: Under a system's output folder: the templates compiled by its last command
#: (:func:`pipeline.render.templates.use_bytecode_cache`), beside the render cache.
TEMPLATE_CACHE = Path(".cache") / "templates"


#: Under a system's output folder: the text layouts of its last command's fit checks
#: (:func:`pipeline.render.fit.use_fit_cache`).
FIT_CACHE = Path(".cache") / "fit.json"


def _compiled_templates(out_dir: Path) -> None:
    """Keep and reuse the compiled templates and the fit checks' text layouts of the system
    building into ``out_dir`` (written only into an ``out_dir`` that exists: a command refused
    before it wrote anything leaves no folder)."""
    from pipeline.render.fit import use_fit_cache
    from pipeline.render.templates import use_bytecode_cache

    use_bytecode_cache(out_dir / TEMPLATE_CACHE, only_in=out_dir)
    use_fit_cache(out_dir / FIT_CACHE, only_in=out_dir)


@contextmanager
def _template_caches() -> Iterator[None]:
    """A command's block in which each system's compiled templates and text layouts are kept
    (:func:`_compiled_templates`); none afterwards."""
    try:
        yield
    finally:
        from pipeline.render.fit import use_fit_cache
        from pipeline.render.templates import use_bytecode_cache

        use_bytecode_cache(None)
        use_fit_cache(None)


def _start_drawing() -> None:
    """Fork the drawing processes now, before any other thread runs."""
    from pipeline.render import parallel

    parallel.start()


def verify_all(data_root: Path, scenario_files: list[Path] | None = None, *, system: str | None = None) -> tuple[list, int]:
    """Legality findings of every scenario (or of ``scenario_files``), and how many scenarios
    were checked (:func:`verify_by_system` summed)."""
    findings: list = []
    count = 0
    for _name, f, n in verify_by_system(data_root, scenario_files, system=system):
        findings.extend(f)
        count += n
    return findings, count


def verify_by_system(data_root: Path, scenario_files: list[Path] | None = None, *, system: str | None = None) -> list[tuple[str, list, int]]:
    """``(system, findings, scenarios checked)`` for each game system verified: every scenario
    of every system (of ``system`` alone when given), or the ``scenario_files``.

    Scenario files given explicitly are checked against the data of ``system``, or else of the
    system whose folder holds them (``…/<system>/…`` in their path).

    Raises:
        GunbaiError: ``system`` is unknown, or a file's system cannot be told from its path.
    """
    out: list[tuple[str, list, int]] = []
    if system is not None and system not in _systems():
        raise GunbaiError(f"--system {system!r} is not valid; expected one of {', '.join(_systems())}")
    if scenario_files:
        by_system: dict[str, list[Path]] = {}
        for path in scenario_files:
            parts = path.resolve().parts
            found = system or next((s for s in _systems() if s in parts), None)
            if found is None:
                raise GunbaiError(f"{path}: cannot tell its game system from its folder; pass --system ({', '.join(_systems())})")
            by_system.setdefault(found, []).append(path)
        for name, files in by_system.items():
            f, n = _system(name).verify(data_root / name, files)
            out.append((name, list(f), n))
        return out
    for name in systems_in(data_root, system):
        f, n = _system(name).verify(data_root / name, None)
        out.append((name, list(f), n))
    return out


def render_only(data_root: Path, out_root: Path, *, what: str, system: str | None = None, force: bool = False) -> Iterator[str]:
    """Render ``counters``, ``cards`` or ``sheets`` of every system (or of ``system``); yields
    one line per system. All or nothing, like :func:`build_all`; ``force``: write into an
    output folder that holds other files (:func:`check_output_folders`).

    A system with nothing to do is skipped, as a build is: its build stamp or the job's own
    stamp (:func:`pipeline.stamp.job_fresh`) says its inputs and the job's outputs are as the
    last run left them. After a run the job's stamp records what it wrote; a run that changed
    a file of the folder drops the build's stamp (the folder no longer is what that build left).

    Raises:
        GunbaiError: bad data or environment, or an output folder that is not gunbai's
            (nothing is written).
    """
    from pipeline import progress as shown
    from pipeline import stamp
    from pipeline.output import Transaction

    check_environment()
    names = systems_in(data_root, system)
    check_output_folders(data_root, out_root, names, force=force)
    lines = []
    digests: dict[str, str] = {}
    with _template_caches(), Transaction(out_root) as tx:
        for name in names:
            gs = _system(name)
            if what == "sheets" and not gs.print_sheets:
                lines.append(f"{name}: no print sheets for this system yet")
                continue
            tree = stamp.tree_digest(data_root / name, name)
            if not force and stamp.job_fresh(data_root / name, out_root / name, name, what, tree=tree):
                lines.append(stamp.job_line(name, what))
                continue
            digests[name] = stamp.with_options(tree, stamp.job_options(what))
            shown.step(name, f"rendering {what}")
            _compiled_templates(out_root / name)
            _start_drawing()
            written = gs.render(data_root / name, out_root / name, what=what)
            lines.append(f"{name}: {len(written)} files ({what}) in {out_root / name}")
        shown.clear()
        made = {name: tx.written_under(out_root / name) for name in digests}
    for name in digests:
        base = Path(os.path.abspath(out_root / name))
        if any(p.is_relative_to(base) for p in tx.changed + tx.removed):
            stamp.remove(out_root / name)  # the folder now differs from what the last build stamped
        if made[name]:
            stamp.write(out_root / name, digests[name], f"{what} of {name}", made[name], job=what)
    yield from lines


def explain_rule(rule_id: str) -> str:
    """The statement and source of a legality rule (``gunbai verify --explain``). Rule ids are
    stable within a game system; ``system:id`` (e.g. ``ohw:known-unit``) picks one system, and
    an id several systems use prints each system's rule under its name. ``all`` (or
    ``genpei:all``) lists every rule with its source.

    Raises:
        KeyError: no system has a rule with that id (the message lists every id).
    """
    import importlib

    wanted_system, _, wanted = rule_id.rpartition(":")
    if wanted == "all":
        parts = []
        for system in _systems():
            if wanted_system and system != wanted_system:
                continue
            rules_module = importlib.import_module(f"pipeline.systems.{system}.verify")
            parts += [f"[{system}] {rules_module.explain(r)}" for r in rules_module.RULES]
        return "\n".join(parts)
    known: list[str] = []
    found: list[tuple[str, str]] = []
    for system in _systems():
        if wanted_system and system != wanted_system:
            continue
        rules_module = importlib.import_module(f"pipeline.systems.{system}.verify")
        if wanted in rules_module.RULES:
            found.append((system, rules_module.explain(wanted)))
        known.extend(f"{system}:{r}" for r in rules_module.RULES)
    if not found:
        raise KeyError(f"no rule {rule_id!r}; rules: {', '.join(sorted(known))}")
    if len(found) == 1:
        return found[0][1]
    return "\n".join(f"[{system}] {text}" for system, text in found)


def write_linted_archive(path: Path, entries: dict[str, bytes], epoch: int) -> Path:
    """Pack ``entries`` as a VASSAL archive, lint the bytes, and only then replace ``path``
    atomically: a module that fails lint is never written, and the previous one stays.

    Raises:
        GunbaiError: lint finds an error (one line per finding, ``path:entry:element: message``).
    """
    from pipeline.output import write_bytes_atomic
    from pipeline.vassal.archive import archive_bytes
    from pipeline.vassal.lint import lint_bytes

    data = archive_bytes(entries, epoch)
    errors = [f for f in lint_bytes(data, str(path)) if f.severity == "error"]
    if errors:
        raise GunbaiError("\n".join(f"{path}:{f.entry}:{f.element_path}: {f.message}" for f in errors) + f"\n{path} fails lint; nothing written")
    return write_bytes_atomic(path, data)
