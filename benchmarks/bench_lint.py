"""Time ``gunbai lint`` on our module and on the largest third-party fixture.

Run after ``.venv/bin/gunbai build``::

    .venv/bin/python benchmarks/bench_lint.py [--repeat N]

Prints the best and median wall time of N runs (default 5) for ``build/genpei/genpei.vmod``,
``build/genpei/genpei.vmdx`` and the largest ``tests/fixtures/vassal/third_party/*/buildFile.xml``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.vassal.lint import lint  # noqa: E402


def bench(path: Path, repeat: int) -> tuple[float, float, int, int]:
    times, findings = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        findings = lint(path)
        times.append(time.perf_counter() - t)
    errors = sum(f.severity == "error" for f in findings)
    return min(times), statistics.median(times), len(findings), errors


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    fixtures = sorted((ROOT / "tests/fixtures/vassal/third_party").glob("*/buildFile.xml"),
                      key=lambda p: p.stat().st_size)
    targets = [ROOT / "build/genpei/genpei.vmod", ROOT / "build/genpei/genpei.vmdx"]
    targets += fixtures[-1:]
    for path in targets:
        if not path.exists():
            print(f"{path.relative_to(ROOT)}: missing (run .venv/bin/gunbai build first)")
            continue
        best, median, n, errors = bench(path, args.repeat)
        size = path.stat().st_size / 1024
        print(f"{path.relative_to(ROOT)} ({size:.0f} KiB): best {best * 1000:.0f} ms, "
              f"median {median * 1000:.0f} ms over {args.repeat} runs; "
              f"{n} findings, {errors} errors")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
