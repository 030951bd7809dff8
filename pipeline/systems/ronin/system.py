"""The Ronin skirmish system behind the one interface of
:class:`pipeline.systems.base.GameSystem`.

A playable scenario of Ronin is a game of ``games/`` (a scenario of ``scenarios/`` set up with
two Buntai of ``rosters/``). Its ladder: uniform random play, the greedy one-ply policy and ISMCTS over the same evaluation
(``pipeline.systems.ronin.policies``); ``source_data/ronin/ladder.yaml`` records what head-to-head play proved.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.measured import ENGINE_CODE as MEASURED_ENGINE
from pipeline.systems.base import (
    FolderSystem,
    NotPlayable,
    Parts,
    Playable,
    ScenarioFiles,
    random_play,
)


class RoninSystem(FolderSystem):
    """``source_data/ronin/``: module, BattleScribe files, counters, cards, print sheets,
    legality of every game and roster, play of every game."""

    name = "ronin"
    print_sheets = True
    LADDER = {
        "random": random_play,
        "greedy": lambda: _policies().greedy,
        "ismcts": lambda: _policies().ismcts,
    }
    scenario_folders = ("games", "scenarios", "rosters")
    engine_code = MEASURED_ENGINE
    drawing_code = ("art.py", "battlescribe.py", "build.py", "importer.py", "module.py", "odds_cli.py", "printing.py")

    def parts(self) -> Parts:
        from pipeline.systems.ronin.build import build, render
        from pipeline.systems.ronin.load import load
        from pipeline.systems.ronin.printing import check_fit
        from pipeline.systems.ronin.verify import verify_all

        return Parts(load, verify_all, build, render, check_fit)

    def verify(self, data_dir: Path, files: list[Path] | None) -> tuple[list, int]:
        """Findings of the games of ``data_dir`` (or of ``files``: game files are checked as
        games, other files as rosters) and how many were checked."""
        from pipeline.systems.ronin.load import load
        from pipeline.systems.ronin.printing import check_fit
        from pipeline.systems.ronin.verify import classify, verify_all, verify_game

        if not files:
            data = load(data_dir)
            check_fit(data)
            return verify_all(data), len(data.games)
        from pipeline.systems.ronin.load import load_roster
        from pipeline.systems.ronin.roster import check_roster

        rosters, games = classify(files)
        data = load(data_dir, roster_files=None, game_files=games)
        check_fit(data)
        findings: list = []
        for p in rosters:
            findings += check_roster(data, load_roster(p)).findings
        for lg in data.games:
            findings += verify_game(data, lg)
        return findings, len(rosters) + len(games)

    def _game_files(self, files: list[Path] | None) -> list[Path] | None:
        if not files:
            return None
        from pipeline.systems.ronin.verify import classify

        return classify(files)[1]

    def playables(self, data_dir: Path, files: list[Path] | None = None) -> list[Playable | NotPlayable]:
        """Every game (of ``files``: the game files among them); a game with a model whose
        statline is ``unknown`` as :class:`NotPlayable`. Cut off after
        :func:`~pipeline.systems.ronin.engine.turn_cap` player turns unless ``playability.turn_cap``
        says otherwise."""
        from pipeline.systems.ronin.engine import RoninGame, UnplayableGame, turn_cap
        from pipeline.systems.ronin.load import load

        data = load(data_dir, game_files=self._game_files(files))
        out: list[Playable | NotPlayable] = []
        for lg in data.games:
            game = lg.value
            try:
                g = RoninGame.from_game(data, game)
            except UnplayableGame as exc:
                out.append(NotPlayable(lg.path.stem, f"ronin {game.id}", str(exc).split(": cannot be played: ", 1)[-1]))
                continue
            out.append(Playable(lg.path.stem, g.label(), tuple(f"{s.role} ({s.name})" for s in g.sides), g.new_state, turn_cap(g),
                                dict(game.playability.turn_cap), game.playability, lg.path,
                                lg.doc.line_of(("playability",)) or lg.doc.line_of(("scenario",))))
        return out

    def scenario_files(self, data_dir: Path, files: list[Path] | None = None) -> list[ScenarioFiles]:
        """Each game's file with its scenario's and its rosters' files (read with the YAML
        parser alone; a file that does not parse is listed alone, and the load reports it)."""
        import yaml

        data_dir = Path(data_dir)
        games = sorted((data_dir / "games").glob("*.yaml")) if not files else (self._game_files(files) or [])
        rosters: dict[str, Path] = {}
        for p in sorted((data_dir / "rosters").glob("*.yaml")):
            rid = _read(yaml, p).get("id")
            if isinstance(rid, str):
                rosters.setdefault(rid, p)
        out = []
        for g in games:
            doc = _read(yaml, g)
            extra: list[Path] = []
            if isinstance(doc.get("scenario"), str):
                extra.append(data_dir / "scenarios" / f"{doc['scenario']}.yaml")
            for side in doc.get("sides") or []:
                if isinstance(side, dict) and isinstance(side.get("roster"), str) and side["roster"] in rosters:
                    extra.append(rosters[side["roster"]])
            out.append(ScenarioFiles(g.stem, (g, *extra)))
        return out


def _read(yaml, path: Path) -> dict:
    try:
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, ValueError, yaml.YAMLError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _policies():
    """The policies module (imported when a policy is made: the engine comes with it)."""
    import pipeline.systems.ronin.policies as policies

    return policies
