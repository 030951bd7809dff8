"""Play seeded games and summarise them: the playability report.

Every game ``i`` of a run gets its own generator ``random.Random(f"{seed}:{i}")``, so a report
depends only on the seed and the number of games (not on how games are spread over worker
processes): same seed, same report.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from pipeline import progress
from pipeline.errors import GunbaiError
from pipeline.play.protocol import GameState, Policy, random_policy, sample_chance

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (95% by default).

    >>> lo, hi = wilson(0, 10); round(lo, 4), round(hi, 4)
    (0.0, 0.2775)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


#: Actions (and chance outcomes) applied without a new player turn after which a game is taken
#: to repeat its positions without progress (:class:`RuleBug`): the longest turn of the four
#: engines takes a few hundred.
MAX_STEPS_PER_TURN = 100_000
#: Actions listed in a :class:`RuleBug`'s description of the state.
TRACE = 8


class RuleBug(GunbaiError):
    """A rules engine broke the game protocol during play: the player to move has no legal
    action although the game is not over, or the game goes on without progress (more than
    :data:`MAX_STEPS_PER_TURN` actions without a new player turn, or ``max_steps`` in all). An
    engine error, never a game cut off by the turn cap.

    Attributes:
        what: what went wrong (one sentence).
        state: a description of the state (player turn, the player to move, his legal actions,
            the last actions applied).
    """

    def __init__(self, what: str, state: str):
        self.what, self.state = what, state
        super().__init__(f"{what}; state: {state}")

    def __reduce__(self):
        return (RuleBug, (self.what, self.state))


def _describe(turns: int, player, opts, last) -> str:
    shown = ", ".join(repr(o) for o in list(opts)[:6]) + (", …" if len(opts) > 6 else "")
    return (f"player turn {turns}, player {player} to move, legal actions [{shown}]; "
            f"last actions applied: {', '.join(repr(a) for a in last) or 'none'}")


@dataclass(frozen=True)
class GameResult:
    """One game: the winner (``None`` = cut off or drawn), player turns played, cut off by the
    turn cap, actions and chance outcomes applied, and what the engine counted of the game
    (``stats``: ``(event, count)`` pairs from the state's optional ``play_stats()``, e.g. cards
    played)."""

    winner: int | None
    turns: int
    cut_off: bool
    steps: int
    stats: tuple[tuple[str, int], ...] = ()


def play_game(state_factory: Callable[[], GameState], policies: Sequence[Policy] | Policy,
              rng: random.Random, turn_cap: int, *, max_steps: int = 1_000_000) -> GameResult:
    """Play one game to its end or until more than ``turn_cap`` player turns were begun.

    Args:
        state_factory: makes the initial state.
        policies: one policy per player, or one for all.
        rng: drives chance outcomes and the policies.
        turn_cap: player turns after which the game is cut off.
        max_steps: a safety net against an engine that never ends a game.

    Raises:
        RuleBug: the player to move has no legal action and the game is not over, or the game
            makes no progress (:data:`MAX_STEPS_PER_TURN` actions without a new player turn, or
            ``max_steps`` actions in all).

    A state with the fused step (:class:`~pipeline.play.protocol.SteppedState`) is played through
    ``step`` alone, with the same draws of ``rng`` and the same result as through the protocol
    calls; :func:`~pipeline.play.protocol.random_policy` and
    :func:`~pipeline.play.protocol.sample_chance` are then applied inline (the same ``rng`` draws
    on the same lists).
    """
    state = state_factory()
    pols = policies if isinstance(policies, Sequence) else None
    stats = getattr(state, "play_stats", None)
    if getattr(state, "step", None) is not None and getattr(state, "view", None) is not None:
        return _play_stepped(state, pols, policies, rng, turn_cap, max_steps, stats)
    steps = 0
    last: deque = deque(maxlen=TRACE)
    turn, since = state.turn_count(), 0
    while not state.is_terminal():
        turns = state.turn_count()
        if turns != turn:
            turn, since = turns, 0
        if turns > turn_cap:
            return GameResult(None, min(turns, turn_cap), True, steps, stats() if stats else ())
        if since >= MAX_STEPS_PER_TURN or steps >= max_steps:
            _no_progress(since, steps, turns, state.current_player(), [] if state.is_chance_node() else state.legal_actions(), last)
        if state.is_chance_node():
            a = sample_chance(state.chance_outcomes(), rng)
        else:
            who = state.current_player()
            if not state.legal_actions():
                raise RuleBug(f"player {who} has no legal action and the game is not over", _describe(turns, who, [], last))
            p = pols[who] if pols is not None else policies  # type: ignore[index]
            a = p(state, rng)  # type: ignore[operator]
        state.apply_action(a)
        last.append(a)
        steps += 1
        since += 1
    return GameResult(state.winner(), state.turn_count(), False, steps, stats() if stats else ())


def _no_progress(since: int, steps: int, turns: int, player, opts, last) -> None:
    what = (f"{since} actions without a new player turn: the game repeats its positions without progress"
            if since >= MAX_STEPS_PER_TURN else f"{steps} actions in all without an end: the game makes no progress")
    raise RuleBug(what, _describe(turns, player, opts, last))


def _randrange_draws_bits() -> bool:
    """``random.Random.randrange(n)`` draws ``n.bit_length()`` bits with ``getrandbits`` until
    they are below ``n`` (CPython's ``_randbelow_with_getrandbits``): checked on 2000 draws of
    two equally seeded generators, so that :func:`_play_stepped` may draw inline exactly what
    :func:`~pipeline.play.protocol.random_policy` draws (it falls back to ``randrange`` if not)."""
    a, b = random.Random("randrange check"), random.Random("randrange check")
    for i in range(2000):
        n = 1 + i % 37 + (i % 5) * 1000
        k = n.bit_length()
        r = b.getrandbits(k)
        while r >= n:
            r = b.getrandbits(k)
        if a.randrange(n) != r:
            return False
    return True


#: :func:`_play_stepped` draws ``random_policy``'s choice inline (:func:`_randrange_draws_bits`).
_INLINE_RANDRANGE = _randrange_draws_bits()


def _play_stepped(state, pols, policies, rng: random.Random, turn_cap: int, max_steps: int, stats) -> GameResult:
    """:func:`play_game`'s loop on a :class:`~pipeline.play.protocol.SteppedState`: one
    ``step`` call per action or chance outcome; with :func:`~pipeline.play.protocol.random_policy`
    for every player and a plain ``random.Random``, its ``randrange`` draw made inline."""
    step = state.step
    player, opts, turns = state.view()
    if pols is not None:
        inline_random = all(p is random_policy for p in pols)
    else:
        inline_random = policies is random_policy
    randrange = rng.randrange
    bits = rng.getrandbits if _INLINE_RANDRANGE and type(rng) is random.Random else None
    uniform = rng.random
    steps = 0
    last: deque = deque(maxlen=TRACE)
    push = last.append
    turn, since = turns, 0
    while player is not None:
        if turns != turn:
            turn, since = turns, 0
        if turns > turn_cap:
            return GameResult(None, min(turns, turn_cap), True, steps, stats() if stats else ())
        if since >= MAX_STEPS_PER_TURN or steps >= max_steps:
            _no_progress(since, steps, turns, player, opts if player >= 0 else [], last)
        if player >= 0 and not opts:
            raise RuleBug(f"player {player} has no legal action and the game is not over", _describe(turns, player, opts, last))
        if player < 0:  # sample_chance inlined: the same one rng.random() draw, the same outcome
            x = uniform()
            acc = 0.0
            for o, p in opts:
                acc += p
                if x < acc:
                    a = o
                    break
            else:
                a = opts[-1][0]
        elif inline_random:
            n = len(opts)
            if bits is not None:
                k = n.bit_length()
                r = bits(k)
                while r >= n:
                    r = bits(k)
                a = opts[r]
            else:
                a = opts[randrange(n)]
        else:
            a = (pols[player] if pols is not None else policies)(state, rng)  # type: ignore[operator]
        player, opts, turns = step(a)
        push(a)
        steps += 1
        since += 1
    return GameResult(state.winner(), turns, False, steps, stats() if stats else ())


@dataclass(frozen=True)
class SideReport:
    """One side in a playability report."""

    name: str
    wins: int
    win_rate: float
    interval: tuple[float, float]


@dataclass(frozen=True)
class PlayabilityReport:
    """``games`` seeded games of one game under one policy.

    Attributes:
        label: what was played (scenario and policy).
        games: games played.
        sides: per side, wins, win rate and its 95% Wilson interval.
        mean_turns: mean game length in player turns (cut-off games count the cap).
        cut_off: games stopped by the turn cap.
        cut_off_share: ``cut_off / games``.
        turn_cap: the cap.
        seed: the seed.
    """

    label: str
    games: int
    sides: list[SideReport]
    mean_turns: float
    cut_off: int
    cut_off_share: float
    turn_cap: int
    seed: int
    results: list[GameResult] = field(default_factory=list, repr=False, compare=False)

    def event_totals(self) -> dict[str, int]:
        """Every ``stats`` event of the games, summed (e.g. cards played)."""
        out: dict[str, int] = {}
        for r in self.results:
            for k, n in r.stats:
                out[k] = out.get(k, 0) + n
        return dict(sorted(out.items()))

    def lines(self) -> list[str]:
        out = [f"{self.label}: {self.games} games, seed {self.seed}, turn cap {self.turn_cap} player turns"]
        for s in self.sides:
            lo, hi = s.interval
            out.append(f"  {s.name}: wins {s.wins} = {s.win_rate:.1%} (95% CI {lo:.1%}-{hi:.1%})")
        out.append(f"  mean length {self.mean_turns:.1f} player turns; {self.cut_off} of {self.games} games ({self.cut_off_share:.1%}) "
                   f"cut off unfinished at the turn cap of {self.turn_cap} player turns")
        return out


def _chunk(args) -> list[GameResult]:
    factory, policies, seed, start, stop, turn_cap = args
    return [play_game(factory, policies, random.Random(f"{seed}:{i}"), turn_cap) for i in range(start, stop)]


@dataclass(frozen=True)
class Job:
    """One :func:`run_playability` call, for :func:`run_many`."""

    state_factory: Callable[[], GameState]
    policies: Sequence[Policy] | Policy
    games: int
    seed: int
    turn_cap: int
    side_names: Sequence[str] = ("side 0", "side 1")
    label: str = ""


def _report(job: Job, results: list[GameResult]) -> PlayabilityReport:
    n = len(results)
    sides = []
    for i, name in enumerate(job.side_names):
        w = sum(1 for r in results if r.winner == i)
        sides.append(SideReport(name, w, w / n if n else 0.0, wilson(w, n)))
    cut = sum(1 for r in results if r.cut_off)
    mean = sum(r.turns for r in results) / n if n else 0.0
    return PlayabilityReport(job.label, n, sides, mean, cut, cut / n if n else 0.0, job.turn_cap, job.seed, results)


def run_many(jobs: Sequence[Job], *, workers: int = 1, chunk: int = 50) -> list[PlayabilityReport]:
    """Several runs at once: with ``workers > 1`` every run's games are cut into chunks of
    ``chunk`` games and all chunks share one pool of processes, so no worker idles while
    another finishes a long run. Same reports as :func:`run_playability` one by one."""
    if workers <= 1:
        reports, done, total = [], 0, sum(j.games for j in jobs)
        for j in jobs:
            results: list[GameResult] = []
            for start in range(0, j.games, chunk):
                results += _chunk((j.state_factory, j.policies, j.seed, start, min(j.games, start + chunk), j.turn_cap))
                done += min(j.games, start + chunk) - start
                progress.count(done, total, f"games ({j.label})" if j.label else "games")
            reports.append(_report(j, results))
        return reports
    tasks = []
    for k, j in enumerate(jobs):
        for start in range(0, j.games, chunk):
            tasks.append((k, (j.state_factory, j.policies, j.seed, start, min(j.games, start + chunk), j.turn_cap)))
    parts: dict[int, list[GameResult]] = {k: [] for k in range(len(jobs))}
    total, done = sum(j.games for j in jobs), 0
    with ProcessPoolExecutor(max_workers=workers) as ex:
        for (k, _), res in zip(tasks, ex.map(_chunk, [t for _, t in tasks]), strict=True):
            parts[k].extend(res)
            done += len(res)
            progress.count(done, total, f"games ({jobs[k].label})" if jobs[k].label else "games")
    return [_report(j, parts[k]) for k, j in enumerate(jobs)]


def run_playability(state_factory: Callable[[], GameState], policies: Sequence[Policy] | Policy, *,
                    games: int, seed: int, turn_cap: int, side_names: Sequence[str] = ("side 0", "side 1"),
                    label: str = "", workers: int = 1) -> PlayabilityReport:
    """Play ``games`` seeded games and report per side the win rate with a 95% Wilson interval,
    the mean game length in turns and the share of games cut off by ``turn_cap``.

    ``workers > 1`` spreads the games over processes (the factory and policies must pickle);
    the report is the same for any number of workers.
    """
    return run_many([Job(state_factory, policies, games, seed, turn_cap, side_names, label)], workers=workers if games >= 2 * workers else 1)[0]
