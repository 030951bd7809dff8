"""Quick games of the scenario being edited, in a process of their own (``gunbai edit``'s
"Play N games" button): the balance policy (the strongest the ladder record proves on the
scenario, else greedy, as ``gunbai verify --play`` chooses it) on both sides, one JSON line
on standard output per game so the page shows progress, and the tally with 95 % Wilson
intervals at the end. The editor ends the process to cancel it.

Run as::

    python -m pipeline.editor.quickplay DATA/genpei SCENARIO.yaml GAMES SEED

Lines written (JSON)::

    {"policy": "greedy", "proven": true, "sides": ["Taira (Heike)", "Rebels"], "games": 20}
    {"done": 1, "wins": [1, 0], "unfinished": 0}
    ...
    {"end": true, "wins": [12, 8], "unfinished": 0, "intervals": [[0.39, 0.78], [0.22, 0.61]]}
    {"error": "..."}                 # the scenario cannot be played (incomplete, a rule bug)
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

#: Most games one request may ask for.
MAX_GAMES = 200


def _emit(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def run(system_dir: Path, scenario_file: Path, games: int, seed: int) -> int:
    """Play ``games`` games of ``scenario_file`` (a Genpei scenario, read with the data of
    ``system_dir``), writing the lines of the module doc. Returns the exit status."""
    from pipeline.errors import GunbaiError
    from pipeline.play.runner import play_game, wilson
    from pipeline.play.verdict import NoRecord, choose_policy
    from pipeline.systems.base import NotPlayable
    from pipeline.systems.genpei.system import GenpeiSystem

    system = GenpeiSystem()
    try:
        found = system.playables(system_dir, [scenario_file])
    except GunbaiError as exc:
        _emit({"error": str(exc)})
        return 1
    if not found or isinstance(found[0], NotPlayable):
        _emit({"error": f"not playable: {found[0].reason if found else 'no scenario'}"})
        return 1
    p = found[0]
    record = NoRecord()
    try:
        from pipeline.data.ladder import FileRecord

        record = FileRecord.read(system_dir.parent, ["genpei"])
    except (GunbaiError, OSError):
        pass
    ladder = list(system.LADDER)
    name, proven = choose_policy(ladder, "genpei", p.id, record, None, default="greedy")
    policy = system.policy(name)
    cap = p.cap_for(name, ladder)
    _emit({"policy": name, "proven": proven, "sides": list(p.side_names), "games": games})
    wins, unfinished = [0, 0], 0
    for i in range(games):
        try:
            r = play_game(p.new_state, policy, random.Random(f"gunbai-edit:{seed}:{p.id}:{name}:{i}"), cap)
        except GunbaiError as exc:
            _emit({"error": f"game {i + 1}: {exc}"})
            return 1
        if r.winner is None:
            unfinished += 1
        else:
            wins[r.winner] += 1
        _emit({"done": i + 1, "wins": wins, "unfinished": unfinished})
    _emit({"end": True, "wins": wins, "unfinished": unfinished, "intervals": [list(wilson(w, games)) for w in wins]})
    return 0


def main(argv: list[str]) -> int:
    """The command line of the module doc."""
    if len(argv) != 4:
        sys.stderr.write(__doc__ or "")
        return 2
    games = max(1, min(MAX_GAMES, int(argv[2])))
    return run(Path(argv[0]), Path(argv[1]), games, int(argv[3]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
