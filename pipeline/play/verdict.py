"""Balance verdicts with a stated precision: seeded games in deterministic batches until the 95%
interval of the first side's win rate is narrow enough, or a game budget is spent.

A scenario's games are played in batches of :data:`BATCH` games: batch ``k`` holds games
``k·BATCH`` to ``(k+1)·BATCH - 1``, and game ``i`` is played with its own generator
``random.Random(f"{seed}:{system}/{scenario}:{policy}:{i}")``. After each batch, in batch order,
the verdict stops when the Wilson 95% interval of the first side's win rate is at most
``± precision`` wide (half its width) or the games played reach the budget. Batches may be
played in any order, on any number of processes or on a Dask cluster (batches played past the
stop are dropped): the verdict depends only on the seed, the scenario, the policy, the precision
and the budget.

Each verdict reports per side the win rate with its 95% interval, **Balance** = 1 - |p1 - p2|
(Ludii's measure: 1 when both sides win equally often, 0 when one side always wins; drawn and
cut-off games count for neither), the share of games cut off by the turn cap (decisiveness), the
share drawn and the mean length in player turns, and judges it by the scenario's
``playability:`` (:mod:`pipeline.play.judge`).

The verdict's policy is the strongest of the system's ladder that head-to-head play proved on
that scenario (a :class:`LadderRecord`, the data folder's ``<system>/ladder.yaml``); with no
record, the system's ``UNPROVEN_POLICY`` (greedy: ISMCTS verdicts cost minutes of CPU a
scenario), and the verdict says ``strength not proven``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pipeline import progress
from pipeline.errors import GunbaiError
from pipeline.play.runner import Z95, RuleBug, play_game, wilson

#: Games per batch (the unit of work sent to a process or a Dask worker, and of the stopping rule).
BATCH = 25
#: The default precision: the first side's 95% interval at most ±5 points.
DEFAULT_PRECISION = 0.05
#: The largest game budget ``--play`` takes.
MAX_GAMES = 10_000_000


class EngineError(GunbaiError):
    """A rules engine broke the game protocol in a game of ``verify --play``
    (:class:`~pipeline.play.runner.RuleBug`): the message names the scenario, its file, the
    policy, the seed and game index that replay it, and the state."""

    def __reduce__(self):
        return (EngineError, self.args)


class LadderRecord(Protocol):
    """What head-to-head play proved of a system's ladder (:mod:`pipeline.play.ladder`)."""

    def proven(self, system: str, scenario: str) -> Sequence[str]:
        """The policies proven on ``scenario``, weakest first, each stronger than the one
        before it (empty when nothing was proven)."""
        ...

    def digest(self) -> str:
        """A digest of the record (part of every verdict's cache key)."""
        ...


class NoRecord:
    """No head-to-head record: no policy is proven stronger than another."""

    def proven(self, system: str, scenario: str) -> Sequence[str]:
        return ()

    def digest(self) -> str:
        return "no ladder record"


def choose_policy(ladder: Sequence[str], system: str, scenario: str, record: LadderRecord, requested: str | None = None,
                  default: str | None = None) -> tuple[str, bool]:
    """The verdict's policy and whether its strength is proven: ``requested`` when given, else
    the strongest policy ``record`` proves on ``scenario``, else ``default`` (the system's
    policy for scenarios the ladder has not been climbed on), else the last (strongest
    declared) of ``ladder``.

    >>> choose_policy(["random", "greedy"], "ohw", "ohw04", NoRecord())
    ('greedy', False)
    >>> choose_policy(["random", "greedy", "ismcts"], "ohw", "ohw04", NoRecord(), default="greedy")
    ('greedy', False)
    """
    proven = [p for p in record.proven(system, scenario) if p in ladder]
    if requested is not None:
        return requested, requested in proven
    if proven:
        return proven[-1], True
    if default is not None and default in ladder:
        return default, False
    return list(ladder)[-1], False


# ------------------------------------------------------------------------ batches
@dataclass(frozen=True)
class Batch:
    """Games ``start`` to ``stop - 1`` of one verdict.

    Attributes:
        ref: the scenario's picklable state factory (:class:`pipeline.verdicts.StateRef`); its
            ``system`` and ``playable`` name the scenario.
        policy: the policy's name in the system's ladder.
        seed: the prefix of the games' seeds (:func:`game_seed`).
        turn_cap: player turns after which a game is cut off.
        label: the scenario as messages name it.
        code: the digest of the code the sender plays with.
        sides: the number of sides.
    """

    ref: Any
    policy: str
    seed: str
    start: int
    stop: int
    turn_cap: int
    label: str
    code: str
    sides: int = 2


