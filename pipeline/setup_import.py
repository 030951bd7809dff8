"""``gunbai import``: bring a VASSAL setup (a saved game or predefined setup) in as canonical data.

The job, game-agnostic (each game system supplies an :class:`Importer`)::

    module (.vmod) ──read_module──▶ maps, boards, grids, palette, prototypes
    setup (.vsav)  ──read_save────▶ pieces ──locate_pieces──▶ board pixels, grid location, slot
                                              │
    piece mapping (MAP.yaml) + the system's ──┘──▶ what each piece is in gunbai's data
    own recognition of gunbai-made pieces          (unit, leader, terrain, marker, model…)
                                              │
    the system's importer ────────────────────┴──▶ a scenario file in gunbai's format, every
                                                   entry commented with where it came from,
                                                   then ``verify`` on it at once

The piece-mapping file (``MAP.yaml``)::

    system: genpei
    map: Battlefield                # the VASSAL map whose pieces are imported (default: the
                                    # one holding most pieces)
    first_hex: "1,1"                # hex systems: VASSAL's location name of gunbai hex [1, 1]
    px_per_inch: 24                 # measured systems: board pixels per inch
    pieces:                         # first match wins: name, then slot, then prototype
      - name: "Samurai Infantry (red)"
        as: {unit: samurai_infantry, army: red}
      - prototype: "Dice"
        ignore: true

Every piece on the imported map must be mapped (or ignored): an unmapped or unplaceable piece is
an error naming the piece and its position, and nothing is written. ``--draft-pieces FILE``
writes a draft mapping listing every kind of piece found, the unknown ones with ``as: null`` for
a person to complete.

The module and the setup are untrusted: they are read through the bounded, entity-free readers
of :mod:`pipeline.vassal.archive`; nothing they contain becomes a path.
"""

from __future__ import annotations

import importlib
import os
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from pipeline.data.common import Fixed, Strict
from pipeline.data.yamlfile import YamlDocument
from pipeline.errors import DataError, DataProblem, GunbaiError
from pipeline.output import check_overwrite
from pipeline.vassal.archive import VassalFormatError, open_archive
from pipeline.vassal.atstart import AT_START, at_start_save
from pipeline.vassal.read import ModuleInfo, read_module
from pipeline.vassal.save import ERROR as SAVE_ERROR
from pipeline.vassal.save import DecodedSave, SetupPiece, locate_pieces, read_save, read_save_path

__all__ = [
    "ImportError_",
    "ImportResult",
    "Importer",
    "Mapped",
    "PieceMapFile",
    "PieceRule",
    "SetupSource",
    "import_setup",
    "load_setup",
    "merge_extension",
    "merge_into_base",
    "top_level_blocks",
    "yaml_str",
]


class ImportError_(GunbaiError):
    """An import that cannot be done: the message has one line per problem."""


class PieceRule(Strict):
    """One rule of the piece mapping: which pieces (exactly one of ``name``, ``slot``,
    ``prototype``) and what they are (``as``, a dict the game system checks), or ``ignore``."""

    name: str | None = None
    slot: str | None = None
    prototype: str | None = None
    ignore: bool = False
    as_: dict[str, Any] | None = Field(None, alias="as")
    note: str | None = None


class PieceMapFile(Strict):
    """``MAP.yaml``: the game system, the map and board to read, how positions become gunbai
    places (``first_hex`` for hex systems: the VASSAL location name of hex [1, 1];
    ``px_per_inch`` and ``table_origin`` (board pixels of the table's north-west corner) for
    measured systems), and the piece rules."""

    system: str
    map: str | None = None
    board: str | None = None
    first_hex: str | None = None
    px_per_inch: float | None = Field(None, gt=0)
    table_origin: Fixed[float, float] = (0.0, 0.0)
    pieces: list[PieceRule] = []


