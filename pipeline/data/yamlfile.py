"""YAML data files that remember where every value came from.

A module maker edits ``source_data/`` by hand. When a value is wrong, gunbai names the file,
the line, the value and what was expected. PyYAML parses the file into its node tree, which keeps
the line of every key and value, and the plain Python data is constructed from that tree.

Example::

    >>> doc = YamlDocument.parse("units:\\n  - id: a\\n    figures: four\\n", Path("units.yaml"))
    >>> doc.line_of(("units", 0, "figures"))
    3
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from pipeline.errors import DataError, DataProblem

#: Largest data file gunbai reads, in bytes. Hand-written data is far smaller; a larger file is
#: almost certainly a mistake (a binary, a generated dump) and is refused before parsing.
MAX_DATA_FILE_BYTES = 4 * 1024 * 1024

M = TypeVar("M", bound=BaseModel)

#: First bytes of the kinds of file most often given by mistake where a YAML file goes.
BINARY_KINDS = ((b"PK\x03\x04", "a ZIP archive (a VASSAL module, extension or saved game)"), (b"\x89PNG", "a PNG image"),
                (b"%PDF", "a PDF document"), (b"\xff\xd8\xff", "a JPEG image"))

#: PyYAML's safe loader, in C (libyaml) when PyYAML was built with it: one parse gives both the
#: node tree (line numbers) and the data.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class YamlDocument:
    """One parsed YAML file: its data and its node tree.

    Attributes:
        path: the file the text came from (used in messages only).
        data: the document as plain Python (dicts, lists, str, int, float, bool, None).
        root: PyYAML's node tree of the same text, for line numbers.
    """

    path: Path
    data: Any
    root: yaml.Node | None

    @classmethod
    def load(cls, path: Path) -> YamlDocument:
        """Read and parse ``path``.

        Raises:
            DataError: the file is missing, not a regular file, too large, not UTF-8, not YAML,
                expands past :data:`MAX_EXPANDED_NODES` through aliases, or repeats a key.
        """
        try:
            if not path.is_file():
                what = "a folder" if path.is_dir() else "no such file" if not path.exists() else "not a regular file"
                raise DataError([DataProblem(path, None, "", repr(str(path)), f"a YAML file ({what})")])
            size = path.stat().st_size
            if size > MAX_DATA_FILE_BYTES:
                raise DataError([DataProblem(path, None, "", f"{size} bytes", f"at most {MAX_DATA_FILE_BYTES} bytes")])
            raw = path.read_bytes()
        except OSError as exc:
            raise DataError([DataProblem(path, None, "", repr(str(path)), f"a readable file ({exc.strerror})")]) from exc
        kind = next((what for magic, what in BINARY_KINDS if raw.startswith(magic)), None)
        if kind is not None:  # another kind of file given where a YAML file goes
            raise DataError([DataProblem(path, None, "", kind, "a YAML file (UTF-8 text): is it the right file?")])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise DataError([DataProblem(path, line, "", f"byte 0x{raw[exc.start]:02x}", "UTF-8 text")]) from exc
        return cls.parse(text, path)

    @classmethod
    def parse(cls, text: str, path: Path) -> YamlDocument:
        """Parse YAML ``text`` (``path`` is only used in messages).

        Raises:
            DataError: the text is not valid YAML, a mapping repeats a key, a plain number has
                a leading zero, or a text holds a control character (:data:`CONTROL`).
        """
        try:
            loader = _LOADER(text)
            try:
                root = loader.get_single_node()
                if _expanded_size(root) > MAX_EXPANDED_NODES:
                    raise DataError([DataProblem(path, None, "", "aliases (*name) that expand to more than "
                                                 f"{MAX_EXPANDED_NODES} values", "a document of hand-written size")])
                # before construction: a merge key (<<: *base) splices the base's keys into the
                # mapping, and a key written after it overrides one of them; that is legal YAML
                dups = list(_duplicate_keys(root, ()))
                if dups:
                    raise DataError(
                        [DataProblem(path, line, format_location(loc), repr(key), "each key once in a mapping") for loc, key, line in dups]
                    )
                ambiguous = list(_ambiguous_numbers(root, ()))
                if ambiguous:
                    raise DataError([DataProblem(path, line, format_location(loc), value, expected) for loc, value, line, expected in ambiguous])
                controls = list(_control_characters(root, ()))
                if controls:
                    raise DataError([DataProblem(path, line, format_location(loc), value, expected) for loc, value, line, expected in controls])
                data = loader.construct_document(root) if root is not None else None
            finally:
                loader.dispose()
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark is not None else None
            problem = getattr(exc, "problem", None) or str(exc)
            raise DataError([DataProblem(path, line, "", "the text", f"valid YAML ({problem})")]) from exc
        return cls(path, data, root)

    def node_at(self, loc: tuple[Any, ...]) -> yaml.Node | None:
        """The deepest node on the path ``loc`` (keys and list indices) that exists."""
        node = self.root
        for part in loc:
            child = _child(node, part)
            if child is None:
                break
            node = child
        return node

    def line_of(self, loc: tuple[Any, ...]) -> int | None:
        """1-based line of the value at ``loc``, or of its nearest existing ancestor."""
        node = self.node_at(loc)
        return node.start_mark.line + 1 if node is not None else None

    def validate(self, model: type[M], *, context: dict[str, Any] | None = None) -> M:
        """Validate the document against a pydantic ``model``, in strict mode (no value is
        converted: ``true`` is not 1, ``"4"`` is not 4, ``1`` is not ``true``), and check that
        the items of every list of the document that have an ``id`` each have their own
        (:func:`repeated_ids`).

        Raises:
            DataError: one :class:`DataProblem` per wrong value, each with its line; a repeated
                id names the line of its first use too.
        """
        if self.data is None:
            raise DataError([DataProblem(self.path, 1, "", "an empty document", "the file's contents (see its JSON Schema: gunbai schema)")])
        fields = model.model_fields
        required = [n for n, f in fields.items() if f.is_required()]
        keys_given = {str(k) for k in self.data} if isinstance(self.data, dict) else set()
        if keys_given and fields and (not keys_given & set(fields) or len(required) >= 4 and 4 * len(keys_given & set(required)) < len(required)):
            # not one key of the kind of file wanted, or not a quarter of its required keys: another
            # kind of file (weapons.yaml given as a roster, units.yaml as a scenario)
            keys = [str(k) for k in self.data]
            wanted = [n for n, f in fields.items() if f.is_required()] or list(fields)
            raise DataError([DataProblem(self.path, self.line_of((keys[0],)), "", "a file with the keys " + ", ".join(keys[:4]) + (" …" if len(keys) > 4 else ""),
                                         f"a {model.__name__} file (with the keys {', '.join(wanted[:6])}): is it the right file?")])
        try:
            value = model.model_validate(self.data, context=context, strict=True)
        except ValidationError as exc:
            raise DataError(problems_from_validation(exc, self)) from exc
        repeated = [DataProblem(self.path, self.line_of(loc), format_location(loc), repr(key), f"an id used once in {format_location(loc[:-2])} "
                                f"({also_at(self.path, self.line_of(first), format_location(first))})")
                    for loc, key, first in repeated_ids(value)]
        if repeated:
            raise DataError(repeated)
        return value


def also_at(path: Path, line: int | None, where: str = "") -> str:
    """Where a value was first given, for the message about its second use: ``"also at
    units.yaml:12 units[0].id"``."""
    loc = f"{path}:{line}" if line else f"{path}"
    return f"also at {loc}" + (f" {where}" if where else "")