@dataclass(frozen=True)
class BatchResult:
    """What a batch's games came to: games, wins per side, games cut off, player turns in all,
    and the events the engine counted (``(event, count)`` pairs, sorted)."""

    start: int
    games: int
    wins: tuple[int, ...]
    cut_off: int
    turns: int
    stats: tuple[tuple[str, int], ...] = ()
    #: CPU seconds the games took (on the process that played them)
    cpu: float = 0.0


def game_seed(seed: int, system: str, scenario: str, policy: str) -> str:
    """The prefix of every game's generator seed: game ``i`` is played with
    ``random.Random(f"{prefix}:{i}")``.

    >>> game_seed(1, "ohw", "ohw04_take_the_high_ground", "random")
    '1:ohw/ohw04_take_the_high_ground:random'
    """
    return f"{seed}:{system}/{scenario}:{policy}"


def play_games(batch: Batch, factory: Callable[[], Any], policy: Callable) -> BatchResult:
    """Play a batch's games from ``factory`` under ``policy``.

    Raises:
        EngineError: a game broke the protocol (:class:`~pipeline.play.runner.RuleBug`).
    """
    import time

    cpu0 = time.process_time()
    wins = [0] * batch.sides
    cut = turns = 0
    stats: dict[str, int] = {}
    for i in range(batch.start, batch.stop):
        seed = f"{batch.seed}:{i}"
        try:
            r = play_game(factory, policy, random.Random(seed), batch.turn_cap)
        except RuleBug as bug:
            raise EngineError(f"{batch.label}: engine error in game {i} ({batch.policy} policy; replay it with random.Random({seed!r})): "
                              f"{bug.what}; {bug.state}") from None
        if r.winner is not None:
            wins[r.winner] += 1
        cut += r.cut_off
        turns += r.turns
        for k, n in r.stats:
            stats[k] = stats.get(k, 0) + n
    return BatchResult(batch.start, batch.stop - batch.start, tuple(wins), cut, turns, tuple(sorted(stats.items())), time.process_time() - cpu0)


# ------------------------------------------------------------------------ executors
class Executor(Protocol):
    """Where batches run (``fn(batch) -> BatchResult``, a module-level function): ``slots``
    batches at once."""

    slots: int

    def submit(self, batch: Batch) -> Any: ...

    def wait(self, futures: Iterable[Any]) -> set: ...

    def close(self) -> None: ...


class SerialExecutor:
    """Batches played here, one at a time."""

    slots = 1

    def __init__(self, fn: Callable[[Batch], BatchResult]):
        self.fn = fn

    def submit(self, batch: Batch):
        from concurrent.futures import Future

        f: Future = Future()
        try:
            f.set_result(self.fn(batch))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller through the future
            f.set_exception(exc)
        return f

    def wait(self, futures):
        return set(futures)

    def close(self) -> None:
        pass


class PoolExecutor:
    """Batches on ``workers`` processes forked from this one (which has the states' factories,
    :func:`register`, and warm caches)."""

    def __init__(self, fn: Callable[[Batch], BatchResult], workers: int):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.fn, self.slots = fn, workers
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))

    def submit(self, batch: Batch):
        return self.pool.submit(self.fn, batch)

    def wait(self, futures):
        from concurrent.futures import FIRST_COMPLETED, wait

        return wait(list(futures), return_when=FIRST_COMPLETED).done

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class DaskMissing(GunbaiError):
    """``--dask`` without the optional extra installed."""


#: How to get the Dask extra (printed when it is missing).
DASK_INSTALL = "pip install 'gunbai[dask]' (in a checkout: .venv/bin/pip install -e '.[dask]')"


