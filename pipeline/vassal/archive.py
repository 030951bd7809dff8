"""Deterministic ZIP writing and defensive ZIP/XML reading for VASSAL archives.

Writing (``vassal-format.md`` §1, §4.1): entries in a fixed order (``buildFile.xml``,
``moduledata``, then the rest sorted by name), all DEFLATED, fixed timestamps (from
``SOURCE_DATE_EPOCH`` when set, else a date the caller gives), fixed permissions, no data
descriptors (§4.1: ``ZipInputStream`` needs that for STORED entries), and atomic replacement
of the target file.

Reading untrusted archives: :func:`open_archive` rejects anything that is not a ZIP, unsafe entry
names, too many entries and methods Java cannot read; :meth:`Archive.read` enforces budgets of
decompressed bytes, per entry and in total, while it inflates (never trusting the headers), so a
zip bomb is stopped after at most the budget and no legitimate entry is refused for compressing
well (a blank 800 x 600 BMP packs about 992:1); :func:`parse_xml` refuses DOCTYPE/entity
declarations. Every failure is a :class:`VassalFormatError` naming the entry.
"""

from __future__ import annotations

import io
import os
import re
import time
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

if TYPE_CHECKING:
    from .buildfile import BuildFile, Module
    from .save import SaveGame

__all__ = [
    "DEFAULT_EPOCH",
    "FIRST_ENTRIES",
    "Archive",
    "Limits",
    "VassalFormatError",
    "archive_bytes",
    "check_entry_name",
    "module_entries",
    "open_archive",
    "parse_xml",
    "resolve_epoch",
    "write_archive_atomic",
    "write_module",
]

#: Entries written first, in this order; the rest follow sorted.
FIRST_ENTRIES = ("buildFile.xml", "moduledata")
#: 2025-01-01T00:00:00Z, the default fixed date when neither caller nor environment gives one.
DEFAULT_EPOCH = 1735689600
_ZIP_MIN_EPOCH = 315532800  # 1980-01-01, the earliest date a ZIP header can hold
#: 2107-12-31T23:59:59Z, the latest date a ZIP header can hold (its year field is 1980 + 0..127).
ZIP_MAX_EPOCH = 4354819199


class VassalFormatError(ValueError):
    """A malformed or unsafe VASSAL archive or entry. ``entry`` names the archive entry."""

    def __init__(self, message: str, entry: str | None = None) -> None:
        self.entry = entry
        self.message = message
        super().__init__(f"{entry}: {message}" if entry else message)


def resolve_epoch(default_epoch: int = DEFAULT_EPOCH) -> int:
    """Seconds since the epoch for timestamps: ``SOURCE_DATE_EPOCH`` if set, else
    ``default_epoch``.

    Raises:
        ValueError: ``SOURCE_DATE_EPOCH`` is set but not a whole number of seconds from 0 to
            :data:`ZIP_MAX_EPOCH` (the last second a ZIP entry's date can hold).
    """
    env = os.environ.get("SOURCE_DATE_EPOCH")
    if env is None or env == "":
        return int(default_epoch)
    if not re.fullmatch(r"[0-9]{1,12}", env) or int(env) > ZIP_MAX_EPOCH:
        raise ValueError(f"SOURCE_DATE_EPOCH={env!r} is not valid; expected a whole number of seconds "
                         f"since 1970-01-01 UTC from 0 to {ZIP_MAX_EPOCH} (2107-12-31, the last date a ZIP archive holds)")
    return int(env)


def resolve_date_saved_ms(default_ms: int) -> int:
    """``dateSaved`` for metadata, in ms since the epoch: ``SOURCE_DATE_EPOCH`` (seconds) when
    set, else ``default_ms`` (the date the data gives, for reproducible builds).

    Raises:
        ValueError: ``SOURCE_DATE_EPOCH`` is set but not a non-negative integer.
    """
    env = os.environ.get("SOURCE_DATE_EPOCH")
    if env is None or env == "":
        return int(default_ms)
    return resolve_epoch() * 1000


_BAD_NAME = re.compile(r"(^|/)\.\.?(/|$)")


