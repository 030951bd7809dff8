"""SequenceEncoder (vassal-format.md §3.1) vectors and round-trip properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.vassal.commands import split_commands, split_commands_by_level
from pipeline.vassal.sequence import decode, encode, split_levels, split_nested

DELIMS = [";", "\t", "/", ",", "\x1b", ":", "|", "="]


@pytest.mark.parametrize(
    ("items", "delim", "encoded"),
    [
        (["a", "", "b"], ";", "a;;b"),
        (["a;b"], ";", "a\\;b"),
        (["a\\b"], ";", "a\\b"),  # backslashes are not doubled
        (["\\x"], ";", "'\\x'"),  # starts with backslash -> quoted
        (["'q'"], ";", "''q''"),  # starts and ends with quote -> quoted
        (["'q"], ";", "'q"),  # only starts with quote -> as is
        (["'"], ";", "'''"),
        (["a", ""], ";", "a;"),
        ([""], ";", ""),
        (["x/y", "z"], "/", "x\\/y/z"),
        (["a\tb", "c"], "\t", "a\\\tb\tc"),
    ],
)
def test_encode_vectors(items, delim, encoded):
    assert encode(items, delim) == encoded
    assert decode(encoded, delim) == items


def test_decode_edge_cases():
    assert decode("a;", ";") == ["a", ""]
    assert decode("", ";") == [""]
    assert decode(";", ";") == ["", ""]
    assert decode("''", ";") == [""]
    assert decode("'a", ";") == ["'a"]
    assert decode("\\;;x", ";") == [";", "x"]


def test_item_ending_with_backslash_raises():
    with pytest.raises(ValueError, match="backslash"):
        encode(["a\\", "b"], ";")
    with pytest.raises(ValueError):
        encode(["\\"], ";")


def test_bad_delimiter():
    with pytest.raises(ValueError):
        encode(["a"], ";;")
    with pytest.raises(ValueError):
        decode("a", "\\")


ITEM = st.text(
    alphabet=st.sampled_from(list(";/\\'\t\n,:|=\x1b aZ9é漢字🎲")), max_size=12
).filter(lambda s: not s.endswith("\\"))


@given(st.lists(ITEM, min_size=1, max_size=8), st.sampled_from(DELIMS))
def test_round_trip(items, delim):
    assert decode(encode(items, delim), delim) == items


@given(st.lists(st.text(max_size=10), min_size=1, max_size=6), st.sampled_from(DELIMS))
def test_round_trip_or_raises(items, delim):
    if any(i.endswith("\\") for i in items):
        with pytest.raises(ValueError):
            encode(items, delim)
    else:
        assert decode(encode(items, delim), delim) == items


@given(st.lists(st.lists(ITEM, min_size=1, max_size=4), min_size=1, max_size=4))
def test_nested_round_trip(groups):
    inner = [encode(g, ";") for g in groups]
    outer = encode(inner, "\t")
    assert [decode(x, ";") for x in decode(outer, "\t")] == groups


# --------------------------------------------------------------------------- nested levels


def _peel_by_decode(text: str) -> list[str] | None:
    """What ``Decorator`` does, level by level: ``decode(rest, TAB)`` until one token is left.
    None when a level splits into more than two parts (not a nesting)."""
    levels = []
    rest = text
    while True:
        parts = decode(rest, "\t")
        if len(parts) == 1:
            # VASSAL hands the last rest on undecoded (BasicPiece.setState reads it whole)
            return [*levels, rest]
        if len(parts) != 2:
            return None
        levels.append(parts[0])
        rest = parts[1]


@pytest.mark.parametrize(
    ("text", "levels"),
    [
        # worked by hand: nest(["a", "", "b;c"]): the rest "\tb;c" starts with a backslash once
        # escaped, so it is quoted
        ("a\t'\\\tb;c'", ["a", "", "b;c"]),
        ("x", ["x"]),
        ("", [""]),
        ("a\tb", ["a", "b"]),
        # three levels, the TAB ending level d behind d backslashes
        ("a\tb\\\tc", ["a", "b", "c"]),
        # a level that is itself quoted ('q' is written ''q'') and an empty innermost level
        ("''q''\t", ["'q'", ""]),
        # a level holding an escaped TAB of its own (one more backslash than its depth): it
        # keeps the TAB, without the backslash
        ("a\\\tb\tc", ["a\tb", "c"]),
        # one level: VASSAL hands the whole string on undecoded
        ("a\\\tb", ["a\\\tb"]),
        # level 1 holds a TAB behind 2 backslashes (depth 1 + 1), the innermost one behind 3
        ("x\ty\\\\\tz\\\tw\\\\\\\tv", ["x", "y\tz", "w\\\tv"]),
        ("a\tb\tc", None),  # two separators at depth 0
        ("a\tb\\\tc\td", None),  # a TAB at depth 0 after level 1 began
    ],
)
def test_split_levels_vectors(text, levels):
    assert split_levels(text) == levels
    if levels is not None:
        assert [first for _, first in split_nested(text)] == levels
        assert _peel_by_decode(text) == levels


NASTY = st.text(alphabet=st.sampled_from(list("ab;'\\\t")), max_size=14)


@settings(max_examples=1000)
@given(NASTY)
def test_split_levels_agrees_with_peeling(text):
    """On any string, the one-pass split either declines or gives what peeling gives."""
    fast = split_levels(text)
    peeled = list(split_nested(text))
    assert (fast is None) == any(n > 2 for n, _ in peeled)
    if fast is not None:
        assert all(n == 2 for n, _ in peeled[:-1]) and peeled[-1][0] == 1
        assert [first for _, first in peeled] == fast
        assert _peel_by_decode(text) == fast


@given(st.lists(ITEM.filter(lambda s: "\t" not in s), min_size=1, max_size=12))
def test_split_levels_of_any_nesting(levels):
    """Every nesting of TAB-free levels (what VASSAL writes for pieces) takes the one-pass split
    and comes back whole: backslashes, quotes, empty levels, deep nesting."""
    text = levels[-1]
    for level in reversed(levels[:-1]):
        text = encode([level, text], "\t")
    assert split_levels(text) == levels
    assert _peel_by_decode(text) == levels


def test_split_levels_deep():
    levels = ["", "\\x", "'q'", "a;b\\;c"] * 10 + ["piece;;;i.png;n/\tnull;0;0;1;0".split("\t")[0]]
    text = levels[-1]
    for level in reversed(levels[:-1]):
        text = encode([level, text], "\t")
    assert split_levels(text) == levels
    assert [first for _, first in split_nested(text)] == levels


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        # worked by hand from Decoder.nextToken: a delimiter right after a backslash is escaped
        # (the backslash goes), whatever precedes that backslash
        ("a\\\\;;b\\;", ["a\\;", "b;"]),
        ("\\;\\;", [";;"]),
        ("a\\;", ["a;"]),
        (";\\;;", ["", ";", ""]),
        ("'x\\;y';'z'", ["x;y", "z"]),
        ("\\\\", ["\\\\"]),
    ],
)
def test_decode_escaped_vectors(text, tokens):
    assert decode(text, ";") == tokens


def _decode_token_by_token(text: str, delim: str) -> list[str]:
    """``Decoder.nextToken`` step by step, character by character (the reference)."""
    tokens, acc, i = [], [], 0
    while i < len(text):
        c = text[i]
        if c == delim and i and text[i - 1] == "\\":
            acc[-1] = delim
        elif c == delim:
            tokens.append("".join(acc))
            acc = []
        else:
            acc.append(c)
        i += 1
    tokens.append("".join(acc))
    return [t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t for t in tokens]


@settings(max_examples=1000)
@given(st.text(alphabet=st.sampled_from(list(";\\'a")), max_size=16))
def test_decode_matches_character_reference(text):
    assert decode(text, ";") == _decode_token_by_token(text, ";")


# --------------------------------------------------------------------------- command lists


@pytest.mark.parametrize(
    ("text", "commands"),
    [
        # worked by hand: a flat list; empty commands dropped
        ("begin_save\x1b\x1b+/1/stack/m;0;0\x1bend_save", ["begin_save", "+/1/stack/m;0;0",
                                                          "end_save"]),
        # a nested list: encode(["a", encode(["b", "c"], ESC)], ESC) = "a\x1bb\\\x1bc"
        ("a\x1bb\\\x1bc", ["a", "b", "c"]),
        # the nested list starts with an empty command, so it starts with a backslash once
        # escaped and is quoted: encode(["a", encode(["", "b"], ESC)], ESC)
        ("a\x1b'\\\x1bb'", ["a", "b"]),
        # two levels deep, and a quoted command inside
        ("x\x1by\\\x1b''q''\\\\\x1bz", ["x", "y", "'q'", "z"]),
        ("", []),
        ("'a'", ["a"]),
    ],
)
def test_split_commands_vectors(text, commands):
    assert split_commands(text) == commands
    assert split_commands_by_level(text) == commands


@settings(max_examples=1000)
@given(st.text(alphabet=st.sampled_from(list("ab'\\\x1b")), max_size=16))
def test_split_commands_agrees_with_level_by_level(text):
    assert split_commands(text) == split_commands_by_level(text)


COMMAND = st.text(alphabet=st.sampled_from(list("ab;/'\\\t")), min_size=1, max_size=8).filter(
    lambda s: not s.endswith("\\"))
# a nested list of one command holds no ESC and reads as that command, once unquoted: VASSAL
# nests two or more
NESTED = st.recursive(COMMAND, lambda inner: st.lists(inner, min_size=2, max_size=4),
                      max_leaves=12)


def _encode_nested(tree) -> str:
    return tree if isinstance(tree, str) else encode([_encode_nested(t) for t in tree], "\x1b")


def _leaves(tree) -> list[str]:
    return [tree] if isinstance(tree, str) else [x for t in tree for x in _leaves(t)]


@given(st.lists(NESTED, min_size=1, max_size=5))
def test_split_commands_flattens_any_nesting(trees):
    """Nested command lists as VASSAL writes them (Command.append nests, the encoder escapes
    each level) flatten to their commands in order."""
    text = encode([_encode_nested(t) for t in trees], "\x1b")
    assert split_commands(text) == [x for t in trees for x in _leaves(t)]
