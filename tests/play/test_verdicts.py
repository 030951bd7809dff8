"""Verdicts with a stated precision (pipeline.play.verdict): the stopping rule, seeds that do not
depend on where batches run, rule bugs found by play, and the judgement by a playability band."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.data.playability import Playability, WinRateBand
from pipeline.play import random_policy
from pipeline.play.judge import findings_of, judge
from pipeline.play.runner import RuleBug, play_game, wilson
from pipeline.play.verdict import (
    BATCH,
    Batch,
    EngineError,
    NoRecord,
    PoolExecutor,
    SerialExecutor,
    Task,
    Verdict,
    choose_policy,
    game_seed,
    half_width,
    play_games,
    play_verdicts,
)

from .test_runner import Race


class Biased(Race):
    """:class:`Race` where player 0 banks every roll and player 1 never does (player 0 always
    wins when ``bias``), else a fair race."""

    def legal_actions(self):
        return ["bank"] if self.player == 0 else ["pass"]


@dataclass(frozen=True)
class ToyRef:
    """A picklable state factory with the names a :class:`Task` needs."""

    playable: str
    biased: bool = False
    system: str = "toy"

    def __call__(self):
        return Biased(10) if self.biased else Race(10)


def toy_batch(batch: Batch):
    """The batch function for toy games (module level: worker processes import it)."""
    return play_games(batch, batch.ref, random_policy)


def _task(ref: ToyRef, *, precision: float = 0.05, budget: int = 400, seed: int = 1) -> Task:
    return Task(ref, f"toy {ref.playable}", ("first", "second"), "random", False, seed, 60, precision, budget, "code")


def test_a_verdict_stops_at_the_precision_asked_at_a_batch_boundary():
    (v,) = play_verdicts([_task(ToyRef("fair"))], SerialExecutor(toy_batch))
    # the same games one by one: the verdict stops at the first batch boundary where the first
    # side's Wilson interval is at most ±5 points
    wins, stop = 0, None
    for i in range(400):
        r = play_game(ToyRef("fair"), random_policy, random.Random(f"{game_seed(1, 'toy', 'fair', 'random')}:{i}"), 60)
        wins += r.winner == 0
        if (i + 1) % BATCH == 0 and half_width(wins, i + 1) <= 0.05:
            stop = (i + 1, wins)
            break
    assert stop is not None and (v.games, v.wins[0]) == stop and v.stop == "precision" and v.reached <= 0.05
    # a side that always wins: 50 games give 0-7.1%, ±3.6 points (Wilson, worked by hand)
    (one,) = play_verdicts([_task(ToyRef("biased", biased=True))], SerialExecutor(toy_batch))
    assert (one.games, one.wins, one.stop) == (50, (50, 0), "precision")
    lo, hi = wilson(0, 50)
    assert round(hi, 3) == 0.071 and one.balance == 0.0


def test_a_budget_spent_first_says_so():
    (v,) = play_verdicts([_task(ToyRef("fair"), budget=30)], SerialExecutor(toy_batch))
    assert (v.games, v.stop) == (30, "budget")  # a batch of 25 and one of 5
    assert "stopped at the budget of 30 games" in v.lines()[0]


def test_same_seeds_same_verdicts_on_one_or_several_processes():
    tasks = [_task(ToyRef(f"s{i}"), precision=0.04) for i in range(3)] + [_task(ToyRef("b", biased=True))]
    one = play_verdicts(tasks, SerialExecutor(toy_batch))
    pool = PoolExecutor(toy_batch, 2)
    try:
        two = play_verdicts(tasks, pool)
    finally:
        pool.close()
    assert one == two
    # each verdict is handed over as soon as it is reached (to be stored before the others)
    seen: dict[int, Verdict] = {}
    assert play_verdicts(tasks, SerialExecutor(toy_batch), settled=lambda i, v: seen.setdefault(i, v)) == one
    assert [seen[i] for i in range(len(tasks))] == one
    # a verdict does not depend on the others played beside it
    assert play_verdicts(tasks[1:2], SerialExecutor(toy_batch)) == one[1:2]
    # each game's seed comes from (seed, scenario, policy, game index)
    assert game_seed(1, "toy", "s0", "random") == "1:toy/s0:random"
    assert one[0] != play_verdicts([_task(ToyRef("s0"), precision=0.04, seed=2)], SerialExecutor(toy_batch))[0]


class NoMoves(Race):
    """A broken engine: after 3 player turns the player to move has no legal action, and the
    game is not over."""

    def legal_actions(self):
        return [] if self.turns > 3 else ["bank", "pass"]


class Loop(Race):
    """A broken engine: the second player's turn never ends: each of his decisions leads back to
    the roll that began it, and no new player turn starts (the position repeats without
    progress)."""

    def apply_action(self, a) -> None:
        if self.player == 1:
            self.pending = a if self.pending is None else None
            return
        super().apply_action(a)


def test_rule_bugs_are_engine_errors_never_cut_off_games():
    with pytest.raises(RuleBug, match=r"player \d has no legal action and the game is not over; state: player turn 4"):
        play_game(NoMoves, random_policy, random.Random(1), turn_cap=60)
    with pytest.raises(RuleBug, match="100000 actions without a new player turn: the game repeats its positions without progress"):
        play_game(Loop, random_policy, random.Random(1), turn_cap=60)
    # through a verdict: the scenario, the policy and the seed that replays the game, and the state
    batch = Batch(ToyRef("broken"), "random", game_seed(7, "toy", "broken", "random"), 0, 5, 60, "toy broken scenario", "code")
    with pytest.raises(EngineError) as exc:
        play_games(batch, NoMoves, random_policy)
    text = str(exc.value)
    assert text.startswith("toy broken scenario: engine error in game 0 (random policy; replay it with random.Random('7:toy/broken:random:0'))")
    assert "has no legal action and the game is not over" in text and "last actions applied: " in text


def _verdict(wins: tuple[int, int], games: int, cut: int = 0) -> Verdict:
    return Verdict("toy", "x", "toy X", ("Red", "Blue"), "greedy", False, 1, 30, 0.05, 1000, games=games, wins=wins, cut_off=cut,
                   turns=10 * games, stop="precision")


def test_the_band_turns_a_verdict_into_pass_or_flag():
    ladder = ["random", "greedy"]
    v = _verdict((240, 160), 400)  # 60%, 95% CI 55.1-64.7%; Balance 1 - |0.6 - 0.4| = 0.8
    assert round(v.balance, 3) == 0.8
    found, line = judge(v, Playability(win_rate=WinRateBand(min=0.4, max=0.55)), ladder, None, 7)
    assert [f["rule"] for f in found] == ["win-rate-band"]
    assert line.startswith("playability: flag: first side 60.0% outside the band 40%-55% (the 95% interval agrees)")
    found, line = judge(v, Playability(win_rate=WinRateBand(min=0.4, max=0.62), min_balance=0.75), ladder, None, 7)
    assert found == [] and "not decided at this precision" in line and line.startswith("playability: pass")
    found, _ = judge(v, Playability(min_balance=0.85), ladder, None, 7)
    assert [f["rule"] for f in found] == ["balance-band"]
    # no band: the verdict alone, unless a side never wins or games do not end
    assert judge(v, Playability(), ladder, None, 7) == ([], "playability: no band in the data (playability.win_rate or min_balance): verdict only")
    found, _ = judge(_verdict((40, 0), 40), Playability(), ladder, None, 7)
    assert [f["rule"] for f in found] == ["both-sides-win"]
    found, _ = judge(_verdict((10, 10), 40, cut=20), Playability(), ladder, None, 7)
    assert [f["rule"] for f in found] == ["games-end"]  # greedy: at most 20% cut off by default
    found, _ = judge(_verdict((10, 10), 40, cut=20), Playability(max_cut_off_share={"greedy": 0.6}), ladder, None, 7)
    assert found == []
    text = str(findings_of(judge(_verdict((40, 0), 40), Playability(), ladder, Path("s.yaml"), 7)[0])[0])
    assert text == ("s.yaml:7: toy X: both-sides-win: Blue won 0 of 40 games of the greedy policy (0.0%; more than 0% needed) "
                    "[gunbai, Playability (pipeline/play/judge.py)]")


def test_the_verdict_policy_is_the_strongest_proven_else_declared():
    class Record:
        def proven(self, system, scenario):
            return ["random", "greedy"] if scenario == "a" else []

        def digest(self):
            return "r"

    ladder = ["random", "greedy", "ismcts"]
    assert choose_policy(ladder, "s", "a", Record()) == ("greedy", True)
    assert choose_policy(ladder, "s", "b", Record()) == ("ismcts", False)
    assert choose_policy(ladder, "s", "b", NoRecord(), "random") == ("random", False)


def test_verdicts_round_trip_through_json():
    v = _verdict((240, 160), 400)
    v.stats = {"command:Shogun": 3}
    assert Verdict.from_json(v.to_json()) == v


def test_chart_is_a_png_and_repeats(tmp_path):
    from pipeline.data.playability import Playability, WinRateBand
    from pipeline.render.balance_chart import draw_chart, write_chart

    v = _verdict((240, 160), 400)
    v.findings, v.band = judge(v, Playability(win_rate=WinRateBand(min=0.4, max=0.55)), ["random", "greedy"], None, 1)
    v.win_band = [0.4, 0.55]
    assert draw_chart([v, v]).size[0] > 200
    path = write_chart([v], tmp_path / "chart.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.read_bytes() == write_chart([v], tmp_path / "again.png").read_bytes()
