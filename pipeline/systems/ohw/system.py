"""The OHW Samurai 1550-1615 system behind the one interface of
:class:`pipeline.systems.base.GameSystem`.

Its ladder: uniform random play, the greedy one-ply policy and ISMCTS over the same evaluation
(``pipeline.systems.ohw.policies``); ``source_data/ohw/ladder.yaml`` records what head-to-head play proved.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.measured import ENGINE_CODE as MEASURED_ENGINE
from pipeline.systems.base import FolderSystem, NotPlayable, Parts, Playable, random_play


class OhwSystem(FolderSystem):
    """``source_data/ohw/``: module, counters, cards, print sheets, legality, play."""

    name = "ohw"
    print_sheets = True
    LADDER = {
        "random": random_play,
        "greedy": lambda: _policies().greedy,
        "ismcts": lambda: _policies().ismcts,
    }
    engine_code = MEASURED_ENGINE

    def parts(self) -> Parts:
        from pipeline.systems.ohw.build import build, render
        from pipeline.systems.ohw.load import load
        from pipeline.systems.ohw.printing import check_fit
        from pipeline.systems.ohw.verify import verify_all

        return Parts(load, verify_all, build, render, check_fit)

    def playables(self, data_dir: Path, files: list[Path] | None = None) -> list[Playable | NotPlayable]:
        """Every scenario; a game is cut off after 2 × turns + 1 player turns (one more than the
        rules' longest game) unless ``playability.turn_cap`` says otherwise."""
        from functools import partial

        from pipeline.systems.ohw.engine import OhwState
        from pipeline.systems.ohw.load import load

        data = load(data_dir, scenario_files=files)
        out: list[Playable | NotPlayable] = []
        for loaded in data.scenarios:
            sc = loaded.model
            out.append(Playable(loaded.path.stem, f"ohw {sc.code} {sc.name}", tuple(s.name for s in sc.sides), partial(OhwState, data, sc),
                                2 * sc.turns + 1, dict(sc.playability.turn_cap), sc.playability, loaded.path,
                                loaded.doc.line_of(("playability",)) or loaded.doc.line_of(("victory",))))
        return out


def _policies():
    """The policies module (imported when a policy is made: the engine comes with it)."""
    import pipeline.systems.ohw.policies as policies

    return policies
