"""Issue 11: the cases from public VASSAL bug reports (a-k) and the constructs real modules use,
each with the outcome VASSAL 3.7.26 gives (the Java code path is named in each test).

The module under test is written here by hand, small and complete: one map with one 1000 x 800
board, a palette of two pieces, one prototype and, where a case needs them, setups, logs, HTML
pages and SVG images.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from pipeline.vassal.archive import archive_bytes, open_archive
from pipeline.vassal.inspect import inspect_bytes
from pipeline.vassal.lint import (
    ERROR,
    NOTE,
    WARNING,
    lint_bytes,
    lint_many,
    tiler_heap_mb,
)
from pipeline.vassal.save import obfuscate
from tests.vassal.corpus import standin_png, standin_svg

EPOCH = 1735689600
NAME = "Case Module"
MODULEDATA = (b'<?xml version="1.0" encoding="UTF-8"?><data version="1"><version>1.0</version>'
              b"<VassalVersion>3.7.0</VassalVersion><dateSaved>0</dateSaved><description/>"
              b"<name>Case Module</name></data>")
VM = "VASSAL.build.module."
MAP_CHILDREN = "".join(f"<{VM}map.{c}/>" for c in (
    "StackMetrics", "PieceMover", "KeyBufferer", "ForwardToKeyBuffer", "MenuDisplayer",
    "StackExpander", "Scroller", "ForwardToChatter", "MapCenterer", "Zoomer",
    "CounterDetailViewer"))


def piece(image: str = "inf.png", name: str = "Inf", gpid: str = "1",
          traits: tuple[str, ...] = (), states: tuple[str, ...] = ()) -> str:
    """PieceSlot text: trait types (outermost first) with their states around a BasicPiece."""
    from pipeline.vassal.pieces import add_piece_command, nest

    assert len(traits) == len(states)
    return add_piece_command("null", nest([*traits, f"piece;;;{image};{name}"]),
                             nest([*states, f"null;0;0;{gpid};0"]))


def slot(entry: str, gpid: str, text: str) -> str:
    return (f'<VASSAL.build.widget.PieceSlot entryName="{entry}" gpid="{gpid}" height="50" '
            f'width="50">{text}</VASSAL.build.widget.PieceSlot>')


def buildfile(slots: str = "", extra: str = "", next_id: int = 10, board_image: str = "board.png"
              ) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="no"?><VASSAL.build.GameModule '
            f'VassalVersion="3.7.0" name="{NAME}" nextPieceSlotId="{next_id}" version="1.0">'
            f'<{VM}BasicCommandEncoder/><{VM}Map mapName="Main Map">'
            f'<{VM}map.BoardPicker><{VM}map.boardPicker.Board image="{board_image}" name="B"/>'
            f"</{VM}map.BoardPicker>{MAP_CHILDREN}</{VM}Map>"
            f'<{VM}PieceWindow name="Pieces"><VASSAL.build.widget.ListWidget entryName="All">'
            f"{slots or slot('Inf', '1', piece())}</VASSAL.build.widget.ListWidget>"
            f"</{VM}PieceWindow>{extra}</VASSAL.build.GameModule>").encode()


def module(bf: bytes | None = None, **entries: bytes) -> dict[str, bytes]:
    out = {"buildFile.xml": bf or buildfile(), "moduledata": MODULEDATA,
           "images/board.png": standin_png(1000, 800), "images/inf.png": standin_png(50, 50)}
    out.update({k.replace("__", "/").replace("_DOT_", "."): v for k, v in entries.items()})
    return out


def save_bytes(commands: list[str], *, old_style: bool = False) -> bytes:
    from pipeline.vassal.commands import join_commands

    entries = {"savedGame": obfuscate(join_commands(commands))}
    if not old_style:
        entries["savedata"] = MODULEDATA
        entries["moduledata"] = MODULEDATA
    return archive_bytes(entries, EPOCH)


def with_setup(commands: list[str], bf_extra: str = "", *, old_style: bool = False,
               slots: str = "") -> bytes:
    setup = (f'<{VM}PredefinedSetup file="s.vsav" isMenu="false" name="S" useFile="true"/>'
             + bf_extra)
    ents = module(buildfile(slots=slots, extra=setup))
    ents["s.vsav"] = save_bytes(commands, old_style=old_style)
    return archive_bytes(ents, EPOCH)


def lint_entries(ents: dict[str, bytes], **kw) -> list:
    return lint_bytes(archive_bytes(ents, EPOCH), "case.vmod", **kw)


def by(findings, severity: str) -> list[str]:
    return [str(f) for f in findings if f.severity == severity]


ADD = "+/{id}/piece;;;inf.png;Inf/Main Map;{x};{y};1;0"


def test_the_case_module_itself_is_clean():
    assert lint_entries(module()) == []


# ----------------------------------------------------------------------------- a-k


def test_a_duplicate_gpid_names_both_slots():
    """GpIdChecker.testGpId: the second slot with a gpid already seen is an error slot; the
    message must name both."""
    slots = slot("First", "7", piece(gpid="7")) + slot("Second", "7", piece(gpid="7"))
    errs = by(lint_entries(module(buildfile(slots=slots))), ERROR)
    assert len(errs) == 1
    assert "PieceSlot[Second]" in errs[0] and "PieceSlot[First]" in errs[0]
    assert "duplicate gpid 7" in errs[0]


@pytest.mark.parametrize("where", ["slot", "prototype"])
def test_b_placemarker_with_empty_gpid(where):
    """GpIdChecker.testGpId: an empty gpid is an error slot, in a PieceSlot and in a prototype;
    PlaceMarker.createBaseMarker gives placed markers that empty gpid, which Refresh Counters
    cannot match."""
    mark = "placemark;Place;80,130;+/null/piece;;;inf.png;M/null;0;0;;0;null;0;0;false;;;;"
    text = piece(traits=(mark,), states=("",))
    if where == "slot":
        bf = buildfile(slots=slot("Inf", "1", text))
    else:
        proto = (f'<{VM}PrototypesContainer><{VM}PrototypeDefinition name="P">{text}'
                 f"</{VM}PrototypeDefinition></{VM}PrototypesContainer>")
        bf = buildfile(extra=proto)
    errs = by(lint_entries(module(bf)), ERROR)
    assert len(errs) == 1 and "PlaceMarker trait 'Place' has no gpid" in errs[0], errs


def test_c_two_extensions_with_one_extension_id(tmp_path: Path):
    """ExtensionsLoader.addExtension warns 'Extension Id … conflicts' and keeps both, whose
    'id:n' gpids then collide: an error on each, naming the other."""
    base = tmp_path / "base.vmod"
    base.write_bytes(archive_bytes(module(), EPOCH))
    paths = []
    for n in ("one", "two"):
        bf = (f'<?xml version="1.0" encoding="UTF-8"?><{VM}ModuleExtension anyModule="false" '
              f'extensionId="abc" module="{NAME}" nextPieceSlotId="1" version="1"/>').encode()
        ext_data = (b'<?xml version="1.0" encoding="UTF-8"?><data version="1"><version>1'
                    b"</version><VassalVersion>3.7.0</VassalVersion><universal>false</universal>"
                    b"</data>")
        p = tmp_path / f"{n}.vmdx"
        p.write_bytes(archive_bytes({"buildFile.xml": bf, "extensiondata": ext_data,
                                     "moduledata": MODULEDATA}, EPOCH))
        paths.append(p)
    results = lint_many(paths, base=base)
    for mine, other in ((paths[0], "two.vmdx"), (paths[1], "one.vmdx")):
        errs = by(results[str(mine)], ERROR)
        assert len(errs) == 1 and "extensionId 'abc'" in errs[0] and other in errs[0]
    # each alone is clean
    assert by(lint_many(paths[:1], base=base)[str(paths[0])], ERROR) == []


def _extension_with_setup(commands: list[str]) -> bytes:
    setup = f'<{VM}PredefinedSetup file="e.vsav" isMenu="false" name="E" useFile="true"/>'
    bf = (f'<?xml version="1.0" encoding="UTF-8"?><{VM}ModuleExtension anyModule="false" '
          f'extensionId="e1" module="{NAME}" nextPieceSlotId="1" version="1">'
          f'<{VM}ExtensionElement target="">{setup}</{VM}ExtensionElement>'
          f"</{VM}ModuleExtension>").encode()
    ext_data = (b'<?xml version="1.0" encoding="UTF-8"?><data version="1"><version>1</version>'
                b"<VassalVersion>3.7.0</VassalVersion><universal>false</universal></data>")
    return archive_bytes({"buildFile.xml": bf, "extensiondata": ext_data,
                          "moduledata": MODULEDATA, "e.vsav": save_bytes(commands)}, EPOCH)


def test_d_setup_in_an_extension_on_the_base_map():
    """An extension's setup is loaded into the base module (§5), so its pieces stand on the
    base module's maps: linted with --base, no error; a map neither has is still an error."""
    base = archive_bytes(module(), EPOCH)
    good = _extension_with_setup(["begin_save", ADD.format(id="1", x=10, y=10), "end_save"])
    assert by(lint_bytes(good, "e.vmdx", base=base), ERROR) == []
    bad = _extension_with_setup(["begin_save", "+/1/piece;;;inf.png;Inf/Nowhere;10;10;1;0",
                                 "end_save"])
    errs = by(lint_bytes(bad, "e.vmdx", base=base), ERROR)
    assert len(errs) == 1 and "'Nowhere'" in errs[0]


