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
import weakref
from pathlib import Path
from typing import Any

import jinja2
import yaml
from PIL import Image

from pipeline.render.drawing import Drawing, RenderError, draw, parse_drawing, pixel_size

#: libyaml's safe loader when PyYAML has it (six times faster than the pure-Python one on the
#: rendered drawings), else the pure-Python safe loader.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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
    text = json.dumps(value, sort_keys=True, ensure_ascii=True, default=_undefined_or_type_error)
    return _SURROGATE_PAIR.sub(lambda m: "\\U%08x" % (0x10000 + ((int("d" + m.group(1), 16) - 0xD800) << 10) + (int("d" + m.group(2), 16) - 0xDC00)), text)


def _undefined_or_type_error(value: Any) -> Any:
    """``json.dumps``' hook for what it cannot write: a value the template names that does not
    exist (``{{ unit.nmae | tojson }}``) raises Jinja's own undefined error, like any other use
    of it; anything else is a ``TypeError`` as ``json.dumps`` would raise."""
    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()
    raise TypeError(f"a {type(value).__name__} cannot be written as JSON")


def _text_em(text: str, bold: bool = True, word: bool = False) -> float:
    """Width of ``text`` (or, with ``word``, of its widest unbreakable word) in ems of the real
    font: what a template needs to give a text room before the fit check measures it."""
    from pipeline.render.drawing import text_length, widest_word

    return (widest_word(text, 100, bold) if word else text_length(text, 100, bold)) / 100


def _fit_size(text: str, size: float, *, max_width: float | None = None, max_height: float | None = None, bold: bool = False,
              wrap: bool = False, line_height: float = 1.2, min_size: float | None = None) -> float:
    """The size (units) a ``text`` shape with these parameters is drawn at after shrinking to
    fit (measured at 8 pixels per unit, as the fit checks measure): lets a template give a
    table column's cells the one size its most crowded cell needs."""
    from pipeline.render.drawing import _layout_text

    k = 8.0
    p = {"text": text, "size": size, "bold": bold, "max_width": max_width, "max_height": max_height, "wrap": wrap,
         "line_height": line_height, "min_size": min_size}
    return _layout_text(p, k)[1] / k


def _text_fits(text: str, size: float, *, max_width: float | None = None, max_height: float | None = None, bold: bool = False,
               wrap: bool = False, line_height: float = 1.2) -> bool:
    """Whether a ``text`` shape with these parameters fits its box at ``size`` (no shrinking;
    measured at 8 pixels per unit, as the fit checks measure, no word broken): lets a template
    leave off a text that cannot be shown at a legible size."""
    from pipeline.render.drawing import overflows, parse_drawing

    p = {"x": 0, "y": 0, "text": text, "size": size, "bold": bold, "max_width": max_width, "max_height": max_height, "wrap": wrap,
         "line_height": line_height, "min_size": size}
    d = parse_drawing({"canvas": {"width": 1, "height": 1}, "shapes": [{"text": p}]}, source="text_fits")
    return not overflows(d)


