"""Seeded games of every game of ``games/`` for ``gunbai verify --play``."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.systems.ronin.engine.game import RoninGame, UnplayableGame, turn_cap


@dataclass(frozen=True)
class NotPlayed:
    """A game ``gunbai verify --play`` could not play, with the reason (a model's unknown
    statline): printed as one line in place of its report."""

    label: str
    reason: str

    def lines(self) -> list[str]:
        return [f"{self.label}: not played: {self.reason}"]


def play(data_dir, n: int, seed: int, *, workers: int = 1) -> list:
    """``n`` seeded random-policy games of every game of ``games/``: a
    :class:`pipeline.play.PlayabilityReport` per game (win rate of each side with its 95%
    interval, mean length in turns, share cut off by :func:`turn_cap`), or a
    :class:`NotPlayed` for a game with a model whose statline is ``unknown``."""
    from pipeline.play import Job, random_policy, run_many
    from pipeline.systems.ronin.load import load

    data = load(data_dir)
    out: list = []
    jobs, slots = [], []
    for lg in data.games:
        try:
            g = RoninGame.from_game(data, lg.value)
        except UnplayableGame as exc:
            out.append(NotPlayed(f"ronin {lg.value.id}", str(exc).split(": cannot be played: ", 1)[-1]))
            continue
        slots.append(len(out))
        out.append(None)
        jobs.append(Job(g.new_state, random_policy, n, seed, turn_cap(g), side_names=[f"{s.role} ({s.name})" for s in g.sides], label=f"{g.label()} (random play)"))
    for k, rep in zip(slots, run_many(jobs, workers=workers), strict=True):
        out[k] = rep
    return out