def _cp437_archive(extra_name: bytes) -> bytes:
    """The case module plus one entry whose raw name is ``extra_name`` and whose UTF-8 flag is
    clear (written under an ASCII name of the same length, then patched in both headers)."""
    placeholder = b"images/" + b"Q" * (len(extra_name) - len(b"images/.png")) + b".png"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in sorted(module().items()):
            z.writestr(n, d)
        z.writestr(placeholder.decode(), standin_png(10, 10))
    return buf.getvalue().replace(placeholder, extra_name)


def test_e_cp437_entry_name_without_utf8_flag():
    """Java's ZipFile reads every name as UTF-8; CP437 'é' (0x82) is no UTF-8, and VASSAL 3.7.26
    refuses the whole archive ('invalid CEN header (bad entry name)', run with vassal-check:
    DID NOT OPEN). An error, stronger than the issue's 'warning', because VASSAL does not open
    it. A name that is valid UTF-8 without the flag opens: a warning that tools show it
    differently."""
    errs = by(lint_bytes(_cp437_archive(b"images/caf\x82.png"), "m.vmod"), ERROR)
    assert len(errs) == 1 and "invalid CEN header" in errs[0]
    warns = by(lint_bytes(_cp437_archive("images/café.png".encode()), "m.vmod"), WARNING)
    assert len(warns) == 1 and "'images/café.png'" in warns[0]


