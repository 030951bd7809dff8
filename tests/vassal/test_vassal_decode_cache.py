"""The decode-once caches (issue 28: each piece type decoded once per distinct type string, not
once per command) change no result: a save whose pieces repeat a few types, and a whole corpus
module with its setups, decode to the same pieces and lint to the same findings with every
cache of :mod:`pipeline.vassal.pieces` bypassed (each call decoding from scratch)."""

import pytest

from pipeline.vassal import pieces
from pipeline.vassal.lint import lint_bytes
from pipeline.vassal.pieces import nest
from pipeline.vassal.save import SaveGame, decode_save_plain, read_saved_game
from tests.vassal.corpus import fixture_archive

#: the cached functions of the piece decoder, by their module-level names
CACHED = ("_unnest_type", "_basic_type", "_decode_basic", "_type_token", "_type_token_bytes",
          "_state_head", "_split_state_head", "_piece_body_bytes",
          "_decode_levels")


def _uncached(fn):
    """``fn`` without its cache: every call runs the function; ``cache_clear`` does nothing."""
    inner = fn.__wrapped__

    def call(*args):
        return inner(*args)

    call.cache_clear = lambda: None
    return call


@pytest.fixture
def no_caches(monkeypatch):
    """Within the test, every piece-decoding cache is bypassed."""
    def bypass():
        for name in CACHED:
            monkeypatch.setattr(pieces, name, _uncached(getattr(pieces, name)))
    return bypass


# three kinds of piece (two traits over a BasicPiece; a Layer over one; a bare BasicPiece),
# each placed many times at other spots and with other trait states, an empty stack, a stack
# holding two pieces, one piece whose type holds an escaped "/" and a quoted state, and one
# piece with a bad BasicPiece x (an error, which must be reported the same without caches)
TYPE_LEVELS = [["mark;Side", "prototype;Infantry", "piece;;;inf.png;Ashigaru"],
               ["emb2;Activate;2;;;2;;;2;;;;1;false;0;0;a.png,b.png;Fresh,Spent;false;Step;;;"
                "false;;1;1;true;65,130;;;", "piece;;;a.png;Samurai"],
               ["piece;;;flag.png;Flag"]]
TYPES = [nest(levels) for levels in TYPE_LEVELS]


def _save_text() -> str:
    cmds = ["begin_save"]
    n = 0
    for round_ in range(40):
        for k, type_ in enumerate(TYPES):
            n += 1
            trait_states = [["Red" if round_ % 2 else "Blue", ""], [str(1 + round_ % 2)], []][k]
            x, y = 100 + 10 * (round_ % 7), 200 + 5 * k
            state = nest([*trait_states, f"Main;{x};{y};g{k};0"])
            cmds.append(f"+/{n}/{type_}/{state}")
    cmds.append("+/s1/stack/Main;100;200;1;2")
    cmds.append("+/s2/stack/null;0;0")
    cmds.append("+/q1/mark;Path\\/Name\tpiece;;;q.png;Q/'North\tMain;5;6;;0'")
    cmds.append(f"+/bad/{TYPES[2]}/Main;x;6;;0")
    cmds.append("end_save")
    return "\x1b".join(cmds)


def _pieces(save):
    return ([(p.id, p.levels, p.basic, p.stack) for p in save.pieces],
            [(p.id, p.levels, p.stack) for p in save.stacks], save.problems)


def test_repeated_types_decode_alike_without_caches(no_caches):
    text = _save_text()
    pieces.clear_decode_caches()
    cached = _pieces(decode_save_plain(text.encode()))
    again = _pieces(decode_save_plain(text.encode()))  # warm caches: the same again
    # the fast path ran: the 80 pieces a pass of the two kinds with traits, under 4 distinct
    # heads (type and trait states), decoded 4 times and looked up the other 156 times (a bare
    # BasicPiece has no trait state to cut off)
    assert pieces._state_head.cache_info().hits == 2 * 80 - 4
    no_caches()
    uncached = _pieces(decode_save_plain(text.encode()))
    assert cached == again == uncached
    found, stacks, problems = cached
    assert len(found) == 3 * 40 + 1 and len(stacks) == 2  # the bad piece is no piece
    assert [i for i, *_ in problems] == [len(text.split("\x1b")) - 2]  # the bad x, named once
    assert "not an integer" in problems[0][2]
    quoted = next(p for p in found if p[0] == "q1")
    assert quoted[1] == (("mark;Path/Name", "North"), ("piece;;;q.png;Q", "Main;5;6;;0"))


def test_repeated_types_lint_alike_without_caches(no_caches):
    data = SaveGame("M", "1").to_bytes(epoch=0)  # a valid .vsav, its savedGame replaced below
    from pipeline.vassal.archive import archive_bytes, open_archive
    from pipeline.vassal.save import obfuscate

    with open_archive(data) as arc:
        entries = {name: arc.read(name) for name in ("savedata", "moduledata")}
    entries["savedGame"] = obfuscate(_save_text(), 0x3C)
    vsav = archive_bytes(entries, 0)
    cached = [str(f) for f in lint_bytes(vsav, "setup.vsav")]
    no_caches()
    assert read_saved_game(entries["savedGame"]).problems  # the bad piece, read uncached
    assert [str(f) for f in lint_bytes(vsav, "setup.vsav")] == cached
    assert any("not an integer" in f for f in cached)


def test_corpus_module_lints_alike_without_caches(no_caches):
    """wmh: 107 saves of 1 287 distinct piece types over 11 807 AddPiece commands."""
    data = fixture_archive("wmh")
    cached = [str(f) for f in lint_bytes(data, "wmh.vmod")]
    no_caches()
    assert [str(f) for f in lint_bytes(data, "wmh.vmod")] == cached
