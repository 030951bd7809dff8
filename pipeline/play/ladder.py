"""The strength ladder of a system's policies, proven by head-to-head play on a scenario.

A ladder is a list of policies from the weakest up (random < greedy < … < ISMCTS). Each adjacent
pair ``(weaker W, stronger S)`` plays three seeded runs of ``games`` games
(:func:`pipeline.play.runner.run_many`, one policy per player): W against W (the baseline),
S on side 0 against W, and W against S on side 1. On each side, S's win rate against W is set
beside W's own win rate on that side against W: the **difference** of the two proportions with
its 95% interval (:func:`newcombe`). S is proven stronger than W on that side when the
difference is at least :data:`MARGIN` (10 points) and its interval excludes zero (lower bound
above 0), and proven stronger than W on the scenario when that holds on both sides (issue 25:
"on each side, it wins at least 10 points more than the weaker policy does on that side against
the same opponent, with the 95% interval excluding zero"). Games cut off by the turn cap or
drawn count as not won. Each run's games have their own seed, derived from the ladder's seed and
the two policies' names (:func:`run_seed`), so the two samples of a difference are independent
and the result is the same on any number of worker processes.

:func:`run_ladder` returns a :class:`Ladder`: per pair and side the games, both win rates, the
difference with its interval and the verdict, and the strongest policy proven (the top of the
unbroken run of proven pairs from the bottom), which ``lines()`` prints for a terminal and
``markdown()`` as README table rows.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pipeline.play.protocol import GameState, Policy
from pipeline.play.runner import Z95, Job, PlayabilityReport, run_many, wilson

#: How many points (a share) more than the weaker policy the stronger one must win on a side.
MARGIN = 0.10


def newcombe(x1: int, n1: int, x2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (R. G. Newcombe, "Interval estimation for the difference
    between independent proportions: comparison of eleven methods", Statistics in Medicine 17,
    1998, pp. 873-890, method 10) of ``p1 - p2`` for ``p1 = x1 / n1`` and ``p2 = x2 / n2``, two
    independent samples: with ``(l1, u1)`` and ``(l2, u2)`` their Wilson score intervals
    (:func:`~pipeline.play.runner.wilson`),

        lower = (p1 - p2) - sqrt((p1 - l1)^2 + (u2 - p2)^2)
        upper = (p1 - p2) + sqrt((u1 - p1)^2 + (p2 - l2)^2)

    It stays inside [-1, 1] and behaves at 0 and n successes, where the Wald interval does not.
    Worked by hand for Newcombe's example (a), 56/70 against 48/80: ``p1 = 0.8`` with Wilson
    interval (0.6918, 0.8770), ``p2 = 0.6`` with (0.4905, 0.7004); lower = 0.2 - sqrt(0.1082^2 +
    0.1004^2) = 0.2 - 0.1476 = 0.0524, upper = 0.2 + sqrt(0.0770^2 + 0.1095^2) = 0.2 + 0.1339 =
    0.3339, the figures of the paper's Table II:

    >>> [round(x, 4) for x in newcombe(56, 70, 48, 80)]
    [0.0524, 0.3339]
    >>> [round(x, 4) for x in newcombe(10, 10, 0, 20)]  # Table II, example (g)
    [0.6791, 1.0]

    Raises:
        ValueError: a sample of no games, or successes outside ``0..n``.
    """
    if n1 <= 0 or n2 <= 0 or not (0 <= x1 <= n1) or not (0 <= x2 <= n2):
        raise ValueError(f"newcombe needs 0 <= x <= n and n > 0, not {x1}/{n1} and {x2}/{n2}")
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    return d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def run_seed(seed: int, policy0: str, policy1: str) -> int:
    """The seed of the run of ``policy0`` (side 0) against ``policy1`` (side 1) in a ladder of
    seed ``seed``: a CRC-32 of the three, the same in every process.

    >>> run_seed(1, "greedy", "random") == run_seed(1, "greedy", "random") != run_seed(1, "random", "greedy")
    True
    """
    return zlib.crc32(f"ladder:{seed}:{policy0}:{policy1}".encode())


