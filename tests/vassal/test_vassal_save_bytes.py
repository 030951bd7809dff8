"""Save text read as UTF-8 bytes (lint speed, issue 11): splitting commands, cutting AddPiece
commands and reading ``savedGame`` from bytes give exactly what the ``str`` routines give, on
nasty inputs (nested lists, quotes, backslashes, 1- to 4-byte characters, invalid UTF-8)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.vassal.archive import VassalFormatError
from pipeline.vassal.commands import split_commands
from pipeline.vassal.pieces import PieceDecodeError, decode_add_piece, decode_add_piece_bytes
from pipeline.vassal.save import (
    _last_char,
    decode_save_plain,
    decode_save_text,
    deobfuscate,
    deobfuscate_bytes,
    obfuscate,
    read_saved_game,
)

# characters of 1, 2, 3 and 4 UTF-8 bytes next to every delimiter that matters
NASTY = list("ab/;,'\\\t\x1b") + ["é", "①", "🐉"]


@settings(max_examples=1000)
@given(st.text(alphabet=st.sampled_from(NASTY), max_size=24))
def test_split_commands_of_bytes_is_split_commands_of_str(text):
    assert [c.decode("utf-8") for c in split_commands(text.encode("utf-8"))] == (
        split_commands(text))


def test_split_commands_of_bytes_by_hand():
    # a nested list holding a 4-byte character, worked by hand: the inner ESC is escaped once
    text = "begin_save\x1b+/1/stack/m;0;0\\\x1b'🐉'\x1bend_save"
    assert split_commands(text.encode()) == [b"begin_save", b"+/1/stack/m;0;0", "🐉".encode(),
                                             b"end_save"]


def _decoded(decoder, text):
    try:
        p = decoder(text)
    except PieceDecodeError as exc:
        return ("error", str(exc))
    return (p.id, p.levels, p.basic, p.stack, p.kind)


@settings(max_examples=2000)
@given(st.text(alphabet=st.sampled_from(NASTY), max_size=20))
def test_add_piece_of_bytes_is_add_piece_of_str(body):
    """Any ``+/`` command decodes (or fails, with the same message) alike from bytes."""
    text = "+/" + body
    assert _decoded(decode_add_piece_bytes, text.encode()) == _decoded(decode_add_piece, text)


@settings(max_examples=500)
@given(st.sampled_from(["1", "a'b", "x\\y", "🐉"]),
       st.sampled_from(["piece;;;a.png;A", "mark;Side\tpiece;;;é.png;É\\/x", "stack",
                        "prototype;P①\tpiece;;;;", "'piece;;;q.png;Q'"]),
       st.sampled_from(["null;0;0;;0", "Axis\tMain;10;-5;12;0", "Main;1;2;3;@@-1",
                        "'null;0;0'", "m;x;1;;0", "🐉\tnull;0;0;7;1;k;v"]))
def test_add_piece_of_bytes_on_real_shapes(piece_id, type_, state):
    """Ids, types and states of the shapes saves hold, including quoted tokens and ids that
    force the slow path, decode alike; a repeated command decodes to an equal piece."""
    from pipeline.vassal.sequence import encode

    text = "+/" + encode([piece_id, type_, state], "/")
    first = _decoded(decode_add_piece_bytes, text.encode())
    assert first == _decoded(decode_add_piece, text)
    assert _decoded(decode_add_piece_bytes, text.encode()) == first


def test_add_piece_of_bytes_by_hand():
    # worked by hand: id 42, a Marker and a BasicPiece; the type's "/" is escaped
    cmd = "+/42/mark;Side\tpiece;;;a\\/b.png;Drache 🐉/Ost\tMain;100;-20;7;0".encode()
    p = decode_add_piece_bytes(cmd)
    assert p.id == "42" and p.kind == "piece"
    assert p.levels == (("mark;Side", "Ost"), ("piece;;;a/b.png;Drache 🐉", "Main;100;-20;7;0"))
    assert (p.basic.image, p.basic.name, p.basic.map_name, p.basic.x, p.basic.y,
            p.basic.gpid) == ("a/b.png", "Drache 🐉", "Main", 100, -20, "7")
    s = decode_add_piece_bytes(b"+/9/stack/null;0;0;@@-1")
    assert s.kind == "stack" and (s.stack.map_name, s.stack.x, s.stack.y, s.stack.piece_ids,
                                  s.stack.layer) == ("null", 0, 0, (), -1)


def test_add_piece_of_bytes_rejects_bad_utf8():
    with pytest.raises(UnicodeDecodeError):
        decode_add_piece_bytes(b"+/1/piece;;;\xff.png;A/null;0;0;;0")


@pytest.mark.parametrize("text", ["", "a", "end_save ", "end_save\u3000", "x\u00a0",
                                  "x\x1c", "🐉", "é\n", "é"])
def test_last_char(text):
    assert _last_char(text.encode()) == text[-1:]
    assert _last_char(text.encode()).isspace() == (text != text.rstrip())


SAVE = ("begin_save\x1b+/1/mark;Name\tpiece;;;a.png;A/Drache 🐉\tMain;10;20;5;0"
        "\x1b+/2/stack/Main;10;20;1;@@0\x1bMainBoardPicker\tBoard\t0\t0\x1bend_save")


def test_read_saved_game_is_deobfuscate_then_decode():
    data = obfuscate(SAVE, 0x5C)
    assert deobfuscate_bytes(data) == SAVE.encode()
    fast, slow = read_saved_game(data), decode_save_text(deobfuscate(data))
    assert fast.text == slow.text == SAVE
    assert fast.commands == slow.commands == SAVE.split("\x1b")
    assert [(p.id, p.levels, p.basic) for p in fast.pieces] == [
        (p.id, p.levels, p.basic) for p in slow.pieces]
    assert fast.pieces[0].properties() == {"Name": "Drache 🐉"}
    assert fast.stacks[0].stack.piece_ids == ("1",)
    assert fast.boards == {"Main": [("Board", 0, 0, False)]}
    assert fast.problems == [] and decode_save_plain(SAVE.encode()).problems == []


@pytest.mark.parametrize("bad", [
    b"\xff",  # not a lead byte, in an AddPiece type
    b"\xe2\x91",  # a 3-byte character cut short, before the "/" of the state
    b"\xf0\x9f\x90\x89\x89",  # a stray continuation byte after a 4-byte character
])
@pytest.mark.parametrize("where", ["type", "state", "other", "log", "undo", "end"])
def test_invalid_utf8_anywhere_is_the_whole_text_error(bad, where):
    """Invalid UTF-8 in any part of the plaintext (an AddPiece type or state, another command,
    a LOG or UNDO entry, the last character) gives the error decoding the whole text gives."""
    parts = {
        "type": b"begin_save\x1b+/1/piece;;;" + bad + b".png;A/null;0;0;;0\x1bend_save",
        "state": b"begin_save\x1b+/1/piece;;;a.png;A/null;0;0;" + bad + b";0\x1bend_save",
        "other": b"begin_save\x1bCHAT" + bad + b"\x1bend_save",
        "log": b"begin_save\x1bend_save\x1bLOG\t+/1/stack/m;0;0" + bad,
        "undo": b"begin_save\x1bend_save\x1bUNDO\tx" + bad,
        "end": b"begin_save\x1bend_save" + bad,
    }
    plain = parts[where]
    data = obfuscate("", 0x11)[:7] + bytes(b ^ 0x11 for b in plain).hex().encode()
    with pytest.raises(VassalFormatError) as fast:
        read_saved_game(data)
    with pytest.raises(VassalFormatError) as slow:
        deobfuscate(data)
    assert fast.value.message == slow.value.message
    assert "save text is not valid UTF-8" in fast.value.message


def test_entry_larger_than_its_header_says_is_refused():
    """Archive.read inflates in one call bounded by the declared size: an entry whose headers
    declare 100 bytes but that inflates to 4 000 is refused, not read (zipfile stops at the
    declared size and the CRC of the cut data fails)."""
    import io
    import struct
    import zipfile

    from pipeline.vassal.archive import open_archive

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("savedGame", b"x" * 4000)
    data = bytearray(buf.getvalue())
    for sig, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # uncompressed size field
        at = data.find(sig)
        data[at + offset : at + offset + 4] = struct.pack("<I", 100)
    with open_archive(bytes(data)) as arc, pytest.raises(VassalFormatError, match="savedGame"):
        arc.read("savedGame")
    with open_archive(buf.getvalue()) as arc:
        assert arc.read("savedGame") == b"x" * 4000


def _body(fn, type_, state):
    try:
        return fn(type_, state)
    except PieceDecodeError as exc:
        return ("error", str(exc))


STATE_CHARS = st.sampled_from(list("0-1;\t\\'xé") + ["null;0;0;;0", "m;5;6;7;1;k;v", "🐉"])


@settings(max_examples=2000)
@given(st.lists(st.sampled_from(["mark;S", "prototype;P", "emb2;;;;", "piece;;;a.png;A",
                                 "piece;;;", "stack", "deck;"]), min_size=1, max_size=4),
       st.lists(STATE_CHARS, max_size=12))
def test_state_cut_at_last_tab_is_the_whole_decode(type_levels, state_parts):
    """The BasicPiece state cut off at the state's last TAB (:func:`_piece_body_of`) gives what
    decoding the whole state gives, for any state: levels, BasicPiece, or the same error."""
    from pipeline.vassal.pieces import _piece_body, _piece_body_of

    type_ = "\t".join(type_levels)
    state = "".join(state_parts)
    try:
        from pipeline.vassal.pieces import _unnest_type

        _unnest_type(type_)
    except PieceDecodeError:
        return
    whole = _body(_piece_body, type_, state[1:-1] if len(state) > 1 and state[0] == state[-1]
                  == "'" else state)
    assert _body(_piece_body_of, type_, state.encode()) == whole
    assert _body(_piece_body_of, type_, state.encode()) == whole  # cached the second time


def test_state_cut_by_hand():
    from pipeline.vassal.pieces import _piece_body_of

    # two pieces of one kind on other squares: one head, two BasicPiece states
    a = _piece_body_of("mark;Side\tpiece;;;a.png;A", b"Axis\tMain;10;20;7;0")
    b = _piece_body_of("mark;Side\tpiece;;;a.png;A", b"Axis\tMain;30;-4;7;0")
    assert a[0] == (("mark;Side", "Axis"), ("piece;;;a.png;A", "Main;10;20;7;0"))
    assert (b[1].x, b[1].y, b[1].gpid) == (30, -4, "7") and a[0][0] is b[0][0]
    with pytest.raises(PieceDecodeError, match="BasicPiece x is not an integer: 'x'"):
        _piece_body_of("mark;Side\tpiece;;;a.png;A", b"Axis\tMain;x;20;7;0")
