"""Progress on a terminal, silence elsewhere.

A long command (``gunbai build``, ``sheets``, ``verify --play``) reports what it is doing —
the system, the step, and a count (images drawn, games played) — on one line of standard error
that is rewritten in place. The line is shown only when standard error is a terminal and the
command was not asked to be quiet; in CI, in a pipe or under ``--quiet`` nothing is printed, so
logs hold only results and problems. Updates are throttled (at most 10 a second) and the line
is cleared before any other output, so it never mixes with results.

No thread is started (the drawing processes are forked; see :mod:`pipeline.render.parallel`).

Example::

    >>> enable(False)            # a pipe: nothing is shown
    >>> step("genpei", "rendering")
    >>> count(3, 10, "images")
    >>> clear()
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

_stream: TextIO = sys.stderr
_enabled = False
_system = ""
_step = ""
_started = 0.0
_last_draw = 0.0
_shown = False
_width = 0


def wanted(quiet: bool = False, stream: TextIO | None = None) -> bool:
    """Whether progress should be shown: not ``quiet``, the stream is a terminal, and ``TERM``
    is not ``dumb``."""
    s = stream or sys.stderr
    try:
        tty = s.isatty()
    except (AttributeError, ValueError):
        tty = False
    return not quiet and tty and os.environ.get("TERM", "") != "dumb"


def enable(on: bool, stream: TextIO | None = None) -> None:
    """Turn the display on or off (on only makes sense for a terminal: see :func:`wanted`)."""
    global _enabled, _stream
    _enabled = on
    if stream is not None:
        _stream = stream


def enabled() -> bool:
    """True when progress is being shown."""
    return _enabled


def step(system: str, what: str) -> None:
    """Start a step: ``system`` (e.g. ``genpei``) is doing ``what`` (e.g. ``rendering``)."""
    global _system, _step, _started
    _system, _step, _started = system, what, time.monotonic()
    _draw(f"{what}…", force=True)


def count(done: int, total: int, unit: str) -> None:
    """``done`` of ``total`` ``unit`` (images, games) of the current step are finished."""
    _draw(f"{_step} {done}/{total} {unit}", force=done >= total)


def _draw(text: str, force: bool = False) -> None:
    global _last_draw, _shown, _width
    if not _enabled:
        return
    now = time.monotonic()
    if not force and now - _last_draw < 0.1:
        return
    _last_draw = now
    line = f"{_system + ': ' if _system else ''}{text}  {now - _started:.1f} s"
    try:
        cols = os.get_terminal_size(_stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        cols = 80
    line = line[: max(10, cols - 1)]
    _stream.write("\r" + line + " " * max(0, _width - len(line)))
    _stream.flush()
    _width = len(line)
    _shown = True


def clear() -> None:
    """Erase the progress line (before printing results, or at the end)."""
    global _shown, _width
    if _enabled and _shown:
        _stream.write("\r" + " " * _width + "\r")
        _stream.flush()
    _shown = False
    _width = 0
