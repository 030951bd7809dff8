"""The ``gunbai`` command line (Typer).

Commands::

    gunbai build     [--data source_data] [--out build] [--system S] [--force] [--jobs N]
                     [--base-module M.vmod [--base-mapping MAP.yaml]]
                                                          # verify, render, modules, print PDFs
    gunbai verify    [--data source_data] [SCENARIO.yaml…] [--system S] [--explain RULE]
                     [--play N [--precision P] [--policy NAME] [--workers N | --dask ADDRESS] [--no-cache]]
                     [--format text|github|junit|json [--output FILE]]   # for CI (pipeline/ci_formats.py)
    gunbai counters  [--data source_data] [--out build] [--system S]   # counter images only
    gunbai cards     [--data source_data] [--out build] [--system S]   # reference cards only
    gunbai sheets    [--data source_data] [--out build] [--system S]   # print PDFs
    gunbai report    [--data source_data] [--out build]  # OUT/report/index.html of the build's results
    gunbai lint      PATH… [--base MODULE.vmod]            # check .vmod/.vmdx/.vsav files
    gunbai inspect   PATH…                                 # what a module/extension/save holds
    gunbai extension draft --base-module M.vmod [-o source_data/genpei/base_mapping.yaml]
                                                          # draft the mapping onto a base module
    gunbai import    SETUP.vsav --module M.vmod [--extension X.vmdx] --system S [--pieces MAP.yaml] -o SCENARIO.yaml
    gunbai import    --module M.vmod -o DRAFT_FOLDER       # draft data folder from a module
    gunbai schema    [--data source_data] [--system S]     # JSON Schema of every system's data files
    gunbai odds      ATTACKER DEFENDER [--terrain T] [--leader]   # exact odds of one battle roll
    gunbai roster check ROSTER.yaml…                      # cost a Ronin Buntai, check composition
    gunbai edit      SCENARIO.yaml [--data source_data] [--no-browser] [--port N]
                                                          # lay out a Genpei scenario in the browser

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
    force: Annotated[bool, typer.Option("--force", help="Build every system even when its inputs and outputs are unchanged, and into output folders holding files gunbai did not write.")] = False,
    jobs: JobsOpt = None,
    quiet: QuietOpt = False,
    base_module: Annotated[Path | None, typer.Option("--base-module", help="Build the Genpei extension for this module (.vmod) instead of the one system.yaml names.")] = None,
    base_mapping: Annotated[Path | None, typer.Option("--base-mapping", help="The mapping onto that module (default: the data folder's base_mapping.yaml).")] = None,
) -> None:
    """Verify every scenario, render counters and cards, write the VASSAL modules and the print
    PDFs. All or nothing: when anything fails, no output changes. A system whose data, templates,
    code and outputs are as its last build left them is skipped."""
    import time

    from pipeline.build import build_all, write_figures

    _jobs(jobs)
    on = _progress(quiet)
    t0, c0 = time.perf_counter(), _cpu()
    try:
        results = build_all(data, out_dir, progress=on, system=system, force=force, base_module=base_module, base_mapping=base_mapping)
    except GunbaiError as exc:
        _fail(exc)
    write_figures(out_dir, results, time.perf_counter() - t0, _cpu() - c0)
    for r in results:
        out.print(r.summary(), markup=False)
        for note in r.notes:
            out.print(f"note: {note}", markup=False)


def _cpu() -> float:
    """CPU seconds of this process (and of any child process it has waited for)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@app.command()
