"""Games per second of the Genpei rules engine, per scenario and policy.

    .venv/bin/python benchmarks/bench_engine.py [GAMES] [--turn-cap N] [--baseline DIR] [--parallel N]
    .venv/bin/python benchmarks/bench_engine.py --instructions N [--warmup W] [--baseline DIR]

Prints one line per scenario and policy: games, wall and CPU seconds, games per CPU second
(per core), mean game length in player turns, and the machine's load average before and after
(the machine may be shared: CPU seconds are the fairer measure). Single process; same seed as
``gunbai verify --play`` (game ``i`` seeded ``1:i``). The rollout policy plays GAMES // 10 games.

``--baseline DIR`` runs the same benchmark on another checkout of gunbai (e.g. ``git archive
main | tar -x -C DIR``) in a subprocess right after, interleaved per scenario, and prints the
ratio of games per CPU second, so that both are measured under the same load.
``--parallel N`` also plays N greedy games of each scenario on 2 worker processes (as
``gunbai verify --play N --workers 2`` does) and prints wall and CPU seconds.
``--bytecodes N`` instead counts the Python bytecodes per game of N seeded random and greedy
games (with ``--baseline``, of both checkouts): a measure no machine load moves, but blind to
work done in C, so a change that lowers it must still be timed.
``--instructions N`` counts the machine instructions per game of N seeded random and greedy
games (after N warm-up games, or W with ``--warmup W``: a few hundred fill the scenario's caches
as a long run does) under valgrind's callgrind, C work included, with
``PYTHONHASHSEED=0`` (with ``--baseline``, of both checkouts, and their ratio): repeatable to
about 0.15% under any load, so it shows changes of 1-2% that CPU seconds on a shared machine
cannot (needs ``valgrind``; about 20 s per scenario and policy for N = 20). Fewer bytecodes is
not fewer instructions: work moved from Python into C calls (``sorted``, set operations,
``itertools``) often costs more than the loop it replaced at the sizes the engine sees.

Issue 12's speed target is measured against the engine before it (``git archive 6a0662b``):
3× its games per CPU second for random and greedy play of GP19 and GP20, and 1000 greedy games
of a scenario in under 20 s wall on 2 cores (``--parallel 1000``). The README gives the last
figures (2026-12-01, main after the sixth pass, ``--instructions 10 --baseline <6a0662b>``,
machine instructions per game, 6a0662b / now: GP19 random 1.40×, greedy 1.96×; GP20 random
1.90×, greedy 2.11×; with ``--warmup 150``: 1.51×, 2.09×, 1.77×, 2.28×; not 3×; 1000 greedy
games on 2 workers in 4.5-14.4 s wall at load 2.5). On a shared machine compare CPU
seconds of paired runs (``--baseline``), never wall seconds, and note the load averages printed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _playable(data, only: str | None = None) -> list:
    """The scenarios the engine plays: all but those the data marks incomplete (an older
    checkout has no such mark); only the one coded ``only`` when given."""
    return [s for s in data.scenarios
            if not (getattr(s.scenario, "incomplete", None) and s.scenario.incomplete())
            and (not only or s.scenario.code == only)]


def _cap(sc, policy: str) -> int:
    """The turn cap of ``policy`` in scenario ``sc`` as ``verify --play`` plays it, on this
    checkout (the system interface) or an older one (``engine.playability.thresholds_for``)."""
    try:
        from pipeline.systems.genpei.system import DEFAULT_TURN_CAP, DEFAULT_TURN_CAPS
    except ImportError:  # a checkout before the system interface (issue 25)
        from pipeline.systems.genpei.engine.playability import thresholds_for

        return thresholds_for(sc, policy).turn_cap
    from pipeline.play.judge import by_policy
    from pipeline.systems.genpei.engine.policies import POLICIES

    return by_policy({**DEFAULT_TURN_CAPS, **sc.playability.turn_cap}, policy, list(POLICIES), DEFAULT_TURN_CAP)


def games_for(policy: str, n: int) -> int:
    """Games this benchmark plays of ``policy`` when the others play ``n``: the rollout policy,
    some thirty times dearer per game, plays one in ten."""
    return max(1, n // 10) if policy == "rollout" else n


def _measure(data_dir: Path, games: int, turn_cap: int | None, only: str | None) -> list[dict]:
    from pipeline.play import run_playability
    from pipeline.systems.genpei.engine.policies import POLICIES
    from pipeline.systems.genpei.engine.state import GenpeiState
    from pipeline.systems.genpei.load import load

    data = load(data_dir)
    out = []
    for loaded in _playable(data, only):
        sc = loaded.scenario
        for name, policy in POLICIES.items():
            cap = turn_cap or _cap(sc, name)
            n = games_for(name, games)
            w0, c0 = time.perf_counter(), time.process_time()
            rep = run_playability(lambda sc=sc: GenpeiState(data, sc), policy, games=n, seed=1, turn_cap=cap)
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            out.append({"scenario": sc.code, "policy": name, "games": rep.games, "wall": wall, "cpu": cpu,
                        "gps": rep.games / cpu, "turns": rep.mean_turns, "cut": rep.cut_off_share})
    return out


def _bytecodes(data_dir: Path, games: int, only: str | None) -> list[dict]:
    """Python bytecodes executed per game (random and greedy play of each scenario): ``games``
    seeded games counted after ``games`` warm-up games (the scenario's caches filled, as in a
    long run). Repeatable whatever the machine's load; C work (set operations, ``sorted``) counts
    nothing, so fewer bytecodes is not always less time: time a change too."""
    from pipeline.play import run_playability
    from pipeline.systems.genpei.engine.policies import POLICIES
    from pipeline.systems.genpei.engine.state import GenpeiState
    from pipeline.systems.genpei.load import load

    count = [0]

    def local(frame, event, arg):
        if event == "opcode":
            count[0] += 1
        return local

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return local

    data = load(data_dir)
    out = []
    for loaded in _playable(data, only):
        sc = loaded.scenario
        for name in ("random", "greedy"):
            cap = _cap(sc, name)
            run_playability(lambda sc=sc: GenpeiState(data, sc), POLICIES[name], games=games, seed=2, turn_cap=cap)
            count[0] = 0
            sys.settrace(tracer)
            try:
                run_playability(lambda sc=sc: GenpeiState(data, sc), POLICIES[name], games=games, seed=1, turn_cap=cap)
            finally:
                sys.settrace(None)
            out.append({"scenario": sc.code, "policy": name, "bytecodes": count[0] / games})
    return out


def _callgrind_child(data_dir: Path, games: int, code: str, policy: str, warmup: int) -> None:
    """Inside ``valgrind --tool=callgrind --instr-atstart=no``: ``warmup`` warm-up games (seed 2),
    then instrumentation on for ``games`` seeded games (seed 1) only, then off."""
    from pipeline.play import run_playability
    from pipeline.systems.genpei.engine.policies import POLICIES
    from pipeline.systems.genpei.engine.state import GenpeiState
    from pipeline.systems.genpei.load import load

    data = load(data_dir)
    sc = _playable(data, code)[0].scenario
    cap = _cap(sc, policy)
    if warmup > 0:
        run_playability(lambda: GenpeiState(data, sc), POLICIES[policy], games=warmup, seed=2, turn_cap=cap)
    pid = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", pid], capture_output=True, check=True)
    run_playability(lambda: GenpeiState(data, sc), POLICIES[policy], games=games, seed=1, turn_cap=cap)
    subprocess.run(["callgrind_control", "-i", "off", pid], capture_output=True, check=True)


def _instructions(checkout: Path, games: int, codes: list[str], warmup: int | None = None) -> dict[tuple[str, str], float]:
    """Machine instructions per game (C work included) of random and greedy play of each
    scenario in ``codes`` by the gunbai at ``checkout``, counted by valgrind's callgrind over
    ``games`` seeded games after ``warmup`` warm-up games (default: as many as ``games``), with
    ``PYTHONHASHSEED=0``: the same count on a loaded or an idle machine (within about 0.15%)."""
    out = {}
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
    for code in codes:
        for policy in ("random", "greedy"):
            cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=/dev/null",
                   sys.executable, str(Path(__file__).resolve()), "--callgrind-child", str(games), "--only", code,
                   "--warmup", str(games if warmup is None else warmup),
                   "--policy", policy, "--data", str(checkout / "source_data" / "genpei")]
            run = subprocess.run(cmd, env=env, cwd=checkout, capture_output=True, text=True, check=True)
            refs = [ln for ln in run.stderr.splitlines() if "I   refs:" in ln or "I refs:" in ln]
            out[(code, policy)] = int(refs[-1].split(":")[-1].replace(",", "")) / games
    return out


def _print(rows: list[dict], tag: str = "") -> None:
    for r in rows:
        print(f"{tag}{r['scenario']} {r['policy']:7s} {r['games']:4d} games  wall {r['wall']:6.2f} s  cpu {r['cpu']:6.2f} s  "
              f"{r['gps']:7.1f} games/s/core  mean {r['turns']:5.1f} turns  cut off {r['cut']:.0%}")


def _parallel(data_dir: Path, games: int) -> None:
    """``games`` greedy games of each scenario on 2 worker processes, as ``gunbai verify --play
    N --policy greedy --workers 2`` plays them when the precision asked is out of reach (the
    verdict runner, :func:`pipeline.verdicts.play_all`)."""
    from pipeline.verdicts import play_all

    for r in _playable_ids(data_dir):
        self0 = resource.getrusage(resource.RUSAGE_SELF)
        kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        (res,) = play_all(data_dir.parent, ["genpei"], files={"genpei": [r]}, budget=games, precision=1e-6, policy="greedy", workers=2,
                          out_root=None)
        wall = time.perf_counter() - w0
        self1 = resource.getrusage(resource.RUSAGE_SELF)
        kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (self1.ru_utime + self1.ru_stime - self0.ru_utime - self0.ru_stime
               + kids1.ru_utime + kids1.ru_stime - kids0.ru_utime - kids0.ru_stime)
        v = res.entries[0]
        print(f"{v.label} greedy {v.games} games on 2 workers: wall {wall:.1f} s, cpu {cpu:.1f} s (all processes)")


def _playable_ids(data_dir: Path) -> list[Path]:
    from pipeline.systems.genpei.load import load

    return [s.path for s in _playable(load(data_dir))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=200)
    ap.add_argument("--turn-cap", type=int, default=None, help="override each scenario's turn cap")
    ap.add_argument("--data", type=Path, default=ROOT / "source_data" / "genpei")
    ap.add_argument("--baseline", type=Path, default=None, help="another gunbai checkout to measure under the same load")
    ap.add_argument("--parallel", type=int, default=0, help="also play N greedy games per scenario on 2 workers")
    ap.add_argument("--bytecodes", type=int, default=0,
                    help="instead count Python bytecodes per game over N seeded games (repeatable under any load)")
    ap.add_argument("--instructions", type=int, default=0,
                    help="instead count machine instructions per game over N seeded games under valgrind "
                         "(repeatable under any load, C work included; needs valgrind)")
    ap.add_argument("--warmup", type=int, default=None,
                    help="with --instructions: warm-up games before the counted ones (default: as many as counted); "
                         "a few hundred fill the scenario's caches (odds, lines of sight) as in a long run")
    ap.add_argument("--callgrind-child", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--policy", default="random", help=argparse.SUPPRESS)
    ap.add_argument("--only", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.callgrind_child:  # the subprocess of --instructions, under valgrind
        _callgrind_child(args.data, args.callgrind_child, args.only, args.policy,
                         args.callgrind_child if args.warmup is None else args.warmup)
        return
    if args.instructions:
        if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
            sys.exit("--instructions needs valgrind (e.g. apt-get install valgrind)")
        from pipeline.systems.genpei.load import load

        codes = [s.scenario.code for s in _playable(load(args.data))]
        mine = _instructions(ROOT, args.instructions, codes, args.warmup)
        base = _instructions(args.baseline, args.instructions, codes, args.warmup) if args.baseline is not None else {}
        for (code, policy), n in mine.items():
            b = base.get((code, policy))
            vs = f"  baseline {b / 1e6:7.2f}M  ratio {b / n:.3f}x fewer" if b else ""
            print(f"{code} {policy:7s} {n / 1e6:7.2f}M instructions per game{vs}")
        return
    if args.json:  # the subprocess of --baseline
        if args.bytecodes:
            print(json.dumps(_bytecodes(args.data, args.bytecodes, args.only)))
        else:
            print(json.dumps(_measure(args.data, args.games, args.turn_cap, args.only)))
        return
    if args.bytecodes:
        mine = _bytecodes(args.data, args.bytecodes, None)
        base: dict = {}
        if args.baseline is not None:
            env = dict(os.environ, PYTHONPATH=str(args.baseline))
            cmd = [sys.executable, str(Path(__file__).resolve()), "--json", "--bytecodes", str(args.bytecodes),
                   "--data", str(args.baseline / "source_data" / "genpei")]
            rows = json.loads(subprocess.run(cmd, env=env, cwd=args.baseline, capture_output=True, text=True, check=True).stdout)
            base = {(r["scenario"], r["policy"]): r["bytecodes"] for r in rows}
        for r in mine:
            b = base.get((r["scenario"], r["policy"]))
            vs = f"  baseline {b / 1000:7.1f}k  ratio {r['bytecodes'] / b:.3f}" if b else ""
            print(f"{r['scenario']} {r['policy']:7s} {r['bytecodes'] / 1000:7.1f}k bytecodes per game{vs}")
        return
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    if args.baseline is None:
        _print(_measure(args.data, args.games, args.turn_cap, None))
    else:
        from pipeline.systems.genpei.load import load

        codes = [s.scenario.code for s in _playable(load(args.data))]
        for code in codes:
            mine = _measure(args.data, args.games, args.turn_cap, code)
            env = dict(os.environ, PYTHONPATH=str(args.baseline))
            cmd = [sys.executable, str(Path(__file__).resolve()), str(args.games), "--json", "--only", code,
                   "--data", str(args.baseline / "source_data" / "genpei")]
            if args.turn_cap:
                cmd += ["--turn-cap", str(args.turn_cap)]
            base = json.loads(subprocess.run(cmd, env=env, cwd=args.baseline, capture_output=True, text=True, check=True).stdout)
            _print(base, "baseline ")
            _print(mine, "this     ")
            bmap = {r["policy"]: r for r in base}
            for r in mine:
                b = bmap.get(r["policy"])
                if b:
                    print(f"ratio    {code} {r['policy']:7s} {r['gps'] / b['gps']:.2f}x games per CPU second")
    if args.parallel:
        _parallel(args.data, args.parallel)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
