"""``gunbai verify --format github|junit|json`` and the pre-commit hook (issue 30, item 3).

A module maker's repository is made in a temporary git repository: ``source_data/ohw`` copied
from the shipped data with one unit moved out of its deployment area, so that the finding, its
file and its line are known: OHW4's ``red_2`` on line 28 of ``ohw04_take_the_high_ground.yaml``
at y 22, outside the hill (x 12-24, y 12-20; rules_facts §5.3).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from lxml import etree

from pipeline.ci_formats import escape_data, escape_property, workflow_command

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "source_data"
SCENARIO = "source_data/ohw/scenarios/ohw04_take_the_high_ground.yaml"
XSD = ROOT / "tests" / "fixtures" / "junit" / "junit-10.xsd"
SCHEMA = ROOT / "docs" / "verify-report.schema.json"
RED_2 = "{id: red_2, side: red, unit: ashigaru, x: 21, y: 16,"
MESSAGE = "Ashigaru at (21, 22) facing 180 is not wholly inside its deployment area 'hill' (x 12-24, y 12-20)"
SOURCE = "rules_facts, §5.3 Scenarios (deployment areas of the One-Hour Wargames patterns)"
#: GitHub's workflow command syntax: ``::command key=value,...::data``; a value holds no raw
#: ``,`` ``:`` CR or LF, the data no CR or LF (they are %-escaped).
COMMAND = re.compile(r"::(error|warning|notice)( [a-zA-Z]+=[^,:\r\n]*(,[a-zA-Z]+=[^,:\r\n]*)*)?::[^\r\n]*")


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env.update({"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@example.invalid", "COLUMNS": "400"}, **extra)
    return env


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env=_env(), check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository holding ``source_data/ohw`` (committed), then red_2 moved to y 22."""
    repo = tmp_path / "maker"
    shutil.copytree(DATA / "ohw", repo / "source_data" / "ohw")
    (repo / "README.md").write_text("a module maker's game\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "the game")
    path = repo / SCENARIO
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[27].startswith(f"  - {RED_2}")  # line 28
    lines[27] = lines[27].replace("y: 16,", "y: 22,")
    path.write_text("".join(lines), encoding="utf-8")
    return repo


def _verify(cwd: Path, *args: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline", "verify", "--out", str(cwd.parent / "out"), *args],
                          cwd=cwd, env=_env(**env), capture_output=True, text=True, timeout=600)


# ------------------------------------------------------------------------------ github
def test_a_data_error_is_an_error_command_on_its_line(repo):
    run = _verify(repo, "--format", "github")
    assert run.returncode == 1, run.stderr
    assert run.stdout.splitlines() == [
        f"::error file={SCENARIO},line=28,title=inside-deployment (ohw OHW4)::OHW4 unit red_2: inside-deployment: {MESSAGE} [{SOURCE}]",
        "1 problem(s) in 3 scenario(s), 0 note(s)",
    ]
    again = _verify(repo, "--format", "github")  # from the legality cache: the same commands
    assert again.stdout == run.stdout and again.returncode == 1


def test_the_file_is_named_from_the_repository_root_wherever_verify_runs(repo):
    run = _verify(repo / "source_data", "--data", ".", "--format", "github")
    assert run.stdout.splitlines()[0].startswith(f"::error file={SCENARIO},line=28,")
    (repo / "sub").mkdir()  # GITHUB_WORKSPACE names the root when the file lies under it
    run = _verify(repo / "sub", "--data", "../source_data", "--format", "github", GITHUB_WORKSPACE=str(repo))
    assert run.stdout.splitlines()[0].startswith(f"::error file={SCENARIO},line=28,")


def test_invalid_data_is_an_error_command_on_its_line(repo):
    path = repo / SCENARIO
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("{id: red_3, side: red, unit: ashigaru, x: 6,", '{id: red_3, side: red, unit: ashigaru, x: "six",'), encoding="utf-8")
    run = _verify(repo, "--format", "github")
    assert run.returncode == 1
    assert run.stdout.splitlines()[0] == (
        f"::error file={SCENARIO},line=29,title=invalid data (ohw)::units[2].x: 'six' is not valid; expected input should be a valid number")
    # JUnit: the data test case fails, and no scenario is said to pass (none was checked)
    doc = etree.fromstring(_verify(repo, "--format", "junit").stdout.encode())
    assert [(c.get("classname"), len(c)) for c in doc.iter("testcase")] == [("gunbai.ohw.data", 1)]
    assert doc.find("testsuite").get("failures") == "1"


