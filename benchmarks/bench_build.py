"""Benchmark of the main job: wall time per step and peak memory of `gunbai build`.

Usage: .venv/bin/python benchmarks/bench_build.py [--runs N] [--data source_data]

Builds into a temporary folder N times (default 3) and prints, per run, the seconds of each step
(load, verify, render, pack, write, lint), the total, and the process's peak resident memory.
Timing is kept out of the test suite on purpose; this script is where speed is measured.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.build import build_all  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--data", type=Path, default=Path("source_data"))
    args = ap.parse_args()
    for run in range(1, args.runs + 1):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            results = build_all(args.data, Path(tmp), progress=False)
            total = time.perf_counter() - t0
            for r in results:
                steps = "  ".join(f"{k} {v:.3f}s" for k, v in r.seconds.items())
                print(f"run {run} {r.system}: {steps}  | total {total:.3f}s | {r.module_entries} entries, {r.module_bytes / 1024:.0f} KiB")
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak resident memory: {peak_kib / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
