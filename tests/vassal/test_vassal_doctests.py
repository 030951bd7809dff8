"""The docstring examples of pipeline.vassal are correct."""

import doctest
import importlib

import pytest

MODULES = ["sequence", "traits", "pieces", "grids", "buildfile", "commands", "save"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"pipeline.vassal.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
