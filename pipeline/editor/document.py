"""A Genpei scenario file as the editor changes it: round-trip YAML that keeps the file's
comments, key order, flow style and citations (ruamel.yaml), and the edits the page sends.

The state of an edit is the scenario's YAML text: every edit loads it, changes the parsed
document in place (so an untouched line is written back byte for byte), and dumps it again.
Undo and redo keep earlier texts.

Example::

    >>> doc = ScenarioText(Path("source_data/genpei/scenarios/gp19_nutas_stronghold.yaml").read_text())  # doctest: +SKIP
    >>> doc.apply({"op": "place_unit", "side": "taira", "unit": "samurai_cavalry", "hex": [7, 5]}, data)  # doctest: +SKIP
    >>> doc.apply({"op": "remove", "hex": [7, 5]}, data)                                     # doctest: +SKIP
"""

from __future__ import annotations

import io
import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from pipeline.errors import GunbaiError
from pipeline.systems.genpei.layout import DIRECTIONS

#: Most undo steps kept.
MAX_UNDO = 500


class EditError(GunbaiError):
    """An edit the page sent that cannot be applied (unknown id, hex off the board, bad value)."""


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096  # never re-wrap a long line of the file
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def load_text(text: str) -> CommentedMap:
    """The round-trip document of a scenario's YAML text.

    Raises:
        EditError: the text is not a YAML mapping.
    """
    try:
        doc = _yaml().load(text)
    except Exception as exc:  # ruamel's errors have no common public base
        raise EditError(f"not readable YAML: {exc}") from exc
    if not isinstance(doc, CommentedMap):
        raise EditError("a scenario file is a YAML mapping")
    return doc


def dump_text(doc: CommentedMap) -> str:
    """The YAML text of a round-trip document (comments and styles as loaded)."""
    buf = io.StringIO()
    _yaml().dump(doc, buf)
    return buf.getvalue()


def _flow_seq(items: list[Any]) -> CommentedSeq:
    s = CommentedSeq(items)
    s.fa.set_flow_style()
    return s


def _flow_map(pairs: list[tuple[str, Any]]) -> CommentedMap:
    m = CommentedMap(pairs)
    m.fa.set_flow_style()
    return m


def _hex(value: Any) -> tuple[int, int]:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 99 for v in value)):
        raise EditError(f"a hex is [column, row] with whole numbers 1 to 99, not {value!r}")
    return int(value[0]), int(value[1])


def _delete(seq: CommentedSeq, i: int) -> None:
    """Delete ``seq[i]``, keeping a comment written after it (it heads the next item)."""
    kept = seq.ca.items.pop(i, None)
    del seq[i]
    shifted = {(k - 1 if k > i else k): v for k, v in seq.ca.items.items()}
    seq.ca.items.clear()
    seq.ca.items.update(shifted)
    if kept is not None and i > 0 and (i - 1) not in seq.ca.items:
        seq.ca.items[i - 1] = kept


def _seq(doc: CommentedMap, key: str, after: str | None = None) -> CommentedSeq:
    """``doc[key]`` as a list, made (block style) when missing or ``[]``."""
    cur = doc.get(key)
    if isinstance(cur, CommentedSeq) and len(cur):
        return cur
    new = CommentedSeq()
    if key in doc:
        doc[key] = new
    else:
        keys = list(doc.keys())
        pos = keys.index(after) + 1 if after in keys else len(keys)
        doc.insert(pos, key, new)
    return doc[key]


def _placement_hexes(tp: CommentedMap) -> list[tuple[int, int]]:
    out = [(int(h[0]), int(h[1])) for h in tp.get("hexes") or []]
    for span in tp.get("rows") or []:
        out += [(c, int(span["row"])) for c in range(int(span["first"]), int(span["last"]) + 1)]
    return out


def _remove_hex_from(terrain: CommentedSeq, i: int, h: tuple[int, int]) -> None:
    """Take hex ``h`` out of ``terrain[i]`` (splitting a row run), dropping an emptied placement."""
    tp = terrain[i]
    hexes = tp.get("hexes")
    if hexes:
        for j in range(len(hexes) - 1, -1, -1):
            if (int(hexes[j][0]), int(hexes[j][1])) == h:
                _delete(hexes, j)
    rows = tp.get("rows")
    if rows:
        for j in range(len(rows) - 1, -1, -1):
            span = rows[j]
            if int(span["row"]) == h[1] and int(span["first"]) <= h[0] <= int(span["last"]):
                parts = [(int(span["first"]), h[0] - 1), (h[0] + 1, int(span["last"]))]
                _delete(rows, j)
                for k, (a, b) in enumerate(p for p in parts if p[0] <= p[1]):
                    rows.insert(j + k, _flow_map([("row", h[1]), ("first", a), ("last", b)]))
    if not _placement_hexes(tp):
        _delete(terrain, i)


