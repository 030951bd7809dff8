"""The Reluctant Samurai: Sekigahara 1600 behind the one interface of
:class:`pipeline.systems.base.GameSystem`.

Its ladder: uniform random play, the greedy one-ply policy and ISMCTS over the same evaluation
(``pipeline.systems.sekigahara.policies``); ``source_data/sekigahara/ladder.yaml`` records what head-to-head play proved.
Every verdict says that the victory condition is gunbai's own (the rules text gives none).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.measured import ENGINE_CODE as MEASURED_ENGINE
from pipeline.systems.base import FolderSystem, NotPlayable, Parts, Playable, random_play


class SekigaharaSystem(FolderSystem):
    """``source_data/sekigahara/``: module, counters, cards, print sheets, legality, play."""

    name = "sekigahara"
    print_sheets = True
    LADDER = {
        "random": random_play,
        "greedy": lambda: _policies().greedy,
        "ismcts": lambda: _policies().ismcts,
    }
    engine_code = MEASURED_ENGINE

    def parts(self) -> Parts:
        from pipeline.systems.sekigahara.build import build, render
        from pipeline.systems.sekigahara.load import load
        from pipeline.systems.sekigahara.printing import check_fit
        from pipeline.systems.sekigahara.verify import verify_all

        return Parts(load, verify_all, build, render, check_fit)

    def playables(self, data_dir: Path, files: list[Path] | None = None) -> list[Playable | NotPlayable]:
        """Every scenario (East = player 0, West = player 1), cut off after turns + 1 player
        turns unless ``playability.turn_cap`` says otherwise; the caveat names gunbai's own
        victory condition (:data:`~pipeline.systems.sekigahara.engine.VICTORY_NOTE`)."""
        from functools import partial

        from pipeline.systems.sekigahara.engine import VICTORY_NOTE, SekiState
        from pipeline.systems.sekigahara.load import load

        data = load(data_dir, scenario_files=files)
        out: list[Playable | NotPlayable] = []
        for loaded in data.scenarios:
            sc = loaded.model
            out.append(Playable(loaded.path.stem, f"sekigahara {sc.code} {sc.name}", ("Eastern Army", "Western Army"), partial(SekiState, data, sc),
                                sc.turns + 1, dict(sc.playability.turn_cap), sc.playability, loaded.path,
                                loaded.doc.line_of(("playability",)) or loaded.doc.line_of(("victory",)), caveat=VICTORY_NOTE))
        return out


def _policies():
    """The policies module (imported when a policy is made: the engine comes with it)."""
    import pipeline.systems.sekigahara.policies as policies

    return policies
