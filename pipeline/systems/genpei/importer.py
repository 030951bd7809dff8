"""``gunbai import`` for the Genpei (Commands & Colours) hex system: a VASSAL setup → a scenario.

Positions become hexes through the module's own grid and numbering: each piece's raw hex
(``HexGrid.raw_index``) is counted from the raw hex of gunbai's ``[1, 1]``, which the piece
mapping names by its VASSAL location (``first_hex``; gunbai's own modules number ``[1, 1]`` as
raw hex (0, 0), so it may be left out for them). The board's hexes must stand in rows (a
sideways ``HexGrid``), as on the Commands & Colours board: half-hex steps across the row are
counted from the left-most hex of row 1, so a piece half a hex off gunbai's columns is not on a
hex of the board and is an error.

What each piece is: its mapping rule (``as: {unit: samurai_infantry, army: red}``,
``{leader: cavalry_leader, army: yellow}``, ``{terrain: palisade, hexsides: [SW, SE]}``,
``{marker: wind_tide, direction: SE}``), else its own Marker properties when it is a piece of
gunbai's own module (``Unit``/``Leader``/``Terrain``/``Marker`` with ``Army``/``Hexsides`` and
the wind/tide arrow's ``Direction`` layer, :mod:`pipeline.systems.genpei.module`).

A leader in a unit's hex is attached to it (``units[].leader``); one alone is a lone leader. The
Command Tent/Ship belongs to the side of the unit in its hex. Every wind/tide arrow gives one
direction of ``wind_tide`` and one ``wind_tide`` marker entry.

With a base scenario (``--base``) every top-level block of the base file except the map part
(``terrain``, ``units``, ``leaders``, ``markers``, and ``wind_tide`` when the setup has an arrow)
is copied as it is, comments and citations included; ``map: not public`` becomes ``imported``
(unless the setup places nothing on the map, as the empty setups of the pack's catalogue do).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pipeline.data.yamlfile import YamlDocument
from pipeline.setup_import import Mapped, PieceMapFile, SetupSource, merge_into_base, yaml_str
from pipeline.systems.genpei.data import GenpeiData
from pipeline.systems.genpei.layout import DIRECTIONS
from pipeline.systems.genpei.load import load
from pipeline.systems.genpei.model import Scenario
from pipeline.vassal.grids import HexGrid
from pipeline.vassal.save import SetupPiece

#: Keys a mapping rule's ``as`` may hold; exactly one of :data:`KIND_KEYS`.
TARGET_KEYS = frozenset({"unit", "leader", "terrain", "marker", "army", "side", "hexsides", "direction", "name", "note"})
SCENARIO_MODEL = Scenario
KIND_KEYS = ("unit", "leader", "terrain", "marker")
HEX = True
#: The top-level blocks of a scenario an import writes (the rest come from the base).
MAP_BLOCKS = ("terrain", "units", "leaders", "markers")
SCHEMA_LINE = "# yaml-language-server: $schema=../schema/scenario.schema.json"


def load_data(data_dir: Path) -> GenpeiData:
    """The Genpei data (ids and the board) without its scenarios."""
    return load(data_dir, scenario_files=[])


def own_target(piece: SetupPiece) -> dict[str, Any] | None:
    """What a piece of gunbai's own Genpei module is, from its Marker properties, or None."""
    props = piece.properties
    army = props.get("Army") or props.get("Side")
    if props.get("Unit"):
        return {"unit": props["Unit"], **({"army": army} if army else {})}
    if props.get("Leader"):
        return {"leader": props["Leader"], **({"army": army} if army else {})}
    if props.get("Terrain"):
        sides = [d for d in (props.get("Hexsides") or "").split("-") if d]
        return {"terrain": props["Terrain"], **({"hexsides": sides} if sides else {})}
    if props.get("Marker"):
        out: dict[str, Any] = {"marker": props["Marker"]}
        level = piece.layers.get("Direction")
        if level is not None and 1 <= abs(level) <= len(DIRECTIONS):
            out["direction"] = DIRECTIONS[abs(level) - 1]
        return out
    return None


