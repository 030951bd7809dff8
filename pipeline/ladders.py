"""``gunbai verify --ladder``: prove each system's policy ladder by head-to-head play on every
playable scenario, and write what it proved to the system's ladder record
(``source_data/<system>/ladder.yaml``, :mod:`pipeline.data.ladder`), which the balance verdicts
of ``gunbai verify --play`` read.

The climb (issue 25, item 3; :mod:`pipeline.play.ladder`): for each adjacent pair of the system's
``LADDER`` from the bottom (``random < greedy < …``), three seeded runs of ``games`` games: the
weaker policy against itself, the stronger on side 0 against the weaker, the weaker against the
stronger on side 1. The stronger is proven when, on each side, it wins at least 10 points more
than the weaker does there against the same opponent, with the 95% Newcombe interval of the
difference above zero. A scenario's climb stops at its first pair not proven: the policies proven
are the unbroken run from the bottom. All scenarios' runs of one rung share one pool of worker
processes; results depend only on the seed and the game count, not on the number of processes.

Every run of a pair uses one turn cap, the stronger policy's (:meth:`Playable.cap_for`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipeline import progress
from pipeline.data.ladder import (
    FORMAT,
    LADDER_FILE,
    FileRecord,
    LadderFile,
    RecordPair,
    RecordScenario,
    RecordSide,
    dump,
)
from pipeline.errors import GunbaiError
from pipeline.output import write_bytes_atomic
from pipeline.play.ladder import Ladder, ladder_from_reports, ladder_jobs
from pipeline.play.runner import run_many
from pipeline.schema import HEADER
from pipeline.systems.base import NotPlayable, Playable, get_system
from pipeline.verdicts import StateRef, code_digest, register

#: Games per run of a pair unless ``--games`` says otherwise.
DEFAULT_GAMES = 100


@dataclass
class Climb:
    """One scenario's climb: the playable, the ladder's names and the pairs played so far."""

    system: str
    playable: Playable
    ref: StateRef
    policies: list[str]
    reports: list = field(default_factory=list)
    ladder: Ladder | None = None

    @property
    def next_pair(self) -> int | None:
        """The index of the next pair to play, or None when the climb is over."""
        k = len(self.reports) // 3
        if k >= len(self.policies) - 1:
            return None
        if self.ladder is not None and not self.ladder.pairs[-1].proven:
            return None
        return k


def _record_of(c: Climb, code: str) -> RecordScenario:
    lad = c.ladder
    if lad is None:
        raise GunbaiError(f"{c.playable.label}: no pair of its ladder was played")
    top = lad.strongest
    proven = lad.policies[: lad.policies.index(top) + 1]
    pairs = [RecordPair(weaker=p.weaker, stronger=p.stronger, proven=p.proven,
                        sides=[RecordSide(name=s.name, games=s.games, wins=s.wins, baseline_games=s.baseline_games, baseline_wins=s.baseline_wins,
                                          low=round(s.interval[0], 4), high=round(s.interval[1], 4), stronger=s.stronger) for s in p.sides])
             for p in lad.pairs]
    return RecordScenario(label=c.playable.label, seed=lad.seed, code=code, turn_cap=lad.turn_cap, proven=list(proven), pairs=pairs)


def climb_all(data_root: Path, systems: Sequence[str], *, files: dict[str, list[Path]] | None = None, games: int | Sequence[int] = DEFAULT_GAMES,
              seed: int = 1, workers: int = 1, top: str | None = None, write: bool = True) -> list[tuple[str, list[Ladder | NotPlayable]]]:
    """Climb the ladder of every playable scenario of ``systems`` (of ``files[system]``).

    Args:
        games: games per run (three runs a pair): one count, or one per rung from the bottom (the
            last serving the rungs above it).
        seed: the ladder's seed (each run's seed is derived from it and the two policies).
        workers: processes.
        top: climb no higher than this policy (a name of every system's ladder), or None.
        write: merge the results into each system's ``ladder.yaml`` (atomically).

    Returns:
        per system, its ladders (and the scenarios it cannot play), in the systems' order.

    Raises:
        DataError: a data file or a ladder record is invalid.
        GunbaiError: ``top`` is not in a system's ladder; a game broke the protocol.
    """
    data_root = Path(data_root)
    counts = [games] if isinstance(games, int) else list(games)
    if not counts or any(g < 1 for g in counts):
        raise GunbaiError(f"a ladder needs at least 1 game per run, not {games!r}")
    climbs: list[Climb] = []
    out: dict[str, list] = {}
    for name in systems:
        gs = get_system(name)
        policies = list(gs.LADDER)
        if top is not None:
            if top not in policies:
                raise GunbaiError(f"{name}: --policy {top!r} is not in its ladder ({', '.join(policies)})")
            policies = policies[: policies.index(top) + 1]
            if len(policies) < 2:
                raise GunbaiError(f"{name}: --policy {top!r} is the bottom of its ladder: a climb needs a stronger policy above it")
        out[name] = []
        given = (files or {}).get(name)
        for p in gs.playables(data_root / name, given):
            if isinstance(p, NotPlayable):
                out[name].append(p)
                continue
            ref = StateRef.of(name, data_root / name, given, p.id, f"ladder:{code_digest(name)}")
            register(ref, p.new_state)
            climbs.append(Climb(name, p, ref, policies))
            out[name].append(climbs[-1])  # replaced by its ladder when climbed
    rung = 0
    while True:
        todo = [c for c in climbs if c.next_pair is not None]
        if not todo:
            break
        rung += 1
        jobs, owners = [], []
        for c in todo:
            k = c.next_pair
            gs = get_system(c.system)
            pair = [(c.policies[k], gs.policy(c.policies[k])), (c.policies[k + 1], gs.policy(c.policies[k + 1]))]
            cap = c.playable.cap_for(c.policies[k + 1], list(gs.LADDER))
            n = counts[min(k, len(counts) - 1)]
            js = ladder_jobs(c.ref, pair, n, seed=seed, turn_cap=cap, side_names=c.playable.side_names, label=c.playable.label)
            jobs += js
            owners.append((c, cap))
        progress.step(", ".join(sorted({c.system for c in todo})), f"ladder rung {rung}: {len(todo)} scenario(s)")
        reports = run_many(jobs, workers=workers, chunk=max(1, min(10, min(j.games for j in jobs) // 4)))
        for i, (c, cap) in enumerate(owners):
            c.reports += reports[3 * i: 3 * i + 3]
            played = c.policies[: len(c.reports) // 3 + 1]
            c.ladder = ladder_from_reports(played, c.reports, seed=seed, turn_cap=cap, side_names=c.playable.side_names, label=c.playable.label)
    progress.clear()
    for name in systems:
        cs = [e for e in out[name] if isinstance(e, Climb)]
        out[name] = [e.ladder if isinstance(e, Climb) else e for e in out[name]]
        if write and cs:
            _write_record(data_root, name, {c.playable.id: _record_of(c, code_digest(name)) for c in cs})
    return [(name, out[name]) for name in systems]


def _write_record(data_root: Path, system: str, scenarios: dict[str, RecordScenario]) -> Path:
    """Merge ``scenarios`` into ``system``'s ladder record and write it atomically."""
    old = FileRecord.read(data_root, [system]).files.get(system)
    merged = dict(old.scenarios) if old is not None else {}
    merged.update(scenarios)
    record = LadderFile(format=FORMAT, system=system, scenarios=merged)
    path = data_root / system / LADDER_FILE
    text = f"{HEADER}schema/{LADDER_FILE.removesuffix('.yaml')}.schema.json\n" + dump(record)
    try:
        return write_bytes_atomic(path, text.encode("utf-8"))
    except OSError as exc:
        raise GunbaiError(f"{path}: cannot write the ladder record ({exc.strerror})") from exc
