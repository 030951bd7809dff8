"""Writing outputs so that nothing is ever half-written, and a failed build changes nothing.

Two levels:

- **One file**: :func:`write_bytes_atomic` writes to a temporary file in the same folder and
  renames it over the target (``os.replace`` is atomic on POSIX and Windows).
- **A whole command**: inside ``with Transaction(out_root):`` every write under ``out_root``
  (through :func:`write_bytes_atomic`, :func:`write_images`, :func:`remove`) is *staged* in a
  hidden folder ``out_root/.staging-<pid>-*/`` and nothing in ``out_root`` changes. Only when
  the whole command succeeded are the staged files swapped in, with Ctrl-C held back until the
  swap is done. If anything fails (bad data in another system, a lint error, Ctrl-C) the staged
  files are dropped and every output stays as it was.
- **The swap itself** is all or nothing too (:meth:`Transaction.commit`): every rename is
  prepared first (the folders made, each file to be replaced or deleted hard-linked into the
  staging folder, a journal of the moves written), then the files are renamed into place; when
  one rename fails (a folder made read-only or immutable, a disk full) the ones done are
  renamed back and the error names the file. A run killed during the swap leaves its journal:
  the next run over the same folder puts the previous outputs back, and removes any staging
  folder whose owner no longer runs (each process holds a lock on its staging folder while it
  lives; two commands over one output folder swap in turn).

A file whose bytes are already there is not written at all, so an unchanged output keeps its
modification time.

Example::

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> with Transaction(root) as tx:
    ...     _ = write_bytes_atomic(root / "a" / "x.txt", b"hello")
    ...     (root / "a").exists()
    False
    >>> (root / "a" / "x.txt").read_bytes()
    b'hello'
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import threading
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import GunbaiError

try:  # POSIX: a staging folder's lock says its process still runs
    import fcntl
except ImportError:  # pragma: no cover - Windows: the process id alone says it
    fcntl = None  # type: ignore[assignment]

#: In a staging folder: the moves of a swap under way (removed when the swap is done).
JOURNAL_FILE = "journal.json"

_current: ContextVar[Transaction | None] = ContextVar("gunbai_transaction", default=None)
#: The last transaction of this process (for :func:`interrupted_message`).
_last: list[Transaction] = []


@dataclass
class Transaction:
    """Every output a command writes under ``root``, staged, then swapped in on success.

    Use as a context manager: leaving the block normally commits, leaving it by an exception
    (including ``KeyboardInterrupt``) rolls back. Not thread-safe; one per command.

    Attributes:
        root: the output folder (``build/``); writes outside it are not staged.
        changed: after commit, the files replaced or created, in order.
        removed: after commit, the files deleted.
        state: ``"open"``, ``"committed"`` or ``"rolled back"``.
    """

    root: Path
    changed: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    state: str = "open"
    #: every path written in this transaction (staged, or already holding the bytes)
    touched: set[Path] = field(default_factory=set)
    _staged: dict[Path, Path] = field(default_factory=dict, repr=False)
    _deletes: set[Path] = field(default_factory=set, repr=False)
    _stage_dir: Path | None = field(default=None, repr=False)
    _lock: object = field(default=None, repr=False)
    _token: object = field(default=None, repr=False)

    # -- context ---------------------------------------------------------------------------------

    def __enter__(self) -> Transaction:
        self.root = Path(self.root)
        _clean_stale_stages(self.root)
        self._token = _current.set(self)
        _last[:] = [self]
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        _current.reset(self._token)  # type: ignore[arg-type]
        if exc_type is None:
            self.commit()
        else:
            self.rollback()

    # -- staging ---------------------------------------------------------------------------------

    def written_under(self, folder: Path) -> list[Path]:
        """The paths written in this transaction under ``folder``, sorted."""
        base = Path(os.path.abspath(folder))
        return sorted(p for p in self.touched if p.is_relative_to(base))

    def covers(self, path: Path) -> bool:
        """True when ``path`` is under :attr:`root` (so its write is staged)."""
        try:
            Path(os.path.abspath(path)).relative_to(os.path.abspath(self.root))
        except ValueError:
            return False
        return True

    def _key(self, path: Path) -> Path:
        return Path(os.path.abspath(path))

    def write(self, path: Path, data: bytes) -> Path:
        """Stage ``data`` for ``path`` (nothing is staged when the file already holds it).

        Returns:
            ``path``.
        """
        key = self._key(path)
        self._deletes.discard(key)
        self.touched.add(key)
        old = self._staged.pop(key, None)
        if old is not None:
            old.unlink(missing_ok=True)
        if _same_bytes(path, data):
            return path
        fd, tmp = tempfile.mkstemp(dir=self._stage(), suffix=".part")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, 0o644)
        except OSError as exc:  # a full disk: the message names the output, not the staged copy
            os.unlink(tmp)
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        self._staged[key] = Path(tmp)
        return path

    def delete(self, path: Path) -> None:
        """Remove ``path`` at commit (if it exists then)."""
        key = self._key(path)
        old = self._staged.pop(key, None)
        if old is not None:
            old.unlink(missing_ok=True)
        self._deletes.add(key)
        self.touched.discard(key)

    def staged_bytes(self, path: Path) -> bytes | None:
        """The bytes staged for ``path``, or None when nothing is staged for it."""
        tmp = self._staged.get(self._key(path))
        return tmp.read_bytes() if tmp is not None else None

    def size_of(self, path: Path) -> int:
        """Size of ``path`` as it will be after commit (staged, else on disk).

        Raises:
            FileNotFoundError: nothing is staged for it and it does not exist.
        """
        tmp = self._staged.get(self._key(path))
        return (tmp if tmp is not None else Path(path)).stat().st_size

    @property
    def pending(self) -> int:
        """How many files would change at commit."""
        return len(self._staged) + sum(1 for p in self._deletes if p.exists())

    # -- ending ----------------------------------------------------------------------------------

    def _stage(self) -> Path:
        """The staging folder, made (and locked) at the first staged write."""
        if self._stage_dir is None:
            self.root.mkdir(parents=True, exist_ok=True)
            self._stage_dir = Path(tempfile.mkdtemp(prefix=f".staging-{os.getpid()}-", dir=self.root))
            self._lock = _FolderLock(self._stage_dir, wait=False)
            self._lock.__enter__()
        return self._stage_dir

    def commit(self) -> None:
        """Swap every staged file into place and apply the deletions, all or nothing, with
        SIGINT and SIGTERM held back until done (a Ctrl-C then arrives after the swap).

        First every move is prepared (parent folders made, every file to be replaced or deleted
        hard-linked, or else copied, into the staging folder, the journal written): a failure
        there changes no output. Then each staged file is renamed over its target and each
        deleted file renamed away; when one fails, the ones done are put back.

        Raises:
            GunbaiError: a file could not be swapped in (one line naming it and why); every
                output is as it was before the command.
        """
        if self.state != "open":
            return
        with _signals_held(), _FolderLock(self.root):
            if self._staged or any(p.is_file() for p in self._deletes):
                self._swap()
            self._staged.clear()
            self._deletes.clear()
            self._drop_stage()
            self.state = "committed"

    def _swap(self) -> None:
        stage = self._stage()
        previous = stage / "previous"
        made: list[Path] = []  # folders this swap created, outermost first
        moves: list[dict] = []  # {"target", "new" (staged file) or None, "old" (kept copy) or None}
        real_root = Path(os.path.realpath(self.root))
        for target in [*self._staged, *self._deletes]:
            real = Path(os.path.realpath(target.parent))
            if not real.is_relative_to(real_root):  # a link in the outputs leading elsewhere (the data)
                self.rollback()
                raise GunbaiError(f"{target.parent}: leads outside {self.root} (to {real}, through a link); gunbai writes only inside "
                                  f"its output folder: remove the link, or choose another --out; nothing written")
        try:
            previous.mkdir(exist_ok=True)
            for target, tmp in self._staged.items():
                made += _make_folders(target.parent)
                moves.append({"target": str(target), "new": str(tmp), "old": _keep(target, previous, len(moves))})
            for target in sorted(self._deletes):
                if target.is_file():
                    moves.append({"target": str(target), "new": None, "old": _keep(target, previous, len(moves))})
            _write_journal(stage, moves, made)
        except OSError as exc:
            _remove_folders(made)
            self._fail(exc, "preparing the swap", restored=True)
        done = 0
        try:
            for move in moves:
                if move["new"] is not None:
                    os.replace(move["new"], move["target"])
                else:
                    os.unlink(move["target"])  # its previous bytes are kept (move["old"])
                done += 1
        except OSError as exc:
            restored = _undo(moves[:done], made)
            self._fail(exc, "swapping the files in", restored=restored, where=moves[done]["target"])
        for move in moves:
            (self.changed if move["new"] is not None else self.removed).append(Path(move["target"]))
        (stage / JOURNAL_FILE).unlink()  # the swap is done: nothing to undo from here on

    def _fail(self, exc: OSError, step: str, *, restored: bool, where: str | None = None) -> None:
        where = where or exc.filename or str(self.root)
        if restored:
            self._drop_stage()
            self.state = "rolled back"
            kept = f"every file in {self.root} is as it was"
        else:  # the journal stays: the next run puts back what it can (and says so if it cannot)
            kept = f"some could not be put back: the next gunbai run over {self.root} puts them back from {self._stage_dir}"
            self._stage_dir = None
            self._drop_stage()
            self.state = "failed"
        raise GunbaiError(f"{where}: cannot be written ({exc.strerror or exc}) while {step}; {kept}") from exc

    def rollback(self) -> None:
        """Drop every staged file: the outputs stay as they were."""
        if self.state != "open":
            return
        self._staged.clear()
        self._deletes.clear()
        self._drop_stage()
        self.state = "rolled back"

    def _drop_stage(self) -> None:
        if self._stage_dir is not None:
            shutil.rmtree(self._stage_dir, ignore_errors=True)
            self._stage_dir = None
        if self._lock is not None:
            self._lock.__exit__()  # type: ignore[attr-defined]
            self._lock = None


def _make_folders(folder: Path) -> list[Path]:
    """Make ``folder`` and its missing parents; the ones made, outermost first.

    Raises:
        OSError: one cannot be made (a file in the way, no permission).
    """
    missing = []
    while not folder.is_dir():
        missing.append(folder)
        folder = folder.parent
    for f in reversed(missing):
        f.mkdir()
    return list(reversed(missing))


def _remove_folders(folders: list[Path]) -> None:
    for f in reversed(folders):
        try:
            f.rmdir()
        except OSError:
            pass


def _keep(target: Path, previous: Path, n: int) -> str | None:
    """Keep the file ``target`` holds now in ``previous/`` (a hard link, or a copy with its
    modification time where links are not possible) so a swap can put it back; None when there
    is none.

    Raises:
        OSError: it can be neither linked nor copied, or ``target`` is a folder.
    """
    if not os.path.lexists(target):
        return None
    if target.is_dir() and not target.is_symlink():
        raise IsADirectoryError(21, "a folder is where the file goes", str(target))
    kept = previous / str(n)
    try:
        os.link(target, kept, follow_symlinks=False)
    except OSError:
        shutil.copy2(target, kept, follow_symlinks=False)
    return str(kept)


def _write_journal(stage: Path, moves: list[dict], made: list[Path]) -> None:
    data = json.dumps({"moves": moves, "made": [str(f) for f in made]}).encode("utf-8")
    tmp = stage / (JOURNAL_FILE + ".part")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, stage / JOURNAL_FILE)


def _undo(moves: list[dict], made: list[Path]) -> bool:
    """Put back what ``moves`` replaced or deleted (each target gets its kept previous file, or
    is removed when it had none), last first, and remove the folders made. True when every one
    was put back."""
    ok = True
    for move in reversed(moves):
        try:
            if move["old"] is not None:
                if os.path.lexists(move["old"]):
                    os.replace(move["old"], move["target"])
            elif move["new"] is not None and os.path.lexists(move["target"]):
                os.unlink(move["target"])
        except OSError:
            ok = False
    _remove_folders(made)
    return ok


class _FolderLock:
    """An exclusive lock on a folder (``flock`` on the folder itself, POSIX; nothing elsewhere)
    for the duration of the block: a staging folder's process holds its lock for as long as it
    lives, and a swap holds the output folder's, so two commands over one output folder swap
    in turn, each whole, and neither takes the other's staging folder for a killed run's.

    Raises:
        BlockingIOError: ``wait=False`` and another process holds it.
    """

    def __init__(self, folder: Path, *, wait: bool = True):
        self.folder, self.wait, self.fd = Path(folder), wait, None
        #: whether the lock is held (False where folders cannot be locked)
        self.locked = False

    def __enter__(self) -> _FolderLock:
        if fcntl is None:
            return self
        try:
            self.fd = os.open(self.folder, os.O_RDONLY)
        except OSError:
            return self  # nothing to lock (not there, not readable): the swap reports it
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
            self.locked = True
        except BlockingIOError:
            self.__exit__()
            raise
        except OSError:
            self.__exit__()  # a file system without locks
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        self.locked = False


def interrupted_message() -> str:
    """What a Ctrl-C left behind, in words: nothing written (the previous outputs kept, and the
    images drawn so far kept in the render cache) or everything written."""
    tx = _last[0] if _last else None
    if tx is None:
        return "nothing was written"
    if tx.state == "committed":
        return f"every output was already written to {tx.root}"
    tx.rollback()
    from pipeline.render import cache

    drawn = cache.drawn_total
    kept = f"; the {drawn} image(s) drawn so far are kept in the render cache, so the next run does not draw them again" if drawn else ""
    return f"nothing was written: {tx.root} keeps its previous outputs{kept}"


def kept_after_error() -> str:
    """What an error that ended the command left of the outputs, for its message: ``"; nothing
    written: build keeps its previous outputs"`` when the command's transaction was rolled back,
    else nothing."""
    tx = _last[0] if _last else None
    if tx is not None and tx.state == "rolled back":
        return f"; nothing written: {tx.root} keeps its previous outputs"
    return ""


def current() -> Transaction | None:
    """The transaction of the running command, if any."""
    return _current.get()


def _clean_stale_stages(root: Path) -> None:
    """Remove the ``.staging-<pid>-*`` folders of processes that no longer run (killed), first
    putting back the previous outputs of a swap such a process left half done (its journal).

    Raises:
        GunbaiError: a killed swap's outputs cannot be put back (naming the folder).
    """
    if not root.is_dir():
        return
    with _FolderLock(root):
        for d in sorted(root.glob(".staging-*")):
            if not d.is_dir() or _stage_in_use(d):
                continue
            journal = d / JOURNAL_FILE
            if journal.is_file():
                try:
                    record = json.loads(journal.read_text(encoding="utf-8"))
                    ok = _undo(record["moves"], [Path(f) for f in record["made"]])
                except (OSError, ValueError, KeyError, TypeError):
                    ok = False
                if not ok:
                    raise GunbaiError(f"{d}: a killed gunbai run left its swap half done and its previous outputs cannot all be put back; "
                                      f"restore {root} from {d / 'previous'} by hand (see {journal}), then delete {d}")
            shutil.rmtree(d, ignore_errors=True)


def _stage_in_use(stage: Path) -> bool:
    """True when the process that made ``stage`` still runs: it holds the folder's lock (POSIX),
    or (elsewhere) a process of that id exists."""
    try:
        with _FolderLock(stage, wait=False) as lock:
            if lock.locked:
                return False
    except BlockingIOError:
        return True
    pid = stage.name.split("-")[1] if stage.name.count("-") >= 2 else ""
    return not pid.isdigit() or _alive(int(pid))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _signals_held:
    """Hold SIGINT and SIGTERM back (main thread, POSIX) for the duration of the block."""

    SIGNALS = {signal.SIGINT, signal.SIGTERM}

    def __enter__(self) -> None:
        self.active = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
        if self.active:
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGNALS)

    def __exit__(self, *exc) -> None:
        if self.active:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def _same_bytes(path: Path, data: bytes) -> bool:
    try:
        return path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def write_bytes_atomic(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path``: staged in the running :class:`Transaction` when ``path`` is
    under its root, else atomically now (temporary file in the same folder, then rename),
    creating the parent folders.

    Returns:
        ``path``.

    Raises:
        OSError: the folder cannot be created or written.
    """
    path = Path(path)
    tx = current()
    if tx is not None and tx.covers(path):
        return tx.write(path, data)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError) and exc.filename != str(path):  # name the file, not its temporary copy
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise
    return path