def check_entry_name(name: str) -> str:
    """Validate an archive entry name: relative, ``/``-separated, no ``..``/``.`` segments, no
    backslash, drive letter, NUL or empty segment (§1, §8 item 1).

    Raises:
        VassalFormatError: naming the entry.
    """
    if not name:
        raise VassalFormatError("empty entry name")
    if "\\" in name:
        raise VassalFormatError("entry name contains a backslash", name)
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        raise VassalFormatError("entry name is an absolute path", name)
    if _BAD_NAME.search(name) or ".." in name.split("/"):
        raise VassalFormatError("entry name contains a '..' or '.' segment", name)
    if "\x00" in name or "//" in name:
        raise VassalFormatError("entry name contains NUL or an empty segment", name)
    return name


def _ordered(names: list[str]) -> list[str]:
    first = [n for n in FIRST_ENTRIES if n in names]
    return first + sorted(n for n in names if n not in FIRST_ENTRIES)


#: Entries stored as they are: already compressed formats gain nothing from a second deflate
#: (a PNG's zlib stream deflates by under 1 %) and cost its time.
STORED_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif")


def archive_bytes(entries: Mapping[str, bytes], epoch: int | None = None) -> bytes:
    """Build a deterministic ZIP in memory: images (:data:`STORED_SUFFIXES`) stored, every other
    entry deflated at level 9.

    Args:
        entries: archive path -> content. Directory entries are not written (§1).
        epoch: timestamp for every entry (seconds, UTC); default :func:`resolve_epoch`.

    Raises:
        VassalFormatError: for an unsafe entry name.
    """
    stamp = resolve_epoch() if epoch is None else int(epoch)
    if not 0 <= stamp <= ZIP_MAX_EPOCH:
        raise VassalFormatError(f"archive date {stamp} s is outside 0..{ZIP_MAX_EPOCH} (1970 to 2107, what a ZIP entry can hold)")
    date_time = time.gmtime(max(stamp, _ZIP_MIN_EPOCH))[:6]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in _ordered(list(entries)):
            check_entry_name(name)
            if name.endswith("/"):
                raise VassalFormatError("directory entries are not written", name)
            info = zipfile.ZipInfo(name, date_time=date_time)
            method = zipfile.ZIP_STORED if name.lower().endswith(STORED_SUFFIXES) else zipfile.ZIP_DEFLATED
            info.compress_type = method
            info.create_system = 3
            info.external_attr = (0o100644 << 16)
            zf.writestr(info, bytes(entries[name]), compress_type=method,
                        compresslevel=9 if method == zipfile.ZIP_DEFLATED else None)
    return buf.getvalue()


def write_archive_atomic(path: str | os.PathLike[str], entries: Mapping[str, bytes],
                         epoch: int | None = None) -> Path:
    """Write :func:`archive_bytes` to ``path`` atomically: a temporary file in the same
    directory, fsynced, then ``os.replace``; on any error the target is left untouched.

    Returns the target path."""
    data = archive_bytes(entries, epoch)
    return _replace_atomic(Path(path), data)


def _replace_atomic(target: Path, data: bytes) -> Path:
    from pipeline.output import write_bytes_atomic

    return write_bytes_atomic(target, data)


def module_entries(module: Module, *, images: Mapping[str, bytes] | None = None,
                   files: Mapping[str, bytes] | None = None,
                   setups: Mapping[str, SaveGame] | None = None,
                   default_epoch: int = DEFAULT_EPOCH,
                   save_key: int = 0xAA) -> tuple[dict[str, bytes], BuildFile]:
    """All entries of a ``.vmod`` (§1): ``buildFile.xml``, ``moduledata``, ``images/<name>``,
    other ``files`` by archive path, and each setup ``.vsav`` at its archive path.

    Returns ``(entries, buildfile)``; ``buildfile.gpids`` gives the slot gpids.

    Raises:
        ValueError: a PredefinedSetup file has no content (in ``setups`` or ``files``), a setup
            save is for another module name, or two sources give the same entry.
    """
    from .buildfile import write_buildfile, write_moduledata

    epoch = resolve_epoch(default_epoch)
    date_ms = module.date_saved_ms if module.date_saved_ms is not None else epoch * 1000
    build = write_buildfile(module)
    moduledata = write_moduledata(module, date_ms)
    entries: dict[str, bytes] = {"buildFile.xml": build.xml, "moduledata": moduledata}

    def put(name: str, data: bytes) -> None:
        check_entry_name(name)
        if name in entries:
            raise ValueError(f"archive entry {name!r} given twice")
        entries[name] = bytes(data)

    for name, data in sorted((images or {}).items()):
        put("images/" + name, data)
    for name, data in sorted((files or {}).items()):
        put(name, data)
    for name, save in sorted((setups or {}).items()):
        if save.module_name != module.name:
            raise ValueError(f"setup {name!r} is for module {save.module_name!r}")
        put(name, save.to_bytes(moduledata=moduledata, key=save_key, epoch=epoch,
                                date_saved_ms=date_ms))
    for name in module.setup_files():
        if name not in entries:
            raise ValueError(f"PredefinedSetup file {name!r} has no content")
    return entries, build


