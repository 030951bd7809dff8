"""Archive safety (untrusted input) and deterministic/atomic writing (§1, §4.1)."""

import io
import os
import struct
import zipfile

import pytest

from pipeline.vassal.archive import (
    Limits,
    VassalFormatError,
    archive_bytes,
    open_archive,
    parse_xml,
    write_archive_atomic,
)
from pipeline.vassal.lint import lint_bytes
from pipeline.vassal.save import deobfuscate, obfuscate


def raw_zip(entries):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def test_obfuscation_vector():
    assert obfuscate("begin_save\x1bend_save", 0xAA) == (
        b"!VCSKaac8cfcdc3c4f5d9cbdccfb1cfc4cef5d9cbdccf")
    assert deobfuscate(b"!VCSKAAC8CFCDC3C4F5D9CBDCCFB1CFC4CEF5D9CBDCCF") == (
        "begin_save\x1bend_save")
    assert deobfuscate("plain é".encode()) == "plain é"
    with pytest.raises(VassalFormatError):
        deobfuscate(b"!VCSKaac")
    with pytest.raises(ValueError):
        obfuscate("x", 256)


@pytest.mark.parametrize("name", ["../evil", "a/../../evil", "/etc/passwd", "C:/x",
                                  "a\\b", "./x"])
def test_unsafe_names_rejected(name):
    data = raw_zip({name: b"x"})
    with pytest.raises(VassalFormatError) as exc:
        open_archive(data)
    assert exc.value.entry == name
    assert lint_bytes(data)[0].entry == name


def test_not_a_zip():
    with pytest.raises(VassalFormatError, match="not a ZIP"):
        open_archive(b"this is not a zip file")
    assert "not a ZIP" in lint_bytes(b"nope")[0].message


def test_huge_claimed_size_rejected():
    data = bytearray(raw_zip({"big": b"x" * 10}))
    # patch the central directory's uncompressed size (offset 24 in the CD header)
    cd = data.rfind(b"PK\x01\x02")
    struct.pack_into("<I", data, cd + 24, 3_000_000_000)
    # refused when it is read, before inflating anything; the other entries stay readable
    with open_archive(bytes(data)) as arc, pytest.raises(VassalFormatError,
                                                         match="budget") as exc:
        arc.read("big")
    assert exc.value.entry == "big"


def test_lying_size_caught_when_reading():
    data = bytearray(raw_zip({"f": b"y" * 5000}))
    cd = data.rfind(b"PK\x01\x02")
    struct.pack_into("<I", data, cd + 24, 10)  # claims 10 bytes, inflates to 5000
    with open_archive(bytes(data)) as arc, pytest.raises(VassalFormatError) as exc:
        arc.read("f")
    assert exc.value.entry == "f"


def test_budgets_not_ratio():
    """A budget of decompressed bytes per entry and in total, counted while inflating: 2 MB of
    zeros (ratio ~1000:1) reads, an entry over the per-entry budget does not, nor the entry that
    would take the archive over its total budget; the entries read before stay readable."""
    zeros = raw_zip({"zeros": b"\x00" * 2_000_000})
    with open_archive(zeros) as arc:
        assert len(arc.read("zeros")) == 2_000_000
    many = raw_zip({f"f{i}": b"" for i in range(20)})
    with pytest.raises(VassalFormatError, match="entries"):
        open_archive(many, Limits(max_entries=10))
    with open_archive(raw_zip({"a": b"x" * 100, "b": b"y"}), Limits(max_entry_size=50)) as arc:
        with pytest.raises(VassalFormatError, match="budget of 50 bytes per entry") as exc:
            arc.read("a")
        assert exc.value.entry == "a" and arc.read("b") == b"y"
    three = raw_zip({"a": b"x" * 40, "b": b"y" * 40, "c": b"z" * 10})
    with open_archive(three, Limits(max_total_size=60)) as arc:
        assert arc.read("a") == b"x" * 40
        with pytest.raises(VassalFormatError, match="20 bytes left") as exc:
            arc.read("b")
        assert exc.value.entry == "b" and arc.read("c") == b"z" * 10


def test_what_is_kept_for_a_second_read(monkeypatch):
    """An entry read with ``keep`` (the default) is held for the next read of it: the same bytes
    without inflating again, nor counting twice against the total budget, while the held bytes
    stay within ``CACHE_BUDGET``; one read with ``keep=False`` (a module's setups, each read
    once) is not held, so a second read inflates it again and counts again."""
    import pipeline.vassal.archive as archive

    three = raw_zip({"a": b"x" * 40, "b": b"y" * 40, "c": b"z" * 30})
    with open_archive(three, Limits(max_total_size=100)) as arc:
        first = arc.read("a")
        assert arc.read("a") is first  # held: 40 bytes of the 100 counted once
        assert arc.read("b", keep=False) == b"y" * 40  # 80 counted
        with pytest.raises(VassalFormatError, match="20 bytes left"):
            arc.read("b")  # not held: inflating it again would count 40 more
        assert arc.read("a") is first
    monkeypatch.setattr(archive, "CACHE_BUDGET", 70)
    with open_archive(three) as arc:
        a, b, c = arc.read("a"), arc.read("b"), arc.read("c")
        assert arc.read("a") is a and arc.read("c") is c  # 40 + 30 held: the budget
        assert arc.read("b") is not b and arc.read("b") == b  # b did not fit: read again


def test_entity_declaration_rejected():
    xml = (b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e "boom">]>'
           b"<data>&e;</data>")
    with pytest.raises(VassalFormatError, match="DOCTYPE|ENTITY") as exc:
        parse_xml(xml, "moduledata")
    assert exc.value.entry == "moduledata"
    data = raw_zip({"buildFile.xml": xml, "moduledata": xml})
    errs = [f for f in lint_bytes(data) if "DOCTYPE" in f.message]
    assert {f.entry for f in errs} == {"buildFile.xml", "moduledata"}
    xxe = b'<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><d>&x;</d>'
    with pytest.raises(VassalFormatError):
        parse_xml(xxe, "x")
    with pytest.raises(VassalFormatError, match="malformed"):
        parse_xml(b"<a><b></a>", "x")


def test_unsupported_compression_rejected():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_BZIP2) as zf:
        zf.writestr("buildFile.xml", b"<a/>")
    with pytest.raises(VassalFormatError, match="STORED/DEFLATED"):
        open_archive(buf.getvalue())


def test_archive_order_and_determinism():
    entries = {"z": b"1", "images/a.png": b"2", "moduledata": b"3", "buildFile.xml": b"4"}
    a = archive_bytes(entries, 1735689600)
    assert a == archive_bytes(dict(reversed(list(entries.items()))), 1735689600)
    with zipfile.ZipFile(io.BytesIO(a)) as zf:
        assert zf.namelist() == ["buildFile.xml", "moduledata", "images/a.png", "z"]
        assert all((i.external_attr >> 16) == 0o100644 for i in zf.infolist())
    with pytest.raises(VassalFormatError):
        archive_bytes({"../x": b""}, 0)


def test_atomic_write(tmp_path, monkeypatch):
    target = tmp_path / "out.vmod"
    write_archive_atomic(target, {"a": b"1"}, 1735689600)
    before = target.read_bytes()

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_archive_atomic(target, {"a": b"2"}, 1735689600)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["out.vmod"]