@dataclass(frozen=True)
class Mapped:
    """A located piece and what it is: ``target`` (the system's dict, e.g. ``{unit:
    samurai_infantry, army: red}``) and ``how`` (``"mapping line N"`` or ``"its own
    properties"``)."""

    piece: SetupPiece
    target: dict[str, Any]
    how: str

    def origin(self) -> str:
        """Where the entry came from, for the output's comments: the piece, its slot, its
        VASSAL location and board pixels."""
        p = self.piece
        slot = f" (palette '{p.slot}')" if p.slot and p.slot != p.name else ""
        where = f"at {p.location}" if p.location else "at"
        return f"'{p.name}'{slot} {where} ({p.x}, {p.y}) px; {self.how}"


@dataclass
class SetupSource:
    """The inputs of one import, read: module, setup, their names for messages, the chosen map
    and board."""

    module: ModuleInfo
    save: DecodedSave
    module_path: Path
    setup_label: str
    map_name: str
    pieces: list[SetupPiece]
    other_maps: Counter = field(default_factory=Counter)


class Importer(Protocol):
    """What a game system supplies to ``gunbai import`` (``pipeline.systems.<s>.importer``)."""

    #: keys a mapping rule's ``as`` may hold, and the keys of which exactly one is required
    TARGET_KEYS: frozenset[str]
    KIND_KEYS: tuple[str, ...]
    #: the pydantic model of the file the import writes
    SCENARIO_MODEL: type

    def own_target(self, piece: SetupPiece) -> dict[str, Any] | None: ...

    def check_target(self, data: Any, target: dict[str, Any]) -> str | None: ...

    def load_data(self, data_dir: Path) -> Any: ...

    def scenario_text(self, data: Any, source: SetupSource, mapping: PieceMapFile, mapped: list[Mapped],
                      base: YamlDocument | None) -> str: ...


@dataclass
class ImportResult:
    """What an import did: the file written (None when nothing was), the pieces imported and
    ignored, the verify findings on the written file, and notes for the terminal."""

    written: Path | None
    imported: int = 0
    ignored: int = 0
    findings: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    draft: Path | None = None


def system_importer(system: str) -> Importer:
    """The importer of a game system (``pipeline.systems.<system>.importer``).

    Raises:
        ImportError_: unknown system.
    """
    from pipeline.systems.base import SYSTEMS

    if system not in SYSTEMS:
        raise ImportError_(f"--system {system!r}: expected one of {', '.join(SYSTEMS)}")
    return importlib.import_module(f"pipeline.systems.{system}.importer")  # type: ignore[return-value]


def load_setup(setup: Path, module_path: Path, extensions: Sequence[Path] = ()) -> tuple[ModuleInfo, DecodedSave, str]:
    """Read the module (with the ``extensions`` loaded onto it) and the setup. ``setup`` is a
    ``.vsav`` file, or, when no such file exists, the name (or archive path) of a predefined
    setup stored in the module or in one of the extensions, or ``at-start``
    (:data:`~.vassal.atstart.AT_START`): the module's At-Start Stacks, the pieces a new game
    starts with (:func:`~.vassal.atstart.at_start_save`).

    Raises:
        ImportError_: a file cannot be read or is not what it should be, or the save is cut
            short or damaged (one line naming it).
    """
    if setup.is_dir():
        raise ImportError_(f"{setup}: is a folder; expected a saved game or setup (.vsav), or the name of a setup in {module_path}")
    which = module_path
    try:
        with open_archive(module_path) as arc:
            module = read_module(arc)
            holders: list[tuple[Path, list[tuple[str, str]]]] = [(module_path, list(module.setups))]
            for ext in extensions:
                which = ext
                with open_archive(ext) as earc:
                    info = read_module(earc)
                merge_extension(module, info)
                holders.append((ext, info.setups))
            which = setup
            if setup.is_file():
                save = read_save_path(setup)
                label = str(setup)
            elif str(setup) == AT_START:
                # the module's At-Start Stacks: the pieces a new game starts with
                entry = "buildFile.xml" if "buildFile.xml" in arc else "buildFile"
                save = at_start_save(arc.read_xml(entry), module)
                if not save.pieces:
                    raise ImportError_(f"{module_path}: the module has no At-Start Stack with "
                                       "pieces placed on a map; nothing written")
                label = f"{module_path}: At-Start Stacks"
            else:
                wanted = str(setup)
                found = next(((path, f) for path, setups in holders for n, f in setups if wanted in (n, f)), None)
                path, entry = found if found is not None else (module_path, wanted)
                with open_archive(path) as holder:
                    if entry not in holder:
                        names = ", ".join(repr(n) for _p, setups in holders for n, _f in setups) or "none"
                        raise ImportError_(f"{setup}: no such file, and {module_path}"
                                           + (" and its extensions" if extensions else "")
                                           + f" have no predefined setup of that name (setups: {names})")
                    save = read_save(holder.read(entry))
                label = f"{path}:{entry}"
    except VassalFormatError as exc:
        raise ImportError_(f"{which}: {exc}") from None
    broken = [(i, message) for i, severity, message in save.problems if severity == SAVE_ERROR]
    if broken:
        # a save cut short (no end_save, a piece cut in half) or damaged: what it holds is not
        # the setup, and importing it would write a scenario short of pieces
        i, message = broken[0]
        at = f"command {i + 1}: " if i >= 0 else ""
        more = f" (and {len(broken) - 1} more)" if len(broken) > 1 else ""
        raise ImportError_(f"{label}: the save is cut short or damaged, so VASSAL would not load it ({at}{message}){more}; nothing written")
    return module, save, label