@dataclass(frozen=True)
class LadderSide:
    """One side of one pair of a ladder.

    Attributes:
        side: the side's index (0 or 1).
        name: the side's name in the scenario.
        games: games of the stronger policy on this side against the weaker one.
        wins: of those, the games it won.
        win_rate: ``wins / games``.
        baseline_games: games of the weaker policy against itself.
        baseline_wins: of those, the games this side won.
        baseline_rate: ``baseline_wins / baseline_games``.
        difference: ``win_rate - baseline_rate``.
        interval: its 95% Newcombe hybrid score interval (:func:`newcombe`).
        stronger: ``difference >= MARGIN`` and ``interval[0] > 0``.
    """

    side: int
    name: str
    games: int
    wins: int
    win_rate: float
    baseline_games: int
    baseline_wins: int
    baseline_rate: float
    difference: float
    interval: tuple[float, float]
    stronger: bool


@dataclass(frozen=True)
class LadderPair:
    """An adjacent pair of a ladder: ``stronger`` is proven stronger than ``weaker`` when it is
    on both sides (:attr:`proven`); ``reports`` are the three runs' playability reports (``W v
    W``, ``S v W``, ``W v S``)."""

    weaker: str
    stronger: str
    sides: tuple[LadderSide, LadderSide]
    reports: tuple[PlayabilityReport, ...] = ()

    @property
    def proven(self) -> bool:
        return all(s.stronger for s in self.sides)


@dataclass(frozen=True)
class Ladder:
    """A ladder run on one scenario (module docstring).

    Attributes:
        label: the scenario.
        policies: the policies' names, weakest first.
        pairs: one :class:`LadderPair` per adjacent pair, from the bottom.
        seed: the ladder's seed.
        turn_cap: player turns after which a game is cut off (not won by either side).
    """

    label: str
    policies: tuple[str, ...]
    pairs: tuple[LadderPair, ...]
    seed: int
    turn_cap: int

    @property
    def strongest(self) -> str:
        """The strongest policy proven: the top of the proven pairs climbed from the bottom (the
        weakest policy when the first pair is not proven)."""
        top = self.policies[0]
        for p in self.pairs:
            if not p.proven:
                break
            top = p.stronger
        return top

    def lines(self) -> list[str]:
        """The ladder for a terminal: per pair and side, both win rates, the difference with its
        interval and the verdict; then the strongest policy proven."""
        out = [f"{self.label}: ladder {' < '.join(self.policies)} (seed {self.seed}, turn cap {self.turn_cap} player turns)"]
        for p in self.pairs:
            out.append(f"  {p.stronger} over {p.weaker}: {'stronger' if p.proven else 'not proven stronger'}")
            for s in p.sides:
                lo, hi = s.interval
                out.append(f"    {s.name} (side {s.side}): {p.stronger} won {s.wins}/{s.games} = {s.win_rate:.1%} against {p.weaker}, "
                           f"{p.weaker} {s.baseline_wins}/{s.baseline_games} = {s.baseline_rate:.1%}; difference "
                           f"{100 * s.difference:+.1f} points (95% CI {100 * lo:+.1f} to {100 * hi:+.1f}): "
                           f"{'stronger' if s.stronger else 'not shown'}")
        out.append(f"  strongest policy proven: {self.strongest}")
        return out

    def markdown(self) -> list[str]:
        """README table rows: ``| scenario | pair | side | games | S wins | W wins | difference
        (95% CI) | verdict |``, one row per pair and side."""
        rows = []
        for p in self.pairs:
            for s in p.sides:
                lo, hi = s.interval
                rows.append(f"| {self.label} | {p.stronger} > {p.weaker} | {s.name} | {s.games} / {s.baseline_games} | "
                            f"{s.win_rate:.0%} | {s.baseline_rate:.0%} | {100 * s.difference:+.0f} ({100 * lo:+.0f} to {100 * hi:+.0f}) | "
                            f"{'stronger' if s.stronger else 'not shown'} |")
        return rows


#: The header of :meth:`Ladder.markdown`'s rows.
MARKDOWN_HEADER = ["| scenario | pair (S > W) | side | games S v W / W v W | S wins | W wins | difference, points (95% CI) | verdict |",
                   "|---|---|---|---|---|---|---|---|"]


