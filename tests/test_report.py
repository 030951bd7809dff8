"""``gunbai report``: the HTML build report, from what a build, ``verify --play`` and
``make vassal-check`` left, and opened in a real headless Chromium (Debian's, driven by
Playwright; ``make browser`` installs it and the pinned axe-core the accessibility check uses).

The report is made once for the module (:func:`reported`): OHW and Sekigahara built, their
verdicts played (random policy, 40 games: the cache's verdicts, not the policies'), a VASSAL
result file written by ``scripts/vassal_check_result.py`` from a transcript of the check's
output, then OHW4 edited into an illegal set-up (a unit outside its deployment area), so the page
shows a legal, an illegal, a flagged and a balanced scenario.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pipeline.build import build_all, write_figures
from pipeline.errors import GunbaiError
from pipeline.report import FindingRow, write_report
from pipeline.verdicts import cached_verdicts, play_all

from .test_whole_builds import ROOT, _data

sys.path.insert(0, str(ROOT / "scripts"))
import vassal_check_result  # noqa: E402

CHROMIUM = Path(os.environ.get("GUNBAI_CHROMIUM", "/usr/bin/chromium"))
#: The flags the browser runs with: headless, and nothing that reaches the network.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# OHW4's unit red_2 moved off the hill (its deployment area, x 12-24) to x 30
ILLEGAL_FROM = "{id: red_2, side: red, unit: ashigaru, x: 21, y: 16"
ILLEGAL_TO = "{id: red_2, side: red, unit: ashigaru, x: 30, y: 16"

TRANSCRIPT = """\
CLEAN        21s  ohw/ohw.vmod
CLEAN         -s  ohw/ohw.vmod + ohw04_take_the_high_ground.vsav
PROBLEMS      -s  ohw/ohw.vmod + ohw11_surprise_attack.vsav  -- chat: Bad Data in Module: image not found (+1 more)
CLEAN         -s  ohw/ohw.vmod + ohw30_last_stand.vsav
CLEAN        19s  sekigahara/sekigahara.vmod
CLEAN         -s  sekigahara/sekigahara.vmod + sekigahara_1600.vsav
total: 6 runs: CLEAN=5 PROBLEMS=1; 95s
vassal-check: 5 of 6 runs clean (modules, their setups, extensions on their bases, extension setups, earlier releases' setups); 95s
"""


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    """``(data, out, page, verdicts)``: the report of OHW and Sekigahara (module docstring)."""
    tmp = tmp_path_factory.mktemp("report")
    data, out = _data(tmp, "ohw", "sekigahara"), tmp / "build"
    results = build_all(data, out, progress=False)
    write_figures(out, results, 12.5, 20.25)
    verdicts = play_all(data, ["ohw", "sekigahara"], budget=40, precision=0.05, policy="random", out_root=out)
    (tmp / "transcript").write_text(TRANSCRIPT, encoding="utf-8")
    vassal_check_result.write(TRANSCRIPT, 1, str(out / "vassal-check.json"))
    # a screenshot as vassal-check --shot OUT/vassal-shots/shot.png names that of a batch's first setup
    # (the scenario sheet stands in for VASSAL's picture)
    (out / "vassal-shots").mkdir()
    (out / "vassal-shots" / "shot-1-sekigahara_1600.png").write_bytes((out / "sekigahara" / "cards" / "scenario_sekigahara_1600.png").read_bytes())
    path = data / "ohw" / "scenarios" / "ohw04_take_the_high_ground.yaml"
    text = path.read_text(encoding="utf-8")
    assert ILLEGAL_FROM in text
    path.write_text(text.replace(ILLEGAL_FROM, ILLEGAL_TO), encoding="utf-8")
    page = write_report(data, out)
    return data, out, page, {e.scenario: e for r in verdicts for e in r.entries}


class _Page(HTMLParser):
    """The articles (id → attributes), images, links and ids of a page."""

    def __init__(self, html: str):
        super().__init__()
        self.articles: dict[str, dict] = {}
        self.images: list[str] = []
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "article":
            self.articles[a["id"]] = a
        elif tag == "img":
            self.images.append(a["src"])
        elif tag == "a":
            self.links.append(a["href"])


def _article(html: str, article_id: str) -> str:
    start = html.index(f'<article class="scenario" id="{article_id}"')
    return html[start:html.index("</article>", start)]


# ---------------------------------------------------------------------------------- the page
def test_every_scenario_has_its_legality_balance_and_vassal_verdict(reported):
    data, out, page, verdicts = reported
    html = page.read_text(encoding="utf-8")
    doc = _Page(html)
    assert {k: (v["data-legality"], v["data-balance"]) for k, v in doc.articles.items()} == {
        "ohw-ohw04_take_the_high_ground": ("problems", "none"),  # edited after its verdict: stale, not shown
        "ohw-ohw11_surprise_attack": ("legal", "balanced"),
        "ohw-ohw30_last_stand": ("legal", "flagged"),  # random play: Red's rearguard never wins
        "sekigahara-sekigahara_1600": ("legal", "balanced"),
    }
    # the illegal set-up: rule id, data line and source of the finding
    path = data / "ohw" / "scenarios" / "ohw04_take_the_high_ground.yaml"
    line = next(i for i, t in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "id: red_2," in t)
    ohw04 = _article(html, "ohw-ohw04_take_the_high_ground")
    assert f"<td><code>inside-deployment</code></td><td><code>{path}:{line}</code></td>" in ohw04
    assert "<td>rules_facts, §5.3 Scenarios (deployment areas of the One-Hour Wargames patterns)</td>" in ohw04
    assert "No balance verdict in the cache for today's data and code" in ohw04
    # a verdict: its games, policy and each side's win rate with its interval, from the cache
    v = verdicts["ohw11_surprise_attack"]
    ohw11 = _article(html, "ohw-ohw11_surprise_attack")
    assert f"{v.games} game(s)" in ohw11 and "Policy <code>random</code>" in ohw11 and v.games == 40
    for side, name in enumerate(v.side_names):
        lo, hi = v.interval(side)
        assert f"<th scope=\"row\">{name}</th><td>{100 * v.wins[side] / v.games:.1f}%</td><td>{100 * lo:.1f}% – {100 * hi:.1f}%</td>" in ohw11
    assert f"Balance {1 - abs(v.wins[0] - v.wins[1]) / v.games:.3f}" in ohw11
    assert '<svg class="chart"' in ohw11 and "<circle" in ohw11
    # the flagged verdict names its rule
    assert "<span class=\"badge flagged\">flag</span> <code>" in _article(html, "ohw-ohw30_last_stand")
    # VASSAL: the run of each setup beside its scenario, the problem named
    assert "VASSAL: problems" in ohw11 and "chat: Bad Data in Module: image not found (+1 more)" in ohw11
    seki = _article(html, "sekigahara-sekigahara_1600")
    assert "VASSAL: clean" in seki
    assert '<img class="shot" src="../vassal-shots/shot-1-sekigahara_1600.png"' in seki and 'class="shot"' not in ohw11
    assert "vassal-check: 5 of 6 runs clean" in html
    # the build's figures, the scenario sheets, galleries and lint
    assert "12.5 s wall, 20.2 s CPU in the main process" in html or "12.5 s wall, 20.3 s CPU in the main process" in html
    assert '<img src="../sekigahara/cards/scenario_sekigahara_1600.png"' in html
    assert "../ohw/ohw.vmod</code>: no lint finding." in html
    assert 'src="../ohw/cards/card_errata.png"' in html and 'src="../ohw/images/unit_ashigaru_blue.png"' in html


def test_every_link_and_image_resolves_from_the_file(reported):
    _data_, out, page, _v = reported
    doc = _Page(page.read_text(encoding="utf-8"))
    assert len(doc.images) > 20
    for src in doc.images + [h for h in doc.links if not h.startswith("#")]:
        assert not re.match(r"^[a-z]+:", src), src  # nothing from elsewhere: relative links only
        assert (page.parent / src).resolve().is_file(), src
    for href in (h for h in doc.links if h.startswith("#")):
        assert href[1:] in doc.ids, href
    assert "<script src" not in page.read_text(encoding="utf-8") and "<link" not in page.read_text(encoding="utf-8")


def test_same_input_same_bytes_and_no_game_played(reported):
    data, out, page, _v = reported
    first = page.read_bytes()
    # another process: the verdicts from the cache, no engine imported, the same page
    code = ("import sys\nfrom pathlib import Path\nfrom pipeline.report import write_report\n"
            f"write_report(Path({str(data)!r}), Path({str(out)!r}))\n"
            "print(sorted(m for m in sys.modules if m.startswith('pipeline.systems.') and m.endswith(('.engine', '.load', '.model', '.policy', '.policies'))))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
    assert page.read_bytes() == first


def test_cached_verdicts_are_current_only_for_todays_data(reported):
    data, out, _page, verdicts = reported
    got = cached_verdicts(data, "ohw", out)
    assert set(got) == {"ohw11_surprise_attack", "ohw30_last_stand"}  # ohw04 was edited after it was played
    assert got["ohw11_surprise_attack"] == verdicts["ohw11_surprise_attack"]


def test_finding_lines_of_every_system_are_read_into_rule_line_and_source():
    row = FindingRow.of("source_data/genpei/scenarios/gp20.yaml:41: GP20 hex [3,4]: terrain-on-board: hex off the board "
                        "[rules_facts, §1.1 Board]")
    assert (row.file, row.line, row.what, row.rule, row.message, row.source, row.blocking) == (
        "source_data/genpei/scenarios/gp20.yaml", 41, "GP20 hex [3,4]", "terrain-on-board", "hex off the board", "rules_facts, §1.1 Board", True)

    class Incomplete:
        blocking = False

        def __str__(self):
            return "source_data/genpei/scenarios/gp05.yaml: GP05 Uji: incomplete: map not public (x); not playable until a setup is imported (gunbai import)"

    note = FindingRow.of(Incomplete())
    assert (note.file, note.line, note.rule, note.source, note.blocking) == ("source_data/genpei/scenarios/gp05.yaml", None, "incomplete", "", False)
    assert note.message.startswith("map not public (x)")


# ---------------------------------------------------------------------------------- vassal-check.json
def test_the_vassal_check_transcript_becomes_the_result_file(tmp_path):
    out = tmp_path / "vassal-check.json"
    vassal_check_result.write(TRANSCRIPT + "BASE-ONLY  bases/ccnapoleonics/genpei.vmdx on ccnapoleonics.vmod: genpei.vmdx + gp19.vsav\n"
                              "    | problems (1):\n    |     chat: This is an alpha test module\n", 1, str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert (doc["format"], doc["exit"], doc["clean"], doc["total"], doc["seconds"]) == (1, 1, 5, 6, 95)
    assert doc["runs"][0] == {"verdict": "CLEAN", "seconds": 21, "label": "ohw/ohw.vmod", "system": "ohw", "problems": []}
    assert doc["runs"][2]["problems"] == ["chat: Bad Data in Module: image not found (+1 more)"] and doc["runs"][2]["seconds"] is None
    assert doc["runs"][-1] == {"verdict": "BASE-ONLY", "seconds": None, "system": "genpei", "problems": ["chat: This is an alpha test module"],
                               "label": "bases/ccnapoleonics/genpei.vmdx on ccnapoleonics.vmod: genpei.vmdx + gp19.vsav"}


def test_vassal_check_build_writes_the_result_file_and_keeps_its_exit_code(tmp_path):
    fake = tmp_path / "vassal"
    fake.mkdir()
    (fake / "vassal-check-all").write_text("#!/bin/bash\nprintf 'PROBLEMS     7s  ohw/ohw.vmod  -- errorLog: ERROR x\\n'\n"
                                           "echo 'total: 1 runs: PROBLEMS=1; 7s'\nexit 1\n", encoding="utf-8")
    (fake / "vassal-check-all").chmod(0o755)
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "VASSAL_CHECK_UPGRADES": str(tmp_path / "none")}
    run = subprocess.run([str(ROOT / "scripts" / "vassal-check-build"), str(fake), str(out)], capture_output=True, text=True, env=env, check=False)
    assert run.returncode == 1, run.stderr
    assert "vassal-check: 0 of 1 runs clean" in run.stdout
    doc = json.loads((out / "vassal-check.json").read_text(encoding="utf-8"))
    assert (doc["exit"], doc["clean"], doc["total"]) == (1, 0, 1)
    assert doc["runs"] == [{"verdict": "PROBLEMS", "seconds": 7, "label": "ohw/ohw.vmod", "system": "ohw", "problems": ["errorLog: ERROR x"]}]


# ---------------------------------------------------------------------------------- a real browser
def _browser_or_skip():
    """Playwright's sync API and the axe-core file, or skip (fail in CI: make test installs them)."""
    axe = os.environ.get("GUNBAI_AXE") or next(iter(sorted((ROOT / ".browser").glob("axe-*.min.js"))), None)
    missing = [what for what, ok in (("/usr/bin/chromium (make browser)", CHROMIUM.is_file()),
                                     ("axe-core (make browser)", axe is not None and Path(axe).is_file())) if not ok]
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing.append("playwright (make setup)")
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the browser test needs {', '.join(missing)}")
        pytest.skip(f"needs {', '.join(missing)}")
    return sync_playwright, Path(axe)


def test_a_real_chromium_opens_the_page_clean_filters_it_and_finds_no_serious_accessibility_violation(reported, tmp_path):
    sync_playwright, axe = _browser_or_skip()
    _data_, out, page_path, _v = reported
    problems: list[str] = []
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True,
                                                   args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 900})
        try:
            page = ctx.new_page()
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} {r.failure}"))
            page.goto(page_path.as_uri(), wait_until="load")
            # every image loaded (those in the closed galleries too)
            images = page.evaluate("Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])")
            assert len(images) > 20
            assert [i for i in images if not (i[1] and i[2] > 0)] == []
            # every in-page link has its target
            dangling = page.evaluate("Array.from(document.querySelectorAll('a[href^=\"#\"]')).map(a => a.getAttribute('href'))"
                                     ".filter(h => !document.getElementById(h.slice(1)))")
            assert dangling == []
            shown = "Array.from(document.querySelectorAll('article.scenario')).filter(a => !a.hidden && a.offsetParent !== null).map(a => a.id)"
            assert len(page.evaluate(shown)) == 4
            assert page.text_content("#f-count") == "4 of 4 scenarios shown"
            page.select_option("#f-system", "ohw")
            assert page.evaluate(shown) == ["ohw-ohw04_take_the_high_ground", "ohw-ohw11_surprise_attack", "ohw-ohw30_last_stand"]
            assert page.is_hidden("#sys-sekigahara") and page.is_visible("#sys-ohw")
            page.select_option("#f-verdict", "problems")
            assert page.evaluate(shown) == ["ohw-ohw04_take_the_high_ground"]
            page.select_option("#f-verdict", "flagged")
            assert page.evaluate(shown) == ["ohw-ohw30_last_stand"]
            page.select_option("#f-system", "all")
            page.select_option("#f-verdict", "balanced")
            assert page.evaluate(shown) == ["ohw-ohw11_surprise_attack", "sekigahara-sekigahara_1600"]
            assert page.text_content("#f-count") == "2 of 4 scenarios shown"
            page.select_option("#f-verdict", "all")
            shot = out / "report" / "screenshot.png"
            page.screenshot(path=str(shot), full_page=False)
            assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
            # axe-core from a local file: no serious or critical violation
            page.add_script_tag(path=str(axe))
            found = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
                                  ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help})))")
            serious = [v for v in found if v["impact"] in ("serious", "critical")]
            assert serious == [], serious
        finally:
            ctx.close()
    assert problems == []


