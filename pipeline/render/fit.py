"""Texts from the data must fit where their template draws them, in characters the font has.

A template gives each text a place (``max_width``/``max_height`` of a ``text`` shape, the box of
a ``paragraphs`` block) and a smallest size (``min_size``, ``min_scale``). :func:`check` renders
a template with a piece's context (Jinja only, nothing is drawn), lays every such text out with
the real font at its smallest size (:func:`pipeline.render.drawing.overflows`) and turns each
overflow into a :class:`~pipeline.errors.DataProblem` naming the data file, line and value the
text came from. A character the Noto Sans CJK JP font lacks (an emoji) would print as an empty
box ("tofu") and is a problem too. Every game system checks its texts this way when it loads
(Genpei: :mod:`pipeline.systems.genpei.fit`; the measured systems:
:mod:`pipeline.measured.fit`), so a text that cannot be shown is refused before anything is
drawn.

Laying the texts out is most of a data load's time: a command can keep the results
(:func:`use_fit_cache`, ``build/<system>/.cache/fit.json``), each under the SHA-256 of the
drawing text the template rendered and of the layout code, so a load after a one-unit change
lays out only the texts of that unit.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pipeline.data.yamlfile import YamlDocument, shown_value
from pipeline.errors import DataProblem
from pipeline.render.drawing import overflows
from pipeline.render.fonts import missing_glyphs, not_drawn
from pipeline.render.templates import TemplateRenderer, parse_drawing_text

#: Longest part of a value quoted in a message.
QUOTE = 60

#: A text of the data: its document, its location in it (keys and indexes) and its value.
Field = tuple[YamlDocument, tuple[Any, ...], str]


def quote(value: str) -> str:
    """``value`` for a message: whitespace collapsed, cut after :data:`QUOTE` characters with
    the full length said."""
    value = " ".join(value.split())
    return repr(value) if len(value) <= QUOTE else repr(value[:QUOTE]) + f"… ({len(value)} characters)"


def where(loc: tuple[Any, ...]) -> str:
    """A location as messages write it: ``units[3].name``."""
    from pipeline.data.yamlfile import format_location

    return format_location(loc)


def _blamed(out: list[DataProblem], doc: YamlDocument, loc: tuple[Any, ...]) -> bool:
    """True when ``out`` already has a problem with the field at ``loc`` of ``doc``."""
    at = where(loc)
    return any(p.file == doc.path and p.where == at for p in out)


def glyph_problems(fields: Iterable[Field], out: list[DataProblem]) -> None:
    """Add a problem for each field whose text uses a character that would not print as written
    (:func:`pipeline.render.fonts.missing_glyphs`: one the font lacks, a format character such
    as U+202E RIGHT-TO-LEFT OVERRIDE), once per field."""
    import unicodedata

    for doc, loc, value in fields:
        missing = missing_glyphs(value) if value else []
        if missing and not _blamed(out, doc, loc):
            lacks = [c for c in missing if not not_drawn(c)]
            hidden = [c for c in missing if not_drawn(c)]
            parts = []
            if lacks:
                parts.append("it lacks " + ", ".join(f"{c!r} (U+{ord(c):04X})" for c in lacks[:5]) + ", which would print as empty boxes")
            if hidden:
                names = ", ".join(f"U+{ord(c):04X}" + (f" {unicodedata.name(c)}" if unicodedata.name(c, "") else "") for c in hidden[:5])
                parts.append(f"{names} would not print as written (a format, control or unassigned character: "
                             "shown as a box, or unseen while it reorders or hides the text)")
            out.append(DataProblem(doc.path, doc.line_of(loc), where(loc), shown_value(value), "characters the Noto Sans CJK JP font has; " + "; ".join(parts)))


def document_glyph_problems(docs: Iterable[YamlDocument], out: list[DataProblem]) -> None:
    """Add a problem for every text of the documents (every string value, wherever it is)
    that uses a character that would not print as written: whichever template, card, sheet or
    PDF prints it (a mon's text, a roster's name, a rule's summary), it is checked, and a text
    added to a template later is checked already."""
    for doc in docs:
        glyph_problems(((doc, loc, v) for loc, v in _texts(doc.data, ())), out)


def _texts(data: Any, loc: tuple[Any, ...]) -> Iterable[tuple[tuple[Any, ...], str]]:
    if isinstance(data, str):
        yield loc, data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from _texts(v, loc + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _texts(v, loc + (i,))


class FitCache:
    """The overflows (:class:`~pipeline.render.drawing.Overflow`) of drawings laid out by an
    earlier command, kept in one JSON file: drawing key → ``[[where, text, need], …]``.

    A key is the SHA-256 of the layout code (:data:`_LAYOUT_FILES`), the template's name and
    the drawing text it rendered: the same text laid out by the same code overflows the same
    way. A file that cannot be read or is not such a map counts as empty; :meth:`save` keeps
    only the drawings this command looked up (the file does not grow with old data).
    """

    def __init__(self, path: Path, only_in: Path | None = None):
        self.path = Path(path)
        self.only_in = only_in
        self.known: dict[str, list[list[str]]] = {}
        self.used: dict[str, list[list[str]]] = {}
        self.added = 0
        try:
            found = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            found = None
        if isinstance(found, dict) and found.get("code") == _layout_digest() and isinstance(found.get("drawings"), dict):
            self.known = {k: v for k, v in found["drawings"].items() if isinstance(v, list)
                          and all(isinstance(o, list) and len(o) == 3 and all(isinstance(x, str) for x in o) for o in v)}

    @staticmethod
    def key(template: str, text: str) -> str:
        """The key of ``text``, rendered by ``template``."""
        return hashlib.sha256(f"{_layout_digest()}\0{template}\0{text}".encode()).hexdigest()

    def get(self, key: str) -> list[Any] | None:
        """The overflows laid out for ``key`` before, or None."""
        from pipeline.render.drawing import Overflow

        found = self.known.get(key)
        if found is None:
            return None
        self.used[key] = found
        return [Overflow(*o) for o in found]

    def put(self, key: str, found: list[Any]) -> None:
        self.used[key] = self.known[key] = [[o.where, o.text, o.need] for o in found]
        self.added += 1

    def save(self) -> None:
        """Write the drawings looked up (atomically); a failure only costs laying out again."""
        if not self.used or (not self.added and len(self.used) == len(self.known)):
            return  # nothing new, nothing to drop
        if self.only_in is not None and not self.only_in.is_dir():
            return  # the command wrote nothing there: neither does its cache
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"code": _layout_digest(), "drawings": self.used}, sort_keys=True), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)


#: The code that decides whether a text fits (its source is part of every :class:`FitCache` key).
_LAYOUT_FILES = ("drawing.py", "fonts.py", "templates.py", "fit.py")
_layout: list[str] = []
#: The cache :func:`check` uses, or None (:func:`use_fit_cache`).
_fit_cache: FitCache | None = None


def _layout_digest() -> str:
    if not _layout:
        h = hashlib.sha256(b"gunbai fit 1\0")
        here = Path(__file__).resolve().parent
        for name in _LAYOUT_FILES:
            h.update(name.encode() + b"\0" + (here / name).read_bytes() + b"\0")
        _layout.append(h.hexdigest())
    return _layout[0]


def use_fit_cache(path: Path | None, *, only_in: Path | None = None) -> None:
    """Keep the layouts :func:`check` works out in ``path`` (a JSON file, e.g.
    ``build/genpei/.cache/fit.json``) and read the earlier ones from it; the file is written
    when the next cache is chosen (or ``None``, no cache: the default), and only if the folder
    ``only_in`` (the system's output folder) exists then."""
    global _fit_cache
    if _fit_cache is not None:
        _fit_cache.save()
    _fit_cache = FitCache(path, only_in) if path is not None else None


def _overflows(template: str, text: str) -> list[Any]:
    """:func:`~pipeline.render.drawing.overflows` of ``text`` parsed, from the cache when there."""
    cache = _fit_cache
    key = FitCache.key(template, text) if cache is not None else ""
    if cache is not None:
        found = cache.get(key)
        if found is not None:
            return found
    result = overflows(parse_drawing_text(text, template))
    if cache is not None:
        cache.put(key, result)
    return result


def check(renderer: TemplateRenderer, template: str, context: dict[str, Any], fields: Iterable[Field], out: list[DataProblem], place: str = "") -> None:
    """Lay out ``template`` with ``context`` and add to ``out`` a problem for each data field
    whose text overflows its place at the smallest size the template allows, or uses a character
    the font lacks. A drawn text holding several fields (a block of lines) blames the longest
    field it contains; a field no overflowing text contains is not blamed; a field already
    blamed in ``out`` (drawn by another template too) is not blamed twice.

    Args:
        renderer: renders ``template`` (a path under the templates folder).
        context: the template's context, built from the data as the real image is.
        fields: the data texts the context holds.
        out: problems are appended here.
        place: what the template draws, for messages (``the unit counter``).
    """
    fields = [f for f in fields if f[2]]
    glyph_problems(fields, out)
    blamed: set[int] = set()
    for o in _overflows(template, renderer.render_yaml(template, context)):
        flat = " ".join(o.text.split())
        candidates = [i for i, (_d, _l, v) in enumerate(fields) if " ".join(v.split()) and " ".join(v.split()) in flat]
        if not candidates:
            continue
        i = max(candidates, key=lambda i: len(fields[i][2]))  # in a block of texts, the longest one
        if i in blamed:
            continue
        blamed.add(i)
        doc, loc, value = fields[i]
        if _blamed(out, doc, loc):
            continue  # the same text already refused where another template draws it
        out.append(DataProblem(doc.path, doc.line_of(loc), where(loc), quote(value),
                               f"a text that fits its place on {place or template} ({template}); at the smallest size the template allows it needs {o.need}"))


def floor_check(renderer: TemplateRenderer, template: str, context: dict[str, Any], per_unit: float, medium: str, out: list[DataProblem], place: str = "") -> None:
    """Add a problem, naming the template file and the shape, for each text ``template`` (with
    ``context``) lets shrink below the legibility floor of ``medium``
    (:data:`~pipeline.render.legible.FLOORS`: ``screen``, 8 px at ``per_unit`` pixels per unit;
    ``print``, 7 pt at ``per_unit`` points per unit), the same floor for every system; once per
    template and shape. Together with :func:`check` (which lays each data text out at that
    smallest size) no data text is drawn under the floor: a text that cannot fit at it is
    refused with its file, line and value."""
    from pipeline.render.legible import FLOORS, floor_problems

    least, unit = FLOORS[medium]
    drawing = parse_drawing_text(renderer.render_yaml(template, context), template)
    path = Path(renderer.root) / template
    for small in floor_problems(drawing, per_unit, least, template):
        if any(p.file == path and p.where == small.where for p in out):
            continue
        out.append(DataProblem(path, None, small.where, quote(small.text),
                               f"a smallest size of at least {least:g} {unit} on {place or template} "
                               f"(min_size at least {least / per_unit:.1f} units); it may shrink to {small.smallest:.1f} {unit}"))
