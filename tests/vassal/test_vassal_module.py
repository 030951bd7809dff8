"""A small module written, read back, linted; planted faults found (§1-4, §8)."""

import io
import struct
import zipfile
import zlib

import pytest
from lxml import etree

from pipeline.vassal.archive import archive_bytes, module_entries, open_archive, write_module
from pipeline.vassal.buildfile import (
    Board,
    Chart,
    ChartWindow,
    DiceButton,
    GlobalProperty,
    HexGrid,
    ListWidget,
    LOSThread,
    Map,
    Module,
    PieceSlot,
    PieceWindow,
    PredefinedSetup,
    PrototypeDefinition,
    SpecialDiceButton,
    SpecialDie,
    SpecialDieFace,
    TabWidget,
    write_buildfile,
)
from pipeline.vassal.grids import GridNumbering
from pipeline.vassal.lint import lint, lint_bytes
from pipeline.vassal.pieces import PieceDefinition, decode_add_piece
from pipeline.vassal.save import PlacedPiece, SaveGame, read_save
from pipeline.vassal.traits import BasicPiece, Delete, Layer, Marker, UsePrototype

EPOCH = 1735689600


def png(w, h):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\x00" * (w * 3) for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


GRID = HexGrid(x0=30, y0=35, dx=51.96, dy=60.0, numbering=GridNumbering(stagger=False))
MAP = Map("Main Map", [Board("Main Board", "board.png", 400, 300, GRID)], edge_width=20,
          edge_height=10, los_threads=[LOSThread(draw_range=True, scale=60)])


def infantry(side):
    return PieceDefinition(
        [UsePrototype("Unit"), Layer((f"{side}.png", f"{side}_back.png"), ("", "+ (reduced)"),
                                      name="Step", increase_key="70,130"),
         Marker(("Side",), (side,))],
        BasicPiece(f"{side}.png", f"{side} Infantry"),
    )


def make_module():
    return Module(
        "Test Game", version="0.1", description="test", sides=["Red", "Blue"], maps=[MAP],
        prototypes=[PrototypeDefinition("Unit", PieceDefinition([Delete()], BasicPiece()))],
        piece_windows=[PieceWindow("Pieces", [TabWidget("Sides", [
            ListWidget("Red", [PieceSlot("Red Inf", infantry("red"), 60, 60)]),
            ListWidget("Blue", [PieceSlot("Blue Inf", infantry("blue"), 60, 60)]),
        ])])],
        dice_buttons=[DiceButton("2d6", 2, 6), SpecialDiceButton("Combat", [SpecialDie(
            "Combat die", [SpecialDieFace("Hit", 1, "hit.png"),
                           SpecialDieFace("Miss", 0, "miss.png")])])],
        chart_windows=[ChartWindow("Charts", [Chart("CRT", "crt.png")])],
        setups=[PredefinedSetup("Scenarios", children=[PredefinedSetup("Battle", "battle.vsav")])],
        global_properties=[GlobalProperty("Turn", "1", numeric=True)],
    )


IMAGES = {n: png(4, 4) for n in ("red.png", "red_back.png", "blue.png", "blue_back.png",
                                 "hit.png", "miss.png", "crt.png")}
IMAGES["board.png"] = png(400, 300)

POSITIONS = [("p1", "red", 0, 0), ("p2", "red", 0, 0), ("p3", "blue", 3, 2)]


def make_save(gpids, positions=POSITIONS):
    pieces = []
    for pid, side, c, r in positions:
        x, y = MAP.to_map("Main Board", *GRID.center(c, r))
        pieces.append(PlacedPiece(pid, infantry(side), "Main Map", x, y,
                                  gpids[f"{side.title()} Inf"]))
    return SaveGame("Test Game", "0.1", pieces, {"Main Map": [("Main Board", 0, 0)]})


def build(tmp_path, name="m.vmod"):
    module = make_module()
    gpids = write_buildfile(module).gpids
    path = tmp_path / name
    write_module(path, module, setups={"battle.vsav": make_save(gpids)}, images=IMAGES,
                 default_epoch=EPOCH)
    return path, gpids


def test_gpids_document_order():
    out = write_buildfile(make_module())
    assert out.gpids == {"Red Inf": "1", "Blue Inf": "2"}
    assert out.next_piece_slot_id == 3
    assert write_buildfile(make_module(), gpid_prefix="abc").gpids["Blue Inf"] == "abc:2"


