"""ISMCTS on any system (default Genpei): strength against iterations, the parameter sweep behind
the defaults, and the cost per decision.

    .venv/bin/python benchmarks/bench_ismcts.py speed [--system ohw] [--iterations 25 50 100 …] [--depth 1 2] …
    .venv/bin/python benchmarks/bench_ismcts.py sweep --games 20 [--depth 1 2] [--exploration …] [--bias …]
    .venv/bin/python benchmarks/bench_ismcts.py curve --games 20 --iterations 25 50 100 200 400

``speed``: ISMCTS decisions per CPU second on the same decision states (every decision with
more than one legal action of 2 seeded greedy games per scenario, at most ``--states`` of them),
for each combination of ``--iterations``, ``--depth``, ``--exploration``, ``--bias``.

``sweep``: each combination head to head against greedy, each policy on each side, ``--games``
games per side, judged as the ladder judges a pair (:mod:`pipeline.play.ladder`: its win rate
on each side against greedy beside greedy's own against greedy, the difference with its 95%
Newcombe interval), and its **score**: the mean over the two sides of its win rate against
greedy (50% when as strong as greedy, whatever the sides' advantage).

``curve``: for each ``n`` of ``--iterations``, ISMCTS(n) against greedy and against ISMCTS(n/2)
(the other parameters as given, one value each), each on each side: the score with a 95% Wilson
interval over both sides' games. Strength flattens where the score against ISMCTS(n/2) comes
back to 50%.

Every run prints the CPU seconds (this process and its workers) and the load average; the
figures behind ISMCTS's defaults are in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.play import Job, run_many, sample_chance, wilson  # noqa: E402
from pipeline.play.ismcts import ISMCTS  # noqa: E402
from pipeline.play.ladder import ladder_from_reports, ladder_jobs  # noqa: E402
from pipeline.systems.base import Playable, get_system  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


#: The evaluations ``--evaluation`` chooses from: the one of the system's shipped ISMCTS.
EVALUATIONS = {"material": None}
#: The system's greedy policy and evaluation (set by main from ``--system``).
SYSTEM: dict = {}


def _policy(it: int, depth: int, c: float, bias: float, playout: str, ev: str) -> ISMCTS:
    return ISMCTS(SYSTEM["evaluate"], iterations=it, playout_depth=depth, exploration=c, prior_bias=bias,
                  playout=SYSTEM["greedy"] if playout == "greedy" else None)


def _name(p: ISMCTS) -> str:
    pl = "random" if p.playout is None else "greedy"
    return (f"ISMCTS(n={p.iterations}, depth={p.playout_depth}, c={p.exploration:g}, bias={p.prior_bias:g}, {pl} playouts, "
            f"{SYSTEM['name']} evaluation)")


def _combos(args) -> list[ISMCTS]:
    return [_policy(*x, args.playout, args.evaluation) for x in itertools.product(args.iterations, args.depth, args.exploration, args.bias)]


def _scenarios(data, codes) -> list[Playable]:
    """The playable scenarios of the system (``codes``: ids, or words of their labels)."""
    out = [p for p in data if isinstance(p, Playable) and (not codes or p.id in codes or any(c in p.label.split() for c in codes))]
    if not out:
        raise SystemExit(f"no playable scenario among {codes}")
    return out


def _cap(p: Playable) -> int:
    return p.cap_for("greedy", list(get_system(SYSTEM["name"]).LADDER))


def _decision_states(data, p: Playable, limit: int) -> list:
    states: list = []
    for g in range(2):
        s = p.new_state()
        rng = random.Random(f"bench_ismcts:{g}")
        while not s.is_terminal() and s.turn_count() < _cap(p):
            if s.is_chance_node():
                s.apply_action(sample_chance(s.chance_outcomes(), rng))
                continue
            if len(s.legal_actions()) > 1:
                states.append(s.clone())
            s.apply_action(SYSTEM["greedy"](s, rng))
    step = max(1, len(states) // limit)
    return states[::step][:limit]


def speed(args, data) -> None:
    print("| scenario | policy | decisions | CPU s | decisions per CPU s | ms per decision |")
    print("|---|---|---|---|---|---|")
    for loaded in _scenarios(data, args.scenario):
        states = _decision_states(data, loaded, args.states)
        for p in _combos(args):
            t = time.process_time()
            for k, s in enumerate(states):
                p(s, random.Random(k))
            dt = time.process_time() - t
            print(f"| {loaded.label} | {_name(p)} | {len(states)} | {dt:.1f} | {len(states) / dt:.1f} | {1000 * dt / len(states):.0f} |",
                  flush=True)


def _score(reports) -> tuple[int, int]:
    """``(wins, games)`` of a policy over the reports of its games on side 0 and on side 1."""
    a, b = reports
    return a.sides[0].wins + b.sides[1].wins, a.games + b.games


class _Code:
    """A scenario's label where the tables print its code."""

    def __init__(self, label: str) -> None:
        self.code = label


