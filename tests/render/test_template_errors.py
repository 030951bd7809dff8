"""Every error of a template is one line naming the template file and line (issue 29, items 5
and 7): an undefined value inside ``| tojson`` (``StrictUndefined`` reached ``json.dumps``: a
traceback), a missing imported macro file (the importing template was named as the missing
one), an undefined value inside an imported macro (its file, not the caller's), a syntax error,
a failing expression."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.errors import GunbaiError
from pipeline.render import RenderError, TemplateRenderer

CANVAS = "canvas: {width: 10, height: 10}\n"


def _renderer(tmp_path: Path, **files: str) -> TemplateRenderer:
    for name, text in files.items():
        path = tmp_path / "t" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return TemplateRenderer(tmp_path)


def _error(r: TemplateRenderer, name: str = "t/x.yaml.j2", context: dict | None = None) -> str:
    with pytest.raises(RenderError) as exc:
        r.render_yaml(name, context if context is not None else {"unit": {"name": "Samurai"}})
    assert isinstance(exc.value, GunbaiError)  # the command line prints it as one line, exit 1
    message = str(exc.value)
    assert "\n" not in message
    return message


def _file(tmp_path: Path, name: str) -> str:
    return os.path.relpath(tmp_path / "t" / name) if not os.path.relpath(tmp_path).startswith("..") else str(tmp_path / "t" / name)


@pytest.mark.parametrize("expression", ["{{ unit.nmae | tojson }}", "{{ [unit.name, unit.nmae] | tojson }}", "{{ {'a': unit.nmae} | tojson }}"])
def test_an_undefined_value_inside_tojson(tmp_path, expression):
    r = _renderer(tmp_path, **{"x.yaml.j2": CANVAS + "shapes:\n  - text: {x: 1, y: 1, text: " + expression + "}\n"})
    assert _error(r) == f"{_file(tmp_path, 'x.yaml.j2')}:3: undefined value: 'dict object' has no attribute 'nmae'"


def test_a_missing_imported_macro_file_is_named_with_the_importing_line(tmp_path):
    r = _renderer(tmp_path, **{"x.yaml.j2": CANVAS + '{% import "t/_missing.j2" as m %}\nshapes: []\n'})
    assert _error(r) == f"{_file(tmp_path, 'x.yaml.j2')}:2: imports 't/_missing.j2', which is not a template under {tmp_path}"


def test_an_error_inside_an_imported_macro_names_the_macro_file(tmp_path):
    r = _renderer(tmp_path, **{"x.yaml.j2": CANVAS + '{% from "t/_m.j2" import box %}\nshapes: [{{ box(unit) }}]\n',
                               "_m.j2": "{% macro box(u) %}\n{text: {x: 1, y: 1, text: {{ u.nmae | tojson }}}}\n{% endmacro %}\n"})
    assert _error(r) == f"{_file(tmp_path, '_m.j2')}:2: undefined value: 'dict object' has no attribute 'nmae'"


def test_a_syntax_error_in_an_imported_macro_file(tmp_path):
    r = _renderer(tmp_path, **{"x.yaml.j2": CANVAS + '{% import "t/_m.j2" as m %}\n', "_m.j2": "{% macro box(u) %}\n{% if %}\n{% endmacro %}\n"})
    assert _error(r).startswith(f"{_file(tmp_path, '_m.j2')}:2: template syntax error: ")


def test_a_failing_expression_names_its_line(tmp_path):
    r = _renderer(tmp_path, **{"x.yaml.j2": CANVAS + "shapes: []\nsize: {{ 10 / unit.count }}\n"})
    assert _error(r, context={"unit": {"count": 0}}) == f"{_file(tmp_path, 'x.yaml.j2')}:3: ZeroDivisionError: division by zero"


def test_a_missing_template(tmp_path):
    r = _renderer(tmp_path, **{"x.yaml.j2": CANVAS})
    assert _error(r, "t/nothing.yaml.j2") == f"t/nothing.yaml.j2: no such template under {tmp_path}"
