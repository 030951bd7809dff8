"""Version strings ordered as VASSAL 3.7.26 orders them (``VersionUtils.compareVersions``: Maven
``ComparableVersion`` 3.8.x); the expected orders are the Maven rules worked by hand."""

from __future__ import annotations

import pytest

from pipeline.vassal.versions import compare_versions, module_older_than


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("1", "1.0", 0),                # trailing zeros are dropped
    ("1.0.0", "1", 0),
    ("1.9", "1.10", -1),            # numbers, not text
    ("1.41", "1.5", 1),
    ("1.0alpha1", "1.0", -1),       # a qualifier before release
    ("1.0-alpha-1", "1.0alpha1", 0),  # "a" before a digit is alpha; the digit change splits
    ("1.0a1", "1.0-alpha-1", 0),
    ("1.0-beta", "1.0-alpha", 1),
    ("1.0-rc1", "1.0-cr1", 0),      # cr is rc
    ("1.0-snapshot", "1.0", -1),
    ("1.0-final", "1.0", 0),        # final, ga, release are the release itself
    ("1.0-ga", "1.0-release", 0),
    ("1-sp", "1", 1),               # a service pack after the release
    ("1-abc", "1-sp", 1),           # an unknown word after every known qualifier
    ("1-abc", "1-abd", -1),
    ("1.1", "1-1", 1),              # a number beats a sub-list
    ("1-1", "1-sp", 1),             # a sub-list beats a word
    ("4.2.0a60", "4.2.0", -1),      # the Napoleonics module's version is an alpha of 4.2.0
    ("4.2.0a60", "4.2.0a59", 1),
    ("4.2.0a60", "4.1", 1),
    ("0.2", "0.1", 1),
    ("", "0", 0),
])
def test_compare_versions(a, b, expected):
    assert compare_versions(a, b) == expected
    assert compare_versions(b, a) == -expected


def test_module_older_than_is_vassals_warning_rule():
    """``ModuleExtension.setAttribute``: VASSAL warns when the running module's version compares
    below the ``moduleVersion`` the extension was built for, not when it is newer."""
    assert module_older_than("1.0", "1.1")
    assert not module_older_than("1.1", "1.0")
    assert not module_older_than("1.0", "1.0.0")
    assert module_older_than("4.2.0a60", "4.2.0")
