"""Shared fixtures of the Ronin tests: the data folder is loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.systems.ronin.load import load

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data" / "ronin"


@pytest.fixture(scope="session")
def data():
    return load(DATA)


@pytest.fixture
def write_roster(tmp_path):
    """Write a roster YAML text to a temporary file and return its path."""

    def _write(text: str, name: str = "roster.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write