def write_module(path: str | os.PathLike[str], module: Module,
                 files: Mapping[str, bytes] | None = None,
                 setups: Mapping[str, SaveGame] | None = None, *,
                 images: Mapping[str, bytes] | None = None,
                 default_epoch: int = DEFAULT_EPOCH, save_key: int = 0xAA,
                 validate: bool = True) -> BuildFile:
    """Write a complete ``.vmod`` atomically (see :func:`module_entries`).

    With ``validate`` (default) the archive bytes are linted (:func:`pipeline.vassal.lint.
    lint_bytes`) before anything is written, and any error-severity finding raises.

    Returns the :class:`BuildFile` (gpids per slot key).

    Raises:
        ValueError: as :func:`module_entries`, or lint errors (message lists them).
    """
    entries, build = module_entries(module, images=images, files=files, setups=setups,
                                    default_epoch=default_epoch, save_key=save_key)
    data = archive_bytes(entries, resolve_epoch(default_epoch))
    if validate:
        from .lint import lint_bytes

        errors = [f for f in lint_bytes(data, name=str(path)) if f.severity == "error"]
        if errors:
            raise ValueError("module fails lint:\n" + "\n".join(str(f) for f in errors))
    _replace_atomic(Path(path), data)
    return build


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Limits:
    """Budgets for reading untrusted archives: ``max_entries`` entries; ``max_entry_size``
    decompressed bytes of one entry and ``max_total_size`` decompressed bytes read from the
    whole archive (both counted as the bytes come out of the inflater, :meth:`Archive.read`).

    A budget of bytes, not a compression ratio, is what bounds a zip bomb's cost; a ratio
    refuses legitimate flat images (a blank BMP packs about 1000:1)."""

    max_entries: int = 10_000
    max_entry_size: int = 64 * 1024 * 1024
    max_total_size: int = 512 * 1024 * 1024


#: Bytes an :class:`Archive` keeps of what it has inflated, for entries read again (32 MiB):
#: a module of 155 MB with 190 setups would otherwise hold every setup it read.
CACHE_BUDGET = 32 * 1024 * 1024


