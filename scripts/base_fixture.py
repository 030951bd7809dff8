"""Build a trimmed base-module fixture (.vmod) from a git snapshot of a public VASSAL module's
source folder, for the extension tests (issue 26: an extension built against a real module).

    .venv/bin/python scripts/base_fixture.py GIT_DIR OUT.vmod --dist DIST [--commit REV]
        [--classes DIR] [--slot ENTRY_NAME ...] [--image NAME ...] [--images-from FILE] [--no-charts]
        [--file ENTRY ...]

Reads the tree of REV (default HEAD) in the git directory GIT_DIR (a ``fetch`` mirror) and
writes one module archive holding, from the folder DIST of that tree (the module's unpacked
contents, e.g. ``dist`` of riverwanderer/ccnapoleonics):

- ``buildFile.xml`` and ``moduledata`` as they are (nothing of the component tree is changed);
- the images VASSAL paints when the module opens and when a setup is loaded on its main map:
  the board images of the maps open at start (not those a button opens, ``launch``), every
  icon-like attribute (toolbar buttons, …), the pieces of those maps' at-start stacks and the
  top card's mask of their face-down decks, the palette pieces of the first tab of the first
  visible piece window,
  the palette pieces named by ``--slot`` (the pieces an extension's mapping places), each with
  the images of the prototypes it uses; and each ``--image`` (or line of ``--images-from``:
  the images VASSAL reported missing on a first run, when it lays the piece windows out);
- each image named in ``--shrink-from`` re-encoded small at its pixel size (faces of cards
  that a setup deals, which VASSAL reads when the setup loads but no check shows);
- each ``--file`` of DIST as it is (a predefined setup an extension's setups start from), with
  the images of a setup's pieces on the maps open at start;
- with ``--classes DIR``: every ``*.class`` file under DIR, at its path below DIR (the module's
  custom code, as the module's build puts it in the archive).

With ``--vmod FILE`` instead of ``--dist``, a small module file of the repository is copied as
it is. Chart images (``widget.Chart``) are left out with ``--no-charts`` (VASSAL reads them only when
the chart window is opened). Images are copied byte for byte; the archive is written with the
commit's date so that the same snapshot gives the same bytes. It prints what it wrote.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lxml import etree  # noqa: E402

from pipeline.vassal.archive import archive_bytes, parse_xml  # noqa: E402
from pipeline.vassal.lint import _piece_image_refs  # noqa: E402
from pipeline.vassal.pieces import PieceDecodeError, decode_add_piece  # noqa: E402

VM = "VASSAL.build.module."
W = "VASSAL.build.widget."
IMAGE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".svg", ".bmp")


def git(git_dir: str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", git_dir, *args], check=True, capture_output=True).stdout


def files_under(git_dir: str, rev: str, folder: str) -> dict[str, str]:
    """Path relative to ``folder`` -> blob id, for every file of the tree under ``folder``."""
    out = {}
    for line in git(git_dir, "ls-tree", "-r", "-z", rev, "--", folder).split(b"\0"):
        if not line:
            continue
        meta, path = line.split(b"\t", 1)
        _mode, kind, obj = meta.split()
        if kind == b"blob":
            out[str(PurePosixPath(path.decode("utf-8")).relative_to(folder))] = obj.decode()
    return out


def piece_images(text: str, prototypes: dict[str, str], seen: set[str]) -> set[str]:
    """Images of a piece definition and of every prototype it uses, recursively."""
    try:
        piece = decode_add_piece(text.strip())
    except PieceDecodeError:
        return set()
    out = {name for name, _what in _piece_image_refs(piece)}
    for name in piece.prototype_names:
        if name in prototypes and name not in seen:
            seen.add(name)
            out |= piece_images(prototypes[name], prototypes, seen)
    return out


def mask_images(text: str, prototypes: dict[str, str], seen: set[str]) -> set[str]:
    """The Mask (``obs;``) images of a piece definition and of the prototypes it uses."""
    from pipeline.vassal.sequence import decode

    try:
        piece = decode_add_piece(text.strip())
    except PieceDecodeError:
        return set()
    out = set()
    for type_, _state in piece.levels:
        if type_.startswith("obs;"):
            fields = decode(type_[4:], ";")
            if len(fields) > 1 and fields[1]:
                out.add(fields[1])
    for name in piece.prototype_names:
        if name in prototypes and name not in seen:
            seen.add(name)
            out |= mask_images(prototypes[name], prototypes, seen)
    return out


def wanted_images(root: etree._Element, slots: list[str], charts: bool) -> set[str]:
    prototypes = {p.get("name", ""): p.text or "" for p in root.iter(VM + "PrototypeDefinition")}
    out: set[str] = set()
    maps = list(root.iter(VM + "Map", VM + "PrivateMap", VM + "PlayerHand"))
    shut = {id(el) for m in maps if m.get("launch") == "true" for el in m.iter(VM + "map.boardPicker.Board")}
    for el in root.iter():
        if not isinstance(el.tag, str) or id(el) in shut:
            continue
        if str(el.tag) == W + "Chart" and not charts:
            continue
        for value in el.attrib.values():
            if value.lower().endswith(IMAGE_SUFFIXES) and not value.startswith("/"):
                out.add(value)
    texts: list[str] = []
    masks: list[str] = []
    for m in maps:
        if m.get("launch") == "true":  # a map opened by its button: nothing of it is painted at load
            continue
        for holder in m.iter(VM + "map.SetupStack"):
            texts += [s.text or "" for s in holder.iter(W + "PieceSlot", W + "CardSlot")]
        for deck in m.iter(VM + "map.DrawPile"):
            cards = [s.text or "" for s in deck.iter(W + "PieceSlot", W + "CardSlot")]
            (masks if deck.get("faceDown", "Always") != "Never" else texts).extend(cards)
    for text in masks:  # a face-down deck shows its top card's mask (obs;) image only
        out |= mask_images(text, prototypes, set())
    windows = [w for w in root.iter(VM + "PieceWindow") if w.get("hidden") != "true"]
    if windows:
        first = windows[0]
        tab = next(first.iter(W + "TabWidget"), None)
        holder = next((c for c in tab if isinstance(c.tag, str)), first) if tab is not None else first
        texts += [s.text or "" for s in holder.iter(W + "PieceSlot")]
    wanted = set(slots)
    for s in root.iter(W + "PieceSlot"):
        if s.get("entryName") in wanted:
            texts.append(s.text or "")
            wanted.discard(s.get("entryName"))
    if wanted:
        raise SystemExit(f"--slot names no palette piece: {', '.join(sorted(wanted))}")
    for text in texts:
        out |= piece_images(text, prototypes, set())
    return out


def shrink(name: str, data: bytes) -> bytes:
    """An image re-encoded small at the same pixel size (its look only: VASSAL's geometry of a
    piece is its image's size)."""
    import io

    from PIL import Image

    with Image.open(io.BytesIO(data)) as img:
        out = io.BytesIO()
        if name.lower().endswith((".jpg", ".jpeg")):
            img.convert("RGB").save(out, "JPEG", quality=20, optimize=True)
        else:
            img.convert("RGBA").quantize(32).save(out, "PNG", optimize=True)
        small = out.getvalue()
        with Image.open(io.BytesIO(small)) as check:
            assert check.size == img.size
    return small if len(small) < len(data) else data


def save_images(data: bytes, root: etree._Element) -> set[str]:
    """Images of the pieces a setup puts on the maps open at start (not ``launch`` maps)."""
    from pipeline.vassal.save import read_save

    shut = {m.get("mapName") for m in root.iter(VM + "Map", VM + "PrivateMap", VM + "PlayerHand") if m.get("launch") == "true"}
    out: set[str] = set()
    for piece in read_save(data).pieces:
        if piece.map_name not in shut:
            out |= {name for name, _what in _piece_image_refs(piece)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("git_dir")
    ap.add_argument("out", type=Path)
    ap.add_argument("--dist", help="the module's folder in the repository")
    ap.add_argument("--vmod", help="or a whole module file in the repository, copied as it is (a small module)")
    ap.add_argument("--commit", default="HEAD")
    ap.add_argument("--classes", help="folder of the module's compiled classes in the repository")
    ap.add_argument("--slot", action="append", default=[], help="a palette piece (entry name) to keep the images of")
    ap.add_argument("--image", action="append", default=[], help="an image (name under images/) to keep")
    ap.add_argument("--images-from", type=Path, help="a file naming one image to keep per line (# comments)")
    ap.add_argument("--no-charts", action="store_true", help="leave out the chart window's images")
    ap.add_argument("--shrink-from", type=Path, help="a file naming images to keep re-encoded small, one per line: pixel size "
                    "unchanged, JPEG quality 20, PNG in 32 colours (card faces VASSAL reads but the checks never show)")
    ap.add_argument("--file", action="append", default=[], help="another entry of the module's folder to keep (a predefined setup's .vsav: "
                    "the images of its pieces on the maps open at start are kept too)")
    args = ap.parse_args()

    if args.images_from is not None:
        for line in args.images_from.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                args.image.append(line.strip())
    rev = git(args.git_dir, "rev-parse", args.commit).decode().strip()
    epoch = int(git(args.git_dir, "show", "-s", "--format=%ct", rev).decode().strip())
    if args.vmod:
        data = git(args.git_dir, "show", f"{rev}:{args.vmod}")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_bytes(data)
        print(f"{args.out}: {args.vmod} as it is, {len(data)} bytes; commit {rev}")
        return
    if not args.dist:
        raise SystemExit("give --dist (the module's folder) or --vmod (a module file)")
    files = files_under(args.git_dir, rev, args.dist)
    build = git(args.git_dir, "cat-file", "blob", files["buildFile.xml"])
    root = parse_xml(build, "buildFile.xml")
    entries = {"buildFile.xml": build, "moduledata": git(args.git_dir, "cat-file", "blob", files["moduledata"])}
    missing = []
    for name in sorted(wanted_images(root, args.slot, not args.no_charts) | set(args.image)):
        obj = files.get(f"images/{name}")
        if obj is None:
            missing.append(name)
            continue
        entries[f"images/{name}"] = git(args.git_dir, "cat-file", "blob", obj)
    for name in args.file:
        obj = files.get(name)
        if obj is None:
            raise SystemExit(f"--file {name!r} is not in {args.dist}")
        entries[name] = git(args.git_dir, "cat-file", "blob", obj)
        if name.endswith(".vsav"):
            for image in sorted(save_images(entries[name], root) - set(entries)):
                obj = files.get(f"images/{image}")
                if obj is not None:
                    entries[f"images/{image}"] = git(args.git_dir, "cat-file", "blob", obj)
    if args.shrink_from is not None:
        for line in args.shrink_from.read_text(encoding="utf-8").splitlines():
            name = line.strip()
            if not name or name.startswith("#"):
                continue
            obj = files.get(f"images/{name}")
            if obj is None:
                missing.append(name)
                continue
            entries[f"images/{name}"] = shrink(name, git(args.git_dir, "cat-file", "blob", obj))
    if args.classes:
        for rel, obj in sorted(files_under(args.git_dir, rev, args.classes).items()):
            if rel.endswith(".class"):
                entries[rel] = git(args.git_dir, "cat-file", "blob", obj)
    data = archive_bytes(entries, epoch)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    images = sum(1 for n in entries if n.startswith("images/"))
    classes = sum(1 for n in entries if n.endswith(".class"))
    print(f"{args.out}: {len(entries)} entries ({images} images, {classes} classes), {len(data)} bytes; commit {rev}")
    if missing:
        print(f"named but not in the repository (left out, as in the module): {', '.join(missing)}")


if __name__ == "__main__":
    main()