def merge_extension(module: ModuleInfo, extension: ModuleInfo) -> None:
    """What an extension adds to a module as VASSAL loads it onto the module: its maps,
    prototypes, palette slots and predefined setups (vassal-format.md §5)."""
    for name, m in extension.maps.items():
        module.maps.setdefault(name, m)
    module.prototypes.update({k: v for k, v in extension.prototypes.items() if k not in module.prototypes})
    module.slots.extend(extension.slots)
    module.setups.extend(extension.setups)


def _choose_map(module: ModuleInfo, pieces: list[SetupPiece], wanted: str | None, setup_label: str) -> str:
    if wanted is not None:
        if wanted not in module.maps:
            raise ImportError_(f"{setup_label}: the module has no map {wanted!r} (maps: {', '.join(repr(m) for m in module.maps)})")
        return wanted
    counts = Counter(p.map_name for p in pieces)
    if not counts:
        return next(iter(module.maps), "")
    return counts.most_common(1)[0][0]


def _load_mapping(path: Path | None, system: str) -> tuple[PieceMapFile, YamlDocument | None]:
    if path is None:
        return PieceMapFile(system=system), None
    doc = YamlDocument.load(path)
    mapping = doc.validate(PieceMapFile)
    problems = []
    if mapping.system != system:
        problems.append(DataProblem(path, doc.line_of(("system",)), "system", repr(mapping.system), f"{system!r} (the --system given)"))
    for i, rule in enumerate(mapping.pieces):
        keys = [k for k in ("name", "slot", "prototype") if getattr(rule, k) is not None]
        if len(keys) != 1:
            problems.append(DataProblem(path, doc.line_of(("pieces", i)), f"pieces[{i}]", ", ".join(keys) or "no key",
                                        "exactly one of name, slot or prototype"))
        if rule.ignore and rule.as_ is not None:
            problems.append(DataProblem(path, doc.line_of(("pieces", i, "ignore")), f"pieces[{i}]", "ignore with as", "either ignore: true or as: {...}"))
    if problems:
        raise DataError(problems)
    return mapping, doc


def _rule_for(piece: SetupPiece, mapping: PieceMapFile) -> tuple[int, PieceRule] | None:
    for key, values in (("name", [piece.name]), ("slot", [piece.slot] if piece.slot else []), ("prototype", list(piece.prototypes))):
        for value in values:
            for i, rule in enumerate(mapping.pieces):
                if getattr(rule, key) == value:
                    return i, rule
    return None


def _describe(p: SetupPiece) -> str:
    slot = f", palette '{p.slot}'" if p.slot and p.slot != p.name else ""
    where = f"{p.location} " if p.location else ""
    return f"piece '{p.name}'{slot} at {where}({p.x}, {p.y}) px on map '{p.map_name}'"