def _unflagged(entries: dict[str, bytes]) -> bytes:
    """``entries`` zipped with every name's UTF-8 bytes and no UTF-8 flag, as Info-ZIP's
    ``zip`` writes them outside a UTF-8 locale (each written under an ASCII name of the same
    length, then patched in both headers)."""
    buf = io.BytesIO()
    patches = []
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for k, (n, d) in enumerate(sorted(entries.items())):
            raw = n.encode("utf-8")
            if not n.isascii():
                stand_in = f"{k:0{len(raw)}d}".encode()
                patches.append((stand_in, raw))
                n = stand_in.decode()
            z.writestr(n, d)
    data = buf.getvalue()
    for stand_in, raw in patches:
        assert data.count(stand_in) == 2
        data = data.replace(stand_in, raw)
    return data


def test_e_utf8_names_without_the_flag_are_found_as_vassal_finds_them():
    """Java's ZipFile reads a name without the UTF-8 flag as UTF-8, so VASSAL finds a piece
    image ``images/café.png`` and a setup ``défi.vsav`` stored that way (vassal-check: CLEAN,
    the setup starts and shows its piece; a module zipped by Info-ZIP outside a UTF-8 locale,
    as the Napoleonics module's ``ldr_PRU_Blücher.png`` and ``E602 - Austerlitz (Davout’s
    Counter Attack).vsav`` were here). Python reads such a name as CP437 (``caf├⌐.png``): lint
    read the image and the setup under the name VASSAL uses, found no such entry and said so
    (two false errors). Now archives are read under Java's names: only the warning that zip
    tools show the names otherwise, once for each."""
    setup = f'<{VM}PredefinedSetup file="défi.vsav" isMenu="false" name="S" useFile="true"/>'
    ents = module(buildfile(slots=slot("Inf", "1", piece(image="café.png")), extra=setup))
    ents["images/café.png"] = ents.pop("images/inf.png")
    ents["défi.vsav"] = save_bytes(["begin_save", ADD.format(id="5", x=100, y=100).replace(
        "inf.png", "café.png"), "+/6/stack/Main Map;100;100;5", "end_save"])
    data = _unflagged(ents)
    assert all(not i.flag_bits & 0x800 for i in zipfile.ZipFile(io.BytesIO(data)).infolist())
    found = lint_bytes(data, "m.vmod")
    assert by(found, ERROR) == []
    warns = by(found, WARNING)
    assert len(warns) == 2 and all("has no UTF-8 flag" in w for w in warns), warns
    assert {f.entry for f in found if f.severity == WARNING} == {"défi.vsav", "images/café.png"}
    with open_archive(data) as arc:
        assert "images/café.png" in arc and arc.read("défi.vsav")[:2] == b"PK"