def repeated_ids(model: BaseModel) -> list[tuple[tuple[Any, ...], Any, tuple[Any, ...]]]:
    """Every item of a list inside ``model`` whose ``id`` an earlier item of the same list has:
    ``(location of the repeated id, the id, location of its first use)``.

    Each list of models with an ``id`` field is a catalogue (units, leaders, markers, die
    faces, weapons, a faction's models, a scenario's sides and units, the documents and errata
    of ``sources.yaml``…): whatever the kind, one id is one thing. Ids of different lists may
    be the same (the ``charge`` of two modifier tables).

    Example::

        >>> from pipeline.data.common import Document, Sources
        >>> doc = {"id": "a", "title": "A", "where": "x"}
        >>> repeated_ids(Sources(documents=[doc, doc]))
        [(('documents', 1, 'id'), 'a', ('documents', 0, 'id'))]
    """
    out: list[tuple[tuple[Any, ...], Any, tuple[Any, ...]]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(model, ())]
    while stack:
        value, loc = stack.pop()
        if isinstance(value, BaseModel):
            for name in reversed(type(value).model_fields):
                stack.append((getattr(value, name), loc + (name,)))
        elif isinstance(value, (list, tuple)):
            first: dict[Any, int] = {}
            for i, item in enumerate(value):
                if isinstance(item, BaseModel) and "id" in type(item).model_fields:
                    key = item.id
                    if key in first:
                        out.append((loc + (i, "id"), key, loc + (first[key], "id")))
                    else:
                        first[key] = i
            stack.extend((item, loc + (i,)) for i, item in reversed(list(enumerate(value))))
        elif isinstance(value, dict):
            stack.extend((v, loc + (k,)) for k, v in reversed(list(value.items())))
    return out


