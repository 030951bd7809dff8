"""ISMCTS on Genpei: strength against iterations, the parameter sweep behind the defaults, and
the cost per decision.

    .venv/bin/python benchmarks/bench_ismcts.py speed [--iterations 25 50 100 …] [--depth 1 2] …
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
from pipeline.systems.genpei.engine.playability import _state_factory, thresholds_for  # noqa: E402
from pipeline.systems.genpei.engine.policies import evaluation, greedy_policy  # noqa: E402
from pipeline.systems.genpei.engine.state import GenpeiState  # noqa: E402
from pipeline.systems.genpei.load import load  # noqa: E402
from pipeline.systems.genpei.verify import complete_scenarios  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


#: The evaluations ``--evaluation`` chooses from.
EVALUATIONS = {"material": evaluation}


def _policy(it: int, depth: int, c: float, bias: float, playout: str, ev: str) -> ISMCTS:
    return ISMCTS(EVALUATIONS[ev], iterations=it, playout_depth=depth, exploration=c, prior_bias=bias,
                  playout=greedy_policy if playout == "greedy" else None)


def _name(p: ISMCTS) -> str:
    pl = "random" if p.playout is None else "greedy"
    ev = next(k for k, f in EVALUATIONS.items() if f is p.evaluate)
    return (f"ISMCTS(n={p.iterations}, depth={p.playout_depth}, c={p.exploration:g}, bias={p.prior_bias:g}, {pl} playouts, "
            f"{ev} evaluation)")


def _combos(args) -> list[ISMCTS]:
    return [_policy(*x, args.playout, args.evaluation) for x in itertools.product(args.iterations, args.depth, args.exploration, args.bias)]


def _scenarios(data, codes):
    out = [s for s in complete_scenarios(data) if not codes or s.scenario.code in codes]
    if not out:
        raise SystemExit(f"no playable scenario among {codes}")
    return out


def _decision_states(data, loaded, limit: int) -> list[GenpeiState]:
    sc = loaded.scenario
    states: list[GenpeiState] = []
    for g in range(2):
        s = GenpeiState(data, sc)
        rng = random.Random(f"bench_ismcts:{g}")
        while not s.is_terminal() and s.turn_count() < 100:
            if s.is_chance_node():
                s.apply_action(sample_chance(s.chance_outcomes(), rng))
                continue
            if len(s.legal_actions()) > 1:
                states.append(s.clone())
            s.apply_action(greedy_policy(s, rng))
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
            print(f"| {loaded.scenario.code} | {_name(p)} | {len(states)} | {dt:.1f} | {len(states) / dt:.1f} | {1000 * dt / len(states):.0f} |",
                  flush=True)


def _score(reports) -> tuple[int, int]:
    """``(wins, games)`` of a policy over the reports of its games on side 0 and on side 1."""
    a, b = reports
    return a.sides[0].wins + b.sides[1].wins, a.games + b.games


def sweep(args, data) -> None:
    for loaded in _scenarios(data, args.scenario):
        sc = loaded.scenario
        index = data.scenarios.index(loaded)
        cap = thresholds_for(sc, "greedy").turn_cap
        names = [s.name for s in sc.sides]
        factory = _state_factory(data, index)
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
    for loaded in _scenarios(data, args.scenario):
        sc = loaded.scenario
        index = data.scenarios.index(loaded)
        cap = thresholds_for(sc, "greedy").turn_cap
        factory = _state_factory(data, index)
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
                    help="material: banners, figures, H&F (policies.evaluation)")
    ap.add_argument("--states", type=int, default=60, help="speed: decision states per scenario")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=2, help="games per task sent to a worker")
    ap.add_argument("--data", type=Path, default=ROOT / "source_data" / "genpei")
    args = ap.parse_args()
    data = load(args.data)
    t0 = _cpu()
    print(f"load average at start {os.getloadavg()[0]:.1f}")
    {"speed": speed, "sweep": sweep, "curve": curve}[args.mode](args, data)
    print(f"total {_cpu() - t0:.0f} CPU s, load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
