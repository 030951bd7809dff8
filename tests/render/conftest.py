"""Fixtures for render tests: a small Genpei data set built in code (see genpei_fixtures.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from genpei_fixtures import make_data, make_layout


@pytest.fixture
def data():
    return make_data()


@pytest.fixture
def layout(data):
    return make_layout(data)


@pytest.fixture(scope="module")
def genpei():
    """The shipped Genpei data (``source_data/genpei``, every scenario) and its hex layout."""
    from pipeline.systems.genpei.build import layout_of
    from pipeline.systems.genpei.load import load

    data = load(Path(__file__).resolve().parents[2] / "source_data" / "genpei")
    return data, layout_of(data)
