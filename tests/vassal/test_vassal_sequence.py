"""SequenceEncoder (vassal-format.md §3.1) vectors and round-trip properties."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.vassal.sequence import decode, encode

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
