"""The swap of a command's outputs is all or nothing (issue 29, item 1): a rename that fails puts
back the ones done; a run killed during its swap, or before it, is cleaned up by the next run;
a staging folder whose process still runs is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline import output
from pipeline.errors import GunbaiError
from pipeline.output import Transaction, remove, write_bytes_atomic

ROOT = Path(__file__).resolve().parents[1]


def _tree(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``root``: bytes and modification time (what a build must keep)."""
    return {p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def outputs(tmp_path) -> Path:
    """An output folder of two systems, as a previous build left it."""
    root = tmp_path / "build"
    for system in ("a", "b"):
        (root / system / "cards").mkdir(parents=True)
        (root / system / f"{system}.vmod").write_bytes(b"old module " + system.encode())
        (root / system / "cards" / "c1.png").write_bytes(b"old card")
        (root / system / "gone.png").write_bytes(b"to be removed")
    return root


def _stage_everything(root: Path) -> None:
    """What a build of both systems writes: every file replaced, one new file in a new folder,
    one file removed, in system order."""
    for system in ("a", "b"):
        write_bytes_atomic(root / system / f"{system}.vmod", b"new module " + system.encode())
        write_bytes_atomic(root / system / "cards" / "c1.png", b"new card")
        write_bytes_atomic(root / system / "print" / "cards.pdf", b"new pdf")
        remove(root / system / "gone.png")


def test_a_commit_swaps_everything_in(outputs):
    with Transaction(outputs) as tx:
        _stage_everything(outputs)
    tree = _tree(outputs)
    assert tree["a/a.vmod"][0] == b"new module a" and tree["b/print/cards.pdf"][0] == b"new pdf"
    assert "a/gone.png" not in tree and "b/gone.png" not in tree
    assert len(tx.changed) == 6 and len(tx.removed) == 2
    assert not list(outputs.glob(".staging-*"))


@pytest.mark.parametrize("fail_at", [0, 1, 4, 6], ids=["first", "second", "other-system", "a-removal"])
def test_a_failed_rename_puts_back_the_ones_done(outputs, monkeypatch, fail_at):
    """The swap fails at its ``fail_at``-th move (a replace or a removal): every output is as it
    was (bytes and times), the new folders are gone, no staging folder is left, and the error is
    one line naming the file."""
    before = _tree(outputs)
    moves = []
    real_replace, real_unlink = os.replace, os.unlink

    def failing(real):
        def move(src, dst=None, *a, **kw):
            target = str(dst if dst is not None else src)
            if target.startswith(str(outputs)) and ".staging-" not in target:  # a move into the outputs
                moves.append(target)
                if len(moves) == fail_at + 1:
                    raise PermissionError(1, "Operation not permitted", str(target))
            return real(src, dst, *a, **kw) if dst is not None else real(src, *a, **kw)
        return move

    monkeypatch.setattr(output.os, "replace", failing(real_replace))
    monkeypatch.setattr(output.os, "unlink", failing(real_unlink))
    with pytest.raises(GunbaiError) as exc:
        with Transaction(outputs):
            _stage_everything(outputs)
    monkeypatch.undo()
    message = str(exc.value)
    assert "\n" not in message and message.startswith(f"{moves[fail_at]}: cannot be written (Operation not permitted)")
    assert message.endswith(f"every file in {outputs} is as it was")
    assert _tree(outputs) == before
    assert not (outputs / "a" / "print").exists() and not list(outputs.glob(".staging-*"))


def _chattr(path: Path, flag: str) -> bool:
    try:
        return subprocess.run(["chattr", flag, str(path)], capture_output=True).returncode == 0
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("new_folder", [False, True], ids=["files-replaced", "folder-made"])
def test_an_immutable_output_folder_changes_no_output(outputs, new_folder):
    """The case of the issue: the second system's folder cannot be written (``chattr +i``), so
    its renames fail after the first system's were done (or, when the build makes a folder in
    it, while preparing them)."""
    if not _chattr(outputs / "b", "+i"):
        pytest.skip("chattr +i is not available here (needs root and ext4 or the like)")
    try:
        before = _tree(outputs)
        with pytest.raises(GunbaiError) as exc:
            with Transaction(outputs):
                if new_folder:
                    _stage_everything(outputs)
                else:
                    for system in ("a", "b"):
                        write_bytes_atomic(outputs / system / f"{system}.vmod", b"new module")
        where = outputs / "b" / ("print" if new_folder else "b.vmod")
        step = "preparing the swap" if new_folder else "swapping the files in"
        assert str(exc.value) == f"{where}: cannot be written (Operation not permitted) while {step}; every file in {outputs} is as it was"
        assert _tree(outputs) == before
        assert not list(outputs.glob(".staging-*"))
    finally:
        _chattr(outputs / "b", "-i")


_KILLED_SWAP = """
import os, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from pipeline import output
from tests.test_output import _stage_everything
done = []
real = os.replace
def replace(src, dst, *a, **kw):
    real(src, dst, *a, **kw)
    done.append(dst)
    if len(done) == {after}:
        os.kill(os.getpid(), 9)  # killed in the middle of the swap (SIGKILL cannot be held back)
output.os.replace = replace
with output.Transaction(Path({out!r})):
    _stage_everything(Path({out!r}))
"""


def test_a_run_killed_during_its_swap_is_put_back_by_the_next_run(outputs):
    before = _tree(outputs)
    code = _KILLED_SWAP.format(root=str(ROOT), out=str(outputs), after=4)
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == -9, run.stderr
    assert _tree(outputs)["a/a.vmod"][0] == b"new module a"  # half swapped: a's files are new
    (stage,) = outputs.glob(".staging-*")
    with Transaction(outputs):
        assert not stage.exists()  # cleaned up on entry, previous outputs put back
        assert _tree(outputs) == before
    assert _tree(outputs) == before and not (outputs / "a" / "print").exists()


def test_a_run_killed_before_its_swap_leaves_a_staging_folder_the_next_run_removes(outputs):
    code = textwrap.dedent(f"""
        import os, sys
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        from pipeline.output import Transaction, write_bytes_atomic
        with Transaction(Path({str(outputs)!r})):
            write_bytes_atomic(Path({str(outputs)!r}) / "a" / "a.vmod", b"x" * 1000)
            os.kill(os.getpid(), 9)
    """)
    before = _tree(outputs)
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == -9
    assert len(list(outputs.glob(".staging-*"))) == 1
    with Transaction(outputs):
        assert not list(outputs.glob(".staging-*"))
    assert _tree(outputs) == before


def test_a_staging_folder_whose_process_runs_is_left_alone(outputs):
    """Judged by its lock, not by its process id (ids are reused: here the folder's name says a
    process that does not exist, yet its owner runs and holds it)."""
    stage = outputs / ".staging-999999999-abc"
    stage.mkdir()
    (stage / "x.part").write_bytes(b"being written")
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import fcntl, os, sys, time
        fd = os.open({str(stage)!r}, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)
        print("locked", flush=True)
        time.sleep(600)
    """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with Transaction(outputs):
            pass
        assert stage.is_dir()
    finally:
        holder.kill()
        holder.wait()
    with Transaction(outputs):
        pass
    assert not stage.exists()
