"""Saved games and predefined setups (``.vsav``), written and read (``vassal-format.md`` §4).

A :class:`SaveGame` writes the command stream of §4.5: ``begin_save``, one AddPiece per piece
(BasicPiece state ``map;x;y;gpid;0`` in map pixels), one stack per position (pieces bottom to
top in the given order), the board commands, optionally ``SETUP_STACK⇥``, then ``end_save`` with
no trailing whitespace; obfuscated as ``!VCSK`` (§4.2) with a fixed key, zipped with
``savedGame``, ``savedata`` and ``moduledata`` (§4.1).

>>> obfuscate("begin_save\\x1bend_save", 0xAA)
b'!VCSKaac8cfcdc3c4f5d9cbdccfb1cfc4cef5d9cbdccf'
"""

from __future__ import annotations

import binascii
import gc
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from itertools import compress, repeat
from operator import itemgetter

from .archive import Limits, VassalFormatError, archive_bytes, open_archive, resolve_epoch
from .buildfile import _metadata
from .commands import (
    BEGIN_SAVE,
    END_SAVE,
    SETUP_STACK,
    board_command,
    join_commands,
    parse_board_command,
    split_commands,
)
from .grids import HexGrid, SquareGrid
from .pieces import (
    BasicState,
    DecodedPiece,
    PieceDecodeError,
    PieceDefinition,
    StackState,
    check_piece_id,
    decode_add_piece_bytes,
    stack_command,
)
from .sequence import decode

__all__ = [
    "MAGIC",
    "DecodedSave",
    "PlacedPiece",
    "SaveGame",
    "SetupPiece",
    "decode_save_plain",
    "decode_save_text",
    "deobfuscate",
    "deobfuscate_bytes",
    "locate_pieces",
    "obfuscate",
    "read_save",
    "read_saved_game",
    "collector_paused",
]

MAGIC = b"!VCSK"


def obfuscate(text: str, key: int = 0xAA) -> bytes:
    """``ObfuscatingOutputStream`` (§4.2): ``!VCSK`` + key as 2 lower-case hex digits + for each
    UTF-8 byte ``b`` the 2 hex digits of ``b ^ key``.

    Raises:
        ValueError: key outside 0..255.
    """
    if not 0 <= key <= 255:
        raise ValueError("obfuscation key must be 0..255")
    body = bytes(b ^ key for b in text.encode("utf-8"))
    return MAGIC + f"{key:02x}".encode() + body.hex().encode("ascii")


def deobfuscate(data: bytes, entry: str = "savedGame") -> str:
    """Inverse of :func:`obfuscate`; data without ``!VCSK`` is read as plain UTF-8 (§4.2).
    Upper- or lower-case hex is accepted.

    Raises:
        VassalFormatError: bad key or hex body (odd length, non-hex), or invalid UTF-8.
    """
    return _utf8_text(deobfuscate_bytes(data, entry), entry)


