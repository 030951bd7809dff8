"""Benchmark of `make build`: cold Genpei, cold everything, no-op, one changed unit.

Usage: .venv/bin/python benchmarks/bench_build.py [--data source_data] [--jobs N]

Copies the data to a temporary folder and runs, each as the real command in a new process:

1. cold Genpei: ``gunbai build --system genpei`` into an empty output folder (empty render
   cache): verify, draw, module, extension, print sheets (target: at most 4 s wall on 2 cores);
2. cold all: ``gunbai build`` of the four systems, print sheets included, into an empty folder
   (target: at most 15 s wall on 2 cores);
3. no-op: ``make build`` again with nothing changed (target: under 1 s wall);
4. one unit's Japanese name changed in ``units.yaml`` (drawn on its counters and card): only the
   images showing it are drawn again;
5. one unit's English name changed (shown on its card and sheets, not on its counters): no
   counter is drawn again.

For each run it prints the wall time, the CPU time of the process and every process it
started (user + system), the images drawn and the files changed (from the build's own lines),
and the load average of the machine before and after, with the number of usable cores: on a
shared machine the wall time depends on the load, the CPU time much less.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUNBAI = [sys.executable, "-m", "pipeline"]


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(label: str, cmd: list[str], env: dict[str, str]) -> dict:
    load0 = os.getloadavg()[0]
    c0, w0 = cpu_children(), time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - w0, cpu_children() - c0
    load1 = os.getloadavg()[0]
    if proc.returncode != 0:
        sys.exit(f"{label}: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    drawn = sum(int(m) for m in re.findall(r"(\d+) images drawn", proc.stdout))
    changed = sum(int(m) for m in re.findall(r"(\d+) changed", proc.stdout))
    skipped = proc.stdout.count("unchanged since the last build")
    return {"run": label, "wall": wall, "cpu": cpu, "drawn": drawn, "changed": changed, "skipped": skipped, "load": (load0, load1), "out": proc.stdout}


def edit_unit(units: Path, field: str, suffix: str) -> str:
    """Append ``suffix`` to the first ``field:`` value of units.yaml; returns the unit's id."""
    text = units.read_text(encoding="utf-8")
    changed, n = re.subn(rf"(\n    {field}: )([^\n]+)", lambda m: m.group(1) + m.group(2) + suffix, text, count=1)
    if n != 1:
        sys.exit(f"no {field} found in {units}")
    units.write_text(changed, encoding="utf-8")
    return re.search(r"\n  - id: (\w+)", text).group(1)  # type: ignore[union-attr]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT / "source_data")
    ap.add_argument("--jobs", type=int, default=None, help="drawing processes (default: every usable core)")
    args = ap.parse_args()
    env = dict(os.environ)
    if args.jobs:
        env["GUNBAI_JOBS"] = str(args.jobs)
    rows = []
    with tempfile.TemporaryDirectory(prefix="gunbai-bench-") as tmp:
        data = Path(tmp) / "source_data"
        shutil.copytree(args.data, data)
        rows.append(run("cold genpei", [*GUNBAI, "build", "--data", str(data), "--out", f"{tmp}/genpei_only", "--system", "genpei", "-q"], env))
        out = f"{tmp}/all"
        rows.append(run("cold all", [*GUNBAI, "build", "--data", str(data), "--out", out, "-q"], env))
        make = shutil.which("make")
        noop = [make, "-s", "build", f"DATA={data}", f"OUT={out}"] if make else [*GUNBAI, "build", "--data", str(data), "--out", out]
        rows.append(run("no-op make build" if make else "no-op build", noop, env))
        rows.append(run("no-op gunbai build", [*GUNBAI, "build", "--data", str(data), "--out", out], env))
        unit = edit_unit(data / "genpei" / "units.yaml", "name_ja", "隊")
        rows.append(run(f"{unit} name_ja changed", [*GUNBAI, "build", "--data", str(data), "--out", out, "-q"], env))
        edit_unit(data / "genpei" / "units.yaml", "name", " Changed")
        rows.append(run(f"{unit} name changed", [*GUNBAI, "build", "--data", str(data), "--out", out, "-q"], env))
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} usable cores; drawing processes: {env.get('GUNBAI_JOBS', cores)}; Python {sys.version.split()[0]}")
    print(f"{'run':<28} {'wall s':>7} {'CPU s':>7} {'drawn':>6} {'changed':>8} {'skipped':>8}  load before/after")
    for r in rows:
        print(f"{r['run']:<28} {r['wall']:7.2f} {r['cpu']:7.2f} {r['drawn']:6d} {r['changed']:8d} {r['skipped']:8d}  {r['load'][0]:.2f} / {r['load'][1]:.2f}")


if __name__ == "__main__":
    main()