def map_pieces(importer: Importer, data: Any, source: SetupSource, mapping: PieceMapFile,
               mapping_path: Path | None, mapping_doc: YamlDocument | None) -> tuple[list[Mapped], list[SetupPiece], list[str]]:
    """Apply the mapping (then the system's recognition of its own pieces) to every piece of
    the imported map. Returns ``(mapped, ignored, errors)``; errors name the piece, its place
    and what is wrong."""
    mapped: list[Mapped] = []
    ignored: list[SetupPiece] = []
    errors: list[str] = []
    label = source.setup_label
    for p in source.pieces:
        found = _rule_for(p, mapping)
        if found is not None:
            i, rule = found
            line = mapping_doc.line_of(("pieces", i)) if mapping_doc is not None else None
            at = f"{mapping_path}:{line}" if line else f"{mapping_path} pieces[{i}]"
            if rule.ignore:
                ignored.append(p)
                continue
            if rule.as_ is None:
                errors.append(f"{label}: {_describe(p)}: {at} does not say what it is yet (as: null); complete the mapping")
                continue
            target = dict(rule.as_)
            problem = _check(importer, data, target)
            if problem:
                errors.append(f"{label}: {_describe(p)}: {at}: {problem}")
                continue
            mapped.append(Mapped(p, target, f"mapping {Path(str(mapping_path)).name}:{line}" if line else "mapping"))
            continue
        if p.properties.get("Notice"):  # a notice gunbai's own module lays on the board, no scenario piece
            ignored.append(p)
            continue
        own = importer.own_target(p)
        if own is not None:
            problem = _check(importer, data, own)
            if problem:
                errors.append(f"{label}: {_describe(p)}: its properties {dict(p.properties)} name {problem}")
                continue
            mapped.append(Mapped(p, own, "its own properties"))
            continue
        errors.append(f"{label}: {_describe(p)} is not in the piece mapping" + (f" {mapping_path}" if mapping_path else "")
                      + "; map it (name, slot or prototype → what it is) or ignore it")
    return mapped, ignored, errors


def _check(importer: Importer, data: Any, target: dict[str, Any]) -> str | None:
    unknown = sorted(set(target) - importer.TARGET_KEYS)
    if unknown:
        return f"unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(importer.TARGET_KEYS))})"
    kinds = [k for k in importer.KIND_KEYS if k in target]
    if len(kinds) != 1:
        return f"says {', '.join(kinds) or 'nothing'}; expected exactly one of {', '.join(importer.KIND_KEYS)}"
    return importer.check_target(data, target)


def yaml_str(value: Any) -> str:
    """A scalar as YAML flow text: numbers as numbers (floats to 4 decimals, trailing zeros
    dropped), plain words when they read back as the same string, else double-quoted.

    >>> yaml_str("Samurai Infantry (red)"), yaml_str("yes"), yaml_str(12.50), yaml_str("a: b")
    ('Samurai Infantry (red)', '"yes"', '12.5', '"a: b"')
    """
    import json
    import re

    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = f"{round(value, 4):.4f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    text = str(value)
    plain = re.fullmatch(r"[A-Za-z_][A-Za-z0-9_ .'()/&-]*", text) and text.strip() == text
    if plain and text.lower() not in ("yes", "no", "on", "off", "true", "false", "null", "y", "n", "~") and ": " not in text and " #" not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def top_level_blocks(text: str) -> list[tuple[str | None, list[str]]]:
    """Split a YAML file into its top-level blocks ``(key, lines)``, each with the comment lines
    just above its key; lines before the first key form a block with key None."""
    blocks: list[tuple[str | None, list[str]]] = [(None, [])]
    pending: list[str] = []
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):", line)
        if m:
            blocks.append((m.group(1), pending + [line]))
            pending = []
        elif line.startswith("#") or not line.strip():
            pending.append(line)
        else:
            blocks[-1][1].extend(pending + [line])
            pending = []
    blocks[-1][1].extend(pending)
    return blocks


