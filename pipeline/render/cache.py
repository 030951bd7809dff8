"""Incremental rendering: a content-hash cache of rendered PNG files.

A :class:`RenderJob` says what to draw: a template, its context and a pixel size (or a scale).
Its :meth:`RenderCache.key` is the SHA-256 of

- :data:`RENDERER_VERSION` and the source of the drawing engine (``drawing.py``, ``fonts.py``,
  ``png.py``, ``templates.py``), so a change to how primitives are drawn re-renders everything;
- the **drawing the template renders** from the job's context (the YAML text of the shapes,
  colours and texts it will draw) and the pixel size.

So the key holds exactly what is drawn: a data field the template does not draw (a unit's
long name on a counter that shows its abbreviation) or an edit to a template that does not
change a given image leaves that image's key alone, and the image is not drawn again. Templates
are rendered (Jinja, fast) on every run; only the drawing and PNG encoding (slow) are cached.

The PNG of a job is stored as ``<folder>/<key>.png``. A job whose key is in the folder is not
drawn again: its bytes are read back. The misses of one :meth:`RenderCache.render_all` are
drawn on every core (:mod:`pipeline.render.parallel`).

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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipeline import progress
from pipeline.render.parallel import DrawTask, PendingPngs, draw_pngs_later
from pipeline.render.templates import TemplateRenderer

#: Bump to invalidate every cached image (e.g. after a change outside the hashed sources).
RENDERER_VERSION = "2"

_ENGINE_FILES = ("drawing.py", "fonts.py", "png.py", "templates.py", "parallel.py")

@dataclass(frozen=True)
class RenderJob:
    """One image to render: template ``template`` with ``context`` at ``size`` pixels
    ``(width, height)``, or at ``scale`` pixels per template unit (size from the canvas).
    ``supersample`` overrides the drawing's default supersampling (1 for print images at
    300 DPI, where a pixel is 0.085 mm); ``png_level`` the zlib level of its cached PNG (print
    images, only ever decoded into a PDF, are stored at a fast level; ``None``: the default);
    ``bleed`` a print piece's bleed as a fraction of its width, drawn around the picture
    (:class:`~pipeline.render.parallel.DrawTask`; ``None``: none)."""

    template: str
    context: dict[str, Any]
    size: tuple[int, int] | None = None
    scale: float | None = None
    supersample: int | None = None
    png_level: int | None = None
    bleed: float | None = None

    def render(self, renderer: TemplateRenderer):
        """Draw the job (no cache): a PIL RGBA image (RGB with its ``bleed`` around it)."""
        from pipeline.render.drawing import draw, pixel_size

        d = renderer.drawing(self.template, self.context)
        size = self.size if self.size is not None else pixel_size(d, scale=self.scale if self.scale is not None else 1.0)
        img = draw(d, size, supersample=self.supersample)
        if self.bleed is not None:
            from pipeline.render.sheets import with_bleed

            img = with_bleed(img, round(self.bleed * img.width))
        return img

    def task(self, renderer: TemplateRenderer) -> DrawTask:
        """The job with its template rendered: what a drawing process needs.

        Raises:
            RenderError: the template is missing or fails.
        """
        return DrawTask(self.template, renderer.render_yaml(self.template, self.context), self.size, self.scale, self.supersample,
                        self.png_level, bleed=self.bleed)


def _engine_digest() -> str:
    h = hashlib.sha256(RENDERER_VERSION.encode())
    here = Path(__file__).resolve().parent
    for name in _ENGINE_FILES:
        h.update(name.encode() + b"\0" + (here / name).read_bytes())
    return h.hexdigest()


def task_key(engine: str, task: DrawTask) -> str:
    """The cache key (hex SHA-256) of a rendered task: engine digest, drawing text, size."""
    h = hashlib.sha256()
    h.update(engine.encode() + b"\0")
    h.update(task.text.encode() + b"\0")
    extra = ([task.supersample] if task.supersample is not None else []) + ([{"png_level": task.png_level}] if task.png_level is not None else [])
    extra += [{"bleed": task.bleed}] if task.bleed is not None else []
    h.update(json.dumps([task.size, task.scale] + extra).encode())
    return h.hexdigest()


#: Folder of the cache folder where long drawings are kept loaded, as JSON, for every process
#: drawing them (:func:`pipeline.render.templates.parse_drawing_text`).
DOCS_DIR = "drawings"

#: Images drawn (cache misses) by every cache of this process, for the Ctrl-C message.
drawn_total = 0


@dataclass
class RenderCache:
    """A folder of rendered PNGs keyed by content hash.

    Args:
        folder: where PNGs are kept (created on first store); ``None`` = no cache (render all).
        renderer: the template renderer jobs are drawn with.

    Attributes:
        rendered: names of the jobs drawn (cache misses) by this object, in order.
        reused: names of the jobs read from the cache.
        hold: while true, the drawings :meth:`render_all_later` sends are held: they write
            nothing in :attr:`folder` (no long drawing kept as JSON, :data:`DOCS_DIR`; no PNG
            stored or counted in :data:`drawn_total`) until they are awaited or
            :meth:`release` is called; from then on each is stored as it comes, as a drawing
            sent without hold. For drawings sent before the data is checked: a build its checks
            refuse, never waiting, writes nothing (:meth:`stop_drawing` drops them); a build
            they pass releases them, so that a later failure or Ctrl-C keeps what is drawn.
    """

    folder: Path | None
    renderer: TemplateRenderer
    rendered: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    hold: bool = False
    _engine: str = field(default_factory=_engine_digest, repr=False)
    #: cache key -> (wait function, index) of a drawing sent by a :meth:`render_all_later` not awaited yet
    _pending: dict[str, tuple[PendingPngs, int]] = field(default_factory=dict, repr=False)
    #: the release functions of the batches sent while :attr:`hold` was true, not released yet
    _held: list[Callable[[], None]] = field(default_factory=list, repr=False)

    # -- keys -----------------------------------------------------------------------------------

    def key(self, job: RenderJob) -> str:
        """The job's content hash (hex): of the drawing its template renders, not of its context."""
        return task_key(self._engine, job.task(self.renderer))

    # -- rendering ------------------------------------------------------------------------------

    def png(self, name: str, job: RenderJob) -> bytes:
        """The PNG of ``job``: read from the cache, or drawn and stored. ``name`` is only recorded
        in :attr:`rendered` / :attr:`reused`."""
        return self.render_all({name: job})[name]

    def render_all(self, jobs: dict[str, RenderJob]) -> dict[str, bytes]:
        """PNG bytes of every job, by name (in the order of ``jobs``). Jobs not in the cache are
        drawn on every core; jobs with the same drawing are drawn once.

        Raises:
            RenderError: a template or a drawing is invalid.
        """
        return self.render_all_later(jobs)()

    def render_all_later(self, jobs: dict[str, RenderJob]) -> Callable[[], dict[str, bytes]]:
        """:meth:`render_all`, the drawing started now: the templates are rendered and the cache
        looked up here, the misses sent to the drawing processes
        (:func:`pipeline.render.parallel.draw_pngs_later`), and a function returned at once that
        waits for them (storing each in the cache as it comes; with :attr:`hold`, once all are
        in, unless :meth:`release` came first) and gives the PNG bytes by name.
        A job whose drawing an earlier, not yet awaited call of this cache is drawing is not
        drawn again: it waits for that call. Calling the returned function again gives the
        same bytes.

        Raises:
            RenderError: a template is invalid (here), or a drawing is (by the returned function).
        """
        held = self.hold
        docs = str(self.folder / DOCS_DIR) if self.folder is not None and not held else None
        tasks = {name: replace(job.task(self.renderer), docs=docs) for name, job in jobs.items()}
        keys = {name: task_key(self._engine, t) for name, t in tasks.items()}
        out: dict[str, bytes] = {}
        missing: dict[str, list[str]] = {}  # key -> names
        earlier: dict[str, str] = {}  # name -> key an earlier call is drawing
        for name, key in keys.items():
            if key in self._pending:
                earlier[name] = key
                continue
            data = self._read(key, "png")
            if data is None:
                missing.setdefault(key, []).append(name)
            else:
                out[name] = data
                self.reused.append(name)
        order = list(missing)
        wait_drawn = PendingPngs(list)  # nothing to draw
        if missing:
            done = 0

            def tick(i: int) -> None:  # store each image as soon as it is drawn (Ctrl-C keeps it)
                nonlocal done
                global drawn_total
                done += 1
                drawn_total += 1
                progress.count(done, len(order), "images drawn")

            holding = [held]  # this batch's hold: until it is awaited or released
            stored: set[int] = set()
            early: dict[int, bytes] = {}  # drawn while held, for release

            def keep(i: int, data: bytes) -> None:  # a drawing came in (waiting or stopping)
                if holding[0]:
                    early[i] = data
                elif i not in stored:
                    stored.add(i)
                    self._store(order[i], "png", data)
                    tick(i)

            def release() -> None:
                holding[0] = False
                for i in sorted(early):
                    keep(i, early.pop(i))

            if held:
                self._held.append(release)
            wait_drawn = draw_pngs_later([tasks[missing[k][0]] for k in order], None, store=keep)
            for i, key in enumerate(order):
                self._pending[key] = (wait_drawn, i)
        finished: list[dict[str, bytes]] = []

        def wait() -> dict[str, bytes]:
            if finished:
                return finished[0]
            if missing:  # awaited: a held batch is released (each drawing stored as it comes)
                release()
                if release in self._held:
                    self._held.remove(release)
            try:
                pngs = wait_drawn()
            finally:
                for key in order:
                    self._pending.pop(key, None)
            for i, (key, data) in enumerate(zip(order, pngs, strict=True)):
                if missing:
                    keep(i, data)
                for name in missing[key]:
                    out[name] = data
                    self.rendered.append(name)
            for name, key in earlier.items():
                waiting = self._pending.get(key)
                data = waiting[0]()[waiting[1]] if waiting is not None else self._read(key, "png")
                if data is None:  # drawn by the earlier call but not stored (no cache folder)
                    data = self.render_all({name: jobs[name]})[name]
                else:
                    self.reused.append(name)
                out[name] = data
            finished.append({name: out[name] for name in jobs})
            return finished[0]

        return wait

    def release(self) -> None:
        """Stop holding the drawings sent while :attr:`hold` was true (a build whose checks
        passed): those already in are stored in the cache now, the others as they come (when
        awaited) or when :meth:`stop_drawing` gives them up, as drawings sent without hold."""
        held, self._held = self._held, []
        for release in held:
            release()

    def stop_drawing(self) -> None:
        """Give up every drawing a :meth:`render_all_later` sent and nobody awaited (a build that
        failed or was interrupted before waiting): those finished are stored in the cache (and
        counted in :data:`drawn_total`; not those sent while :attr:`hold` was true and not
        released since, which are dropped), those not started are cancelled, so that the
        command neither waits at exit for drawings nobody will read nor loses those already
        made."""
        batches = {id(pending): pending for pending, _i in self._pending.values()}
        self._pending.clear()
        for pending in batches.values():
            pending.stop()
        self._held.clear()  # dropped

    def blob(self, name: str, key: str, make: Callable[[], bytes], ext: str = "bin") -> bytes:
        """A derived file (a composed sheet, a PDF) cached under ``key`` (a hash of everything
        it is made from): read back, or made by ``make()`` and stored. ``name`` is recorded in
        :attr:`rendered` / :attr:`reused` like a job's."""
        data = self._read(key, ext)
        if data is not None:
            self.reused.append(name)
            return data
        data = make()
        self._store(key, ext, data)
        self.rendered.append(name)
        return data

    def cached_blob(self, key: str, ext: str = "bin") -> bytes | None:
        """The bytes of the derived file cached under ``key`` (:meth:`blob`), or ``None`` when
        it is not in the cache (or there is no cache folder)."""
        return self._read(key, ext)

    def _read(self, key: str, ext: str) -> bytes | None:
        if self.folder is None:
            return None
        try:
            return (self.folder / f"{key}.{ext}").read_bytes()
        except FileNotFoundError:
            return None

    def _store(self, key: str, ext: str, data: bytes) -> None:
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{key}.{ext}"
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError as exc:  # a full disk: no half-written file left, and the message names it
            tmp.unlink(missing_ok=True)
            raise OSError(exc.errno, exc.strerror, str(path)) from None
