"""Games per second of the measured-table and skirmish engines (OHW, Sekigahara, Ronin).

    .venv/bin/python benchmarks/bench_games.py [GAMES] [--system ohw|sekigahara|ronin] [--profile]

Plays GAMES seeded random-policy games (default 100) of every scenario (Ronin: every game of
``games/``) in one process, with the seed and turn cap of ``gunbai verify --play``, and prints
one line per scenario: games, wall and CPU seconds, games per second (CPU), milliseconds per
game, mean length in player turns. ``--profile`` also prints the share of CPU time spent in
:mod:`pipeline.measured.geometry` (cProfile, which slows every call down alike).

Timing stays out of the test suite; this script is where engine speed is measured. The figures
before and after the geometry work of issue 13 are in the README ("Speed").
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.play import random_policy, run_playability  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _ohw(data_root: Path) -> Iterator[tuple[str, Callable, int]]:
    from pipeline.systems.ohw.engine import OhwState
    from pipeline.systems.ohw.load import load

    data = load(data_root / "ohw")
    for loaded in data.scenarios:
        sc = loaded.model
        yield f"ohw {sc.code}", (lambda sc=sc: OhwState(data, sc)), 2 * sc.turns + 1


def _sekigahara(data_root: Path) -> Iterator[tuple[str, Callable, int]]:
    from pipeline.systems.sekigahara.engine import SekiState
    from pipeline.systems.sekigahara.load import load

    data = load(data_root / "sekigahara")
    for loaded in data.scenarios:
        sc = loaded.model
        yield f"sekigahara {sc.code}", (lambda sc=sc: SekiState(data, sc)), sc.turns + 1


def _ronin(data_root: Path) -> Iterator[tuple[str, Callable, int]]:
    try:
        from pipeline.systems.ronin.engine import RoninGame, turn_cap
    except ImportError:  # before the Ronin engine existed
        return
    from pipeline.systems.ronin.load import load

    data = load(data_root / "ronin")
    for lg in data.games:
        g = lg.value
        game = RoninGame.from_game(data, g)
        yield f"ronin {g.id}", game.new_state, turn_cap(game)


SYSTEMS = {"ohw": _ohw, "sekigahara": _sekigahara, "ronin": _ronin}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=100)
    ap.add_argument("--system", choices=sorted(SYSTEMS), action="append", help="only these systems (repeatable)")
    ap.add_argument("--data", type=Path, default=ROOT / "source_data")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="also report the CPU share of measured/geometry.py")
    args = ap.parse_args()
    for system in args.system or list(SYSTEMS):
        total_games, total_cpu = 0, 0.0
        for label, factory, cap in SYSTEMS[system](args.data):
            prof = cProfile.Profile() if args.profile else None
            w0, c0 = time.perf_counter(), time.process_time()
            if prof:
                prof.enable()
            rep = run_playability(factory, random_policy, games=args.games, seed=args.seed, turn_cap=cap)
            if prof:
                prof.disable()
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            total_games += rep.games
            total_cpu += cpu
            line = (f"{label:32s} {rep.games} games  wall {wall:6.2f} s  cpu {cpu:6.2f} s  {rep.games / cpu:7.1f} games/s  "
                    f"{1000 * cpu / rep.games:6.1f} ms/game  mean {rep.mean_turns:5.1f} turns  cut off {rep.cut_off_share:.0%}")
            if prof:
                st = pstats.Stats(prof)
                geo = sum(v[2] for k, v in st.stats.items() if k[0].endswith("measured/geometry.py"))  # type: ignore[attr-defined]
                line += f"  geometry {geo / st.total_tt:.0%} of profiled time"  # type: ignore[attr-defined]
            print(line, flush=True)
        if total_games:
            print(f"{system:32s} total {total_games} games  cpu {total_cpu:6.2f} s  {total_games / total_cpu:7.1f} games/s", flush=True)


if __name__ == "__main__":
    main()