def _side(i: int, name: str, mixed: PlayabilityReport, base: PlayabilityReport) -> LadderSide:
    w, n = mixed.sides[i].wins, mixed.games
    bw, bn = base.sides[i].wins, base.games
    d = w / n - bw / bn
    lo, hi = newcombe(w, n, bw, bn)
    return LadderSide(i, name, n, w, w / n, bn, bw, bw / bn, d, (lo, hi), d >= MARGIN - 1e-12 and lo > 0)


def _counts(games: int | Sequence[int], pairs: int, what: str) -> list[int]:
    counts = [games] * pairs if isinstance(games, int) else list(games)
    if len(counts) != pairs or any(g < 1 for g in counts):
        raise ValueError(f"a ladder of {pairs + 1} policies needs {pairs} positive {what}, not {games!r}")
    return counts


def ladder_jobs(state_factory: Callable[[], GameState], ladder: Sequence[tuple[str, Policy]], games: int | Sequence[int], *,
                seed: int, turn_cap: int, side_names: Sequence[str] = ("side 0", "side 1"), label: str = "",
                baseline_games: int | Sequence[int] | None = None) -> list[Job]:
    """The runs of a ladder (module docstring) as :class:`~pipeline.play.runner.Job` s, three per
    adjacent pair in order (W v W, S v W, W v S); ``games`` is one count for every pair or one
    per pair, ``baseline_games`` the same for the W v W runs (default: ``games``; more where W
    is cheap narrows the interval at little cost). Raises ``ValueError`` for fewer than 2
    policies, a repeated name, or a count that is not positive."""
    names = [n for n, _ in ladder]
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"a ladder needs at least 2 policies with distinct names, not {names}")
    counts = _counts(games, len(names) - 1, "game counts")
    bases = counts if baseline_games is None else _counts(baseline_games, len(names) - 1, "baseline game counts")
    jobs = []
    for (wn, w), (sn, s), g, bg in zip(ladder, ladder[1:], counts, bases, strict=False):
        for a, pa, b, pb, n in ((wn, w, wn, w, bg), (sn, s, wn, w, g), (wn, w, sn, s, g)):
            jobs.append(Job(state_factory, [pa, pb], n, run_seed(seed, a, b), turn_cap, side_names,
                            f"{label} / {a} v {b}" if label else f"{a} v {b}"))
    return jobs


def ladder_from_reports(ladder: Sequence[str], reports: Sequence[PlayabilityReport], *, seed: int, turn_cap: int,
                        side_names: Sequence[str] = ("side 0", "side 1"), label: str = "") -> Ladder:
    """The :class:`Ladder` of the reports of :func:`ladder_jobs`' runs (in its order), for a
    caller that ran them itself (several scenarios in one pool)."""
    pairs = []
    for k, (wn, sn) in enumerate(zip(ladder, ladder[1:], strict=False)):
        base, s0, s1 = reports[3 * k: 3 * k + 3]
        pairs.append(LadderPair(wn, sn, (_side(0, side_names[0], s0, base), _side(1, side_names[1], s1, base)), (base, s0, s1)))
    return Ladder(label, tuple(ladder), tuple(pairs), seed, turn_cap)


def run_ladder(state_factory: Callable[[], GameState], ladder: Sequence[tuple[str, Policy]], games: int | Sequence[int], *,
               seed: int, turn_cap: int, side_names: Sequence[str] = ("side 0", "side 1"), label: str = "",
               workers: int = 1, chunk: int = 50, baseline_games: int | Sequence[int] | None = None) -> Ladder:
    """Play the ladder ``[(name, policy), …]`` (weakest first) on one scenario (module
    docstring): ``games`` games per run (one count, or one per adjacent pair; ``baseline_games``
    for the weaker policy's games against itself, as :func:`ladder_jobs` takes them), every run's
    games in one pool of ``workers`` processes (the factory and policies must then pickle), sent
    ``chunk`` games at a time (a few for dear policies such as ISMCTS, so that no worker idles).

    Raises:
        ValueError: fewer than 2 policies, a repeated name, a game count below 1.
    """
    jobs = ladder_jobs(state_factory, ladder, games, seed=seed, turn_cap=turn_cap, side_names=side_names, label=label,
                       baseline_games=baseline_games)
    reports = run_many(jobs, workers=workers, chunk=chunk)
    return ladder_from_reports([n for n, _ in ladder], reports, seed=seed, turn_cap=turn_cap, side_names=side_names, label=label)