def report(
    data: DataOpt = Path("source_data"),
    out_dir: OutOpt = Path("build"),
    no_lint: Annotated[bool, typer.Option("--no-lint", help="Leave out the lint findings of the modules (lint reads every module again).")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Check the scenarios' legality again even when the cache of gunbai verify is current.")] = False,
) -> None:
    """Write OUT/report/index.html: one static page of what the last build, verify --play and
    make vassal-check found, per system and scenario (open it as a file). Plays no game: the
    balance verdicts are those the cache of verify --play holds for today's data and code."""
    from pipeline.report import write_report

    try:
        path = write_report(data, out_dir, lint=not no_lint, use_cache=not no_cache)
    except GunbaiError as exc:
        _fail(exc)
    out.print(f"report: {path}", markup=False)


#: The most processes ``--workers`` takes.
MAX_WORKERS = 512
#: The most games a run of a ladder pair takes (--games).
MAX_LADDER_GAMES = 100_000


def _play_options(play: int, workers: int, precision: float, dask: str | None, policy: str | None, ladder: bool = False) -> None:
    """Refuse bad ``--play`` options (exit 2) before anything is read."""
    from pipeline.play.verdict import DASK_INSTALL, MAX_GAMES, dask_available

    def bad(message: str) -> None:
        err.print(f"gunbai verify: {message}", markup=False)
        raise typer.Exit(2)

    if play < 0 or play > MAX_GAMES:
        bad(f"--play {play} is not valid; expected a game budget from 0 up to {MAX_GAMES:,} (10^7) games per scenario")
    if not 1 <= workers <= MAX_WORKERS:
        bad(f"--workers {workers} is not valid; expected 1 to {MAX_WORKERS} processes")
    if not 0 < precision < 0.5:
        bad(f"--precision {precision} is not valid; expected a half-width of the 95% interval above 0 and below 0.5 (0.05 = ±5 points)")
    if ladder and dask is not None:
        bad("--ladder plays on this machine (--workers), not on a Dask cluster")
    if (dask is not None or policy is not None) and play == 0 and not ladder:
        bad(f"{'--dask' if dask is not None else '--policy'} needs --play N (or --ladder)")
    if dask is not None and not dask_available():
        bad(f"--dask needs the optional Dask extra, which is not installed: {DASK_INSTALL}")


def _check_policy(policy: str | None, names: list[str]) -> None:
    """Refuse (exit 2) a ``--policy`` that is not in the ladder of every system to be played."""
    from pipeline.systems.base import get_system

    if policy is None:
        return
    lacking = [n for n in names if policy not in get_system(n).LADDER]
    if lacking:
        ladders = "; ".join(f"{n}: {', '.join(get_system(n).LADDER)}" for n in lacking)
        err.print(f"gunbai verify: --policy {policy!r} is not a policy of every system played ({ladders}); pass --system to play one", markup=False)
        raise typer.Exit(2)


@app.command()
def verify(
    scenarios: Annotated[list[Path] | None, typer.Argument(help="Scenario files to check (default: every scenario of every system).")] = None,
    data: DataOpt = Path("source_data"),
    explain: Annotated[str | None, typer.Option("--explain", help="Print the rule with this id and its source.")] = None,
    play: Annotated[int, typer.Option("--play", help="Also reach a balance verdict for each playable scenario: seeded games until --precision is reached, at most N games (the budget; at most 10^7).")] = 0,
    precision: Annotated[float, typer.Option("--precision", help="With --play: stop when the first side's 95% interval is at most this wide each way (0.05 = ±5 points).")] = 0.05,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the --play games (same seed, same verdicts).")] = 1,
    workers: Annotated[int, typer.Option("--workers", help="Processes for --play (the verdicts do not depend on it).")] = 2,
    policy: Annotated[str | None, typer.Option("--policy", help="With --play: play this policy of the ladder instead of the verdict's (the strongest proven, else declared).")] = None,
    dask: Annotated[str | None, typer.Option("--dask", help="With --play: send the batches of games to this Dask scheduler (needs gunbai[dask]).")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Verify and play again even when nothing that decides the results changed.")] = False,
    stats: Annotated[bool, typer.Option("--stats", help="With --play: count the events of the verdicts' games (Genpei: the Command and Dragon cards played).")] = False,
    out_dir: OutOpt = Path("build"),
    system: Annotated[str | None, typer.Option("--system", help="Only this game system; with files, their system (default: from their folder).")] = None,
    notes: Annotated[bool, typer.Option("--notes", help="With --play: list every engine note (a stand-in for a value no source gives) instead of a summary.")] = False,
    ladder: Annotated[bool, typer.Option("--ladder", help="Prove the policy ladder head to head on each playable scenario (--games: games per run; --policy: the top of the climb) and write each system's ladder.yaml, which the verdicts read.")] = False,
    games: Annotated[list[int] | None, typer.Option("--games", help="With --ladder: games per run of each pair from the bottom (repeat the option for each rung; the last count serves the rungs above it). Default 100.")] = None,
    quiet: QuietOpt = False,
    fmt: Annotated[str, typer.Option("--format", help="How findings are reported: text (lines), github (GitHub Actions workflow commands: each finding on its data line in a pull request), junit (JUnit XML), json (docs/verify-report.schema.json).")] = "text",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="With --format junit or json: write the document to this file instead of standard output.")] = None,
) -> None:
    """Check scenarios against the rules: one line per problem, exit 1 when any. With --play,
    a balance verdict of each playable scenario to a stated precision (cached under OUT), from
    the strongest policy the ladder record proves on it. With --ladder, prove the ladder.
    With --format github, junit or json, the findings for a CI system (the text lines then go
    to standard error, except with github)."""
    from pipeline.build import explain_rule
    from pipeline.ci_formats import FORMATS

    if explain is not None:
        try:
            out.print(explain_rule(explain), markup=False)
        except KeyError as exc:
            err.print(exc.args[0], markup=False)
            raise typer.Exit(1) from None
        return
    _play_options(play, workers, precision, dask, policy, ladder)
    if fmt not in FORMATS or (fmt != "text" and ladder) or (output is not None and fmt not in ("junit", "json")):
        err.print(f"gunbai verify: --format {fmt} is not valid here; expected one of {', '.join(FORMATS)} (not with --ladder; --output with junit or json)",
                  markup=False)
        raise typer.Exit(2)
    if games is not None and (not ladder or any(not 1 <= g <= MAX_LADDER_GAMES for g in games)):
        err.print(f"gunbai verify: --games {games} is not valid; expected --ladder and 1 to {MAX_LADDER_GAMES:,} games per run", markup=False)
        raise typer.Exit(2)
    if ladder and play:
        err.print("gunbai verify: --ladder takes --games (games per run), not --play", markup=False)
        raise typer.Exit(2)
    if (play > 0 or ladder) and policy is not None:
        _check_policy(policy, _systems_named(data, scenarios, system))
    _progress(quiet)
    if fmt != "text":
        _verify_formatted(fmt, output, data, scenarios, system, out_dir, not no_cache,
                          play=play, precision=precision, seed=seed, workers=workers, policy=policy, dask=dask, stats=stats, notes=notes)
        return
    from pipeline.build import blocking

    try:
        per_system = _legality(data, scenarios, system, out_dir, not no_cache)
    except GunbaiError as exc:
        _fail(exc)
    found = [f for _s, fs, _n in per_system for f in fs]
    count = sum(n for _s, _fs, n in per_system)
    findings = blocking(found)
    open_notes = [f for f in found if f not in findings]
    for f in open_notes:
        out.print(str(f), markup=False)
    for f in findings:
        err.print(str(f), markup=False)
    if ladder:
        if findings:
            err.print(f"{len(findings)} problem(s) in {count} scenario(s): the ladder is climbed on legal scenarios only", markup=False)
            raise typer.Exit(1)
        _ladder(data, scenarios, [name for name, _fs, _n in per_system], games=games or None, seed=seed, workers=workers, top=policy)
        return
    verdicts: list = []
    if play > 0:
        verdicts = _play(data, scenarios, per_system, play=play, precision=precision, seed=seed, workers=workers, policy=policy,
                         dask=dask, out_dir=out_dir, use_cache=not no_cache, stats=stats, notes=notes)
        findings = list(findings) + [f for r in verdicts for f in r.findings()]
    from pipeline.verdicts import finding_scenario

    for name, fs, n in per_system:
        bad = len({finding_scenario(f) for f in blocking(fs)})
        bad = min(bad, n - len([f for f in fs if f not in blocking(fs)]))
        open_ = len([f for f in fs if f not in blocking(fs)])
        parts = [f"{n - bad - open_} legal"] + ([f"{bad} with problems"] if bad else []) + ([f"{open_} incomplete"] if open_ else [])
        out.print(f"{name}: {n} scenario(s): {', '.join(parts)}", markup=False)
    incomplete = f", {len(open_notes)} incomplete (not checked until a setup is imported)" if open_notes else ""
    if findings:
        err.print(f"{len(findings)} problem(s) in {count} scenario(s){incomplete}", markup=False)
        raise typer.Exit(1)
    from pipeline.play.verdict import Verdict

    judged = sum(1 for r in verdicts for e in r.entries if isinstance(e, Verdict))
    out.print(f"{count - len(open_notes)} scenario(s) legal{incomplete}" + (f", {judged} balance verdict(s) with no flag" if judged else ""), markup=False)