def test_shipped_data_gives_warnings_for_incomplete_scenarios_and_no_error(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pipeline", "verify", "--format", "github", "--system", "genpei", "--out", str(tmp_path)],
                         cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)
    lines = run.stdout.splitlines()
    commands = [x for x in lines if x.startswith("::")]
    assert run.returncode == 0, run.stderr
    assert commands and all(COMMAND.fullmatch(x) for x in commands)
    assert all(x.startswith("::warning file=source_data/genpei/scenarios/") and ",title=incomplete (genpei GP" in x for x in commands)
    # GP02 has no public name, GP19 and GP20 are complete (setups imported)
    assert any(x.startswith("::warning file=source_data/genpei/scenarios/gp02.yaml,title=incomplete (genpei GP02)::GP02 (name not public): incomplete: map not public")
               for x in commands)
    assert not any("gp19" in x or "gp20" in x for x in commands)


def test_escaping_is_githubs():
    # actions/toolkit packages/core/src/command.ts: escapeData and escapeProperty
    assert escape_data("50% of 2\r\nlines: a, b") == "50%25 of 2%0D%0Alines: a, b"
    assert escape_property("50% of 2\r\nlines: a, b") == "50%25 of 2%0D%0Alines%3A a%2C b"
    line = workflow_command("warning", "a: b\nc", file="dir/a,b:c.yaml", line=3, title="r (x, y)", col=None)
    assert line == "::warning file=dir/a%2Cb%3Ac.yaml,line=3,title=r (x%2C y)::a: b%0Ac"
    assert COMMAND.fullmatch(line)