def test_f_names_differing_only_in_case():
    """Exact-case lookups (DataArchive) find both, but unpacked on Windows or macOS one replaces
    the other: a warning naming both."""
    findings = lint_entries(module(images__mon_DOT_png=standin_png(5, 5),
                                   images__MON_DOT_png=standin_png(5, 5)))
    assert by(findings, ERROR) == []
    warns = by(findings, WARNING)
    assert len(warns) == 1 and "'images/MON.png'" in warns[0] and "'images/mon.png'" in warns[0]


def test_g_two_rotate_traits_of_one_name_and_a_facing_beyond_the_trait():
    """FreeRotator.getProperty: the outer of two Rotate traits named 'Turret' answers
    Turret_Facing for both, so a label reading it shows the wrong facing: an error (a warning
    when nothing reads the property). FreeRotator.mySetState clamps facing index 71 on a 36-facing
    trait to 35: the save shows another facing, an error."""
    rot = "rotate;36;93,130;91,130;CW;CCW;;;Turret"
    label = "label;76,130;$Turret_Facing$"
    text = piece(traits=(label, rot, rot), states=("x", "0", "0"))
    errs = by(lint_entries(module(buildfile(slots=slot("Inf", "1", text)))), ERROR)
    assert len(errs) == 1 and "two Rotate traits named 'Turret'" in errs[0]
    unread = piece(traits=(rot, rot), states=("0", "0"))
    findings = lint_entries(module(buildfile(slots=slot("Inf", "1", unread))))
    assert by(findings, ERROR) == [] and len(by(findings, WARNING)) == 1
    one = "rotate;36;93,130;91,130;CW;CCW;;;Turret"
    placed = "+/5/" + piece(traits=(one,), states=("71",))[len("+/null/"):].replace(
        "null;0;0;1;0", "Main Map;100;100;1;0")
    errs = by(lint_bytes(with_setup(["begin_save", placed, "end_save"]), "m.vmod"), ERROR)
    assert len(errs) == 1 and "facing index 71 on a 36-facing trait" in errs[0], errs