def sweep(args, data) -> None:
    greedy_policy = SYSTEM["greedy"]
    for loaded in _scenarios(data, args.scenario):
        cap, names, factory = _cap(loaded), list(loaded.side_names), loaded.new_state
        sc = _Code(loaded.label)
        for p in _combos(args):
            t0 = _cpu()
            jobs = ladder_jobs(factory, [("greedy", greedy_policy), ("ismcts", p)], args.games, seed=args.seed, turn_cap=cap,
                               side_names=names, label=sc.code)
            reports = run_many(jobs, workers=args.workers, chunk=args.chunk)
            lad = ladder_from_reports(["greedy", "ismcts"], reports, seed=args.seed, turn_cap=cap, side_names=names, label=sc.code)
            w, n = _score(reports[1:])
            lo, hi = wilson(w, n)
            print(f"{sc.code} {_name(p)}: score against greedy {w}/{n} = {w / n:.0%} (95% CI {lo:.0%}-{hi:.0%}), "
                  f"{_cpu() - t0:.0f} CPU s, load {os.getloadavg()[0]:.1f}")
            for line in lad.lines()[1:-1]:
                print(line)
            sys.stdout.flush()


def curve(args, data) -> None:
    if len(args.depth) != 1 or len(args.exploration) != 1 or len(args.bias) != 1:
        raise SystemExit("curve takes one --depth, one --exploration and one --bias")
    d, c, b = args.depth[0], args.exploration[0], args.bias[0]
    print("| scenario | n | against greedy: score (95% CI) | against ISMCTS(n/2): score (95% CI) | CPU s | load |")
    print("|---|---|---|---|---|---|")
    greedy_policy = SYSTEM["greedy"]
    for loaded in _scenarios(data, args.scenario):
        cap, factory = _cap(loaded), loaded.new_state
        sc = _Code(loaded.label)
        for n in args.iterations:
            t0 = _cpu()
            p = _policy(n, d, c, b, args.playout, args.evaluation)
            opps = [greedy_policy] + ([_policy(n // 2, d, c, b, args.playout, args.evaluation)] if n >= 2 else [])
            jobs = []
            for k, o in enumerate(opps):
                for side in (0, 1):
                    pols = [p, o] if side == 0 else [o, p]
                    jobs.append(Job(factory, pols, args.games, args.seed * 1000 + 10 * k + side, cap, label=f"{sc.code} n={n} v {k}"))
            reports = run_many(jobs, workers=args.workers, chunk=args.chunk)
            cells = []
            for k in range(len(opps)):
                w, m = _score(reports[2 * k: 2 * k + 2])
                lo, hi = wilson(w, m)
                cells.append(f"{w}/{m} = {w / m:.0%} ({lo:.0%}-{hi:.0%})")
            cells += ["—"] * (2 - len(cells))
            print(f"| {sc.code} | {n} | {cells[0]} | {cells[1]} | {_cpu() - t0:.0f} | {os.getloadavg()[0]:.1f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("speed", "sweep", "curve"))
    ap.add_argument("--scenario", nargs="*", default=[], help="scenario codes (default: every playable one)")
    ap.add_argument("--games", type=int, default=20, help="games per side and pairing")
    ap.add_argument("--iterations", type=int, nargs="+", default=[50])
    ap.add_argument("--depth", type=int, nargs="+", default=[1])
    ap.add_argument("--exploration", type=float, nargs="+", default=[0.1])
    ap.add_argument("--bias", type=float, nargs="+", default=[1.0])
    ap.add_argument("--playout", choices=("greedy", "random"), default="greedy")
    ap.add_argument("--evaluation", choices=sorted(EVALUATIONS), default="material",
                    help="material: the evaluation of the system's shipped ISMCTS (Genpei: banners, figures, H&F)")
    ap.add_argument("--states", type=int, default=60, help="speed: decision states per scenario")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=2, help="games per task sent to a worker")
    ap.add_argument("--system", default="genpei", help="genpei, ohw, sekigahara or ronin")
    ap.add_argument("--data", type=Path, default=None, help="the system's data folder (default: source_data/SYSTEM)")
    args = ap.parse_args()
    gs = get_system(args.system)
    SYSTEM.update(name=args.system, greedy=gs.policy("greedy"), evaluate=gs.policy("ismcts").evaluate)
    data = gs.playables(args.data or ROOT / "source_data" / args.system)
    t0 = _cpu()
    print(f"load average at start {os.getloadavg()[0]:.1f}")
    {"speed": speed, "sweep": sweep, "curve": curve}[args.mode](args, data)
    print(f"total {_cpu() - t0:.0f} CPU s, load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
