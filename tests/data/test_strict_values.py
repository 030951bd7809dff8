"""Numbers, booleans and ids are strict in every kind of data file of every system (issue 29,
item 4), checked as a class over the shipped data: each number given as ``true`` or as text,
each boolean given as ``1``, each catalogue's second item given the first one's id, is refused
with the file, the line, the place and both lines of a repeated id."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pipeline.data.yamlfile import YamlDocument, format_location
from pipeline.errors import DataError
from pipeline.schema import FOLDERS, SYSTEMS, kinds

DATA = Path(__file__).resolve().parents[2] / "source_data"


def _files() -> list[tuple[str, Path, str]]:
    """(system, file, schema kind) of every shipped data file."""
    out = []
    for system in SYSTEMS:
        known = kinds(system)
        root = DATA / system
        for path in sorted(root.glob("*.yaml")):
            if path.stem in known:
                out.append((system, path, path.stem))
        for folder, kind in FOLDERS.items():
            if kind in known:
                out += [(system, p, kind) for p in sorted((root / folder).glob("*.yaml"))]
    return out


FILES = _files()


def _values(data: Any, loc: tuple = ()) -> list[tuple[tuple, Any]]:
    """Every scalar of ``data`` with its path (keys and indices)."""
    if isinstance(data, dict):
        return [v for k, item in data.items() for v in _values(item, loc + (k,))]
    if isinstance(data, list):
        return [v for i, item in enumerate(data) for v in _values(item, loc + (i,))]
    return [(loc, data)]


def _set(data: Any, loc: tuple, value: Any) -> Any:
    out = copy.deepcopy(data)
    cur = out
    for part in loc[:-1]:
        cur = cur[part]
    cur[loc[-1]] = value
    return out


def _refused_at(doc: YamlDocument, system: str, kind: str, data: Any, loc: tuple) -> str:
    with pytest.raises(DataError) as exc:
        YamlDocument(doc.path, data, doc.root).validate(kinds(system)[kind])
    where = format_location(loc)
    found = [p for p in exc.value.problems if p.where == where]
    assert found, (where, [str(p) for p in exc.value.problems])
    return str(found[0])


def test_every_shipped_file_is_checked():
    assert len(FILES) >= 40 and {s for s, _p, _k in FILES} == set(SYSTEMS)
    assert len(NUMERIC) >= 25 and {s for s, _p, _k in NUMERIC} == set(SYSTEMS)


def _has_numbers(path: Path) -> bool:
    return any(isinstance(v, (int, float)) for _loc, v in _values(YamlDocument.load(path).data))


#: The files holding a number or a yes/no (a scenario whose map is not public may hold neither).
NUMERIC = [f for f in FILES if _has_numbers(f[1])]


@pytest.mark.parametrize("system, path, kind", NUMERIC, ids=[f"{s}:{p.relative_to(DATA / s)}" for s, p, _k in NUMERIC])
def test_numbers_and_booleans_are_not_converted(system, path, kind):
    """Up to 6 numbers of the file given as ``true`` and as ``"<the number>"``, and up to 6
    booleans given as ``1``: each is refused at its own place."""
    doc = YamlDocument.load(path)
    scalars = _values(doc.data)
    numbers = [(loc, v) for loc, v in scalars if isinstance(v, (int, float)) and not isinstance(v, bool)][:6]
    booleans = [(loc, v) for loc, v in scalars if isinstance(v, bool)][:6]
    for loc, v in numbers:
        for wrong in (True, str(v)):
            message = _refused_at(doc, system, kind, _set(doc.data, loc, wrong), loc)
            assert f"{wrong!r} is not valid" in message
    for loc, v in booleans:
        _refused_at(doc, system, kind, _set(doc.data, loc, int(v)), loc)


def _catalogues(data: Any, loc: tuple = ()) -> list[tuple]:
    """Paths of the lists of items with an ``id`` (two items or more)."""
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _catalogues(v, loc + (k,))
    elif isinstance(data, list):
        if len(data) >= 2 and all(isinstance(i, dict) and "id" in i for i in data):
            out.append(loc)
        for i, item in enumerate(data):
            out += _catalogues(item, loc + (i,))
    return out


CATALOGUES = [(s, p, k, loc) for s, p, k in FILES for loc in _catalogues(YamlDocument.load(p).data)]


def test_catalogues_of_many_kinds_are_checked():
    kinds_seen = {loc[-1] for _s, _p, _k, loc in CATALOGUES if isinstance(loc[-1], str)}
    # units, leaders, terrain, markers, cards, weapons, attributes, a faction's models and a
    # model's option groups, sides, modifiers, the documents and errata of sources.yaml…
    assert {"units", "leaders", "documents", "errata", "sides", "models", "options", "weapons", "command_cards"} <= kinds_seen, kinds_seen


@pytest.mark.parametrize("system, path, kind, loc", CATALOGUES, ids=[f"{s}:{p.relative_to(DATA / s)}:{format_location(loc)}" for s, p, _k, loc in CATALOGUES])
def test_a_repeated_id_in_any_list_names_both_lines(system, path, kind, loc):
    doc = YamlDocument.load(path)
    first = doc.data
    for part in loc:
        first = first[part]
    first_id = first[0]["id"]
    message = _refused_at(doc, system, kind, _set(doc.data, loc + (1, "id"), first_id), loc + (1, "id"))
    assert f"{first_id!r} is not valid; expected an id used once in {format_location(loc)} " in message, message
    assert message.endswith(f"(also at {path}:{doc.line_of(loc + (0, 'id'))} {format_location(loc + (0, 'id'))})"), message


def _tuples_outside_fixed(schema: Any, wrapped: bool = False) -> list[dict]:
    """Tuple schemas of a pydantic core schema not inside a before-validator (``Fixed``)."""
    out = []
    if isinstance(schema, dict):
        if schema.get("type") == "tuple" and not wrapped:
            out.append(schema)
        before = schema.get("type") == "function-before"
        for key, value in schema.items():
            out += _tuples_outside_fixed(value, before if key == "schema" else False)
    elif isinstance(schema, list):
        for item in schema:
            out += _tuples_outside_fixed(item)
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_tuple_of_a_schema_takes_a_yaml_list(system):
    """Strict mode takes only a tuple for a tuple field, and YAML has none: every tuple of the
    schemas is ``Fixed[...]``, which reads the list."""
    for kind, model in kinds(system).items():
        assert _tuples_outside_fixed(model.__pydantic_core_schema__) == [], (system, kind)
