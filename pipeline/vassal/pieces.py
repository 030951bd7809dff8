"""Whole pieces: a trait stack around a :class:`BasicPiece`, encoded and decoded.

Encoding follows ``vassal-format.md`` §3.2 (nested TAB encoding, outermost trait first) and §3.3
(the AddPiece wrapper ``+/<id>/<type>/<state>`` used by PieceSlot and PrototypeDefinition text
and by saves). Stacks follow §4.4.

>>> from pipeline.vassal.traits import UsePrototype, BasicPiece
>>> p = PieceDefinition([UsePrototype("Unit")], BasicPiece("inf.png", "Infantry", gpid="12"))
>>> p.slot_text()
'+/null/prototype;Unit\\tpiece;;;inf.png;Infantry/\\tnull;0;0;12;0'
>>> decode_add_piece(p.slot_text()).trait_ids
['prototype;', 'piece;']
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from .sequence import decode, encode, split_levels, split_nested
from .traits import KNOWN_TRAIT_IDS, BasicPiece, Trait, trait_id

__all__ = [
    "TAB",
    "BasicState",
    "DecodedPiece",
    "PieceDecodeError",
    "PieceDefinition",
    "StackState",
    "add_piece_command",
    "check_piece_id",
    "clear_decode_caches",
    "decode_add_piece",
    "decode_add_piece_bytes",
    "nest",
    "stack_command",
    "unnest_state",
    "unnest_type",
]

TAB = "\t"


class PieceDecodeError(ValueError):
    """A piece string that VASSAL would fail to build (or build wrongly); see §3.2, §3.3, §7."""


def check_piece_id(piece_id: str) -> str:
    """Validate a save piece/stack id (§4.4 "Ids": no ``/``, ``;`` or ``,``, non-empty).

    Raises:
        ValueError: if the id is empty or contains one of those characters or whitespace.
    """
    if not piece_id or any(c in piece_id for c in "/;,\t\x1b\\ \n"):
        raise ValueError(f"bad piece id {piece_id!r}: must be non-empty, without / ; , or space")
    return piece_id


def nest(levels: Sequence[str]) -> str:
    """Nest per-level strings, outermost first, the way ``Decorator.getType/getState`` does:
    ``enc([level0, enc([level1, ...], TAB)], TAB)`` (§3.2).

    Raises:
        ValueError: if ``levels`` is empty, a level ends with a backslash, or the innermost
            level contains a TAB (it would read as another level).
    """
    if not levels:
        raise ValueError("a piece needs at least one level")
    result = levels[-1]
    if TAB in result:
        raise ValueError("the innermost level cannot contain a TAB (§3.2)")
    encode([result], TAB)  # validates the innermost level
    for level in reversed(levels[:-1]):
        result = encode([level, result], TAB)
    return result


def add_piece_command(piece_id: str, type_string: str, state_string: str) -> str:
    """The AddPiece command ``+/`` + ``enc([id, type, state], "/")`` (§3.3, §4.3).

    ``piece_id`` is ``"null"`` for buildFile slots and prototypes."""
    if piece_id != "null":
        check_piece_id(piece_id)
    return "+/" + encode([piece_id, type_string, state_string], "/")


def stack_command(
    stack_id: str, map_name: str, x: int, y: int, piece_ids: Sequence[str], layer: int | None = 0
) -> str:
    """A stack: ``+/<stackId>/stack/<map>;<x>;<y>;<id1>;...;@@<layer>`` (§4.4).

    ``piece_ids`` are bottom to top and must have been added earlier in the save. ``layer=None``
    leaves out ``@@<layer>``.

    Raises:
        ValueError: for an empty stack or a bad id.
    """
    if not piece_ids:
        raise ValueError("a stack needs at least one piece")
    items = [map_name, str(int(x)), str(int(y))]
    items.extend(check_piece_id(pid) for pid in piece_ids)
    if layer is not None:
        items.append(f"@@{int(layer)}")
    return add_piece_command(stack_id, "stack", encode(items, ";"))


@dataclass(frozen=True)
class PieceDefinition:
    """A piece: ``traits`` (outermost first) wrapped around ``basic`` (§3.2).

    Attributes:
        traits: the Decorator traits, outermost first (the first one's menu items show first).
        basic: the innermost :class:`BasicPiece`, whose state carries map, x, y (pixels) and gpid.

    >>> from pipeline.vassal.traits import Marker
    >>> PieceDefinition([Marker(("Side",), ("Axis",))], BasicPiece("a.png", "A")).state_string()
    'Axis\\tnull;0;0;;0'
    """

    traits: Sequence[Trait]
    basic: BasicPiece

    def __post_init__(self) -> None:
        object.__setattr__(self, "traits", tuple(self.traits))
        for t in self.traits:
            if not isinstance(t, Trait):
                raise TypeError(f"not a trait: {t!r}")
            if isinstance(t, BasicPiece):
                raise TypeError("BasicPiece goes in `basic`, not in `traits`")

    def levels(self) -> list[tuple[str, str]]:
        """``(type, state)`` of every level, outermost first, BasicPiece last."""
        return [(t.type_string(), t.state_string()) for t in (*self.traits, self.basic)]

    def type_string(self) -> str:
        """The nested type string (§3.2)."""
        return nest([t for t, _ in self.levels()])

    def state_string(self) -> str:
        """The nested state string, with exactly as many levels as the type (§3.2)."""
        return nest([s for _, s in self.levels()])

    def slot_text(self) -> str:
        """PieceSlot / PrototypeDefinition text ``+/null/<type>/<state>`` (§3.3).

        Raises:
            ValueError: if the text would start or end with whitespace (VASSAL trims it, §2.1).
        """
        text = add_piece_command("null", self.type_string(), self.state_string())
        if text != text.strip():
            raise ValueError("piece text ends with whitespace, which VASSAL would trim")
        return text

    def with_basic(self, **changes: object) -> PieceDefinition:
        """A copy with some BasicPiece fields replaced (``map_name``, ``x``, ``y``, ``gpid``...)."""
        return PieceDefinition(self.traits, dataclasses.replace(self.basic, **changes))

    def placed(self, map_name: str, x: int, y: int, gpid: str | None = None) -> PieceDefinition:
        """A copy positioned on ``map_name`` at map pixel ``(x, y)`` (§4.4); gpid kept unless
        given."""
        changes: dict[str, object] = {"map_name": map_name, "x": int(x), "y": int(y)}
        if gpid is not None:
            changes["gpid"] = gpid
        return self.with_basic(**changes)

    def add_piece_command(
        self, piece_id: str, map_name: str, x: int, y: int, gpid: str | None = None
    ) -> str:
        """The save command placing this piece at map pixel ``(x, y)`` of ``map_name``
        (§4.4-4.5). ``gpid`` (the slot's) replaces the definition's when given."""
        placed = self.placed(map_name, x, y, gpid)
        return add_piece_command(piece_id, placed.type_string(), placed.state_string())


@dataclass(frozen=True)
class BasicState:
    """Decoded BasicPiece type and state (§3.5): image, name, map, x, y (pixels), gpid."""

    clone_key: str
    delete_key: str
    image: str
    name: str
    map_name: str
    x: int
    y: int
    gpid: str
    properties: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class StackState:
    """Decoded stack state (§4.4): map, x, y (pixels), piece ids bottom to top, layer."""

    map_name: str
    x: int
    y: int
    piece_ids: tuple[str, ...]
    layer: int | None


@dataclass(frozen=True)
class DecodedPiece:
    """A decoded AddPiece command (§3.3).

    Attributes:
        id: the piece id (``"null"`` in buildFile text).
        levels: ``(type, state)`` per level, outermost first; the last is ``piece;``/``stack``/
            ``deck;``.
        basic: the decoded BasicPiece when the innermost level is ``piece;``, else None.
        stack: the decoded stack state when the piece is a ``stack``, else None.
    """

    id: str
    levels: tuple[tuple[str, str], ...]
    basic: BasicState | None = None
    stack: StackState | None = None

    @property
    def trait_ids(self) -> list[str]:
        """Trait id of every level, outermost first (``prototype;``, ..., ``piece;``)."""
        return [trait_id(t) for t, _ in self.levels]

    @property
    def kind(self) -> str:
        """``"piece"``, ``"stack"`` or ``"deck"``."""
        if self.stack is not None:
            return "stack"
        if self.basic is not None:
            return "piece"
        inner = trait_id(self.levels[-1][0])
        return {"piece;": "piece", "stack": "stack", "deck;": "deck"}[inner]

    @property
    def unknown_trait_ids(self) -> list[str]:
        """Trait ids VASSAL 3.7 does not know (they become empty Markers, §7.3)."""
        return [t for t in self.trait_ids[:-1] if t not in KNOWN_TRAIT_IDS]

    @property
    def prototype_names(self) -> list[str]:
        """Names of the prototypes this piece uses (``prototype;Name``), outermost first."""
        names = []
        for t, _ in self.levels:
            if trait_id(t) == "prototype;":
                names.append(decode(t[len("prototype;") :], ";")[0])
        return names

    def properties(self, prototypes: Mapping[str, DecodedPiece | None] | None = None) -> dict[str, str]:
        """The piece's named values: Marker (``mark;``) names and values, Dynamic Property
        (``PROP;``) current values and BasicPiece persistent properties (§3.5); with
        ``prototypes`` (name → decoded definition) the values of the prototypes it uses too
        (nested, at most 16 deep, cycles ignored), the piece's own winning over a prototype's.
        Outer traits win over inner ones, as VASSAL's ``getProperty`` asks the outermost first."""
        return _properties(self, prototypes or {}, 0, set())

    def layer_levels(self) -> dict[str, int]:
        """Each named Layer (``emb2;``) and its state: the level shown (1-based), negative when
        the layer is inactive (§3.5 Layer state)."""
        out: dict[str, int] = {}
        for t, st in self.levels:
            if trait_id(t) == "emb2;":
                fields = decode(t[len("emb2;"):], ";")
                name = fields[18] if len(fields) > 18 else ""
                try:
                    out.setdefault(name, int(st.strip() or "0"))
                except ValueError:
                    continue
        return out

    def rotation(self) -> float | None:
        """The angle of the outermost Can Rotate (``rotate;``) trait in degrees, VASSAL's sign
        (positive turns counter-clockwise): the state itself for free rotation, else facing
        index × −360/n (``FreeRotator.getAngle``). None without the trait or with a bad state."""
        for t, st in self.levels:
            if trait_id(t) != "rotate;":
                continue
            fields = decode(t[len("rotate;"):], ";")
            try:
                n = int(fields[0]) if fields and fields[0] else 1
                value = float(st.strip() or "0")
            except ValueError:
                return None
            if n <= 1:
                return value if math.isfinite(value) else None
            return -int(value) * 360.0 / n
        return None

    @property
    def image(self) -> str | None:
        return self.basic.image if self.basic else None

    @property
    def name(self) -> str | None:
        return self.basic.name if self.basic else None

    @property
    def map_name(self) -> str | None:
        if self.basic:
            return self.basic.map_name
        return self.stack.map_name if self.stack else None

    @property
    def x(self) -> int | None:
        if self.basic:
            return self.basic.x
        return self.stack.x if self.stack else None

    @property
    def y(self) -> int | None:
        if self.basic:
            return self.basic.y
        return self.stack.y if self.stack else None

    @property
    def gpid(self) -> str | None:
        return self.basic.gpid if self.basic else None


def _properties(piece: DecodedPiece, prototypes: Mapping[str, DecodedPiece | None], depth: int,
                seen: set[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    if piece.basic is not None:
        out.update(piece.basic.properties)
    for t, st in reversed(piece.levels):
        tid = trait_id(t)
        if tid == "mark;":
            keys, values = decode(t[len("mark;"):], ","), decode(st, ",")
            for i, k in enumerate(keys):
                if k:
                    out[k] = values[i] if i < len(values) else ""
        elif tid == "PROP;":
            name = decode(t[len("PROP;"):], ";")[0]
            if name:
                out[name] = st
        elif tid == "prototype;" and depth < 16:
            name = decode(t[len("prototype;"):], ";")[0]
            proto = prototypes.get(name)
            if proto is not None and name not in seen:
                inner = _properties(proto, prototypes, depth + 1, seen | {name})
                out = {**inner, **out}
    return out


def unnest_type(type_string: str) -> list[str]:
    """Split a nested type into its levels, outermost first (``createPiece``, §3.2).

    Saves repeat the same few type strings for hundreds of pieces, so results are cached.

    Raises:
        PieceDecodeError: if a level splits into more than two parts (not a nested encoding).
    """
    return list(_unnest_type(type_string))


@cache
def _unnest_type(type_string: str) -> tuple[str, ...]:
    fast = split_levels(type_string)
    if fast is not None and len(fast) <= 10_000:
        return tuple(fast)
    levels: list[str] = []
    for n_parts, first in split_nested(type_string):
        if n_parts == 1:
            levels.append(first)
            return tuple(levels)
        if n_parts != 2:
            raise PieceDecodeError(
                f"type level {len(levels) + 1} has {n_parts} unescaped TAB-separated parts, "
                "expected 2 (not a nested trait encoding)"
            )
        levels.append(first)
        if len(levels) >= 10_000:
            break
    raise PieceDecodeError("piece type nested too deeply")


def unnest_state(state_string: str, n_levels: int) -> list[str]:
    """Split a nested state into exactly ``n_levels`` levels (``Decorator.setState``, §3.2).

    Raises:
        PieceDecodeError: if the state has fewer or more levels than ``n_levels``.
    """
    fast = split_levels(state_string)
    if fast is not None and len(fast) == n_levels:
        return fast
    levels: list[str] = []
    peel = split_nested(state_string)
    for n_parts, first in peel:
        if len(levels) == n_levels - 1:
            if n_parts != 1:
                extra = 1 + sum(1 for _ in peel)
                raise PieceDecodeError(
                    f"state has {n_levels + extra} levels but the type has {n_levels}: the "
                    "extra levels would corrupt the BasicPiece state (§3.2)"
                )
            levels.append(first)
            return levels
        if n_parts == 1:
            raise PieceDecodeError(
                f"state has {len(levels) + 1} level(s) but the type has {n_levels}: "
                "VASSAL throws 'No state for trait' (§3.2)"
            )
        if n_parts != 2:
            raise PieceDecodeError(
                f"state level {len(levels) + 1} has {n_parts} unescaped TAB-separated parts, "
                "expected 2"
            )
        levels.append(first)
    raise PieceDecodeError("state does not decode")


def _parse_int(text: str, what: str) -> int:
    try:
        if text.strip() != text or not text:
            raise ValueError
        return int(text, 10)
    except ValueError:
        raise PieceDecodeError(f"{what} is not an integer: {text!r}") from None


@cache
def _basic_type(type_string: str) -> tuple[str, str, str, str]:
    """Clone key, delete key, image and name of a BasicPiece type ``piece;…`` (§3.5), cached.

    Raises:
        PieceDecodeError: not 4 fields.
    """
    fields = decode(type_string[len("piece;") :], ";")
    if len(fields) != 4:
        raise PieceDecodeError(f"BasicPiece type has {len(fields)} fields, expected 4 (§3.5)")
    return fields[0], fields[1], fields[2], fields[3]


@lru_cache(maxsize=1024)
def _decode_basic(type_string: str, state: str) -> BasicState:
    """The BasicPiece of a type ``piece;…`` and its state ``map;x;y;gpid;n;…`` (§3.5), cached:
    setups park many pieces of one kind at one spot (errors are not cached, they are raised
    again).

    Raises:
        PieceDecodeError: the type has not 4 fields; the state has fewer than 3 fields, x or y
            is no integer, or the property count does not match.
    """
    clone_key, delete_key, image, name = _basic_type(type_string)
    tokens = decode(state, ";")
    if len(tokens) < 3:
        raise PieceDecodeError(
            f"BasicPiece state {state!r} has {len(tokens)} fields, expected map;x;y;gpid;n (§3.5)"
        )
    # VASSAL before 3.5 wrote ``map;x;y;gpid`` without the property count; BasicPiece.setState
    # reads missing trailing fields as empty / 0, so they are accepted here too.
    map_name = tokens[0]
    x = _parse_int(tokens[1], "BasicPiece x")
    y = _parse_int(tokens[2], "BasicPiece y")
    gpid = tokens[3] if len(tokens) > 3 else ""
    n = _parse_int(tokens[4], "BasicPiece property count") if len(tokens) > 4 else 0
    if len(tokens) > 4 and len(tokens) != 5 + 2 * n:
        raise PieceDecodeError(
            f"BasicPiece state declares {n} properties but has {len(tokens) - 5} tokens after it"
        )
    props = tuple((tokens[5 + 2 * i], tokens[6 + 2 * i]) for i in range(n))
    return BasicState(clone_key, delete_key, image, name, map_name, x, y, gpid, props)


def _decode_stack(state: str) -> StackState:
    tokens = decode(state, ";")
    map_name = tokens[0]
    if map_name == "null":
        # ``Stack.getState`` writes ``null;x;y`` for a stack on no map; ``setState`` does not
        # read x;y then and looks them up as piece ids, which finds nothing. Read them as written.
        x = y = 0
        rest = tokens[1:]
        if len(rest) >= 2 and all(t.lstrip("-").isdigit() for t in rest[:2]):
            x, y, rest = int(rest[0]), int(rest[1]), rest[2:]
    else:
        if len(tokens) < 3:
            raise PieceDecodeError(f"stack state {state!r} lacks x;y (§4.4)")
        x = _parse_int(tokens[1], "stack x")
        y = _parse_int(tokens[2], "stack y")
        rest = tokens[3:]
    layer: int | None = None
    if rest and rest[-1].startswith("@@"):
        layer = _parse_int(rest[-1][2:], "stack layer")
        rest = rest[:-1]
    return StackState(map_name, x, y, tuple(rest), layer)


def _split_add_piece(text: str) -> list[str]:
    """``decode(text[2:], "/")`` of an AddPiece command, copying the long type once: when the
    id holds no backslash or quote, the last ``/`` is unescaped and every ``/`` between the
    first and the last is escaped (what VASSAL writes), the three parts are cut out directly
    (the state, after the last ``/``, holds none); anything else is decoded in full."""
    first, last = text.find("/", 2), text.rfind("/")
    if 2 < first < last and text[last - 1] != "\\":
        piece_id = text[2:first]
        type_string = _type_token(text[first + 1 : last])
        if type_string is not None and "\\" not in piece_id and "'" not in piece_id:
            state = text[last + 1 :]
            if len(state) > 1 and state[0] == "'" and state[-1] == "'":
                state = state[1:-1]
            return [piece_id, type_string, state]
    return decode(text[2:], "/")


def _type_token_of(raw: str) -> str | None:
    """The type token of an AddPiece command as ``decode(…, "/")`` gives it (escaped ``/``
    restored, wrapping quotes dropped), or None when ``raw`` holds an unescaped ``/``."""
    if raw.count("/") != raw.count("\\/"):
        return None
    token = raw.replace("\\/", "/")
    if len(token) > 1 and token[0] == "'" and token[-1] == "'":
        return token[1:-1]
    return token


#: :func:`_type_token_of`, cached: a save repeats a few hundred types thousands of times, and
#: the cached token is one string whose hash is worked out once. The caches keyed by a type
#: alone have no bound: a module's distinct types are few beside its commands, and each must
#: be decoded once however many there are (a bounded cache that fills decodes a type again
#: each time it comes back); they are emptied when a lint ends (:func:`clear_decode_caches`).
_type_token = cache(_type_token_of)


@cache
def _type_token_bytes(raw: bytes) -> str | None:
    """:func:`_type_token_of` of the UTF-8 bytes of a raw type token, cached by the bytes: the
    long type of a repeated piece is decoded to ``str`` once per lint, not once per command.

    Raises:
        UnicodeDecodeError: ``raw`` is not UTF-8.
    """
    # the same steps as _type_token_of, on the bytes: "/", backslash and quote are ASCII, and
    # a save's long types are counted and replaced byte by byte, not as 4-byte characters
    if raw.count(b"/") != raw.count(b"\\/"):
        return None
    token = raw.replace(b"\\/", b"/").decode("utf-8")
    if len(token) > 1 and token[0] == "'" and token[-1] == "'":
        return token[1:-1]
    return token


def decode_add_piece(text: str) -> DecodedPiece:
    """Decode an AddPiece command / PieceSlot text ``+/<id>/<type>/<state>`` (§3.3).

    Returns:
        a :class:`DecodedPiece` with the levels, and the BasicPiece or stack state decoded.

    Raises:
        PieceDecodeError: the ``+/`` wrapper is wrong or does not give exactly 3 ``/``-tokens;
            the innermost type is not ``piece;``, ``stack`` or ``deck;``; the state has a
            different number of levels than the type; a ``stack`` has traits; the BasicPiece or
            stack state does not parse (non-integer x/y, wrong property count).
    """
    if not text.startswith("+/"):
        raise PieceDecodeError(f"piece text must start with '+/': {text[:40]!r}")
    parts = _split_add_piece(text)
    if len(parts) != 3:
        raise PieceDecodeError(
            f"piece text decodes into {len(parts)} '/'-tokens, expected 3 (id, type, state)"
        )
    return _decode_parts(*parts)


def decode_add_piece_bytes(text: bytes) -> DecodedPiece:
    """:func:`decode_add_piece` of an AddPiece command given as its UTF-8 bytes (a command of
    a save's plaintext, :func:`~.commands.split_commands` of bytes), with the same result and
    errors. When VASSAL wrote it (see :func:`_split_add_piece`) the id, type and state are cut
    out of the bytes (``/``, backslash and quote are ASCII, so they fall where the characters
    do); the long type is decoded once per distinct type (:func:`_type_token_bytes`) and the
    piece once per distinct type and state (:func:`_piece_body_bytes`: a module's setups
    place the same piece, and the same empty stack, at the same spot many times under other
    ids), so a repeated command costs its id and two dictionary look-ups. Anything else is
    decoded whole and read by :func:`decode_add_piece`.

    Raises:
        PieceDecodeError: as :func:`decode_add_piece`.
        UnicodeDecodeError: the bytes are not UTF-8.
    """
    first, last = text.find(b"/", 2), text.rfind(b"/")
    if text.startswith(b"+/") and 2 < first < last and text[last - 1] != 0x5C:
        raw_id = text[2:first]
        if b"\\" not in raw_id and b"'" not in raw_id:
            type_string = _type_token_bytes(text[first + 1 : last])
            if type_string is not None:
                levels, basic, stack = _piece_body_of(type_string, text[last + 1 :])
                return DecodedPiece(raw_id.decode("utf-8"), levels, basic, stack)
    return decode_add_piece(text.decode("utf-8"))


_Body = tuple[tuple[tuple[str, str], ...], BasicState | None, StackState | None]


def clear_decode_caches() -> None:
    """Empty the caches of decoded piece types, states and levels (they hold tens of thousands
    of small tuples after a large module's setups). Their sizes are set by what hits: on
    ccnapoleonics' 186 setups (12.5 million AddPiece commands, each distinct one decoded once
    per save) ``_state_head`` and ``_piece_body_bytes`` hit 92 % and 78 % of the time and keep
    8192 entries, ``_decode_basic``, ``_decode_levels`` and ``_split_state_head`` hit 1-2 %
    there and keep 1024, 1024 and 2048 (the corpus' modules hit them more, within that): at
    8192 the three held 70 MB of that lint's 324 MB peak. Lint empties them as it ends: kept, they
    would cost the caller's next garbage collection a scan of every one of them (about as
    much CPU time as freeing them), and a lint of another module shares little with them."""
    for cached in (_unnest_type, _basic_type, _decode_basic, _type_token, _type_token_bytes,
                   _state_head, _split_state_head, _piece_body_bytes, _decode_levels):
        cached.cache_clear()


def _decode_parts(piece_id: str, type_string: str, state_string: str) -> DecodedPiece:
    """The piece of an AddPiece command cut into id, type and state (see
    :func:`decode_add_piece`, whose errors it raises)."""
    if not piece_id:
        raise PieceDecodeError("piece id is empty")
    return DecodedPiece(piece_id, *_piece_body(type_string, state_string))


def _piece_body_of(type_string: str, state: bytes) -> _Body:
    """:func:`_piece_body_bytes` of a type and the UTF-8 bytes of an AddPiece state token, the
    trait states decoded once per distinct type and trait states: pieces of one kind differ in
    their BasicPiece state (``map;x;y;gpid;…``, after the state's last TAB) far more often than
    in their traits' states, so the state is cut there and :func:`_state_head` cached by the
    part before. The cut is taken only when the part after holds no backslash and no quote:
    then splitting the whole state gives the head's levels with that part appended to the last
    one (no TAB, backslash or quote there to change how the rest splits). Anything else, and
    any error, goes through :func:`_piece_body_bytes` (same result, same messages).

    Raises:
        PieceDecodeError: as :func:`_piece_body`.
        UnicodeDecodeError: ``state`` is not UTF-8.
    """
    cut = state.rfind(b"\t") + 1
    if cut:
        tail = state[cut:]
        if b"\\" not in tail and b"'" not in tail:
            head = _state_head(type_string, state[:cut])
            if head is not None:
                levels, basic_type, last = head
                last += tail.decode("utf-8")
                try:
                    basic = _decode_basic(basic_type, last)
                except PieceDecodeError:
                    pass  # reported by the whole decode below, word for word
                else:
                    return (*levels, (basic_type, last)), basic, None
    return _piece_body_bytes(type_string, state)


@lru_cache(maxsize=8192)
def _state_head(type_string: str, head: bytes
                ) -> tuple[tuple[tuple[str, str], ...], str, str] | None:
    """For a piece whose innermost type is ``piece;``: its levels above the BasicPiece, the
    BasicPiece type, and what the last level's state starts with, from the UTF-8 bytes of its
    state up to and including the last TAB (see :func:`_piece_body_of`); None when the type is
    another or the state does not split into one level per type level (the whole decode then
    tells why).

    Raises:
        UnicodeDecodeError: ``head`` is not UTF-8.
    """
    try:
        types = _unnest_type(type_string)
    except PieceDecodeError:
        return None
    if trait_id(types[-1]) != "piece;":
        return None
    states = _split_state_head(head)
    if states is None or len(states) != len(types):
        return None
    return tuple(zip(types[:-1], states[:-1], strict=True)), types[-1], states[-1]


@lru_cache(maxsize=2048)
def _split_state_head(head: bytes) -> tuple[str, ...] | None:
    """:func:`~.sequence.split_levels` of the UTF-8 bytes of a state's head (see
    :func:`_state_head`), cached by the bytes alone: pieces of different kinds often carry the
    same trait states (wmh: 4 056 distinct kinds and heads, 1 118 distinct heads; longest_day:
    2 058 and 13).

    Raises:
        UnicodeDecodeError: ``head`` is not UTF-8.
    """
    states = split_levels(head.decode("utf-8"))
    return None if states is None else tuple(states)


@lru_cache(maxsize=8192)
def _piece_body_bytes(type_string: str, state: bytes) -> _Body:
    """:func:`_piece_body` of a type and the UTF-8 bytes of an AddPiece state token (wrapping
    quotes still on), cached (errors are not cached: they are raised again).

    Raises:
        PieceDecodeError: as :func:`_piece_body`.
        UnicodeDecodeError: ``state`` is not UTF-8.
    """
    state_string = state.decode("utf-8")
    if len(state_string) > 1 and state_string[0] == "'" and state_string[-1] == "'":
        state_string = state_string[1:-1]
    return _piece_body(type_string, state_string)


def _piece_body(type_string: str, state_string: str) -> _Body:
    """The levels, BasicPiece state and stack state of a piece from its type and state strings
    (:class:`DecodedPiece` without its id).

    Raises:
        PieceDecodeError: as :func:`decode_add_piece` (all but the id and ``/`` checks).
    """
    types = _unnest_type(type_string)
    inner = trait_id(types[-1])
    if inner not in ("piece;", "stack", "deck;"):
        raise PieceDecodeError(
            f"innermost type must be 'piece;', 'stack' or 'deck;', got {types[-1][:40]!r} (§3.2)"
        )
    if inner == "stack":
        if len(types) != 1:
            raise PieceDecodeError("a stack cannot have traits")
        return ((type_string, state_string),), None, _decode_stack(state_string)
    levels, basic = _decode_levels(type_string, state_string)
    return levels, basic, None


@lru_cache(maxsize=1024)
def _decode_levels(type_string: str, state_string: str
                   ) -> tuple[tuple[tuple[str, str], ...], BasicState | None]:
    """The levels of a piece that is no stack and its BasicPiece state (see
    :func:`decode_add_piece`), cached: a module's setups place the same piece in the same state
    many times under different ids (a third of almoravid's 3 515 piece states are distinct)."""
    types = _unnest_type(type_string)
    states = unnest_state(state_string, len(types))
    levels = tuple(zip(types, states, strict=True))
    basic = _decode_basic(types[-1], states[-1]) if trait_id(types[-1]) == "piece;" else None
    return levels, basic
