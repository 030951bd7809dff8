"""Writing outputs so that nothing is ever half-written, and a failed build changes nothing.

Two levels:

- **One file**: :func:`write_bytes_atomic` writes to a temporary file in the same folder and
  renames it over the target (``os.replace`` is atomic on POSIX and Windows).
- **A whole command**: inside ``with Transaction(out_root):`` every write under ``out_root``
  (through :func:`write_bytes_atomic`, :func:`write_images`, :func:`remove`) is *staged* in a
  hidden folder ``out_root/.staging-<pid>/`` and nothing in ``out_root`` changes. Only when the
  whole command succeeded are the staged files swapped in, one ``os.replace`` each, with Ctrl-C
  held back until the swap is done. If anything fails (bad data in another system, a lint
  error, Ctrl-C) the staged files are dropped and every output stays as it was.

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

import os
import shutil
import signal
import tempfile
import threading
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

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
        if self._stage_dir is None:
            self.root.mkdir(parents=True, exist_ok=True)
            self._stage_dir = Path(tempfile.mkdtemp(prefix=f".staging-{os.getpid()}-", dir=self.root))
        fd, tmp = tempfile.mkstemp(dir=self._stage_dir, suffix=".part")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
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

    def commit(self) -> None:
        """Swap every staged file into place and apply the deletions, with SIGINT and SIGTERM
        held back until done (a Ctrl-C then arrives after the swap)."""
        if self.state != "open":
            return
        with _signals_held():
            for target, tmp in self._staged.items():
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(tmp, target)
                self.changed.append(target)
            for target in sorted(self._deletes):
                if target.is_file():
                    target.unlink()
                    self.removed.append(target)
            self._staged.clear()
            self._deletes.clear()
            self._drop_stage()
            self.state = "committed"

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


def current() -> Transaction | None:
    """The transaction of the running command, if any."""
    return _current.get()


def _clean_stale_stages(root: Path) -> None:
    """Remove ``.staging-<pid>-*`` folders left by a process that no longer runs (killed)."""
    if not root.is_dir():
        return
    for d in root.glob(".staging-*"):
        pid = d.name.split("-")[1] if d.name.count("-") >= 2 else ""
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(d, ignore_errors=True)


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
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
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
