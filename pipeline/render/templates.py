"""Render Jinja2 templates to drawings and images.

A template (``templates/<system>/<name>.yaml.j2``) receives a context dict and renders YAML in
the drawing format of :mod:`pipeline.render.drawing`. Strings from data go through ``| tojson``
so any text (quotes, colons, kanji) is valid YAML. Undefined variables are errors.

Helpers available in every template: ``cos``, ``sin`` (degrees), ``sqrt``, ``pi``, ``min``,
``max``, ``abs``, ``round``, ``len``, ``enumerate``, ``zip``, ``hex_corners(cx, cy, r,
pointy=True)`` (list of ``[x, y]``), ``lerp(a, b, t)`` (point between two points),
``ceil``/``floor``, and the filter ``| num`` (a number rounded to 4 decimals).

Example::

    >>> r = TemplateRenderer(Path("templates"))                       # doctest: +SKIP
    >>> img = r.image("genpei/unit_counter.yaml.j2", ctx, width_px=56)  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from pathlib import Path
from typing import Any

import jinja2
import yaml
from PIL import Image

from pipeline.render.drawing import Drawing, RenderError, draw, parse_drawing, pixel_size

#: libyaml's safe loader when PyYAML has it (six times faster than the pure-Python one on the
#: rendered drawings), else the pure-Python safe loader.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_STR, _SEQ, _MAP = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
#: Scalar tags :func:`_load_yaml` builds itself (through the safe constructor, remembered by value).
_PLAIN_SCALAR_TAGS = frozenset({_STR, "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"})
#: Most scalars remembered by :class:`_DrawingLoader` / :func:`_load_yaml` per process (a cold
#: build of the four systems meets about 4000 different ones).
SCALAR_MEMO = 1 << 16
_resolved: dict[tuple[str, tuple[bool, bool]], str] = {}
_scalars: dict[tuple[str, str], Any] = {}


class _DrawingLoader(_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader whose implicit tag of a scalar is remembered by its text: a rendered
    drawing repeats the same numbers, colours and keys thousands of times, and the safe
    resolver tries a list of regular expressions on each. The tag of a scalar depends on its
    text and quoting alone (no path resolvers are registered), so the remembered tag is the
    one the safe resolver gives."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode:
            key = (value, implicit)
            tag = _resolved.get(key)
            if tag is None:
                tag = _LOADER.resolve(self, kind, value, implicit)
                if len(_resolved) >= SCALAR_MEMO:
                    _resolved.clear()
                _resolved[key] = tag
            return tag
        return _LOADER.resolve(self, kind, value, implicit)


class _Unusual(Exception):
    """A node :func:`_construct` leaves to the safe constructor (a merge key, an explicit or
    unknown tag, an unhashable key)."""


def _hex_corners(cx: float, cy: float, r: float, pointy: bool = True) -> list[list[float]]:
    off = -90 if pointy else 0
    return [[round(cx + r * math.cos(math.radians(off + 60 * i)), 4), round(cy + r * math.sin(math.radians(off + 60 * i)), 4)] for i in range(6)]


def _lerp(a: Any, b: Any, t: float) -> list[float]:
    return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]


_SURROGATE_PAIR = re.compile(r"\\ud([89ab][0-9a-f]{2})\\ud([c-f][0-9a-f]{2})")


def yaml_json(value: Any) -> str:
    """The ``| tojson`` filter: ``value`` as JSON, which is valid YAML flow syntax, ASCII only.
    A character beyond U+FFFF (an emoji) is written ``\\UXXXXXXXX`` as YAML wants, not as the
    pair of surrogate escapes JSON uses (which YAML parsers refuse).

    >>> print(yaml_json("a😀"))
    "a\\U0001f600"
    """
    text = json.dumps(value, sort_keys=True, ensure_ascii=True)
    return _SURROGATE_PAIR.sub(lambda m: "\\U%08x" % (0x10000 + ((int("d" + m.group(1), 16) - 0xD800) << 10) + (int("d" + m.group(2), 16) - 0xDC00)), text)


HELPERS: dict[str, Any] = {
    "cos": lambda deg: math.cos(math.radians(deg)),
    "sin": lambda deg: math.sin(math.radians(deg)),
    "sqrt": math.sqrt,
    "pi": math.pi,
    "ceil": math.ceil,
    "floor": math.floor,
    "min": min,
    "max": max,
    "abs": abs,
    "round": round,
    "len": len,
    "enumerate": enumerate,
    "zip": zip,
    "hex_corners": _hex_corners,
    "lerp": _lerp,
}


class TemplateRenderer:
    """Renders the templates under one folder.

    Args:
        root: the templates folder (e.g. ``templates/``); names are paths relative to it.
    """

    def __init__(self, root: Path):
        self.root = Path(root)
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(self.root)),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.globals.update(HELPERS)
        self.env.filters["num"] = lambda v: round(float(v), 4)
        self.env.filters["tojson"] = yaml_json
        self.env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": True}
        self._rendered: dict[tuple[str, str], str] = {}

    #: Most rendered texts remembered per renderer (a build renders a few hundred).
    MEMO_SIZE = 8192

    def render_yaml(self, name: str, context: dict[str, Any]) -> str:
        """The YAML text template ``name`` renders from ``context``. The same template and
        context rendered again in this process (a cache key, then the drawing) give the
        remembered text.

        Raises:
            RenderError: the template is missing, has a syntax error, or uses an undefined value.
        """
        memo_key = (name, json.dumps(context, sort_keys=True, default=str))
        text = self._rendered.get(memo_key)
        if text is None:
            text = self._render(name, context)
            if len(self._rendered) >= self.MEMO_SIZE:
                self._rendered.clear()
            self._rendered[memo_key] = text
        return text

    def _render(self, name: str, context: dict[str, Any]) -> str:
        try:
            return self.env.get_template(name).render(**context)
        except jinja2.TemplateNotFound as exc:
            raise RenderError(f"template not found under {self.root}", source=name) from exc
        except jinja2.TemplateSyntaxError as exc:
            raise RenderError(f"template syntax error at line {exc.lineno}: {exc.message}", source=name) from exc
        except jinja2.UndefinedError as exc:
            raise RenderError(f"undefined value: {exc.message}", source=name) from exc

    def drawing(self, name: str, context: dict[str, Any]) -> Drawing:
        """The parsed drawing of template ``name`` with ``context``.

        Raises:
            RenderError: as :meth:`render_yaml`, or the output is not valid YAML (the message
                gives the line of the rendered text), or not a valid drawing (naming the
                primitive).
        """
        return parse_drawing_text(self.render_yaml(name, context), name)

    def image(self, name: str, context: dict[str, Any], *, width_px: int | None = None, size: tuple[int, int] | None = None, scale: float | None = None) -> Image.Image:
        """Render template ``name`` to an RGBA image.

        Give one of ``width_px`` (height follows the canvas aspect), ``size`` (exact pixels) or
        ``scale`` (pixels per template unit).
        """
        d = self.drawing(name, context)
        if size is None:
            size = pixel_size(d, width_px=width_px, scale=scale)
        return draw(d, size)

    @classmethod
    def shared(cls, root: Path) -> TemplateRenderer:
        """One renderer per templates folder for the whole process, so each template is
        compiled once however many systems and caches use it."""
        key = Path(root).resolve()
        if key not in _SHARED:
            _SHARED[key] = cls(key)
        return _SHARED[key]


_SHARED: dict[Path, TemplateRenderer] = {}


#: Drawings whose YAML text is at least this long (characters) are kept as JSON by
#: :func:`parse_drawing_text` when given a folder: a battlefield of 190 KB takes 0.8 s to load as
#: YAML and 0.07 s as JSON (measured), and the same drawing is drawn at three sizes (the VASSAL
#: map, the chart window sheet, the print sheet), often in different processes.
DOC_CACHE_MIN_CHARS = 4096
#: Largest kept JSON file read back (bytes); a larger file is ignored and the YAML loaded.
DOC_CACHE_MAX_BYTES = 64 << 20


def parse_drawing_text(text: str, source: str, docs: Path | None = None) -> Drawing:
    """Parse the YAML ``text`` a template rendered into a :class:`Drawing`.

    With ``docs`` (a folder, e.g. in the render cache) a long text's loaded document is kept
    there as JSON, named by the SHA-256 of the text, and read back instead of loading the YAML
    again (by this or any other process). It is kept only when JSON gives back exactly the same
    document (strings, numbers, booleans, nulls, lists and string-keyed mappings), so the
    drawing is the same either way; a kept file is checked like any drawing, bounded in size,
    and ignored when unreadable.

    Raises:
        RenderError: the text is not valid YAML (the message gives the line of the rendered
            text) or not a valid drawing (naming the primitive); ``source`` names the template.
    """
    kept = docs / f"{hashlib.sha256(text.encode()).hexdigest()}.json" if docs is not None and len(text) >= DOC_CACHE_MIN_CHARS else None
    if kept is not None:
        try:
            if kept.stat().st_size <= DOC_CACHE_MAX_BYTES:
                return parse_drawing(json.loads(kept.read_bytes()), source=source)
        except (OSError, ValueError, RenderError):
            pass  # not kept yet, unreadable or altered: load the YAML (whose errors are the real ones)
    doc = _load_yaml(text, source)
    if kept is not None:
        _keep(doc, kept)
    return parse_drawing(doc, source=source)


def _load_yaml(text: str, source: str) -> Any:
    """The document of the YAML ``text``: exactly what ``yaml.load(text, Loader=_LOADER)`` (the
    safe loader) gives, built faster. libyaml composes the node tree (tags resolved by
    :class:`_DrawingLoader`); :func:`_construct` builds plain mappings, lists and scalars from it
    without the safe constructor's per-node generators, each scalar built once per process by
    the safe constructor itself and then reused (strings, numbers, booleans and null are
    immutable). A document with any other node (a merge key, an explicit tag, a timestamp, an
    unhashable key) or nested deeper than :func:`_construct` can recurse is loaded again by the
    safe loader, which gives its value or its error.

    Raises:
        RenderError: the text is not valid YAML (the message gives the line of the rendered
            text); ``source`` names the template.
    """
    try:
        loader = _DrawingLoader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            try:
                return _construct(node, loader, {})
            except (_Unusual, TypeError, RecursionError):
                pass  # RecursionError: nested deeper than Python's stack allows (libyaml takes 1000 levels)
        finally:
            loader.dispose()
        return yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        lines = text.splitlines()
        line = f" at rendered line {mark.line + 1}: {lines[mark.line]!r}" if mark is not None and mark.line < len(lines) else ""
        raise RenderError(f"rendered text is not valid YAML{line} ({getattr(exc, 'problem', exc)})", source=source) from exc


def _construct(node: Any, loader: Any, built: dict[int, Any]) -> Any:
    """The value of ``node`` (a composed YAML node) as the safe constructor builds it: a scalar
    of a plain tag through ``loader``'s constructor (remembered by tag and text), a sequence as
    a list, a mapping as a dict (keys in order, a repeated key's last value wins). A node met
    twice (an alias) gives the same object, as in the safe constructor.

    Raises:
        _Unusual: a node of another kind (merge key, explicit or unknown tag); TypeError: an
            unhashable key.
    """
    kind = type(node)
    if kind is yaml.ScalarNode:
        key = (node.tag, node.value)
        try:
            return _scalars[key]
        except KeyError:
            if node.tag not in _PLAIN_SCALAR_TAGS:
                raise _Unusual(node.tag) from None
            if len(_scalars) >= SCALAR_MEMO:
                _scalars.clear()
            value = _scalars[key] = loader.construct_object(node)
            return value
    value = built.get(id(node))
    if value is not None:
        return value
    if kind is yaml.SequenceNode and node.tag == _SEQ:
        items: list[Any] = []
        built[id(node)] = items
        items.extend([_construct(n, loader, built) for n in node.value])
        return items
    if kind is yaml.MappingNode and node.tag == _MAP:
        mapping: dict[Any, Any] = {}
        built[id(node)] = mapping
        for key_node, value_node in node.value:  # a merge key (<<) is a scalar of another tag: _Unusual
            mapping[_construct(key_node, loader, built)] = _construct(value_node, loader, built)
        return mapping
    raise _Unusual(node.tag)


def _keep(doc: Any, path: Path) -> None:
    """Write ``doc`` as JSON to ``path`` (atomically) when JSON gives it back unchanged."""
    try:
        data = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        if json.loads(data) != doc:
            return  # e.g. integer keys, which JSON would turn into strings
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(data, encoding="utf-8")
        os.replace(tmp, path)
    except (TypeError, ValueError, OSError):
        return  # not representable (a date) or not writable: the YAML is loaded next time
