"""The strength ladder of a system's policies on every playable scenario (issue 25, item 3).

    .venv/bin/python benchmarks/bench_ladder.py [--system genpei] [--scenario GP19 …]
        [--games N [N …]] [--baseline-games N [N …]] [--workers W] [--seed S] [--markdown]

For each playable scenario, plays each adjacent pair of the system's ladder (weakest first; Genpei:
random < greedy < rollout < ISMCTS) head to head, each policy on each side, and judges it as
:mod:`pipeline.play.ladder` does: the stronger policy must win, on each side, at least 10
points more than the weaker one does on that side against the same (weaker) opponent, with the
95% Newcombe interval of the difference above zero. ``--games`` is the games per run (one
count, or one per adjacent pair from the bottom); ``--baseline-games`` the games of the weaker
policy against itself (default: the same). Prints each scenario's ladder, then (``--markdown``)
the rows of the README table, the CPU seconds (this process and its workers) and the load.

The turn cap is the scenario's greedy cap (``playability: turn_cap:`` in its file, else 100
player turns): a game cut off there is won by neither side.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.play import Policy, run_many  # noqa: E402
from pipeline.play.ladder import MARKDOWN_HEADER, ladder_from_reports, ladder_jobs  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class LadderScenario:
    """One scenario to climb: a label, a picklable state factory, the turn cap, the side names
    and the system's ladder ``[(name, policy), …]`` weakest first."""

    label: str
    factory: Callable
    turn_cap: int
    side_names: Sequence[str]
    ladder: Sequence[tuple[str, Policy]]


def _genpei(data_root: Path, codes: Sequence[str]) -> Iterator[LadderScenario]:
    from pipeline.systems.genpei.engine.playability import _state_factory, thresholds_for
    from pipeline.systems.genpei.engine.policies import LADDER
    from pipeline.systems.genpei.load import load
    from pipeline.systems.genpei.verify import complete_scenarios

    data = load(data_root / "genpei")
    for loaded in complete_scenarios(data):
        sc = loaded.scenario
        if codes and sc.code not in codes:
            continue
        yield LadderScenario(f"{sc.code} {sc.name}", _state_factory(data, data.scenarios.index(loaded)),
                             thresholds_for(sc, "greedy").turn_cap, [s.name for s in sc.sides], LADDER)


#: The systems whose ladders this script climbs.
SYSTEMS: dict[str, Callable[[Path, Sequence[str]], Iterator[LadderScenario]]] = {"genpei": _genpei}


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", choices=sorted(SYSTEMS), default="genpei")
    ap.add_argument("--scenario", nargs="*", default=[], help="scenario codes (default: every playable one)")
    ap.add_argument("--games", type=int, nargs="+", default=[100], help="games per run: one count, or one per adjacent pair")
    ap.add_argument("--baseline-games", type=int, nargs="+", default=None, help="games of the weaker policy against itself")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=5, help="games per task sent to a worker")
    ap.add_argument("--markdown", action="store_true", help="also print the README table rows")
    ap.add_argument("--data", type=Path, default=ROOT / "source_data")
    args = ap.parse_args()

    def counts(xs):
        return None if xs is None else xs[0] if len(xs) == 1 else xs

    t0, w0 = _cpu(), time.perf_counter()
    print(f"load average at start {os.getloadavg()[0]:.1f}", flush=True)
    scenarios = list(SYSTEMS[args.system](args.data, args.scenario))
    jobs, spans = [], []
    for s in scenarios:
        js = ladder_jobs(s.factory, s.ladder, counts(args.games), seed=args.seed, turn_cap=s.turn_cap, side_names=s.side_names,
                         label=s.label, baseline_games=counts(args.baseline_games))
        spans.append((len(jobs), len(jobs) + len(js)))
        jobs += js
    reports = run_many(jobs, workers=args.workers, chunk=args.chunk)  # every scenario's runs in one pool
    rows = []
    for s, (a, b) in zip(scenarios, spans, strict=True):
        lad = ladder_from_reports([n for n, _ in s.ladder], reports[a:b], seed=args.seed, turn_cap=s.turn_cap,
                                  side_names=s.side_names, label=s.label)
        print("\n".join(lad.lines()))
        for rep in reports[a:b]:
            print(f"    {rep.label}: {rep.games} games, mean {rep.mean_turns:.1f} player turns, {rep.cut_off} cut off")
        rows += lad.markdown()
    if args.markdown:
        print("\n".join(MARKDOWN_HEADER + rows))
    print(f"{len(jobs)} runs, {sum(j.games for j in jobs)} games: {_cpu() - t0:.0f} CPU s, {time.perf_counter() - w0:.0f} s wall "
          f"({args.workers} worker(s)), load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