HELPERS: dict[str, Any] = {
    "text_em": _text_em,
    "fit_size": _fit_size,
    "text_fits": _text_fits,
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


#: Where compiled templates are kept between commands (:func:`use_bytecode_cache`), or None.
_bytecode_folder: Path | None = None
_bytecode_only_in: Path | None = None
#: Every renderer made in this process (each takes the folder set later too).
_renderers: weakref.WeakSet = weakref.WeakSet()


class _FolderBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's folder of compiled templates (written atomically), where a folder that cannot be
    read or written (removed, read-only, full) only costs compiling again; nothing is written
    while the folder ``only_in`` (the system's output folder) does not exist, so a command that
    fails before writing anything leaves no folder behind."""

    def __init__(self, directory: str, only_in: Path | None = None):
        super().__init__(directory)
        self.only_in = only_in

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # unreadable or damaged (a cut file): compiled again, and rewritten
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if self.only_in is not None and not self.only_in.is_dir():
            return
        try:
            os.makedirs(self.directory, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _bytecode_cache(folder: Path | None, only_in: Path | None = None) -> jinja2.BytecodeCache | None:
    return None if folder is None else _FolderBytecodeCache(str(folder), only_in)


def use_bytecode_cache(folder: Path | None, *, only_in: Path | None = None) -> None:
    """Keep the templates compiled by every renderer of this process in ``folder`` (e.g.
    ``build/genpei/.cache/templates``, beside the render cache), and read them from there:
    a command whose templates are unchanged does not compile them again (Genpei's 14 templates
    take about 0.4 s of CPU to compile). A compiled template is found by its name and source
    (Jinja checks the source's checksum and its own and Python's versions), so what is drawn
    never depends on the folder; a build into a new output folder compiles everything. A
    template already compiled in this process is not read again. ``None``: compile in memory
    only (the default). ``only_in``: write only while this folder exists (the system's output
    folder: a command that fails before it is made leaves nothing behind)."""
    global _bytecode_folder, _bytecode_only_in
    _bytecode_folder = Path(folder) if folder is not None else None
    _bytecode_only_in = Path(only_in) if only_in is not None else None
    cache = _bytecode_cache(_bytecode_folder, _bytecode_only_in)
    for r in list(_renderers):
        r.env.bytecode_cache = cache


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
        self.env.bytecode_cache = _bytecode_cache(_bytecode_folder, _bytecode_only_in)
        _renderers.add(self)

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
        """Render ``name``; any error is a :class:`RenderError` naming the template file and
        line where it happened (the macro file's, when it happened in an imported macro).

        Raises:
            RenderError: ``templates/genpei/unit_counter.yaml.j2:12: undefined value: 'dict
                object' has no attribute 'nmae'`` and the like: a missing template or imported
                file (naming it, and the line importing it), a syntax error, an undefined value
                (also inside ``| tojson``), any error of the template's expressions.
        """
        try:
            return self.env.get_template(name).render(**context)
        except jinja2.TemplateSyntaxError as exc:
            where = self._shown(exc.filename or str(self.root / name)) + (f":{exc.lineno}" if exc.lineno else "")
            raise RenderError(f"template syntax error: {exc.message}", source=where) from None
        except jinja2.TemplateNotFound as exc:
            where = self._where(exc)
            if where is None or exc.name == name:
                raise RenderError(f"no such template under {self._shown(str(self.root))}", source=name) from None
            raise RenderError(f"imports {exc.name!r}, which is not a template under {self._shown(str(self.root))}", source=where) from None
        except jinja2.UndefinedError as exc:
            raise RenderError(f"undefined value: {exc.message}", source=self._where(exc) or name) from None
        except RenderError:
            raise
        except Exception as exc:  # an expression of the template failed (a bad value, 1/0…)
            raise RenderError(f"{type(exc).__name__}: {exc}", source=self._where(exc) or name) from None

    def _where(self, exc: BaseException) -> str | None:
        """``file:line`` of the innermost template frame of ``exc``'s traceback (Jinja gives the
        frames of template code the template's file and line), or None."""
        import traceback

        found = None
        for frame, line in traceback.walk_tb(exc.__traceback__):
            filename = frame.f_code.co_filename
            if filename.endswith(".j2") and os.path.isfile(filename):
                found = f"{self._shown(filename)}:{line}"
        return found

    @staticmethod
    def _shown(path: str) -> str:
        """``path`` as a message shows it: relative to the working folder when under it."""
        rel = os.path.relpath(path)
        return path if rel.startswith("..") else rel

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
    try:
        return yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        lines = text.splitlines()
        line = f" at rendered line {mark.line + 1}: {lines[mark.line]!r}" if mark is not None and mark.line < len(lines) else ""
        raise RenderError(f"rendered text is not valid YAML{line} ({getattr(exc, 'problem', exc)})", source=source) from exc


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
