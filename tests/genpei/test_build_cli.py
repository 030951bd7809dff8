"""`gunbai build` on bad input: a clear line, a non-zero exit, and nothing written."""

from __future__ import annotations

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
