"""Incremental rendering: a content-hash cache of rendered PNG files.

A :class:`RenderJob` says what to draw: a template, its context and a pixel size (or a scale).
Its :meth:`RenderCache.key` is the SHA-256 of

- :data:`RENDERER_VERSION` and the source of the drawing engine (``drawing.py``, ``fonts.py``,
  ``png.py``), so a change to how primitives are drawn re-renders everything;
- the text of the template **and of every template it imports or includes** (found by parsing
  it, recursively), so editing ``_terrain.j2`` re-renders only the tiles;
- the job's context (as canonical JSON: the piece's data) and size.

The PNG of a job is stored as ``<folder>/<key>.png``. A job whose key is in the folder is not
drawn again: its bytes are read back. So after a change to one unit only that unit's images
are rendered; with no change nothing is.

Example::

    >>> cache = RenderCache(Path("build/genpei/.cache"), TemplateRenderer(Path("templates")))  # doctest: +SKIP
    >>> pngs = cache.render_all({"unit_x_red.png": RenderJob("genpei/unit_counter.yaml.j2", ctx, size=(55, 55))})  # doctest: +SKIP
    >>> cache.rendered                                                   # doctest: +SKIP
    ['unit_x_red.png']
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2.meta

from pipeline.render.png import png_bytes
from pipeline.render.templates import TemplateRenderer

#: Bump to invalidate every cached image (e.g. after a change outside the hashed sources).
RENDERER_VERSION = "1"

_ENGINE_FILES = ("drawing.py", "fonts.py", "png.py", "templates.py")


@dataclass(frozen=True)
class RenderJob:
    """One image to render: template ``template`` with ``context`` at ``size`` pixels
    ``(width, height)``, or at ``scale`` pixels per template unit (size from the canvas)."""

    template: str
    context: dict[str, Any]
    size: tuple[int, int] | None = None
    scale: float | None = None

    def render(self, renderer: TemplateRenderer):
        """Draw the job (no cache): a PIL RGBA image."""
        if self.size is not None:
            return renderer.image(self.template, self.context, size=self.size)
        return renderer.image(self.template, self.context, scale=self.scale if self.scale is not None else 1.0)


def _engine_digest() -> str:
    h = hashlib.sha256(RENDERER_VERSION.encode())
    here = Path(__file__).resolve().parent
    for name in _ENGINE_FILES:
        h.update(name.encode() + b"\0" + (here / name).read_bytes())
    return h.hexdigest()


@dataclass
class RenderCache:
    """A folder of rendered PNGs keyed by content hash.

    Args:
        folder: where PNGs are kept (created on first store); ``None`` = no cache (render all).
        renderer: the template renderer jobs are drawn with.

    Attributes:
        rendered: names of the jobs drawn (cache misses) by this object, in order.
        reused: names of the jobs read from the cache.
    """

    folder: Path | None
    renderer: TemplateRenderer
    rendered: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    _template_digests: dict[str, str] = field(default_factory=dict, repr=False)
    _engine: str = field(default_factory=_engine_digest, repr=False)

    # -- keys -----------------------------------------------------------------------------------

    def templates_used(self, name: str) -> list[str]:
        """``name`` and every template it imports, includes or extends, recursively, sorted."""
        seen: set[str] = set()
        todo = [name]
        env = self.renderer.env
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            source, _, _ = env.loader.get_source(env, n)  # type: ignore[union-attr]
            for ref in jinja2.meta.find_referenced_templates(env.parse(source)):
                if ref is not None:
                    todo.append(ref)
        return sorted(seen)

    def template_digest(self, name: str) -> str:
        """SHA-256 of the text of ``name`` and every template it uses (cached per object)."""
        if name not in self._template_digests:
            h = hashlib.sha256()
            env = self.renderer.env
            for n in self.templates_used(name):
                source, _, _ = env.loader.get_source(env, n)  # type: ignore[union-attr]
                h.update(n.encode() + b"\0" + source.encode() + b"\0")
            self._template_digests[name] = h.hexdigest()
        return self._template_digests[name]

    def key(self, job: RenderJob) -> str:
        """The job's content hash (hex)."""
        h = hashlib.sha256()
        h.update(self._engine.encode())
        h.update(self.template_digest(job.template).encode())
        h.update(json.dumps([job.template, job.context, job.size, job.scale], sort_keys=True, ensure_ascii=True, default=str).encode())
        return h.hexdigest()

    # -- rendering ------------------------------------------------------------------------------

    def png(self, name: str, job: RenderJob) -> bytes:
        """The PNG of ``job``: read from the cache, or drawn and stored. ``name`` is only recorded
        in :attr:`rendered` / :attr:`reused`."""
        if self.folder is None:
            self.rendered.append(name)
            return png_bytes(job.render(self.renderer))
        path = self.folder / f"{self.key(job)}.png"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            pass
        else:
            self.reused.append(name)
            return data
        data = png_bytes(job.render(self.renderer))
        self._store(path, data)
        self.rendered.append(name)
        return data

    def render_all(self, jobs: dict[str, RenderJob]) -> dict[str, bytes]:
        """PNG bytes of every job, by name (in the order of ``jobs``)."""
        return {name: self.png(name, job) for name, job in jobs.items()}

    def blob(self, name: str, key: str, make: Callable[[], bytes], ext: str = "bin") -> bytes:
        """A derived file (a composed sheet, a PDF) cached under ``key`` (a hash of everything
        it is made from): read back, or made by ``make()`` and stored. ``name`` is recorded in
        :attr:`rendered` / :attr:`reused` like a job's."""
        if self.folder is None:
            self.rendered.append(name)
            return make()
        path = self.folder / f"{key}.{ext}"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            pass
        else:
            self.reused.append(name)
            return data
        data = make()
        self._store(path, data)
        self.rendered.append(name)
        return data

    def _store(self, path: Path, data: bytes) -> None:
        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