@dataclass
class Archive:
    """An opened archive: ``names`` in stored order; :meth:`read` enforces the size limits.

    What :meth:`read` inflates is kept for the next read of the same entry (the buildFile,
    the images and class files two checks read) up to :data:`CACHE_BUDGET` bytes in all; an
    entry read only once on purpose (a setup or ``savedGame`` of a module with hundreds of
    them) is read with ``keep=False`` and never held."""

    zf: zipfile.ZipFile
    limits: Limits
    names: list[str]
    _total_read: int = 0
    _cache: dict[str, bytes] = field(default_factory=dict)
    _cached: int = 0
    #: each of ``names`` and its entry (a name as Java reads it may differ from ``filename``)
    infos: dict[str, zipfile.ZipInfo] = field(default_factory=dict, repr=False)
    #: ``names`` as a set: a module holds thousands of entries and lint asks for each one
    _name_set: frozenset[str] = field(default=frozenset(), init=False, repr=False)

    def __post_init__(self) -> None:
        self._name_set = frozenset(self.names)
        if not self.infos:
            self.infos = {name: self.zf.getinfo(name) for name in self.names}

    def __contains__(self, name: object) -> bool:
        return name in self._name_set

    def read(self, name: str, *, keep: bool = True) -> bytes:
        """The content of entry ``name``, inflating at most its budget: the smallest of its
        declared size, ``max_entry_size`` and what is left of ``max_total_size`` (never trusting
        the header: an entry that inflates beyond its declared size is refused too).

        ``keep``: hold the bytes for the next read while the archive's cache is under
        :data:`CACHE_BUDGET` (False: the caller reads it once; a later read inflates it again
        and counts again against ``max_total_size``).

        Raises:
            VassalFormatError: missing entry, or one beyond its declared size or the budgets.
        """
        if name in self._cache:
            return self._cache[name]
        if name not in self._name_set:
            raise VassalFormatError("entry not found", name)
        info = self.infos[name]
        lim = self.limits
        if info.file_size > lim.max_entry_size:
            raise VassalFormatError(
                f"declares {info.file_size} bytes decompressed, beyond the budget of "
                f"{lim.max_entry_size} bytes per entry (not read)", name)
        left = lim.max_total_size - self._total_read
        if info.file_size > left:
            raise VassalFormatError(
                f"declares {info.file_size} bytes decompressed, beyond the {left} bytes left of "
                f"the archive's budget of {lim.max_total_size} (not read)", name)
        cap = info.file_size
        try:
            with self.zf.open(info) as fh:
                # one read of at most cap + 1 bytes: zlib inflates no more than that (its
                # max_length), and an entry that reaches cap + 1 is refused; one call, so a
                # large save is not inflated in chunks and joined again
                data = fh.read(cap + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            raise VassalFormatError(f"entry cannot be read: {exc}", name) from None
        size = len(data)
        if size > cap:
            raise VassalFormatError(
                f"entry inflates beyond its declared size of {cap} bytes (a lying header: "
                "stopped there)", name)
        self._total_read += size
        if keep and self._cached + size <= CACHE_BUDGET:
            self._cache[name] = data
            self._cached += size
        return data

    def read_head(self, name: str, size: int) -> bytes:
        """The first ``size`` bytes of entry ``name`` (all of it when shorter), inflating no more
        than that; a cached whole entry is sliced.

        Raises:
            VassalFormatError: missing or unreadable entry.
        """
        if name in self._cache:
            return self._cache[name][:size]
        if name not in self._name_set:
            raise VassalFormatError("entry not found", name)
        try:
            with self.zf.open(self.infos[name]) as fh:
                return fh.read(size)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            raise VassalFormatError(f"entry cannot be read: {exc}", name) from None

    def read_xml(self, name: str) -> etree._Element:
        """Parse entry ``name`` with :func:`parse_xml`."""
        return parse_xml(self.read(name), name)

    def close(self) -> None:
        self.zf.close()

    def __enter__(self) -> Archive:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def java_name(info: zipfile.ZipInfo) -> str:
    """An entry's name as VASSAL reads it. Java's ``ZipFile(File)`` reads every name as UTF-8,
    whether or not the entry sets the UTF-8 flag (general purpose bit 11); Python reads a name
    without the flag as CP437. So a name a tool wrote as UTF-8 without the flag (Info-ZIP's
    ``zip`` outside a UTF-8 locale) is ``images/ldr_PRU_Blücher.png`` for VASSAL and
    ``images/ldr_PRU_Bl├╝cher.png`` for Python: this gives the first. A name without the flag
    that is no UTF-8 (CP437 from an old tool) stays as Python reads it: Java refuses such an
    archive whole ("invalid CEN header (bad entry name)"), which lint reports
    (:class:`~.refs.ArchiveNames`)."""
    name = info.filename
    if info.flag_bits & 0x800 or name.isascii():
        return name
    try:
        return name.encode("cp437").decode("utf-8")
    except UnicodeError:
        return name


def _not_zip(source: Any, exc: Exception) -> str:
    """Why ``source`` is not read as a ZIP archive: one that begins as a ZIP archive but has no
    end (its central directory is at the end) was cut short, e.g. by a download or a copy
    that stopped."""
    try:
        if isinstance(source, bytes | bytearray | memoryview):
            head = bytes(source[:4])
        else:
            with open(os.fspath(source), "rb") as fh:
                head = fh.read(4)
    except OSError:
        head = b""
    if head == b"PK\x03\x04":
        return f"a ZIP archive cut short: it begins as one but its end is missing (a download or copy that stopped?) ({exc})"
    return f"not a ZIP archive ({exc})"


def open_archive(source: str | os.PathLike[str] | bytes, limits: Limits | None = None) -> Archive:
    """Open an untrusted ``.vmod``/``.vsav``/``.vmdx`` for reading.

    Checks, before any entry is read: it is a ZIP; at most ``max_entries`` entries; every name
    passes :func:`check_entry_name` and is unique; only STORED/DEFLATED, unencrypted entries
    (§1). Sizes are budgets of :meth:`Archive.read` (an entry over budget is refused when it is
    read, and the other entries can still be read).

    Raises:
        VassalFormatError: naming the offending entry where there is one.
    """
    lim = limits or Limits()
    try:
        if isinstance(source, bytes | bytearray | memoryview):
            zf = zipfile.ZipFile(io.BytesIO(bytes(source)))
        else:
            if not os.path.isfile(os.fspath(source)):
                raise VassalFormatError("not a regular file (a folder, a device or missing)")
            zf = zipfile.ZipFile(os.fspath(source))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise VassalFormatError(_not_zip(source, exc)) from None
    except OSError as exc:
        raise VassalFormatError(f"cannot open archive: {exc}") from None
    try:
        infos = zf.infolist()
        if len(infos) > lim.max_entries:
            raise VassalFormatError(f"archive has {len(infos)} entries (limit {lim.max_entries})")
        names: list[str] = []
        by_name: dict[str, zipfile.ZipInfo] = {}
        seen: set[str] = set()
        for info in infos:
            name = java_name(info)
            check_entry_name(name.rstrip("/") if info.is_dir() else name)
            if name in seen:
                raise VassalFormatError("duplicate entry name", name)
            seen.add(name)
            if info.flag_bits & 0x1:
                raise VassalFormatError("entry is encrypted", name)
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise VassalFormatError(
                    f"compression method {info.compress_type} is not STORED/DEFLATED; "
                    "Java cannot read it (§1)", name)
            if not info.is_dir():
                names.append(name)
                by_name[name] = info
        return Archive(zf, lim, names, infos=by_name)
    except BaseException:
        zf.close()
        raise


_DTD_MARKERS = (b"<!DOCTYPE", b"<!ENTITY", b"<!doctype", b"<!entity")


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           huge_tree=False, dtd_validation=False, remove_blank_text=False)