# ------------------------------------------------------------------------------ junit
def test_junit_is_valid_and_has_a_case_per_scenario_and_check(repo, tmp_path):
    report = tmp_path / "junit.xml"
    run = _verify(repo, "--format", "junit", "--output", str(report))
    assert run.returncode == 1 and run.stdout == ""
    doc = etree.parse(str(report))
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    assert schema.validate(doc), schema.error_log
    suite = doc.getroot().find("testsuite")
    assert (suite.get("name"), suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("gunbai.ohw", "4", "1", "0")
    cases = [(c.get("classname"), c.get("name")) for c in suite.iter("testcase")]
    assert cases == [("gunbai.ohw.data", "data files load"), ("gunbai.ohw.legality", "ohw04_take_the_high_ground"),
                     ("gunbai.ohw.legality", "ohw11_surprise_attack"), ("gunbai.ohw.legality", "ohw30_last_stand")]
    (failure,) = doc.getroot().iter("failure")
    assert failure.getparent().get("name") == "ohw04_take_the_high_ground"
    assert (failure.get("type"), failure.get("message")) == ("inside-deployment", MESSAGE)
    assert failure.text == f"{SCENARIO}:28: OHW4 unit red_2: inside-deployment: {MESSAGE} [{SOURCE}]"
    # the same data, the same bytes (no times); on standard output without --output
    assert _verify(repo, "--format", "junit").stdout.encode() == report.read_bytes()


def test_junit_of_the_shipped_data_is_valid_and_skips_incomplete_scenarios(tmp_path):
    report = tmp_path / "junit.xml"
    run = subprocess.run([sys.executable, "-m", "pipeline", "verify", "--format", "junit", "-o", str(report), "--out", str(tmp_path / "out")],
                         cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    doc = etree.parse(str(report))
    assert etree.XMLSchema(etree.parse(str(XSD))).validate(doc)
    suites = {s.get("name"): s for s in doc.getroot().iter("testsuite")}
    assert list(suites) == ["gunbai.genpei", "gunbai.ronin", "gunbai.ohw", "gunbai.sekigahara"]
    genpei = suites["gunbai.genpei"]
    assert genpei.get("tests") == "31" and genpei.get("failures") == "0"  # data + 30 scenarios
    skipped = {c.get("name") for c in genpei.iter("testcase") if c.find("skipped") is not None}
    assert "gp19_nutas_stronghold" not in skipped and "gp05" in skipped and genpei.get("skipped") == str(len(skipped))
    ronin = [c.get("name") for c in suites["gunbai.ronin"].iter("testcase")][1:]
    assert ronin == sorted(p.stem for p in (DATA / "ronin" / "games").glob("*.yaml"))


# ------------------------------------------------------------------------------ json
def test_json_matches_its_schema_and_says_what_text_says(repo):
    run = _verify(repo, "--format", "json")
    assert run.returncode == 1
    doc = json.loads(run.stdout)
    jsonschema.validate(doc, json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert doc["ok"] is False and doc["summary"] == {"scenarios": 3, "errors": 1, "warnings": 0}
    assert doc["findings"] == [{
        "system": "ohw", "check": "legality", "severity": "error", "scenario": "OHW4", "file": SCENARIO, "line": 28,
        "rule": "inside-deployment", "message": MESSAGE, "source": SOURCE,
        "text": f"{SCENARIO}:28: OHW4 unit red_2: inside-deployment: {MESSAGE} [{SOURCE}]"}]
    assert [(s["id"], s["legality"]) for s in doc["systems"][0]["scenarios"]] == [
        ("ohw04_take_the_high_ground", "problems"), ("ohw11_surprise_attack", "legal"), ("ohw30_last_stand", "legal")]
    # the human lines go to standard error, off the document
    assert f"{SCENARIO}:28: OHW4 unit red_2" in run.stderr


def test_json_of_a_balance_verdict_matches_its_schema(repo):
    _git(repo, "checkout", "-q", "--", ".")  # the shipped, legal data
    run = _verify(repo, "--format", "json", "--play", "20", "--precision", "0.4", "--workers", "1", "--policy", "random",
                  "source_data/ohw/scenarios/ohw30_last_stand.yaml")
    doc = json.loads(run.stdout)
    jsonschema.validate(doc, json.loads(SCHEMA.read_text(encoding="utf-8")))
    (v,) = doc["verdicts"]
    assert (v["system"], v["policy"], v["budget"]) == ("ohw", "random", 20)
    assert 0 < v["games"] <= 20 and sum(v["wins"]) <= v["games"]
    # the same verdict (from the cache) as a JUnit balance test case beside the legality one
    run = _verify(repo, "--format", "junit", "--play", "20", "--precision", "0.4", "--workers", "1", "--policy", "random",
                  "source_data/ohw/scenarios/ohw30_last_stand.yaml")
    doc = etree.fromstring(run.stdout.encode())
    assert etree.XMLSchema(etree.parse(str(XSD))).validate(doc)
    cases = [(c.get("classname"), c.get("name"), len(c)) for c in doc.iter("testcase")]
    assert cases == [("gunbai.ohw.data", "data files load", 0), ("gunbai.ohw.legality", "ohw30_last_stand", 0),
                     ("gunbai.ohw.balance", "ohw30_last_stand", int(run.returncode == 1))]


def test_a_bad_format_is_refused():
    run = subprocess.run([sys.executable, "-m", "pipeline", "verify", "--format", "sarif"], cwd=ROOT, env=_env(), capture_output=True, text=True)
    assert run.returncode == 2 and "--format sarif is not valid" in run.stderr


# ------------------------------------------------------------------------------ pre-commit
def test_pre_commit_try_repo_runs_the_hook_on_a_changed_data_file(repo, tmp_path):
    """``language: system``: pre-commit runs the gunbai on PATH (here the test's own), so the
    check needs no network; ``gunbai-verify`` (``language: python``) would pip-install gunbai's
    dependencies into pre-commit's own environment, which needs the package index."""
    env = _env(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")

    def try_repo() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "gunbai-verify-system"],
                              cwd=repo, env=env, capture_output=True, text=True, timeout=600)

    _git(repo, "add", "-A")  # the changed scenario, staged
    run = try_repo()
    assert run.returncode == 1, run.stdout + run.stderr
    assert re.search(r"gunbai verify \(scenarios obey the rules; the gunbai on PATH\)\.+Failed", run.stdout), run.stdout
    assert f"{SCENARIO}:28: OHW4 unit red_2: inside-deployment: {MESSAGE}" in run.stdout
    _git(repo, "reset", "-q", "--hard")  # no data file changed: the hook does not run
    (repo / "README.md").write_text("changed\n", encoding="utf-8")
    _git(repo, "add", "-A")
    run = try_repo()
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"the gunbai on PATH\)\.+\(no files to check\)Skipped", run.stdout), run.stdout


# ------------------------------------------------------------------------------ the example workflow
def test_the_example_workflow_verifies_with_annotations_and_keeps_the_report():
    import yaml

    flow = yaml.safe_load((ROOT / "docs" / "github-workflow.yml").read_text(encoding="utf-8"))
    steps = flow["jobs"]["verify"]["steps"]
    uses = [s.get("uses", "").split("@")[0] for s in steps]
    assert uses[:2] == ["actions/checkout", "actions/setup-python"] and "actions/upload-artifact" in uses
    runs = [s.get("run", "") for s in steps]
    assert 'make verify VERIFY_ARGS="--format github"' in runs and "make build" in runs
    upload = steps[uses.index("actions/upload-artifact")]
    assert upload["if"] == "always()" and "build/report/" in upload["with"]["path"].split()
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "$(GUNBAI) verify --data $(DATA) $(VERIFY_ARGS)" in make
