"""``playability:`` of a scenario (every system's; a Ronin game's): the turn caps of
``gunbai verify --play`` and the band its balance verdict is judged by. Every field is optional.

Example (a scenario meant to be close, and one meant to favour its first side)::

    playability:
      win_rate: {min: 0.4, max: 0.6}   # the first side's win rate the designer aims for
      min_balance: 0.8                 # Balance = 1 - |p1 - p2| at least this
      note: "playtested even"

    playability:
      win_rate: {min: 0.55, max: 0.75}
      turn_cap: {random: 40, greedy: 100}
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from pipeline.data.common import Id, Strict

Share = Annotated[float, Field(ge=0, le=1)]


class WinRateBand(Strict):
    """The range of the first side's win rate (0 to 1) that passes.

    Attributes:
        min: the lowest rate that passes.
        max: the highest rate that passes.
    """

    min: Share = 0.0
    max: Share = 1.0

    @model_validator(mode="after")
    def _ordered(self) -> WinRateBand:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self


class Playability(Strict):
    """Thresholds of ``gunbai verify --play`` for one scenario (every field optional).

    Attributes:
        turn_cap: by policy name of the system's ladder (``random``, ``greedy``, …), player turns
            (both players' turns counted) after which a game is cut off; a policy not listed
            takes the cap of the nearest weaker one listed other than ``random``, else the
            system's default (Genpei: random 40, others 100; OHW, Sekigahara, Ronin: one more
            than the rules' longest game).
        max_cut_off_share: by policy name (looked up as ``turn_cap``), the largest share of games
            cut off by the turn cap before the scenario counts as one whose games do not end
            (default: 1.0 for ``random``, whose wandering games are cut off often; 0.2 for the
            others).
        min_win_rate: a side whose win rate in the verdict is at or below this never wins
            (default 0: it won no game at all).
        win_rate: the band of the first side's win rate that passes (the verdict says pass or
            flag).
        min_balance: the lowest Balance (1 - |p1 - p2|, Ludii's measure: 1 even, 0 one-sided)
            that passes.
        note: why the scenario needs these thresholds.
    """

    turn_cap: dict[Id, Annotated[int, Field(ge=2, le=2000)]] = {}
    max_cut_off_share: dict[Id, Share] = {}
    min_win_rate: Share = 0.0
    win_rate: WinRateBand | None = None
    min_balance: Share | None = None
    note: str | None = None
