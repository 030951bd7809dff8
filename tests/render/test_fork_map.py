"""fork_map: makers run in long-lived forked children, results in the order given, the first
failing maker's error re-raised, a child that dies reported instead of hanging."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from pipeline.render import parallel

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def two_workers():
    parallel.set_workers(2)
    try:
        yield
    finally:
        parallel.set_workers(None)


def test_results_in_the_order_given_from_two_children(two_workers):
    # 7 makers on 2 children: each child serves several, and each result says which process made it
    out = parallel.fork_map({f"m{i}": (lambda i=i: f"{i}:{os.getpid()}".encode()) for i in range(7)})
    assert list(out) == [f"m{i}" for i in range(7)]
    assert [v.split(b":")[0] for v in out.values()] == [str(i).encode() for i in range(7)]
    pids = {v.split(b":")[1] for v in out.values()}
    assert str(os.getpid()).encode() not in pids  # none ran in the parent
    assert 1 <= len(pids) <= 2  # children are reused: at most one per worker, not one per maker


def test_first_failing_maker_in_order_is_raised(two_workers):
    def fail(msg: str):
        def make() -> bytes:
            raise ValueError(msg)
        return make

    with pytest.raises(ValueError, match="second"):
        parallel.fork_map({"a": lambda: b"ok", "b": fail("second"), "c": fail("third"), "d": lambda: b"ok"})


def test_a_killed_child_is_an_error_not_a_hang(two_workers):
    def die() -> bytes:
        os.kill(os.getpid(), signal.SIGKILL)
        return b""

    with pytest.raises(RuntimeError, match="ended without a result"):
        parallel.fork_map({"a": lambda: b"ok", "b": die, "c": lambda: b"ok", "d": lambda: b"ok"})


def test_one_worker_runs_here(tmp_path):
    parallel.set_workers(1)
    try:
        assert parallel.fork_map({"a": lambda: str(os.getpid()).encode()}) == {"a": str(os.getpid()).encode()}
    finally:
        parallel.set_workers(None)


# call_all: module-level functions on the long-lived drawing processes


def _pid_and(x: int, y: int) -> str:
    return f"{x * y}:{os.getpid()}"


def _fail_on(x: int) -> int:
    if x >= 2:
        raise ValueError(f"call {x}")
    return x


def test_call_all_runs_on_the_drawing_processes_in_order(two_workers):
    out = parallel.call_all(_pid_and, [(i, 3) for i in range(6)])
    assert [o.split(":")[0] for o in out] == [str(i * 3) for i in range(6)]
    pids = {o.split(":")[1] for o in out}
    pool = {str(p) for p in parallel._pool._processes}  # the two drawing processes forked at start
    assert len(pool) == 2 and str(os.getpid()) not in pids and pids <= pool
    again = parallel.call_all(_pid_and, [(1, 1), (2, 2)])
    # the same processes serve later calls (under load one of them may have taken all six
    # calls above, so the later ones are compared with the pool, not with those six)
    assert {o.split(":")[1] for o in again} <= pool
    with pytest.raises(ValueError, match="call 2"):
        parallel.call_all(_fail_on, [(0,), (1,), (2,), (3,)])
    parallel.shutdown()


def test_call_all_with_one_worker_or_one_call_runs_here(two_workers):
    assert parallel.call_all(_pid_and, [(2, 5)]) == [f"10:{os.getpid()}"]
    parallel.set_workers(1)
    assert parallel.call_all(_pid_and, [(1, 2), (3, 4)]) == [f"2:{os.getpid()}", f"12:{os.getpid()}"]
    assert parallel.call_all(_pid_and, []) == []


def test_call_all_later_returns_at_once_and_waits_when_asked(two_workers):
    wait = parallel.call_all_later(_pid_and, [(4, 2)])  # even one call goes to a drawing process
    out = wait()
    assert out[0].split(":")[0] == "8" and out[0].split(":")[1] != str(os.getpid())
    failing = parallel.call_all_later(_fail_on, [(0,), (2,), (3,)])  # no error until waited for
    with pytest.raises(ValueError, match="call 2"):
        failing()
    parallel.set_workers(1)
    assert parallel.call_all_later(_pid_and, [(1, 2)])() == [f"2:{os.getpid()}"]
    assert parallel.call_all_later(_pid_and, [])() == []


def test_font_subsets_cut_later_are_found_in_the_folder_of_their_start(two_workers, tmp_path):
    """prepare_pdf_subsets_later: the subsets are cut into the subset folder current when they
    were started, and known there after waiting, even when the folder changed meanwhile."""
    from pipeline.render import fonts

    before = fonts._subset_dir
    fonts.keep_subsets_in(tmp_path / "a")
    try:
        done = fonts.prepare_pdf_subsets_later("義経")
        fonts.keep_subsets_in(tmp_path / "b")
        done()
    finally:
        fonts._subset_dir = before
    assert sorted(p.name.split("-")[1] for p in (tmp_path / "a").glob("*.otf")) == ["bold", "regular"]
    assert {fonts.pdf_subset_path(b, "義経").parent for b in (False, True)} == {tmp_path / "a"}
    assert list((tmp_path / "b").glob("*.otf")) == []
    parallel.shutdown()


def test_font_subsets_made_on_the_drawing_processes_are_found_after(two_workers, tmp_path, monkeypatch):
    """prepare_pdf_subsets cuts both subsets on the drawing processes into the subset folder;
    the calling process then knows them without cutting them again."""
    from fontTools.ttLib import TTFont

    from pipeline.render import fonts

    # what an earlier test of this process (a pytest-xdist worker runs several files) cut for
    # the same characters is forgotten here, so these subsets are cut into this folder
    monkeypatch.setattr(fonts, "_subsets", {})
    monkeypatch.setattr(fonts, "_early", {})
    before = fonts._subset_dir
    fonts.keep_subsets_in(tmp_path / "fonts")
    try:
        fonts.prepare_pdf_subsets("源平")
    finally:
        fonts._subset_dir = before
    made = sorted(p.name for p in (tmp_path / "fonts").glob("*.otf"))
    assert len(made) == 2 and made[0].startswith("noto-bold-") and made[1].startswith("noto-regular-")
    for bold in (False, True):
        path = fonts.pdf_subset_path(bold, "源平")  # remembered by prepare_pdf_subsets
        assert path.parent == tmp_path / "fonts"
        cmap = TTFont(str(path)).getBestCmap()
        assert ord("源") in cmap and ord("平") in cmap and ord("A") in cmap and ord("合") not in cmap
    parallel.shutdown()


# print_files_together: every system's print files made by one set of forked children at the end


class _NoCache:
    folder = None

    def render_all(self, jobs):
        assert jobs == {}
        return {}


def test_print_files_together_writes_every_system_at_the_end_from_one_set_of_children(two_workers, tmp_path, monkeypatch):
    from pipeline.render import fonts, sheets

    calls = []
    monkeypatch.setattr(fonts, "prepare_pdf_subsets", lambda text="": pytest.fail("subsets cut synchronously inside the block"))
    monkeypatch.setattr(fonts, "prepare_pdf_subsets_later", lambda text="": lambda: calls.append(f"subsets {text}"))
    real = parallel.fork_map
    monkeypatch.setattr(parallel, "fork_map", lambda makers, on_done=None: calls.append(list(makers)) or real(makers, on_done))
    maker = lambda tag: (lambda: f"{tag}:{os.getpid()}".encode())  # noqa: E731
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "y.pdf").write_bytes(b"old")
    with sheets.print_files_together():
        paths_a = sheets.write_files(sheets.print_files(_NoCache(), {}, {"x.pdf": maker("ax"), "y.pdf": maker("ay")}, "A"), tmp_path / "a")
        paths_b = sheets.write_files(sheets.print_files(_NoCache(), {}, {"y.pdf": maker("by")}, "B"), tmp_path / "b")
        assert paths_a == [tmp_path / "a" / "x.pdf", tmp_path / "a" / "y.pdf"] and paths_b == [tmp_path / "b" / "y.pdf"]
        assert not (tmp_path / "a").exists() and (tmp_path / "b" / "y.pdf").read_bytes() == b"old"  # nothing made yet
        assert calls == []
    # both systems' subsets waited for, then one fork_map for both systems' three files
    assert calls[:2] == ["subsets A", "subsets B"] and len(calls) == 3 and len(calls[2]) == 3
    made = {p: p.read_bytes().split(b":") for p in paths_a + paths_b}
    assert [v[0] for v in made.values()] == [b"ax", b"ay", b"by"]  # each file its own maker's bytes, in its own folder
    assert str(os.getpid()).encode() not in {v[1] for v in made.values()}  # made in the children


def test_print_files_together_writes_nothing_when_the_block_or_a_maker_fails(two_workers, tmp_path, monkeypatch):
    from pipeline.render import fonts, sheets

    monkeypatch.setattr(fonts, "prepare_pdf_subsets", lambda text="": None)
    monkeypatch.setattr(fonts, "prepare_pdf_subsets_later", lambda text="": lambda: None)

    def fail() -> bytes:
        raise ValueError("maker failed")

    with pytest.raises(KeyError):
        with sheets.print_files_together():
            sheets.write_files(sheets.print_files(_NoCache(), {}, {"x.pdf": lambda: b"x"}), tmp_path / "a")
            raise KeyError("the build failed")
    with pytest.raises(ValueError, match="maker failed"):
        with sheets.print_files_together():
            sheets.write_files(sheets.print_files(_NoCache(), {}, {"x.pdf": lambda: b"x", "y.pdf": fail}), tmp_path / "a")
    assert not (tmp_path / "a").exists()
    # outside a block the files are made and written at once, as before
    assert sheets.write_files(sheets.print_files(_NoCache(), {}, {"x.pdf": lambda: b"x"}), tmp_path / "a") == [tmp_path / "a" / "x.pdf"]
    assert (tmp_path / "a" / "x.pdf").read_bytes() == b"x"


def test_font_subsets_started_early_are_cut_once_and_kept_in_the_later_folder(two_workers, tmp_path, monkeypatch):
    """prepare_pdf_subsets_early (a build, right after parsing its data) cuts both subsets into a
    temporary folder, writing nothing in the folder to keep them in; the later
    prepare_pdf_subsets_later for the same characters cuts nothing, waits for that cut and
    copies the same bytes into its subset folder, where they are found after."""
    from pipeline.render import fonts

    started: list[tuple] = []
    real = parallel.call_all_later

    def counting(func, calls):
        started.extend(calls)
        return real(func, calls)

    monkeypatch.setattr(parallel, "call_all_later", counting)
    before = fonts._subset_dir
    keep = tmp_path / "cache" / "fonts"
    try:
        fonts.prepare_pdf_subsets_early("頼朝", keep)
        assert len(started) == 2 and not keep.exists()  # regular and bold, cut elsewhere
        fonts.keep_subsets_in(keep)
        fonts.prepare_pdf_subsets_later("頼朝")()
    finally:
        fonts._subset_dir = before
    assert len(started) == 2  # nothing cut again
    kept = sorted(keep.glob("*.otf"))
    assert [p.name.split("-")[1] for p in kept] == ["bold", "regular"]
    for path in kept:
        assert path.read_bytes() == (fonts._scratch_dir / path.name).read_bytes()
    assert {fonts.pdf_subset_path(b, "頼朝").parent for b in (False, True)} == {keep}
    # a later build whose cache holds them: nothing started
    fonts._subsets.clear()
    fonts.prepare_pdf_subsets_early("頼朝", keep)
    assert len(started) == 2 and fonts._early == {}
    parallel.shutdown()


def test_pdf_library_loaded_before_forking_is_in_every_forked_maker():
    """load_pdf_library imports the PDF library, fontTools' subsetter and tables and the vector
    pages in this process (a fresh interpreter: none of them loaded before), so a maker forked
    afterwards finds them loaded without importing anything."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pipeline.render import parallel, sheets\n"
        "assert not any(m in sys.modules for m in sheets.PDF_MODULES), 'loaded before'\n"
        "sheets.load_pdf_library()\n"
        "parallel.set_workers(2)\n"
        "def loaded():\n"
        "    return str(sorted(set(sheets.PDF_MODULES) - set(sys.modules))).encode()\n"
        "print(parallel.fork_map({'a': loaded, 'b': loaded}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "{'a': b'[]', 'b': b'[]'}"


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bad_drawing_reads_the_same_from_a_drawing_process(workers):
    """A drawing's RenderError raised in a drawing process (pickled back) has the message and
    attributes it has when drawn here: not its message prefixed with '<drawing>: ' again."""
    from pipeline.render.drawing import RenderError

    bad = parallel.DrawTask("t/bad.yaml.j2", "canvas: {width: 4, height: 4}\nshapes:\n  - rect: {x: 0, y: 0, w: 1}\n", (4, 4), None)
    good = parallel.DrawTask("t/good.yaml.j2", "canvas: {width: 4, height: 4}\nshapes: []\n", (4, 4), None)
    with pytest.raises(RenderError) as here:
        parallel.draw_png(bad)
    parallel.set_workers(workers)
    try:
        with pytest.raises(RenderError) as there:
            parallel.draw_pngs([good, bad])  # two tasks: sent to the drawing processes with 2 workers
    finally:
        parallel.set_workers(None)
    assert str(there.value) == str(here.value)
    assert str(here.value).startswith("t/bad.yaml.j2: shapes[0] primitive 'rect': ")
    assert (there.value.source, there.value.primitive, there.value.where) == (here.value.source, here.value.primitive, here.value.where)


def test_the_subsetter_alone_is_loaded_before_forking_for_a_build_preparing_its_print():
    """For a build that prepares its print files (Genpei) build_all imports only fontTools' part
    of the PDF library before it forks the drawing processes, which cut the font subsets with
    it (the build imports the rest, fpdf and the vector pages, while it waits for its images);
    otherwise all of it (a fresh interpreter: nothing loaded before)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from pipeline import build\n"
        "from pipeline.render import sheets\n"
        "assert not any(m in sys.modules for m in sheets.PDF_MODULES), 'loaded before'\n"
        "sheets.load_pdf_library(subsetter_only=True)\n"
        "print(sorted(set(sheets.PDF_MODULES) - set(sys.modules)))\n"
        "sheets.load_pdf_library()\n"
        "print(sorted(set(sheets.PDF_MODULES) - set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["['fpdf', 'fpdf.output', 'pipeline.render.vector']", "[]"]
