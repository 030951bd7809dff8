"""Measured-table geometry, before and after: the same calls timed on this checkout's
``pipeline/measured/geometry.py`` and on the one of a git revision.

    .venv/bin/python benchmarks/bench_geometry.py [--rev 6a0662b] [--pairs 20000]

The workload is what the OHW and Sekigahara engines ask of the geometry: pairs of bases on a
36" table (OHW's 4" x 2" and 4" x 3" bases, Sekigahara's lines of 1.5" stands), a third of them
within 6" of each other. Per operation it prints microseconds per call, old and new, and the
ratio; then "contacts", the engines' pattern of asking who touches whom at every decision (each
pair asked 8 times while nobody moves), answered by a fresh :class:`DistanceCache` per game in
the new code. The revision defaults to main before the issue-13 geometry work (6a0662b).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _old_module(rev: str):
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:pipeline/measured/geometry.py"], check=True, capture_output=True, text=True).stdout
    tmp = Path(tempfile.mkdtemp()) / "geometry_old.py"
    tmp.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("geometry_old", tmp)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["geometry_old"] = mod
    spec.loader.exec_module(mod)
    return mod


def _workload(n: int, seed: int = 13) -> list[tuple]:
    rng = random.Random(seed)
    sizes = [(4, 2), (4, 3), (3, 1), (4.5, 1), (6, 1)]
    out = []
    for k in range(n):
        w1, d1 = rng.choice(sizes)
        w2, d2 = rng.choice(sizes)
        x, y = rng.uniform(3, 33), rng.uniform(3, 33)
        if k % 3 == 0:
            x2, y2 = x + rng.uniform(-6, 6), y + rng.uniform(-6, 6)
        else:
            x2, y2 = rng.uniform(3, 33), rng.uniform(3, 33)
        f1, f2 = rng.choice([0, 90, 180, 270, rng.uniform(0, 360)]), rng.choice([0, 90, 180, 270, rng.uniform(0, 360)])
        move = (rng.uniform(0, 9), rng.uniform(0, 360))
        out.append(((x, y, f1, w1, d1), (x2, y2, f2, w2, d2), move))
    return out


def _time(fn, reps: int = 3) -> float:
    best = float("inf")
    for _ in range(reps):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="6a0662b", help="git revision of the 'before' geometry")
    ap.add_argument("--pairs", type=int, default=20000)
    args = ap.parse_args()
    from pipeline.measured import geometry as new

    old = _old_module(args.rev)
    work = _workload(args.pairs)
    rows = []
    for name, mod in (("old", old), ("new", new)):
        bases = [(mod.Base(*a), mod.Base(*b), mod.Base(*a).moved(*m)) for a, b, m in work]
        if name == "old":
            sweep = lambda s, e, o, mod=mod: mod.polygons_overlap(mod.swept(s, e), o.corners())  # noqa: E731
        else:
            sweep = mod.swept_overlaps
        ops = {
            "distance_to": lambda bases=bases: [a.distance_to(b) for a, b, _ in bases],
            "within 12\"": lambda bases=bases: [a.within(b, 12) for a, b, _ in bases],
            "touches": lambda bases=bases: [a.touches(b) for a, b, _ in bases],
            "overlaps": lambda bases=bases: [a.overlaps(b) for a, b, _ in bases],
            "sees 45°": lambda bases=bases: [a.sees(b, 45) for a, b, _ in bases],
            "path crosses": lambda bases=bases, sweep=sweep: [sweep(a, e, b) for a, b, e in bases],
        }
        if name == "old":
            ops["contacts"] = lambda bases=bases: [a.touches(b) for _ in range(8) for a, b, _ in bases]
        else:
            def contacts(bases=bases, mod=mod):
                cache = mod.DistanceCache()
                return [cache.touches(a, b) for _ in range(8) for a, b, _ in bases]

            ops["contacts"] = contacts
        rows.append({k: _time(f) for k, f in ops.items()})
    calls = {"contacts": 8 * len(work)}
    print(f"{len(work)} pairs of bases; microseconds per call (best of 3, CPU), before = {args.rev}, after = this checkout")
    total_old = total_new = 0.0
    for k in rows[0]:
        n = calls.get(k, len(work))
        o, w = rows[0][k] / n * 1e6, rows[1][k] / n * 1e6
        total_old += rows[0][k]
        total_new += rows[1][k]
        print(f"  {k:14s} before {o:8.2f}  after {w:8.2f}  {o / w:6.1f}x faster")
    print(f"  {'all of these':14s} before {total_old:8.2f} s  after {total_new:8.2f} s  {total_old / total_new:6.1f}x faster")


if __name__ == "__main__":
    main()
