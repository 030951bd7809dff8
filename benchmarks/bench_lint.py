"""Lint time per corpus module (``tests/fixtures/vassal/corpus/``), and of gunbai's own module.

    .venv/bin/python benchmarks/bench_lint.py [--repeat N] [FIXTURE ...]

Each corpus fixture is turned back into its archive once (stand-in images, see
``tests/vassal/corpus.py``), then ``lint_bytes`` is timed N times (default 3), each time with
lint's caches emptied first (as in a fresh ``gunbai lint``): median wall time, median CPU time
(``process_time``, what matters on a shared machine), archive size and findings.
The target (issue 11): the largest corpus module under 1 s. ``build/genpei/samurai_battles.vmod`` is timed
too when ``gunbai build`` has written it. Progress goes to stderr, one line per module.

    .venv/bin/python benchmarks/bench_lint.py --module PATH.vmod [--repeat N] [--no-vassal]

Issue 28's measure on a large real module, every setup included: ``gunbai lint PATH`` and
``gunbai inspect PATH``, each run N times (default 1) as a fresh process, with its CPU seconds
(user + system, from ``wait4``) and peak resident memory (``ru_maxrss``); then the real VASSAL
3.7.26 opening the same module (``/work/shared/vassal/vassal-check``, or ``$VASSAL_CHECK``):
the seconds until its Player reports the module loaded ("loaded after N s", wall time) and the
CPU seconds of the whole check (the Player, the image tiler, Xvfb; its settle waits cost no
CPU). One table, side by side, with the module described: size, predefined setups, saves and
logs stored, AddPiece commands in them and distinct piece types. The target: lint and inspect
each under VASSAL's load time in CPU seconds, peak memory under 300 MB.

The large module measured for issue 28 (kept outside the repository, never committed):
Warmachine & Hordes MKII 4.5.6, github.com/npe9/WMH_Vassal at commit
d65368dc090a057bb26ae7494eae9d4148d2883a (2017-04-30), zipped as the repository's Makefile
zips it (``zip wmh.vmod * -x *.git* *.md Makefile``) from a ``git cat-file`` of every blob the
snapshot holds (one image, ``images/Map_Grassy_Plains-24x24.png``, is absent from the
snapshot): 139 MB, 124 predefined setups naming 107 saves. Rebuild it with::

    git --git-dir=DIR ls-tree -r HEAD   # then ``git cat-file blob`` each, and zip as above
"""

from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.vassal.lint import lint_bytes  # noqa: E402
from pipeline.vassal.save import deobfuscate_bytes  # noqa: E402
from tests.vassal.corpus import fixture_archive, fixture_base, fixture_names  # noqa: E402


def clear_caches() -> None:
    """Empty every ``functools`` cache of ``pipeline.vassal`` (decoded piece types, states and
    levels), so that each timed lint starts as cold as a new process."""
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith("pipeline.vassal") and module is not None:
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def bench(data: bytes, name: str, base: bytes | None, repeat: int) -> tuple[float, float, list]:
    """(median wall s, median CPU s, findings) of ``repeat`` lints, each from cold caches."""
    walls, cpus, findings = [], [], []
    for _ in range(repeat):
        clear_caches()
        w, c = time.perf_counter(), time.process_time()
        findings = lint_bytes(data, name, base=base)
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - w)
    return statistics.median(walls), statistics.median(cpus), findings


def run_measured(argv: list[str]) -> tuple[float, float, int, str]:
    """Run ``argv`` as a child process: (CPU s = user + system of it and the children it
    waited for, peak RSS in MB of the largest, wall s, its stdout)."""
    wall = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=null, cwd=ROOT)
        out = proc.stdout.read() if proc.stdout else b""
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0  # reaped by wait4
    wall = time.perf_counter() - wall
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall, out.decode(
        "utf-8", "replace")


def describe_module(path: Path) -> dict[str, int]:
    """Size, predefined setups (``PredefinedSetup`` elements naming a file), saves and logs
    stored, their AddPiece commands and distinct piece types (the type token of each)."""
    out = {"bytes": path.stat().st_size, "setups": 0, "saves": 0, "commands": 0, "types": 0}
    types: set[bytes] = set()
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        build = next((n for n in ("buildFile.xml", "buildFile") if n in names), None)
        if build:
            text = z.read(build).decode("utf-8", "replace")
            out["setups"] = len(re.findall(r'<VASSAL\.build\.module\.PredefinedSetup[^>]*'
                                           r'useFile="true"', text))
        for name in sorted(names):
            if not name.lower().endswith((".vsav", ".vlog")):
                continue
            out["saves"] += 1
            try:
                with zipfile.ZipFile(io.BytesIO(z.read(name))) as inner:
                    plain = deobfuscate_bytes(inner.read("savedGame"))
            except (zipfile.BadZipFile, KeyError, ValueError):
                continue
            for cmd in plain.split(b"\x1b"):
                if cmd.startswith(b"+/"):
                    out["commands"] += 1
                    types.add(cmd[cmd.find(b"/", 2) + 1:cmd.rfind(b"/")])
    out["types"] = len(types)
    return out