def test_an_incomplete_scenario_says_why_and_has_no_verdict(tmp_path):
    data = _data(tmp_path, "genpei")
    page = write_report(data, tmp_path / "build", lint=False)
    gp05 = _article(page.read_text(encoding="utf-8"), "genpei-gp05")
    assert 'data-legality="incomplete" data-balance="none"' in gp05
    # gp05.yaml: "map: not public", the name unknown
    assert "GP05 (name not public)" in gp05
    assert f"Incomplete (<code>{data / 'genpei' / 'scenarios' / 'gp05.yaml'}</code>): map not public" in gp05
    assert "No scenario sheet drawn (the scenario is incomplete)." in gp05


@pytest.mark.parametrize(("name", "doc", "message"), [
    ("vassal-check.json", {"format": 1, "clean": 1, "total": 1, "exit": 0, "runs": [{"verdict": "CLEAN", "seconds": "x", "label": "a", "system": "ohw", "problems": []}]},
     "runs[0].seconds is 'x'; expected a whole number or null (run make vassal-check again)"),
    ("vassal-check.json", {"format": 1, "clean": 1, "total": 1, "exit": 0, "runs": {}}, "runs is {}; expected a list of runs (run make vassal-check again)"),
    ("build-figures.json", {"format": 1, "seconds": 1.0, "cpu": "a lot", "systems": []}, "cpu is 'a lot'; expected a whole number or a number (run gunbai build again)"),
])
def test_a_bad_result_file_is_one_line_naming_it_and_the_value(tmp_path, name, doc, message):
    data, out = _data(tmp_path, "sekigahara"), tmp_path / "build"
    out.mkdir()
    (out / name).write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(GunbaiError) as exc:
        write_report(data, out, lint=False)
    assert str(exc.value) == f"{out / name}: {message}"
    assert not (out / "report").exists()
    # a result file of another format (an older checker's) is not read: the page says "not checked"
    (out / name).write_text(json.dumps({**doc, "format": 0}), encoding="utf-8")
    html = write_report(data, out, lint=False).read_text(encoding="utf-8")
    assert ("Not checked in VASSAL yet" if name == "vassal-check.json" else "No build figures") in html
