"""The ``gunbai`` command line (Typer).

Commands::

    gunbai build     [--data source_data] [--out build] [--system S] [--force] [--jobs N]
                                                          # verify, render, modules, print PDFs
    gunbai verify    [--data source_data] [SCENARIO.yaml…] [--system S] [--explain RULE] [--play N]
    gunbai counters  [--data source_data] [--out build] [--system S]   # counter images only
    gunbai cards     [--data source_data] [--out build] [--system S]   # reference cards only
    gunbai sheets    [--data source_data] [--out build] [--system S]   # print PDFs
    gunbai lint      PATH… [--base MODULE.vmod]            # check .vmod/.vmdx/.vsav files
    gunbai inspect   PATH…                                 # what a module/extension/save holds
    gunbai import    SETUP.vsav --module M.vmod --system S [--pieces MAP.yaml] -o SCENARIO.yaml
    gunbai import    --module M.vmod -o DRAFT_FOLDER       # draft data folder from a module
    gunbai schema    [--data source_data] [--system S]     # JSON Schema of every system's data files
    gunbai odds      ATTACKER DEFENDER [--terrain T] [--leader]   # exact odds of one battle roll
    gunbai roster check ROSTER.yaml…                      # cost a Ronin Buntai, check composition

Every command exits 0 on success and 1 on a problem, printing one line per problem. A command
that can take more than a couple of seconds shows its progress on standard error when that is a
terminal (never in CI or a pipe, nor with ``--quiet``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pipeline.errors import GunbaiError

app = typer.Typer(
    help="gunbai: samurai-era wargame data in, verified scenarios and VASSAL modules, counters and cards out.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# Every message is printed literally: no markup, no emoji shortcodes (``file.yaml:100:`` must not
# become an emoji, issue 29 item 3), no highlighting, in a terminal and in a pipe.
err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False, emoji=False)
out = Console(highlight=False, soft_wrap=True, markup=False, emoji=False)

DataOpt = Annotated[Path, typer.Option("--data", help="The canonical data folder (one sub-folder per game system).")]
OutOpt = Annotated[Path, typer.Option("--out", help="Where outputs go (one sub-folder per game system).")]
SystemOpt = Annotated[str | None, typer.Option("--system", help="Only this game system (genpei, ronin, ohw, sekigahara).")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display (it is shown only on a terminal anyway).")]
JobsOpt = Annotated[int | None, typer.Option("--jobs", "-j", help="Processes that draw images (default: every usable core, or $GUNBAI_JOBS).")]


def _progress(quiet: bool) -> bool:
    """Turn the progress line on when standard error is a terminal and not ``quiet``."""
    from pipeline import progress

    on = progress.wanted(quiet)
    progress.enable(on)
    return on


def _jobs(jobs: int | None) -> None:
    from pipeline.render import parallel

    try:
        parallel.set_workers(jobs)
    except ValueError as exc:
        err.print(f"gunbai: {exc}", markup=False)
        raise typer.Exit(2) from None


def _fail(exc: GunbaiError) -> None:
    for line in str(exc).splitlines():
        err.print(line, markup=False)
    raise typer.Exit(1)


@app.command()
def build(
    data: DataOpt = Path("source_data"),
    out_dir: OutOpt = Path("build"),
    system: SystemOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Build every system even when its inputs and outputs are unchanged.")] = False,
    jobs: JobsOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Verify every scenario, render counters and cards, write the VASSAL modules and the print
    PDFs. All or nothing: when anything fails, no output changes. A system whose data, templates,
    code and outputs are as its last build left them is skipped."""
    from pipeline.build import build_all

    _jobs(jobs)
    on = _progress(quiet)
    try:
        results = build_all(data, out_dir, progress=on, system=system, force=force)
    except GunbaiError as exc:
        _fail(exc)
    for r in results:
        out.print(r.summary(), markup=False)


