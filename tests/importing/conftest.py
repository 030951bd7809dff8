"""Shared fixtures of the import tests: every system built once into a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"


@pytest.fixture(scope="session")
def built(shipped_build) -> Path:
    """The output folder of `gunbai build` on the shipped data (one sub-folder per system;
    the run's one build, ``tests/conftest.py``)."""
    return shipped_build
