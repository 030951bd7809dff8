"""The cost of ``gunbai verify --play``: every playable scenario of all four systems from an empty
verdict cache, then the same command answered from the cache.

    .venv/bin/python benchmarks/bench_verdicts.py [--budget N] [--precision P] [--workers N] [--system S] [--hits K]

Runs ``gunbai verify --play N`` (default budget 2000 games, precision ±5 points, 2 workers) into
a fresh output folder and prints its wall and CPU seconds (every process), then one line per
scenario from the stored verdicts: the policy, the games played, why it stopped (the precision
asked or the budget), the precision reached (half-width of the first side's 95% interval),
Balance and the CPU seconds its games took (on whichever process played them); then runs the same command ``K`` times more (default 3) and prints the fastest and
slowest cache hit (wall and CPU). The load average before and after is printed: on the shared
2-core development machine wall times are mostly other jobs'.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.play.verdict import Verdict  # noqa: E402


def _run(args: list[str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall and CPU seconds (the command and every process it started) of one gunbai run."""
    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    run = subprocess.run([str(ROOT / ".venv" / "bin" / "gunbai"), *args], capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - w0
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, kids1.ru_utime + kids1.ru_stime - kids0.ru_utime - kids0.ru_stime, run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=int, default=2000, help="games a verdict may play (--play N)")
    ap.add_argument("--precision", type=float, default=0.05)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--system", default=None)
    ap.add_argument("--hits", type=int, default=3, help="cache-hit runs timed after the cold one")
    ap.add_argument("--data", default=str(ROOT / "source_data"))
    a = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="bench_verdicts_") as tmp:
        args = ["verify", "--data", a.data, "--out", tmp, "--play", str(a.budget), "--precision", str(a.precision), "--workers", str(a.workers)]
        if a.system:
            args += ["--system", a.system]
        wall, cpu, run = _run(args)
        if run.returncode not in (0, 1):
            sys.exit(run.stderr)
        print(f"cold (empty cache): wall {wall:.1f} s, cpu {cpu:.1f} s (all processes), exit {run.returncode}; "
              f"{args[0]} {' '.join(args[5:])}")
        total = 0
        for entry_file in sorted(Path(tmp, ".verdicts").glob("*/*.json")):
            entry = json.loads(entry_file.read_text(encoding="utf-8"))
            if entry.get("kind") != "verdict":
                continue
            v = entry["verdict"]
            total += v["games"]
            vv = Verdict.from_json(v)
            print(f"  {vv.label[:58]:58s} {vv.policy:8s} {vv.games:5d} games  stopped: {vv.stop:9s}  "
                  f"reached ±{vv.reached * 100:4.1f} points  Balance {vv.balance:.2f}  cpu {vv.cpu:6.1f} s")
        print(f"  {total} games in all")
        hits = []
        for _ in range(a.hits):
            w, c, r = _run(args)
            if " played (" in r.stdout:
                sys.exit("expected a cache hit:\n" + r.stdout[-2000:])
            hits.append((w, c))
        if hits:
            print(f"cache hit ({a.hits} runs): wall {min(h[0] for h in hits):.2f}-{max(h[0] for h in hits):.2f} s, "
                  f"cpu {min(h[1] for h in hits):.2f}-{max(h[1] for h in hits):.2f} s")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
