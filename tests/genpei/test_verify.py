"""Legality checks of Genpei scenarios (gunbai verify), on the shipped data and planted faults."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pipeline.systems.genpei.load import load
from pipeline.systems.genpei.verify import RULES, explain, verify_all

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "source_data" / "genpei"


@pytest.fixture(scope="module")
def data():
    return load(DATA)


def test_shipped_scenarios_are_legal_or_incomplete_with_the_reason(data):
    from pipeline.systems.genpei.verify import Incomplete

    assert [s.scenario.code for s in data.scenarios] == [f"GP{n:02d}" for n in range(1, 31)]
    found = verify_all(data)
    assert all(isinstance(f, Incomplete) and not f.blocking for f in found), [str(f) for f in found if not isinstance(f, Incomplete)]
    # the pack's two primers are legal; the 28 others say their map is only a picture
    assert sorted(f.scenario for f in found) == [f"GP{n:02d}" for n in range(1, 31) if n not in (19, 20)]
    assert all(f.reasons[0] == "map not public (terrain, units and leaders unknown)" for f in found)
    gp15 = next(f for f in found if f.scenario == "GP15")
    assert str(gp15).endswith("GP15 Muroyama: incomplete: map not public (terrain, units and leaders unknown); not playable until a setup is imported (gunbai import)")
    gp27 = next(f for f in found if f.scenario == "GP27")
    assert gp27.reasons[1] == "unknown: board edge of both sides, victory banners"


def test_catalogue_values_are_the_designers(data):
    """Spot checks against the CCN pages (worked by reading them, not from the code)."""
    by = {s.scenario.code: s.scenario for s in data.scenarios}
    gp01 = by["GP01"]
    assert [(s.name, s.army, s.command_cards, s.dragon_cards, s.honour_fortune) for s in gp01.sides] == [
        ("Taira", "red", 5, 2, 5), ("Hiei Monks", "yellow", 5, 1, 8)]
    assert gp01.first_player == "monks" and gp01.victory.banners == 5 and len(gp01.victory.rules) == 2
    gp12 = by["GP12"]
    assert [(s.command_cards, s.honour_fortune) for s in gp12.sides] == [(5, 4), (6, 8)] and gp12.victory.banners == 6
    assert by["GP28"].naval and [s.dragon_cards for s in by["GP28"].sides] == [1, 1]
    assert by["GP27"].victory.banners == "unknown" and [s.honour_fortune for s in by["GP27"].sides] == [0, 0]
    assert by["GP05"].name == "unknown" and by["GP05"].first_player == "unknown"
    assert by["GP19"].map == by["GP20"].map == "reconstructed"
    assert all(s.map == "not public" for c, s in by.items() if c not in ("GP19", "GP20"))


def test_rule_sources_are_documents_of_sources_yaml(data):
    docs = {d.id for d in data.sources.documents}
    assert {r.doc for r in RULES.values()} <= docs


def _copy_with(tmp_path: Path, scenario: str, change) -> Path:
    """Copy the data folder, apply ``change`` to one scenario's YAML, return the copy's file."""
    copy = tmp_path / "genpei"
    shutil.copytree(DATA, copy)
    path = copy / "scenarios" / scenario
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _stockade_hex(doc) -> list[int]:
    for tp in doc["terrain"]:
        if tp["terrain"] == "stockade":
            return list(tp["hexes"][0])
    raise AssertionError("GP19 has no stockade")


def _findings_for(path: Path):
    data = load(path.parents[1], scenario_files=[path])
    return verify_all(data)


def test_cavalry_moved_into_a_stockade_is_flagged_with_hex_and_rule(tmp_path):
    target: list[int] = []

    def move_cavalry(doc):
        target.extend(_stockade_hex(doc))
        doc["units"] = [u for u in doc["units"] if list(u["hex"]) != target]
        doc["units"].append({"side": doc["sides"][0]["id"], "unit": "samurai_cavalry", "hex": target})

    path = _copy_with(tmp_path, "gp19_nutas_stronghold.yaml", move_cavalry)
    findings = _findings_for(path)
    assert [f.rule for f in findings] == ["no-cavalry-in-stockade"]
    f = findings[0]
    assert f.hex == tuple(target)
    line = str(f)
    assert f"hex [{target[0]},{target[1]}]" in line and "no-cavalry-in-stockade" in line and "genpei_pack" in line
    # the line number points at the moved unit in the file
    text = path.read_text(encoding="utf-8").splitlines()
    assert "samurai_cavalry" in "".join(text[f.line - 5 : f.line])


def test_cli_verify_fails_on_that_copy(tmp_path):
    def move_cavalry(doc):
        h = _stockade_hex(doc)
        doc["units"] = [u for u in doc["units"] if list(u["hex"]) != h]
        doc["units"].append({"side": doc["sides"][0]["id"], "unit": "samurai_cavalry", "hex": h})

    path = _copy_with(tmp_path, "gp19_nutas_stronghold.yaml", move_cavalry)
    run = subprocess.run([sys.executable, "-m", "pipeline", "verify", str(path), "--data", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 1
    assert "no-cavalry-in-stockade" in run.stderr and str(path) in run.stderr


@pytest.mark.parametrize(
    "change, rule",
    [
        (lambda d: d["units"][0].__setitem__("hex", [13, 1]), "hex-on-board"),
        (lambda d: d["units"][0].__setitem__("hex", [12, 2]), "hex-on-board"),  # short row has 11
        (lambda d: d["units"][0].__setitem__("unit", "ninja"), "known-unit"),
        (lambda d: d["units"][0].__setitem__("leader", "shogun"), "known-leader"),
        (lambda d: d["units"][1].__setitem__("hex", d["units"][0]["hex"]), "one-unit-per-hex"),
        (lambda d: d["victory"].__setitem__("banners", 0), "banners-positive"),
        (lambda d: d["sides"][0].__setitem__("command_cards", 0), "cards-positive"),
        (lambda d: d.__setitem__("first_player", "nobody"), "known-side"),
        (lambda d: d["terrain"].append({"terrain": "arrow_tower", "hexes": [d["units"][0]["hex"]]}), "overlay-needs-base"),
    ],
)
def test_each_planted_fault_is_flagged(tmp_path, change, rule):
    path = _copy_with(tmp_path, "gp19_nutas_stronghold.yaml", change)
    rules = {f.rule for f in _findings_for(path)}
    assert rule in rules


def test_naval_units_need_wind_tide(tmp_path):
    path = _copy_with(tmp_path, "gp20_nishinomiya.yaml", lambda d: d.pop("wind_tide"))
    assert "wind-tide-given" in {f.rule for f in _findings_for(path)}


def test_naval_units_need_naval_rules(tmp_path):
    path = _copy_with(tmp_path, "gp20_nishinomiya.yaml", lambda d: d.__setitem__("naval", False))
    assert "naval-needs-naval-rules" in {f.rule for f in _findings_for(path)}


def test_explain_prints_rule_and_source():
    text = explain("no-cavalry-in-stockade")
    assert "Cavalry units and cavalry leaders may not enter a Stockade hex." in text
    assert "genpei_pack, Stockade" in text
