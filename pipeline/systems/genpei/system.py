"""The Genpei system (Commands & Colours: Samurai Battles with the Genpei War pack) behind the
one interface of :class:`pipeline.systems.base.GameSystem`.

Its ladder: uniform random play, the greedy one-ply policy, the rollout policy (flat Monte
Carlo over the Command card) and ISMCTS, :mod:`pipeline.systems.genpei.engine.policies`;
``source_data/genpei/ladder.yaml`` records what head-to-head play proved. Nothing heavy is
imported until a method needs it.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.systems.base import FolderSystem, NotPlayable, Parts, Playable, random_play


def _policies():
    from pipeline.systems.genpei.engine import policies

    return policies


#: Player turns after which a game is cut off when the scenario's ``playability.turn_cap`` does
#: not say: uniform random play wanders (40, to keep ``--play`` fast), the others 100.
DEFAULT_TURN_CAPS = {"random": 40}
DEFAULT_TURN_CAP = 100


class GenpeiSystem(FolderSystem):
    """``source_data/genpei/``: the VASSAL module and extension, counters, cards, print sheets,
    legality of every scenario, and play of every complete one."""

    name = "genpei"
    print_sheets = True
    prepare_print = True
    extends_base_module = True
    drawing_code = ("art.py", "base_mapping.py", "build.py", "extension.py", "fit.py", "importer.py", "layout.py",
                    "module.py", "odds_cli.py", "printing.py")
    LADDER = {
        "random": random_play,
        "greedy": lambda: _policies().greedy_policy,
        "rollout": lambda: _policies().rollout_policy,
        "ismcts": lambda: _policies().ISMCTS_POLICY,
    }

    def parts(self) -> Parts:
        from pipeline.systems.genpei.build import build, render
        from pipeline.systems.genpei.fit import check_fit
        from pipeline.systems.genpei.load import load
        from pipeline.systems.genpei.verify import verify_all

        return Parts(load, verify_all, build, render, check_fit)

    def playables(self, data_dir: Path, files: list[Path] | None = None) -> list[Playable | NotPlayable]:
        """Every scenario; an incomplete one (map not public, values the game needs unknown) as
        :class:`NotPlayable`. Turn caps: ``playability.turn_cap``, else :data:`DEFAULT_TURN_CAPS`."""
        from functools import partial

        from pipeline.systems.genpei.engine.state import GenpeiState
        from pipeline.systems.genpei.load import load

        data = load(data_dir, scenario_files=files)
        out: list[Playable | NotPlayable] = []
        for loaded in data.scenarios:
            sc = loaded.scenario
            pid = loaded.path.stem
            label = f"genpei {sc.title}"
            if sc.incomplete():
                out.append(NotPlayable(pid, label, "incomplete (" + sc.incomplete()[0].split(" (")[0] + "; verify's note says what is missing)"))
                continue
            doc = loaded.doc
            out.append(Playable(
                pid, label, tuple(s.name for s in sc.sides), partial(GenpeiState, data, sc), DEFAULT_TURN_CAP,
                {**DEFAULT_TURN_CAPS, **sc.playability.turn_cap}, sc.playability, loaded.path,
                doc.line_of(("playability",)) or doc.line_of(("victory", "banners")),
                tuple(GenpeiState(data, sc).notes)))
        return out
