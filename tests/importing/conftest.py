"""Shared fixtures of the import tests: every system built once into a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.build import build_all

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The output folder of `gunbai build` on the shipped data (one sub-folder per system)."""
    out = tmp_path_factory.mktemp("build")
    build_all(DATA, out, progress=False)
    return out
