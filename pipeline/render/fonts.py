"""Fonts for drawing: only the Noto Sans CJK JP faces of the installed font packages.

System fonts are never used, so kanji (e.g. 僧兵) and Latin text render the same on every
machine. Fonts are cached per (weight, pixel size).

Example::

    >>> f = font(40, bold=True)
    >>> has_glyph("僧")
    True
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageFont

from pipeline.errors import GunbaiError


class FontError(GunbaiError):
    """A font package is missing or its font file cannot be read."""


def font_path(bold: bool = False) -> Path:
    """Path of the Noto Sans CJK JP font file (regular or bold) from its installed package.

    Raises:
        FontError: the package ``noto_cjk_sans_jp_regular`` / ``noto_cjk_sans_jp_bold`` is not
            installed or its ``FONT_PATH`` does not exist.
    """
    name = "noto_cjk_sans_jp_bold" if bold else "noto_cjk_sans_jp_regular"
    try:
        module = __import__(name)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise FontError(f"font package {name} is not installed (pip install {name.replace('_', '-')})") from exc
    path = Path(module.FONT_PATH)
    if not path.is_file():  # pragma: no cover
        raise FontError(f"font package {name}: FONT_PATH {path} does not exist")
    return path


@lru_cache(maxsize=256)
def font(size_px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The Noto Sans CJK JP font at ``size_px`` pixels (em size), regular or bold. Cached.

    Raises:
        FontError: the font package is missing; ValueError: ``size_px`` < 1.
    """
    if size_px < 1:
        raise ValueError(f"font size must be at least 1 px, got {size_px}")
    return ImageFont.truetype(str(font_path(bold)), size_px, layout_engine=ImageFont.Layout.BASIC)


#: A code point no font maps (plane 16 private use): what it draws is the font's ``.notdef``
#: box, the "tofu" a missing character shows as.
_UNMAPPED = "\U0010fffd"


@lru_cache(maxsize=8192)
@lru_cache(maxsize=65536)
def has_glyph(char: str, bold: bool = False) -> bool:
    """True when the font has a real glyph for ``char``: it draws something other than the
    ``.notdef`` box (a missing character's "tofu"). Spaces and other characters that draw
    nothing but are mapped count as present.

    >>> has_glyph("僧"), has_glyph("A"), has_glyph("\U0001F600")
    (True, True, False)
    """
    f = font(64, bold)
    mask = f.getmask(char)
    notdef = _notdef_mask(bold)
    return not (mask.size == notdef[0] and bytes(mask) == notdef[1])


@lru_cache(maxsize=2)
def _notdef_mask(bold: bool) -> tuple[tuple[int, int], bytes]:
    mask = font(64, bold).getmask(_UNMAPPED)
    return mask.size, bytes(mask)


#: Unicode categories whose characters are never drawn as written: controls, format characters
#: (the bidirectional overrides and isolates such as U+202E, which reorder the text around them
#: where it is shown, zero-width spaces and joiners, the byte order mark, the soft hyphen), line
#: and paragraph separators, private-use, surrogate and unassigned code points.
NOT_DRAWN = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})


def not_drawn(char: str) -> bool:
    """True when ``char`` is of a :data:`NOT_DRAWN` category (the line feed aside: a text's line
    break). Such a character prints as an empty box, or as nothing while it reorders or hides
    the text next to it.

    >>> not_drawn("\\u202e"), not_drawn("\\u200b"), not_drawn("A")
    (True, True, False)
    """
    import unicodedata

    return char != "\n" and unicodedata.category(char) in NOT_DRAWN


def missing_glyphs(text: str, bold: bool = False) -> list[str]:
    """The characters of ``text`` that would not print as written, in order, each once: every
    :func:`not_drawn` character, and every other one the font draws as its ``.notdef`` box
    (an emoji, a character of a script it lacks). Line feeds are line breaks, not checked.

    >>> missing_glyphs("Sam\\u202eurai 侍😀")
    ['\\u202e', '😀']
    """
    out: list[str] = []
    for ch in dict.fromkeys(text):
        if ch == "\n":
            continue
        if not_drawn(ch) or not has_glyph(ch, bold):
            out.append(ch)
    return out


