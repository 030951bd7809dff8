"""Judging a balance verdict by the scenario's ``playability:``
(:class:`pipeline.data.playability.Playability`): the rules of play every system shares, and the
findings they give.

Without a band in the data a verdict is reported as it is; the sanity rules ``games-end`` and
``both-sides-win`` apply to every verdict (a side that never wins, games that do not end). With
``win_rate`` or ``min_balance`` the verdict passes or is flagged; a flag is a finding that cites
the scenario's file and the line of its ``playability:``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import DataError, DataProblem
from pipeline.legality import LegalityRule, rules

_WHERE = "Playability (pipeline/play/judge.py)"

#: The rules of play (part of every system's ``RULES``, so ``verify --explain`` lists them).
PLAY_RULES = rules(
    LegalityRule("games-end", "At most the scenario's playability.max_cut_off_share of the verdict's seeded games are cut off by the turn cap (default 0.2; 1.0 for uniform random play; gunbai verify --play).", "gunbai", _WHERE),
    LegalityRule("both-sides-win", "Each side wins more than the scenario's playability.min_win_rate of the verdict's seeded games (default 0: at least one; gunbai verify --play).", "gunbai", _WHERE),
    LegalityRule("win-rate-band", "The first side's win rate in the verdict lies in the scenario's playability.win_rate band (gunbai verify --play).", "gunbai", _WHERE),
    LegalityRule("balance-band", "The verdict's Balance, 1 - |p1 - p2| (Ludii's measure), is at least the scenario's playability.min_balance (gunbai verify --play).", "gunbai", _WHERE),
)

#: The largest share of games a policy may see cut off by default (``random`` wanders).
DEFAULT_CUT_OFF_SHARE = {"random": 1.0}
DEFAULT_CUT_OFF_SHARE_OTHERS = 0.2


@dataclass(frozen=True)
class PlayFinding:
    """A verdict the scenario's ``playability:`` flags: one line with the file, line, scenario,
    rule, message and the rule's source."""

    file: str
    line: int | None
    scenario: str
    rule: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        r = PLAY_RULES[self.rule]
        return f"{where}: {self.scenario}: {r.id}: {self.message} [{r.doc}, {r.section}]"


def by_policy(table, policy: str, ladder: Sequence[str], default):
    """``table[policy]``, else the entry of the nearest weaker policy of ``ladder`` other than
    ``random``, else ``default``.

    >>> by_policy({"greedy": 90}, "rollout", ["random", "greedy", "rollout"], 40)
    90
    >>> by_policy({"greedy": 90}, "random", ["random", "greedy", "rollout"], 40)
    40
    """
    if policy in table:
        return table[policy]
    names = list(ladder)
    below = names[: names.index(policy)] if policy in names else []
    for name in reversed(below):
        if name != "random" and name in table:
            return table[name]
    return default


def check_policies(playability, ladder: Sequence[str], file: Path | None, doc_line) -> None:
    """Refuse a ``turn_cap`` or ``max_cut_off_share`` key that is not a policy of the ladder.

    Args:
        doc_line: ``doc_line(("playability", "turn_cap", key))`` → line, or None.

    Raises:
        DataError: names the file, line, key and the ladder's policies.
    """
    problems = []
    for table, keys in (("turn_cap", playability.turn_cap), ("max_cut_off_share", playability.max_cut_off_share)):
        for key in keys:
            if key not in ladder:
                problems.append(DataProblem(file or Path("?"), doc_line(("playability", table, key)), f"playability.{table}", repr(key),
                                            f"a policy of the ladder ({', '.join(ladder)})"))
    if problems:
        raise DataError(problems)


def judge(verdict, playability, ladder: Sequence[str], file: Path | None, line: int | None) -> tuple[list[dict], str]:
    """The findings (as dicts: ``file``, ``line``, ``scenario``, ``rule``, ``message``) and the
    judgement line of ``verdict`` (:class:`pipeline.play.verdict.Verdict`) under ``playability``."""
    where = str(file) if file is not None else verdict.label
    out: list[dict] = []

    def flag(rule: str, message: str) -> None:
        out.append({"file": where, "line": line, "scenario": verdict.label, "rule": rule, "message": message})

    g = verdict.games
    share = by_policy(playability.max_cut_off_share, verdict.policy, ladder,
                       DEFAULT_CUT_OFF_SHARE.get(verdict.policy, DEFAULT_CUT_OFF_SHARE_OTHERS))
    if g and verdict.cut_off / g > share:
        flag("games-end", f"under the {verdict.policy} policy {verdict.cut_off / g:.1%} of {g} games were cut off by the turn cap of "
                          f"{verdict.turn_cap} player turns (at most {share:.0%} allowed)")
    for i, side in enumerate(verdict.side_names):
        if g and verdict.rate(i) <= playability.min_win_rate:
            flag("both-sides-win", f"{side} won {verdict.wins[i]} of {g} games of the {verdict.policy} policy ({verdict.rate(i):.1%}; "
                                   f"more than {playability.min_win_rate:.0%} needed)")
    parts = []
    band = playability.win_rate
    if band is not None:
        p, (lo, hi) = verdict.rate(0), verdict.interval(0)
        inside = band.min <= p <= band.max
        sure = (band.min <= lo and hi <= band.max) if inside else (hi < band.min or lo > band.max)
        certainty = "the 95% interval agrees" if sure else "not decided at this precision: the 95% interval crosses the band's edge"
        parts.append(f"first side {p:.1%} {'in' if inside else 'outside'} the band {band.min:.0%}-{band.max:.0%} ({certainty})")
        if not inside:
            flag("win-rate-band", f"{verdict.side_names[0]} won {p:.1%} (95% CI {lo:.1%}-{hi:.1%}) of {g} games of the {verdict.policy} policy, "
                                  f"outside the band {band.min:.0%}-{band.max:.0%}")
    if playability.min_balance is not None:
        ok = verdict.balance >= playability.min_balance
        parts.append(f"Balance {verdict.balance:.2f} {'at least' if ok else 'below'} {playability.min_balance:.2f}")
        if not ok:
            flag("balance-band", f"Balance {verdict.balance:.2f} of {g} games of the {verdict.policy} policy is below the scenario's "
                                 f"min_balance {playability.min_balance:.2f}")
    if parts:
        text = f"playability: {'flag' if out else 'pass'}: " + "; ".join(parts)
    elif out:
        text = "playability: flag (no band in the data; the checks every scenario gets)"
    else:
        text = "playability: no band in the data (playability.win_rate or min_balance): verdict only"
    return out, text


def findings_of(dicts: Sequence[dict]) -> list[PlayFinding]:
    """The findings of a judgement (:func:`judge`) as :class:`PlayFinding`."""
    return [PlayFinding(d["file"], d["line"], d["scenario"], d["rule"], d["message"]) for d in dicts]