def test_h_a_log_that_vassal_replays_is_clean_and_its_commands_are_checked():
    """BasicLogger: a .vlog is a save (begin_save … end_save) followed by LOG entries, each an
    encoded command (possibly several joined by ESC). VASSAL replays it: lint clean. ChangePiece
    (D/) and MovePiece (M/) inside are decoded and checked like AddPiece."""
    from pipeline.vassal.commands import join_commands

    add = ADD.format(id="5", x=100, y=100)
    log = ["begin_save", add, "+/9/stack/Main Map;100;100;5", "end_save",
           "LOG\t" + join_commands(["M/5/Main Map/200/200/null/Main Map/100/100/null/me",
                                    "D/5/Main Map;200;200;1;0/Main Map;100;100;1;0"]),
           "LOG\tCHAT<me> - moved", "UNDO\tfalse"]
    assert lint_bytes(save_bytes(log), "game.vlog", base=archive_bytes(module(), EPOCH)) == []
    bad = log[:4] + ["LOG\tD/5/prototype;X\tMain Map;1;1;1;0",
                     "LOG\tM/5/Elsewhere/1/1/null/Main Map/100/100/null/me"]
    errs = by(lint_bytes(save_bytes(bad), "game.vlog", base=archive_bytes(module(), EPOCH)),
              ERROR)
    assert len(errs) == 2
    assert "ChangePiece state for piece 5 (added by command[1])" in errs[0]
    assert "'Elsewhere'" in errs[1]


def test_h_a_log_that_chooses_boards_again_is_judged_board_by_board():
    """VASSAL loads a .vlog as its saved state and replays each LOG entry on "Step forward"
    (BasicLogger); a board command in a LOG entry changes the map's boards from that step on
    (the VASSAL Tour's tour.log does it three times). So a piece is beyond the map's edge by
    the boards in effect when its entry is replayed, not by the log's last ones, and a board
    command in a LOG entry is no "second board command"; two among the saved commands still
    are. Worked by hand: B is 1000 x 800, Small 300 x 200."""
    from pipeline.vassal.commands import join_commands

    boards = (f'<{VM}map.boardPicker.Board image="board.png" name="B"/>'
              f'<{VM}map.boardPicker.Board name="Small" width="300" height="200"/>')
    bf = buildfile().replace(
        f'<{VM}map.boardPicker.Board image="board.png" name="B"/>'.encode(), boards.encode())
    base = archive_bytes(module(bf), EPOCH)

    def add(pid: int, x: int, y: int) -> str:
        return "LOG\t" + join_commands([ADD.format(id=pid, x=x, y=y),
                                        f"+/{pid + 1}/stack/Main Map;{x};{y};{pid}"])

    log = ["begin_save", "Main MapBoardPicker\tB\t0\t0", ADD.format(id="5", x=900, y=700),
           "+/6/stack/Main Map;900;700;5", "end_save",
           "LOG\tMain MapBoardPicker\tSmall\t0\t0", add(10, 250, 150),
           "LOG\tMain MapBoardPicker\tB\t0\t0", add(20, 900, 700),
           "LOG\tMain MapBoardPicker\tSmall\t0\t0"]
    assert lint_bytes(save_bytes(log), "game.vlog", base=base) == []
    found = lint_bytes(save_bytes([*log, add(30, 900, 700)]), "game.vlog", base=base)
    assert [f.severity for f in found] == [WARNING, WARNING]
    assert "piece 30 at (900, 700) is beyond the right or bottom edge of map 'Main Map' " \
        "(0..299, 0..199)" in str(found[0])
    assert "stack 31 at (900, 700)" in str(found[1])
    twice = ["begin_save", "Main MapBoardPicker\tB\t0\t0",
             "Main MapBoardPicker\tSmall\t0\t0", "end_save"]
    found = lint_bytes(save_bytes(twice), "game.vsav", base=base)
    assert len(found) == 1 and "second board command for map 'Main Map'" in str(found[0])