#: Characters every PDF font subset holds: printable ASCII, Latin-1 and Latin Extended-A (romanised
#: Japanese: ō, ū), general punctuation (– — ‘ ’ “ ” … ·), arrows, ×, CJK punctuation, hiragana,
#: katakana and full-width forms. Other characters a PDF uses are added by the caller or, failing
#: that, drawn from the full font (:class:`pipeline.render.sheets.new_pdf`).
PDF_REPERTOIRE = "".join(
    chr(c)
    for lo, hi in ((0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x2027), (0x2030, 0x203A), (0x2190, 0x2193), (0xD7, 0xD7),
                   (0x3000, 0x30FF), (0xFF01, 0xFF5E))
    for c in range(lo, hi + 1)
)

_subset_dir: Path | None = None


_subsets: dict[tuple[bool, frozenset[str]], Path] = {}


def _subset_folder() -> Path:
    import atexit
    import shutil
    import tempfile

    global _subset_dir
    if _subset_dir is None:
        _subset_dir = Path(tempfile.mkdtemp(prefix="gunbai-fonts-"))
        atexit.register(shutil.rmtree, _subset_dir, True)
    return _subset_dir


def keep_subsets_in(folder: Path) -> None:
    """Make and find PDF font subsets in ``folder`` (e.g. a render cache folder) from now on, so
    a later build reuses them instead of cutting them from the 16 MB fonts again. The file name
    holds the SHA-256 of :data:`SUBSET_KIND`, the characters and the font file's name and size."""
    global _subset_dir
    folder.mkdir(parents=True, exist_ok=True)
    _subset_dir = folder


#: What :func:`_make_subset` cuts, part of a subset file's name: a subset folder kept from a
#: build whose subsets were cut another way (e.g. with subroutines) is not reused.
SUBSET_KIND = "cff-desubroutinized"


def _subset_file(bold: bool, chars: frozenset[str], folder: Path | None = None) -> Path:
    import hashlib

    text = "".join(sorted(chars))
    source = font_path(bold)
    key = hashlib.sha256(f"{SUBSET_KIND}\0{source.name}\0{source.stat().st_size}\0{text}".encode()).hexdigest()[:16]
    return (folder if folder is not None else _subset_folder()) / f"noto-{'bold' if bold else 'regular'}-{key}.otf"


def _subset_for(bold: bool, chars: frozenset[str]) -> Path:
    if (bold, chars) in _subsets:
        return _subsets[(bold, chars)]
    out = _subset_file(bold, chars)
    if not out.is_file():
        _make_subset(bold, chars, out)
    _subsets[(bold, chars)] = out
    return out


def no_seac_closure_for_cid_fonts() -> None:
    """Make fontTools' subsetter skip, for a CID-keyed CFF font (Noto Sans CJK JP), the pass
    that runs every kept glyph's charstring to find ``seac`` accent components
    (``fontTools.subset.cff.closure_glyphs``): that pass adds the glyphs *named* in the Standard
    Encoding (``A``, ``acute``…), and a CID-keyed font's glyphs are named ``cidNNNNN`` (and
    ``.notdef``, always kept): it can add no glyph of such a font (one it did add, absent from
    the font, would make the subsetter fail on the glyph order). The glyphs kept, and so the
    subset's bytes, are the same (tested); the charstrings are still run by the later pass that
    finds the subroutines in use. Measured: a third of the time of cutting a subset from the
    16 MB font (the 4th round's profile) and of fpdf subsetting each PDF's fonts again
    (``OutputProducer._add_fonts``). Other fonts keep the full pass. Idempotent; changes
    fontTools for this process (and the processes it forks).
    """
    from fontTools.subset import cff  # noqa: F401 - registers closure_glyphs on the CFF table
    from fontTools.ttLib import getTableClass

    table = getTableClass("CFF ")
    full = table.closure_glyphs
    if getattr(full, "skips_cid_fonts", False):
        return

    def closure_glyphs(self, s):
        top = self.cff[self.cff.keys()[0]] if len(self.cff) == 1 else None
        if top is not None and hasattr(top, "ROS"):
            return  # CID-keyed: no glyph named as seac names its components
        return full(self, s)

    closure_glyphs.skips_cid_fonts = True  # type: ignore[attr-defined]
    closure_glyphs.full = full  # type: ignore[attr-defined]
    table.closure_glyphs = closure_glyphs