def _verify_formatted(fmt: str, output: Path | None, data: Path, scenarios: list[Path] | None, system: str | None, out_dir: Path,
                      use_cache: bool, *, play: int, **play_opts) -> None:
    """``verify --format github|junit|json``: every system verified on its own (one system's
    invalid data does not hide another's findings), the findings written in ``fmt``
    (:mod:`pipeline.ci_formats`) to standard output or ``output``; exit 1 when any is a problem."""
    from pipeline.build import blocking, systems_in
    from pipeline.ci_formats import (
        ScenarioCase,
        data_records,
        github_lines,
        json_report,
        junit_xml,
        record_of,
    )
    from pipeline.errors import DataError
    from pipeline.systems.base import get_system

    text = out if fmt == "github" else err  # the human lines: off standard output when it holds a document
    try:
        names = _systems_named(data, scenarios, system) if scenarios else systems_in(data, system)
        if not names:  # the files' systems cannot be told: this raises, saying why
            names = [n for n, _fs, _c in _legality(data, scenarios, system, out_dir, use_cache)]
    except GunbaiError as exc:
        if fmt == "github":
            out.print(f"::error title=gunbai verify::{exc}".replace("\n", "%0A"), markup=False)
        _fail(exc)
    files = _files_by_system(scenarios, names)
    records, cases, per_system = [], [], []
    for name in names:
        given = (files or {}).get(name)
        try:
            (_n, fs, count), = _legality(data, given, name, out_dir, use_cache)
        except DataError as exc:  # its scenarios are not checked: no test cases for them
            records += data_records(name, exc.problems)
            cases.append((name, []))
            continue
        except GunbaiError as exc:
            _fail(exc)
        sfs = get_system(name).scenario_files(data / name, given)
        cases.append((name, [ScenarioCase(sf.id, tuple(str(p) for p in sf.files)) for sf in sfs]))
        per_system.append((name, fs, count))
        records += [record_of(name, "legality", f) for f in fs]
        if fmt != "github":  # the workflow commands say it all
            for f in fs:
                (err if f in blocking(fs) else text).print(str(f), markup=False)
    verdicts: list = []
    if play > 0 and per_system and not any(r.severity == "error" for r in records):
        verdicts = _play(data, scenarios, per_system, play=play, out_dir=out_dir, use_cache=use_cache, to=text, **play_opts)
        records += [record_of(sv.system, "balance", f) for sv in verdicts for f in sv.findings()]
    if fmt == "github":
        for line in github_lines(records):
            out.print(line, markup=False)
    else:
        doc = (junit_xml if fmt == "junit" else json_report)(cases, records, verdicts)
        if output is None:
            sys.stdout.buffer.write(doc)
            sys.stdout.flush()
        else:
            from pipeline.output import write_bytes_atomic

            write_bytes_atomic(output, doc)
    problems = sum(r.severity == "error" for r in records)
    scenarios_n = sum(len(c) for _n, c in cases)
    text.print(f"{problems} problem(s) in {scenarios_n} scenario(s), {sum(r.severity == 'warning' for r in records)} note(s)", markup=False)
    if problems:
        raise typer.Exit(1)