def check_target(data: GenpeiData, target: dict[str, Any]) -> str | None:
    """A problem with a mapping target (an id the data does not define, a bad army, hexside or
    direction), or None."""
    for key, catalogue, file in (("unit", data.units, "units.yaml"), ("leader", data.leaders, "leaders.yaml"),
                                 ("terrain", data.terrain, "terrain.yaml"), ("marker", data.markers, "markers.yaml")):
        if key in target and target[key] not in catalogue:
            return f"{key} {target[key]!r} is not in {file} (known: {', '.join(catalogue)})"
    if "army" in target and target["army"] not in data.system.armies:
        return f"army {target['army']!r} is not in system.yaml ({', '.join(data.system.armies)})"
    sides = target.get("hexsides", [])
    if not isinstance(sides, list) or any(d not in DIRECTIONS for d in sides):
        return f"hexsides {sides!r}: expected a list of {', '.join(DIRECTIONS)}"
    if "direction" in target and target["direction"] not in DIRECTIONS:
        return f"direction {target['direction']!r}: expected one of {', '.join(DIRECTIONS)}"
    if ("unit" in target or "leader" in target) and "army" not in target and "side" not in target:
        return "a unit or leader needs its army (colour) or side"
    return None


# --------------------------------------------------------------------------- hexes


def raw_of_location(grid: HexGrid, name: str, size: tuple[int, int] | None) -> tuple[int, int] | None:
    """The raw hex VASSAL names ``name`` on a board of ``size`` (searched over the board and a
    margin of 8 hexes round it), or None."""
    w, h = size or (0, 0)
    along = max(20, int((h if grid.sideways else w) / grid.dx) + 8)
    across = max(20, int((w if grid.sideways else h) / grid.dy) + 8)
    for rc in range(-8, along):
        for rr in range(-8, across):
            x, y = grid.center(rc, rr)
            if grid.location(x, y, size or (0, 0)) == name:
                return rc, rr
    return None


def hex_of(piece: SetupPiece, origin: tuple[int, int], data: GenpeiData) -> tuple[int, int] | str:
    """gunbai ``[column, row]`` of a piece, or why it has none. ``origin`` is the raw hex of
    ``[1, 1]``. Rows run along the raw column of the sideways grid; across a row, half-hex steps
    from ``[1, 1]`` give the column, a short row starting half a hex right (``board.yaml``)."""
    if piece.board is None:
        return f"it lies outside every board of map '{piece.map_name}'"
    if piece.raw is None or not isinstance(piece.grid, HexGrid):
        return f"board '{piece.board}' has no hex grid there"
    if not piece.grid.sideways:
        return "the board's hexes stand in columns (an upright HexGrid); gunbai's hex board has rows (a sideways grid)"
    rc, rr = piece.raw
    r0, c0 = origin
    row = rc - r0 + 1
    half = (2 * rr + rc % 2) - (2 * c0 + r0 % 2)
    short = 1 if data.board.is_short_row(row) else 0
    if (half - short) % 2:
        return f"it stands half a hex off the hexes of row {row}"
    col = (half - short) // 2 + 1
    if not data.board.contains((col, row)):
        return f"hex [{col},{row}] is off the board ({data.board.rows} rows of {data.board.columns} and {data.board.columns - 1} hexes)"
    return col, row


def _origin(source: SetupSource, mapping: PieceMapFile) -> tuple[int, int]:
    if mapping.first_hex is None:
        return 0, 0
    for p in source.pieces:
        if isinstance(p.grid, HexGrid):
            board = source.module.maps[p.map_name].boards.get(p.board or "")
            found = raw_of_location(p.grid, mapping.first_hex, board.size if board else None)
            if found is None:
                raise ValueError(f"first_hex {mapping.first_hex!r} is not a location of the board's grid")
            return found
    raise ValueError("no piece stands on a board with a hex grid")


# --------------------------------------------------------------------------- the scenario


