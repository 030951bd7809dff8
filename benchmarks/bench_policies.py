"""Head-to-head play of the OHW and Sekigahara policies (issue 25): does greedy beat random?

    .venv/bin/python benchmarks/bench_policies.py [GAMES] [--system ohw|sekigahara] [--pair A:B]... [--workers N]

For every scenario and every pair ``A:B`` (default ``greedy:random`` and ``random:random``;
policies: ``random``, ``greedy``, and ``greedy_nearest``/``random_nearest``, the same policies
restricted to the action set before issue 25, where a unit could only advance on the nearest
enemy), plays GAMES seeded games with A on side 0 and B on side 1, then GAMES with them swapped
(once only when A is B),
and prints A's win rate on each side with its 95% Wilson interval, B's, the draws, the mean
length and the CPU seconds. The seed and turn cap are those of ``gunbai verify --play``
(seed 25 here; games ``random.Random(f"{seed}:{i}")``), so a line is the same on any machine and
any number of workers. It also prints the CPU cost of ``clone()`` and ``information_key()``
(microseconds, mid-game states) and of one greedy decision.

The README's figures ("Policies") come from this script; timing stays out of the test suite.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.play import random_policy, run_playability, sample_chance  # noqa: E402
from pipeline.play.greedy import OnePly  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _nearest_only(state, acts: list) -> list:
    """The actions of the engine before issue 25: a unit advances only on the nearest enemy."""
    if hasattr(state, "steps"):  # Sekigahara
        kind, _player, payload = state.steps[0]
        if kind != "move":
            return acts
        near = state._nearest(state.units[payload])
        return [a for a in acts if a[0] != "advance" or (near is not None and a[1] == near.id)]
    if state.phase != "movement" or state.roll is not None:
        return acts
    near = state._nearest_enemy(state.units[state.queue[0]])
    return [a for a in acts if not (a[0] == "advance" and a[1] == "enemy") or (near is not None and a[2] == near.id)]


class _NearestView:
    """A state seen through :func:`_nearest_only`: what :class:`OnePly` asks of it (the legal
    actions, the player, a clone to try an action on)."""

    def __init__(self, state):
        self._state = state

    def legal_actions(self) -> list:
        return _nearest_only(self._state, list(self._state.legal_actions()))

    def current_player(self) -> int:
        return self._state.current_player()

    def clone(self):
        return self._state.clone()


@dataclass(frozen=True)
class NearestOnly(OnePly):
    """:class:`OnePly` choosing only among the :func:`_nearest_only` actions."""

    def __call__(self, state, rng):
        return super().__call__(_NearestView(state), rng)


def random_nearest(state, rng):
    acts = _nearest_only(state, list(state.legal_actions()))
    return acts[rng.randrange(len(acts))]


def _policies(system: str) -> dict[str, Callable]:
    import importlib

    pol = importlib.import_module(f"pipeline.systems.{system}.policies")
    return {"random": random_policy, "greedy": pol.greedy, "greedy_nearest": NearestOnly(pol.evaluate), "random_nearest": random_nearest}


def _scenarios(system: str) -> Iterator[tuple[str, Callable, int]]:
    if system == "ohw":
        from pipeline.systems.ohw.build import _new_state
        from pipeline.systems.ohw.load import load

        data = load(ROOT / "source_data" / "ohw")
        for loaded in data.scenarios:
            yield loaded.model.code, partial(_new_state, data, loaded.model), 2 * loaded.model.turns + 1
    else:
        from pipeline.systems.sekigahara.build import _new_state
        from pipeline.systems.sekigahara.load import load

        data = load(ROOT / "source_data" / "sekigahara")
        for loaded in data.scenarios:
            yield loaded.model.code, partial(_new_state, data, loaded.model), loaded.model.turns + 1


def _costs(system: str, factory: Callable, greedy) -> str:
    """CPU microseconds of clone() and information_key() on a mid-game state, and of a greedy
    decision (milliseconds, over the decisions of one random game)."""
    rng = random.Random(1)
    st = factory()
    states = []
    while not st.is_terminal() and len(states) < 400:
        if st.is_chance_node():
            st.apply_action(sample_chance(st.chance_outcomes(), rng))
            continue
        states.append(st.clone())
        acts = st.legal_actions()
        st.apply_action(acts[rng.randrange(len(acts))])
    mid = states[len(states) // 2]
    n = 5000
    t = time.process_time()
    for _ in range(n):
        mid.clone()
    clone_us = (time.process_time() - t) / n * 1e6
    t = time.process_time()
    for _ in range(n):
        mid.information_key(0)
    key_us = (time.process_time() - t) / n * 1e6
    t = time.process_time()
    for s in states:
        greedy(s, rng)
    decide_ms = (time.process_time() - t) / len(states) * 1e3
    return f"clone {clone_us:.1f} us, information_key {key_us:.1f} us, greedy decision {decide_ms:.2f} ms (mean of {len(states)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=100)
    ap.add_argument("--system", choices=["ohw", "sekigahara"], action="append")
    ap.add_argument("--pair", action="append", help="A:B, policy A against policy B (repeatable)")
    ap.add_argument("--scenario", action="append", help="only these scenario codes")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--costs", action="store_true", help="also print the clone, key and decision costs")
    args = ap.parse_args()
    pairs = [p.split(":") for p in (args.pair or ["greedy:random", "random:random"])]
    for system in args.system or ["ohw", "sekigahara"]:
        pols = _policies(system)
        for code, factory, cap in _scenarios(system):
            if args.scenario and code not in args.scenario:
                continue
            if args.costs:
                print(f"{system} {code}: {_costs(system, factory, pols['greedy'])}", flush=True)
            for a, b in pairs:
                for side in ((0,) if a == b else (0, 1)):  # a policy against itself: one run gives both sides
                    pair = [pols[a], pols[b]] if side == 0 else [pols[b], pols[a]]
                    t = time.process_time()
                    rep = run_playability(factory, pair, games=args.games, seed=args.seed, turn_cap=cap, workers=args.workers)
                    mine, other = rep.sides[side], rep.sides[1 - side]
                    lo, hi = mine.interval
                    olo, ohi = other.interval
                    draws = rep.games - mine.wins - other.wins
                    print(f"{system} {code} {a} (side {side}) v {b}: {a} {mine.win_rate:.1%} ({lo:.1%}-{hi:.1%}), {b} {other.win_rate:.1%} "
                          f"({olo:.1%}-{ohi:.1%}), draws {draws}, {rep.games} games, {rep.mean_turns:.1f} player turns, "
                          f"cpu {time.process_time() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