def merge_into_base(base: YamlDocument, blocks: dict[str, list[str]], header: list[str], *, schema_line: str | None = None,
                    replace: Sequence[str] = ()) -> str:
    """The base file's text with its top-level blocks named in ``blocks`` (and in ``replace``)
    replaced by the imported lines, the comments above them kept, every other block copied
    as it is (comments and citations included), and ``header`` first; blocks the base lacks
    are added at the end."""
    out: list[str] = list(header)
    seen: set[str] = set()
    text = base.path.read_text(encoding="utf-8") if base.path.is_file() else ""
    for key, lines in top_level_blocks(text):
        lines = [ln for ln in lines if ln != schema_line]
        if key is not None and (key in blocks or key in replace):
            if key not in seen:
                out.extend(ln for ln in lines if ln.startswith("#"))
                out.extend(blocks.get(key, []))
                seen.add(key)
            continue
        out.extend(lines)
    for key, lines in blocks.items():
        if key not in seen:
            out.extend(lines)
    return "\n".join(out).rstrip("\n") + "\n"


def write_draft(path: Path, system: str, source: SetupSource, mapping: PieceMapFile, importer: Importer) -> Path:
    """Write a draft piece mapping to ``path``: the system, map, board, the rules already in
    ``mapping``, then one rule per kind of piece (by name) on the map that nothing maps yet,
    with ``as: null`` and a comment saying where such pieces stand and what to write."""
    from pipeline.output import write_bytes_atomic

    lines = [
        "# gunbai piece mapping (draft): what each piece of the VASSAL module is in gunbai's data.",
        f"# Written by `gunbai import --draft-pieces` from {source.setup_label} and {source.module_path}",
        f"# (module {source.module.name!r} {source.module.version}). Complete every `as: null`, or write",
        "# `ignore: true` for pieces that are not part of the scenario (dice, turn track, cards…).",
        f"# {system} targets: one of {', '.join(importer.KIND_KEYS)}; other keys: "
        + ", ".join(sorted(importer.TARGET_KEYS - set(importer.KIND_KEYS))) + ".",
        f"system: {system}",
        f"map: {yaml_str(source.map_name)}",
    ]
    if mapping.board:
        lines.append(f"board: {yaml_str(mapping.board)}")
    if mapping.first_hex:
        lines.append(f"first_hex: {yaml_str(mapping.first_hex)}")
    elif getattr(importer, "HEX", False):
        first = next((p.location for p in source.pieces if p.location), None)
        lines.append(f"first_hex: null  # TODO: VASSAL's location name of gunbai hex [1, 1] (e.g. {yaml_str(first or '0101')})")
    if mapping.px_per_inch:
        lines.append(f"px_per_inch: {mapping.px_per_inch:g}")
    elif getattr(importer, "MEASURED", False):
        lines.append("px_per_inch: null  # TODO: board pixels per inch of the table")
    if mapping.table_origin != (0.0, 0.0):
        lines.append(f"table_origin: [{mapping.table_origin[0]:g}, {mapping.table_origin[1]:g}]")
    lines.append("pieces:")
    for rule in mapping.pieces:
        key = next(k for k in ("name", "slot", "prototype") if getattr(rule, k) is not None)
        lines.append(f"  - {key}: {yaml_str(getattr(rule, key))}")
        if rule.ignore:
            lines.append("    ignore: true")
        else:
            lines.append("    as: " + _flow(rule.as_))
    seen: dict[str, list[SetupPiece]] = {}
    for p in source.pieces:
        if _rule_for(p, mapping) is None and importer.own_target(p) is None:
            seen.setdefault(p.name, []).append(p)
    for name, ps in seen.items():
        where = ", ".join(p.location or f"({p.x}, {p.y})" for p in ps[:4]) + (" …" if len(ps) > 4 else "")
        extra = f"; palette '{ps[0].slot}'" if ps[0].slot and ps[0].slot != name else ""
        protos = f"; prototypes {', '.join(ps[0].prototypes)}" if ps[0].prototypes else ""
        props = ", ".join(f"{k}={v}" for k, v in list(ps[0].properties.items())[:4])
        lines.append(f"  # {len(ps)} on the map at {where}{extra}{protos}" + (f"; properties {props}" if props else ""))
        lines.append(f"  - name: {yaml_str(name)}")
        lines.append("    as: null  # TODO")
    return write_bytes_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))


def _flow(d: dict[str, Any] | None) -> str:
    if d is None:
        return "null"
    parts = []
    for k, v in d.items():
        if isinstance(v, list | tuple):
            parts.append(f"{k}: [{', '.join(yaml_str(x) for x in v)}]")
        else:
            parts.append(f"{k}: {yaml_str(v)}")
    return "{" + ", ".join(parts) + "}"


