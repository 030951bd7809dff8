"""Templates compiled on the drawing processes (TemplateRenderer.compile_later): the rendered
texts are the ones compiled here, nothing is compiled here for a handed-over template, and a
template whose source changed after the hand-over (checksum mismatch) or that fails to compile
is compiled here, with the real error."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from pipeline.render import parallel
from pipeline.render.templates import RenderError, TemplateRenderer

ROOT = Path(__file__).resolve().parents[2] / "templates"
CONTEXT = {"value": "松 \"quoted\": 3", "n": 4}


@pytest.fixture
def two_workers():
    parallel.set_workers(2)
    try:
        yield
    finally:
        parallel.shutdown()
        parallel.set_workers(None)


def _counting(monkeypatch) -> list[str]:
    compiled: list[str] = []
    real = jinja2.Environment.compile

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return real(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", compile)
    return compiled


def _write(folder: Path) -> None:
    (folder / "sys").mkdir()
    (folder / "sys" / "_macros.j2").write_text("{% macro twice(x) %}{{ x }}{{ x }}{% endmacro %}\n", encoding="utf-8")
    (folder / "sys" / "t.yaml.j2").write_text(
        '{% import "sys/_macros.j2" as m %}\ntext: {{ value | tojson }}\nsize: {{ m.twice(n) }}\nitems: [{% for i in range(n) %}{{ i * 2 }}, {% endfor %}]\n',
        encoding="utf-8")


def test_handed_code_renders_the_same_text_and_nothing_is_compiled_here(two_workers, tmp_path, monkeypatch):
    _write(tmp_path)
    expected = TemplateRenderer(tmp_path).render_yaml("sys/t.yaml.j2", CONTEXT)
    assert expected == 'text: "\\u677e \\"quoted\\": 3"\nsize: 44\nitems: [0, 2, 4, 6, ]\n'
    parallel.start()  # forked before counting: the drawing processes compile with the real method
    compiled = _counting(monkeypatch)
    r = TemplateRenderer(tmp_path)
    r.compile_later(["sys/t.yaml.j2", "sys/_macros.j2", "sys/missing.yaml.j2"])
    assert r.render_yaml("sys/t.yaml.j2", CONTEXT) == expected
    assert compiled == []  # both templates came compiled from the drawing processes
    r.compile_later(["sys/t.yaml.j2"])  # loaded already: nothing sent
    assert r.env.bytecode_cache.pending == {}


def test_a_source_changed_after_the_hand_over_is_compiled_here(two_workers, tmp_path, monkeypatch):
    _write(tmp_path)
    parallel.start()
    compiled = _counting(monkeypatch)
    r = TemplateRenderer(tmp_path)
    r.compile_later(["sys/t.yaml.j2"])
    [wait] = r.env.bytecode_cache.pending.values()
    assert wait()[0]  # compiled there from the old source
    (tmp_path / "sys" / "t.yaml.j2").write_text("text: changed {{ n }}\n", encoding="utf-8")
    assert r.render_yaml("sys/t.yaml.j2", CONTEXT) == "text: changed 4\n"
    assert compiled == ["sys/t.yaml.j2"]


def test_a_template_that_does_not_compile_gives_its_error_here(two_workers, tmp_path):
    (tmp_path / "bad.yaml.j2").write_text("a: {% if %}\n", encoding="utf-8")
    parallel.start()
    r = TemplateRenderer(tmp_path)
    r.compile_later(["bad.yaml.j2"])
    with pytest.raises(RenderError, match="template syntax error at line 1"):
        r.render_yaml("bad.yaml.j2", {})


def test_one_worker_sends_nothing(tmp_path):
    _write(tmp_path)
    parallel.set_workers(1)
    try:
        r = TemplateRenderer(tmp_path)
        r.compile_later(["sys/t.yaml.j2"])
        assert r.env.bytecode_cache.pending == {}
        assert r.render_yaml("sys/t.yaml.j2", CONTEXT).startswith("text: ")
    finally:
        parallel.set_workers(None)


def test_the_genpei_build_list_names_real_templates():
    from pipeline.systems.genpei.build import TEMPLATES_IN_ORDER

    assert len(set(TEMPLATES_IN_ORDER)) == len(TEMPLATES_IN_ORDER)
    assert all((ROOT / name).is_file() for name in TEMPLATES_IN_ORDER)
