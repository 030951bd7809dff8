"""JSON Schema of the data files, for editors (YAML language servers) to complete and check them.

``gunbai schema`` writes one ``*.schema.json`` per data file kind. The data files point at them
with a first line ``# yaml-language-server: $schema=schema/<kind>.schema.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.output import write_bytes_atomic
from pipeline.systems.genpei.load import FILES
from pipeline.systems.genpei.model import Scenario


def schemas() -> dict[str, dict]:
    """``{file name: JSON Schema}`` for each kind of Genpei data file."""
    out: dict[str, dict] = {}
    for name, model in {**FILES, "scenario.yaml": Scenario}.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"gunbai/genpei/{name.removesuffix('.yaml')}.schema.json"
        out[name.removesuffix(".yaml") + ".schema.json"] = schema
    return out


def render_schema(schema: dict) -> bytes:
    """The schema as stable, sorted, indented JSON bytes (one trailing newline)."""
    return (json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def write_schemas(out_dir: Path) -> list[Path]:
    """Write every schema into ``out_dir``; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, schema in sorted(schemas().items()):
        path = out_dir / name
        write_bytes_atomic(path, render_schema(schema))
        paths.append(path)
    return paths