def no_subroutine_pass_without_subroutines() -> None:
    """Make fontTools' subsetter skip, for a CFF font set with no subroutine at all (no global
    subroutine and no ``Subrs`` in any Private dict: e.g. the subsets :func:`_make_subset` cuts,
    desubroutinized), the pass that removes unused subroutines
    (``fontTools.cffLib.CFFFontSet.remove_unused_subroutines``): that pass decompiles and runs
    every kept glyph's charstring to mark the subroutines it calls, renumbers the calls and
    deletes empty ``Subrs`` indexes; without subroutines it marks, renumbers and deletes
    nothing, and the decompiled charstrings are compiled again to the same bytes. Skipped,
    the charstrings keep their bytes undecompiled: the subset's bytes are the same (tested).
    Measured: fpdf's subsetting of the fonts of a cold Genpei build's 33 PDFs
    (``OutputProducer._add_fonts``) 1.25-1.29 s → 0.32-0.45 s CPU, against subsets with
    subroutines and the full pass. Fonts with subroutines keep the full pass. Idempotent; changes fontTools for this process (and the processes it forks).
    """
    from fontTools.cffLib import CFFFontSet

    full = CFFFontSet.remove_unused_subroutines
    if getattr(full, "skips_fonts_without_subroutines", False):
        return

    def remove_unused_subroutines(self):
        for name in self.keys():
            top = self[name]
            privates = [fd.Private for fd in top.FDArray] if hasattr(top, "FDArray") else [top.Private]
            if len(top.GlobalSubrs) or any(hasattr(p, "Subrs") or "Subrs" in p.rawDict for p in privates):
                return full(self)
        return None  # no subroutine anywhere: nothing to mark, renumber or delete

    remove_unused_subroutines.skips_fonts_without_subroutines = True  # type: ignore[attr-defined]
    remove_unused_subroutines.full = full  # type: ignore[attr-defined]
    CFFFontSet.remove_unused_subroutines = remove_unused_subroutines


#: The font tables a PDF subset leaves out.
_DROPPED = ["GSUB", "GPOS", "GDEF", "BASE", "vhea", "vmtx", "VORG", "DSIG"]


def _drop_tables(font_file) -> None:
    """Delete the :data:`_DROPPED` tables from ``font_file`` (a ``fontTools.ttLib.TTFont``)
    before the subsetter sees them: it would otherwise read the GSUB, GPOS and GDEF tables of
    the 16 MB font (about 0.1 s CPU each time, measured) to check their lookup formats
    (``fontTools.ttLib.beyond64k``) and then drop them. The subset's bytes are the same
    (tested)."""
    for tag in _DROPPED:
        if tag in font_file:
            del font_file[tag]


def _make_subset(bold: bool, chars: frozenset[str], out: Path) -> None:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    no_seac_closure_for_cid_fonts()
    text = "".join(sorted(chars))
    # no bounding boxes recomputed from every outline; no timestamp (the same input, the same file)
    font_file = TTFont(str(font_path(bold)), lazy=True, recalcBBoxes=False, recalcTimestamp=False)
    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    # PDF text here is plain horizontal runs: no OpenType layout (whose closure pulls in thousands
    # of alternate glyphs), no vertical metrics, no bounds recomputed from every outline
    options.layout_features = []
    options.drop_tables += _DROPPED
    _drop_tables(font_file)
    options.recalc_bounds = False
    options.recalc_max_context = False
    # every charstring written out whole, no subroutine left (hints kept): the subset fpdf cuts
    # from this one for each PDF then has no subroutine to find and renumber, and keeps each
    # glyph's charstring bytes as they are (no_subroutine_pass_without_subroutines)
    options.desubroutinize = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font_file)
    tmp = out.with_name(out.name + f".{os.getpid()}.tmp")
    font_file.save(str(tmp))
    font_file.close()
    os.replace(tmp, out)


def pdf_subset_path(bold: bool, extra: str = "") -> Path:
    """A Noto Sans CJK JP font file (regular or bold) cut down to :data:`PDF_REPERTOIRE` plus the
    characters of ``extra``, for embedding in a PDF: a few hundred KB instead of 16 MB, so a PDF
    library loads and subsets it in milliseconds instead of a second. Made once per process and
    character set (in a temporary folder removed at exit); the same input gives the same file.

    Raises:
        FontError: the font package is missing.
    """
    return _subset_for(bold, _chars(extra))


def _chars(extra: str) -> frozenset[str]:
    return frozenset(PDF_REPERTOIRE) | frozenset(c for c in extra if c.isprintable())


