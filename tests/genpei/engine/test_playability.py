"""Playability: seeded games of the shipped scenarios and of broken copies."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from pipeline.build import explain_rule
from pipeline.systems.genpei.engine.playability import play_scenario, stats_lines, thresholds_for
from pipeline.systems.genpei.engine.rules import ENGINE_RULES
from pipeline.systems.genpei.load import load
from pipeline.systems.genpei.verify import RULES, explain, verify_all

from .conftest import DATA, ROOT


def _copy(tmp_path: Path, name: str, change) -> Path:
    copy = tmp_path / "genpei"
    shutil.copytree(DATA, copy)
    path = copy / "scenarios" / name
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _loaded(path: Path):
    data = load(path.parents[1], scenario_files=[path])
    return data, data.scenarios[0]


def test_shipped_scenarios_are_playable_and_reports_repeat(data):
    from pipeline.systems.genpei.verify import complete_scenarios

    assert [s.scenario.code for s in complete_scenarios(data)] == ["GP19", "GP20"]
    for loaded in complete_scenarios(data):
        sp = play_scenario(data, loaded, 16, seed=3)
        assert sp.findings == [], [str(f) for f in sp.findings]
        again = play_scenario(data, loaded, 16, seed=3)
        assert sp.reports == again.reports
        greedy = sp.reports["greedy"]
        assert greedy.cut_off == 0 and sum(s.wins for s in greedy.sides) == 16


def test_unwinnable_copy_is_flagged(tmp_path):
    # GP20 with a Taira banner target above everything the Rebels field (13 units, 2 leaders,
    # 2 supply-ship banners = 17): the static check and the play both flag it.
    def change(doc):
        doc["sides"][0]["banners"] = 18

    path = _copy(tmp_path, "gp20_nishinomiya.yaml", change)
    data, loaded = _loaded(path)
    rules = {f.rule for f in verify_all(data)}
    assert "banners-reachable" in rules
    sp = play_scenario(data, loaded, 6, seed=1)
    found = {(f.rule, f.message.split(" won ")[0]) for f in sp.findings}
    assert ("both-sides-win", "Taira (Heike)") in found
    assert sp.reports["greedy"].sides[0].wins == 0


def test_copy_whose_games_cannot_end_is_flagged(tmp_path):
    # GP19 with the armies out of each other's reach (the Rebels moved behind a river line the
    # Taira cannot cross): no banner can ever be won, every game hits the turn cap.
    def change(doc):
        doc["terrain"].append({"terrain": "river", "rows": [{"row": 5, "first": 1, "last": 12}]})
        doc["terrain"] = [t for t in doc["terrain"] if not any(list(h)[1] == 5 for h in t.get("hexes", []))] + [doc["terrain"][-1]]
        doc["playability"] = {"turn_cap": {"random": 12, "greedy": 12}}

    path = _copy(tmp_path, "gp19_nutas_stronghold.yaml", change)
    data, loaded = _loaded(path)
    assert thresholds_for(loaded.scenario, "greedy").turn_cap == 12
    sp = play_scenario(data, loaded, 4, seed=1)
    assert "games-end" in {f.rule for f in sp.findings}
    assert sp.reports["greedy"].cut_off_share == 1.0


def test_new_rules_explain_and_cite(data):
    for rid in ("banners-reachable", "games-end", "both-sides-win", "palisade-faces-board", "bodyguard-with-commander"):
        assert rid in RULES and rid in explain(rid)
    # every rule the engine plays is listed by --explain with a document of sources.yaml
    docs = {d.id for d in data.sources.documents}
    for rid, rule in ENGINE_RULES.items():
        assert RULES[rid] is rule and rule.doc in docs and explain(rid).startswith(rid)
    listing = explain_rule("genpei:all")
    assert all(f"[genpei] {rid}:" in listing for rid in ENGINE_RULES)


def test_stats_count_the_cards_played(data):
    # verify --play --stats: tactic and Dragon cards are played in the shipped scenarios
    loaded = next(s for s in data.scenarios if s.scenario.code == "GP20")
    sp = play_scenario(data, loaded, 12, seed=5)
    totals = sp.reports["greedy"].event_totals()
    assert sum(n for k, n in totals.items() if k.startswith("command:")) >= 12 * 5
    text = "\n".join(stats_lines(sp.reports))
    assert "Command cards:" in text and "Dragon cards:" in text
    assert sp.reports["rollout"].games == 1  # the rollout policy plays 1 game in 10


def test_verify_play_cli_writes_chart(tmp_path):
    out = tmp_path / "build"
    r = subprocess.run([sys.executable, "-m", "pipeline", "verify", "--play", "3", "--workers", "1", "--out", str(out),
                        str(DATA / "scenarios" / "gp20_nishinomiya.yaml")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "GP20 / greedy: 3 games" in r.stdout and "95% CI" in r.stdout and "balance verdict" in r.stdout
    assert (out / "genpei" / "playability.png").read_bytes()[:4] == b"\x89PNG"
