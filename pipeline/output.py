"""Writing outputs so that nothing is ever half-written.

Every file gunbai writes goes to a temporary file in the same folder first and is then renamed
over the target (``os.replace`` is atomic on POSIX and Windows): a crash or a bad input leaves
the previous output untouched.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_bytes_atomic(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically, creating the parent folders.

    Returns:
        ``path``.

    Raises:
        OSError: the folder cannot be created or written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def write_images(folder: Path, images: dict) -> list[Path]:
    """Write a folder of PNG images so that it holds exactly ``images`` afterwards.

    Args:
        folder: e.g. ``build/genpei/images``.
        images: file name → PNG bytes or a PIL image (encoded deterministically).

    Returns:
        The paths of ``images``, sorted by name. A file whose bytes are already there is not
        rewritten (fast no-change builds); ``*.png`` files the data no longer makes are removed.
    """
    from pipeline.render.png import png_bytes

    written = []
    for name, image in sorted(images.items()):
        data = image if isinstance(image, bytes) else png_bytes(image)
        path = folder / name
        if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
            written.append(path)
            continue
        written.append(write_bytes_atomic(path, data))
    if folder.is_dir():
        for old in folder.glob("*.png"):
            if old.name not in images:
                old.unlink()
    return written
