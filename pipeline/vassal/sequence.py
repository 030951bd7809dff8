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

from collections.abc import Iterable

__all__ = ["decode", "encode", "encode_item"]


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
    tokens: list[str] = []
    start = 0
    stop = len(text)
    while True:
        if start == stop:
            tokens.append("")
            return tokens
        parts: list[str] = []
        i = start
        found = False
        while i < stop:
            if text[i] == delim:
                if i > 0 and text[i - 1] == "\\":
                    parts.append(text[start : i - 1])
                    start = i
                else:
                    parts.append(text[start:i])
                    start = i + 1
                    found = True
                    break
            i += 1
        if not found:
            parts.append(text[start:stop])
            tokens.append(_unquote("".join(parts)))
            return tokens
        tokens.append(_unquote("".join(parts)))