@app.command()
def verify(
    scenarios: Annotated[list[Path] | None, typer.Argument(help="Scenario files to check (default: every scenario of every system).")] = None,
    data: DataOpt = Path("source_data"),
    explain: Annotated[str | None, typer.Option("--explain", help="Print the rule with this id and its source.")] = None,
    play: Annotated[int, typer.Option("--play", help="Also play N seeded games of each scenario (Genpei: per policy, with thresholds and a chart).")] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the --play games (same seed, same report).")] = 1,
    workers: Annotated[int, typer.Option("--workers", help="Processes for --play (the report does not depend on it).")] = 2,
    stats: Annotated[bool, typer.Option("--stats", help="With --play: count the Command and Dragon cards played per policy (Genpei).")] = False,
    out_dir: OutOpt = Path("build"),
    system: Annotated[str | None, typer.Option("--system", help="Only this game system; with files, their system (default: from their folder).")] = None,
    notes: Annotated[bool, typer.Option("--notes", help="With --play: list every engine note (a stand-in for a value no source gives) instead of a summary.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Check scenarios against the rules: one line per problem, exit 1 when any."""
    from pipeline.build import explain_rule, play_others, verify_by_system

    if explain is not None:
        try:
            out.print(explain_rule(explain), markup=False)
        except KeyError as exc:
            err.print(exc.args[0], markup=False)
            raise typer.Exit(1) from None
        return
    if play < 0:
        err.print(f"gunbai verify: --play {play} is not valid; expected a number of games from 0 up", markup=False)
        raise typer.Exit(2)
    _progress(quiet)
    from pipeline.build import blocking

    try:
        per_system = verify_by_system(data, scenarios, system=system)
    except GunbaiError as exc:
        _fail(exc)
    found = [f for _s, fs, _n in per_system for f in fs]
    count = sum(n for _s, _fs, n in per_system)
    findings = blocking(found)
    notes = [f for f in found if f not in findings]
    for f in notes:
        out.print(str(f), markup=False)
    for f in findings:
        err.print(str(f), markup=False)
    if play > 0 and system in (None, "genpei"):
        from pipeline import progress
        from pipeline.systems.genpei.engine.playability import play_command

        progress.step("genpei", "playing")
        try:
            lines, unplayable, chart = play_command(data, scenarios, play, seed=seed, workers=workers, out_dir=out_dir, stats=stats)
        except GunbaiError as exc:
            _fail(exc)
        progress.clear()
        lines = _summarise_notes(lines, notes)
        for line in lines:
            out.print(line, markup=False)
        if chart is not None:
            out.print(f"chart: {chart}", markup=False)
        for f in unplayable:
            err.print(str(f), markup=False)
        findings = list(findings) + unplayable
    if play > 0:
        if not scenarios:
            for report in play_others(data, play, seed, workers=workers, system=system):
                for line in report.lines():
                    out.print(line, markup=False)
    for name, fs, n in per_system:
        # one count per scenario (a Ronin game's findings name it as "<game>" or "<game> (<role>)")
        bad = len({getattr(f, "scenario", None) or (getattr(f, "roster", None) or "").split(" (")[0] or str(f) for f in blocking(fs)})
        bad = min(bad, n - len([f for f in fs if f not in blocking(fs)]))
        open_ = len([f for f in fs if f not in blocking(fs)])
        parts = [f"{n - bad - open_} legal"] + ([f"{bad} with problems"] if bad else []) + ([f"{open_} incomplete"] if open_ else [])
        out.print(f"{name}: {n} scenario(s): {', '.join(parts)}", markup=False)
    incomplete = f", {len(notes)} incomplete (not checked until a setup is imported)" if notes else ""
    if findings:
        err.print(f"{len(findings)} problem(s) in {count} scenario(s){incomplete}", markup=False)
        raise typer.Exit(1)
    out.print(f"{count - len(notes)} scenario(s) legal{incomplete}" + (", Genpei scenarios playable" if play > 0 and system in (None, "genpei") else ""), markup=False)


def _summarise_notes(lines: list[str], full: bool) -> list[str]:
    """The engine notes (``engine note: …`` lines, one per stand-in the engine uses for a value
    no public source gives) once, as one summary line, unless ``full``."""
    prefix = "engine note: "
    notes = [line[len(prefix):] for line in lines if line.startswith(prefix)]
    rest = [line for line in lines if not line.startswith(prefix)]
    if full or not notes:
        return lines
    subjects: dict[str, int] = {}
    for n in notes:
        subject = n.split(".", 1)[0].split(" ", 1)[0]
        subjects[subject] = subjects.get(subject, 0) + 1
    listing = ", ".join(f"{k} {v}" for k, v in subjects.items())
    return [f"engine notes: {len(notes)} values no public source gives are played with stand-ins ({listing}); --notes lists them"] + rest


def _render(data: Path, out_dir: Path, what: str, system: str | None, quiet: bool, jobs: int | None = None) -> None:
    from pipeline.build import render_only

    _jobs(jobs)
    _progress(quiet)
    try:
        for line in render_only(data, out_dir, what=what, system=system):
            out.print(line, markup=False)
    except GunbaiError as exc:
        _fail(exc)


@app.command()
def counters(data: DataOpt = Path("source_data"), out_dir: OutOpt = Path("build"), system: SystemOpt = None, jobs: JobsOpt = None, quiet: QuietOpt = False) -> None:
    """Render every counter image (PNG) of every system into OUT/<system>/images/."""
    _render(data, out_dir, "counters", system, quiet, jobs)


@app.command()
def cards(data: DataOpt = Path("source_data"), out_dir: OutOpt = Path("build"), system: SystemOpt = None, jobs: JobsOpt = None, quiet: QuietOpt = False) -> None:
    """Render every reference card (PNG) of every system into OUT/<system>/cards/."""
    _render(data, out_dir, "cards", system, quiet, jobs)


@app.command()
def sheets(data: DataOpt = Path("source_data"), out_dir: OutOpt = Path("build"), system: SystemOpt = None, jobs: JobsOpt = None, quiet: QuietOpt = False) -> None:
    """Write the print PDFs (counter sheets A4 and Letter, cards, scenario sheets) of every
    system into OUT/<system>/print/ (``gunbai build`` writes them too)."""
    _render(data, out_dir, "sheets", system, quiet, jobs)


@app.command("import")
def import_(
    setup: Annotated[Path | None, typer.Argument(help="The saved game or predefined setup (.vsav), or the name of a setup stored in the module. Leave out to draft a data folder from the module.")] = None,
    module: Annotated[Path, typer.Option("--module", help="The module (.vmod) the setup was made with.")] = Path(),
    system: Annotated[str | None, typer.Option("--system", help="Game system to import into: genpei, ronin, ohw, sekigahara.")] = None,
    pieces: Annotated[Path | None, typer.Option("--pieces", help="Piece mapping (MAP.yaml): piece name, palette slot or prototype → unit, leader, terrain or marker id.")] = None,
    base: Annotated[Path | None, typer.Option("--base", help="A scenario file whose fields a setup cannot give (name, sides, cards, victory, rules) are kept.")] = None,
    draft_pieces: Annotated[Path | None, typer.Option("--draft-pieces", help="Write a draft piece mapping listing every piece not mapped yet.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The scenario file to write (a folder when drafting a data folder).")] = None,
    data: DataOpt = Path("source_data"),
) -> None:
    """Bring a VASSAL setup in as a scenario file (then verify it), or, without SETUP, draft a
    data folder (units, board, grid) from a module gunbai did not write."""
    from pipeline.setup_import import import_setup

    if module == Path() or output is None:
        err.print("gunbai import: --module and -o are required", markup=False)
        raise typer.Exit(2)
    if setup is None:
        from pipeline.module_draft import draft_data_folder

        try:
            for line in draft_data_folder(module, output, system=system):
                out.print(line, markup=False)
        except GunbaiError as exc:
            _fail(exc)
        return
    if system is None:
        err.print("gunbai import: --system is required with a setup (genpei, ronin, ohw, sekigahara)", markup=False)
        raise typer.Exit(2)
    from pipeline.build import _systems, blocking

    try:
        result = import_setup(setup, module, system, output, data_root=data, pieces=pieces, base=base,
                              draft_pieces=draft_pieces, verify=_systems()[system].verify if system in _systems() else None)
    except GunbaiError as exc:
        _fail(exc)
    for note in result.notes:
        out.print(note, markup=False)
    out.print(f"{output}: {result.imported} piece(s) imported, {result.ignored} ignored", markup=False)
    problems = blocking(result.findings)
    for f in result.findings:
        (err if f in problems else out).print(str(f), markup=False)
    if problems:
        err.print(f"{output}: written, but verify finds {len(problems)} problem(s)", markup=False)
        raise typer.Exit(1)
    out.print(f"{output}: verified" + (" (incomplete)" if result.findings else ", legal"), markup=False)


@app.command()
def lint(
    paths: Annotated[list[Path], typer.Argument(help=".vmod, .vmdx or .vsav files, or a bare buildFile.xml.")],
    base: Annotated[Path | None, typer.Option("--base", help="The .vmod the extensions extend, or that the saves and logs were made with.")] = None,
) -> None:
    """Check VASSAL files for what makes VASSAL fail or misbehave; exit 1 on any error.

    error: VASSAL fails, loses data or shows the player something broken; warning: works but
    fragile; note: style and legacy. Extensions linted together are checked for clashing ids."""
    from pipeline.vassal.lint import SEVERITIES, lint_many

    errors = 0
    counts = dict.fromkeys(SEVERITIES, 0)
    try:
        results = lint_many(list(paths), base=base)
    except GunbaiError as exc:
        err.print(f"error: {exc}", markup=False)
        raise typer.Exit(1) from None
    for path in paths:
        findings = results[os.fspath(path)]
        for f in findings:
            counts[f.severity] += 1
            err.print(f"{f.severity} {path}:{f.entry}:{f.element_path}: {f.message}", markup=False)
            errors += f.severity == "error"
        if not findings:
            out.print(f"{path}: ok", markup=False)
    if len(paths) > 1 or any(counts.values()):
        out.print(", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items()),
                  markup=False)
    if errors:
        raise typer.Exit(1)


@app.command()
def inspect(paths: Annotated[list[Path], typer.Argument(help=".vmod, .vmdx, .vsav or buildFile.xml files.")]) -> None:
    """Show what a module, extension or save holds: maps, grids, prototypes, pieces, setups."""
    from pipeline.vassal.archive import VassalFormatError
    from pipeline.vassal.inspect import inspect_path

    for path in paths:
        try:
            for line in inspect_path(path):
                out.print(line, markup=False)
        except (VassalFormatError, OSError) as exc:
            err.print(f"error {path}: {exc}", markup=False)
            raise typer.Exit(1) from None


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def odds(args: Annotated[list[str] | None, typer.Argument(help="ATTACKER DEFENDER [--terrain T] [--leader] …, or: ronin …")] = None) -> None:
    """Exact odds of one battle roll: gunbai odds ATTACKER DEFENDER [--terrain T] [--leader]
    (Genpei; --help after the ids for every option), or gunbai odds ronin … ."""
    args = list(args or [])
    if args and args[0] == "ronin":
        try:
            from pipeline.systems.ronin import odds_cli
        except ImportError:
            err.print("Ronin odds not available", markup=False)
            raise typer.Exit(1) from None
        raise typer.Exit(odds_cli.run(args[1:]))
    from pipeline.systems.genpei.odds import run_cli

    raise typer.Exit(run_cli(args))


@app.command()
def schema(
    data: DataOpt = Path("source_data"),
    system: Annotated[list[str] | None, typer.Option("--system", help="Only this game system (repeatable; default: every system under --data).")] = None,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Write one system's schemas into this folder instead (needs one --system).")] = None,
    headers: Annotated[bool, typer.Option("--headers", help="Also put the yaml-language-server line naming its schema first in every data file that lacks it.")] = False,
) -> None:
    """Write the JSON Schema of each kind of data file of every game system (into
    DATA/<system>/schema/), for editors that complete and check YAML."""
    from pipeline.schema import SYSTEMS, add_headers, write_all, write_schemas

    unknown = [s for s in system or [] if s not in SYSTEMS]
    if unknown:
        err.print(f"--system {unknown[0]!r}: not a game system ({', '.join(SYSTEMS)})", markup=False)
        raise typer.Exit(1)
    if out_dir is not None:
        if not system or len(system) != 1:
            err.print("--out writes one system's schemas: give exactly one --system", markup=False)
            raise typer.Exit(1)
        paths = write_schemas(out_dir, system[0])
    else:
        paths = write_all(data, system)
        if headers:
            for s in system or [s for s in SYSTEMS if (data / s).is_dir()]:
                paths += add_headers(data / s)
    for path in paths:
        out.print(str(path), markup=False)


roster_app = typer.Typer(help="Ronin Buntai rosters: cost every model from its model list and check the faction's composition rules.", no_args_is_help=True)
app.add_typer(roster_app, name="roster")


@roster_app.command("check")
def roster_check(
    files: Annotated[list[Path], typer.Argument(help="Roster files (YAML: faction, points_limit, models with their choices).")],
    data: Annotated[Path, typer.Option("--data", help="The data folder (source_data, or its ronin folder).")] = Path("source_data"),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the problems, not the costed roster.")] = False,
) -> None:
    """Cost each roster and check it: one line per problem (rule id and source), exit 1 when any.

    Notes (a rule that cannot be checked because a statline is not public, a printed total that
    differs from the computed one) are printed too but do not fail the check.
    """
    from pipeline.systems.ronin.load import load, load_roster
    from pipeline.systems.ronin.roster import check_roster

    problems = 0
    try:
        ronin = load(data / "ronin" if (data / "ronin").is_dir() else data, roster_files=[], game_files=[])
        for path in files:
            report = check_roster(ronin, load_roster(path))
            if not quiet:
                out.print(f"{path}: {report.roster.name}", markup=False)
                for line in report.table():
                    out.print(f"  {line}", markup=False)
            for f in report.notes:
                out.print(str(f), markup=False)
            for f in report.findings:
                err.print(str(f), markup=False)
            problems += len(report.findings)
    except GunbaiError as exc:
        _fail(exc)
    if problems:
        err.print(f"{problems} problem(s) in {len(files)} roster(s)", markup=False)
        raise typer.Exit(1)


def main() -> None:
    """Console entry point: run the app; an operating-system error (a folder where a file was
    expected, a file where a folder was, no permission) is one line and exit 1, and Ctrl-C says
    what was kept and exits 130."""
    try:
        app(prog_name="gunbai")
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        err.print(f"gunbai: {where}{exc.strerror or exc}", markup=False)
        sys.exit(1)
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as exc:
        # Typer turns Ctrl-C into a silent exit 130 (SystemExit <- typer.Exit <- KeyboardInterrupt)
        if isinstance(getattr(exc.__context__, "__cause__", None), KeyboardInterrupt):
            _interrupted()
        raise


def _interrupted() -> None:
    """Ctrl-C: stop the drawing processes, say what was kept, exit 130. A second Ctrl-C from
    then on is ignored (as ``timeout -s INT`` sends one to the command and one to its process
    group), so that it cuts neither the roll-back of the outputs nor the message short."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from pipeline import progress
    from pipeline.output import interrupted_message
    from pipeline.render import parallel

    parallel.shutdown(wait=False)
    progress.clear()
    err.print(f"gunbai: interrupted; {interrupted_message()}", markup=False)
    sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