def vassal_load(path: Path) -> tuple[float | None, float, float, str]:
    """VASSAL 3.7.26 opening ``path`` (``vassal-check``): (seconds until loaded as it reports
    them or None, CPU s of the whole check, wall s, its verdict line)."""
    check = os.environ.get("VASSAL_CHECK", "/work/shared/vassal/vassal-check")
    cpu, _, wall, out = run_measured([check, "--timeout", "600", str(path)])
    loaded = re.search(r"loaded after (\d+)s", out)
    verdict = re.search(r"result:\s+(.*)", out)
    return (float(loaded.group(1)) if loaded else None, cpu, wall,
            verdict.group(1) if verdict else out.strip()[-200:])


def bench_module(path: Path, repeat: int, vassal: bool) -> int:
    """The ``--module`` mode: see the module docstring."""
    gunbai = str(ROOT / ".venv/bin/gunbai")
    print(f"uptime before: {os.getloadavg()}", file=sys.stderr)
    rows = []
    for command in ("lint", "inspect"):
        runs = []
        for _ in range(repeat):
            print(f"gunbai {command} {path}…", file=sys.stderr, flush=True)
            runs.append(run_measured([gunbai, command, str(path)]))
        cpu = statistics.median(r[0] for r in runs)
        rows.append((f"gunbai {command}", cpu, max(r[1] for r in runs),
                     statistics.median(r[2] for r in runs),
                     f"{len(runs[-1][3].splitlines())} lines out"))
    if vassal:
        print(f"vassal-check {path}…", file=sys.stderr, flush=True)
        loaded, cpu, wall, verdict = vassal_load(path)
        rows.append(("VASSAL 3.7.26 opens it", cpu, None, wall,
                     f"loaded after {loaded:.0f} s; {verdict}" if loaded is not None
                     else verdict))
    print(f"uptime after: {os.getloadavg()}", file=sys.stderr)
    info = describe_module(path)
    print(f"module {path.name}: {info['bytes'] / 1e6:.0f} MB, {info['setups']} predefined "
          f"setups, {info['saves']} saves/logs stored, {info['commands']} AddPiece commands, "
          f"{info['types']} distinct piece types; load average {os.getloadavg()[0]:.1f}")
    print(f"{'run':24} {'CPU s':>7} {'peak MB':>8} {'wall s':>7}  notes")
    for name, cpu, rss, wall, note in rows:
        peak = f"{rss:8.0f}" if rss is not None else f"{'—':>8}"
        print(f"{name:24} {cpu:7.2f} {peak} {wall:7.1f}  {note}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--module", type=Path, help="a large .vmod: lint and inspect beside VASSAL")
    ap.add_argument("--no-vassal", action="store_true", help="with --module: skip VASSAL")
    ap.add_argument("fixtures", nargs="*")
    args = ap.parse_args()
    if args.module is not None:
        return bench_module(args.module, args.repeat or 1, not args.no_vassal)
    args.repeat = args.repeat or 3
    names = args.fixtures or fixture_names()
    rows = []
    for name in names:
        print(f"{name}…", file=sys.stderr, flush=True)
        data = fixture_archive(name)
        base_name = fixture_base(name)
        base = fixture_archive(base_name) if base_name else None
        wall, cpu, findings = bench(data, name, base, args.repeat)
        rows.append((name, len(data), wall, cpu, findings))
    own = ROOT / "build/genpei/samurai_battles.vmod"
    if own.exists() and not args.fixtures:
        wall, cpu, findings = bench(own.read_bytes(), "samurai_battles.vmod", None, args.repeat)
        rows.append(("build/genpei/samurai_battles.vmod", own.stat().st_size, wall, cpu, findings))
    print(f"{'module':28} {'KiB':>6} {'wall ms':>8} {'cpu ms':>7} {'errors':>6} {'warnings':>8} "
          f"{'notes':>6}")
    for name, size, wall, cpu, findings in rows:
        counts = [sum(f.severity == s for f in findings) for s in ("error", "warning", "note")]
        print(f"{name:28} {size // 1024:6d} {wall * 1000:8.0f} {cpu * 1000:7.0f} "
              f"{counts[0]:6d} {counts[1]:8d} {counts[2]:6d}")
    largest = max((r for r in rows if r[0] in names), key=lambda r: r[1])
    print(f"largest corpus module: {largest[0]} ({largest[1] // 1024} KiB), "
          f"{largest[3] * 1000:.0f} ms CPU (target < 1000 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
