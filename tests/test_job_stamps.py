"""Issue 32, item 19: ``gunbai counters``, ``cards`` and ``sheets`` answer a no-op from the
stamps a build uses, keep their own stamp, and a data change redraws only what changed; the
compiled templates and the fit checks' text layouts are kept under ``.cache/`` for the next
command, and never change what is refused or drawn.

OHW and Sekigahara are the cheap systems: the job plumbing treats every system alike.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import stamp
from pipeline.build import FIT_CACHE, build_all, render_only
from pipeline.errors import DataError
from pipeline.launch import fast_build
from tests import test_whole_builds as whole

ROOT, _data = whole.ROOT, whole._data
#: OHW and Sekigahara built once into an output folder (a fixture of this module too).
built = whole.built


def _mtimes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in sorted(folder.rglob("*"))
            if p.is_file() and ".cache" not in p.parts}


@pytest.mark.parametrize("job", stamp.JOBS)
def test_a_job_after_a_build_answers_from_the_build_stamp(built, job):
    data, out = built
    before = _mtimes(out)
    assert fast_build(["--data", str(data), "--out", str(out)], job) == [stamp.job_line(s, job) for s in ("ohw", "sekigahara")]
    assert list(render_only(data, out, what=job)) == [stamp.job_line(s, job) for s in ("ohw", "sekigahara")]
    assert _mtimes(out) == before
    assert all(build_all(data, out, progress=False)[i].skipped is not None for i in range(2))  # the build stamp still holds


def test_the_no_op_job_imports_nothing_heavy(built):
    data, out = built
    code = ("import sys; from pipeline.launch import fast_build; print(fast_build(sys.argv[1:], 'counters') is not None); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PIL', 'yaml', 'jinja2', 'typer', 'pydantic', 'lxml', 'fpdf')))")
    run = subprocess.run([sys.executable, "-c", code, "--data", str(data), "--out", str(out)], capture_output=True, text=True, cwd=ROOT, check=True)
    assert run.stdout.split() == ["True", "[]"], run.stdout
    cli = subprocess.run([sys.executable, "-m", "pipeline", "counters", "--data", str(data), "--out", str(out), "--quiet"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    assert cli.stdout.splitlines() == [stamp.job_line("ohw", "counters"), stamp.job_line("sekigahara", "counters")]


def test_a_job_keeps_its_own_stamp_and_a_change_redraws_only_that_system(tmp_path):
    data = _data(tmp_path, "ohw", "sekigahara")
    out = tmp_path / "build"
    first = list(render_only(data, out, what="counters"))
    assert all("files (counters)" in line for line in first)
    for s in ("ohw", "sekigahara"):
        recorded = json.loads((out / s / stamp.stamp_file("counters")).read_text(encoding="utf-8"))
        assert recorded["outputs"] and all(name.startswith("images/") for name in recorded["outputs"])
        assert not (out / s / stamp.STAMP_FILE).exists()
    assert fast_build(["--data", str(data), "--out", str(out)], "counters") is not None
    assert fast_build(["--data", str(data), "--out", str(out)], "cards") is None  # the cards were never made
    # a change to one Sekigahara unit's name: OHW is skipped, Sekigahara drawn again
    units = data / "sekigahara" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    assert 'name: "Archers"' in text
    units.write_text(text.replace('name: "Archers"', 'name: "Bowmen"'), encoding="utf-8")
    assert fast_build(["--data", str(data), "--out", str(out)], "counters") is None
    second = list(render_only(data, out, what="counters"))
    assert second[0] == stamp.job_line("ohw", "counters") and "files (counters)" in second[1]
    # an image deleted is drawn again
    victim = next((out / "ohw" / "images").glob("*.png"))
    victim.unlink()
    assert fast_build(["--data", str(data), "--out", str(out), "--system", "ohw"], "counters") is None
    assert "files (counters)" in next(iter(render_only(data, out, what="counters", system="ohw")))
    assert victim.is_file()


def test_a_job_that_changes_files_drops_the_build_stamp(built, tmp_path):
    data, out = built
    out2 = tmp_path / "build"
    shutil.copytree(out, out2)
    victim = next((out2 / "ohw" / "cards").glob("*.png"))
    victim.unlink()
    assert (out2 / "ohw" / stamp.STAMP_FILE).is_file()
    lines = list(render_only(data, out2, what="cards"))
    assert lines[1] == stamp.job_line("sekigahara", "cards") and "files (cards)" in lines[0]
    assert not (out2 / "ohw" / stamp.STAMP_FILE).exists()  # the folder is no longer what the build left
    assert (out2 / "ohw" / stamp.stamp_file("cards")).is_file()
    assert (out2 / "sekigahara" / stamp.STAMP_FILE).is_file()


def test_kept_text_layouts_refuse_what_a_fresh_load_refuses(tmp_path):
    """The fit cache (``.cache/fit.json``) gives the same problems as laying out afresh: a
    name too long is refused with its file and line on the first and the second run, and a
    damaged cache file is laid out again."""
    data = _data(tmp_path, "ohw")
    out = tmp_path / "build"
    list(render_only(data, out, what="counters"))
    cache_file = out / "ohw" / FIT_CACHE
    kept = json.loads(cache_file.read_text(encoding="utf-8"))
    assert kept["drawings"] and all(isinstance(v, list) for v in kept["drawings"].values())
    units = data / "ohw" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    assert 'name: "Foot Samurai"' in text
    units.write_text(text.replace('name: "Foot Samurai"', 'name: "' + "Very long unit name " * 12 + '"', 1), encoding="utf-8")
    messages = []
    for damage in (False, False, True):
        if damage:
            cache_file.write_text("{not json", encoding="utf-8")
        with pytest.raises(DataError) as exc:
            list(render_only(data, out, what="counters"))
        messages.append(str(exc.value))
    assert messages[0] == messages[1] == messages[2]
    assert "units.yaml:" in messages[0] and "Very long unit name" in messages[0]


def test_compiled_templates_from_the_cache_render_the_same_text(tmp_path):
    """A template read back compiled (Jinja bytecode under ``.cache/templates``) renders the
    same text; a damaged compiled file is compiled again."""
    from pipeline.render import templates

    ctx = {"unit": {"name": "Test", "name_ja": "試験", "abbreviation": "T"}}
    source = tmp_path / "templates"
    source.mkdir()
    (source / "t.yaml.j2").write_text("canvas: {width: 2, height: 2}\nshapes: []\n# {{ unit.name | tojson }} {{ unit.name_ja | tojson }}\n", encoding="utf-8")
    folder = tmp_path / "compiled"
    try:
        templates.use_bytecode_cache(folder)
        first = templates.TemplateRenderer(source).render_yaml("t.yaml.j2", ctx)
        files = list(folder.iterdir())
        assert len(files) == 1
        second = templates.TemplateRenderer(source).render_yaml("t.yaml.j2", ctx)
        files[0].write_bytes(files[0].read_bytes()[:20])  # cut short
        third = templates.TemplateRenderer(source).render_yaml("t.yaml.j2", ctx)
    finally:
        templates.use_bytecode_cache(None)
    assert first == second == third
    assert '"\\u8a66\\u9a13"' in first