def test_h_change_piece_in_a_save_is_checked_like_add_piece():
    """Not only in logs: a ChangePiece (D/) among a save's own commands is decoded against the
    type of the piece it changes (ChangePiece.execute calls setState): a state of the right
    shape is clean, one with a level too many is an error naming both commands, one that puts
    the piece on a map the module lacks is an error."""
    add = ADD.format(id="5", x=100, y=100)
    good = ["begin_save", add, "D/5/Main Map;200;200;1;0/Main Map;100;100;1;0", "end_save"]
    assert lint_bytes(with_setup(good), "m.vmod") == []
    bad = ["begin_save", add, "D/5/x\tMain Map;200;200;1;0", "D/5/Nowhere;1;1;1;0",
           "end_save"]
    errs = by(lint_bytes(with_setup(bad), "m.vmod"), ERROR)
    assert len(errs) == 2, errs
    assert "s.vsav:savedGame command[2]" in errs[0]
    assert "ChangePiece state for piece 5 (added by command[1]) does not fit its type" in errs[0]
    assert "s.vsav:savedGame command[3]" in errs[1] and "'Nowhere'" in errs[1]


def test_i_svg_href_with_a_backslash():
    """SourceOpSVGImpl renders with the jar URL as base; a backslash is no separator in a URL,
    so the referenced image is not found: flagged like a backslash entry name."""
    svg = standin_svg(50, 50, "sub\\inf.png")
    bf = buildfile(slots=slot("Inf", "1", piece(image="unit.svg")))
    errs = by(lint_entries(module(bf, images__unit_DOT_svg=svg)), ERROR)
    assert len(errs) == 1 and "backslash" in errs[0] and "images/unit.svg" in errs[0]
    ok = standin_svg(50, 50, "inf.png")
    assert lint_entries(module(bf, images__unit_DOT_svg=ok)) == []


def test_j_inspect_names_a_numbering_class_vassal_37_lacks():
    """ObliqueHexGridNumbering is 3.8 (vassal-format.md §6): 3.7 cannot build it, so inspect
    says so and shows pixel positions instead of labels computed as plain hex numbering."""
    grid = (f'<{VM}map.boardPicker.board.HexGrid dx="50" dy="58" x0="0" y0="29">'
            f'<{VM}map.boardPicker.board.mapgrid.ObliqueHexGridNumbering first="H" hType="N" '
            f'vType="N"/></{VM}map.boardPicker.board.HexGrid>')
    bf = buildfile().replace(b'name="B"/>', b'name="B">' + grid.encode()
                             + f"</{VM}map.boardPicker.Board>".encode())
    setup = f'<{VM}PredefinedSetup file="s.vsav" isMenu="false" name="S" useFile="true"/>'
    bf = bf.replace(b"</VASSAL.build.GameModule>", setup.encode() + b"</VASSAL.build.GameModule>")
    ents = module(bf)
    ents["s.vsav"] = save_bytes(["begin_save", ADD.format(id="5", x=100, y=120), "end_save"])
    text = "\n".join(inspect_bytes(archive_bytes(ents, EPOCH), "m.vmod"))
    assert "ObliqueHexGridNumbering, a class VASSAL 3.7 does not have" in text
    assert "Inf on Main Map at (100, 120)" in text


def test_k_inspect_with_a_setup_that_is_not_a_zip():
    """One bad part never hides the rest: the setup entry is named, the maps and pieces are
    still described."""
    setup = f'<{VM}PredefinedSetup file="s.vsav" isMenu="false" name="S" useFile="true"/>'
    ents = module(buildfile(extra=setup))
    ents["s.vsav"] = b"begin_save\x1bend_save"
    lines = inspect_bytes(archive_bytes(ents, EPOCH), "m.vmod")
    text = "\n".join(lines)
    assert "setup file 's.vsav': cannot be read: not a ZIP archive" in text
    assert "Map 'Main Map'" in text and "Board 'B' 1000x800 px" in text
    assert "Piece 'Inf' gpid 1" in text
    # and lint says the same: GameState.decodeSavedGame throws 'Invalid saveFile format'
    errs = by(lint_entries(ents), ERROR)
    assert len(errs) == 1 and "s.vsav" in errs[0]