def _files_by_system(scenarios: list[Path] | None, names: list[str]) -> dict[str, list[Path]] | None:
    """The scenario files given, by the system whose folder holds each (the first of ``names``
    when none does); None when no file was given."""
    if not scenarios:
        return None
    files: dict[str, list[Path]] = {}
    for path in scenarios:
        parts = path.resolve().parts
        files.setdefault(next((s for s in names if s in parts), names[0]), []).append(path)
    return files


def _ladder(data: Path, scenarios: list[Path] | None, names: list[str], *, games: list[int] | None, seed: int, workers: int, top: str | None) -> None:
    """``verify --ladder``: climb every playable scenario's ladder, print it, write the records
    (:mod:`pipeline.ladders`)."""
    import time

    from pipeline import progress
    from pipeline.data.ladder import LADDER_FILE
    from pipeline.ladders import DEFAULT_GAMES, climb_all
    from pipeline.play.ladder import Ladder

    files = _files_by_system(scenarios, names)
    t0 = time.perf_counter()
    try:
        results = climb_all(data, names, files=files, games=games or [DEFAULT_GAMES], seed=seed, workers=workers, top=top)
    except GunbaiError as exc:
        progress.clear()
        _fail(exc)
    for name, entries in results:
        for e in entries:
            if isinstance(e, Ladder):
                for line in e.lines():
                    out.print(line, markup=False)
        if skipped := [e for e in entries if not isinstance(e, Ladder)]:
            out.print(f"{name}: {len(skipped)} scenario(s) not climbed (not playable: {skipped[0].reason}"
                      f"{'; …' if len(skipped) > 1 else ''})", markup=False)
        if any(isinstance(e, Ladder) for e in entries):
            out.print(f"{name}: ladder record written to {data / name / LADDER_FILE}", markup=False)
    out.print(f"climbed {sum(isinstance(e, Ladder) for _n, es in results for e in es)} ladder(s) in {time.perf_counter() - t0:.1f} s on {workers} process(es)",
              markup=False)


