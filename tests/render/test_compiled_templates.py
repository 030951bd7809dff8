"""The templates' compiled code kept in ``<templates>/__pycache__`` (CompiledTemplates): a
later renderer uses it instead of compiling, renders the same text, and compiles again a
template that was edited; a folder that cannot be written is no error."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import jinja2
import pytest

from pipeline.render.templates import COMPILED_DIR, TemplateRenderer

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "templates"
    root.mkdir()
    (root / "_m.j2").write_text("{% macro dot(x) %}- circle: {cx: {{ x }}, cy: 1, r: 1}{% endmacro %}\n", encoding="utf-8")
    (root / "t.yaml.j2").write_text('{% import "_m.j2" as m %}\ncanvas: {width: 4, height: 2}\nshapes:\n  {{ m.dot(n) }}\n', encoding="utf-8")
    return root


def test_compiled_code_is_kept_and_used_by_a_later_renderer(tmp_path, monkeypatch):
    root = _copy(tmp_path)
    first = TemplateRenderer(root).render_yaml("t.yaml.j2", {"n": 2})
    kept = sorted((root / COMPILED_DIR).iterdir())
    assert len(kept) == 2  # the template and the macros it imports

    def no_compile(*_a, **_k):
        raise AssertionError("compiled again")

    monkeypatch.setattr(jinja2.Environment, "compile", no_compile)
    assert TemplateRenderer(root).render_yaml("t.yaml.j2", {"n": 2}) == first
    monkeypatch.undo()
    (root / "_m.j2").write_text("{% macro dot(x) %}- circle: {cx: {{ x }}, cy: 1, r: 0.5}{% endmacro %}\n", encoding="utf-8")
    assert TemplateRenderer(root).render_yaml("t.yaml.j2", {"n": 2}) == first.replace("r: 1}", "r: 0.5}")


@pytest.mark.parametrize("symbol", ["circle", "sword", "honour_fortune"])
def test_a_real_template_renders_the_same_from_kept_code(tmp_path, symbol):
    root = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", root, ignore=shutil.ignore_patterns(COMPILED_DIR))
    ctx = {"face": {"symbol": symbol, "label": "Sword", "colour": "#b03a2e"}}
    want = TemplateRenderer(root).render_yaml("genpei/die_face.yaml.j2", ctx)
    assert any((root / COMPILED_DIR).iterdir())
    assert TemplateRenderer(root).render_yaml("genpei/die_face.yaml.j2", ctx) == want


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_templates_folder_is_no_error(tmp_path):
    root = _copy(tmp_path)
    root.chmod(0o555)
    try:
        assert "cx: 2" in TemplateRenderer(root).render_yaml("t.yaml.j2", {"n": 2})
        assert not (root / COMPILED_DIR).exists()
    finally:
        root.chmod(0o755)


def test_an_unwritable_code_folder_is_no_error(tmp_path):
    root = _copy(tmp_path)
    (root / COMPILED_DIR).write_text("a file where the folder would be", encoding="utf-8")
    assert "cx: 2" in TemplateRenderer(root).render_yaml("t.yaml.j2", {"n": 2})


def test_a_damaged_code_file_is_compiled_again(tmp_path):
    root = _copy(tmp_path)
    want = TemplateRenderer(root).render_yaml("t.yaml.j2", {"n": 2})
    for f in (root / COMPILED_DIR).iterdir():
        f.write_bytes(f.read_bytes()[:20] + b"\x00garbage")
    assert TemplateRenderer(root).render_yaml("t.yaml.j2", {"n": 2}) == want