def deobfuscate_bytes(data: bytes, entry: str = "savedGame") -> bytes:
    """:func:`deobfuscate` without the last step: the plaintext as its UTF-8 bytes, not yet
    checked to be UTF-8 (:func:`read_saved_game` checks it piece by piece as it decodes).

    Raises:
        VassalFormatError: bad key or hex body (odd length, non-hex).
    """
    if not data.startswith(MAGIC):
        return data
    head, body = data[5:7], memoryview(data)[7:]
    try:
        key = int(head.decode("ascii"), 16)
        if len(head) != 2 or len(body) % 2:
            raise ValueError
        try:  # hex digits only, the common case: no copy of the body into a str
            raw = binascii.unhexlify(body)
        except binascii.Error:  # fromhex also skips ASCII whitespace between pairs
            raw = bytes.fromhex(bytes(body).decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        raise VassalFormatError("bad !VCSK obfuscation (key or hex body)", entry) from None
    return raw.translate(bytes(b ^ key for b in range(256)))


def _utf8_text(plain: bytes, entry: str) -> str:
    """``plain`` decoded as UTF-8.

    Raises:
        VassalFormatError: invalid UTF-8 (the message names the byte position).
    """
    try:
        return plain.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VassalFormatError(f"save text is not valid UTF-8 ({exc})", entry) from None


@dataclass(frozen=True)
class PlacedPiece:
    """A piece on a map: ``piece_id`` (unique, no ``/ ; ,``), its definition, the map's
    ``mapName`` and the map-pixel position (§4.4); ``gpid`` is the source PieceSlot's gpid
    (from :attr:`BuildFile.gpids`), None to keep the definition's. ``stacked=False`` leaves the
    piece out of any stack: for pieces with a Does Not Stack (``immob;``) trait, such as terrain
    tiles, which VASSAL keeps on the map outside stacks. ``layer``: on a map with Game Piece
    Layers (``LayeredPieceCollection``), the index of the piece's layer in its layer order (0 on a
    map without layers; None: not written, VASSAL takes a loaded stack's layer from its top
    piece). Pieces stack only with pieces at the same position in the same layer,
    as VASSAL stacks them, and the stack is saved bound to that layer (``@@<layer>``: VASSAL
    binds a loaded stack to the layer it names, ``Stack.setState``), so a stack of units is
    never drawn under a tile."""

    piece_id: str
    definition: PieceDefinition
    map_name: str
    x: int
    y: int
    gpid: str | None = None
    stacked: bool = True
    layer: int | None = 0

    def __post_init__(self) -> None:
        check_piece_id(self.piece_id)


@dataclass(frozen=True)
class SaveGame:
    """A save / predefined setup (§4).

    Attributes:
        module_name, module_version: the module this save is for (§4.1 ``savedata``).
        pieces: placed pieces; pieces at the same (map, x, y) form one stack, bottom to top in
            this order.
        boards: ``{map_name: [(board, col, row), ...]}``, one board command per map.
        setup_stack: write ``SETUP_STACK⇥`` (at-start stacks and decks then not created).
        stack_id_start: stacks get ids ``str(stack_id_start + n)``, n = 0, 1, ...
        extra_commands: further commands (e.g. ``PLAYER⇥...``) written before ``end_save``.
        base_commands: commands written first, right after ``begin_save`` (another setup's
            commands: its global properties, pieces and board choices, that this save's pieces
            are added to); their piece ids must not be this save's.
    """

    module_name: str
    module_version: str
    pieces: Sequence[PlacedPiece] = ()
    boards: Mapping[str, Sequence[tuple[str, int, int]]] = field(default_factory=dict)
    description: str = ""
    vassal_version: str = "3.7.0"
    setup_stack: bool = False
    stack_id_start: int = 900000
    extra_commands: Sequence[str] = ()
    base_commands: Sequence[str] = ()

    def commands(self) -> list[str]:
        """The command list (§4.5).

        Raises:
            ValueError: duplicate piece ids, or a stack id colliding with a piece id.
        """
        ids = [p.piece_id for p in self.pieces]
        if len(set(ids)) != len(ids):
            raise ValueError("piece ids must be unique (§4.4)")
        out = [BEGIN_SAVE, *self.base_commands]
        stacks: dict[tuple[str, int, int, int | None], list[str]] = {}
        for p in self.pieces:
            out.append(p.definition.add_piece_command(p.piece_id, p.map_name, p.x, p.y, p.gpid))
            if p.stacked:
                stacks.setdefault((p.map_name, int(p.x), int(p.y), p.layer), []).append(p.piece_id)
        for n, ((map_name, x, y, layer), members) in enumerate(stacks.items()):
            stack_id = str(self.stack_id_start + n)
            if stack_id in ids:
                raise ValueError(f"stack id {stack_id} collides with a piece id")
            out.append(stack_command(stack_id, map_name, x, y, members, layer))
        for map_name in sorted(self.boards):
            out.append(board_command(map_name, list(self.boards[map_name])))
        if self.setup_stack:
            out.append(SETUP_STACK)
        out.extend(self.extra_commands)
        out.append(END_SAVE)
        return out

    def plaintext(self) -> str:
        """The commands joined with ESC; no trailing whitespace (§4.3)."""
        text = join_commands(self.commands())
        if text != text.rstrip():
            raise ValueError("save text would end with whitespace")
        return text

    def saved_game(self, key: int = 0xAA) -> bytes:
        """The ``savedGame`` entry: :meth:`plaintext` obfuscated with ``key`` (§4.2)."""
        return obfuscate(self.plaintext(), key)

    def savedata(self, date_saved_ms: int) -> bytes:
        """The ``savedata`` entry (§4.1)."""
        return _metadata(self.module_version, "", "", self.vassal_version, date_saved_ms,
                         self.description, None)

    def to_bytes(self, moduledata: bytes | None = None, *, key: int = 0xAA,
                 epoch: int | None = None, date_saved_ms: int | None = None) -> bytes:
        """The ``.vsav`` ZIP: ``savedGame``, ``savedata`` and ``moduledata`` (§4.1).

        ``moduledata`` should be the module's own entry; when None one is made from
        ``module_name``/``module_version``. Deterministic for fixed ``epoch``.
        """
        stamp = resolve_epoch() if epoch is None else int(epoch)
        date_ms = stamp * 1000 if date_saved_ms is None else int(date_saved_ms)
        if moduledata is None:
            moduledata = _metadata(self.module_version, "", "", self.vassal_version, date_ms,
                                   "", self.module_name)
        return archive_bytes(
            {"savedGame": self.saved_game(key), "savedata": self.savedata(date_ms),
             "moduledata": moduledata},
            stamp,
        )


@dataclass(frozen=True)
class PieceChange:
    """A ChangePiece (``D/id/newState[/oldState]``) or MovePiece (``M/id/map/x/y/under/oldMap/
    oldX/oldY/oldUnder[/player]``) or RemovePiece (``-/id``) command (``BasicCommandEncoder``,
    §4.3): ``kind`` is ``change``, ``move`` or ``remove``; ``index`` its command index."""

    kind: str
    index: int
    piece_id: str
    state: str = ""
    map_name: str | None = None
    x: int | None = None
    y: int | None = None


@dataclass(frozen=True)
class PieceGroup:
    """The AddPiece commands of one save whose type and state are the same bytes, so that they
    differ only in their ids (a module's setups park tens of thousands of empty stacks at a few
    spots and place each kind of unit many times): what a check finds of one it finds of all.

    Attributes:
        piece: their piece: levels, BasicPiece and stack state as decoded (its ``id`` is one
            member's or empty: the ids are the members').
        count: how many commands of the save it stands for (1 or more).
    """

    piece: DecodedPiece
    count: int
    _members: Callable[[], list[tuple[str, int]]] = field(repr=False, compare=False)

    def members(self) -> list[tuple[str, int]]:
        """``(piece id, command index)`` of every command of the group, in command order
        (worked out when asked, in one pass over the save's commands: a check needs them only
        to name the pieces of a finding)."""
        return self._members()

    def first(self) -> int:
        """The command index of the group's first command."""
        return self._members()[0][1]


def _single(save: DecodedSave, piece: DecodedPiece) -> list[tuple[str, int]]:
    """The one member of a group of one piece."""
    return [(piece.id, save.command_index(piece))]


@dataclass
class DecodedSave:
    """A read save or log. ``problems`` lists ``(command_index, severity, message)`` for what
    would stop VASSAL loading it or make it load wrongly (index -1: the whole stream).

    ``plain`` is the plaintext as UTF-8 bytes and ``raw_commands`` its commands as bytes
    (:attr:`text` and :attr:`commands` are them as ``str``, decoded when asked for).
    ``pieces``/``stacks`` are the AddPiece commands (with ``index_of`` giving each one's command
    index), :meth:`groups` the same commands grouped by their type and state,
    ``changes`` the ChangePiece/MovePiece/RemovePiece commands, ``log`` the number of
    ``LOG``/``UNDO`` entries after ``end_save`` (a ``.vlog``), ``parked`` the stacks and pieces
    whose map is ``null``. ``boards`` are the boards the save chooses for each map as it loads
    (its board commands before ``end_save``); ``board_steps`` the boards a log's ``LOG``
    entries choose as the player steps through them, ``(command index, boards)`` in order per
    map (VASSAL loads a ``.vlog`` as its saved state and replays each ``LOG`` entry on "Step
    forward", ``BasicLogger``: each such board command replaces the map's boards from then on).

    A large save read by :func:`decode_save_plain` keeps its AddPiece commands as ids and
    grouped states (:class:`_Grouped`): ``pieces``, ``stacks`` and ``raw_commands`` are made
    from them the first time they are asked for."""

    plain: bytes
    _raw_commands: list[bytes] | None = None
    _pieces: list[DecodedPiece] | None = None
    _stacks: list[DecodedPiece] | None = None
    changes: list[PieceChange] = field(default_factory=list)
    boards: dict[str, list[tuple[str, int, int, bool]]] = field(default_factory=dict)
    board_steps: dict[str, list[tuple[int, list[tuple[str, int, int, bool]]]]] = field(
        default_factory=dict)
    other: list[str] = field(default_factory=list)
    problems: list[tuple[int, str, str]] = field(default_factory=list)
    index_of: dict[int, int] = field(default_factory=dict)
    log: int = 0
    module_name: str | None = None
    module_version: str | None = None
    vassal_version: str | None = None
    _grouped: _Grouped | None = field(default=None, repr=False)
    _by_id: dict[str, DecodedPiece] | None = field(default=None, repr=False)

    @property
    def raw_commands(self) -> list[bytes]:
        """The top-level commands as UTF-8 bytes (nested lists flattened, empty ones dropped)."""
        if self._raw_commands is None:
            self._raw_commands = split_commands(self.plain)
        return self._raw_commands

    @property
    def pieces(self) -> list[DecodedPiece]:
        """The AddPiece commands that are no stack (pieces, decks), in command order."""
        if self._pieces is None:
            assert self._grouped is not None
            self._pieces = self._grouped.materialize(self, stacks=False)
        return self._pieces

    @property
    def stacks(self) -> list[DecodedPiece]:
        """The AddPiece commands of stacks, in command order."""
        if self._stacks is None:
            assert self._grouped is not None
            self._stacks = self._grouped.materialize(self, stacks=True)
        return self._stacks

    def groups(self) -> list[PieceGroup]:
        """The AddPiece commands grouped by type and state (:class:`PieceGroup`): the groups
        of pieces and decks first, then those of stacks, each in the order of their first
        command; every command is in exactly one group."""
        if self._grouped is not None:
            return self._grouped.groups(self)
        return [PieceGroup(p, 1, partial(_single, self, p)) for p in [*self.pieces, *self.stacks]]

    def find(self, piece_id: str) -> DecodedPiece | None:
        """The piece or stack an AddPiece with this id added (the last, when several did), or
        None."""
        if self._grouped is not None:
            return self._grouped.find(self, piece_id)
        if self._by_id is None:
            self._by_id = {p.id: p for p in [*self.pieces, *self.stacks]}
        return self._by_id.get(piece_id)

    @property
    def text(self) -> str:
        """The plaintext (§4.3)."""
        return self.plain.decode("utf-8")

    @property
    def commands(self) -> list[str]:
        """The top-level commands (nested lists flattened, empty ones dropped, §4.3)."""
        return [c.decode("utf-8") for c in self.raw_commands]

    def piece(self, piece_id: str) -> DecodedPiece:
        for p in self.pieces:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)

    def command_index(self, piece: DecodedPiece) -> int:
        """The command index of an AddPiece decoded from this save."""
        return self.index_of.get(id(piece), -1)


