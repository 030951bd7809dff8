"""Game-agnostic play: the state protocol every rules engine implements, and the playability
runner (seeded games under policies → win rates with Wilson intervals, game lengths, cut-offs).

Genpei implements it in :mod:`pipeline.systems.genpei.engine`; Ronin, OHW and Sekigahara engines
plug in the same way.
"""

from pipeline.play.protocol import (
    CHANCE_NODE,
    Evaluation,
    GameState,
    Policy,
    SearchState,
    SteppedState,
    random_policy,
    sample_chance,
)
from pipeline.play.runner import (
    GameResult,
    Job,
    PlayabilityReport,
    SideReport,
    play_game,
    run_many,
    run_playability,
    wilson,
)

__all__ = [
    "CHANCE_NODE", "GameResult", "GameState", "Job", "PlayabilityReport", "Policy", "SideReport", "play_game",
    "random_policy", "run_many", "SearchState", "Evaluation", "run_playability", "sample_chance", "SteppedState", "wilson",
]
