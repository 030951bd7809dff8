"""The one interface every game system offers, and the registry of the four systems.

A game system (``pipeline/systems/<name>/system.py``) is a subclass of :class:`GameSystem`: it
builds, verifies and renders its data folder, and for ``gunbai verify --play`` it lists its
playable scenarios (:class:`Playable`) and declares its **policy ladder**: policy names, weakest
first, each with a factory that makes the policy (``policy(state, rng) -> action``). The
registry :data:`SYSTEMS` maps a data folder's name to a function that imports that system's
class, so a command on one system never imports the others' rules engines, and a system's
module imports nothing heavy until a method needs it::

    >>> from pipeline.systems.base import SYSTEMS, get_system
    >>> list(SYSTEMS)
    ['genpei', 'ronin', 'ohw', 'sekigahara']
    >>> get_system("ohw").name
    'ohw'

Adding a policy to a system's ladder is one line of its ``LADDER`` (a name and a factory); the
ladder's order is its claim of strength, which only head-to-head play proves (``gunbai verify
--ladder``, :mod:`pipeline.ladders`, writes ``<system>/ladder.yaml``; :mod:`pipeline.play.verdict`
says which verdicts rest on a proven policy).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from pipeline.build import BuildResult
    from pipeline.play.protocol import GameState, Policy


@dataclass(frozen=True)
class Playable:
    """One scenario as ``verify --play`` plays it (a Ronin game: a scenario with two Buntai).

    Attributes:
        id: stable id (the scenario's or game's file name without ``.yaml``): part of every
            game's seed and of the verdict cache's key.
        label: what the report calls it (``GP19 Nuta's Stronghold``).
        side_names: the sides, in player order (player 0 first: the "first side" of a verdict).
        new_state: makes the state at the start of a game (need not pickle: the verdict runner
            sends workers a reference, :class:`pipeline.play.verdict.StateRef`).
        turn_caps: player turns after which a game is cut off, by policy name; a policy not
            listed takes the cap of the nearest weaker policy listed other than ``random``, else
            ``turn_cap``.
        turn_cap: the cap of a policy not in ``turn_caps``.
        playability: the scenario's ``playability:`` (:class:`pipeline.data.playability.Playability`),
            or its defaults.
        file: the data file the scenario comes from (findings cite it).
        line: the line of its ``playability:`` (else of its first line) to cite.
        notes: engine notes: each a stand-in the engine uses for a value no public source gives.
        caveat: printed with every verdict of this scenario (Sekigahara: the victory condition is
            gunbai's own), or None.
    """

    id: str
    label: str
    side_names: tuple[str, ...]
    new_state: Callable[[], GameState]
    turn_cap: int
    turn_caps: Mapping[str, int] = field(default_factory=dict)
    playability: Any = None
    file: Path | None = None
    line: int | None = None
    notes: tuple[str, ...] = ()
    caveat: str | None = None

    def cap_for(self, policy: str, ladder: Sequence[str]) -> int:
        """The turn cap of ``policy`` (see :attr:`turn_caps`).

        >>> p = Playable("x", "x", ("a", "b"), list, 100, {"random": 40, "greedy": 90})
        >>> p.cap_for("random", ["random", "greedy", "rollout"]), p.cap_for("rollout", ["random", "greedy", "rollout"])
        (40, 90)
        """
        from pipeline.play.judge import by_policy

        return by_policy(self.turn_caps, policy, ladder, self.turn_cap)


@dataclass(frozen=True)
class NotPlayable:
    """A scenario ``verify --play`` cannot play, and why (its map is not public, a model's
    statline is ``unknown``): one line in place of its verdict."""

    id: str
    label: str
    reason: str

    def lines(self) -> list[str]:
        return [f"{self.label}: not played: {self.reason}"]


@dataclass(frozen=True)
class ScenarioFiles:
    """The data files that make one playable scenario (:meth:`GameSystem.scenario_files`),
    found without loading or validating anything: what a verdict's cache key digests besides
    the system's rules data and code."""

    id: str
    files: tuple[Path, ...]


class GameSystem(ABC):
    """What a game system offers the pipeline (``build.py`` and ``cli.py`` use nothing else).

    Class attributes:
        name: the data folder's name (``genpei``).
        print_sheets: ``gunbai build`` also writes its print PDFs (``render(what="sheets")``).
        prepare_print: :meth:`build` takes ``prepare_print=True`` (cuts the print files' font
            subsets while it builds).
        extends_base_module: :meth:`build` writes an extension of a base module and takes
            ``base_module=`` and ``base_mapping=`` (paths: ``gunbai build --base-module``).
        LADDER: policy name → factory of the policy, weakest first (one line per policy).
        scenario_folders: data sub-folders whose files belong to single scenarios (not the
            system's rules data) for the verdict cache.
        engine_code: paths under ``pipeline/`` whose code decides a game (the verdict cache
            digests them with ``pipeline/play``).
        drawing_code: files of the system's package that decide no game: they draw, print,
            build or import modules (a change to them leaves the verdicts and the ladder
            record standing). No code of a game imports them, the loader included (the
            text-fit check is :attr:`Parts.check_fit`, which verification and the builds call
            after loading; ``tests/test_verify_play.py`` traces a game of every policy to hold
            it).
    """

    name: ClassVar[str]
    print_sheets: ClassVar[bool] = True
    prepare_print: ClassVar[bool] = False
    extends_base_module: ClassVar[bool] = False
    LADDER: ClassVar[Mapping[str, Callable[[], Policy]]]
    #: The verdict's policy on a scenario the ladder record does not cover (None: the top of
    #: ``LADDER``): a cheap one, since nothing is proven there anyway.
    UNPROVEN_POLICY: ClassVar[str | None] = "greedy"
    scenario_folders: ClassVar[tuple[str, ...]] = ("scenarios",)
    engine_code: ClassVar[tuple[str, ...]] = ()
    drawing_code: ClassVar[tuple[str, ...]] = ("art.py", "build.py", "importer.py", "printing.py")

    # ---------------------------------------------------------------- build, verify, render
    @abstractmethod
    def build(self, data_dir: Path, out_dir: Path, *, progress: bool = True, prepare_print: bool = False,
              **base: Path) -> BuildResult:
        """Build the module, images and cards of ``data_dir`` into ``out_dir``; ``base``: the
        ``base_module`` / ``base_mapping`` paths of a system that :attr:`extends_base_module`.

        Raises:
            DataError: a data file is invalid (nothing is written).
            BuildRefused: a scenario is not legal (nothing is written).
            GunbaiError: a written module fails lint.
        """

    @abstractmethod
    def verify(self, data_dir: Path, files: list[Path] | None) -> tuple[list, int]:
        """Legality findings of every scenario of ``data_dir`` (or of ``files``) and how many
        scenarios were checked.

        Raises:
            DataError: a data file is invalid.
        """

    @abstractmethod
    def render(self, data_dir: Path, out_dir: Path, *, what: str, data: Any = None) -> list[Path]:
        """Render ``counters``, ``cards`` or ``sheets`` (print PDFs); ``data``: the data of
        ``data_dir`` already loaded (a build's), else it is loaded. Returns the files written."""

    # ---------------------------------------------------------------- play
    @abstractmethod
    def playables(self, data_dir: Path, files: list[Path] | None = None) -> list[Playable | NotPlayable]:
        """Every scenario of ``data_dir`` (or of ``files``) as ``verify --play`` plays it, in
        the data's order.

        Raises:
            DataError: a data file is invalid.
        """

    def scenario_files(self, data_dir: Path, files: list[Path] | None = None) -> list[ScenarioFiles]:
        """The files of each playable scenario, without loading the data (the verdict cache's
        keys): by default one file of ``scenarios/`` per scenario, its id the file name."""
        paths = sorted(Path(data_dir, "scenarios").glob("*.yaml")) if files is None else list(files)
        return [ScenarioFiles(p.stem, (p,)) for p in paths]

    def ladder(self) -> dict[str, Policy]:
        """The policy ladder made: name → policy, weakest first (imports the engine)."""
        return {name: make() for name, make in self.LADDER.items()}

    def policy(self, name: str) -> Policy:
        """The policy ``name`` of the ladder.

        Raises:
            KeyError: not a policy of this system's ladder.
        """
        return self.LADDER[name]()

    def code_paths(self) -> list[Path]:
        """The code that decides a game of this system (absolute paths, files and folders): the
        system's package less its :attr:`drawing_code`, :attr:`engine_code`, the play package,
        the data layer and this interface (under ``pipeline/``)."""
        root = Path(__file__).resolve().parents[1]
        package = root / "systems" / self.name
        drawing = {package / f for f in self.drawing_code}
        own = [p for p in sorted(package.rglob("*.py")) if p not in drawing and "__pycache__" not in p.parts]
        parts = (*self.engine_code, "play", "data", "systems/base.py", "errors.py")
        return own + [root / p for p in dict.fromkeys(parts)]

    def drawing_paths(self) -> list[Path]:
        """:attr:`drawing_code` as absolute paths (each must exist)."""
        package = Path(__file__).resolve().parents[1] / "systems" / self.name
        return [package / f for f in self.drawing_code]


def random_play() -> Policy:
    """The uniform random policy, the first rung of every ladder
    (:func:`pipeline.play.protocol.random_policy`)."""
    from pipeline.play.protocol import random_policy

    return random_policy


@dataclass(frozen=True)
class Parts:
    """The functions of a system's packages that :class:`FolderSystem` builds its methods from.

    Attributes:
        load: ``load(data_dir, scenario_files=files)`` → the data, with ``scenarios``.
        verify_all: ``verify_all(data)`` → the legality findings.
        check_fit: ``check_fit(data)`` raises :class:`~pipeline.errors.DataError` for texts
            that do not fit where the templates draw them (verification's, not loading's).
        build: ``build(data_dir, out_dir, progress=…)`` (``prepare_print=`` too when the
            system's :attr:`GameSystem.prepare_print`) → :class:`~pipeline.build.BuildResult`.
        render: ``render(data_dir, out_dir, what=…, data=…)`` → the files written.
    """

    load: Callable
    verify_all: Callable
    build: Callable
    render: Callable
    check_fit: Callable


class FolderSystem(GameSystem):
    """A :class:`GameSystem` whose build, legality check and rendering are its packages'
    functions (:meth:`parts`, imported only when called)."""

    @abstractmethod
    def parts(self) -> Parts:
        """The system's functions (imports its loader, checks and build)."""

    def build(self, data_dir: Path, out_dir: Path, *, progress: bool = True, prepare_print: bool = False,
              **base: Path) -> BuildResult:
        if base and not self.extends_base_module:
            raise TypeError(f"the {self.name} system builds no extension: {', '.join(base)} not taken")
        extra = {"prepare_print": prepare_print} if self.prepare_print else {}
        return self.parts().build(data_dir, out_dir, progress=progress, **extra, **base)

    def verify(self, data_dir: Path, files: list[Path] | None) -> tuple[list, int]:
        p = self.parts()
        data = p.load(data_dir, scenario_files=files)
        p.check_fit(data)
        return p.verify_all(data), len(data.scenarios)

    def render(self, data_dir: Path, out_dir: Path, *, what: str, data: Any = None) -> list[Path]:
        return self.parts().render(data_dir, out_dir, what=what, data=data)


def _genpei() -> GameSystem:
    from pipeline.systems.genpei.system import GenpeiSystem

    return GenpeiSystem()


def _ronin() -> GameSystem:
    from pipeline.systems.ronin.system import RoninSystem

    return RoninSystem()


def _ohw() -> GameSystem:
    from pipeline.systems.ohw.system import OhwSystem

    return OhwSystem()


def _sekigahara() -> GameSystem:
    from pipeline.systems.sekigahara.system import SekigaharaSystem

    return SekigaharaSystem()


#: The game systems: data folder name → a function that imports and makes its
#: :class:`GameSystem` (the order is the order every command goes through them).
SYSTEMS: dict[str, Callable[[], GameSystem]] = {"genpei": _genpei, "ronin": _ronin, "ohw": _ohw, "sekigahara": _sekigahara}

_MADE: dict[str, GameSystem] = {}


def get_system(name: str) -> GameSystem:
    """The system ``name`` (made once per process).

    Raises:
        KeyError: ``name`` is not a game system.
    """
    made = _MADE.get(name)
    if made is None:
        made = _MADE[name] = SYSTEMS[name]()
    return made


def relative_files(data_dir: Path, paths: Sequence[Path]) -> list[str]:
    """``paths`` as POSIX paths relative to ``data_dir`` where they lie under it (else absolute),
    for cache keys that do not depend on where the data folder is."""
    base = os.path.abspath(data_dir)
    out = []
    for p in paths:
        a = os.path.abspath(p)
        out.append(Path(os.path.relpath(a, base)).as_posix() if a.startswith(base + os.sep) else Path(a).as_posix())
    return out
