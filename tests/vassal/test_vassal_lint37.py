"""Lint of §8 on real outputs, planted faults, third-party buildFiles, hostile archives, and
the Genpei extension (vassal-format.md §5, §8)."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from pipeline.build import build_all
from pipeline.vassal.archive import VassalFormatError, archive_bytes, open_archive
from pipeline.vassal.buildfile import ListWidget, PieceSlot, PieceWindow
from pipeline.vassal.extension import (
    PROTOTYPES,
    ROOT,
    ExtensionElement,
    ModuleExtension,
    component_path,
    minimal_base_module,
    write_extension,
)
from pipeline.vassal.lint import gkc_target_problems, lint, lint_bytes, resolve_target
from pipeline.vassal.pieces import PieceDefinition, decode_add_piece
from pipeline.vassal.save import obfuscate, read_save
from pipeline.vassal.sequence import decode
from pipeline.vassal.traits import BasicPiece, Marker, UsePrototype

ROOT_DIR = Path(__file__).resolve().parents[2]
DATA = ROOT_DIR / "source_data"
VM = "VASSAL.build.module."
EPOCH = 1735689600


@pytest.fixture(scope="module")
def built(shipped_build) -> Path:
    return shipped_build / "genpei"


def entries_of(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def errors(findings) -> list[str]:
    return [str(f) for f in findings if f.severity == "error"]


def test_everything_the_build_writes_lints_clean(built):
    vmod, vmdx = built / "samurai_battles.vmod", built / "genpei.vmdx"
    assert errors(lint(vmod)) == []
    assert errors(lint_bytes(vmdx.read_bytes(), "genpei.vmdx", base=vmod.read_bytes())) == []
    findings = lint_bytes(vmdx.read_bytes(), "genpei.vmdx", base=vmod.read_bytes())
    warnings = [f for f in findings if f.severity == "warning"]
    # reviewed: the empty-board notice of each of the 28 setups whose map is not public is a
    # piece of no palette slot (no gpid), which VASSAL's Refresh Counters leaves as it is
    # ("Slot not found"); nothing else warns
    assert all(f.check == "check_save_pieces" and "has no gpid" in f.message for f in warnings), warnings
    assert len(warnings) == len({f.entry for f in warnings}) == 28


def test_extension_extends_the_module_gunbai_builds(built):
    """Issue 10: VASSAL refused genpei.vmdx on genpei.vmod ("was built for module Samurai
    Battles", a placeholder). With no base set in system.yaml the extension's base is gunbai's
    own core module: the extension names exactly the module's name and version."""
    ext_root = etree.fromstring(entries_of(built / "genpei.vmdx")["buildFile.xml"])
    mod_root = etree.fromstring(entries_of(built / "samurai_battles.vmod")["moduledata"])
    assert ext_root.get("module") == mod_root.findtext("name") == "Commands & Colors: Samurai Battles (gunbai core)"
    assert ext_root.get("moduleVersion") == mod_root.findtext("version") == "0.1"


# ----------------------------------------------------------------- planted faults in our module


def planted(built, mutate) -> list[str]:
    entries = entries_of(built / "samurai_battles.vmod")
    root = etree.fromstring(entries["buildFile.xml"])
    mutate(entries, root)
    entries["buildFile.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    return errors(lint_bytes(archive_bytes(entries, EPOCH)))


def first_slot(root):
    return root.find(".//VASSAL.build.widget.PieceSlot")


def test_fault_missing_image(built):
    def mutate(entries, root):
        image = decode_add_piece(first_slot(root).text).image
        del entries["images/" + image]
    assert any("not found: no images/" in e for e in planted(built, mutate))


def test_fault_duplicate_gpid(built):
    def mutate(entries, root):
        a, b = root.findall(".//VASSAL.build.widget.PieceSlot")[:2]
        b.set("gpid", a.get("gpid"))
    assert any("duplicate gpid" in e for e in planted(built, mutate))


def test_fault_next_piece_slot_id_too_low(built):
    def mutate(entries, root):
        root.set("nextPieceSlotId", "2")
    assert any("not below nextPieceSlotId 2" in e for e in planted(built, mutate))


def test_fault_state_one_level_short(built):
    def mutate(entries, root):
        slot = first_slot(root)
        head, _, state = slot.text.rpartition("/")
        slot.text = head + "/" + state.split("\t", 1)[1]
    assert any("level" in e for e in planted(built, mutate))


def test_fault_unknown_trait_id(built):
    def mutate(entries, root):
        slot = first_slot(root)
        slot.text = slot.text.replace("/prototype;", "/bogus;", 1)
    assert any("unknown trait id 'bogus;'" in e for e in planted(built, mutate))


def test_fault_missing_prototype(built):
    def mutate(entries, root):
        slot = first_slot(root)
        slot.text = slot.text.replace("prototype;Genpei unit", "prototype;No such thing", 1)
    assert any("prototype 'No such thing' does not exist" in e for e in planted(built, mutate))


def test_fault_setup_piece_outside_map(built):
    def mutate(entries, root):
        name = next(n for n in entries if n.endswith(".vsav") and read_save(entries[n]).pieces)  # a setup with pieces
        inner = entries_of_bytes(entries[name])
        text = read_save(entries[name]).text
        bad = text.replace(";1000;", ";1000;", 1)
        first = read_save(entries[name]).pieces[0]
        bad = text.replace(f"{first.map_name};{first.x};{first.y};", f"{first.map_name};99999;{first.y};", 1)
        inner["savedGame"] = obfuscate(bad)
        entries[name] = archive_bytes(inner, EPOCH)
    entries = entries_of(built / "genpei.vmdx")
    root = etree.fromstring(entries["buildFile.xml"])
    mutate(entries, root)
    base = (built / "samurai_battles.vmod").read_bytes()
    warnings = [str(f) for f in lint_bytes(archive_bytes(entries, EPOCH), base=base) if f.severity == "warning"]
    assert any("beyond the right or bottom edge" in w for w in warnings)


def entries_of_bytes(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def test_fault_class_and_parent_and_attributes(built):
    def mutate(entries, root):
        m = root.find(VM + "Map")
        etree.SubElement(m, VM + "map.NoSuchThing")
        etree.SubElement(root, VM + "map.Zoomer")  # a map child under the root
        m.set("edgeWidth", "12.5")
        m.set("backgroundcolor", "white")
    errs = "\n".join(planted(built, mutate))
    assert "does not exist in VASSAL 3.7" in errs
    assert "map.Zoomer is not allowed under GameModule" in errs
    assert 'edgeWidth="12.5" is not an integer' in errs
    assert 'backgroundcolor="white" is not a colour' in errs


def test_gkc_target_enums():
    assert gkc_target_problems("COUNTER|false|MAP|||||0|0||false|||EQUALS||") == []
    assert gkc_target_problems("COUNTER|false|CURMAP|||||0|0||false|||LIKE||")
    assert gkc_target_problems("PIECE|false|MAP")


# ----------------------------------------------------------------- extensions


def test_extension_element_with_two_children(built):
    entries = entries_of(built / "genpei.vmdx")
    root = etree.fromstring(entries["buildFile.xml"])
    wrapper = root.find(VM + "ExtensionElement")
    etree.SubElement(wrapper, VM + "Chatter")
    entries["buildFile.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    errs = errors(lint_bytes(archive_bytes(entries, EPOCH)))
    assert any("ExtensionElement has 2 child elements" in e for e in errs)


def test_extension_structure(built):
    entries = entries_of(built / "genpei.vmdx")
    assert {"buildFile.xml", "extensiondata", "moduledata"} <= set(entries)
    md = etree.fromstring(entries["extensiondata"])
    assert md.findtext("universal") == "false"
    root = etree.fromstring(entries["buildFile.xml"])
    assert root.tag == VM + "ModuleExtension"
    assert root.get("module") == "Commands & Colors: Samurai Battles (gunbai core)"
    assert root.get("anyModule") == "false"
    ext_id = root.get("extensionId")
    assert ext_id == "91d"  # vassal.extension_id of system.yaml, the same from release to release
    wrappers = root.findall(VM + "ExtensionElement")
    assert all(len(w) == 1 for w in wrappers)
    # the pack's palette tab and chart tab go into the core module's own windows; the setups
    # (one menu) to the root; the prototypes the core module has are not added again
    assert sorted(w.get("target") for w in wrappers) == sorted([
        ROOT, "VASSAL.build.module.PieceWindow:Pieces/VASSAL.build.widget.TabWidget:Pieces",
        "VASSAL.build.module.ChartWindow:Reference cards/VASSAL.build.widget.TabWidget:Cards"])
    assert not list(root.iter(VM + "Map")) and not list(root.iter(VM + "PrototypeDefinition"))
    gpids = [s.get("gpid") for s in root.iter("VASSAL.build.widget.PieceSlot")]
    assert all(g.startswith(ext_id + ":") for g in gpids) and len(set(gpids)) == len(gpids)
    assert max(int(g.split(":")[1]) for g in gpids) < int(root.get("nextPieceSlotId"))
    # a setup with pieces of the scenario (the 28 whose map is not public hold only a notice)
    setup = next(n for n in entries if n.endswith(".vsav") and any(p.gpid for p in read_save(entries[n]).pieces))
    save = read_save(entries[setup])
    base_gpids = {s.get("gpid") for s in etree.fromstring(entries_of(built / "samurai_battles.vmod")["buildFile.xml"]).iter(
        "VASSAL.build.widget.PieceSlot")}
    assert save.pieces and {p.gpid for p in save.pieces} <= set(gpids) | base_gpids
    assert {p.gpid for p in save.pieces} & base_gpids  # the base game's pieces are the core module's own


def test_extension_against_wrong_base(built):
    base = minimal_base_module("Some Other Game")
    errs = errors(lint_bytes((built / "genpei.vmdx").read_bytes(), base=base))
    assert any("is not the base module's name" in e for e in errs)


def test_extension_target_must_resolve():
    slot = PieceSlot("Inf", PieceDefinition([UsePrototype("U")], BasicPiece("", "Inf")))
    target = component_path((VM + "PieceWindow", "Missing"), ("VASSAL.build.widget.ListWidget", "A"))
    del slot
    base_root = etree.fromstring(
        b'<VASSAL.build.GameModule name="Base"><VASSAL.build.module.PieceWindow name="P">'
        b'<VASSAL.build.widget.ListWidget entryName="A"/></VASSAL.build.module.PieceWindow>'
        b"<VASSAL.build.module.PrototypesContainer/></VASSAL.build.GameModule>")
    assert resolve_target(base_root, "") is base_root
    assert resolve_target(base_root, PROTOTYPES).tag == PROTOTYPES
    ok = component_path((VM + "PieceWindow", "P"), ("VASSAL.build.widget.ListWidget", "A"))
    assert resolve_target(base_root, ok).get("entryName") == "A"
    # last segment falls back to the first component of the class; earlier ones do not
    assert resolve_target(base_root, target) is not None
    assert resolve_target(base_root, "VASSAL.build.module.Map:Main") is None


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
               min_size=1, max_size=30).filter(lambda s: s.strip() == s and not s.endswith("\\")))
def test_extension_round_trips_arbitrary_text(text):
    text = "".join(c for c in text if c in "\t\n" or c >= " ")
    if not text or text.strip() != text or text.endswith("\\"):
        return
    piece = PieceDefinition([Marker(("Note",), (text,))], BasicPiece("", text.replace("\t", " ")))
    ext = ModuleExtension("X", "e1", "Base", elements=[ExtensionElement(ROOT, PieceWindow(
        "W", [ListWidget("L", [PieceSlot("S", piece)])]))])
    out = write_extension(ext)
    root = etree.fromstring(out.xml)
    slot = root.find(".//VASSAL.build.widget.PieceSlot")
    decoded = decode_add_piece(slot.text.strip())
    assert decoded.name == text.replace("\t", " ")
    assert decode(decoded.levels[0][1], ",") == [text]
    assert decoded.gpid == "e1:1" == slot.get("gpid")


# ----------------------------------------------------------------- reproducibility


def test_two_builds_byte_identical_vmdx_and_vsav(built, tmp_path):
    build_all(DATA, tmp_path, progress=False)
    for name in ("samurai_battles.vmod", "genpei.vmdx"):
        assert (tmp_path / "genpei" / name).read_bytes() == (built / name).read_bytes(), name
    a, b = entries_of(built / "genpei.vmdx"), entries_of(tmp_path / "genpei" / "genpei.vmdx")
    for name in a:
        if name.endswith(".vsav"):
            assert a[name] == b[name]


def test_source_date_epoch_changes_dates(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    build_all(DATA, tmp_path, progress=False)
    entries = entries_of(tmp_path / "genpei" / "genpei.vmdx")
    assert etree.fromstring(entries["extensiondata"]).findtext("dateSaved") == "1800000000000"


# ----------------------------------------------------------------- third-party buildFiles
# The real modules are in the corpus (tests/vassal/test_vassal_corpus.py); a bare buildFile of
# one still lints with the archive checks skipped.


def test_bare_third_party_buildfile():
    from tests.vassal.corpus import fixture_entries

    xml = fixture_entries("vive_lempereur")["buildFile.xml"]
    errs = errors(lint_bytes(xml, "buildFile.xml"))
    # the one fault of its buildFile (corpus SOURCE.md): a prototype named but never defined
    assert len(errs) == 1 and "'French I Cav Unit' does not exist" in errs[0]


# ----------------------------------------------------------------- hostile input


def test_zip_bomb_refused():
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", b"\0" * (80 * 1024 * 1024))  # 80 MiB of zeros, ~80 KiB packed
    data = bomb.getvalue()
    assert len(data) < 200_000
    with open_archive(data) as arc, pytest.raises(VassalFormatError, match="budget"):
        arc.read("buildFile.xml")  # over the 64 MiB budget per entry: not inflated at all
    errs = [f for f in lint_bytes(data) if f.severity == "error"]
    assert any(f.entry == "buildFile.xml" and "budget" in f.message for f in errs)


def test_zip_bomb_with_lying_header(tmp_path):
    """A header that claims a small size while the data inflates far beyond: caught on read."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("moduledata", b"A" * (5 * 1024 * 1024))
    raw = bytearray(buf.getvalue())
    # patch the uncompressed size in the central directory and local header to 100 bytes
    import struct
    cd = raw.rfind(b"PK\x01\x02")
    struct.pack_into("<I", raw, cd + 24, 100)
    struct.pack_into("<I", raw, 22, 100)
    arc = open_archive(bytes(raw))
    with pytest.raises(VassalFormatError):
        arc.read("moduledata")


def test_billion_laughs_refused():
    lol = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
           + b"".join(b'<!ENTITY lol%d "%s">' % (i, b"&lol%d;" % (i - 1) * 10 if i > 1 else b"&lol;" * 10)
                      for i in range(1, 10))
           + b']><VASSAL.build.GameModule name="&lol9;"/>')
    data = archive_bytes({"buildFile.xml": lol, "moduledata": b"<data version='1'/>"}, EPOCH)
    errs = errors(lint_bytes(data))
    assert any("DOCTYPE or ENTITY" in e for e in errs)


def test_external_entity_refused():
    xxe = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'
    errs = errors(lint_bytes(archive_bytes({"buildFile.xml": xxe}, EPOCH)))
    assert any("DOCTYPE or ENTITY" in e for e in errs)


@pytest.mark.parametrize("name", ["../evil.xml", "/abs.xml", "a/../../b"])
def test_unsafe_names_refused(name, tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(name, b"x")
    errs = errors(lint_bytes(buf.getvalue()))
    assert errs and not any(p.name == "evil.xml" for p in tmp_path.parent.rglob("evil.xml"))


def test_non_zip_and_huge_claim():
    assert errors(lint_bytes(b"PK\x03\x04 this is not a zip at all"))
    assert errors(lint_bytes(os.urandom(64)))
