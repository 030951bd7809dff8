"""The loader of rendered drawing YAML (``templates._load_yaml``) gives exactly what PyYAML's safe
loader gives: on every drawing the four systems' templates render from the real data, and on
the YAML forms the templates do not use (merge keys, aliases, explicit tags, timestamps,
YAML 1.1 booleans and numbers, unhashable keys, errors)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml

import pipeline.render.templates as templates
from pipeline.render import RenderError
from pipeline.render.png import png_bytes

ROOT = Path(__file__).resolve().parents[2]


def _safe(text: str):
    return yaml.load(text, Loader=templates._LOADER)


def _same(text: str) -> None:
    """The fast loader's document equals the safe loader's, types and shared objects included."""
    want = _safe(text)
    got = templates._load_yaml(text, "t.yaml.j2")
    assert got == want
    assert repr(got) == repr(want)  # 1 and 1.0 and True are equal but not the same document
    assert templates._load_yaml(text, "t.yaml.j2") == want  # again, from the remembered scalars


@pytest.mark.parametrize("text", [
    "canvas: {width: 2, height: 3.5}\nshapes: []\n",
    "a: [yes, no, on, off, true, False, y, n, ~, null, '', \"\"]\n",
    "a: [0x1f, 0o17, 017, 0b101, 1_000, +5, -0, 190:20:30, 1e3, 1.5e3, .5, -.inf, .NaN, 6.8523015e+5]\n",
    "a: ['12', \"1.5\", '#ff0000', \"源平\", \"a\\U0001f600\", 12abc, 1.2.3, '~']\n",
    "- &p {x: 1}\n- *p\n- {y: *p}\n",
    "base: &b {x: 1, y: 2}\nover: {<<: *b, y: 3}\n",
    "a: !!str 12\nb: !!float 1\nc: !!binary aGk=\n",
    "when: 2026-12-01\nat: 2026-12-01 11:45:00\n",
    "a: 1\na: 2\n",
    "= : value key\n",
    "? [1, 2]\n: x\n",
    "{a: 1}: x\n",
    "",
    "# only a comment\n",
    "just text\n",
    "- 1\n- [2, [3, {4: five}]]\n",
])
def test_the_fast_loader_gives_the_safe_loaders_document_or_error(text):
    try:
        want = _safe(text)
    except yaml.YAMLError:
        with pytest.raises(RenderError):
            templates._load_yaml(text, "t.yaml.j2")
        return
    _same(text)
    if isinstance(want, list) and want and isinstance(want[0], dict) and len(want) > 1 and want[0] is want[1]:
        got = templates._load_yaml(text, "t.yaml.j2")
        assert got[0] is got[1] is got[2]["y"]  # an alias is the same object, as the safe loader makes it


def test_a_recursive_alias_is_the_same_object():
    got = templates._load_yaml("a: &a [1, *a]\n", "t.yaml.j2")
    assert got["a"][1] is got["a"]


def _depth(doc) -> int:
    """How many lists or mappings are nested in ``doc`` along its first items (walked without
    recursion, so that a deep document can be measured)."""
    depth = 0
    while isinstance(doc, (list, dict)):
        depth += 1
        doc = next(iter(doc.values() if isinstance(doc, dict) else doc), None)
    return depth


@pytest.mark.parametrize("text", ["[" * 990 + "]" * 990, "{a: " * 990 + "1" + "}" * 990])
def test_nesting_as_deep_as_libyaml_takes_loads_as_the_safe_loader_loads_it(text):
    # libyaml refuses more than 1000 levels; the safe constructor builds nested nodes without
    # recursing, so every depth libyaml takes loads, whatever Python's recursion limit
    assert _depth(_safe(text)) == 990
    assert _depth(templates._load_yaml(text, "t.yaml.j2")) == 990


@pytest.mark.parametrize("text", ["a: [1, 2\n", "a: b: c\n", "--- 1\n--- 2\n", "a: *nowhere\n"])
def test_invalid_yaml_is_the_same_render_error(text):
    with pytest.raises(yaml.YAMLError):
        _safe(text)
    with pytest.raises(RenderError, match="not valid YAML"):
        templates._load_yaml(text, "t.yaml.j2")


def test_a_scalar_its_tag_refuses_raises_what_the_safe_constructor_raises():
    with pytest.raises(ValueError):
        _safe("a: !!int x\n")
    with pytest.raises(ValueError):
        templates._load_yaml("a: !!int x\n", "t.yaml.j2")


@pytest.mark.parametrize("system", ["genpei", "ronin", "ohw", "sekigahara"])
def test_every_drawing_of_the_real_data_loads_as_the_safe_loader_loads_it(system, tmp_path, monkeypatch):
    """The counters, cards and sheets of ``system`` rendered from ``source_data`` (images not
    drawn: each drawing is parsed and stood in for by a blank picture of its size) load to the
    same documents with both loaders."""
    from pipeline.render import cache as cache_module
    from pipeline.render import parallel
    from pipeline.render.drawing import pixel_size

    seen: dict[str, int] = {}
    real = templates._load_yaml

    def checked(text: str, source: str):
        got = real(text, source)
        want = _safe(text)
        assert got == want and repr(got) == repr(want), source
        seen[source] = seen.get(source, 0) + 1
        return got

    def blank_pngs(tasks, on_done=None, store=None):
        from PIL import Image

        out = []
        for i, t in enumerate(tasks):
            d = templates.parse_drawing_text(t.text, t.source)
            size = t.size if t.size is not None else pixel_size(d, scale=t.scale if t.scale is not None else 1.0)
            out.append(png_bytes(Image.new("RGBA", size, (255, 255, 255, 255))))
            if store:
                store(i, out[-1])
        return lambda: out

    monkeypatch.setattr(templates, "_load_yaml", checked)
    monkeypatch.setattr(cache_module, "draw_pngs_later", blank_pngs)
    monkeypatch.setattr(templates, "DOC_CACHE_MIN_CHARS", 1 << 30)  # every drawing through the YAML
    parallel.set_workers(1)
    try:
        mod = importlib.import_module(f"pipeline.systems.{system}.build")
        for what in ("counters", "cards"):
            mod.render(ROOT / "source_data" / system, tmp_path / system, what=what)
    finally:
        parallel.set_workers(None)
    assert sum(seen.values()) >= 10, seen