def dask_available() -> bool:
    """Whether ``dask.distributed`` can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


class DaskExecutor:
    """Batches on an existing ``dask.distributed`` cluster (one task per batch, never per game).
    Its workers need the same gunbai code (the batch function checks it) and the data folder at
    the same path.

    Raises:
        DaskMissing: the ``dask`` extra is not installed.
        GunbaiError: the scheduler cannot be reached.
    """

    def __init__(self, fn: Callable[[Batch], BatchResult], address: str, timeout: float = 20.0):
        self.fn = fn
        try:
            from distributed import Client
        except ImportError:
            raise DaskMissing(f"--dask needs the optional Dask extra: {DASK_INSTALL}") from None
        try:
            self.client = Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise GunbaiError(f"--dask {address}: cannot reach the Dask scheduler: {exc}") from None
        self.slots = max(1, sum(self.client.nthreads().values()))

    def submit(self, batch: Batch):
        return self.client.submit(self.fn, batch, pure=False)

    def wait(self, futures):
        from distributed import wait

        with self.client.as_current():
            return set(wait(list(futures), return_when="FIRST_COMPLETED").done)

    def close(self) -> None:
        self.client.close()


# ------------------------------------------------------------------------ verdicts
@dataclass(frozen=True)
class Task:
    """One verdict to reach: a scenario (``ref``, :class:`Batch`) under a policy."""

    ref: Any
    label: str
    side_names: tuple[str, ...]
    policy: str
    proven: bool
    seed: int
    turn_cap: int
    precision: float
    budget: int
    code: str


@dataclass
class Verdict:
    """The games of one scenario under one policy, and what they say.

    Attributes:
        system, scenario, label, side_names, policy, proven, seed, turn_cap, precision, budget:
            what was played (``precision``: the half-width of the first side's 95% interval
            asked for; ``budget``: the most games allowed).
        games: games played; ``wins``: per side; ``cut_off``: games cut off by the turn cap;
        turns: player turns of all the games (cut-off games count the cap).
        stop: ``precision`` (the interval reached it) or ``budget`` (the games ran out first).
        stats: the engine's event counts over the games.
        cpu: the CPU seconds its games took.
        caveat: a line the scenario's every verdict carries (or None).
        findings: the judgement (:mod:`pipeline.play.judge`), as dicts (``file``, ``line``,
            ``scenario``, ``rule``, ``message``).
        band: the judgement line.
        win_band: the data's band of the first side's win rate, for the chart.
    """

    system: str
    scenario: str
    label: str
    side_names: tuple[str, ...]
    policy: str
    proven: bool
    seed: int
    turn_cap: int
    precision: float
    budget: int
    games: int = 0
    wins: tuple[int, ...] = ()
    cut_off: int = 0
    turns: int = 0
    stop: str = "budget"
    stats: dict[str, int] = field(default_factory=dict)
    caveat: str | None = None
    findings: list[dict] = field(default_factory=list)
    band: str = ""
    #: the band of the first side's win rate in the scenario's data (``[min, max]``), or None
    win_band: list[float] | None = None
    #: CPU seconds of the verdict's games (batches played past the stop not counted); not part
    #: of what the verdict says, so not compared
    cpu: float = field(default=0.0, compare=False)

    def rate(self, side: int) -> float:
        return self.wins[side] / self.games if self.games else 0.0

    def interval(self, side: int) -> tuple[float, float]:
        return wilson(self.wins[side], self.games)

    @property
    def reached(self) -> float:
        """The half-width of the first side's 95% interval (the precision reached)."""
        lo, hi = self.interval(0)
        return (hi - lo) / 2

    @property
    def balance(self) -> float:
        """Ludii's Balance: 1 - |p1 - p2| (two sides)."""
        return 1 - abs(self.rate(0) - self.rate(1)) if len(self.wins) >= 2 else 1.0

    @property
    def drawn(self) -> int:
        """Games that ended without a winner (not cut off)."""
        return self.games - sum(self.wins) - self.cut_off

    @property
    def mean_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0

    def lines(self) -> list[str]:
        """The verdict as ``verify --play`` prints it."""
        if not self.proven:
            strength = "strength not proven"
        elif self.policy == "random":
            strength = "no stronger policy proven head to head on this scenario"
        else:
            strength = "strength proven head to head"
        if self.stop == "precision":
            stop = f"stopped at the precision asked (first side ±{self.reached * 100:.1f} points, asked ±{self.precision * 100:g})"
        else:
            stop = f"stopped at the budget of {self.budget} games: first side ±{self.reached * 100:.1f} points (asked ±{self.precision * 100:g})"
        out = [f"{self.label}: {self.policy} policy ({strength}), {self.games} games, seed {self.seed}; {stop}"]
        for i, name in enumerate(self.side_names):
            lo, hi = self.interval(i)
            out.append(f"  {name}: wins {self.wins[i]} = {self.rate(i):.1%} (95% CI {lo:.1%}-{hi:.1%})")
        g = self.games or 1
        out.append(f"  Balance {self.balance:.2f} (1 - |p1 - p2|); cut off by the turn cap of {self.turn_cap} player turns: "
                   f"{self.cut_off} ({self.cut_off / g:.1%}); drawn {self.drawn} ({self.drawn / g:.1%}); mean length {self.mean_turns:.1f} player turns")
        if self.caveat:
            out.append(f"  {self.caveat}")
        if self.band:
            out.append(f"  {self.band}")
        return out

    def stats_lines(self) -> list[str]:
        """``--stats``: the events the engine counted (e.g. cards played), grouped by the part
        of their name before ``:``, in total and per game."""
        out = [f"{self.label}: events of the {self.games} games of the {self.policy} policy (total, per game)"]
        groups: dict[str, list[tuple[str, int]]] = {}
        for k, n in sorted(self.stats.items()):
            group, sep, rest = k.partition(":")
            groups.setdefault(group if sep else "other", []).append((rest if sep else k, n))
        if not groups:
            out.append("  none counted")
        for group, items in groups.items():
            out.append(f"  {group}: " + ", ".join(f"{k} {n} ({n / max(1, self.games):.2f})" for k, n in items))
        return out

    def to_json(self) -> dict:
        d = dict(self.__dict__)
        d["side_names"], d["wins"] = list(self.side_names), list(self.wins)
        return d

    @classmethod
    def from_json(cls, d: dict) -> Verdict:
        d = dict(d)
        d["side_names"], d["wins"] = tuple(d["side_names"]), tuple(d["wins"])
        return cls(**d)


