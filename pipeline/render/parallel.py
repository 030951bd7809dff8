"""Drawing on every core: a process pool that turns rendered drawing text into PNG bytes.

Drawing (Pillow) and PNG encoding hold the GIL, so images are drawn in worker processes. The
pool is started once per command (:func:`start`, before any thread is running, so forking is
safe) and every :meth:`pipeline.render.cache.RenderCache.render_all` of every system sends its
cache misses to it. A task is pure data — the template name (for errors), the drawing's YAML
text and the pixel size — and its result is the PNG's bytes, so the output does not depend on
the number of workers or on the order they finish in.

With one worker (``--jobs 1``, or one core) nothing is forked and images are drawn in the
calling process.

Example::

    >>> set_workers(1)
    >>> draw_pngs([DrawTask("t", "canvas: {width: 2, height: 2}\\nshapes: []\\n", (2, 2), None)])[0][:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Environment variable that sets the number of drawing processes (default: the usable cores).
JOBS_ENV = "GUNBAI_JOBS"


@dataclass(frozen=True)
class DrawTask:
    """One image to draw: the YAML ``text`` of a drawing rendered from template ``source``, at
    ``size`` pixels ``(width, height)`` or at ``scale`` pixels per drawing unit, supersampled
    ``supersample`` times (``None``: :func:`pipeline.render.drawing.draw`'s default), its PNG
    compressed at zlib ``png_level`` (``None``: :data:`pipeline.render.png.PNG_LEVEL`).
    ``docs``: folder where long drawings are kept loaded, shared by every process
    (:func:`pipeline.render.templates.parse_drawing_text`); not part of what is drawn.
    ``bleed``: a print piece's bleed as a fraction of its width: the picture is flattened on
    white and grown by ``round(bleed × width)`` px on every side by repeating its edge pixels
    (:func:`pipeline.render.sheets.with_bleed`), an RGB PNG a PDF can hold as it is
    (:func:`pipeline.render.sheets.embed_png`); ``None``: the picture as drawn."""

    source: str
    text: str
    size: tuple[int, int] | None
    scale: float | None
    supersample: int | None = None
    png_level: int | None = None
    docs: str | None = None
    bleed: float | None = None


def draw_png(task: DrawTask) -> bytes:
    """Parse, draw and encode one task (runs in a worker process or in the caller).

    Raises:
        RenderError: the text is not a valid drawing.
    """
    from pipeline.render.drawing import draw, pixel_size
    from pipeline.render.png import PNG_LEVEL, png_bytes
    from pipeline.render.templates import parse_drawing_text

    drawing = parse_drawing_text(task.text, task.source, Path(task.docs) if task.docs is not None else None)
    size = task.size if task.size is not None else pixel_size(drawing, scale=task.scale if task.scale is not None else 1.0)
    img = draw(drawing, size, supersample=task.supersample)
    if task.bleed is not None:
        from pipeline.render.sheets import with_bleed

        img = with_bleed(img, round(task.bleed * img.width))
    return png_bytes(img, PNG_LEVEL if task.png_level is None else task.png_level)


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


_workers: int | None = None
_pool: ProcessPoolExecutor | None = None


def workers() -> int:
    """The number of drawing processes: :func:`set_workers`, else ``$GUNBAI_JOBS``, else the
    usable cores.

    Raises:
        ValueError: ``GUNBAI_JOBS`` is not a whole number from 1 to 256.
    """
    if _workers is not None:
        return _workers
    env = os.environ.get(JOBS_ENV, "").strip()
    if env:
        if not env.isdigit() or not 1 <= int(env) <= 256:
            raise ValueError(f"{JOBS_ENV}={env!r}: expected a whole number of processes from 1 to 256")
        return int(env)
    return usable_cores()


def set_workers(n: int | None) -> None:
    """Use ``n`` drawing processes from now on (``None``: the default of :func:`workers`); a pool
    of another size is shut down.

    Raises:
        ValueError: ``n`` is below 1.
    """
    global _workers
    if n is not None and n < 1:
        raise ValueError(f"--jobs {n}: expected at least 1")
    if n != _workers:
        shutdown()
    _workers = n


def start() -> None:
    """Start the worker processes now (forked from this process; call before starting threads)."""
    _get_pool()


def _get_pool() -> ProcessPoolExecutor | None:
    global _pool
    n = workers()
    if n <= 1:
        return None
    if _pool is None:
        ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
        _pool = ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_worker_init)
        _pool.submit(int).result()  # fork every worker now (a fork context starts them all at once)
    return _pool


def _worker_init() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it cancels the work and says what was
    kept); a worker that got it too would print a traceback. A parent that dies without
    stopping its workers (killed) takes them with it (Linux: ``PR_SET_PDEATHSIG``), where they
    would wait for work forever, holding the command's output open."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler (pipeline.errors.Terminated)
    die_with_parent()


def die_with_parent() -> None:
    """Ask the kernel to kill this (forked) process when its parent dies (Linux); elsewhere
    nothing. Exits at once when the parent is already gone."""
    parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return
    if os.getppid() != parent or parent == 1:
        os._exit(1)


def shutdown(wait: bool = True) -> None:
    """Stop the worker processes: tasks not started are cancelled; with ``wait`` the running
    ones are waited for."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=wait, cancel_futures=True)
        _pool = None


def draw_pngs(tasks: Sequence[DrawTask], on_done: Callable[[int], None] | None = None,
              store: Callable[[int, bytes], None] | None = None) -> list[bytes]:
    """PNG bytes of every task, in the order given, drawn on :func:`workers` processes.

    Args:
        tasks: what to draw.
        on_done: called with the index of each task as it finishes (for progress).
        store: called with the index and bytes of each task as it finishes (before
            ``on_done``), e.g. to put it in the render cache at once.

    Raises:
        RenderError: a task's drawing is invalid (the first one, in task order).
    """
    return draw_pngs_later(tasks, on_done, store)()


class PendingPngs:
    """PNGs being drawn (:func:`draw_pngs_later`): call it to wait for them and get their bytes;
    :meth:`stop` gives them up (a build that failed or was interrupted before waiting)."""

    def __init__(self, wait: Callable[[], list[bytes]], stop: Callable[[], None] | None = None) -> None:
        self._wait, self._stop = wait, stop

    def __call__(self) -> list[bytes]:
        return self._wait()

    def stop(self) -> None:
        """Keep the drawings already finished (``store`` and ``on_done`` run for each, as when
        waited for) and cancel those not started; those running finish unseen."""
        if self._stop is not None:
            self._stop()


def draw_pngs_later(tasks: Sequence[DrawTask], on_done: Callable[[int], None] | None = None,
                    store: Callable[[int, bytes], None] | None = None) -> PendingPngs:
    """Send every task to the drawing processes now and return at once a function that waits
    for them and returns their PNG bytes in the order given (:func:`draw_pngs`), so that this
    process goes on meanwhile (rendering the next templates, building the module). The drawing
    processes take tasks in the order they were sent. ``on_done`` and ``store`` run in this
    process while the returned function waits. With one worker (or a single task) the tasks
    are drawn here, now. Calling the returned function again gives the same list. Its
    :meth:`~PendingPngs.stop` keeps what is drawn and cancels the rest, so that a caller that
    fails before waiting leaves no drawing queued (the command would wait for them to exit) and
    its finished drawings stored.

    Raises:
        RenderError: (raised by the returned function) a task's drawing is invalid (the first
            one, in task order).
    """
    pool = _get_pool() if len(tasks) > 1 else None
    if pool is None:
        out = []
        for i, t in enumerate(tasks):
            out.append(draw_png(t))
            if store:
                store(i, out[-1])
            if on_done:
                on_done(i)
        return PendingPngs(lambda: out)
    # largest drawings first, so that a big one does not start last and run alone
    order = sorted(range(len(tasks)), key=lambda i: -_weight(tasks[i]))
    futures: dict[Future, int] = {pool.submit(draw_png, tasks[i]): i for i in order}
    done: list[list[bytes]] = []
    kept: set[int] = set()  # tasks whose store and on_done have run

    def keep(i: int, png: bytes) -> None:
        if i not in kept:
            kept.add(i)
            if store:
                store(i, png)
            if on_done:
                on_done(i)

    def stop() -> None:
        for fut in futures:
            fut.cancel()
        for fut, i in futures.items():
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                keep(i, fut.result())

    def wait() -> list[bytes]:
        if done:
            return done[0]
        results: list[bytes | None] = [None] * len(tasks)
        errors: dict[int, BaseException] = {}
        try:
            for fut in as_completed(futures):
                i = futures[fut]
                exc = fut.exception()
                if exc is not None:
                    errors[i] = exc
                    continue
                results[i] = fut.result()
                keep(i, results[i])  # type: ignore[arg-type]
        except BaseException:  # Ctrl-C: drop what has not started
            for fut in futures:
                fut.cancel()
            raise
        if errors:
            raise errors[min(errors)]  # the same error whatever order the workers finished in
        done.append(results)  # type: ignore[arg-type]
        return results  # type: ignore[return-value]

    return PendingPngs(wait, stop)


def call_all(func: Callable[..., Any], calls: Sequence[tuple]) -> list[Any]:
    """``[func(*args) for args in calls]``, run on the drawing processes of :func:`start` (here,
    one after the other, with one worker, in a forked child or for a single call). ``func`` must
    be a module-level function and its arguments and result picklable. The drawing processes
    live for the whole command, so what a call loads once (a library, a font) serves every later
    call of every system.

    Raises:
        Exception: the exception of the first failing call (in the order given), re-raised.
    """
    if len(calls) <= 1:
        return [func(*args) for args in calls]
    return call_all_later(func, calls)()


def call_all_later(func: Callable[..., Any], calls: Sequence[tuple]) -> Callable[[], list[Any]]:
    """Start ``[func(*args) for args in calls]`` on the drawing processes of :func:`start` and
    return at once a function that waits for the calls and returns their results in order, so
    that this process goes on meanwhile (the drawing processes take the calls before any work
    sent to them later). With one worker or in a forked child the calls run here, now. ``func``
    must be a module-level function and its arguments and result picklable.

    Raises:
        Exception: (raised by the returned function) the exception of the first failing call,
            in the order given.
    """
    pool = _get_pool() if calls else None
    if pool is None:
        results = [func(*args) for args in calls]
        return lambda: results
    futures = [pool.submit(func, *args) for args in calls]

    def wait() -> list[Any]:
        try:
            return [f.result() for f in futures]
        except BaseException:
            for f in futures:
                f.cancel()
            raise

    return wait


def _weight(task: DrawTask) -> float:
    if task.size is not None:
        return task.size[0] * task.size[1]
    return (task.scale or 1.0) ** 2 * 1e4


def fork_map(makers: dict[str, Callable[[], bytes]], on_done: Callable[[int, int], None] | None = None) -> dict[str, bytes]:
    """Run the makers (any callables returning bytes: a PDF assembly, a composed sheet) in
    :func:`workers` forked child processes and return their results by name in the order given.

    Each child is forked once and runs maker after maker as the parent hands them out (the next
    one to whichever child finishes first), so what a child loads on its first maker (fonts,
    the PDF library, a board picture) serves its later ones, and forking the parent (hundreds of
    MB) happens once per core instead of once per file. Closures need no pickling (the child is
    a copy of this process). A child draws images itself (it cannot use the drawing pool), so
    draw what the makers need first (:meth:`~pipeline.render.cache.RenderCache.render_all`, on
    every core) and let them read it back from the render cache. With one worker, or where
    ``fork`` does not exist, the makers run here one after the other.

    Raises:
        Exception: the exception of the first failing maker (in the order given), re-raised;
            RuntimeError when a child ends without a result (killed).
    """
    import pickle

    names = list(makers)
    n = workers()
    if n <= 1 or len(names) <= 1 or not hasattr(os, "fork"):
        out = {}
        for i, name in enumerate(names):
            out[name] = makers[name]()
            if on_done:
                on_done(i + 1, len(names))
        return out
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("fork")
    tasks = [makers[name] for name in names]
    results: dict[str, bytes] = {}
    errors: dict[str, BaseException] = {}
    todo = list(range(len(names)))
    busy: dict[Any, tuple[int, multiprocessing.process.BaseProcess]] = {}  # parent end -> (task, child)
    children = []
    try:
        for _ in range(min(n, len(names))):
            parent_end, child_end = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(tasks, child_end), daemon=True)
            proc.start()
            child_end.close()
            children.append((parent_end, proc))
            i = todo.pop(0)
            parent_end.send(i)
            busy[parent_end] = (i, proc)
        while busy:
            for conn in wait(list(busy)):
                i, proc = busy.pop(conn)  # type: ignore[call-overload]
                try:
                    ok, value = pickle.loads(conn.recv_bytes())
                except (OSError, EOFError, pickle.UnpicklingError):
                    proc.join()
                    ok, value = False, RuntimeError(f"{names[i]}: the process making it ended without a result (exit code {proc.exitcode})")
                    todo.clear()  # the child is gone: stop handing out work
                if ok:
                    results[names[i]] = value
                else:
                    errors[names[i]] = value
                if on_done:
                    on_done(len(results) + len(errors), len(names))
                if todo and proc.is_alive():
                    nxt = todo.pop(0)
                    conn.send(nxt)  # type: ignore[union-attr]
                    busy[conn] = (nxt, proc)
        for conn, _proc in children:
            try:
                conn.send(None)  # no more work: the child exits
            except OSError:
                pass
            conn.close()
        for _conn, proc in children:
            proc.join()
    except BaseException:
        for _conn, proc in children:
            if proc.is_alive():
                proc.terminate()
        for _conn, proc in children:
            proc.join()
        raise
    for name in names:
        if name in errors:
            raise errors[name]
    if len(results) != len(names):  # a child died: the makers it never got have no result
        missing = next(name for name in names if name not in results)
        raise RuntimeError(f"{missing}: not made (a process making the files ended early)")
    return {name: results[name] for name in names}


def _serve(tasks: list[Callable[[], bytes]], conn: Any) -> None:
    """In a forked child: make ``tasks[i]`` for every index ``i`` received on ``conn`` and send
    back ``(ok, value)`` pickled, until ``None`` (or the parent's end closing) says stop."""
    import pickle

    _in_child()
    while True:
        try:
            i = conn.recv()
        except EOFError:
            return
        if i is None:
            return
        try:
            payload = pickle.dumps((True, tasks[i]()))
        except Exception as exc:  # handed to the parent, which re-raises it
            try:
                payload = pickle.dumps((False, exc))
            except Exception:  # an exception that does not pickle
                payload = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        conn.send_bytes(payload)


def _in_child() -> None:
    """In a forked child: forget the parent's drawing pool (its processes and threads are the
    parent's), draw in-process, show no progress, and take the default SIGINT/SIGTERM."""
    global _pool, _workers
    _pool = None
    _workers = 1
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    from pipeline import progress

    progress.enable(False)
