"""Playability of Genpei scenarios through the one verdict path of every system
(:mod:`pipeline.verdicts`): seeded games of the shipped scenarios and of broken copies."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from pipeline.build import explain_rule
from pipeline.play.verdict import Verdict
from pipeline.systems.base import Playable, get_system
from pipeline.systems.genpei.engine.rules import ENGINE_RULES
from pipeline.systems.genpei.load import load
from pipeline.systems.genpei.verify import RULES, explain, verify_all
from pipeline.verdicts import play_all

from .conftest import DATA, ROOT


def _copy(tmp_path: Path, name: str, change) -> Path:
    copy = tmp_path / "genpei"
    shutil.copytree(DATA, copy)
    path = copy / "scenarios" / name
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _verdict(path: Path, games: int, *, policy: str = "greedy", seed: int = 1) -> Verdict:
    """The verdict of one scenario file (no cache), ``games`` games at most."""
    (res,) = play_all(path.parents[2], ["genpei"], files={"genpei": [path]}, budget=games, seed=seed, precision=0.01, policy=policy)
    (v,) = res.entries
    assert isinstance(v, Verdict)
    return v


def test_shipped_scenarios_are_playable_and_verdicts_repeat():
    from pipeline.systems.genpei.verify import complete_scenarios

    assert [s.scenario.code for s in complete_scenarios(load(DATA))] == ["GP19", "GP20"]
    for name in ("gp19_nutas_stronghold.yaml", "gp20_nishinomiya.yaml"):
        v = _verdict(DATA / "scenarios" / name, 16, seed=3)
        assert v.findings == [], v.findings
        assert v == _verdict(DATA / "scenarios" / name, 16, seed=3)
        assert v.games == 16 and v.stop == "budget" and v.cut_off == 0 and sum(v.wins) == 16


def test_the_ladder_and_turn_caps():
    gs = get_system("genpei")
    assert list(gs.LADDER) == ["random", "greedy", "rollout", "ismcts"]
    (p,) = [p for p in gs.playables(DATA, [DATA / "scenarios" / "gp19_nutas_stronghold.yaml"]) if isinstance(p, Playable)]
    # the schema's defaults: random play cut off after 40 player turns, the others after 100;
    # rollout and ISMCTS take greedy's cap (the nearest weaker policy listed other than random)
    assert [p.cap_for(n, list(gs.LADDER)) for n in gs.LADDER] == [40, 100, 100, 100]
    assert p.label == "genpei GP19 Nuta's Stronghold" and p.side_names[0].startswith("Taira")


def test_unwinnable_copy_is_flagged(tmp_path):
    # GP20 with a Taira banner target above everything the Rebels field (13 units, 2 leaders,
    # 2 supply-ship banners = 17): the static check and the play both flag it.
    def change(doc):
        doc["sides"][0]["banners"] = 18

    path = _copy(tmp_path, "gp20_nishinomiya.yaml", change)
    data = load(path.parents[1], scenario_files=[path])
    assert "banners-reachable" in {f.rule for f in verify_all(data)}
    v = _verdict(path, 6)
    found = {(f["rule"], f["message"].split(" won ")[0]) for f in v.findings}
    assert ("both-sides-win", "Taira (Heike)") in found
    assert v.wins[0] == 0
    assert v.findings[0]["file"] == str(path) and v.band.startswith("playability: flag")


def test_copy_whose_games_cannot_end_is_flagged(tmp_path):
    # GP19 with the armies out of each other's reach (the Rebels moved behind a river line the
    # Taira cannot cross): no banner can ever be won, every game hits the turn cap.
    def change(doc):
        doc["terrain"].append({"terrain": "river", "rows": [{"row": 5, "first": 1, "last": 12}]})
        doc["terrain"] = [t for t in doc["terrain"] if not any(list(h)[1] == 5 for h in t.get("hexes", []))] + [doc["terrain"][-1]]
        doc["playability"] = {"turn_cap": {"random": 12, "greedy": 12}}

    path = _copy(tmp_path, "gp19_nutas_stronghold.yaml", change)
    v = _verdict(path, 4)
    assert v.turn_cap == 12 and v.cut_off == 4
    assert "games-end" in {f["rule"] for f in v.findings}


def test_new_rules_explain_and_cite(data):
    for rid in ("banners-reachable", "games-end", "both-sides-win", "win-rate-band", "balance-band", "palisade-faces-board", "bodyguard-with-commander"):
        assert rid in RULES and rid in explain(rid)
    # every rule the engine plays is listed by --explain with a document of sources.yaml
    docs = {d.id for d in data.sources.documents}
    for rid, rule in ENGINE_RULES.items():
        assert RULES[rid] is rule and rule.doc in docs and explain(rid).startswith(rid)
    assert RULES["games-end"].doc in docs
    listing = explain_rule("genpei:all")
    assert all(f"[genpei] {rid}:" in listing for rid in ENGINE_RULES)


def test_stats_count_the_cards_played():
    # verify --play --stats: tactic and Dragon cards are played in the shipped scenarios
    v = _verdict(DATA / "scenarios" / "gp20_nishinomiya.yaml", 12, seed=5)
    assert sum(n for k, n in v.stats.items() if k.startswith("command:")) >= 12 * 5
    text = "\n".join(v.stats_lines())
    assert "\n  command: " in text and "\n  dragon: " in text


def test_verify_play_cli_writes_chart(tmp_path):
    out = tmp_path / "build"
    r = subprocess.run([sys.executable, "-m", "pipeline", "verify", "--play", "3", "--workers", "1", "--policy", "greedy", "--out", str(out),
                        str(DATA / "scenarios" / "gp20_nishinomiya.yaml")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # the shipped ladder record (source_data/genpei/ladder.yaml) proves greedy over random on GP20
    assert "genpei GP20 Nishinomiya: greedy policy (strength proven head to head), 3 games" in r.stdout
    assert "95% CI" in r.stdout and "Balance " in r.stdout and "stopped at the budget of 3 games" in r.stdout
    assert (out / "genpei" / "playability.png").read_bytes()[:4] == b"\x89PNG"
