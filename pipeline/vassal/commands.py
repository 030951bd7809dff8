"""Save-file commands that are not pieces (``vassal-format.md`` §4.3).

Commands are joined with ESC (0x1B) using SequenceEncoder rules; this module writes a *flat*
list (equally valid, §4.3) and reads both flat and nested lists.

>>> board_command("Main Map", [("Main Board", 0, 0)])
'Main MapBoardPicker\\tMain Board\\t0\\t0'
"""

from __future__ import annotations

from collections.abc import Sequence

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


def split_commands(text: str) -> list[str]:
    """Split a save's plaintext into commands, flattening nested lists the way
    ``GameModule.decode`` does (a command that itself contains an unescaped ESC after
    decoding is a nested list, §4.3)."""
    out: list[str] = []
    for command in decode(text, ESC):
        if ESC in command:
            out.extend(c for c in split_commands(command) if c)
        elif command:
            out.append(command)
    return out