def with_schema_header(text: str, schema: Path, out: Path) -> str:
    """``text`` with one yaml-language-server line first, naming ``schema`` relative to the
    folder ``out`` is written to (wherever that is: a scenario imported outside the data folder
    still finds its schema), and no other such line.

    >>> print(with_schema_header("# yaml-language-server: $schema=../schema/s.json\\nid: a\\n", Path("d/genpei/schema/s.json"), Path("x/a.yaml")))
    # yaml-language-server: $schema=../d/genpei/schema/s.json
    id: a
    <BLANKLINE>
    """
    from pipeline.schema import HEADER

    rel = Path(os.path.relpath(os.path.abspath(schema), os.path.abspath(out.parent))).as_posix()
    lines = [ln for ln in text.split("\n") if not ln.startswith(HEADER)]
    return "\n".join([HEADER + rel] + lines)


def system_of_module(module_path: Path, data_root: Path) -> str | None:
    """The game system whose data (``data_root/<system>/system.yaml``, ``vassal.module_name``)
    names the module at ``module_path``: a module gunbai built from that data; None when none or
    several do, or the module cannot be read (the import reports that)."""
    from pipeline.systems.base import SYSTEMS

    try:
        with open_archive(module_path) as arc:
            name = read_module(arc).name
    except (VassalFormatError, OSError):
        return None
    found = []
    for system in SYSTEMS:
        path = data_root / system / "system.yaml"
        try:
            data = YamlDocument.load(path).data if path.is_file() else None
        except DataError:
            continue
        vassal = data.get("vassal") if isinstance(data, dict) else None
        if isinstance(vassal, dict) and vassal.get("module_name") == name:
            found.append(system)
    return found[0] if len(found) == 1 else None


def _yaml_of_kind(model: type[BaseModel], needed: str):
    """``path → bool``: the file is a YAML mapping holding ``needed`` and only keys of ``model``
    (a scenario file, a piece mapping: what ``import`` may replace)."""

    def check(path: Path) -> bool:
        try:
            data = YamlDocument.load(path).data
        except DataError:
            return False
        return isinstance(data, dict) and needed in data and all(str(k) in model.model_fields or str(k) == "<<" for k in data)

    return check


def check_import_outputs(setup: Path, module_path: Path, system: str, out: Path, *, pieces: Path | None = None, base: Path | None = None,
                         draft_pieces: Path | None = None, force: bool = False) -> None:
    """Refuse, before anything is read, an ``-o`` or ``--draft-pieces`` that would write over
    one of the import's inputs (the setup, the module, the piece mapping) or over a file that
    is not a scenario file (resp. a piece mapping), unless ``force``. ``-o`` may be the
    ``--base`` file: that updates a scenario in place, its text kept.

    Raises:
        ImportError_: one line naming the option and the file.
    """
    importer = system_importer(system)
    inputs = {"setup (SETUP)": setup, "module (--module)": module_path, "piece mapping (--pieces)": pieces, "base scenario (--base)": base}
    if draft_pieces is not None and os.path.realpath(draft_pieces) == os.path.realpath(out):
        raise ImportError_(f"-o {out} and --draft-pieces {draft_pieces} name one file; give each its own")
    try:
        check_overwrite(out, "-o", kind=f"a scenario file ({system})", inputs=inputs, allowed=(base,), force=force,
                        is_kind=_yaml_of_kind(importer.SCENARIO_MODEL, "id"))
        if draft_pieces is not None:
            check_overwrite(draft_pieces, "--draft-pieces", kind="a piece mapping", inputs={**inputs, "base scenario (--base)": base},
                            force=force, is_kind=_yaml_of_kind(PieceMapFile, "system"))
    except GunbaiError as exc:
        raise ImportError_(str(exc)) from None