def _side_ids(data: GenpeiData, base: YamlDocument | None, mapped: list[Mapped]) -> dict[str, str]:
    """Army colour → side id: the base's sides, else each army found is a side named by it."""
    if base is not None:
        return {s["army"]: s["id"] for s in base.data.get("sides", []) if isinstance(s, dict)}
    armies = []
    for m in mapped:
        a = m.target.get("army")
        if a and a not in armies:
            armies.append(a)
    return {a: a for a in armies}


def _flow(items: Iterable[tuple[str, Any]]) -> str:
    parts = []
    for k, v in items:
        if v is None:
            continue
        if isinstance(v, list | tuple):
            parts.append(f"{k}: [{', '.join(yaml_str(x) for x in v)}]")
        else:
            parts.append(f"{k}: {yaml_str(v)}")
    return "{" + ", ".join(parts) + "}"


def map_blocks(data: GenpeiData, source: SetupSource, mapping: PieceMapFile, mapped: list[Mapped],
               base: YamlDocument | None) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """The YAML lines of ``terrain``, ``units``, ``leaders``, ``markers`` (and ``wind_tide``
    when the setup has arrows), each entry commented with the piece it came from; and facts
    for the header (sides found, board edge per side).

    Raises:
        ValueError: a piece is not on a hex of the board, two units share a hex, or a side
            cannot be told (one line each, joined).
    """
    origin = _origin(source, mapping)
    side_of = _side_ids(data, base, mapped)
    errors: list[str] = []
    placed: list[tuple[Mapped, tuple[int, int]]] = []
    for m in mapped:
        h = hex_of(m.piece, origin, data)
        if isinstance(h, str):
            where = f"{m.piece.location} " if m.piece.location else ""
            errors.append(f"piece '{m.piece.name}' at {where}({m.piece.x}, {m.piece.y}) px cannot be placed: {h}")
            continue
        placed.append((m, h))

    def side(m: Mapped) -> str | None:
        if "side" in m.target:
            return str(m.target["side"])
        return side_of.get(m.target.get("army", ""))

    terrain: dict[tuple[str, tuple[str, ...]], list[tuple[tuple[int, int], Mapped]]] = {}
    units: list[tuple[tuple[int, int], Mapped, str | None]] = []
    leaders: list[tuple[tuple[int, int], Mapped, str | None]] = []
    markers: list[tuple[tuple[int, int], Mapped]] = []
    arrows: list[tuple[tuple[int, int], Mapped]] = []
    for m, h in placed:
        t = m.target
        if "terrain" in t:
            sides = tuple(d for d in DIRECTIONS if d in set(t.get("hexsides", [])))
            terrain.setdefault((t["terrain"], sides), []).append((h, m))
        elif "unit" in t or "leader" in t:
            s = side(m)
            if s is None:
                errors.append(f"piece '{m.piece.name}' at {m.piece.location} has army {m.target.get('army')!r}, which is no side of the base scenario ({', '.join(side_of) or 'none'})")
                continue
            (units if "unit" in t else leaders).append((h, m, s))
        elif t.get("marker") == "wind_tide":
            arrows.append((h, m))
        else:
            markers.append((h, m))
    unit_at: dict[tuple[int, int], tuple[Mapped, str | None]] = {}
    for h, m, s in units:
        if h in unit_at:
            errors.append(f"piece '{m.piece.name}' at {m.piece.location}: a second unit on hex [{h[0]},{h[1]}] (the first is '{unit_at[h][0].piece.name}')")
            continue
        unit_at[h] = (m, s)
    attached: dict[tuple[int, int], Mapped] = {}
    lone: list[tuple[tuple[int, int], Mapped, str | None]] = []
    for h, m, s in leaders:
        if h in unit_at and h not in attached and unit_at[h][1] == s:
            attached[h] = m
        else:
            lone.append((h, m, s))
    if errors:
        raise ValueError("\n".join(errors))

    # What a setup cannot hold (the historical name of a unit's commander, a note such as
    # "supply ship") is kept from the base scenario's unit or leader of the same side and type
    # on the same hex.
    kept: dict[tuple[str, str, str, tuple[int, int]], dict[str, Any]] = {}
    if base is not None:
        for kind in ("units", "leaders"):
            for e in base.data.get(kind) or []:
                if isinstance(e, dict) and isinstance(e.get("hex"), list):
                    what = e.get("unit") if kind == "units" else e.get("leader")
                    kept[(kind, str(e.get("side")), str(what), tuple(e["hex"]))] = e

    def keep(kind: str, s: str | None, what: str, h: tuple[int, int], key: str, m: Mapped) -> Any:
        if key in m.target:
            return m.target[key]
        return kept.get((kind, str(s), what, h), {}).get(key)

    blocks: dict[str, list[str]] = {}
    lines = ["terrain:"] if terrain else ["terrain: []"]
    for (tid, sides), entries in terrain.items():
        lines.append(f"  - terrain: {tid}")
        lines.append("    hexes:")
        for h, m in sorted(entries, key=lambda e: (e[0][1], e[0][0])):
            lines.append(f"      - [{h[0]}, {h[1]}]  # {m.origin()}")
        if sides:
            lines.append(f"    hexsides: [{', '.join(sides)}]")
    blocks["terrain"] = lines
    lines = ["units:"] if unit_at else ["units: []"]
    for h, (m, s) in sorted(unit_at.items(), key=lambda e: (e[1][1] or "", e[0][1], e[0][0])):
        ld = attached.get(h)
        extra = [("name", keep("units", s, m.target["unit"], h, "name", m)), ("note", keep("units", s, m.target["unit"], h, "note", m))]
        lines.append(f"  - {_flow([('side', s), ('unit', m.target['unit']), ('hex', list(h)), ('leader', ld.target['leader'] if ld else None), *extra])}")
        lines.append(f"    # {m.origin()}" + (f"; leader {ld.origin()}" if ld else ""))
    blocks["units"] = lines
    lines = ["leaders:"] if lone else ["leaders: []"]
    for h, m, s in lone:
        lines.append(f"  - {_flow([('side', s), ('leader', m.target['leader']), ('hex', list(h)), ('name', keep('leaders', s, m.target['leader'], h, 'name', m))])}  # {m.origin()}")
    blocks["leaders"] = lines
    lines = ["markers:"] if markers or arrows else ["markers: []"]
    for h, m in markers:
        mside = unit_at[h][1] if m.target["marker"] in ("command_tent", "command_ship") and h in unit_at else side(m)
        lines.append(f"  - {_flow([('marker', m.target['marker']), ('hex', list(h)), ('side', mside)])}  # {m.origin()}")
    for h, m in arrows:
        lines.append(f"  - {_flow([('marker', 'wind_tide'), ('hex', list(h))])}  # {m.origin()}")
    blocks["markers"] = lines
    if arrows:
        directions = [m.target.get("direction") for _h, m in arrows]
        if None in directions:
            m = arrows[directions.index(None)][1]
            raise ValueError(f"wind/tide arrow '{m.piece.name}' at {m.piece.location}: its direction is not known (map it with direction: NE, E, SE, SW, W or NW)")
        blocks["wind_tide"] = _wind_tide(directions, base, source)
    facts = {"sides": side_of, "rows": {s: [h[1] for h, (_m, s2) in unit_at.items() if s2 == s] for s in set(side_of.values())}}
    return blocks, facts


