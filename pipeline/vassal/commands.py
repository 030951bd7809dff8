"""Save-file commands that are not pieces (``vassal-format.md`` §4.3).

Commands are joined with ESC (0x1B) using SequenceEncoder rules; this module writes a *flat*
list (equally valid, §4.3) and reads both flat and nested lists.

>>> board_command("Main Map", [("Main Board", 0, 0)])
'Main MapBoardPicker\\tMain Board\\t0\\t0'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import AnyStr

from .sequence import decode, encode

__all__ = [
    "BEGIN_SAVE",
    "END_SAVE",
    "ESC",
    "SETUP_STACK",
    "BoardPlacement",
    "board_command",
    "join_commands",
    "parse_board_command",
    "split_commands",
    "split_commands_by_level",
]

ESC = "\x1b"
BEGIN_SAVE = "begin_save"
END_SAVE = "end_save"
#: The new-game flag; the trailing TAB is required (§4.3).
SETUP_STACK = "SETUP_STACK\t"

#: ``(board_name, column, row)`` or ``(board_name, column, row, reversed)``.
BoardPlacement = tuple[str, int, int] | tuple[str, int, int, bool]


def board_command(map_name: str, boards: Sequence[BoardPlacement]) -> str:
    """The BoardPicker command ``<map>BoardPicker⇥<board>[/rev]⇥<col>⇥<row>...`` (§4.3), as
    ``BoardPicker.encode`` writes it; also the text of a BoardPicker ``<setup>`` (§2.4).

    Raises:
        ValueError: for an empty board list or negative column/row.
    """
    if not boards:
        raise ValueError("board command needs at least one board")
    items = [map_name + "BoardPicker"]
    for placement in boards:
        name, col, row = placement[0], int(placement[1]), int(placement[2])
        reversed_ = bool(placement[3]) if len(placement) > 3 else False  # type: ignore[misc]
        if col < 0 or row < 0:
            raise ValueError(f"board {name!r}: negative position ({col}, {row})")
        items.append(encode([name, "rev"] if reversed_ else [name], "/"))
        items.extend((str(col), str(row)))
    return encode(items, "\t")


def parse_board_command(command: str) -> tuple[str, list[tuple[str, int, int, bool]]] | None:
    """Parse a BoardPicker command into ``(map_name, [(board, col, row, reversed)])``.

    Returns None when ``command`` is not a board command. Raises ValueError when it is one but
    the columns/rows are not integers or the triples are incomplete.
    """
    tokens = decode(command, "\t")
    head = tokens[0]
    if not head.endswith("BoardPicker") or len(tokens) < 1:
        return None
    rest = tokens[1:]
    if len(rest) % 3:
        raise ValueError(f"board command has an incomplete board entry: {command!r}")
    boards = []
    for i in range(0, len(rest), 3):
        name_parts = decode(rest[i], "/")
        rev = len(name_parts) > 1 and name_parts[1] == "rev"
        boards.append((name_parts[0], int(rest[i + 1]), int(rest[i + 2]), rev))
    return head[: -len("BoardPicker")], boards


def join_commands(commands: Sequence[str]) -> str:
    """Join commands with ESC (flat list, §4.3). No trailing whitespace is added."""
    return encode(commands, ESC)


def split_commands(text: AnyStr) -> list[AnyStr]:
    """Split a save's plaintext into commands, flattening nested lists the way
    ``GameModule.decode`` does (a command that itself contains an unescaped ESC after
    decoding is a nested list, §4.3); empty commands are dropped.

    ``text`` is the plaintext as ``str`` or as its UTF-8 ``bytes`` (the commands come back of
    the same type): ESC, backslash and quote are ASCII, and no byte of a multi-byte UTF-8
    character is ASCII, so the bytes split exactly where the characters do, and a save's long
    non-ASCII text is never turned into a ``str`` only to be split.

    Equal to decoding level by level (:func:`split_commands_by_level`), in one pass over the
    ESCs instead of one pass over the whole text per nesting level: an ESC behind ``b``
    backslashes separates commands at nesting depth ``b`` (every decode before drops one of its
    backslashes), the commands between separators lose the quotes that wrap them, and the
    text between two ESCs is copied once.
    """
    if isinstance(text, bytes):
        esc, back, quote = b"\x1b", 0x5C, 0x27  # bytes index to ints
    else:
        esc, back, quote = ESC, "\\", "'"
    escs: list[int] = []
    runs: list[int] = []
    at = text.find(esc)
    while at >= 0:
        b = 0
        while b < at and text[at - 1 - b] == back:
            b += 1
        escs.append(at)
        runs.append(b)
        at = text.find(esc, at + 1)
    out: list[AnyStr] = []
    _flatten(text, quote, escs, runs, 0, len(text), 0, 0, len(escs), out)
    return out


def _flatten(text: AnyStr, quote: str | int, escs: list[int], runs: list[int], start: int,
             end: int, depth: int, lo: int, hi: int, out: list[AnyStr]) -> None:
    """Append the non-empty commands of ``text[start:end]`` at nesting ``depth``, whose ESCs
    are ``escs[lo:hi]`` (positions) behind ``runs[lo:hi]`` backslashes; ``quote`` is ``'`` as
    an item of ``text`` (a character, or its code for bytes)."""
    s, first = start, lo
    for i in range(lo, hi + 1):
        if i < hi and runs[i] > depth:
            continue  # escaped at this depth: part of a nested list
        e = escs[i] - runs[i] if i < hi else end
        t_lo, t_hi = first, i
        if e - s > 1 and text[s] == quote and text[e - 1] == quote:
            s, e = s + 1, e - 1
            # the quotes are no ESCs, so the token's ESCs stay escs[first:i]
        if t_hi > t_lo:
            _flatten(text, quote, escs, runs, s, e, depth + 1, t_lo, t_hi, out)
        elif e > s:
            out.append(text[s:e])
        if i < hi:
            s, first = escs[i] + 1, i + 1


def split_commands_by_level(text: str) -> list[str]:
    """:func:`split_commands` the slow, literal way: ``decode(text, ESC)``, then each command
    that still holds an ESC decoded again (the reference the one-pass split is tested
    against)."""
    out: list[str] = []
    for command in decode(text, ESC):
        if ESC in command:
            out.extend(c for c in split_commands_by_level(command) if c)
        elif command:
            out.append(command)
    return out