def _add_terrain(doc: CommentedMap, terrain_id: str, h: tuple[int, int], hexsides: list[str]) -> None:
    terrain = _seq(doc, "terrain", after="special_rules")
    for tp in terrain:
        if (tp.get("terrain") == terrain_id and list(tp.get("hexsides") or []) == hexsides and "hexes" in tp
                and isinstance(tp["hexes"], CommentedSeq) and len(tp["hexes"])):
            tp["hexes"].append(_flow_seq([h[0], h[1]]))
            return
    pairs: list[tuple[str, Any]] = [("terrain", terrain_id), ("hexes", _flow_seq([_flow_seq([h[0], h[1]])]))]
    if hexsides:
        pairs.append(("hexsides", _flow_seq(list(hexsides))))
    terrain.append(CommentedMap(pairs))


class ScenarioText:
    """The text of the scenario being edited, with its undo and redo stacks.

    Attributes:
        text: the current YAML text.
        undo_stack, redo_stack: earlier and undone texts (most recent last).
    """

    def __init__(self, text: str) -> None:
        load_text(text)
        self.text = text
        self.undo_stack: list[str] = []
        self.redo_stack: list[str] = []

    # -- undo ----------------------------------------------------------------------------------

    def undo(self) -> bool:
        """Go back one edit; False when there is none."""
        return self._step(self.undo_stack, self.redo_stack)

    def redo(self) -> bool:
        """Do again the last undone edit; False when there is none."""
        return self._step(self.redo_stack, self.undo_stack)

    def _step(self, back: list[str], forth: list[str]) -> bool:
        if not back:
            return False
        forth.append(self.text)
        self.text = back.pop()
        return True

    def _commit(self, doc: CommentedMap) -> None:
        new = dump_text(doc)
        if new != self.text:
            self.undo_stack.append(self.text)
            del self.undo_stack[:-MAX_UNDO]
            self.redo_stack.clear()
            self.text = new

    # -- edits -----------------------------------------------------------------------------------

    def apply(self, edit: dict[str, Any], data: Any) -> None:
        """Apply one edit of the page to the text (an undo step).

        Edits (``op`` and its fields; hexes ``[column, row]``)::

            place_terrain  terrain, hex[, hexsides]   a base tile replaces the hex's base tile
            toggle_hexside hex, side                  a Palisade's covered hexside on or off
            rotate         hex                        a Palisade's hexsides turned one step clockwise
            place_unit     side, unit, hex            replaces the unit on the hex
            place_leader   side, leader, hex          attached to a unit of its side, else lone
            place_marker   marker, hex[, side]
            remove         hex                        the top piece: unit, lone leader, marker,
                                                      overlay tile, then base tile
            set            path, value                a field of the form (see :data:`FORM_FIELDS`)

        Raises:
            EditError: an unknown op, id or field, a hex off the board, a bad value.
        """
        if not isinstance(edit, dict):
            raise EditError("an edit is a JSON object")
        op = edit.get("op")
        doc = load_text(self.text)
        board = data.board

        def on_board(v: Any) -> tuple[int, int]:
            h = _hex(v)
            if not board.contains(h):
                raise EditError(f"hex {list(h)} is not on the board")
            return h

        def known(kind: str, table: dict[str, Any], key: Any) -> str:
            if not isinstance(key, str) or key not in table:
                raise EditError(f"{kind} {key!r} is not in the data")
            return key

        def side_id(v: Any) -> str:
            ids = [s["id"] for s in doc.get("sides") or []]
            if v not in ids:
                raise EditError(f"side {v!r} is not a side of this scenario ({', '.join(ids)})")
            return v

        if op == "place_terrain":
            tid = known("terrain", data.terrain, edit.get("terrain"))
            h = on_board(edit.get("hex"))
            t = data.terrain[tid]
            sides = edit.get("hexsides") or []
            if not isinstance(sides, list) or any(s not in DIRECTIONS for s in sides):
                raise EditError(f"hexsides are of {', '.join(DIRECTIONS)}")
            sides = [d for d in DIRECTIONS if d in sides]
            if t.hexsides and not sides:
                sides = ["SW", "SE"]
            terrain = doc.get("terrain") or []
            for i in range(len(terrain) - 1, -1, -1):
                other = data.terrain.get(terrain[i].get("terrain"))
                if h in _placement_hexes(terrain[i]) and other is not None and (
                        (not t.overlay and not other.overlay) or terrain[i].get("terrain") == tid):
                    _remove_hex_from(terrain, i, h)
            if tid != "countryside":
                _add_terrain(doc, tid, h, sides if t.hexsides else [])
        elif op in ("toggle_hexside", "rotate"):
            h = on_board(edit.get("hex"))
            terrain = doc.get("terrain") or []
            found = [(i, tp) for i, tp in enumerate(terrain)
                     if h in _placement_hexes(tp) and getattr(data.terrain.get(tp.get("terrain")), "hexsides", False)]
            if op == "toggle_hexside":
                side = edit.get("side")
                if side not in DIRECTIONS:
                    raise EditError(f"a hexside is one of {', '.join(DIRECTIONS)}")
                tid = found[-1][1]["terrain"] if found else next(t.id for t in data.terrain.values() if t.hexsides)
                sides = set(found[-1][1].get("hexsides") or []) if found else set()
                sides ^= {side}
            else:
                if not found:
                    raise EditError(f"no hexside terrain on hex {list(h)} to rotate")
                tid = found[-1][1]["terrain"]
                sides = {DIRECTIONS[(DIRECTIONS.index(d) + 1) % 6] for d in found[-1][1].get("hexsides") or []}
            if found:
                _remove_hex_from(terrain, found[-1][0], h)
            if sides:
                _add_terrain(doc, tid, h, [d for d in DIRECTIONS if d in sides])
        elif op == "place_unit":
            side = side_id(edit.get("side"))
            uid = known("unit", data.units, edit.get("unit"))
            h = on_board(edit.get("hex"))
            units = _seq(doc, "units", after="terrain")
            at = [i for i, u in enumerate(units) if _hex(list(u["hex"])) == h]
            if at:
                u = units[at[-1]]
                if u.get("side") != side and "leader" in u:
                    del u["leader"]
                u["side"], u["unit"] = side, uid
                for k in ("name", "note"):
                    u.pop(k, None)
            else:
                units.append(_flow_map([("side", side), ("unit", uid), ("hex", _flow_seq([h[0], h[1]]))]))
        elif op == "place_leader":
            side = side_id(edit.get("side"))
            lid = known("leader", data.leaders, edit.get("leader"))
            h = on_board(edit.get("hex"))
            units = doc.get("units") or []
            at = [u for u in units if _hex(list(u["hex"])) == h and u.get("side") == side]
            if at:
                u = at[-1]
                if "leader" in u:
                    u["leader"] = lid
                else:
                    u.insert(list(u.keys()).index("hex") + 1, "leader", lid)
            else:
                _seq(doc, "leaders", after="units").append(
                    _flow_map([("side", side), ("leader", lid), ("hex", _flow_seq([h[0], h[1]]))]))
        elif op == "place_marker":
            mid = known("marker", data.markers, edit.get("marker"))
            h = on_board(edit.get("hex"))
            pairs: list[tuple[str, Any]] = [("marker", mid), ("hex", _flow_seq([h[0], h[1]]))]
            if edit.get("side") is not None:
                pairs.append(("side", side_id(edit.get("side"))))
            _seq(doc, "markers", after="leaders").append(_flow_map(pairs))
        elif op == "remove":
            h = on_board(edit.get("hex"))
            self._remove_top(doc, h, data)
        elif op == "set":
            set_field(doc, edit.get("path"), edit.get("value"), data)
        else:
            raise EditError(f"unknown edit {op!r}")
        self._commit(doc)

    @staticmethod
    def _remove_top(doc: CommentedMap, h: tuple[int, int], data: Any) -> None:
        for key in ("units", "leaders", "markers"):
            seq = doc.get(key) or []
            at = [i for i, p in enumerate(seq) if _hex(list(p["hex"])) == h]
            if at:
                _delete(seq, at[-1])
                return
        terrain = doc.get("terrain") or []
        at = [i for i, tp in enumerate(terrain) if h in _placement_hexes(tp)]
        overlays = [i for i in at if getattr(data.terrain.get(terrain[i].get("terrain")), "overlay", False)]
        if overlays or at:
            _remove_hex_from(terrain, (overlays or at)[-1], h)