#: Command prefixes of VASSAL 3.7's command encoders (the ``decode`` of each ``CommandEncoder``;
#: BoardPicker commands, ``TURN<id>``, ``LOS\t`` and dice results carry a component's id or name
#: and are recognised separately). An unknown command is dropped by VASSAL without a word.
KNOWN_PREFIXES = ("PLAYER\t", "PYREMOVE\t", "GlobalProperty\t", "MutableProperty\t", "TURN",
                  "UNMASK\t", "NOTES\t", "PNOTES\t", "PNOTE\t", "SNOTE\t", "SGKC\t", "LOS\t",
                  "SETUP_STACK\t", "CHAT", "PRIV_CHAT", "INVITE\t", "PLAY\t", "SYNC", "EXT\t",
                  "PLUGIN\t", "CLOCKCONTROL", "CLOCK", "Events", "DECKREPOS", "FLARE", "SEMAIL\t",
                  "LOCKSPOTAB", "SPP\t", "AUDIO\t", "DECK\t", "SHOW_RESULTS\t", "LOG\t",
                  "UNDO\t")
ERROR = "error"
WARNING = "warning"
NOTE = "note"


def _int_token(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def decode_save_text(text: str) -> DecodedSave:
    """Split and decode a save's or log's plaintext (§4.3-4.4), recording problems instead of
    raising: :func:`decode_save_plain` of its UTF-8 bytes.

    Raises:
        UnicodeEncodeError: ``text`` holds a lone surrogate (no save text can).
    """
    return decode_save_plain(text.encode("utf-8"))


def read_saved_game(data: bytes, entry: str = "savedGame") -> DecodedSave:
    """A ``savedGame`` entry deobfuscated (§4.2) and decoded (:func:`decode_save_plain`),
    without turning the whole plaintext into a ``str``: a save of 4 million characters, a few
    of them outside Latin-1, would take 16 MB as a ``str`` and most of it is repeated piece
    types, each decoded once.

    Raises:
        VassalFormatError: as :func:`deobfuscate` (bad obfuscation, or invalid UTF-8, with the
            same message: every byte of the plaintext is decoded by some step of the decoding,
            and the first failure is reported as decoding the whole text reports it).
    """
    plain = deobfuscate_bytes(data, entry)
    try:
        with collector_paused():
            return decode_save_plain(plain)
    except UnicodeDecodeError:
        _utf8_text(plain, entry)  # raises, naming the first bad byte of the whole text
        raise  # pragma: no cover - the whole text decoded where a part of it did not


def decode_save_plain(plain: bytes) -> DecodedSave:
    """Split and decode a save's or log's plaintext given as UTF-8 bytes (§4.3-4.4), recording
    problems instead of raising. Every command is decoded: AddPiece (``+/``), ChangePiece
    (``D/``), MovePiece (``M/``), RemovePiece (``-/``), board commands, and the ``LOG``/``UNDO``
    entries of a ``.vlog`` after ``end_save`` (each ``LOG`` entry's command is decoded the same
    way). Commands are split as bytes (:func:`~.commands.split_commands`) and AddPiece commands
    decoded from them (:func:`~.pieces.decode_add_piece_bytes`); every other command is decoded
    to ``str`` whole, so every byte is read as UTF-8 by some step.

    Problems (severity, as VASSAL 3.7.26 reacts): missing ``begin_save``/``end_save`` (error:
    "Load … cancelled"), trailing whitespace (error), undecodable pieces and moves (error: the
    command throws), duplicate piece ids (error, both indexes named), an unknown command
    (warning: dropped silently), a stack listing an id added nowhere or later (warning:
    ``Stack.setState`` skips it), a piece listed in two stacks (warning: the later stack takes
    it). The ``null;0;0`` of an empty off-map stack is read as VASSAL writes it (map, x, y), not
    as two piece ids.

    A large save whose text has the shape VASSAL writes (no quoted command, no id with a
    backslash or quote, no duplicate id, every AddPiece decodable, no ``LOG`` entry) is read
    by :func:`_decode_grouped`: its AddPiece commands are cut out of the text at once and each
    distinct type and state decoded once, in a time that grows with the distinct states, not
    with the commands (a setup of 66 000 empty stacks parked at a dozen spots). Everything else
    is decoded command by command. Both give the same :class:`DecodedSave` (pieces, stacks,
    command indexes, problems in the same order; tests/vassal/test_vassal_save_grouped.py).

    Raises:
        UnicodeDecodeError: ``plain`` is not UTF-8.
    """
    return _decode_grouped(plain) or _decode_each(plain)


def _decode_each(plain: bytes) -> DecodedSave:
    """:func:`decode_save_plain` command by command: every command split out
    (:func:`~.commands.split_commands`) and decoded in turn.

    Raises:
        UnicodeDecodeError: ``plain`` is not UTF-8.
    """

    commands = split_commands(plain)
    save = DecodedSave(plain, commands, [], [])
    if _last_char(plain).isspace():
        save.problems.append((-1, ERROR, "save text ends with whitespace: VASSAL drops "
                              "'end_save' (§4.3)"))
    if not commands or commands[0] != _BEGIN:
        save.problems.append((0, ERROR, "save does not start with begin_save"))
    try:
        end = commands.index(_END)
    except ValueError:
        end = -1
        save.problems.append((len(commands) - 1, ERROR,
                              "save has no end_save: 'Load … cancelled', no game starts (§4.3)"))
    added: dict[str, int] = {}
    stacked: dict[str, int] = {}
    pending: list[tuple[int, DecodedPiece]] = []
    for i, cmd in enumerate(commands):
        if cmd == _BEGIN or cmd == _END:
            continue
        if end >= 0 and i > end:
            if cmd.startswith((b"LOG\t", b"UNDO\t")):
                save.log += 1
                if cmd.startswith(b"LOG\t"):
                    for inner in split_commands(cmd[4:]):
                        _decode_command(save, i, inner, added, stacked, pending, logged=True)
                else:
                    cmd.decode("utf-8")  # read as VASSAL reads it: the whole text is UTF-8
                continue
        _decode_command(save, i, cmd, added, stacked, pending)
    for i, stack in pending:
        assert stack.stack is not None
        for pid in stack.stack.piece_ids:
            if pid not in added:
                save.problems.append((i, WARNING, f"stack {stack.id} lists {pid!r}, which no "
                                      "AddPiece defines: VASSAL skips it (§4.4)"))
            elif added[pid] > i:
                save.problems.append((i, WARNING, f"stack {stack.id} lists {pid!r}, added only "
                                      f"later (command[{added[pid]}]): VASSAL leaves it out of "
                                      "the stack (§4.4)"))
    return save


#: A save with fewer AddPiece commands is decoded command by command (grouping gains nothing).
GROUPED_MIN = 256
_ESC_ADD = b"\x1b+/"


def _leaves(text: bytes, *, last: bool) -> list[bytes]:
    """The commands of a stretch of plaintext in which no command is wrapped in quotes (no
    quote follows an ESC): :func:`~.commands.split_commands` of it is then its ESC-separated
    fragments, each without the backslashes before its ESC (an ESC behind ``b`` backslashes
    separates commands at nesting depth ``b`` and takes them with it), empty ones dropped.
    ``last``: the stretch ends the text (its last fragment is followed by no ESC)."""
    frags = text.split(b"\x1b")
    tail = frags.pop() if last else None
    out = [f.rstrip(b"\\") for f in frags]
    if tail is not None:
        out.append(tail)
    return [c for c in out if c]


@dataclass
class _Grouped:
    """A save's AddPiece commands as :func:`_decode_grouped` keeps them: the ``n`` AddPiece
    commands in order as ``ids[k]`` (UTF-8 bytes) and ``keys[k]`` (the bytes after the id: type
    and state, the backslashes of the ESC that ends them, and for a command that other commands
    follow, those too), ``bodies`` each distinct key decoded once (levels, BasicPiece, stack),
    ``counts`` the commands per key (first occurrence first), ``marked`` the positions ``k``
    of every command but the empty stacks (pieces, decks, stacks holding pieces, commands
    followed by others), ``head`` the number of commands before the first AddPiece, and
    ``mixed``/``extra`` the positions of commands followed by others and the running count of
    those others (command index of position ``k``: :meth:`index`)."""

    ids: list[bytes]
    keys: list[bytes]
    bodies: dict[bytes, tuple[tuple[tuple[str, str], ...], BasicState | None, StackState | None]]
    counts: Counter[bytes]
    marked: list[int]
    marked_keys: set[bytes]
    head: int
    mixed: list[int]
    extra: list[int]
    _pos: dict[bytes, int] = field(default_factory=dict)

    def index(self, k: int) -> int:
        """The command index of the AddPiece at position ``k``."""
        return self.head + k + self.extra[bisect_left(self.mixed, k)]

    def position(self, piece_id: str) -> int | None:
        """The position of the AddPiece with this id, None when none has it."""
        raw = piece_id.encode("utf-8")
        if not self._pos:
            self._pos.update((self.ids[k], k) for k in self.marked)
        k = self._pos.get(raw)
        if k is None and raw in self.ids:  # an empty stack's id: rare, one pass
            k = self._pos[raw] = self.ids.index(raw)
        return k

    def _piece(self, save: DecodedSave, k: int) -> DecodedPiece:
        piece = DecodedPiece(self.ids[k].decode("utf-8"), *self.bodies[self.keys[k]])
        save.index_of[id(piece)] = self.index(k)
        return piece

    def materialize(self, save: DecodedSave, *, stacks: bool) -> list[DecodedPiece]:
        """The pieces (``stacks`` False: pieces and decks) or the stacks, in command order."""
        if stacks:
            kinds = {key for key, body in self.bodies.items() if body[2] is not None}
            where: Iterable[int] = compress(range(len(self.keys)),
                                            map(kinds.__contains__, self.keys))
        else:
            where = (k for k in self.marked if self.bodies[self.keys[k]][2] is None)
        return [self._piece(save, k) for k in where]

    def find(self, save: DecodedSave, piece_id: str) -> DecodedPiece | None:
        k = self.position(piece_id)
        return None if k is None else self._piece(save, k)

    def groups(self, save: DecodedSave) -> list[PieceGroup]:
        out: list[PieceGroup] = []
        stack_groups: list[PieceGroup] = []
        for key, count in self.counts.items():
            body = self.bodies[key]
            group = PieceGroup(DecodedPiece("", *body), count,
                               lambda key=key: self._members(key))
            (stack_groups if body[2] is not None else out).append(group)
        return out + stack_groups

    def _members(self, key: bytes) -> list[tuple[str, int]]:
        if key in self.marked_keys:
            ks: Iterable[int] = [k for k in self.marked if self.keys[k] == key]
        else:
            ks = compress(range(len(self.keys)), map(key.__eq__, self.keys))
        return [(self.ids[k].decode("utf-8"), self.index(k)) for k in ks]


def _decode_grouped(plain: bytes) -> DecodedSave | None:
    """:func:`decode_save_plain` of a save as VASSAL writes a large one, without splitting out
    and decoding its commands one by one; None when the text is not of that shape (the caller
    then decodes it command by command, :func:`_decode_each`, with the same result).

    The text is cut at every ESC followed by ``+/`` (an AddPiece command starts after an ESC):
    each cut is the command's id up to the first ``/``, then its type and state, the
    backslashes of the ESC that ends it and any commands before the next AddPiece. The cuts
    with the same bytes after the id are counted together, each distinct one decoded once
    (:func:`~.pieces.decode_add_piece_bytes` under a stand-in id: with no backslash, quote or
    ``/`` in the id the result does not depend on it). None (decode each) when a command may be
    wrapped in quotes (a quote after an ESC, or at the start), an id is empty, repeats or holds
    a backslash, quote or ESC, an AddPiece does not decode, the text does not end with a
    command other than an AddPiece, or a ``LOG``/``UNDO`` entry follows ``end_save`` (a log).

    Raises:
        UnicodeDecodeError: the text's last character is not UTF-8 (as :func:`_decode_each`
            raises it); any other byte that is not UTF-8 gives None.
    """
    if plain[:1] == b"'" or plain.startswith(b"+/"):
        return None
    frags = plain.split(_ESC_ADD)
    n = len(frags) - 1
    # a quote after an ESC lies in the text before the first AddPiece or after a cut's id
    # (no AddPiece starts with a quote): looked for there, in the distinct cuts, below
    if n < GROUPED_MIN or b"\x1b'" in frags[0]:
        return None
    head = _leaves(frags[0], last=False)
    del frags[0]
    parts = list(map(bytes.partition, frags, repeat(b"/", n)))
    del frags
    ids = list(map(itemgetter(0), parts))
    keys = list(map(itemgetter(2), parts))
    del parts
    joined = b"/".join(ids)
    if b"\x1b" in joined or b"\\" in joined or b"'" in joined:
        return None
    id_set = set(ids)
    if len(id_set) != n or b"" in id_set:
        return None
    del id_set
    try:
        joined.decode("utf-8")
    except UnicodeDecodeError:
        return None
    del joined
    counts = Counter(keys)
    last_key = keys[-1]
    if counts[last_key] != 1:
        return None
    bodies = {}
    tails: dict[bytes, list[bytes]] = {}
    for key in counts:
        body, esc, tail = key.partition(b"\x1b")
        if esc and b"\x1b'" in key:
            return None
        if esc:
            tails[key] = _leaves(tail, last=key is last_key)
        elif key is last_key:
            return None  # the text ends with an AddPiece: no end_save, decoded each
        try:
            piece = decode_add_piece_bytes(b"+/x/" + body.rstrip(b"\\"))
        except (PieceDecodeError, UnicodeDecodeError):
            return None
        bodies[key] = (piece.levels, piece.basic, piece.stack)
    empty = {key for key, body in bodies.items()
             if body[2] is not None and not body[2].piece_ids and key not in tails}
    marked_keys = bodies.keys() - empty
    marked = list(compress(range(n), map(marked_keys.__contains__, keys)))
    mixed = [k for k in marked if keys[k] in tails]
    extra = [0]
    for k in mixed:
        extra.append(extra[-1] + len(tails[keys[k]]))
    grouped = _Grouped(ids, keys, bodies, counts, marked, set(marked_keys), len(head), mixed, extra)
    others = list(enumerate(head))
    for k in mixed:
        at = grouped.index(k) + 1
        others.extend(enumerate(tails[keys[k]], at))
    total = len(head) + n + extra[-1]
    save = DecodedSave(plain, _grouped=grouped)
    if _last_char(plain).isspace():
        save.problems.append((-1, ERROR, "save text ends with whitespace: VASSAL drops "
                              "'end_save' (§4.3)"))
    if not head or head[0] != _BEGIN:
        save.problems.append((0, ERROR, "save does not start with begin_save"))
    end = next((i for i, cmd in others if cmd == _END), -1)
    if end < 0:
        save.problems.append((total - 1, ERROR,
                              "save has no end_save: 'Load … cancelled', no game starts (§4.3)"))
    start = len(save.problems)
    for i, cmd in others:
        if cmd == _BEGIN or cmd == _END:
            continue
        if end >= 0 and i > end and cmd.startswith((b"LOG\t", b"UNDO\t")):
            return None  # a log: its entries are decoded each
        try:
            _decode_command(save, i, cmd, {}, {}, [])
        except UnicodeDecodeError:
            return None
    stacked: dict[str, int] = {}
    pending: list[tuple[int, str, tuple[str, ...]]] = []
    for k in marked:
        stack = bodies[keys[k]][2]
        if stack is None or not stack.piece_ids:
            continue
        i = grouped.index(k)
        for pid in stack.piece_ids:
            at = grouped.position(pid)
            if pid in stacked and at is not None and grouped.index(at) <= i:
                save.problems.append((i, WARNING, f"piece {pid!r} is listed in stack "
                                      f"{ids[k].decode('utf-8')} and in the stack of command"
                                      f"[{stacked[pid]}]: the later stack takes it"))
            stacked[pid] = i
        pending.append((i, ids[k].decode("utf-8"), stack.piece_ids))
    save.problems[start:] = sorted(save.problems[start:], key=itemgetter(0))
    for i, sid, piece_ids in pending:
        for pid in piece_ids:
            at = grouped.position(pid)
            if at is None:
                save.problems.append((i, WARNING, f"stack {sid} lists {pid!r}, which no "
                                      "AddPiece defines: VASSAL skips it (§4.4)"))
            elif grouped.index(at) > i:
                save.problems.append((i, WARNING, f"stack {sid} lists {pid!r}, added only "
                                      f"later (command[{grouped.index(at)}]): VASSAL leaves it "
                                      "out of the stack (§4.4)"))
    return save


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the block (and restored as it was).

    Decoding a save builds tens of thousands of small tuples and frozen dataclasses (levels,
    pieces, stacks) that hold no reference cycles and all live on: the collector, triggered
    every 700 new containers, would scan them again and again to free nothing (a tenth of the
    CPU time of a large module's lint). Reference counting still frees everything at once, and
    whatever cycles there are are collected once the collector runs again. Nested pauses keep
    it paused until the outermost ends."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_BEGIN = BEGIN_SAVE.encode("ascii")
_END = END_SAVE.encode("ascii")


def _last_char(plain: bytes) -> str:
    """The last character of UTF-8 bytes (``""`` when empty): its lead byte is the last one
    that is not a continuation byte (``10xxxxxx``).

    Raises:
        UnicodeDecodeError: the last character is not UTF-8.
    """
    start = len(plain) - 1
    while start > 0 and len(plain) - start < 4 and plain[start] & 0xC0 == 0x80:
        start -= 1
    return plain[max(start, 0):].decode("utf-8")


def _decode_command(save: DecodedSave, i: int, raw: bytes, added: dict[str, int],
                    stacked: dict[str, int], pending: list[tuple[int, DecodedPiece]], *,
                    logged: bool = False) -> None:
    """Decode command ``i`` into ``save``; ``logged``: it is a step of a ``LOG`` entry after
    ``end_save`` (a board command there is a step of the replay, :attr:`DecodedSave.board_steps`,
    not a second choice of the initial boards)."""
    if raw.startswith(b"+/"):
        try:
            piece = decode_add_piece_bytes(raw)
        except PieceDecodeError as exc:
            save.problems.append((i, ERROR, f"AddPiece does not decode: {exc}"))
            return
        if piece.id in added and piece.id != "null":
            save.problems.append((i, ERROR, f"duplicate piece id {piece.id!r}: also added by "
                                  f"command[{added[piece.id]}]; the later one replaces it"))
        added[piece.id] = i
        save.index_of[id(piece)] = i
        if piece.stack is not None:
            for pid in piece.stack.piece_ids:
                if pid in stacked and pid in added:
                    save.problems.append((i, WARNING, f"piece {pid!r} is listed in stack "
                                          f"{piece.id} and in the stack of command"
                                          f"[{stacked[pid]}]: the later stack takes it"))
                stacked[pid] = i
            pending.append((i, piece))
            save._stacks.append(piece)  # type: ignore[union-attr]
        else:
            save._pieces.append(piece)  # type: ignore[union-attr]
        return
    cmd = raw.decode("utf-8")
    if cmd.startswith(("D/", "M/", "-/")):
        change = _decode_change(cmd, i)
        if isinstance(change, str):
            save.problems.append((i, ERROR, change))
        else:
            save.changes.append(change)
        return
    try:
        board = parse_board_command(cmd)
    except ValueError as exc:
        save.problems.append((i, ERROR, f"bad board command: {exc}"))
        return
    if board is not None:
        map_name, boards = board
        if logged:
            save.board_steps.setdefault(map_name, []).append((i, boards))
            return
        if map_name in save.boards:
            save.problems.append((i, WARNING, f"second board command for map {map_name!r}: "
                                  "the last one wins"))
        save.boards[map_name] = boards
        return
    if not cmd.startswith(KNOWN_PREFIXES):
        save.problems.append((i, WARNING, "unknown command (VASSAL 3.7 drops it silently "
                              f"unless module code decodes it): {cmd[:40]!r}"))
    save.other.append(cmd)


def _decode_change(cmd: str, i: int) -> PieceChange | str:
    """A ``D/``, ``M/`` or ``-/`` command decoded as ``BasicCommandEncoder.decode`` does, or the
    reason it throws."""
    if cmd.startswith("-/"):
        return PieceChange("remove", i, cmd[2:])
    parts = decode(cmd[2:], "/")
    if cmd.startswith("D/"):
        if len(parts) < 2:
            return "ChangePiece has no new state: D/id/newState[/oldState] (§4.3)"
        return PieceChange("change", i, parts[0], state=parts[1])
    if len(parts) < 9:
        return f"MovePiece has {len(parts)} fields, expected 9 or 10 (§4.3)"
    nums = [_int_token(parts[k]) for k in (2, 3, 6, 7)]
    if None in nums:
        return ("MovePiece x/y is not an integer: Integer.parseInt throws and the command is "
                "lost (§4.3)")
    map_name = None if parts[1] == "null" else parts[1]
    return PieceChange("move", i, parts[0], map_name=map_name, x=nums[0], y=nums[1])


def read_save(data: bytes) -> DecodedSave:
    """Read a ``.vsav`` (bytes): check the entries (§4.1), deobfuscate ``savedGame`` (§4.2),
    split and decode the commands (:func:`decode_save_text`), and take the module name/version
    from ``moduledata``/``savedata``.

    Raises:
        VassalFormatError: not a safe ZIP, no ``savedGame``, bad obfuscation or UTF-8, or
            malformed metadata XML.
    """
    with open_archive(data) as arc:
        if "savedGame" not in arc:
            raise VassalFormatError("not a VASSAL save: no savedGame entry (§4.1)")
        save = read_saved_game(arc.read("savedGame", keep=False))
        for entry in ("savedata", "moduledata"):
            if entry not in arc:
                save.problems.append((-1, NOTE, f"save has no {entry} entry (§4.1)"))
        if "moduledata" in arc:
            root = arc.read_xml("moduledata")
            save.module_name = root.findtext("name")
        if "savedata" in arc:
            root = arc.read_xml("savedata")
            save.module_version = root.findtext("version")
            save.vassal_version = root.findtext("VassalVersion")
    return save


@dataclass(frozen=True)
class SetupPiece:
    """A piece of a read save, located on its board (§2.4 map coordinates, §2.5 grids, §4.4).

    Attributes:
        id: the piece id in the save.
        name: the BasicPiece name.
        gpid: the gpid of the PieceSlot it came from ("" when none).
        slot: the label of that palette slot in the module, None when the gpid names none.
        prototypes: prototype names it uses, its own then its slot's (VASSAL-written saves
            expand prototypes, so the slot's are the ones that survive).
        properties: Marker, Dynamic Property and BasicPiece values, prototypes' included.
        layers: Layer name → level (1-based, negative when inactive).
        angle: Can Rotate angle in degrees (VASSAL's sign: positive is counter-clockwise).
        map_name: the map.
        board: the board under it, None when it lies on no board of the map.
        x, y: board pixels (map pixels less the edge and the board's offset).
        location: the grid location name (or zone name) VASSAL shows, None without a grid.
        raw: the raw (column, row) of the hex or square holding it, None without such a grid.
        grid: that grid.
        stack: the id of the stack holding it, None when unstacked.
        stack_index: its place in that stack, 0 at the bottom.
    """

    id: str
    name: str
    gpid: str
    slot: str | None
    prototypes: tuple[str, ...]
    properties: Mapping[str, str]
    layers: Mapping[str, int]
    angle: float | None
    map_name: str
    board: str | None
    x: int
    y: int
    location: str | None
    raw: tuple[int, int] | None
    grid: HexGrid | SquareGrid | None
    stack: str | None = None
    stack_index: int = 0


def _board_origins(map_info, placements) -> dict[str, tuple[int, int, int, int]]:
    """Board name → (x, y, width, height) in map pixels, boards laid out in their picker grid
    (``Map.setBoardBoundaries``: each column as wide as its widest board, each row as tall as
    its tallest, after the edge)."""
    col_w: dict[int, int] = {}
    row_h: dict[int, int] = {}
    sizes = {}
    for name, col, row, *_ in placements:
        b = map_info.boards.get(name)
        size = b.size if b is not None and b.size else (0, 0)
        sizes[name] = size
        col_w[col] = max(col_w.get(col, 0), size[0])
        row_h[row] = max(row_h.get(row, 0), size[1])
    ew, eh = map_info.edge
    out = {}
    for name, col, row, *_ in placements:
        x = ew + sum(w for c, w in col_w.items() if c < col)
        y = eh + sum(h for r, h in row_h.items() if r < row)
        out[name] = (x, y, *sizes[name])
    return out


def locate_pieces(save: DecodedSave, module) -> list[SetupPiece]:
    """Every piece of ``save`` that stands on a map of ``module`` (a
    :class:`~.read.ModuleInfo`), with its board, board pixels, grid location and the module's
    palette slot (by gpid), in save order. Pieces in decks, hands kept off-map (map ``null``)
    and on maps the module does not define are left out. A map whose save gives no board
    command uses its only board when it has exactly one."""
    slots = module.slots_by_gpid
    stack_of: dict[str, tuple[DecodedPiece, int]] = {}
    for st in save.stacks:
        assert st.stack is not None
        for i, pid in enumerate(st.stack.piece_ids):
            stack_of.setdefault(pid, (st, i))
    origins: dict[str, dict[str, tuple[int, int, int, int]]] = {}
    for name, m in module.maps.items():
        placements = save.boards.get(name)
        if not placements and len(m.boards) == 1:
            placements = [(next(iter(m.boards)), 0, 0, False)]
        origins[name] = _board_origins(m, placements or [])
    out: list[SetupPiece] = []
    for p in save.pieces:
        if p.kind != "piece" or p.basic is None or p.map_name not in module.maps:
            continue
        m = module.maps[p.map_name]
        mx, my = p.basic.x, p.basic.y
        if p.id in stack_of:
            st = stack_of[p.id][0]
            assert st.stack is not None
            mx, my = st.stack.x, st.stack.y  # the stack's position wins (§4.4)
        board, bx, by = None, mx - m.edge[0], my - m.edge[1]
        for name, (ox, oy, w, h) in origins[p.map_name].items():
            if (w == 0 and h == 0) or (ox <= mx < ox + w and oy <= my < oy + h):
                board, bx, by = name, mx - ox, my - oy
                break
        grid = location = raw = None
        binfo = m.boards.get(board) if board is not None else None
        if binfo is not None:
            grid, zone = binfo.grid_at(bx, by)
            size = binfo.size or (0, 0)
            if grid is not None:
                raw = grid.raw_index(bx, by)
                location = grid.location(bx, by, size)
            if location is None:
                location = zone
        slot = slots.get(p.basic.gpid) if p.basic.gpid else None
        protos = tuple(dict.fromkeys([*p.prototype_names, *(slot.piece.prototype_names if slot else [])]))
        props = dict(slot.piece.properties(module.prototypes)) if slot else {}
        props.update(p.properties(module.prototypes))
        holder, index = stack_of.get(p.id, (None, 0))
        sid = holder.id if holder is not None else None
        out.append(SetupPiece(p.id, p.basic.name, p.basic.gpid, slot.entry_name if slot else None, protos, props,
                              p.layer_levels(), p.rotation(), p.map_name or "", board, bx, by, location, raw, grid, sid, index))
    return out


def read_save_path(path) -> DecodedSave:
    """:func:`read_save` of a file, refusing one larger than :class:`~.archive.Limits`
    allows before reading it.

    Raises:
        VassalFormatError: not a regular file, too large, or as :func:`read_save`.
    """
    import os

    if not os.path.isfile(path):
        raise VassalFormatError("not a regular file (a folder, a device or missing)", os.path.basename(os.fspath(path)))
    if os.path.getsize(path) > Limits().max_total_size:
        raise VassalFormatError("file larger than the size limit", os.path.basename(os.fspath(path)))
    with open(path, "rb") as fh:
        return read_save(fh.read())