def import_setup(setup: Path, module_path: Path, system: str, out: Path, *, data_root: Path = Path("source_data"),
                 pieces: Path | None = None, base: Path | None = None, draft_pieces: Path | None = None,
                 verify: Callable[[Path, Sequence[Path]], tuple[list, int]] | None = None,
                 extensions: Sequence[Path] = (), force: bool = False) -> ImportResult:
    """Import ``setup`` (read with ``module_path``'s maps and palette) as a scenario of
    ``system`` into ``out``; then verify it.

    Args:
        setup: a ``.vsav``, or the name of a predefined setup stored in the module.
        module_path: the ``.vmod`` the setup was made with.
        system: the game system (``genpei``, ``ronin``, ``ohw``, ``sekigahara``).
        out: the scenario file to write.
        data_root: the data folder (``source_data``); ``<data_root>/<system>`` gives the ids.
        pieces: the piece mapping (``MAP.yaml``); without it only pieces the system recognises
            by their own properties (pieces of gunbai's own modules) are imported.
        base: a scenario file whose fields a setup cannot give (name, sides and cards,
            victory, special rules…) are kept; its map part is replaced by the import.
        draft_pieces: write a draft mapping here (also when pieces are unmapped).
        extensions: extensions (``.vmdx``) loaded onto the module when the setup was made (their
            pieces, prototypes and setups count as the module's; a setup stored in one may be
            named).
        force: write ``out`` (and ``draft_pieces``) even over an input or a file of another
            kind (:func:`check_import_outputs`).

    Returns:
        an :class:`ImportResult`.

    Raises:
        ImportError_: unreadable inputs, or pieces that cannot be mapped or placed (one line
            each, naming the piece and its position); nothing is written then, except the draft
            mapping when ``draft_pieces`` is given.
        DataError: the mapping or base file is invalid (file, line, value).
    """
    importer = system_importer(system)
    check_import_outputs(setup, module_path, system, out, pieces=pieces, base=base, draft_pieces=draft_pieces, force=force)
    if not (data_root / system).is_dir():
        raise ImportError_(f"--data {data_root}: no {system} data folder ({data_root / system}); the import needs the data it imports "
                           "into (its unit, terrain and marker ids): run it where source_data is, or give --data")
    mapping, mapping_doc = _load_mapping(pieces, system)
    module, save, label = load_setup(setup, module_path, extensions)
    located = locate_pieces(save, module)
    map_name = _choose_map(module, located, mapping.map, label)
    on_map = [p for p in located if p.map_name == map_name and (mapping.board is None or p.board == mapping.board)]
    source = SetupSource(module, save, module_path, label, map_name, on_map,
                         Counter(p.map_name for p in located if p.map_name != map_name))
    data = importer.load_data(data_root / system)
    mapped, ignored, errors = map_pieces(importer, data, source, mapping, pieces, mapping_doc)
    result = ImportResult(None, len(mapped), len(ignored))
    if draft_pieces is not None:
        result.draft = write_draft(draft_pieces, system, source, mapping, importer)
        result.notes.append(f"draft piece mapping written to {draft_pieces}")
    if errors:
        hint = "" if draft_pieces is not None else "\n(`--draft-pieces MAP.yaml` writes a draft mapping listing every unmapped piece)"
        raise ImportError_("\n".join(errors) + f"\n{len(errors)} piece(s) cannot be imported; nothing written" + hint)
    base_doc = YamlDocument.load(base) if base is not None else None
    try:
        text = importer.scenario_text(data, source, mapping, mapped, base_doc)
    except ValueError as exc:
        raise ImportError_(f"{label}: {exc}; nothing written") from None
    from pipeline.output import write_bytes_atomic

    text = with_schema_header(text, data_root / system / "schema" / "scenario.schema.json", out)
    # Check what is about to be written before writing it: valid YAML and valid against the
    # system's scenario schema (an error here is gunbai's, but it must not leave a bad file).
    YamlDocument.parse(text, out).validate(importer.SCENARIO_MODEL)
    write_bytes_atomic(out, text.encode("utf-8"))
    result.written = out
    if source.other_maps:
        result.notes.append("left out (other maps): " + ", ".join(f"{n} on '{m}'" for m, n in sorted(source.other_maps.items())))
    if verify is not None:
        findings, _n = verify(data_root / system, [out])
        result.findings = list(findings)
    return result
