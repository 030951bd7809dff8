"""Make a lint-corpus fixture from a git snapshot of a public VASSAL module repository.

    .venv/bin/python scripts/corpus_fixture.py GIT_DIR FIXTURE [--commit REV] [--under DIR]
        [--archive PATH] [--exclude GLOB ...] [--assume PATH=WxH ...] [--built ENTRY[=PATH] ...]
        [--drop-unused-saves] [--keep-saves GLOB ...]

Reads the tree of REV (default HEAD) under DIR (default the root) in the bare or normal git
directory GIT_DIR and writes ``tests/fixtures/vassal/corpus/FIXTURE/``: the module's data
entries under ``files/`` (text: buildFile, moduledata, extensiondata, saves, logs, HTML, SVG,
properties; a file over 1 MiB gzip-compressed as ``*.stored.gz``) and ``manifest.tsv`` for every
other entry (see ``tests/vassal/corpus.py``); with ``--archive PATH`` the repository keeps the
module zipped, as the file PATH of REV (a ``.mod``/``.vmod``), and its entries are read instead of
a tree. Files that are not part of the module (scripts, READMEs, source code, editor folders) are
skipped by name; ``--exclude`` adds globs. A file the
snapshot lacks (over 4 MiB) is listed as ``absent``; for an image give its assumed size with
``--assume`` and explain it in SOURCE.md; ``--built`` lists an entry the repository's own build
adds (compiled classes), kind ``built``; ``--built ENTRY=PATH`` one whose compiled class the
repository holds at PATH, outside DIR: kind ``class``, as below. ``--drop-unused-saves`` keeps only the saves a
``PredefinedSetup`` of the buildFile names (VASSAL and lint read no other save of a module) and
lists the others in the manifest as ``data``, to keep a module with many unused saves small.
A compiled class the repository holds is kind ``class``: its internal name (``head``) and the
class names its constant pool refers to (``refs``, the JDK's left out), nothing of its code.
``--keep-saves`` stores only the saves whose path matches one of its globs, for a module whose
setups are too large to keep (tens of MB): every other save, used or not, is a manifest row of
kind ``save`` and only its skeleton is kept, its commands other than AddPiece (board choices,
global properties, players, notes, ``SETUP_STACK``), in ``skeletons.json.xz``; its stand-in is
the skeleton as an old-style save (a ZIP holding only ``savedGame``, the only form allowed).
SOURCE.md then gives what lint says of the dropped saves' pieces on the real module.
SOURCE.md and expected.txt are written by hand.
Nothing of the repository's code is copied.
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import gzip
import hashlib
import json
import lzma
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.vassal.read import image_info  # noqa: E402
from tests.vassal.corpus import CORPUS, GZ, MANIFEST_FIELDS, SKELETONS, save_skeleton  # noqa: E402

#: Never part of a module archive: repository housekeeping, scripts, code, notes.
SKIP = (".git*", "*.bat", "*.sh", "*.ps1", "*.md", "*.js", "*.json", "*.java", "*.iml",
        ".idea/*", ".claude/*", "Makefile", "build.xml", "LICENSE*", "tmp/*", "*.py",
        "*/src/*", "*.vmod", "node_modules/*")
TEXT_SUFFIXES = (".xml", ".html", ".htm", ".svg", ".properties", ".txt", ".vsav", ".vlog",
                 ".css")
TEXT_NAMES = ("buildFile", "buildFile.xml", "moduledata", "extensiondata")
IMAGE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".svg")
MAX_PLAIN = 1 << 20
#: Class names a compiled class's manifest row leaves out: the JDK's, which lint never judges.
JDK_PACKAGES = ("java/", "javax/", "jdk/", "sun/")


def git(git_dir: str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", git_dir, *args], check=True,
                           capture_output=True).stdout


def tree(git_dir: str, rev: str, under: str) -> list[tuple[str, str, str]]:
    """(object, size, path relative to ``under``) of every blob."""
    out = []
    for line in git(git_dir, "ls-tree", "-r", "-l", "-z", rev, "--", under or ".").split(b"\0"):
        if not line:
            continue
        meta, path = line.split(b"\t", 1)
        _mode, kind, obj, size = meta.split()
        rel = path.decode("utf-8")
        if under:
            rel = rel[len(under.rstrip("/")) + 1:]
        if kind == b"blob":
            out.append((obj.decode(), size.decode(), rel))
    return out


#: The module archive of ``--archive``, whose entries stand for the tree's blobs (``zip:NAME``).
_ARCHIVE: list = []


def archive_tree(git_dir: str, rev: str, path: str) -> list[tuple[str, str, str]]:
    """(``zip:NAME``, size, NAME) of every file entry of the module zipped at ``rev:path``."""
    import io
    import zipfile

    zf = zipfile.ZipFile(io.BytesIO(git(git_dir, "cat-file", "blob", f"{rev}:{path}")))
    _ARCHIVE[:] = [zf]
    return [("zip:" + i.filename, str(i.file_size), i.filename) for i in zf.infolist()
            if not i.is_dir()]


def blob(git_dir: str, obj: str) -> bytes | None:
    if obj.startswith("zip:"):
        return _ARCHIVE[0].read(obj[4:])
    try:
        return git(git_dir, "cat-file", "blob", obj)
    except subprocess.CalledProcessError:
        return None


def svg_refs(data: bytes) -> list[str]:
    """Every ``href``/``xlink:href`` value in an SVG, in document order, except inline
    ``data:`` URIs (an embedded image names no entry and lint passes it by, ``refs.classify_url``;
    kept whole they would store the image)."""
    from lxml import etree

    from pipeline.vassal.archive import VassalFormatError, parse_xml

    try:
        root = parse_xml(data, "svg")
    except VassalFormatError:
        return []
    return [v for el in root.iter() if isinstance(el.tag, str)
            for k, v in el.attrib.items() if etree.QName(k).localname == "href"
            and not v.startswith("data:")]


def class_refs_or_none(data: bytes):
    """The constant pool's class names of a compiled class (``javaclass.class_refs``), or None
    for bytes that only look like one."""
    from pipeline.vassal.javaclass import ClassFileError, class_refs

    try:
        return class_refs(data)
    except ClassFileError:
        return None


def _is_save_zip(data: bytes) -> bool:
    import io
    import zipfile

    try:
        return "savedGame" in zipfile.ZipFile(io.BytesIO(data)).namelist()
    except zipfile.BadZipFile:
        return False


def is_data(path: str, data: bytes) -> bool:
    name = path.rsplit("/", 1)[-1]
    if path.split("/", 1)[0].startswith("images") and path.lower().endswith(".svg"):
        return False  # listed in the manifest with its size and references (also images_es/...)
    if name in TEXT_NAMES or path.lower().endswith((".vsav", ".vlog", ".vmdx")):
        return True
    if data.startswith(b"begin_save") or data[:2] == b"PK" and _is_save_zip(data):
        return True  # a save or log under another name (VASSAL 2.x: .sav, .log, plain text)
    if path.lower().endswith(TEXT_SUFFIXES) or path.startswith("help/"):
        return b"\0" not in data[:4096]
    return False


def setup_files(git_dir: str, rev: str, entries: list[tuple[str, str, str]]) -> set[str]:
    """The ``file`` of every ``PredefinedSetup`` in the buildFile among ``entries``."""
    from pipeline.vassal.archive import parse_xml

    for obj, _size, path in entries:
        if path in ("buildFile.xml", "buildFile"):
            data = blob(git_dir, obj)
            if data is None:
                break
            root = parse_xml(data, path)
            return {el.get("file", "") for el in root.iter()
                    if isinstance(el.tag, str) and el.tag.endswith("PredefinedSetup")}
    return set()


def _is_old_style(data: bytes) -> bool:
    """A ZIP save holding ``savedGame`` and no ``savedata``/``moduledata`` (VASSAL before 3.1)."""
    import io
    import zipfile

    try:
        return zipfile.ZipFile(io.BytesIO(data)).namelist() == ["savedGame"]
    except zipfile.BadZipFile:
        return False


def is_save(path: str, data: bytes) -> bool:
    return (path.lower().endswith((".vsav", ".vlog", ".sav", ".log"))
            or data.startswith(b"begin_save") or data[:2] == b"PK" and _is_save_zip(data))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("git_dir")
    ap.add_argument("fixture")
    ap.add_argument("--commit", default="HEAD")
    ap.add_argument("--under", default="")
    ap.add_argument("--archive", default="", metavar="PATH",
                    help="the module is the zip file PATH of the commit, not a folder")
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--assume", action="append", default=[], help="PATH=WxH for an absent image")
    ap.add_argument("--built", action="append", default=[],
                    help="an entry the repository's build adds to the module (compiled classes)")
    ap.add_argument("--drop-unused-saves", action="store_true",
                    help="keep only the saves a PredefinedSetup names; list the others as data")
    ap.add_argument("--keep-saves", action="append", default=[], metavar="GLOB",
                    help="store only the saves matching a glob; the others are 'save' rows, "
                    "their commands without the AddPiece ones in skeletons.json.xz")
    args = ap.parse_args()
    assumed = {}
    for item in args.assume:
        path, _, size = item.rpartition("=")
        w, _, h = size.partition("x")
        assumed[path] = (int(w), int(h))
    dest = CORPUS / args.fixture
    files = dest / "files"
    rows = []
    stored = 0
    skeletons: dict[str, str] = {}
    entries = (archive_tree(args.git_dir, args.commit, args.archive) if args.archive
               else tree(args.git_dir, args.commit, args.under))
    used = setup_files(args.git_dir, args.commit, entries) if args.drop_unused_saves else None
    for obj, size, path in entries:
        if any(fnmatch.fnmatch(path, g) for g in (*SKIP, *args.exclude)):
            continue
        data = blob(args.git_dir, obj)
        unused = (used is not None and data is not None and path not in used
                  and is_save(path, data))
        dropped = (bool(args.keep_saves) and data is not None and is_save(path, data)
                   and not any(fnmatch.fnmatch(path, g) for g in args.keep_saves))
        if dropped and not _is_old_style(data):
            print(f"error: {path} is not an old-style save (savedGame only); its stand-in "
                  "would differ in form: keep it", file=sys.stderr)
            return 1
        if data is not None and is_data(path, data) and not unused and not dropped:
            target = files / (path + (GZ if len(data) > MAX_PLAIN else ""))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(gzip.compress(data, 9, mtime=0) if len(data) > MAX_PLAIN
                               else data)
            stored += target.stat().st_size
            continue
        row = {"path": path, "bytes": size if size.isdigit() else "", "sha256": "",
               "kind": "data", "width": "", "height": "", "head": "", "refs": ""}
        if data is None:
            row["kind"] = "absent"
            if path in assumed:
                row["width"], row["height"] = map(str, assumed[path])
            elif path.lower().endswith(IMAGE_SUFFIXES):
                print(f"warning: {path} is absent; give --assume {path}=WxH", file=sys.stderr)
        else:
            row["sha256"] = hashlib.sha256(data).hexdigest()
            row["bytes"] = str(len(data))
            info = None if dropped else image_info(data)
            if dropped:
                row["kind"] = "save"
                skeletons[path] = save_skeleton(data)
            elif info is not None:
                row.update(kind=info.format, width=str(info.width), height=str(info.height))
                if info.format == "svg":
                    row["refs"] = "|".join(svg_refs(data))
            elif path.lower().endswith(IMAGE_SUFFIXES) or path.startswith("images/"):
                row.update(kind="garbage", head=data[:64].hex())
            elif path.endswith(".class") and data[:4] == b"\xca\xfe\xba\xbe":
                refs = class_refs_or_none(data)
                if refs is not None:  # its name and the names it refers to; no code kept
                    row.update(kind="class", head=refs.name, refs="|".join(sorted(
                        r for r in refs.refs if not r.startswith(JDK_PACKAGES))))
        rows.append(row)
    for item in args.built:
        path, _, source = item.partition("=")
        row = {"path": path, "bytes": "", "sha256": "", "kind": "built", "width": "",
               "height": "", "head": "", "refs": ""}
        data = blob(args.git_dir, f"{args.commit}:{source}") if source else None
        refs = class_refs_or_none(data) if data and data[:4] == b"\xca\xfe\xba\xbe" else None
        if data is not None and refs is not None:  # a class the repository holds elsewhere
            row.update(bytes=str(len(data)), sha256=hashlib.sha256(data).hexdigest(),
                       kind="class", head=refs.name, refs="|".join(sorted(
                           r for r in refs.refs if not r.startswith(JDK_PACKAGES))))
        elif source:
            print(f"error: {source} is no class file at {args.commit}", file=sys.stderr)
            return 1
        rows.append(row)
    dest.mkdir(parents=True, exist_ok=True)
    (dest / SKELETONS).unlink(missing_ok=True)
    if skeletons:
        text = json.dumps(dict(sorted(skeletons.items())), ensure_ascii=False, indent=0)
        (dest / SKELETONS).write_bytes(lzma.compress(text.encode("utf-8"),
                                                     preset=9 | lzma.PRESET_EXTREME))
        stored += (dest / SKELETONS).stat().st_size
    with (dest / "manifest.tsv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, MANIFEST_FIELDS, delimiter="\t", lineterminator="\n",
                           quoting=csv.QUOTE_NONE, escapechar="\\")
        w.writeheader()
        w.writerows(sorted(rows, key=lambda r: r["path"]))
    print(f"{args.fixture}: {stored} bytes stored, {len(rows)} manifest rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
