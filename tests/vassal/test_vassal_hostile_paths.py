"""Lint and inspect on what a user may point them at by mistake, or on purpose."""

from __future__ import annotations

import io
import zipfile

import pytest

from pipeline.vassal.archive import VassalFormatError
from pipeline.vassal.inspect import inspect_bytes, inspect_path
from pipeline.vassal.lint import lint, lint_bytes
from tests.vassal.test_vassal_module import build


def test_folder_and_device_are_refused_without_reading(tmp_path):
    for target in (tmp_path, "/dev/zero"):
        findings = lint(target)
        assert [f.severity for f in findings] == ["error"] and "not a regular file" in findings[0].message
        with pytest.raises(VassalFormatError):
            inspect_path(target)


@pytest.mark.parametrize("value", ["0", "-73", "NaN"])
def test_hex_grid_spacing_must_be_positive(value, tmp_path):
    data = build(tmp_path)[0].read_bytes()
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name in src.namelist():
            body = src.read(name)
            if name == "buildFile.xml":
                text = body.decode()
                assert 'dy="' in text
                head, rest = text.split('dy="', 1)
                body = (head + f'dy="{value}"' + rest[rest.index('"') + 1 :]).encode()
            z.writestr(name, body)
    bad = out.getvalue()
    errors = [f for f in lint_bytes(bad) if f.severity == "error"]
    assert any("dy=" in f.message and "positive" in f.message for f in errors), errors
    inspect_bytes(bad, "bad.vmod")  # must not raise