def remove(path: Path) -> None:
    """Delete ``path``: at commit inside a :class:`Transaction` covering it, else now."""
    tx = current()
    if tx is not None and tx.covers(path):
        tx.delete(path)
    else:
        Path(path).unlink(missing_ok=True)


def size_of(path: Path) -> int:
    """Size in bytes of ``path`` as written by this command (staged or on disk).

    Raises:
        FileNotFoundError: it was neither written nor exists.
    """
    tx = current()
    if tx is not None and tx.covers(path):
        return tx.size_of(path)
    return Path(path).stat().st_size


def check_overwrite(target: Path, option: str, *, kind: str, inputs: dict[str, Path | None], suffixes: tuple[str, ...] = (".yaml", ".yml"),
                    is_kind=None, force: bool = False, allowed: tuple[Path | None, ...] = ()) -> None:
    """Refuse to write ``target`` over one of the command's own ``inputs`` or over a file that
    is not ``kind`` (unless ``force``), before anything is read or written.

    Args:
        target: the file the command would write (``-o``).
        option: how the user gave it (``-o``, ``--draft-pieces``), for the message.
        kind: what the command writes (``a scenario file``).
        inputs: the command's inputs by option (``--module`` → path); a None is not given.
        suffixes: the file names ``kind`` takes.
        is_kind: ``path → bool``, True when the file there already is ``kind`` (so replacing it is
            the command's job); None: any file of a right suffix is.
        allowed: inputs ``target`` may be (``--base``: the scenario updated in place, its text
            kept).

    Raises:
        GunbaiError: one line naming the option, the file, what it is and the way out.
    """
    target = Path(target)
    way_out = f"choose another {option}, or pass --force to write over it"
    if target.is_dir():
        raise GunbaiError(f"{option} {target}: is a folder; expected the name of {kind}")
    if force:
        return
    allowed = tuple(a for a in allowed if a is not None)
    for what, path in inputs.items():
        if path is not None and not any(_same_file(path, a) for a in allowed) and _same_file(target, path):
            raise GunbaiError(f"{option} {target}: is the {what} file this command reads; writing there would destroy it: {way_out}")
    if target.suffix.lower() not in suffixes:
        raise GunbaiError(f"{option} {target}: expected the name of {kind} (ending {' or '.join(suffixes)}); choose another {option}, or pass --force to write it")
    if target.is_file() and is_kind is not None and not any(_same_file(target, a) for a in allowed) and not is_kind(target):
        raise GunbaiError(f"{option} {target}: holds {describe_file(target)}, not {kind}; {way_out}")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def describe_file(path: Path) -> str:
    """What a file holds, in words, from its first bytes: ``a zip archive (a VASSAL module,
    extension or saved game)``, ``a PNG image``, ``YAML with the keys units``…"""
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536)
    except OSError as exc:
        return f"a file that cannot be read ({exc.strerror})"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "a zip archive (a VASSAL module, extension or saved game)"
    if head.startswith(b"!VCSK"):
        return "a VASSAL saved game"
    for magic, what in ((b"\x89PNG", "a PNG image"), (b"%PDF", "a PDF document"), (b"\xff\xd8\xff", "a JPEG image")):
        if head.startswith(magic):
            return what
    if not head:
        return "nothing (an empty file)"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return "binary data"
    import yaml

    try:
        data = yaml.safe_load(text) if len(head) < 65536 else None
    except yaml.YAMLError:
        return "text that is not YAML"
    if isinstance(data, dict):
        keys = [str(k) for k in data][:4]
        return f"YAML with the keys {', '.join(keys)}" + (" …" if len(data) > 4 else "")
    return "text"


def write_images(folder: Path, images: dict) -> list[Path]:
    """Write a folder of PNG images so that it holds exactly ``images`` afterwards.

    Args:
        folder: e.g. ``build/genpei/images``.
        images: file name → PNG bytes or a PIL image (encoded deterministically).

    Returns:
        The paths of ``images``, sorted by name. A file whose bytes are already there is not
        rewritten (fast no-change builds); ``*.png`` files the data no longer makes are removed.
    """
    written = []
    for name, image in sorted(images.items()):
        if isinstance(image, bytes):
            data = image
        else:
            from pipeline.render.png import png_bytes

            data = png_bytes(image)
        written.append(write_bytes_atomic(folder / name, data))
    if folder.is_dir():
        for old in folder.glob("*.png"):
            if old.name not in images:
                remove(old)
    return written


def write_files(folder: Path, files: dict[str, bytes]) -> list[Path]:
    """Write ``files`` (name → bytes) into ``folder``; unchanged files are left alone. Returns
    the paths in the order given."""
    return [write_bytes_atomic(folder / name, data) for name, data in files.items()]