# ------------------------------------------------------------ what the large module showed


def test_empty_off_map_stack_is_read_as_written():
    """Stack.getState writes 'null;0;0' for a stack on no map; Stack.setState then looks the 0s
    up as piece ids and finds none. No finding (it was two false errors per stack)."""
    cmds = ["begin_save", "+/1634931511995/stack/null;0;0;@@-1", "end_save"]
    assert lint_bytes(with_setup(cmds), "m.vmod") == []


def test_old_style_save_with_only_saved_game():
    """GameState: a save without savedata is read as pre-3.0 and nothing is checked against
    the module: a note, no error."""
    cmds = ["begin_save", ADD.format(id="5", x=100, y=100), "end_save"]
    findings = lint_bytes(with_setup(cmds, old_style=True), "m.vmod")
    assert [f.severity for f in findings] == [NOTE]
    assert "old-style save" in findings[0].message


def test_stacks_parked_at_negative_coordinates():
    """VASSAL loads a piece at (-100, -100) and never draws it: module makers park pieces there
    on purpose. One note per save; a piece beyond the right edge is a warning."""
    cmds = ["begin_save", ADD.format(id="5", x=-100, y=-100),
            "+/6/stack/Main Map;-100;-100;5;@@3", ADD.format(id="7", x=1500, y=100), "end_save"]
    findings = lint_bytes(with_setup(cmds), "m.vmod")
    assert by(findings, ERROR) == []
    assert len(by(findings, NOTE)) == 1 and "2 pieces or stacks are parked" in by(findings,
                                                                                 NOTE)[0]
    warns = by(findings, WARNING)
    assert len(warns) == 1 and "piece 7 at (1500, 100) is beyond the right or bottom edge" in (
        warns[0])


def test_missing_html_image_is_flagged():
    """DataArchiveHTMLEditorKit reads <img src="x.png"> from images/x.png: missing, the help
    page shows a broken image (the one real fault of the module in the issue)."""
    help_ = (f'<{VM}Documentation><{VM}documentation.HelpFile fileName="help.html" '
             f'fileType="archive" title="How to play"/></{VM}Documentation>')
    page = b'<html><body><img src="inf.png"><img src="missing card.png"></body></html>'
    errs = by(lint_entries(module(buildfile(extra=help_), help_DOT_html=page)), ERROR)
    assert len(errs) == 1 and "'missing card.png'" in errs[0] and "help.html" in errs[0]


def test_html_chart_image_with_a_path_is_broken():
    """HtmlChart shows its page with setText, without a base URL: an <img> whose src has a '/'
    cannot be resolved and shows as a broken image."""
    chart = (f'<{VM}ChartWindow name="Charts"><VASSAL.build.widget.HtmlChart chartName="T" '
             f'fileName="t.html"/></{VM}ChartWindow>')
    page = b'<html><body><img src="images/inf.png"></body></html>'
    errs = by(lint_entries(module(buildfile(extra=chart), t_DOT_html=page)), ERROR)
    assert len(errs) == 1 and "HtmlChart has no base URL" in errs[0]


def test_garbage_image_bytes():
    """ImageIO finds no reader: the piece is drawn as a broken image. Referenced: error; an
    unreferenced garbage file under images/: a warning."""
    errs = by(lint_entries(module(images__inf_DOT_png=b"this is not a png at all")), ERROR)
    assert len(errs) == 1 and "images/inf.png" in errs[0] and "not an image" in errs[0]
    findings = lint_entries(module(images__spare_DOT_png=b"\x00" * 40))
    assert by(findings, ERROR) == [] and len(by(findings, WARNING)) == 1


