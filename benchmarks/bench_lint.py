"""Lint time per corpus module (``tests/fixtures/vassal/corpus/``), and of gunbai's own module.

    .venv/bin/python benchmarks/bench_lint.py [--repeat N] [FIXTURE ...]

Each corpus fixture is turned back into its archive once (stand-in images, see
``tests/vassal/corpus.py``), then ``lint_bytes`` is timed N times (default 3), each time with
lint's caches emptied first (as in a fresh ``gunbai lint``): median wall time, median CPU time
(``process_time``, what matters on a shared machine), archive size and findings.
The target (issue 11): the largest corpus module under 1 s. ``build/genpei/samurai_battles.vmod`` is timed
too when ``gunbai build`` has written it. Progress goes to stderr, one line per module.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.vassal.lint import lint_bytes  # noqa: E402
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("fixtures", nargs="*")
    args = ap.parse_args()
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