def _wind_tide(directions: list[str], base: YamlDocument | None, source: SetupSource) -> list[str]:
    kept = base.data.get("wind_tide") if base is not None else None
    if isinstance(kept, dict) and kept.get("directions") == directions:
        src = kept.get("source")
        return ["wind_tide:", f"  directions: [{', '.join(directions)}]  # from the arrow(s) of the setup",
                f"  source: {_flow(src.items()) if isinstance(src, dict) else 'null'}"]
    note = f"Read from the wind/tide arrow of the VASSAL setup {source.setup_label}; cite the scenario's published map here."
    return ["wind_tide:", f"  directions: [{', '.join(directions)}]",
            f"  source: {{doc: gunbai, section: \"Imported setup\", confidence: L, note: {yaml_str(note)}}}"]


def scenario_text(data: GenpeiData, source: SetupSource, mapping: PieceMapFile, mapped: list[Mapped],
                  base: YamlDocument | None) -> str:
    """The scenario file's text.

    Raises:
        ValueError: a piece cannot be placed (see :func:`map_blocks`).
    """
    blocks, facts = map_blocks(data, source, mapping, mapped, base)
    header = [
        SCHEMA_LINE,
        f"# Set-up imported by `gunbai import` from {source.setup_label}",
        f"# (module {source.module.name!r} version {source.module.version!r} at {source.module_path}), map "
        f"{source.map_name!r}: each position turned into a hex through the module's own grid,",
        f"# gunbai hex [1,1] = VASSAL location {mapping.first_hex or 'of raw hex (0, 0)'}. Each entry says which piece it came from.",
    ]
    if base is not None:
        value = str(base.data.get("map", "published"))
        if value == "not public" and mapped:
            value = "imported"  # the map is known now: it came from this setup
        blocks["map"] = [f"map: {yaml_str(value)}  # set-up from {source.setup_label}" + ("" if mapped else " (no piece on the map: still not public)")]
        return merge_into_base(base, blocks, header, schema_line=SCHEMA_LINE)
    return _fresh(data, source, blocks, facts, header)


