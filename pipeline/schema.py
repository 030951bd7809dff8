"""JSON Schema of every game system's data files, for editors (YAML language servers) to
complete and check them.

``gunbai schema`` writes one ``<kind>.schema.json`` per kind of data file into each system's
``schema/`` folder (``source_data/<system>/schema/``), generated from the same pydantic models the
loader validates with. Every data file names its schema on its first line, relative to itself::

    # yaml-language-server: $schema=schema/units.schema.json          (source_data/ohw/units.yaml)
    # yaml-language-server: $schema=../schema/scenario.schema.json    (source_data/ohw/scenarios/*.yaml)

:func:`header_problems` lists the data files whose first line is missing or names the wrong
schema; the tests keep the shipped schemas and the headers in step with the models.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from pipeline.output import write_bytes_atomic

#: The systems with data files, in build order.
SYSTEMS = ("genpei", "ronin", "ohw", "sekigahara")

#: Sub-folders holding one file per item, and the schema kind of their files.
FOLDERS = {"scenarios": "scenario", "factions": "faction", "rosters": "roster", "games": "game"}

HEADER = "# yaml-language-server: $schema="


def kinds(system: str) -> dict[str, type[BaseModel]]:
    """Schema kind (file stem of the schema) → the pydantic model of that kind of data file.

    Raises:
        KeyError: ``system`` is not one of :data:`SYSTEMS`.
    """
    if system == "genpei":
        from pipeline.systems.genpei.load import FILES
        from pipeline.systems.genpei.model import Scenario

        return {**_stems(FILES), "scenario": Scenario}
    if system == "ohw":
        from pipeline.systems.ohw.load import FILES
        from pipeline.systems.ohw.model import Scenario

        return {**_stems(FILES), "scenario": Scenario}
    if system == "sekigahara":
        from pipeline.systems.sekigahara.load import FILES
        from pipeline.systems.sekigahara.model import Scenario

        return {**_stems(FILES), "scenario": Scenario}
    if system == "ronin":
        from pipeline.systems.ronin.load import FILES
        from pipeline.systems.ronin.model import Faction, Game, Roster, Scenario

        return {**_stems(FILES), "faction": Faction, "scenario": Scenario, "roster": Roster, "game": Game}
    raise KeyError(f"no game system {system!r} (systems: {', '.join(SYSTEMS)})")


def _stems(files: dict[str, type[BaseModel]]) -> dict[str, type[BaseModel]]:
    from pipeline.data.ladder import LADDER_FILE, LadderFile

    return {**{name.removesuffix(".yaml"): model for name, model in files.items()}, LADDER_FILE.removesuffix(".yaml"): LadderFile}


def schemas(system: str = "genpei") -> dict[str, dict]:
    """``{schema file name: JSON Schema}`` for each kind of ``system``'s data files."""
    out: dict[str, dict] = {}
    for stem, model in kinds(system).items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"gunbai/{system}/{stem}.schema.json"
        out[f"{stem}.schema.json"] = schema
    return out


def render_schema(schema: dict) -> bytes:
    """The schema as stable, sorted, indented JSON bytes (one trailing newline)."""
    return (json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def write_schemas(out_dir: Path, system: str = "genpei") -> list[Path]:
    """Write every schema of ``system`` into ``out_dir``, all or none; returns the paths written."""
    from pipeline.output import Transaction

    with Transaction(out_dir):
        return _write_schemas(out_dir, system)


def _write_schemas(out_dir: Path, system: str) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, schema in sorted(schemas(system).items()):
        path = out_dir / name
        write_bytes_atomic(path, render_schema(schema))
        paths.append(path)
    return paths


def write_all(data_root: Path, systems: list[str] | None = None) -> list[Path]:
    """Write the schemas of every system found under ``data_root`` (or of ``systems``) into
    ``<data_root>/<system>/schema/``."""
    paths: list[Path] = []
    for system in systems or [s for s in SYSTEMS if (data_root / s).is_dir()]:
        paths += write_schemas(data_root / system / "schema", system)
    return paths


def schema_of(system_root: Path, path: Path) -> str | None:
    """The schema kind of a data file of a system folder (None: not a data file)."""
    rel = path.relative_to(system_root)
    if len(rel.parts) == 1:
        return rel.stem
    if len(rel.parts) == 2 and rel.parts[0] in FOLDERS:
        return FOLDERS[rel.parts[0]]
    return None


def data_files(system_root: Path) -> list[Path]:
    """The YAML data files of a system folder, sorted."""
    files = sorted(system_root.glob("*.yaml"))
    for folder in FOLDERS:
        files += sorted((system_root / folder).glob("*.yaml"))
    return files


def expected_header(system_root: Path, path: Path) -> str | None:
    """The first line ``path`` should have: the yaml-language-server comment naming its schema,
    relative to the file."""
    kind = schema_of(system_root, path)
    if kind is None:
        return None
    up = "../" * (len(path.relative_to(system_root).parts) - 1)
    return f"{HEADER}{up}schema/{kind}.schema.json"


def header_problems(system_root: Path, system: str) -> list[str]:
    """One line per data file of ``system_root`` whose first line does not name its schema, or
    names a kind the system has no schema for."""
    known = kinds(system)
    out = []
    for path in data_files(system_root):
        want = expected_header(system_root, path)
        if want is None:
            continue
        kind = schema_of(system_root, path)
        if kind not in known:
            out.append(f"{path}:1: no schema kind {kind!r} in {system} (kinds: {', '.join(known)})")
            continue
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        if first != want:
            out.append(f"{path}:1: first line {first!r}; expected {want!r}")
    return out


def add_headers(system_root: Path) -> list[Path]:
    """Put the yaml-language-server line first in every data file of ``system_root`` that lacks
    it (replacing a wrong one); returns the files changed. All or nothing: a file that cannot be
    written leaves every file as it was."""
    from pipeline.output import Transaction

    with Transaction(system_root):
        return _add_headers(system_root)


def _add_headers(system_root: Path) -> list[Path]:
    changed = []
    for path in data_files(system_root):
        want = expected_header(system_root, path)
        if want is None:
            continue
        text = path.read_text(encoding="utf-8")
        first, _, rest = text.partition("\n")
        if first == want:
            continue
        body = rest if first.startswith(HEADER) else text
        write_bytes_atomic(path, (want + "\n" + body).encode("utf-8"))
        changed.append(path)
    return changed
