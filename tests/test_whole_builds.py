"""Whole builds: a build that fails anywhere changes no output; Ctrl-C says what was kept; a
system whose inputs and outputs are unchanged is skipped; a bad environment is one line; the
commands that work per system take ``--system``; progress stays off the output in a pipe.

The systems used are the cheap ones (OHW, Sekigahara, Ronin): what is tested is the build
pipeline, which treats every system alike.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.build import build_all
from pipeline.errors import DataError, GunbaiError

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "source_data"


def _data(tmp_path: Path, *systems: str) -> Path:
    root = tmp_path / "source_data"
    for s in systems:
        shutil.copytree(DATA / s, root / s)
    return root


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.rglob("*")) if p.is_file() and ".cache" not in p.parts}


def _gunbai(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, check=False, cwd=ROOT, env=env)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """OHW and Sekigahara built once into an output folder."""
    tmp = tmp_path_factory.mktemp("whole")
    data = _data(tmp, "ohw", "sekigahara")
    out = tmp / "build"
    build_all(data, out, progress=False)
    return data, out


def test_a_failed_build_changes_no_output(built, tmp_path):
    data, out = built
    data2 = tmp_path / "source_data"
    shutil.copytree(data, data2)
    before = _snapshot(out)
    # a valid OHW edit (its module would change) and a broken Sekigahara file
    sc = data2 / "ohw" / "scenarios" / "ohw04_take_the_high_ground.yaml"
    text = sc.read_text(encoding="utf-8")
    assert 'name: "Take the High Ground"' in text
    sc.write_text(text.replace('name: "Take the High Ground"', 'name: "Take the Hill"'), encoding="utf-8")
    units = data2 / "sekigahara" / "units.yaml"
    units.write_text(units.read_text(encoding="utf-8") + "\nbogus_key: 1\n", encoding="utf-8")
    with pytest.raises(DataError):
        build_all(data2, out, progress=False)
    assert _snapshot(out) == before  # same files, same bytes, same modification times
    assert not list(out.glob(".staging-*"))


def test_a_swap_that_fails_for_one_system_changes_no_output(built, tmp_path, monkeypatch):
    """Issue 29, item 1: both systems rebuilt, and the second one's folder cannot be written
    (immutable, or a rename refused): the first one's module, cards and PDFs are put back, its
    stamp stays valid (the next build skips it), and no staging folder is left."""
    from pipeline import output

    data, out = built
    data2 = tmp_path / "source_data"
    shutil.copytree(data, data2)
    for sc, old, new in [("ohw/scenarios/ohw04_take_the_high_ground.yaml", 'name: "Take the High Ground"', 'name: "Take the Hill"'),
                         ("sekigahara/scenarios/sekigahara_1600.yaml", 'name: "Sekigahara, 1600"', 'name: "Sekigahara, Autumn 1600"')]:
        path = data2 / sc
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new), encoding="utf-8")
    build_all(data, out, progress=False)  # every stamp fresh
    before = _snapshot(out)
    real = os.replace

    def refused(src, dst, *a, **kw):
        if Path(dst).is_relative_to(out / "sekigahara") and ".staging-" not in str(dst) and ".cache" not in Path(dst).parts:
            raise PermissionError(1, "Operation not permitted", str(src), None, str(dst))
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(output.os, "replace", refused)
    with pytest.raises(GunbaiError, match=r"sekigahara\S*: cannot be written \(Operation not permitted\) while swapping the files in; every file in"):
        build_all(data2, out, progress=False)
    monkeypatch.undo()
    assert _snapshot(out) == before
    assert not list(out.glob(".staging-*"))
    assert all(r.skipped is not None for r in build_all(data, out, progress=False))


def test_an_unchanged_system_is_skipped_and_a_changed_one_rebuilt(built, tmp_path):
    data, out = built
    first = build_all(data, out, progress=False)
    assert [r.skipped is not None for r in first] == [True, True]
    sc = data / "ohw" / "scenarios" / "ohw04_take_the_high_ground.yaml"
    original = sc.read_text(encoding="utf-8")
    try:
        assert 'name: "Take the High Ground"' in original
        sc.write_text(original.replace('name: "Take the High Ground"', 'name: "Take the High Ridge"'), encoding="utf-8")
        second = build_all(data, out, progress=False)
        assert [r.system for r in second if r.skipped is None] == ["ohw"]
        assert next(r for r in second if r.system == "ohw").changed >= 1
    finally:
        sc.write_text(original, encoding="utf-8")
    build_all(data, out, progress=False)
    (out / "sekigahara" / "sekigahara.vmod").unlink()  # a deleted output is built again
    third = build_all(data, out, progress=False)
    assert [r.system for r in third if r.skipped is None] == ["sekigahara"]
    assert (out / "sekigahara" / "sekigahara.vmod").is_file()


def test_a_build_loads_its_data_once_for_the_module_and_the_print_sheets(built, monkeypatch):
    """The print sheets step gets the data the build loaded: one load (with its text fit
    checks) per system, not two; the result does not keep the data afterwards."""
    import pipeline.systems.ohw.build as ohw_build

    data, out = built
    calls: list[Path] = []
    real = ohw_build.load

    def counted(root, **kw):
        calls.append(Path(root))
        return real(root, **kw)

    monkeypatch.setattr(ohw_build, "load", counted)
    results = build_all(data, out, progress=False, system="ohw", force=True)
    assert calls == [data / "ohw"]
    assert any(p.suffix == ".pdf" for p in results[0].files)  # the print sheets were made
    assert results[0].data is None


def test_no_op_build_answers_from_the_stamps_without_the_heavy_imports(built):
    from pipeline.launch import fast_build

    data, out = built
    build_all(data, out, progress=False)
    lines = fast_build(["--data", str(data), "--out", str(out)])
    assert lines is not None and len(lines) == 2 and all("unchanged since the last build" in ln for ln in lines)
    code = "import sys; from pipeline.launch import fast_build; fast_build(sys.argv[1:]); print(sorted(m for m in sys.modules if m.split('.')[0] in ('PIL', 'yaml', 'jinja2', 'typer', 'pydantic', 'lxml', 'fpdf')))"
    run = subprocess.run([sys.executable, "-c", code, "--data", str(data), "--out", str(out)], capture_output=True, text=True, cwd=ROOT, check=True)
    assert run.stdout.strip() == "[]", run.stdout


@pytest.mark.parametrize("value", ["abc", "99999999999", "-5"])
def test_bad_source_date_epoch_is_one_line_and_writes_nothing(tmp_path, value):
    data = _data(tmp_path, "ohw")
    env = dict(os.environ, SOURCE_DATE_EPOCH=value)
    run = _gunbai("build", "--data", str(data), "--out", str(tmp_path / "out"), "-q", env=env)
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"SOURCE_DATE_EPOCH={value!r} is not valid; expected a whole number"), run.stderr
    assert not (tmp_path / "out").exists()


def _build_until_an_image_is_drawn(data: Path, out: Path, system: str, *options: str) -> subprocess.Popen:
    """``gunbai build`` started in a session of its own (as a terminal runs it: SIGINT not
    ignored, whatever runs the tests), returned once it has drawn an image."""

    def as_a_terminal_would() -> None:  # a shell's background job ignores SIGINT, and its children inherit that
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "build", "--data", str(data), "--out", str(out), "-q", *options],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=as_a_terminal_would)
    cache = out / system / ".cache"
    deadline = time.monotonic() + 300  # a guard against a hang, not a speed limit
    while time.monotonic() < deadline and not (cache.is_dir() and any(cache.glob("*.png"))):
        if proc.poll() is not None:
            pytest.fail("the build ended before it could be stopped")
        time.sleep(0.05)
    return proc


def test_ctrl_c_exits_130_and_says_nothing_was_written(tmp_path):
    out = tmp_path / "out"
    proc = _build_until_an_image_is_drawn(_data(tmp_path, "ronin"), out, "ronin")
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130
    assert err.strip().splitlines() == [err.strip()] and err.startswith("gunbai: interrupted; nothing was written"), err
    assert "render cache" in err
    assert sorted(p.name for p in (out / "ronin").iterdir()) == [".cache"]  # only the cache, no output


def test_commands_that_work_per_system_take_system(tmp_path):
    data = _data(tmp_path, "ohw", "sekigahara")
    out = tmp_path / "out"
    run = _gunbai("cards", "--data", str(data), "--out", str(out), "--system", "sekigahara")
    assert run.returncode == 0, run.stderr
    assert [p.name for p in out.iterdir()] == ["sekigahara"]
    for command in ("build", "verify", "counters", "cards", "sheets"):
        assert "--system" in _gunbai(command, "--help").stdout, command
    bad = _gunbai("verify", "--data", str(data), "--system", "chess")
    assert bad.returncode == 1 and "--system 'chess' is not valid; expected one of genpei, ronin, ohw, sekigahara" in bad.stderr


def test_verify_play_refuses_a_negative_count(tmp_path):
    run = _gunbai("verify", "--data", str(_data(tmp_path, "ohw")), "--play", "-5")
    assert run.returncode == 2 and "--play -5 is not valid" in run.stderr


def test_verify_play_gives_every_system_a_verdict(tmp_path):
    # one verdict path for every system: Sekigahara's verdict, its caveat, its chart
    out, data = tmp_path / "out", _data(tmp_path, "sekigahara")
    (data / "sekigahara" / "ladder.yaml").unlink(missing_ok=True)  # no ladder record: greedy, not proven
    run = _gunbai("verify", "--data", str(data), "--system", "sekigahara", "--play", "2", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert "sekigahara SEKI Sekigahara, 1600: greedy policy (strength not proven), 2 games" in run.stdout
    assert "victory condition: gunbai's own" in run.stdout and (out / "sekigahara" / "playability.png").is_file()
    assert run.stdout.splitlines()[-1] == "1 scenario(s) legal, 1 balance verdict(s) with no flag"


def test_no_progress_in_a_pipe(tmp_path):
    data = _data(tmp_path, "sekigahara")
    run = _gunbai("build", "--data", str(data), "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # progress only on a terminal
    assert run.stdout.startswith("sekigahara: ")


def test_progress_on_a_terminal():
    import io

    from pipeline import progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    stream = Tty()
    assert progress.wanted(False, stream) and not progress.wanted(True, stream)
    assert not progress.wanted(False, io.StringIO())
    progress.enable(True, stream)
    try:
        progress.step("genpei", "rendering")
        progress.count(3, 10, "images drawn")
        progress.count(10, 10, "images drawn")
        progress.clear()
    finally:
        progress.enable(False, sys.stderr)
    text = stream.getvalue()
    assert "genpei: rendering 10/10 images drawn" in text and text.endswith("\r")


def test_build_refuses_an_unknown_system(tmp_path):
    with pytest.raises(GunbaiError, match="--system 'chess' is not valid"):
        build_all(_data(tmp_path, "ohw"), tmp_path / "out", system="chess")


def test_choosing_one_system_imports_no_other_system():
    # telling a system's folder from a stray one must not import every system's build module
    # (their rules engines and models: half a second of a one-system build); the registry
    # (pipeline.systems.base) imports none
    code = ("import sys; from pathlib import Path; from pipeline.build import systems_in; "
            "print(systems_in(Path(sys.argv[1]), sys.argv[2]), systems_in(Path(sys.argv[1])), "
            "sorted(m for m in sys.modules if m.startswith('pipeline.systems.') and m != 'pipeline.systems.base'))")
    run = subprocess.run([sys.executable, "-c", code, str(DATA), "ohw"], capture_output=True, text=True, cwd=ROOT, check=True)
    assert run.stdout.strip() == "['ohw'] ['genpei', 'ronin', 'ohw', 'sekigahara'] []", run.stdout


def test_a_second_ctrl_c_while_saying_what_was_kept_is_ignored(monkeypatch):
    """``timeout -s INT`` (and a user pressing Ctrl-C twice) interrupts the command twice: the
    second one, arriving while the command rolls back and says what was kept, must not end it
    with a traceback instead of the one line and exit 130."""
    from pipeline import cli, output

    def second_ctrl_c() -> str:
        os.kill(os.getpid(), signal.SIGINT)  # delivered at once: KeyboardInterrupt here unless ignored
        return "nothing was written"

    monkeypatch.setattr(output, "interrupted_message", second_ctrl_c)
    handler = signal.getsignal(signal.SIGINT)
    try:
        try:
            cli._interrupted()
        except KeyboardInterrupt:
            pytest.fail("the second Ctrl-C ended the command with a traceback")
        except SystemExit as exc:
            assert exc.code == 130
        else:
            pytest.fail("no exit 130")
    finally:
        signal.signal(signal.SIGINT, handler)


def test_a_moved_output_folder_is_named_as_it_is_now(built, tmp_path):
    """Issue 29, item 7: the "skipped" line of a build folder moved since its build names the
    folder where it is now, both from the full command and from the no-op fast path."""
    from pipeline.launch import fast_build

    data, out = built
    build_all(data, out, progress=False)
    moved = tmp_path / "moved"
    shutil.copytree(out, moved, copy_function=shutil.copy2)
    for p in moved.rglob("*"):  # copy2 keeps modification times to the microsecond: make them exact
        src = out / p.relative_to(moved)
        os.utime(p, ns=(src.stat().st_atime_ns, src.stat().st_mtime_ns), follow_symlinks=False)
    results = build_all(data, moved, progress=False)
    assert [r.skipped is not None for r in results] == [True, True]
    lines = [r.summary() for r in results]
    assert lines[0].startswith(f"ohw: unchanged since the last build, skipped ({moved / 'ohw' / 'ohw.vmod'} ("), lines
    assert fast_build(["--data", str(data), "--out", str(moved)]) == lines


def test_progress_says_the_print_files_are_written_last(built):
    """Issue 29, item 7: no step says "done" while the print files are still to be written; the
    last step shown is theirs, named for every system they belong to."""
    import io

    from pipeline import progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    data, out = built
    stream = Tty()
    progress.enable(True, stream)
    try:
        build_all(data, out, progress=True, force=True)
    finally:
        progress.enable(False, sys.stderr)
    steps = [s.strip() for s in stream.getvalue().split("\r") if s.strip()]
    assert steps and not any("done" in s for s in steps), steps
    last = [s for s in steps if "print files" in s]
    assert last and last[-1].startswith("ohw, sekigahara: writing the print files"), steps[-5:]
    assert steps.index(last[0]) > max(i for i, s in enumerate(steps) if "print sheets" in s)


def test_sigterm_exits_143_says_nothing_was_written_and_leaves_no_process(tmp_path):
    """A CI job's time limit or ``docker stop`` (SIGTERM) during a build: handled as Ctrl-C (one
    line, exit 143, no output, no staging folder), and no drawing process is left running (they
    held the command's output open, so its caller waited forever)."""
    out = tmp_path / "out"
    proc = _build_until_an_image_is_drawn(_data(tmp_path, "ohw"), out, "ohw", "--jobs", "2")
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=300)
    assert proc.returncode == 143, err
    assert err.strip().splitlines() == [err.strip()] and err.startswith("gunbai: terminated; nothing was written"), err
    assert sorted(p.name for p in (out / "ohw").iterdir()) == [".cache"] and not list(out.glob(".staging-*"))
    left = subprocess.run(["pgrep", "-s", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert left == [], left


def test_a_full_disk_names_the_file_and_keeps_the_outputs(built, tmp_path, monkeypatch, capsys):
    """The disk fills up while the images are drawn: one line naming the file, exit 1, and the
    previous outputs as they were (a copy of a build, its render cache emptied)."""
    import errno

    from pipeline import cli

    data, built_out = built
    out = tmp_path / "out"
    shutil.copytree(built_out, out, copy_function=shutil.copy2)
    shutil.rmtree(out / "ohw" / ".cache")
    before = _snapshot(out)
    real = Path.write_bytes

    def full(self, data):
        if ".cache" in self.parts:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    monkeypatch.setattr(sys, "argv", ["gunbai", "build", "--data", str(data), "--out", str(out), "--force", "-q", "--jobs", "1", "--system", "ohw"])
    with pytest.raises(SystemExit) as exc:
        cli.main()
    assert exc.value.code == 1
    err = capsys.readouterr().err.strip()
    assert re.fullmatch(rf"gunbai: {re.escape(str(out))}/ohw/\.cache/\S+: No space left on device; nothing written: {re.escape(str(out))} keeps its previous outputs", err), err
    monkeypatch.undo()
    assert _snapshot(out) == before and not list(out.glob(".staging-*"))