def _systems_named(data: Path, scenarios: list[Path] | None, system: str | None) -> list[str]:
    """The systems ``verify`` will check (of the files given, else under ``data``); empty when
    that cannot be told (``verify`` then says why)."""
    from pipeline.build import systems_in
    from pipeline.systems.base import SYSTEMS

    if scenarios:
        return [system] if system else sorted({next((s for s in SYSTEMS if s in p.resolve().parts), "") for p in scenarios} - {""})
    try:
        return systems_in(data, system)
    except GunbaiError:
        return []


def _legality(data: Path, scenarios: list[Path] | None, system: str | None, out_dir: Path, use_cache: bool) -> list[tuple[str, list, int]]:
    """``(system, findings, scenarios checked)`` per system: of the files given, else of every
    system's whole folder from the legality cache (:func:`pipeline.verdicts.verify_cached`)."""
    from pipeline.build import systems_in, verify_by_system

    if scenarios:
        return verify_by_system(data, scenarios, system=system)
    from pipeline.verdicts import verify_cached

    out_ = []
    for name in systems_in(data, system):
        fs, n, _hit = verify_cached(data, name, out_dir, use_cache=use_cache)
        out_.append((name, fs, n))
    return out_


def _play(data: Path, scenarios: list[Path] | None, per_system, *, play: int, precision: float, seed: int, workers: int,
          policy: str | None, dask: str | None, out_dir: Path, use_cache: bool, stats: bool, notes: bool, to: Console | None = None) -> list:
    """``verify --play``: the verdicts of every system verified, printed; returns them
    (:class:`pipeline.verdicts.SystemVerdicts`); ``to``: where the lines go (standard output)."""
    to = to or out
    import time

    from pipeline import progress
    from pipeline.play.verdict import Verdict
    from pipeline.verdicts import play_all, summary_line

    names = [name for name, _fs, _n in per_system]
    files = _files_by_system(scenarios, names)
    t0 = time.perf_counter()
    progress.step(", ".join(names), "playing")
    try:
        from pipeline.build import check_output_folders

        check_output_folders(data, out_dir, names, force=True)  # the charts: never among the inputs
        results = play_all(data, names, files=files, budget=play, seed=seed, precision=precision, policy=policy, workers=workers, dask=dask,
                           out_root=out_dir, use_cache=use_cache)
    except GunbaiError as exc:
        progress.clear()
        _fail(exc)
    progress.clear()
    seconds = time.perf_counter() - t0
    where = f" on the Dask cluster at {dask}" if dask else f" on {workers} process(es)"
    for r in results:
        for n in r.record_notes:
            to.print(f"ladder: {n}", markup=False)
        lines = [f"engine note: {n}" for n in r.notes]
        for e in r.entries:
            lines.extend(e.lines())
            if stats and isinstance(e, Verdict):
                lines.extend(e.stats_lines())
        for line in _summarise_notes(lines, notes):
            to.print(line, markup=False)
        if r.chart is not None:
            to.print(f"chart: {r.chart}", markup=False)
        for f in r.findings():
            err.print(str(f), markup=False)
    for r in results:
        to.print(summary_line(r), markup=False)
    played = sum(r.played for r in results)
    if played:
        to.print(f"played {played} verdict(s), {sum(r.games for r in results)} games, in {seconds:.1f} s{where}", markup=False)
    return results


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