#: the largest text or attribute value the XML reader takes (libxml2 without XML_PARSE_HUGE)
XML_VALUE_LIMIT_MB = 10


def _syntax_message(exc: etree.XMLSyntaxError) -> str:
    """One line for a parse failure: the parser's message with its position; a value beyond
    the reader's size limit said in our words (the parser's own text suggests an option)."""
    line, column = getattr(exc, "position", (exc.lineno, 0)) or (0, 0)
    text = " ".join(str(getattr(exc, "msg", "") or exc).split())
    if "XML_PARSE_HUGE" in text or "limit exceeded" in text.lower():
        return (f"a text or attribute value at line {line}, column {column} is larger than "
                f"{XML_VALUE_LIMIT_MB} MB, the most gunbai reads of one value: not checked")
    text = text.split(" (<string>", 1)[0].split(", line ", 1)[0]
    return f"malformed XML: {text} (line {line}, column {column})"


def parse_xml(data: bytes, entry: str | None = None) -> etree._Element:
    """Parse untrusted XML bytes safely: no DTD loading, no network, no entity expansion, no
    huge trees; any DOCTYPE or ENTITY declaration is rejected outright.

    Raises:
        VassalFormatError: naming ``entry``, for declarations or malformed XML.
    """
    probe = data
    for enc in ("utf-16", "utf-32"):
        if data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff") or data[:2] in (
            b"\xff\xfe", b"\xfe\xff"
        ):
            try:
                probe = data.decode(enc).encode("utf-8")
            except UnicodeDecodeError:
                pass
            break
    if any(marker in probe for marker in _DTD_MARKERS):
        raise VassalFormatError("XML contains a DOCTYPE or ENTITY declaration (refused)", entry)
    try:
        root = etree.fromstring(data, parser=_parser())
    except etree.XMLSyntaxError as exc:
        raise VassalFormatError(_syntax_message(exc), entry) from None
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        raise VassalFormatError("XML contains a DOCTYPE (refused)", entry)
    for node in root.iter():
        if isinstance(node, etree._Entity):
            raise VassalFormatError("XML contains an entity reference (refused)", entry)
    return root
