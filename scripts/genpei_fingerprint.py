"""Fingerprint seeded Genpei games: a check that a change to the engine changed no play.

    .venv/bin/python scripts/genpei_fingerprint.py [--random N] [--greedy N] [--rollout N] [--turn-cap T]

Plays N seeded games of every playable scenario under each policy (seed ``"fp:<game>"``, cut
off after T player turns, 40 by default) and prints, per scenario and policy, the SHA-256 of
every legal-action list offered to a player, every chance-outcome list (outcomes and
probabilities), every action and outcome applied, and each game's winner, turns and
:meth:`~pipeline.systems.genpei.engine.state.GenpeiState.play_stats`, with the steps and wins.
Run it on two checkouts (``PYTHONPATH=DIR .venv/bin/python DIR/scripts/genpei_fingerprint.py``
for an export of another commit in ``DIR``) and compare the lines: a refactoring (a module
split, speed work) must leave every one of them unchanged; a rules change changes them.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fingerprint(data, sc, policy, games: int, cap: int) -> tuple[str, int, list[int]]:
    """``(sha256, steps, [wins of side 0, side 1, undecided])`` of ``games`` seeded games."""
    from pipeline.play.protocol import sample_chance
    from pipeline.systems.genpei.engine.state import GenpeiState

    h = hashlib.sha256()
    steps = 0
    wins = [0, 0, 0]
    for game in range(games):
        rng = random.Random(f"fp:{game}")
        st = GenpeiState(data, sc)
        while not st.is_terminal() and st.turn_count() <= cap:
            if st.is_chance_node():
                outs = st.chance_outcomes()
                h.update(repr(outs).encode())
                a = sample_chance(outs, rng)
            else:
                h.update(repr(st.legal_actions()).encode())
                a = policy(st, rng)
            h.update(repr(a).encode())
            st.apply_action(a)
            steps += 1
        w = st.winner()
        h.update(repr((w, st.turn_count(), st.play_stats())).encode())
        wins[2 if w is None else w] += 1
    return h.hexdigest(), steps, wins


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=300)
    ap.add_argument("--greedy", type=int, default=300)
    ap.add_argument("--rollout", type=int, default=2)
    ap.add_argument("--turn-cap", type=int, default=40)
    ap.add_argument("--data", type=Path, default=ROOT / "source_data" / "genpei")
    args = ap.parse_args(argv)

    from pipeline.systems.genpei.engine.policies import POLICIES
    from pipeline.systems.genpei.load import load

    data = load(args.data)
    counts = {"random": args.random, "greedy": args.greedy, "rollout": args.rollout}
    for loaded in data.scenarios:
        sc = loaded.scenario
        if sc.incomplete():
            continue
        for name, n in counts.items():
            if n <= 0 or name not in POLICIES:
                continue
            digest, steps, wins = fingerprint(data, sc, POLICIES[name], n, args.turn_cap)
            print(f"{sc.code} {name:8} games={n} steps={steps} wins={wins} sha256={digest}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