def test_oversized_board_image():
    """TilingHandler asks for 1.66 * (4 * w * h >> 20) + 150 MiB of heap, capped at 3/4 of the
    machine's memory: 40000 x 40000 x 4 bytes = 6103 MiB, x 1.66 = 10131, + 150 = 10281 MiB
    (10.04 GiB), more than the 6 GiB an 8 GiB machine gives the tiler."""
    assert tiler_heap_mb(40000, 40000) == pytest.approx(10281.0, abs=1.0)
    ihdr = standin_png(1, 1)
    import struct
    import zlib

    body = struct.pack(">IIBBBBB", 40000, 40000, 1, 0, 0, 0, 0)
    big = (ihdr[:8] + struct.pack(">I", 13) + b"IHDR" + body
           + struct.pack(">I", zlib.crc32(b"IHDR" + body)) + ihdr[33:])
    errs = by(lint_entries(module(images__board_DOT_png=big)), ERROR)
    assert len(errs) == 1 and "40000 x 40000 px" in errs[0] and "10.0 GiB" in errs[0]


def test_image_found_in_vassals_own_jar():
    """DataArchive.getInputStream looks a name up as a resource of VASSAL's jar too: a piece
    image 'moved.gif' or an icon '/images/Splash.png' resolves there."""
    bf = buildfile(slots=slot("Inf", "1", piece(image="moved.gif")),
                   extra=f'<{VM}DiceButton icon="/images/die.gif" name="D"/>')
    assert by(lint_entries(module(bf)), ERROR) == []


# ----------------------------------------------------------------------------- lint's footprint


def _lint_module():
    import importlib

    return importlib.import_module("pipeline.vassal.lint")


@pytest.mark.parametrize("enabled", [True, False])
def test_collector_paused_restores_the_collector_on_every_path(enabled):
    """``collector_paused`` is process-wide: it leaves the collector as it found it, when the
    block ends, when it raises, and when pauses nest (only the outermost restores it)."""
    import gc

    from pipeline.vassal.save import collector_paused

    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with collector_paused():
            assert not gc.isenabled()
            with collector_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()  # the inner pause found it paused and leaves it so
        assert gc.isenabled() is enabled
        with pytest.raises(KeyError), collector_paused():
            raise KeyError("boom")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("fail", [False, True])
def test_lint_leaves_the_collector_as_found_and_its_caches_empty(monkeypatch, fail):
    """Lint pauses the cyclic collector while it runs and empties its decode caches when it
    ends (kept, the caller's next collection would scan every cached tuple): the collector is
    enabled again afterwards, the caches are empty, also when a check raises; a caller that
    paused the collector itself finds it still paused."""
    import gc

    from pipeline.vassal.pieces import _piece_body_bytes, decode_add_piece_bytes

    lint_module = _lint_module()
    seen: dict[str, object] = {}

    def spy(ctx):
        seen["collector"] = gc.isenabled()
        seen["cached"] = _piece_body_bytes.cache_info().currsize
        if fail:
            raise RuntimeError("a check failed")

    monkeypatch.setattr(lint_module, "SAVE_CHECKS", [*lint_module.SAVE_CHECKS, spy])
    data = with_setup(["begin_save", ADD.format(id="a", x=100, y=100), "end_save"])
    decode_add_piece_bytes(b"+/x/piece;;;inf.png;Inf/Main Map;5;5;1;0")  # a cache entry from before
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            if fail:
                with pytest.raises(RuntimeError):
                    lint_bytes(data, "case.vmod")
            else:
                assert lint_bytes(data, "case.vmod") == []
            assert seen["collector"] is False  # paused while the save was checked
            assert seen["cached"] >= 1  # the decoded pieces were cached during the lint
            assert gc.isenabled() is enabled
            assert _piece_body_bytes.cache_info().currsize == 0
            assert lint_module._level_check.cache_info().currsize == 0
    finally:
        (gc.enable if was else gc.disable)()