def _child(node: yaml.Node | None, part: Any) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        # the last one: after a merge key (<<: *base) the mapping holds the base's pairs first
        # and the keys written here after them, and the later one is the value
        for key_node, value_node in reversed(node.value):
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(part):
                return value_node
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        if 0 <= part < len(node.value):
            return node.value[part]
    return None


#: Most values a document may hold once its aliases are expanded. Hand-written data holds a
#: few thousand; an alias bomb ("billion laughs") holds billions.
MAX_EXPANDED_NODES = 1_000_000


def _expanded_size(root: yaml.Node | None) -> int:
    """Number of nodes the document holds with every alias expanded, computed in time linear
    in the text (each shared node is sized once)."""
    if root is None:
        return 0
    size: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in size:
            continue
        if isinstance(node, yaml.MappingNode):
            kids = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            kids = list(node.value)
        else:
            kids = []
        if children_done or not kids:
            size[id(node)] = min(1 + sum(size[id(k)] for k in kids), MAX_EXPANDED_NODES + 1)
        else:
            stack.append((node, True))
            stack.extend((k, False) for k in kids if id(k) not in size)
    return size[id(root)]


def _duplicate_keys(node: yaml.Node | None, loc: tuple[Any, ...]):
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key is not None:
                if key in seen and key != "<<":
                    yield loc, key, key_node.start_mark.line + 1
                seen.add(key)
            yield from _duplicate_keys(value_node, loc + (key,))
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _duplicate_keys(item, loc + (i,))


#: A plain (unquoted) integer with a leading zero: YAML 1.1 (PyYAML) reads ``010`` as octal 8
#: (``[010, 9]`` loads as ``[8, 9]``), YAML 1.2 as 10; ``1:20`` is base 60 (80) in YAML 1.1.
_AMBIGUOUS_INT = re.compile(r"[-+]?(0[0-7_]+|[0-9][0-9_]*(:[0-5]?[0-9])+)")


def _scalars(node: yaml.Node | None, loc: tuple[Any, ...], *, keys: bool = False):
    """Every scalar node under ``node`` with its location, in document order, each once (an
    alias's node is visited where it is first met); with ``keys`` the mapping keys too (at their
    mapping's location)."""
    stack: list[tuple[yaml.Node | None, tuple[Any, ...]]] = [(node, loc)]
    seen: set[int] = set()
    while stack:
        n, where = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, yaml.ScalarNode):
            yield n, where
        elif isinstance(n, yaml.MappingNode):
            for k, v in reversed(n.value):
                key = k.value if isinstance(k, yaml.ScalarNode) else None
                stack.append((v, where + (key,)))
                if keys:
                    stack.append((k, where))
        elif isinstance(n, yaml.SequenceNode):
            for i, item in reversed(list(enumerate(n.value))):
                stack.append((item, where + (i,)))


def _ambiguous_numbers(node: yaml.Node | None, loc: tuple[Any, ...]):
    """Plain scalars PyYAML would read as an octal or base-60 integer: ``(loc, value, line,
    expected)`` each. A quoted ``'010'`` is text and fine."""
    for n, where in _scalars(node, loc):
        if n.tag == "tag:yaml.org,2002:int" and not n.style and _AMBIGUOUS_INT.fullmatch(n.value):
            if ":" in n.value:
                expected = f"a number without ':' (YAML 1.1 reads {n.value} as a base-60 number); quote it if it is text"
            else:
                sign = "-" if n.value.startswith("-") else ""
                plain = sign + (n.value.replace("_", "").lstrip("+-").lstrip("0") or "0")
                expected = f"a number without leading zeros (YAML 1.1 reads {n.value} as octal {int(n.value.replace('_', ''), 8)}); write {plain}, or quote it if it is text"
            yield where, repr(n.value), n.start_mark.line + 1, expected


