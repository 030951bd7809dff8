"""``gunbai import --module M.vmod -o DRAFT/``: a draft data folder from a module gunbai did not
write, for a person to complete.

What a module tells (and so what the draft holds): its boards and grids, its palette (every
PieceSlot with its label, palette list and prototypes) and its prototypes. What it does not tell
(the rules: movement, dice, ranges, figures, costs) is written ``unknown`` with a ``TODO``, and
every entry cites the module as its source. The folder::

    DRAFT/board.yaml    hex systems: columns, rows and which rows are short, counted from the
                        module's own HexGrid on its board; the grid's attributes as comments
    DRAFT/units.yaml    one draft unit per palette piece (ids from the labels), stats unknown
    DRAFT/pieces.yaml   a piece mapping (``gunbai import --pieces``): every palette piece to its
                        draft unit (or ``ignore``), to be checked: leaders, terrain and markers
                        are told apart by a person
    DRAFT/README.md     what was read, what to complete, and the next commands

Nothing is written over an existing folder's files: the draft goes to a new (or empty) folder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from pipeline.errors import GunbaiError
from pipeline.output import Transaction, write_bytes_atomic
from pipeline.setup_import import yaml_str
from pipeline.vassal.archive import VassalFormatError, open_archive
from pipeline.vassal.grids import HexGrid
from pipeline.vassal.read import BoardInfo, ModuleInfo, read_module

__all__ = ["board_shape", "draft_data_folder", "slug"]


def slug(text: str, taken: set[str]) -> str:
    """A gunbai id (lower case, digits, underscores, starting with a letter) from a label, made
    unique against ``taken`` (which it joins)."""
    base = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "piece"
    if not base[0].isalpha():
        base = "p_" + base
    base = base[:56]
    out, n = base, 2
    while out in taken:
        out, n = f"{base}_{n}", n + 1
    taken.add(out)
    return out


def board_shape(board: BoardInfo) -> dict | None:
    """Rows, hexes per long row and the short-row parity of a board with a sideways HexGrid:
    the whole hexes inside the board image (half a hex across and two thirds of a row height
    from the centre), counted row by row (the raw column of the sideways frame), or None
    without a sideways grid and a known board size."""
    g = board.grid
    if not isinstance(g, HexGrid) or not g.sideways or board.size is None:
        return None
    w, h = board.size
    half_w, half_h = g.dy / 2, g.dx * 2 / 3  # half a hex across and point to point
    rows: list[list[int]] = []
    for rc in range(0, 200):
        y = g.center(rc, 0)[1]
        if y + half_h > h + 1:
            break
        xs = [x for x, _y in (g.center(rc, rr) for rr in range(-2, 200)) if x - half_w >= -1 and x + half_w <= w + 1]
        if y - half_h >= -1 and xs:
            rows.append(xs)
    if not rows:
        return None
    counts = [len(r) for r in rows]
    long_ = max(counts)
    short_rows = "even" if len(counts) > 1 and counts[1] < counts[0] else "odd" if len(counts) > 1 and counts[0] < counts[1] else "even"
    return {"rows": len(rows), "columns": long_, "short_rows": short_rows, "counts": counts}


def _lines_board(info: ModuleInfo, module_path: Path) -> tuple[list[str], str | None]:
    for m in info.maps.values():
        for b in m.boards.values():
            shape = board_shape(b)
            if shape is None:
                continue
            g = b.grid
            assert isinstance(g, HexGrid)
            n = g.numbering
            cite = f"{{doc: module, section: {yaml_str(f'map {m.name!r}, board {b.name!r}: HexGrid')}, confidence: M, note: \"Counted from the module's grid over its board image; check against the printed board.\"}}"
            lines = [
                "# yaml-language-server: $schema=../schema/board.schema.json",
                f"# Draft board from {module_path} (module {info.name!r} {info.version}): map {m.name!r}, board {b.name!r}",
                f"# {b.size[0]}x{b.size[1]} px, HexGrid x0={g.x0} y0={g.y0} dx={g.dx:g} dy={g.dy:g} sideways (rows of hexes),",
                f"# {len(shape['counts'])} rows holding {', '.join(map(str, shape['counts']))} hexes."
                + (f" Numbering first={n.first} sep={n.sep!r} offsets {n.h_off},{n.v_off}." if n else " No numbering."),
                f"id: {slug(b.name, set())}",
                f"name: {yaml_str(b.name)}",
                f"columns: {shape['columns']}",
                f"rows: {shape['rows']}",
                f"short_rows: {shape['short_rows']}",
                "section_lines: [4.0, 8.0]  # TODO: where the dotted section lines cross the board (in columns)",
                f"sources: [{cite}]",
            ]
            return lines, f"{m.name}"
    return [], None


def draft_data_folder(module_path: Path, out: Path, *, system: str | None = None) -> Iterator[str]:
    """Write the draft folder ``out`` for ``module_path``; yields one line per file written.

    Raises:
        GunbaiError: the module cannot be read, or ``out`` exists and is not an empty folder.
    """
    if out.exists() and not out.is_dir():
        raise GunbaiError(f"-o {out}: is a file; the draft goes to a new or empty folder")
    if out.is_dir() and any(out.iterdir()):
        raise GunbaiError(f"-o {out}: the draft goes to a new or empty folder (it exists and holds files)")
    try:
        with open_archive(module_path) as arc:
            info = read_module(arc)
    except VassalFormatError as exc:
        raise GunbaiError(f"{module_path}: {exc}") from None
    board, hex_map = _lines_board(info, module_path)
    taken: set[str] = set()
    units = ["# Draft units: one per palette piece of the module. Every rule value is unknown until",
             "# filled in from the game's rules, each with its source; delete what is not a unit",
             "# (leaders, terrain, markers go to leaders.yaml, terrain.yaml, markers.yaml).",
             f"# From {module_path} (module {info.name!r} {info.version}).", "units:"]
    pieces = ["# Draft piece mapping for `gunbai import --pieces`: every palette piece of the module to the",
              "# draft unit of the same name. Check each: change `unit:` to leader/terrain/marker where it",
              "# is one, give each army (colour) or side, and `ignore: true` what is not in a scenario.",
              f"system: {system or 'genpei'}"]
    if hex_map:
        pieces += [f"map: {yaml_str(hex_map)}", "first_hex: null  # TODO: VASSAL's location name of gunbai hex [1, 1]"]
    pieces.append("pieces:")
    seen_names: set[str] = set()
    for s in info.slots:
        if s.entry_name in seen_names:
            continue
        seen_names.add(s.entry_name)
        uid = slug(s.entry_name, taken)
        where = " / ".join(s.palette)
        protos = ", ".join(s.piece.prototype_names)
        cite = f"{{doc: module, section: {yaml_str(f'palette {where}: {s.entry_name}')}, confidence: L, note: \"Only the name comes from the module; the rules values are to be filled in.\"}}"
        units += [f"  - id: {uid}  # palette {where}" + (f"; prototypes {protos}" if protos else ""),
                  f"    name: {yaml_str(s.entry_name)}",
                  "    abbreviation: TODO", "    standard: unknown  # TODO", "    figures: unknown",
                  "    movement: {hexes: unknown, source: " + cite + "}",
                  "    close_combat: {dice: unknown, source: " + cite + "}",
                  "    retreat_hf_per_hex: unknown",
                  f"    sources: [{cite}]"]
        pieces += [f"  - slot: {yaml_str(s.entry_name)}", f"    as: {{unit: {uid}}}  # TODO: army or side; or leader/terrain/marker; or ignore: true"]
    readme = [f"# Draft data folder for {info.name} {info.version}", "",
              f"Written by `gunbai import --module {module_path}`. It holds what the module tells:",
              f"{'the board counted from its hex grid (board.yaml), ' if board else ''}one draft unit per palette piece",
              f"({len(seen_names)}, units.yaml) and a piece mapping (pieces.yaml). Nothing here is a rule yet:",
              "fill in every `unknown`/`TODO` from the game's rules with its source (add the rules",
              "document and the module to sources.yaml), then:", "",
              "```sh", "gunbai verify --data DATA_FOLDER",
              "gunbai import SETUP.vsav --module MODULE.vmod --system SYSTEM --pieces pieces.yaml -o scenarios/NAME.yaml",
              "```", ""]
    written = []
    with Transaction(out):  # all four files or none
        if board:
            written.append(write_bytes_atomic(out / "board.yaml", ("\n".join(board) + "\n").encode()))
        written.append(write_bytes_atomic(out / "units.yaml", ("\n".join(units) + "\n").encode()))
        written.append(write_bytes_atomic(out / "pieces.yaml", ("\n".join(pieces) + "\n").encode()))
        written.append(write_bytes_atomic(out / "README.md", ("\n".join(readme)).encode()))
    for p in written:
        yield f"{p}: written"
    if not board:
        yield f"{module_path}: no board with a sideways hex grid (rows of hexes): no board.yaml drafted"