def prepare_pdf_subsets(extra: str = "") -> None:
    """Make the regular and bold subsets of :func:`pdf_subset_path` for ``extra`` now (those not
    made yet, in this process or in the subset folder), both at once on the drawing processes
    (:func:`pipeline.render.parallel.call_all`), so that the processes assembling PDFs afterwards
    (forked from this one) find them made instead of each making its own. The drawing processes
    live for the whole command: what fontTools loads on its first subset (its table modules,
    about 0.4 s CPU) is loaded once per process and serves every system's subsets.

    Raises:
        FontError: the font package is missing.
    """
    prepare_pdf_subsets_later(extra)()


def prepare_pdf_subsets_later(extra: str = "") -> Callable[[], None]:
    """:func:`prepare_pdf_subsets`, started on the drawing processes
    (:func:`pipeline.render.parallel.call_all_later`): returns at once a function that waits
    until both subsets are made, after which :func:`pdf_subset_path` finds them (in the subset
    folder current now, whatever :func:`keep_subsets_in` says by then). Call it before forking
    the processes that assemble the PDFs.

    Raises:
        FontError: the font package is missing (raised here or by the returned function).
    """
    from pipeline.render.parallel import call_all_later

    chars = _chars(extra)
    text = "".join(sorted(chars))
    todo = {bold: _subset_file(bold, chars) for bold in (False, True) if (bold, chars) not in _subsets}
    early = {bold: _early.pop((bold, chars)) for bold in todo if (bold, chars) in _early}
    wait = call_all_later(make_subset_file, [(bold, text, str(path)) for bold, path in todo.items() if bold not in early and not path.is_file()])

    def done() -> None:
        wait()
        for bold, (cut, waited) in early.items():  # cut by prepare_pdf_subsets_early: kept here too
            waited()
            if not todo[bold].is_file():
                tmp = todo[bold].with_name(todo[bold].name + f".{os.getpid()}.tmp")
                shutil.copyfile(cut, tmp)
                os.replace(tmp, todo[bold])
        for bold, path in todo.items():
            _subsets[(bold, chars)] = path  # the file is there now: remember it

    return done


#: Subsets started by :func:`prepare_pdf_subsets_early`, not asked for yet: (bold, characters)
#: → (the file being cut, the function waiting for it).
_early: dict[tuple[bool, frozenset[str]], tuple[Path, Callable[[], Any]]] = {}
_scratch_dir: Path | None = None


def prepare_pdf_subsets_early(extra: str, keep: Path) -> None:
    """Start cutting the regular and bold subsets of :func:`pdf_subset_path` for ``extra`` on the
    drawing processes now, into a temporary folder (removed at exit: nothing is written where
    outputs go before the command succeeds), and return at once; those that ``keep`` (the subset
    folder a later :func:`keep_subsets_in` will name, e.g. a render cache's) holds already are
    not cut. A later :func:`prepare_pdf_subsets_later` for the same characters cuts nothing: it
    waits for this cut and copies the files into its subset folder (the same bytes as cut there).
    E.g. a build starts this as soon as its data is parsed, while its own process checks the
    data's texts (one core) and the drawing processes would idle. With one drawing process
    nothing is started (it would only move the work).

    Raises:
        FontError: the font package is missing.
    """
    import atexit
    import tempfile

    from pipeline.render.parallel import call_all_later, workers

    global _scratch_dir
    if workers() <= 1:
        return
    chars = _chars(extra)
    text = "".join(sorted(chars))
    for bold in (False, True):
        if (bold, chars) in _subsets or (bold, chars) in _early or _subset_file(bold, chars, keep).is_file():
            continue
        if _scratch_dir is None:
            _scratch_dir = Path(tempfile.mkdtemp(prefix="gunbai-fonts-early-"))
            atexit.register(shutil.rmtree, _scratch_dir, True)
        path = _subset_file(bold, chars, _scratch_dir)
        _early[(bold, chars)] = (path, call_all_later(make_subset_file, [(bold, text, str(path))]))


def make_subset_file(bold: bool, text: str, out: str) -> None:
    """Write the subset of the regular or bold font holding the characters of ``text`` to the
    file ``out`` (atomically): what :func:`prepare_pdf_subsets` runs in a drawing process.

    Raises:
        FontError: the font package is missing.
    """
    _make_subset(bold, frozenset(text), Path(out))
