"""The main job: for every game system under the data folder, verify, render and package.

``gunbai build`` calls :func:`build_all`; ``gunbai verify`` calls :func:`verify_all`;
``gunbai counters`` / ``gunbai cards`` call :func:`render_only`. A game system is a folder of
``source_data/`` whose name is a key of :data:`SYSTEM_MODULES`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from pipeline.errors import GunbaiError


@dataclass
class BuildResult:
    """What one game system's build wrote.

    Attributes:
        system: the system id.
        files: every file written, relative paths under the output folder.
        module: the ``.vmod`` path, if one was written.
        module_entries: number of entries in the module archive.
        module_bytes: its size in bytes.
        scenarios: number of scenarios packaged as predefined setups.
        seconds: wall time of the build steps, by step name.
    """

    system: str
    files: list[Path] = field(default_factory=list)
    module: Path | None = None
    module_entries: int = 0
    module_bytes: int = 0
    scenarios: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        """One line for the terminal."""
        setups = f"{self.scenarios} setup{'' if self.scenarios == 1 else 's'}"
        mod = f"{self.module} ({self.module_entries} entries, {self.module_bytes / 1024:.0f} KiB, {setups})" if self.module else "no module"
        return f"{self.system}: {mod}; {len(self.files)} files written"


class BuildRefused(GunbaiError):
    """A scenario is not legal: the build stops before writing a module (the findings are the
    message, one per line)."""

    @classmethod
    def check(cls, findings: list) -> None:
        """Raise when there is any blocking finding (notes such as an incomplete scenario,
        ``blocking = False``, do not stop a build), with one line per finding and a count.

        Raises:
            BuildRefused: ``findings`` holds a blocking finding.
        """
        problems = blocking(findings)
        if problems:
            raise cls("\n".join(str(f) for f in problems) + f"\nbuild refused: {len(problems)} problem(s); nothing written")


def blocking(findings: list) -> list:
    """The findings that are problems (an error in a scenario), without the notes: an
    incomplete scenario (map not public, values unknown) is reported but is not an error."""
    return [f for f in findings if getattr(f, "blocking", True)]


#: The game systems: data folder name → the module with its ``build``/``verify``/``render``
#: (and, where it has one, ``play``).
SYSTEM_MODULES = {
    "genpei": "pipeline.systems.genpei.build",
    "ronin": "pipeline.systems.ronin.build",
    "ohw": "pipeline.systems.ohw.build",
    "sekigahara": "pipeline.systems.sekigahara.build",
}


class _Systems(Mapping):
    """The system modules, imported only when one is used (a command on one system does not
    pay for importing the others' rules engines)."""

    def __getitem__(self, name: str) -> ModuleType:
        return importlib.import_module(SYSTEM_MODULES[name])

    def __iter__(self) -> Iterator[str]:
        return iter(SYSTEM_MODULES)

    def __len__(self) -> int:
        return len(SYSTEM_MODULES)


def _systems() -> Mapping[str, ModuleType]:
    return _Systems()


def systems_in(data_root: Path) -> list[str]:
    """The game systems that have a data folder under ``data_root``, in a fixed order.

    Raises:
        GunbaiError: ``data_root`` is not a folder, or holds no known system.
    """
    if not data_root.is_dir():
        raise GunbaiError(f"{data_root}: no such data folder")
    found = [s for s in _systems() if (data_root / s).is_dir()]
    strays = sorted(d.name for d in data_root.iterdir() if d.is_dir() and d.name not in _systems() and not d.name.startswith((".", "_")))
    if strays:
        raise GunbaiError(f"{data_root}: folder(s) {', '.join(strays)} are not game systems (expected: {', '.join(_systems())})")
    if not found:
        raise GunbaiError(f"{data_root}: no game system folder (expected one of: {', '.join(_systems())})")
    return found


def build_all(data_root: Path, out_root: Path, *, progress: bool = True) -> list[BuildResult]:
    """Build every system found under ``data_root`` into ``out_root/<system>/``.

    Raises:
        DataError: a data file is invalid.
        BuildRefused: a scenario is not legal.
        GunbaiError: a written module fails lint.
    """
    results = []
    for system in systems_in(data_root):
        results.append(_systems()[system].build(data_root / system, out_root / system, progress=progress))
    return results


def verify_all(data_root: Path, scenario_files: list[Path] | None = None, *, system: str | None = None) -> tuple[list, int]:
    """Legality findings of every scenario (or of ``scenario_files``), and how many scenarios
    were checked (:func:`verify_by_system` summed)."""
    findings: list = []
    count = 0
    for _name, f, n in verify_by_system(data_root, scenario_files, system=system):
        findings.extend(f)
        count += n
    return findings, count


def verify_by_system(data_root: Path, scenario_files: list[Path] | None = None, *, system: str | None = None) -> list[tuple[str, list, int]]:
    """``(system, findings, scenarios checked)`` for each game system verified: every scenario
    of every system (of ``system`` alone when given), or the ``scenario_files``.

    Scenario files given explicitly are checked against the data of ``system``, or else of the
    system whose folder holds them (``…/<system>/…`` in their path).

    Raises:
        GunbaiError: ``system`` is unknown, or a file's system cannot be told from its path.
    """
    out: list[tuple[str, list, int]] = []
    if system is not None and system not in _systems():
        raise GunbaiError(f"--system {system!r}: expected one of {', '.join(_systems())}")
    if scenario_files:
        by_system: dict[str, list[Path]] = {}
        for path in scenario_files:
            parts = path.resolve().parts
            found = system or next((s for s in _systems() if s in parts), None)
            if found is None:
                raise GunbaiError(f"{path}: cannot tell its game system from its folder; pass --system ({', '.join(_systems())})")
            by_system.setdefault(found, []).append(path)
        for name, files in by_system.items():
            f, n = _systems()[name].verify(data_root / name, files)
            out.append((name, list(f), n))
        return out
    for name in systems_in(data_root):
        if system is not None and name != system:
            continue
        f, n = _systems()[name].verify(data_root / name, None)
        out.append((name, list(f), n))
    return out


def render_only(data_root: Path, out_root: Path, *, what: str) -> Iterator[str]:
    """Render ``counters`` or ``cards`` of every system; yields one line per system."""
    for system in systems_in(data_root):
        mod = _systems()[system]
        if what == "sheets" and not getattr(mod, "PRINT_SHEETS", False):
            yield f"{system}: no print sheets for this system yet"
            continue
        written = mod.render(data_root / system, out_root / system, what=what)
        yield f"{system}: {len(written)} files ({what}) in {out_root / system}"


def explain_rule(rule_id: str) -> str:
    """The statement and source of a legality rule (``gunbai verify --explain``). Rule ids are
    stable within a game system; ``system:id`` (e.g. ``ohw:known-unit``) picks one system, and
    an id several systems use prints each system's rule under its name. ``all`` (or
    ``genpei:all``) lists every rule with its source.

    Raises:
        KeyError: no system has a rule with that id (the message lists every id).
    """
    import importlib

    wanted_system, _, wanted = rule_id.rpartition(":")
    if wanted == "all":
        parts = []
        for system in _systems():
            if wanted_system and system != wanted_system:
                continue
            rules_module = importlib.import_module(f"pipeline.systems.{system}.verify")
            parts += [f"[{system}] {rules_module.explain(r)}" for r in rules_module.RULES]
        return "\n".join(parts)
    known: list[str] = []
    found: list[tuple[str, str]] = []
    for system in _systems():
        if wanted_system and system != wanted_system:
            continue
        rules_module = importlib.import_module(f"pipeline.systems.{system}.verify")
        if wanted in rules_module.RULES:
            found.append((system, rules_module.explain(wanted)))
        known.extend(f"{system}:{r}" for r in rules_module.RULES)
    if not found:
        raise KeyError(f"no rule {rule_id!r}; rules: {', '.join(sorted(known))}")
    if len(found) == 1:
        return found[0][1]
    return "\n".join(f"[{system}] {text}" for system, text in found)


def play_others(data_root: Path, n: int, seed: int, *, workers: int) -> list:
    """Playability reports of the systems other than Genpei (whose ``--play`` also draws the
    chart and checks per-scenario thresholds): one report per scenario of each system found
    under ``data_root`` whose build module has ``play(data_dir, n, seed, workers=)``."""
    reports: list = []
    for system in systems_in(data_root):
        mod = _systems()[system]
        if system != "genpei" and hasattr(mod, "play"):
            reports.extend(mod.play(data_root / system, n, seed, workers=workers))
    return reports


def write_linted_archive(path: Path, entries: dict[str, bytes], epoch: int) -> Path:
    """Pack ``entries`` as a VASSAL archive, lint the bytes, and only then replace ``path``
    atomically: a module that fails lint is never written, and the previous one stays.

    Raises:
        GunbaiError: lint finds an error (one line per finding, ``path:entry:element: message``).
    """
    from pipeline.output import write_bytes_atomic
    from pipeline.vassal.archive import archive_bytes
    from pipeline.vassal.lint import lint_bytes

    data = archive_bytes(entries, epoch)
    errors = [f for f in lint_bytes(data, str(path)) if f.severity == "error"]
    if errors:
        raise GunbaiError("\n".join(f"{path}:{f.entry}:{f.element_path}: {f.message}" for f in errors) + f"\n{path} fails lint; nothing written")
    return write_bytes_atomic(path, data)