ForceOutOpt = Annotated[bool, typer.Option("--force", help="Write into output folders that hold files gunbai did not write.")]


def _render(data: Path, out_dir: Path, what: str, system: str | None, quiet: bool, jobs: int | None = None, force: bool = False) -> None:
    from pipeline.build import render_only

    _jobs(jobs)
    _progress(quiet)
    try:
        for line in render_only(data, out_dir, what=what, system=system, force=force):
            out.print(line, markup=False)
    except GunbaiError as exc:
        _fail(exc)


@app.command()
def counters(data: DataOpt = Path("source_data"), out_dir: OutOpt = Path("build"), system: SystemOpt = None, jobs: JobsOpt = None, quiet: QuietOpt = False,
             force: ForceOutOpt = False) -> None:
    """Render every counter image (PNG) of every system into OUT/<system>/images/."""
    _render(data, out_dir, "counters", system, quiet, jobs, force)


@app.command()
def cards(data: DataOpt = Path("source_data"), out_dir: OutOpt = Path("build"), system: SystemOpt = None, jobs: JobsOpt = None, quiet: QuietOpt = False,
          force: ForceOutOpt = False) -> None:
    """Render every reference card (PNG) of every system into OUT/<system>/cards/."""
    _render(data, out_dir, "cards", system, quiet, jobs, force)


@app.command()
def sheets(data: DataOpt = Path("source_data"), out_dir: OutOpt = Path("build"), system: SystemOpt = None, jobs: JobsOpt = None, quiet: QuietOpt = False,
           force: ForceOutOpt = False) -> None:
    """Write the print PDFs (counter sheets A4 and Letter, cards, scenario sheets) of every
    system into OUT/<system>/print/ (``gunbai build`` writes them too)."""
    _render(data, out_dir, "sheets", system, quiet, jobs, force)


