"""Benchmark of regenerating counters after a data change: `gunbai counters`, `cards`, `sheets`.

Usage: .venv/bin/python benchmarks/bench_counters.py [--data source_data] [--rounds 3] [--sheets] [--build]

Copies the data to a temporary folder and runs, each as the real command in a new process
(``python -m pipeline``, every system unless said), into a new output folder:

1. cold: ``gunbai counters`` of the four systems (empty render cache: every counter drawn);
2. no-op: ``gunbai counters`` again, nothing changed: answered from the job's stamps before
   anything heavy is imported (issue 32, item 19: under 0.5 s);
3. one unit's Japanese name changed (the first ``name_ja`` of Genpei's ``units.yaml``, a suffix
   added and removed in turn, ``--rounds`` times each way): Genpei's counters of that unit are
   drawn again, the other systems skipped by their stamps (target: under 1.5 s wall on the
   2-core machine);
4. the same for ``gunbai cards`` (cold once, then no-op and the changed unit's card), and with
   ``--sheets`` for ``gunbai sheets`` (the print PDFs, about 12 s of CPU cold);
5. ``--build``: a cold ``gunbai build`` first, so the first no-op of each job is answered from
   the build's stamp.

For each run it prints the wall time, the CPU time (user + system of the command and every
process it started), the files of the output folder it changed (by modification time), the
systems it skipped, and the load average before and after. Python writes its bytecode as a
user's installation does (``PYTHONDONTWRITEBYTECODE`` is dropped from the environment; one
warm-up run compiles gunbai's modules first).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_build  # noqa: E402

ROOT = bench_build.ROOT
GUNBAI = bench_build.GUNBAI


def mtimes(folder: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file() and ".cache" not in p.parts and not p.name.startswith(".")}


def run(label: str, cmd: list[str], env: dict[str, str], out: Path) -> dict:
    """:func:`bench_build.run` of ``cmd``, with the files of ``out`` it changed (by modification
    time) and the systems it skipped."""
    before = mtimes(out) if out.is_dir() else {}
    r = bench_build.run(label, cmd, env)
    after = mtimes(out)
    r["changed"] = sum(1 for p, t in after.items() if before.get(p) != t) + sum(1 for p in before if p not in after)
    r["skipped"] = len(re.findall(r"unchanged since the last (?:run|build)", r["out"]))
    return r


def toggle_name_ja(units: Path, original: str, suffix: str = "隊") -> str:
    """Write units.yaml as ``original`` with ``suffix`` added to the first unit's ``name_ja``,
    or back as ``original`` when it is so now; returns the unit's id."""
    if units.read_text(encoding="utf-8") != original:
        units.write_text(original, encoding="utf-8")
    else:
        changed, n = re.subn(r"(\n    name_ja: \"?)([^\"\n]+)", lambda m: m.group(1) + m.group(2) + suffix, original, count=1)
        if n != 1:
            sys.exit(f"no name_ja found in {units}")
        units.write_text(changed, encoding="utf-8")
    return re.search(r"\n  - id: (\w+)", original).group(1)  # type: ignore[union-attr]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT / "source_data")
    ap.add_argument("--rounds", type=int, default=3, help="changed-unit runs each way per job")
    ap.add_argument("--sheets", action="store_true", help="also gunbai sheets (the print PDFs)")
    ap.add_argument("--build", action="store_true", help="a cold gunbai build first (the no-ops then answer from its stamps)")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([*GUNBAI, "--help"], cwd=ROOT, env=env, capture_output=True, check=True)  # compiles gunbai's modules
    rows: list[dict] = []
    jobs = ["counters", "cards"] + (["sheets"] if args.sheets else [])
    with tempfile.TemporaryDirectory(prefix="gunbai-bench-") as tmp:
        data = Path(tmp) / "source_data"
        shutil.copytree(args.data, data)
        out = Path(tmp) / "build"
        base = ["--data", str(data), "--out", str(out)]
        if args.build:
            rows.append(run("cold gunbai build", [*GUNBAI, "build", *base, "-q"], env, out))
        units = data / "genpei" / "units.yaml"
        original = units.read_text(encoding="utf-8")
        for job in jobs:
            if not args.build:
                rows.append(run(f"cold {job}", [*GUNBAI, job, *base, "-q"], env, out))
            rows.append(run(f"no-op {job}", [*GUNBAI, job, *base, "-q"], env, out))
            for _ in range(args.rounds * 2):
                unit = toggle_name_ja(units, original)
                rows.append(run(f"{job}: {unit} name_ja", [*GUNBAI, job, *base, "-q"], env, out))
            rows.append(run(f"no-op {job}", [*GUNBAI, job, *base, "-q"], env, out))
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} usable cores; Python {sys.version.split()[0]}; load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'run':<40} {'wall s':>7} {'CPU s':>7} {'changed':>8} {'skipped':>8}  load before/after")
    for r in rows:
        print(f"{r['run']:<40} {r['wall']:7.2f} {r['cpu']:7.2f} {r['changed']:8d} {r['skipped']:8d}  {r['load'][0]:.2f} / {r['load'][1]:.2f}")
    by: dict[str, list[dict]] = {}
    for r in rows:
        by.setdefault(re.sub(r": \w+ name_ja", ": one name_ja", r["run"]), []).append(r)
    print("\nmedians (range)")
    for label, rs in by.items():
        if len(rs) > 1:
            w, c = [r["wall"] for r in rs], [r["cpu"] for r in rs]
            print(f"{label:<40} wall {statistics.median(w):.2f} ({min(w):.2f}-{max(w):.2f}) s, CPU {statistics.median(c):.2f} ({min(c):.2f}-{max(c):.2f}) s, n={len(rs)}")


if __name__ == "__main__":
    main()