def _fresh(data: GenpeiData, source: SetupSource, blocks: dict[str, list[str]], facts: dict[str, Any], header: list[str]) -> str:
    stem = re.sub(r"[^a-z0-9_]+", "_", Path(str(source.setup_label).rsplit(":", 1)[-1]).stem.lower()).strip("_") or "imported"
    if not stem[0].isalpha():
        stem = "s_" + stem
    title = source.save.module_name or ""
    desc = next((n for n, f in source.module.setups if source.setup_label.endswith(":" + f) or source.setup_label == f), None) or stem
    code, _, rest = desc.partition(" ")
    if re.fullmatch(r"[A-Z]+[0-9]+[a-z]?", code) and rest:
        desc = rest
    else:
        code = stem.upper()
    lines = header + [
        "# Not in a setup, so unknown until filled in from the scenario's text: the sides' names, cards",
        "# and H&F, who moves first, the victory banners and rules, the special rules (or import again",
        "# with --base SCENARIO.yaml to keep those from an existing file).",
        f"id: {stem}",
        f"code: {yaml_str(code)}",
        f"name: {yaml_str(desc)}",
        "date: unknown",
        f"map: imported  # set-up from {source.setup_label}{' (' + title + ')' if title else ''}",
        f"board: {data.board.id}",
        "sides:",
    ]
    sides = facts["sides"]
    middle = (data.board.rows + 1) / 2
    for army, sid in sides.items():
        rows = facts["rows"].get(sid) or []
        edge = "unknown" if not rows else ("north" if sum(rows) / len(rows) < middle else "south")
        lines += [f"  - id: {sid}", f"    name: {yaml_str(army.capitalize() + ' army')}", f"    army: {army}",
                  f"    edge: {edge}" + ("  # where its units stand in the setup" if rows else ""),
                  "    command_cards: unknown", "    dragon_cards: unknown", "    honour_fortune: unknown",
                  "    source: {doc: gunbai, section: \"Imported setup\", confidence: L, note: \"Side found from the army colour of its pieces; the rest is not in a setup.\"}"]
    if len(sides) != 2:
        raise ValueError(f"the setup has pieces of {len(sides)} armies ({', '.join(sides) or 'none'}); a scenario has exactly two sides")
    ocean = any(ln.strip().startswith("- terrain: ocean") for ln in blocks["terrain"])
    lines += ["first_player: unknown",
              "victory:", "  banners: unknown",
              "  source: {doc: gunbai, section: \"Imported setup\", confidence: L, note: \"Not in a setup: fill in from the scenario's text.\"}",
              f"naval: {'true' if ocean else 'false'}"]
    for key in ("wind_tide", *MAP_BLOCKS):
        if key in blocks:
            lines += blocks[key]
    return "\n".join(lines) + "\n"
