"""Errors gunbai reports to a module maker.

Every error that comes from input data names the file, the line, the bad value and
what was expected, so that a typo costs one look::

    source_data/genpei/units.yaml:42: units[3].standard: 'hexagon' is not valid; expected one of 'circle', 'triangle', 'square'
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class GunbaiError(Exception):
    """Base class of every error gunbai raises on purpose (the CLI prints it and exits 1)."""


@dataclass
class DataProblem:
    """One problem found in a data file.

    Attributes:
        file: the data file (as given, usually relative to the working directory).
        line: 1-based line of the offending value, or None when not known.
        where: the path to the value inside the document, e.g. ``units[3].standard``.
        value: the offending value as text (``repr`` of what was read).
        expected: what was expected instead.
    """

    file: Path
    line: int | None
    where: str
    value: str
    expected: str

    def __str__(self) -> str:
        loc = f"{self.file}:{self.line}" if self.line else f"{self.file}"
        where = f" {self.where}:" if self.where else ""
        return f"{loc}:{where} {self.value} is not valid; expected {self.expected}"


class DataError(GunbaiError):
    """Invalid input data: one or more :class:`DataProblem`, one line each when printed."""

    def __init__(self, problems: list[DataProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @classmethod
    def check(cls, problems: list[DataProblem]) -> None:
        """Raise a :class:`DataError` of ``problems`` when there are any.

        Raises:
            DataError: ``problems`` is not empty.
        """
        if problems:
            raise cls(problems)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a CI job's time limit, ``docker stop``, ``kill``), raised in the main thread by
    :func:`handle_sigterm`'s handler: every ``except KeyboardInterrupt`` and roll-back treats it
    as Ctrl-C, and the command exits 143 (128 + SIGTERM) saying what was kept."""


def handle_sigterm() -> None:
    """From now on SIGTERM raises :class:`Terminated` in the main thread (instead of ending the
    process at once, leaving its drawing processes running and its staging folder behind)."""
    import signal
    import threading

    def _raise(signum, frame):
        raise Terminated()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise)