#: The form's fields: a path pattern (``sides.N.command_cards``) and the kind of value.
FORM_FIELDS: dict[str, str] = {
    r"sides\.[01]\.name": "text",
    r"sides\.[01]\.army": "army",
    r"sides\.[01]\.edge": "edge",
    r"sides\.[01]\.(command_cards|dragon_cards|honour_fortune)": "count",
    r"sides\.[01]\.banners": "count_or_none",
    r"victory\.banners": "count",
    r"first_player": "side",
    r"naval": "bool",
    r"wind_tide": "directions",
    r"special_rules\.\d+\.summary": "text",
}


def set_field(doc: CommentedMap, path: Any, value: Any, data: Any) -> None:
    """Set a form field of the scenario (a key of :data:`FORM_FIELDS`).

    ``count`` takes a whole number 0 to 99 or ``unknown``; ``wind_tide`` a list of directions
    (empty: no wind/tide), cited by the scenario's ``map_source`` when it makes a new block.

    Raises:
        EditError: a field the form does not have, or a value of the wrong kind.
    """
    if not isinstance(path, str) or len(path) > 100:
        raise EditError("a field path is a short string")
    kind = next((k for pat, k in FORM_FIELDS.items() if re.fullmatch(pat, path)), None)
    if kind is None:
        raise EditError(f"the form has no field {path!r}")
    if kind == "text":
        if not isinstance(value, str) or not value.strip() or len(value) > 4000:
            raise EditError(f"{path}: a text of 1 to 4000 characters")
    elif kind == "army":
        if value not in data.system.armies:
            raise EditError(f"{path}: one of {', '.join(data.system.armies)}")
    elif kind == "edge":
        if value not in ("north", "south", "unknown"):
            raise EditError(f"{path}: north, south or unknown")
    elif kind in ("count", "count_or_none"):
        if kind == "count_or_none" and value in (None, ""):
            value = None
        elif value == "unknown" and kind == "count":
            pass
        elif not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99):
            raise EditError(f"{path}: a whole number 0 to 99" + (" or unknown" if kind == "count" else " or empty"))
    elif kind == "side":
        if value not in [s["id"] for s in doc.get("sides") or []] + ["unknown"]:
            raise EditError(f"{path}: a side's id or unknown")
    elif kind == "bool":
        if not isinstance(value, bool):
            raise EditError(f"{path}: true or false")
    elif kind == "directions":
        if not isinstance(value, list) or any(d not in DIRECTIONS for d in value):
            raise EditError(f"{path}: a list of {', '.join(DIRECTIONS)}")
        if not value:
            doc.pop("wind_tide", None)
            return
        if isinstance(doc.get("wind_tide"), CommentedMap):
            doc["wind_tide"]["directions"] = _flow_seq([d for d in DIRECTIONS if d in value])
            return
        source = doc.get("map_source") or _flow_map([("doc", "gunbai"), ("section", "Scenario format"), ("confidence", "L"),
                                                      ("note", "wind/tide set in gunbai edit")])
        block = CommentedMap([("directions", _flow_seq([d for d in DIRECTIONS if d in value])), ("source", source)])
        keys = list(doc.keys())
        doc.insert(keys.index("naval") + 1 if "naval" in keys else len(keys), "wind_tide", block)
        return
    parts = [int(p) if p.isdigit() else p for p in path.split(".")]
    target: Any = doc
    for p in parts[:-1]:
        target = target[p]
    last = parts[-1]
    if value is None:
        target.pop(last, None)
    elif last in target:
        target[last] = value
    else:
        target[last] = value


