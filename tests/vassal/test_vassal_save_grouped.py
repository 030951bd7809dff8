"""A large save read with its AddPiece commands grouped (issue 28 item 5: lint of a 156 MB module
with 12.5 million AddPiece commands faster than VASSAL opens it) gives exactly what reading it
command by command gives: the same pieces, stacks, command indexes, problems in the same order,
board choices, changes and other commands; and the groups are right, worked by hand."""

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.vassal import save as save_module
from pipeline.vassal.save import _decode_each, _decode_grouped, decode_save_plain


def _signature(s):
    def rows(pieces):
        return [(p.id, p.levels, p.basic, p.stack, s.command_index(p)) for p in pieces]
    return {"pieces": rows(s.pieces), "stacks": rows(s.stacks), "problems": s.problems,
            "boards": s.boards, "changes": s.changes, "other": s.other, "log": s.log,
            "commands": s.raw_commands}


def _setup(n_empty: int = 300) -> bytes:
    """A setup as VASSAL writes a large one: commands nested one level (each ESC behind one
    backslash), ``n_empty`` empty stacks parked at two spots, two units stacked on a hex, a
    deck, a board choice and a global property, then ``end_save``."""
    inner = [f"+/{1000 + k}/stack/{'Hidden' if k % 3 else 'Main Map'};-100;-100;@@1"
             for k in range(n_empty)]
    unit = "+/{}/mark;Side\tpiece;;;inf.png;Infantry/French\tMain Map;150;200;77;0"
    inner += [unit.format(7), unit.format(8), "+/9/stack/Main Map;150;200;7;8;@@2",
              "+/10/deck;Draw;;/null;0;0;0;;;"]
    nested = "\\\x1b".join(["", *inner])
    return "\x1b".join(["begin_save", "", nested, "Main MapBoardPicker\tBoard\t0\t0",
                        "GlobalProperty\tTurn\t3", "end_save"]).encode()


def test_a_large_setup_is_read_grouped_and_equal_to_reading_each_command():
    plain = _setup()
    grouped = _decode_grouped(plain)
    assert grouped is not None  # the shape VASSAL writes takes the grouped path
    assert _signature(grouped) == _signature(_decode_each(plain))


def test_groups_worked_by_hand():
    s = decode_save_plain(_setup())
    groups = s.groups()
    # pieces and decks first (the unit twice under two ids: one group; the deck), then the
    # stacks: Main Map's 100 parked stacks (k = 0, 3, ...), the Hidden 200, the stack of 7 and 8
    assert [(g.piece.kind, g.count) for g in groups] == [
        ("piece", 2), ("deck", 1), ("stack", 100), ("stack", 200), ("stack", 1)]
    # command indexes: begin_save is 0, the 300 empty stacks 1..300 (the empty command between
    # begin_save and the nested list is dropped), the units 301 and 302
    assert groups[0].members() == [("7", 301), ("8", 302)]
    assert groups[0].first() == 301
    assert groups[2].members()[:2] == [("1000", 1), ("1003", 4)]
    assert groups[3].first() == 2
    assert groups[4].piece.stack.piece_ids == ("7", "8")
    assert s.find("9").stack.piece_ids == ("7", "8") and s.find("1001").stack.x == -100
    assert s.find("nobody") is None
    assert s.raw_commands[-1] == b"end_save" and len(s.raw_commands) == 308


def test_a_small_save_and_odd_shapes_are_read_command_by_command():
    assert _decode_grouped(_setup(10)) is None  # fewer than GROUPED_MIN AddPiece commands
    plain = _setup()
    assert _decode_grouped(plain.replace(b"+/1001/", b"+/1002/")) is None  # a repeated id
    assert _decode_grouped(plain.replace(b"+/1001/", b"+/10'1/")) is None  # a quote in an id
    assert _decode_grouped(plain.replace(b"stack/Hidden;-100;-100;@@1\\\x1b+/1003",
                                         b"stack/Hidden;x;-100;@@1\\\x1b+/1003")) is None
    quoted = plain.replace(b"GlobalProperty", b"'GlobalProperty'")
    assert _decode_grouped(quoted) is None  # a command wrapped in quotes
    for text in (plain.replace(b"+/1001/", b"+/1002/"), quoted):
        assert _signature(decode_save_plain(text)) == _signature(_decode_each(text))


# pieces as VASSAL writes them (most), and every character that matters to the split and the
# cut, one of each UTF-8 length (some): the grouped path must take many texts and, whenever it
# takes one, read it as reading each command does
NASTY = ["a", "/", ";", "\\", "'", "\t", "\x1b", "é", "🐉"]
BODIES = st.sampled_from([
    "stack/M;0;0", "stack/M;-100;-100;@@1", "stack/M;5;5;{a};{b};@@2", "stack/M;5;5;{a};99",
    "piece;;;a.png;A/M;1;2;7;0", "mark;S\tpiece;;;b\\/c.png;B/v\tM;1;2;;0",
    "piece;;;é.png;É/null;0;0;;0", "deck;D;;/null;0;0;0;;;", "piece;;;x.png/M;1;2;;0",
    "stack/M;x;0", "piece;;;a.png;A/M;1;2;7;0\\", "stack/M;0;0;'q'",
])
WEIRD = st.text(alphabet=st.sampled_from(NASTY), max_size=6)
OTHER = st.one_of(st.sampled_from([
    "GlobalProperty\tTurn\t3", "MBoardPicker\tB\t0\t0", "MBoardPicker\tB\tx\t0",
    "D/{a}/v\tM;3;3;;0", "M/{a}/M/9/9/null/M/1/2/null", "-/{a}", "SETUP_STACK\t", "",
    "LOG\tCHAT<a> hi", "'quoted'", "\\lead"]), WEIRD)
SEPS = st.sampled_from(["\x1b", "\\\x1b", "\\\x1b", "\\\x1b", "\\\\\x1b", "\\\\\\\x1b"])


@settings(max_examples=800, deadline=None)
@given(st.lists(st.one_of(BODIES, BODIES, BODIES, st.tuples(OTHER)), min_size=1, max_size=16),
       st.lists(SEPS, min_size=16, max_size=16),
       st.lists(st.one_of(st.none(), st.none(), st.none(), WEIRD), min_size=16, max_size=16),
       st.booleans())
def test_grouped_reading_equals_reading_each_command(items, seps, ids, ends):
    """Any text: when the grouped path takes it, it reads what reading each command reads."""
    parts = []
    for k, item in enumerate(items):
        a, b = str((k + 1) % len(items) + 1), str((k + 2) % len(items) + 1)
        if isinstance(item, tuple):
            parts.append(item[0].format(a=a))
        else:
            piece_id = str(k + 1) if ids[k] is None else ids[k]
            parts.append(f"+/{piece_id}/" + item.format(a=a, b=b))
    text = "begin_save\x1b" + "".join(p + seps[i] for i, p in enumerate(parts))
    text += "end_save" if ends else ""
    plain = text.encode()
    old = save_module.GROUPED_MIN
    save_module.GROUPED_MIN = 1
    try:
        grouped = _decode_grouped(plain)  # never raises: what it cannot take gives None
    finally:
        save_module.GROUPED_MIN = old
    if grouped is not None:
        assert _signature(grouped) == _signature(_decode_each(plain))