@app.command()
def edit(
    scenario: Annotated[Path, typer.Argument(help="The Genpei scenario to edit (a .yaml file of DATA/genpei/scenarios/).")],
    data: DataOpt = Path("source_data"),
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Print the URL only; do not open a browser.")] = False,
    port: Annotated[int, typer.Option("--port", help="TCP port on 127.0.0.1 (0: a free one).", min=0, max=65535)] = 0,
) -> None:
    """Lay out a scenario in the browser: trays of terrain, units, leaders and markers, a picture
    of the published map to trace, every change checked by the rules of ``gunbai verify``, quick
    games, and saves that keep the file's comments. Serves 127.0.0.1 only, with a per-run secret
    token in the URL it prints; Ctrl-C stops it."""
    from pipeline.editor import serve

    try:
        serve(data, scenario, open_browser=not no_browser, port=port, announce=lambda line: out.print(line, markup=False))
    except GunbaiError as exc:
        _fail(exc)
    except OSError as exc:
        err.print(f"gunbai edit: cannot serve on 127.0.0.1:{port}: {exc.strerror}", markup=False)
        raise typer.Exit(1) from None


@app.command("import")
def import_(
    setup: Annotated[Path | None, typer.Argument(help="The saved game or predefined setup (.vsav), or the name of a setup stored in the module, or at-start for the module's At-Start Stacks. Leave out to draft a data folder from the module.")] = None,
    module: Annotated[Path | None, typer.Option("--module", help="The module (.vmod) the setup was made with.", show_default=False)] = None,
    extension: Annotated[list[Path] | None, typer.Option("--extension", help="An extension (.vmdx) loaded onto the module when the setup was made (repeatable); its setups may be named.")] = None,
    system: Annotated[str | None, typer.Option("--system", help="Game system to import into: genpei, ronin, ohw, sekigahara (default: the one whose data names the module, for a module gunbai built).")] = None,
    pieces: Annotated[Path | None, typer.Option("--pieces", help="Piece mapping (MAP.yaml): piece name, palette slot or prototype → unit, leader, terrain or marker id.")] = None,
    base: Annotated[Path | None, typer.Option("--base", help="A scenario file whose fields a setup cannot give (name, sides, cards, victory, rules) are kept.")] = None,
    draft_pieces: Annotated[Path | None, typer.Option("--draft-pieces", help="Write a draft piece mapping listing every piece not mapped yet.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The scenario file to write (a folder when drafting a data folder).")] = None,
    data: DataOpt = Path("source_data"),
    force: Annotated[bool, typer.Option("--force", help="Write -o (and --draft-pieces) even over one of the inputs or a file that is not a scenario (a piece mapping).")] = False,
) -> None:
    """Bring a VASSAL setup in as a scenario file (then verify it), or, without SETUP, draft a
    data folder (units, board, grid) from a module gunbai did not write."""
    from pipeline.setup_import import import_setup

    if module is None or output is None:
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
        from pipeline.setup_import import system_of_module

        system = system_of_module(module, data)
        if system is None:
            err.print(f"gunbai import: --system is required with a setup (genpei, ronin, ohw, sekigahara): no system under {data} names the module", markup=False)
            raise typer.Exit(2)
        out.print(f"--system {system} (its data names the module)", markup=False)
    from pipeline.build import blocking
    from pipeline.systems.base import SYSTEMS, get_system

    try:
        result = import_setup(setup, module, system, output, data_root=data, pieces=pieces, base=base,
                              draft_pieces=draft_pieces, verify=get_system(system).verify if system in SYSTEMS else None,
                              extensions=list(extension or []), force=force)
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
    from pipeline.vassal.inspect import iter_inspect_path

    write = out.file.write
    for path in paths:
        try:
            for line in iter_inspect_path(path):  # printed as read: one setup held at a time
                if line.isprintable():  # as rich prints it (no tab, no control character),
                    write(line + "\n")  # without its 40 µs of rendering a line
                else:
                    out.print(line, markup=False)
        except (VassalFormatError, OSError) as exc:
            err.print(f"error {path}: {exc}", markup=False)
            raise typer.Exit(1) from None


extension_app = typer.Typer(help="The Genpei pack's VASSAL extension and its base module.", no_args_is_help=True)
app.add_typer(extension_app, name="extension")