#: Characters no text of a data file may hold, written as escapes in a quoted YAML string
#: (``"Samurai\\x01"``; PyYAML refuses most of them written raw): the C0 controls but tab and
#: line feed, DEL, the C1 controls, lone surrogates and the noncharacters. A module's XML cannot
#: hold most of them (lxml refuses them), and none is drawn.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
                     + "".join(f"{chr(p * 0x10000 + 0xFFFE)}{chr(p * 0x10000 + 0xFFFF)}" for p in range(1, 17)) + "]")


def _control_characters(node: yaml.Node | None, loc: tuple[Any, ...]):
    """Scalars (keys and values) holding a :data:`CONTROL` character: ``(loc, value, line,
    expected)`` each."""
    for n, where in _scalars(node, loc, keys=True):
        m = CONTROL.search(n.value)
        if m:
            shown = n.value if len(n.value) <= 60 else n.value[:57] + "..."
            yield (where, ascii(shown), n.start_mark.line + 1,
                   f"a text without control characters (U+{ord(m.group()):04X} at character {m.start() + 1}; delete it, or write the character meant)")


def format_location(loc: tuple[Any, ...]) -> str:
    """``("units", 3, "standard")`` → ``units[3].standard``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _data_path(loc: tuple[Any, ...], data: Any) -> tuple[Any, ...]:
    """Keep the parts of a pydantic error location that are real keys or indices of ``data``.

    Pydantic adds the names of union members and validators (``int``, ``literal['unknown']``,
    ``function-after[...]``) to its locations; they are not in the file.
    """
    path: list[Any] = []
    cur = data
    for i, part in enumerate(loc):
        if isinstance(cur, dict) and part in cur or isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
            path.append(part)
            cur = cur[part]
        elif isinstance(cur, dict) and isinstance(part, str) and i == len(loc) - 1:
            path.append(part)  # a missing or unexpected key: keep it in the message
    return tuple(path)


#: Longest value a message quotes whole.
SHOWN_CHARS = 80


def shown_value(value: Any) -> str:
    """``value`` for a message: its ``repr`` when short, else what it is (a mapping: its keys;
    a list: its length; a text: its start and length), so a line stays a line.

    >>> shown_value([8.0, 4.0]), shown_value({"id": "ccsb", "name": "x" * 100})
    ('[8.0, 4.0]', 'the mapping of id, name')
    """
    text = repr(value)
    if len(text) <= SHOWN_CHARS:
        return text
    if isinstance(value, dict):
        keys = [str(k) for k in value]
        return "the mapping of " + ", ".join(keys[:6]) + (f" and {len(keys) - 6} more keys" if len(keys) > 6 else "")
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} items"
    if isinstance(value, str):
        return repr(value[:SHOWN_CHARS - 20]) + f"… ({len(value)} characters)"
    return text[:SHOWN_CHARS] + "…"


def _value_at(data: Any, path: tuple[Any, ...], default: Any) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return default
    return data


def problems_from_validation(exc: ValidationError, doc: YamlDocument) -> list[DataProblem]:
    """Turn pydantic errors into one :class:`DataProblem` per wrong value (unions merged)."""
    from pipeline.data.common import FieldError

    grouped: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, FieldError):  # a model's check about one of its fields: blame the field
            loc += (cause.field,)
            err = {**err, "input": _value_at(doc.data, _data_path(loc, doc.data), err.get("input"))}
        path = _data_path(loc, doc.data)
        grouped.setdefault(path, []).append(err)
    problems = []
    for path, errs in grouped.items():
        first = errs[0]
        if first["type"] == "missing":
            value = f"missing key {path[-1]!r}" if path else "missing key"
            expected = "the key to be present"
        elif first["type"] == "extra_forbidden":
            value = f"key {path[-1]!r}" if path else "key"
            expected = "only the keys the schema defines (see the JSON Schema: gunbai schema)"
        else:
            value = shown_value(first.get("input"))
            msgs: list[str] = []
            for e in errs:
                msg = e["msg"]
                msg = msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")
                msg = msg[0].lower() + msg[1:] if msg else msg
                if msg not in msgs:
                    msgs.append(msg)
            expected = "; or ".join(msgs)
        problems.append(DataProblem(doc.path, doc.line_of(path), format_location(path), value, expected))
    return problems
