"""`gunbai build` on bad input: a clear line, a non-zero exit, and nothing written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data"


def _gunbai(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, check=False)


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "source_data"
    shutil.copytree(DATA, copy)
    return copy


def test_typo_in_a_data_file_gives_one_line_with_file_line_value_and_expectation(tmp_path):
    data = _copy(tmp_path)
    units = data / "genpei" / "units.yaml"
    lines = units.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines) if line.strip() == "standard: triangle")
    lines[i] = lines[i].replace("triangle", "triangel")
    units.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = _gunbai("build", "--data", str(data), "--out", str(tmp_path / "out"), "-q")
    assert run.returncode == 1
    err = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(err) == 1, run.stderr
    assert err[0].startswith(f"{units}:{i + 1}: units[")
    assert "'triangel'" in err[0] and "'circle', 'triangle' or 'square'" in err[0]
    assert not (tmp_path / "out").exists()


def test_build_refuses_an_illegal_scenario_and_writes_nothing(tmp_path):
    data = _copy(tmp_path)
    path = data / "genpei" / "scenarios" / "gp20_nishinomiya.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["units"][0]["hex"] = [30, 30]
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    out = tmp_path / "out"
    run = _gunbai("build", "--data", str(data), "--out", str(out), "-q")
    assert run.returncode == 1
    assert "GP20 hex [30,30]: hex-on-board" in run.stderr
    assert "build refused" in run.stderr
    assert not out.exists()


def test_python_dash_m_pipeline_shows_help():
    run = _gunbai("--help")
    assert run.returncode == 0 and "build" in run.stdout and "verify" in run.stdout


def test_a_text_too_long_is_refused_by_a_build_on_two_processes_as_by_verify(tmp_path):
    """The build sends its images to the drawing processes before the text fit checks
    (``send_images_early``): a text they refuse still fails the build with verify's one line,
    exit 1, and nothing written."""
    data = _copy(tmp_path)
    for other in ("ohw", "ronin", "sekigahara"):
        shutil.rmtree(data / other)
    units = data / "genpei" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    start = text.index("\n    name: ") + len("\n    name: ")
    units.write_text(text[:start] + "Samurai " * 1000 + text[text.index("\n", start):], encoding="utf-8")
    verify = _gunbai("verify", "--data", str(data), "--out", str(tmp_path / "verify-out"))
    out = tmp_path / "out"
    env = {**os.environ, "GUNBAI_JOBS": "2"}
    run = subprocess.run([sys.executable, "-m", "pipeline", "build", "--data", str(data), "--out", str(out), "-q"],
                         capture_output=True, text=True, check=False, env=env)
    assert run.returncode == verify.returncode == 1
    err = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith(f"{units}:") and "(7999 characters)" in err[0], run.stderr
    assert err[0] in verify.stderr + verify.stdout
    assert not out.exists()  # nothing written, not even in the render cache (RenderCache.hold)
