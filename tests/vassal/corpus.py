"""The corpus of real public VASSAL modules (``tests/fixtures/vassal/corpus/``), turned back
into archives for lint, inspect, the benchmark and the real-VASSAL check.

Each fixture folder holds:

- ``files/``: the module's data entries exactly as its repository stores them (buildFile,
  moduledata, extensiondata, saves, logs, HTML, SVG, translations), at their archive paths; a file
  whose name ends in ``.stored.gz`` is kept gzip-compressed to stay small and is unpacked here.
- ``manifest.tsv``: every other entry of the module (images, PDFs, Java classes, sounds), one
  line each: archive path, byte size, SHA-256, kind, width and height in pixels, the first bytes
  in hex (for garbage), the references of an SVG. :func:`fixture_entries` puts a stand-in in its place: for an image (``png``,
  ``gif``, ``jpeg``, ``bmp``, ``tiff``) a valid 1-bit greyscale PNG of the same width and height
  (VASSAL's ImageIO reads content, not the name's suffix, so a PNG stands in for any raster
  format); for ``svg`` (every SVG under ``images/`` or a translation's ``images_<lang>/``) an SVG of the same size holding its
  ``xlink:href`` references (column ``refs``); for ``absent`` (a file the snapshot lacks, over 4 MiB) the same, at the size SOURCE.md
  gives and explains; for ``data`` (not an image) a short text saying what stood there; for
  ``garbage`` (an image name whose bytes are no image) the recorded first bytes; for ``built``
  (an entry the repository's build adds, such as compiled classes) the same short text; for
  ``class`` (a compiled class the repository holds: ``head`` its internal name, ``refs`` the
  class names its constant pool refers to) a class file with no code whose constant pool names
  the same classes, so lint's class-reference check (:mod:`pipeline.vassal.javaclass`) reads
  what it reads in the real one.
  ``save`` (an old-style save too large to keep, ``scripts/corpus_fixture.py --keep-saves``) its
  skeleton as an old-style save: a ZIP holding only ``savedGame``, the save's commands other than
  AddPiece (``skeletons.json.xz``: archive path -> plaintext) obfuscated (SOURCE.md gives what
  lint says of the real save's pieces).
- ``SOURCE.md``: repository, commit, licence, what was left out, and the review of every lint
  finding. ``fixture.json``: ``{"base": "<fixture>"}`` for an extension linted with its module.
- ``expected.txt``: the pinned ``gunbai lint`` findings, one ``str(Finding)`` a line.
"""

from __future__ import annotations

import csv
import gzip
import json
import lzma
import struct
import zlib
from functools import lru_cache
from pathlib import Path

from pipeline.vassal.archive import archive_bytes

__all__ = ["CORPUS", "MANIFEST_FIELDS", "SKELETONS", "fixture_archive", "fixture_base",
           "fixture_entries", "fixture_names", "save_skeleton", "standin_png"]

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "vassal" / "corpus"
MANIFEST_FIELDS = ("path", "bytes", "sha256", "kind", "width", "height", "head", "refs")
RASTER = ("png", "gif", "jpeg", "bmp", "tiff")
IMAGE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")
GZ = ".stored.gz"
SKELETONS = "skeletons.json.xz"
EPOCH = 1735689600


def fixture_names() -> list[str]:
    """Names of the corpus fixtures (folders with a ``files/`` folder), sorted."""
    return sorted(p.name for p in CORPUS.iterdir() if (p / "files").is_dir())


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