def half_width(wins: int, games: int, z: float = Z95) -> float:
    """Half the width of the Wilson interval of ``wins / games``.

    >>> round(half_width(200, 400), 4)
    0.0489
    """
    lo, hi = wilson(wins, games, z)
    return (hi - lo) / 2


@dataclass
class _Run:
    task: Task
    verdict: Verdict
    next_start: int = 0
    done: dict[int, BatchResult] = field(default_factory=dict)
    settled: bool = False
    inflight: int = 0


def play_verdicts(tasks: Sequence[Task], executor: Executor, *, system: str = "",
                  settled: Callable[[int, Verdict], None] | None = None) -> list[Verdict]:
    """Reach the verdict of every task (module docstring), sharing ``executor``'s slots among
    them: each free slot takes the next batch of the unsettled verdict with the fewest batches
    under way. ``settled(i, verdict)`` is called as soon as task ``i``'s verdict is reached (so
    that it can be stored before the others are).

    Raises:
        EngineError: a game broke the protocol.
    """
    runs = [_Run(t, Verdict(system or t.ref.system, t.ref.playable, t.label, t.side_names, t.policy, t.proven, t.seed, t.turn_cap,
                            t.precision, t.budget, wins=tuple(0 for _ in t.side_names))) for t in tasks]
    futures: dict[Any, _Run] = {}
    played = 0
    try:
        while True:
            while len(futures) < executor.slots:
                open_ = [r for r in runs if not r.settled and r.next_start < r.task.budget]
                if not open_:
                    break
                run = min(open_, key=lambda r: r.inflight)
                t = run.task
                stop = min(t.budget, run.next_start + BATCH)
                b = Batch(t.ref, t.policy, game_seed(t.seed, t.ref.system, t.ref.playable, t.policy), run.next_start, stop, t.turn_cap,
                          t.label, t.code, len(t.side_names))
                futures[executor.submit(b)] = run
                run.next_start = stop
                run.inflight += 1
            if not futures:
                break
            for f in executor.wait(futures):
                run = futures.pop(f)
                run.inflight -= 1
                res: BatchResult = f.result()
                if run.settled:
                    continue
                run.done[res.start] = res
                played += res.games
                _advance(run)
                if run.settled and settled is not None:
                    settled(runs.index(run), run.verdict)
                progress.count(sum(r.settled for r in runs), len(runs), f"verdicts reached ({played} games played)")
    finally:
        for f in futures:
            try:
                f.cancel()
            except Exception:  # noqa: BLE001 - a future that cannot be cancelled is left to finish
                pass
    return [r.verdict for r in runs]


def _advance(run: _Run) -> None:
    """Fold the batches that follow the verdict's games in order, and stop when the rule says."""
    v, t = run.verdict, run.task
    while not run.settled and v.games in run.done:
        res = run.done.pop(v.games)
        v.games += res.games
        v.wins = tuple(a + b for a, b in zip(v.wins, res.wins, strict=True))
        v.cut_off += res.cut_off
        v.turns += res.turns
        v.cpu += res.cpu
        for k, n in res.stats:
            v.stats[k] = v.stats.get(k, 0) + n
        if half_width(v.wins[0], v.games) <= t.precision:
            v.stop, run.settled = "precision", True
        elif v.games >= t.budget:
            v.stop, run.settled = "budget", True
    if run.settled:
        run.done.clear()
