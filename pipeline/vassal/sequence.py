"""VASSAL's ``SequenceEncoder``: the one escaping scheme used by every VASSAL string.

Follows ``vassal-format.md`` §3.1 and the 3.7.26 source of ``VASSAL.tools.SequenceEncoder``
(checked line by line): only the delimiter is escaped, with a backslash; backslashes are never
doubled; an item that starts with ``\\`` or that starts *and* ends with ``'`` is wrapped in an
extra pair of single quotes; an empty item contributes nothing; a trailing delimiter decodes to a
final empty token.

>>> encode(["a", "", "b;c"], ";")
'a;;b\\\\;c'
>>> decode("a;;b\\\\;c", ";")
['a', '', 'b;c']
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator

__all__ = ["decode", "encode", "encode_item", "split_levels", "split_nested"]


def _check_delim(delim: str) -> None:
    if len(delim) != 1:
        raise ValueError(f"delimiter must be a single character, got {delim!r}")
    if delim in ("\\", "'"):
        raise ValueError(f"{delim!r} cannot be used as a SequenceEncoder delimiter")


def encode_item(item: str, delim: str) -> str:
    """Encode one item as ``SequenceEncoder.append(String)`` would (§3.1 steps 2-3).

    Raises:
        ValueError: if ``item`` ends with a backslash. Such an item is mis-decoded when a
            delimiter follows it (§3.1 "Consequences"), so gunbai never writes one (§8 item 13).
    """
    if not isinstance(item, str):
        raise TypeError(f"items must be str, got {type(item).__name__}: {item!r}")
    if item.endswith("\\"):
        raise ValueError(f"item ends with a backslash and cannot round-trip: {item!r}")
    if not item:
        return ""
    escaped = item.replace(delim, "\\" + delim)
    if item[0] == "\\" or (item[0] == "'" and item[-1] == "'"):
        return "'" + escaped + "'"
    return escaped


def encode(items: Iterable[str], delim: str) -> str:
    """Join ``items`` with ``delim`` using VASSAL's escaping (§3.1).

    Args:
        items: the strings to join. Numbers must be converted by the caller with Java's
            ``String.valueOf`` conventions (``true``, ``12``, ``1.0``).
        delim: a single character, for example ``";"``, ``"\\t"``, ``"/"``, ``","``, ``"\\x1b"``.

    Returns:
        The encoded string. An empty ``items`` gives ``""`` (Java returns ``null``); note that
        ``decode("")`` is ``[""]``, so the empty list is the one input that does not round-trip.

    Raises:
        ValueError: an item ends with a backslash, or ``delim`` is not one usable character.

    >>> encode(["'quoted'", "\\\\x"], ";")
    "''quoted'';'\\\\x'"
    """
    _check_delim(delim)
    return delim.join(encode_item(item, delim) for item in items)


def _unquote(token: str) -> str:
    if len(token) > 1 and token[0] == "'" and token[-1] == "'":
        return token[1:-1]
    return token


def decode(text: str, delim: str) -> list[str]:
    """Split ``text`` at every ``delim`` not preceded by a backslash (§3.1 "Decoding").

    A port of ``SequenceEncoder.Decoder.nextToken`` (3.7.26): the backslash before an escaped
    delimiter is removed, a token of length >= 2 wrapped in ``'...'`` loses the quotes, and a
    trailing delimiter yields a final empty token. ``decode("", d)`` is ``[""]``.

    Never raises on malformed input: like VASSAL, any string decodes to something.

    >>> decode("a;", ";")
    ['a', '']
    """
    _check_delim(delim)
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    escaped = "\\" + delim
    if escaped not in text:
        tokens = text.split(delim)
    else:
        # a delimiter is a separator unless the character before it is a backslash (backslashes
        # are never doubled, so a run of them escapes just the same) and each escape loses its
        # backslash: the escapes are set aside as a character the text lacks, then split
        mark = _absent_char(text)
        tokens = [t.replace(mark, delim) if mark in t else t
                  for t in text.replace(escaped, mark).split(delim)]
    if "'" not in text:  # nothing to unquote: the common case
        return tokens
    return [_unquote(t) for t in tokens]


_MARKS = tuple(chr(code) for code in (*range(1, 32), *range(0xE000, 0xF900)))


def _absent_char(text: str) -> str:
    """A character that does not occur in ``text`` (a control character, else a private-use
    one: a text holding all of them would need 6 400 distinct characters)."""
    for c in _MARKS:
        if c not in text:
            return c
    raise ValueError("text uses every candidate marker character")  # pragma: no cover


_TAB_RUN = re.compile(r"\\*\t")


def _strip_runs(text: str, k: int) -> str:
    """``text`` with ``k`` backslashes removed before every TAB that has more than ``k``."""
    if "\t" not in text or k <= 0:
        return text
    return _TAB_RUN.sub(lambda m: m.group()[k:] if len(m.group()) > k else m.group(), text)


def split_nested(text: str) -> Iterator[tuple[int, str]]:
    """Peel a TAB-nested string (a piece type or state, §3.2) level by level, exactly as
    repeating ``parts = decode(rest, "\\t"); rest = parts[1]`` does, without re-scanning the rest
    at every level (a 40-level state of 40 000 characters is read once, not 40 times).

    Yields ``(n_parts, level)`` per level: ``n_parts`` is what ``decode(rest, TAB)`` would
    return in length (2: ``level`` is its first token; 1: the last level, and ``level`` is the
    rest itself, which VASSAL hands on undecoded to ``BasicPiece``; more: not a nested encoding,
    ``level`` is the first token and the generator stops). A TAB preceded by ``b`` backslashes in ``text`` is an unescaped
    separator at nesting depth ``d`` when ``b <= d`` (each decode removes one backslash).
    """
    tabs = [(m.end() - 1, m.end() - 1 - m.start()) for m in _TAB_RUN.finditer(text)]
    positions = [p for p, _ in tabs]
    suffix_min = [0] * (len(tabs) + 1)
    suffix_min[-1] = len(text) + 1
    for i in range(len(tabs) - 1, -1, -1):
        suffix_min[i] = min(tabs[i][1], suffix_min[i + 1])
    start, end, depth = 0, len(text), 0
    while True:
        lo = bisect_left(positions, start)
        hi = bisect_left(positions, end)
        sep = next((i for i in range(lo, hi) if tabs[i][1] <= depth), None)
        if sep is None:
            yield 1, _strip_runs(text[start:end], depth)
            return
        cut, run = tabs[sep]
        first = _unquote(_strip_runs(text[start : cut - run], depth + 1))
        more = 0
        if hi < len(tabs) or suffix_min[sep + 1] <= depth:
            more = sum(1 for i in range(sep + 1, hi) if tabs[i][1] <= depth)
        if more:
            yield 2 + more, first
            return
        yield 2, first
        start, depth = cut + 1, depth + 1
        if end - start > 1 and text[start] == "'" and text[end - 1] == "'":
            start, end = start + 1, end - 1


def split_levels(text: str) -> list[str] | None:
    """All levels of a TAB-nested string (a piece type or state, §3.2) in one pass, outermost
    first; None when some level would split into more than two parts (not a nested encoding:
    :func:`split_nested` tells how).

    Every ``decode(rest, TAB)`` drops one backslash before each TAB, so a TAB behind ``b``
    backslashes separates at nesting depth ``b``: read left to right, the TAB behind exactly
    ``depth`` backslashes ends the current level, one behind more belongs to the level (it
    keeps ``b - depth - 1`` of them), one behind fewer is a second separator at an outer depth.
    Quotes wrapping a level or a rest are dropped as peeling drops them, so the result equals
    ``[first for _, first in split_nested(text)]``. Without a TAB: ``[text]``.

    >>> split_levels("a\\t'\\\\\\tb;c'")
    ['a', '', 'b;c']
    >>> split_levels("a\\tb\\tc") is None  # two separators at depth 0: not a nesting
    True
    """
    segments = text.split("\t")
    last = segments.pop()
    # the backslashes behind each TAB: the trailing run of the segment before it
    runs = [len(segment) - len(segment.rstrip("\\")) for segment in segments]
    if "'" not in text and runs == list(range(len(runs))):
        # no quotes to drop and every level's TAB behind exactly its depth of backslashes
        # (what VASSAL writes): the levels are the segments without those runs
        levels = [segment[: len(segment) - depth] for depth, segment in enumerate(segments)]
        levels.append(last)
        return levels
    levels = []
    start, end, pos, depth = 0, len(text), -1, 0
    inner = False  # the current level holds TABs of its own
    for segment, run in zip(segments, runs, strict=True):
        pos += len(segment) + 1  # this TAB
        if run == depth:
            token = text[start : pos - depth]
            if inner:
                token = _strip_runs(token, depth + 1)
                inner = False
            if len(token) > 1 and token[0] == "'" and token[-1] == "'":
                token = token[1:-1]
            levels.append(token)
            start, depth = pos + 1, depth + 1
            if end - start > 1 and text[start] == "'" and text[end - 1] == "'":
                start, end = start + 1, end - 1
        elif run > depth:
            inner = True
        else:
            return None
    token = text[start:end]
    levels.append(_strip_runs(token, depth) if inner else token)
    return levels
