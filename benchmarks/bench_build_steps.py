"""Where a cold build's CPU goes: the CPU and wall seconds of each step, in one process.

Usage: .venv/bin/python benchmarks/bench_build_steps.py [--data source_data] [--system genpei]

Runs ``build_all`` (what ``gunbai build`` runs, print PDFs included) into an empty temporary
folder (a cold render cache) with one drawing process (``GUNBAI_JOBS=1``: every step's CPU is
this process's, no worker to account for), timing these steps by wrapping their functions:

- each system's data load (with its text fit checks), module build (drawing the module images,
  the chart window scenario sheets and, for Genpei, the print images, packing and linting) and
  print step;
- inside them: Genpei's fit checks, the PDF font subsets, and
  every system's print files, scenario PDFs and counter PDFs.

CPU is user + system of this process and its reaped children; nested rows are part of the row
above them. Prints the machine's load average before and after: on a shared machine the wall
time follows the load, the CPU time much less.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ("genpei", "ronin", "ohw", "sekigahara")


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT / "source_data")
    ap.add_argument("--system", choices=SYSTEMS, default=None, help="one system (default: all four)")
    args = ap.parse_args()
    os.environ["GUNBAI_JOBS"] = "1"
    sys.path.insert(0, str(ROOT))
    times: dict[str, list[float]] = {}

    def timed(module, name: str, label: str) -> None:
        f = getattr(module, name)

        @functools.wraps(f)
        def wrapper(*a, **k):
            c, w = cpu(), time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                row = times.setdefault(label, [0.0, 0.0, 0])
                row[0] += cpu() - c
                row[1] += time.perf_counter() - w
                row[2] += 1

        setattr(module, name, wrapper)

    c0, w0, load0 = cpu(), time.perf_counter(), os.getloadavg()[0]
    from pipeline import build
    from pipeline.render import fonts, sheets

    systems = [args.system] if args.system else list(SYSTEMS)
    for name in systems:
        mod = importlib.import_module(f"pipeline.systems.{name}.build")
        timed(mod, "load", f"{name}: load (text fit checks included)")
        timed(mod, "build", f"{name}: module build (load, images, pack, lint)")
        timed(mod, "render", f"{name}: print step")
    if "genpei" in systems:
        timed(importlib.import_module("pipeline.systems.genpei.fit"), "problems", "  genpei: text fit checks")
    timed(fonts, "prepare_pdf_subsets", "  PDF font subsets (every system)")
    timed(sheets, "print_files", "  print files (every system)")
    timed(sheets, "vector_pdf", "    scenario and card PDFs (every system)")
    timed(sheets, "counters_pdf", "    counter PDFs (every system)")
    with tempfile.TemporaryDirectory(prefix="gunbai-steps-") as tmp:
        results = build.build_all(args.data, Path(tmp) / "out", progress=False, system=args.system, force=True)
    total_cpu, total_wall = cpu() - c0, time.perf_counter() - w0
    print(f"{'step':<48} {'CPU s':>7} {'wall s':>7} {'calls':>6}")
    for label, (c, w, n) in times.items():
        print(f"{label:<48} {c:7.2f} {w:7.2f} {n:6d}")
    drawn = sum(r.drawn for r in results)
    print(f"{'total (imports included)':<48} {total_cpu:7.2f} {total_wall:7.2f}  {drawn} images drawn")
    print(f"load average {load0:.2f} before, {os.getloadavg()[0]:.2f} after; Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