def mark_entered(text: str, source: dict[str, Any]) -> str:
    """``text`` with ``map: entered`` and ``map_source`` (the underlay picture's citation) right
    after ``map``, the rest of the file as it was.

    Raises:
        EditError: the citation has no ``doc`` id or ``section``.
    """
    doc_id, section = source.get("doc"), source.get("section")
    if not isinstance(doc_id, str) or not re.fullmatch(r"[a-z0-9_]+", doc_id) or not isinstance(section, str) or not section.strip():
        raise EditError("the underlay picture's citation needs a document id of sources.yaml and a section")
    pairs: list[tuple[str, Any]] = [("doc", doc_id), ("section", section.strip()[:300])]
    if source.get("confidence") in ("H", "M", "L"):
        pairs.append(("confidence", source["confidence"]))
    if isinstance(source.get("note"), str) and source["note"].strip():
        pairs.append(("note", source["note"].strip()[:1000]))
    doc = load_text(text)
    keys = list(doc.keys())
    if "map" in doc:
        doc["map"] = "entered"
    else:
        doc.insert(keys.index("summary") + 1 if "summary" in keys else len(keys), "map", "entered")
    cite = _flow_map(pairs)
    if "map_source" in doc:
        doc["map_source"] = cite
    else:
        doc.insert(list(doc.keys()).index("map") + 1, "map_source", cite)
    return dump_text(doc)