@lru_cache(maxsize=64)
def standin_png(width: int, height: int) -> bytes:
    """A valid black 1-bit greyscale PNG of ``width`` x ``height`` pixels: IHDR, one IDAT of
    compressed zero rows, IEND (a 5000 x 4000 board packs into about 20 KiB)."""
    row = b"\x00" * (1 + (width + 7) // 8)
    comp = zlib.compressobj(9)
    parts = []
    block = row * max(1, min(height, (1 << 20) // len(row)))
    left = height
    while left > 0:
        n = min(left, len(block) // len(row))
        parts.append(comp.compress(block[: n * len(row)]))
        left -= n
    parts.append(comp.flush())
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", b"".join(parts))
            + _chunk(b"IEND", b""))


def save_skeleton(data: bytes) -> str:
    """An old-style save's ``savedGame`` plaintext without its AddPiece (``+/``) commands (the
    pieces and stacks); the others (board choices, global properties, players, notes,
    ``SETUP_STACK``, ``end_save``) joined flat, which ``GameModule.decode`` reads as it reads
    the nested original (:func:`~pipeline.vassal.commands.split_commands`)."""
    import io
    import zipfile

    from pipeline.vassal.commands import join_commands, split_commands
    from pipeline.vassal.save import deobfuscate_bytes

    plain = deobfuscate_bytes(zipfile.ZipFile(io.BytesIO(data)).read("savedGame"))
    return join_commands([c.decode("utf-8") for c in split_commands(plain)
                          if not c.startswith(b"+/")])


@lru_cache(maxsize=8)
def _skeletons(name: str) -> dict[str, str]:
    return json.loads(lzma.decompress((CORPUS / name / SKELETONS).read_bytes()))


def skeleton_save(name: str, path: str) -> bytes:
    """The stand-in of a ``save`` row: an old-style save (only ``savedGame``, as VASSAL before
    3.1 wrote) holding the real save's commands other than AddPiece, obfuscated (§4.2-4.3)."""
    from pipeline.vassal.save import obfuscate

    return archive_bytes({"savedGame": obfuscate(_skeletons(name)[path])}, EPOCH)


def standin_svg(width: int, height: int, refs: str) -> bytes:
    """An SVG of ``width`` x ``height`` user units holding one ``<image>`` per reference of the
    original (``refs``: ``|``-joined ``xlink:href`` values), so size and references survive."""
    from xml.sax.saxutils import quoteattr

    images = "".join(f"<image xlink:href={quoteattr(r)} width=\"1\" height=\"1\"/>"
                     for r in refs.split("|") if r)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{width}" height="{height}">{images}</svg>').encode()


def standin_class(name: str, refs: str) -> bytes:
    """A class file (JVMS §4.1, version 52) with no fields or methods, named ``name``, whose
    constant pool holds one ``Class`` entry per ``|``-joined internal name in ``refs``; its
    superclass is ``java/lang/Object``."""
    names = [name] + [r for r in refs.split("|") if r and r != name]
    if "java/lang/Object" not in names:
        names.append("java/lang/Object")
    # entry 2k+1 is the Utf8 of names[k], entry 2k+2 the Class naming it
    pool = b"".join(b"\x01" + struct.pack(">H", len(n.encode())) + n.encode()
                    + b"\x07" + struct.pack(">H", 2 * i + 1) for i, n in enumerate(names))
    count = 2 * len(names) + 1
    this, sup = 2, 2 * names.index("java/lang/Object") + 2
    return (b"\xca\xfe\xba\xbe" + struct.pack(">HHH", 0, 52, count) + pool
            + struct.pack(">HHHHHHH", 0x0021, this, sup, 0, 0, 0, 0))


def read_manifest(name: str) -> list[dict[str, str]]:
    """The rows of a fixture's ``manifest.tsv`` (see the module docstring)."""
    path = CORPUS / name / "manifest.tsv"
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def _standin(name: str, row: dict[str, str]) -> bytes:
    kind = row["kind"]
    if kind in RASTER or kind == "absent" and row["path"].lower().endswith(IMAGE_SUFFIXES):
        if not row["width"]:
            raise ValueError(f"manifest: {row['path']} has no width/height for its stand-in")
        return standin_png(int(row["width"]), int(row["height"]))
    if kind == "svg":
        return standin_svg(int(row["width"]), int(row["height"]), row["refs"])
    if kind == "garbage":
        return bytes.fromhex(row["head"])
    if kind == "class":
        return standin_class(row["head"], row["refs"])
    if kind == "save":
        return skeleton_save(name, row["path"])
    return f"stand-in for {row['path']} ({row['bytes']} bytes, {kind})\n".encode()


@lru_cache(maxsize=32)
def _entries(name: str) -> tuple[tuple[str, bytes], ...]:
    folder = CORPUS / name / "files"
    out: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(folder).as_posix()
        data = path.read_bytes()
        if rel.endswith(GZ):
            rel, data = rel[: -len(GZ)], gzip.decompress(data)
        out[rel] = data
    for row in read_manifest(name):
        out[row["path"]] = _standin(name, row)
    return tuple(out.items())


def fixture_entries(name: str) -> dict[str, bytes]:
    """Archive path -> bytes of the fixture ``name``: stored files and manifest stand-ins."""
    return dict(_entries(name))


@lru_cache(maxsize=32)
def fixture_archive(name: str) -> bytes:
    """The fixture as a ``.vmod``/``.vmdx`` ZIP (deterministic, DEFLATED, UTF-8 names)."""
    return archive_bytes(fixture_entries(name), EPOCH)


def fixture_base(name: str) -> str | None:
    """The fixture an extension fixture is linted against (``fixture.json`` ``base``)."""
    path = CORPUS / name / "fixture.json"
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8")).get("base")


def write_fixture_archive(name: str, target: Path) -> Path:
    """Write :func:`fixture_archive` to ``target`` (for ``vassal-check``); returns it."""
    target.write_bytes(fixture_archive(name))
    return target


if __name__ == "__main__":  # pragma: no cover - a helper to open a fixture in VASSAL
    import sys

    for arg in sys.argv[1:]:
        fixture, _, out = arg.partition("=")
        print(write_fixture_archive(fixture, Path(out or f"{fixture}.vmod")))
