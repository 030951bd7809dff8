"""Games per second of the Genpei rules engine, per scenario and policy.

    .venv/bin/python benchmarks/bench_engine.py [GAMES] [--turn-cap N]

Prints one line per scenario and policy: games, wall and CPU seconds, games per second (CPU),
mean game length in player turns. Single process; same seed as ``gunbai verify --play``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pipeline.play import run_playability
from pipeline.systems.genpei.engine.playability import thresholds_for
from pipeline.systems.genpei.engine.policies import POLICIES
from pipeline.systems.genpei.engine.state import GenpeiState
from pipeline.systems.genpei.load import load

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=200)
    ap.add_argument("--turn-cap", type=int, default=None, help="override each scenario's turn cap")
    ap.add_argument("--data", type=Path, default=ROOT / "source_data" / "genpei")
    args = ap.parse_args()
    data = load(args.data)
    for loaded in data.scenarios:
        sc = loaded.scenario
        for name, policy in POLICIES.items():
            cap = args.turn_cap or thresholds_for(sc, name).turn_cap
            w0, c0 = time.perf_counter(), time.process_time()
            rep = run_playability(lambda sc=sc: GenpeiState(data, sc), policy, games=args.games, seed=1, turn_cap=cap)
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            print(f"{sc.code} {name:7s} {rep.games} games  wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
                  f"{rep.games / cpu:7.1f} games/s  mean {rep.mean_turns:5.1f} turns  cut off {rep.cut_off_share:.0%}")


if __name__ == "__main__":
    main()