@extension_app.command("draft")
def extension_draft(
    base_module: Annotated[Path, typer.Option("--base-module", help="The module (.vmod) the extension is to extend.")],
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The mapping to write (default: DATA/genpei/base_mapping.yaml).")] = None,
    data: DataOpt = Path("source_data"),
    force: Annotated[bool, typer.Option("--force", help="Replace an existing mapping file.")] = False,
) -> None:
    """Draft base_mapping.yaml: which map, board and hex of the base module the Genpei scenarios
    go on, and which gunbai pieces are pieces the base already has (filled in for a module
    gunbai built; `slot: null` to complete otherwise). Prints the module's SHA-256 for
    system.yaml's base_module_sha256."""
    from pipeline.output import write_bytes_atomic
    from pipeline.systems.genpei.base_mapping import MAPPING_FILE, draft_text
    from pipeline.systems.genpei.load import load
    from pipeline.vassal.base import BaseModuleError, read_base_module

    target = output or data / "genpei" / MAPPING_FILE
    if target.exists() and not force:
        err.print(f"{target}: exists; give --force to replace it, or -o another file", markup=False)
        raise typer.Exit(1)
    try:
        base = read_base_module(base_module)
        text = draft_text(load(data / "genpei"), base)
    except BaseModuleError as exc:
        err.print(f"error: {exc}", markup=False)
        raise typer.Exit(1) from None
    except GunbaiError as exc:
        _fail(exc)
    write_bytes_atomic(target, text.encode("utf-8"))
    todo = text.count("# TODO")
    out.print(f"{target}: drafted from {base_module} (module {base.name!r} {base.version}); {todo} TODO(s) to complete", markup=False)
    out.print(f"base_module_sha256: {base.sha256}", markup=False)


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
    from pipeline.systems.genpei.odds_cli import run_cli

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
        if out_dir.exists() and not out_dir.is_dir():
            err.print(f"--out {out_dir}: is a file; expected the folder the schemas go to", markup=False)
            raise typer.Exit(1)
        if not system or len(system) != 1:
            err.print("--out writes one system's schemas: give exactly one --system", markup=False)
            raise typer.Exit(1)
    try:
        if out_dir is not None:
            paths = write_schemas(out_dir, system[0])
        else:
            paths = write_all(data, system)
            if headers:
                for s in system or [s for s in SYSTEMS if (data / s).is_dir()]:
                    paths += add_headers(data / s)
    except GunbaiError as exc:
        _fail(exc)
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
    what was kept and exits 130 (SIGTERM: the same, exit 143)."""
    from pipeline.errors import handle_sigterm

    handle_sigterm()
    try:
        app(prog_name="gunbai")
    except OSError as exc:
        from pipeline.output import kept_after_error

        where = f"{exc.filename}: " if exc.filename else ""
        err.print(f"gunbai: {where}{exc.strerror or exc}{kept_after_error()}", markup=False)
        sys.exit(1)
    except KeyboardInterrupt as exc:
        _interrupted(exc)
    except SystemExit as exc:
        # Typer turns Ctrl-C into a silent exit 130 (SystemExit <- typer.Exit <- KeyboardInterrupt)
        cause = getattr(exc.__context__, "__cause__", None)
        if isinstance(cause, KeyboardInterrupt):
            _interrupted(cause)
        raise


def _interrupted(exc: BaseException | None = None) -> None:
    """Ctrl-C (or SIGTERM, :class:`~pipeline.errors.Terminated`): stop the drawing processes,
    say what was kept, exit 130 (143). A second one from then on is ignored (as ``timeout -s
    INT`` sends one to the command and one to its process group), so that it cuts neither the
    roll-back of the outputs nor the message short."""
    import signal

    from pipeline.errors import Terminated

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    from pipeline import progress
    from pipeline.output import interrupted_message
    from pipeline.render import parallel

    parallel.shutdown(wait=False)
    progress.clear()
    terminated = isinstance(exc, Terminated)
    err.print(f"gunbai: {'terminated' if terminated else 'interrupted'}; {interrupted_message()}", markup=False)
    sys.exit(143 if terminated else 130)


if __name__ == "__main__":  # pragma: no cover
    main()