def test_round_trip(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    path, gpids = build(tmp_path)
    data = path.read_bytes()
    with open_archive(data) as arc:
        assert arc.names[:2] == ["buildFile.xml", "moduledata"]
        assert arc.names[2:] == sorted(arc.names[2:])
        root = arc.read_xml("buildFile.xml")
        md = arc.read_xml("moduledata")
        assert md.findtext("name") == root.get("name") == "Test Game"
        assert md.findtext("VassalVersion") == "3.7.0"
        assert md.findtext("dateSaved") == str(EPOCH * 1000)
        assert root.get("nextPieceSlotId") == "3"
        slots = root.findall(".//VASSAL.build.widget.PieceSlot")
        assert [s.get("gpid") for s in slots] == ["1", "2"]
        for s in slots:
            d = decode_add_piece(s.text)
            assert d.gpid == s.get("gpid")
            assert "images/" + d.image in arc
        assert "images/board.png" in arc
        assert "\t" in slots[0].text  # tabs stay raw in text content (§2.1)
        for info in arc.zf.infolist():
            # images are stored (already compressed), everything else deflated
            expected = zipfile.ZIP_STORED if info.filename.endswith(".png") else zipfile.ZIP_DEFLATED
            assert info.compress_type == expected, info.filename
            assert info.date_time == (2025, 1, 1, 0, 0, 0)
            assert not info.flag_bits & 0x08  # no data descriptor
        save = read_save(arc.read("battle.vsav"))
    assert save.problems == []
    assert save.module_name == "Test Game"
    assert save.commands[0] == "begin_save" and save.commands[-1] == "end_save"
    for pid, side, c, r in POSITIONS:
        p = save.piece(pid)
        bx, by = GRID.center(c, r)
        assert (p.map_name, p.x, p.y) == ("Main Map", bx + 20, by + 10)
        assert p.gpid == gpids[f"{side.title()} Inf"]
    assert len(save.stacks) == 2
    assert save.stacks[0].stack.piece_ids == ("p1", "p2")
    assert save.boards == {"Main Map": [("Main Board", 0, 0, False)]}
    assert lint(path) == []


def test_two_writes_identical(tmp_path):
    a, _ = build(tmp_path, "a.vmod")
    b, _ = build(tmp_path, "b.vmod")
    assert a.read_bytes() == b.read_bytes()


def test_source_date_epoch(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    path, _ = build(tmp_path)
    with open_archive(path) as arc:
        assert arc.read_xml("moduledata").findtext("dateSaved") == "1700000000000"
        assert arc.zf.getinfo("buildFile.xml").date_time == (2023, 11, 14, 22, 13, 20)


def test_attribute_tabs_are_char_refs():
    m = Module("X", maps=[MAP], global_properties=[GlobalProperty("P", "a\tb\nc")])
    xml = write_buildfile(m).xml
    assert b'initialValue="a&#9;b&#10;c"' in xml
    assert xml.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="no"?><VASSAL.build')


def test_missing_setup_content_rejected():
    with pytest.raises(ValueError, match="battle.vsav"):
        module_entries(make_module(), images=IMAGES)


def test_write_module_validates_and_leaves_nothing(tmp_path):
    module = make_module()
    gpids = write_buildfile(module).gpids
    images = {k: v for k, v in IMAGES.items() if k != "crt.png"}
    target = tmp_path / "bad.vmod"
    with pytest.raises(ValueError, match="crt.png"):
        write_module(target, module, setups={"battle.vsav": make_save(gpids)}, images=images)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- planted faults


def entries_of(path):
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def mutate_xml(entries, fn):
    root = etree.fromstring(entries["buildFile.xml"])
    fn(root)
    entries["buildFile.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    return entries


def slots(root):
    return root.findall(".//VASSAL.build.widget.PieceSlot")


def messages(entries):
    findings = lint_bytes(archive_bytes(entries, EPOCH))
    return [f for f in findings if f.severity == "error"]


def assert_found(entries, *needles, severity="error"):
    findings = lint_bytes(archive_bytes(entries, EPOCH))
    text = "\n".join(str(f) for f in findings if f.severity == severity)
    for needle in needles:
        assert needle in text, text


@pytest.fixture
def good(tmp_path):
    path, gpids = build(tmp_path)
    return entries_of(path), gpids


def test_fault_missing_image(good):
    entries, _ = good
    del entries["images/blue_back.png"]
    assert_found(entries, "image 'blue_back.png' not found")


def test_fault_image_case(good):
    entries, _ = good
    entries["images/Crt.png"] = entries.pop("images/crt.png")
    assert_found(entries, "case differs")


def test_fault_duplicate_gpid(good):
    entries, _ = good
    mutate_xml(entries, lambda r: slots(r)[1].set("gpid", "1"))
    assert_found(entries, "duplicate gpid 1")
    # VASSAL gives new pieces the slot's gpid (PieceSlot.getPiece): the stale state is a note
    assert_found(entries, "differs from the slot gpid", severity="note")


def test_fault_next_piece_slot_id_too_low(good):
    entries, _ = good
    mutate_xml(entries, lambda r: r.set("nextPieceSlotId", "2"))
    assert_found(entries, "gpid 2 is not below nextPieceSlotId 2")


def test_fault_state_one_level_short(good):
    entries, _ = good

    def cut(root):
        s = slots(root)[0]
        d = decode_add_piece(s.text)
        from pipeline.vassal.pieces import add_piece_command, nest
        types = [t for t, _ in d.levels]
        states = [st for _, st in d.levels][1:]
        s.text = add_piece_command("null", nest(types), nest(states))
    mutate_xml(entries, cut)
    assert_found(entries, "state has 3 level(s) but the type has 4")


def test_fault_unknown_trait(good):
    entries, _ = good
    mutate_xml(entries, lambda r: setattr(slots(r)[0], "text",
                                          slots(r)[0].text.replace("mark;", "mork;")))
    assert_found(entries, "unknown trait id 'mork;'")


def test_fault_missing_prototype(good):
    entries, _ = good
    mutate_xml(entries, lambda r: setattr(slots(r)[1], "text",
                                          slots(r)[1].text.replace("prototype;Unit",
                                                                   "prototype;Nope")))
    assert_found(entries, "prototype 'Nope' does not exist")


def test_fault_setup_piece_outside_map(good):
    entries, gpids = good
    save = make_save(gpids, [("p1", "red", 0, 0), ("p2", "blue", 9, 0)])  # x = 30+467+20
    entries["battle.vsav"] = save.to_bytes(entries["moduledata"], epoch=EPOCH)
    # VASSAL loads it and never draws it: the player does not see the piece (a warning)
    assert_found(entries, "beyond the right or bottom edge of map 'Main Map' (0..439, 0..319)",
                 severity="warning")


def test_fault_setup_missing_file_and_bad_map(good):
    entries, _ = good
    bad = SaveGame("Other", "0.1", [PlacedPiece("p1", infantry("red"), "Nowhere", 50, 50, "1")],
                   {"Main Map": [("Main Board", 0, 0)]})
    entries["battle.vsav"] = bad.to_bytes(epoch=EPOCH)
    assert_found(entries, "stands on map 'Nowhere', which the module does not have")
    # a predefined setup made with another module: VASSAL never compares its moduledata
    # (PredefinedSetup.launch -> GameState.loadGameInBackground; tests/vassal/
    # test_vassal_lint28_corpus.py), so nothing is said of it
    assert "save is for module" not in "\n".join(map(str, lint_bytes(archive_bytes(entries,
                                                                                   EPOCH))))
    del entries["battle.vsav"]
    assert_found(entries, "file 'battle.vsav' does not exist")


def test_fault_save_stream(good):
    entries, _ = good
    text = "begin_save\x1b+/9/stack/Main Map;50;50;1;@@0\x1bend_save\n"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("savedGame", text)
        zf.writestr("savedata", b"<data version='1'/>")
        zf.writestr("moduledata", entries["moduledata"])
    entries["battle.vsav"] = buf.getvalue()
    assert_found(entries, "ends with whitespace")
    # Stack.setState skips ids it cannot find
    assert_found(entries, "lists '1', which no AddPiece defines", severity="warning")


def test_fault_metadata(good):
    entries, _ = good
    entries["moduledata"] = entries["moduledata"].replace(b"3.7.0", b"3.8.0").replace(
        b"<name>Test Game</name>", b"<name>Other</name>")
    assert_found(entries, "refuses a module this new", "differs from GameModule name")
    del entries["moduledata"]
    assert_found(entries, "moduledata is missing", severity="warning")


def test_lone_save_lint(good):
    entries, _ = good
    assert lint_bytes(entries["battle.vsav"]) == []
