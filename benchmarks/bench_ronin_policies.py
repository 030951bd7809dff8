"""Ronin's policy ladder, head to head (issue 25): on every shipped game, each policy plays each
side against random play, and the stronger policy of a pair against the weaker on each side.

A policy is stronger on a side when it wins there at least 10 points more often than the weaker
one does against the same opponent, the 95% interval of the difference (Newcombe's hybrid
Wilson interval) excluding zero. Every game ``i`` of a match-up is seeded ``"{seed}:{i}"``
(:func:`pipeline.play.run_playability`), so a run repeats exactly.

Usage::

    .venv/bin/python benchmarks/bench_ronin_policies.py [--games 200] [--seed 1] [--workers 2]
        [--game skirmish ...] [--pair random,greedy] [--pair one_ply,greedy]

Prints, per game and side, the win rates with their intervals and the verdict, and the CPU
seconds a game takes under each policy pair.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.play import run_playability, wilson  # noqa: E402
from pipeline.systems.ronin.engine import RoninGame, turn_cap  # noqa: E402
from pipeline.systems.ronin.load import load  # noqa: E402
from pipeline.systems.ronin.policies import POLICIES  # noqa: E402


def newcombe(w1: int, n1: int, w2: int, n2: int) -> tuple[float, float, float]:
    """The difference of two win rates ``w1/n1 - w2/n2`` with its 95% interval (Newcombe 1998,
    method 10: from the two Wilson intervals). Newcombe's own example, 56/70 against 48/80:

    >>> d, lo, hi = newcombe(56, 70, 48, 80); round(d, 2), round(lo, 4), round(hi, 4)
    (0.2, 0.0524, 0.3339)
    """
    p1, p2 = w1 / n1, w2 / n2
    l1, u1 = wilson(w1, n1)
    l2, u2 = wilson(w2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class _Matches:
    """The match-ups of one game, each played once and remembered."""

    def __init__(self, game: RoninGame, label: str, games: int, seed: int, workers: int):
        self.g, self.label, self.games, self.seed, self.workers = game, label, games, seed, workers
        self.names = [f"{s.role} ({s.name})" for s in game.sides]
        self.cap = turn_cap(game)
        self.done: dict[tuple[str, str], list[int]] = {}

    def wins(self, p0: str, p1: str) -> list[int]:
        """Wins of side 0 and side 1 and games cut off, ``p0`` playing side 0 and ``p1`` side 1."""
        if (p0, p1) not in self.done:
            t = _cpu()
            rep = run_playability(self.g.new_state, [POLICIES[p0], POLICIES[p1]], games=self.games, seed=self.seed, turn_cap=self.cap,
                                  side_names=self.names, workers=self.workers)
            got = self.done[(p0, p1)] = [s.wins for s in rep.sides] + [rep.cut_off]
            cpu = (_cpu() - t) / self.games
            print(f"  {self.label}: {p0} v {p1}: {self.names[0]} {got[0]}, {self.names[1]} {got[1]}, cut off {got[2]}; {cpu:.3f} CPU s a game", flush=True)
        return self.done[(p0, p1)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--game", action="append", default=[])
    ap.add_argument("--pair", action="append", default=[], help="weaker,stronger policy names (default random,greedy)")
    args = ap.parse_args(argv)
    pairs = [tuple(p.split(",")) for p in (args.pair or ["random,greedy"])]
    data = load(ROOT / "source_data" / "ronin")
    print(f"load average {os.getloadavg()[0]:.1f}; {args.games} games a match-up, seed {args.seed}")
    n = args.games
    for lg in data.games:
        if args.game and lg.value.id not in args.game:
            continue
        m = _Matches(RoninGame.from_game(data, lg.value), lg.value.id, n, args.seed, args.workers)
        print(f"{lg.value.id}:")
        for weak, strong in pairs:
            for side in (0, 1):
                # on this side, the strong policy and the weak one, each against the weak one
                ws = m.wins(*((strong, weak) if side == 0 else (weak, strong)))
                ww = m.wins(weak, weak)
                d, lo, hi = newcombe(ws[side], n, ww[side], n)
                ls, hs = wilson(ws[side], n)
                lw, hw = wilson(ww[side], n)
                verdict = "stronger" if d >= 0.10 and lo > 0 else ("better (under 10 points)" if lo > 0 else "not shown better")
                print(f"  {m.names[side]} against {weak}: {strong} {ws[side] / n:.1%} ({ls:.1%}-{hs:.1%}), {weak} {ww[side] / n:.1%} ({lw:.1%}-{hw:.1%}); "
                      f"difference {d:+.1%} ({lo:+.1%} to {hi:+.1%}): {strong} {verdict}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}; {time.process_time():.0f} CPU s in this process")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
