"""Roster checks: costs from the model list, the book's sample Buntai against their printed
totals, and every kind of composition rule failing with the rule's id and source."""

from __future__ import annotations

import pytest

from pipeline.systems.ronin.load import load_roster
from pipeline.systems.ronin.roster import check_roster

from .conftest import DATA


def _check(data, path):
    return check_roster(data, load_roster(path))


def _rules(report):
    return [f.rule for f in report.findings]


def test_sample_buntai_100_points(data):
    r = _check(data, DATA / "rosters" / "bushi_sample_100.yaml")
    # Ashigaru 18 (teppo included) + Ashigaru 18 (yumi included) + 2 x Ashigaru 18 (yari
    # included) + Samurai 24 + Kenjutsu 3 = 18 + 18 + 36 + 27 = 99; the book prints 99.
    assert r.total == 99
    assert r.roster.printed_total == 99
    assert r.findings == [] and r.notes == []


def test_sample_buntai_200_points_differs_from_the_book(data):
    r = _check(data, DATA / "rosters" / "bushi_sample_200.yaml")
    # 2 Ashigaru teppo 36 + 2 Ashigaru yumi 36 + 2 Ashigaru yari 36 = 108
    # Samurai 24 + Kenjutsu 3 = 27
    # Samurai 24 + yari 3 + Sojutsu 3 = 30
    # Hatamoto 29 + naginata 3 + Naginatajutsu 3 + Powerful 3 = 38 (the book prints 35)
    # 108 + 27 + 30 + 38 = 203; the book prints 200 (its printed lines add up to 200).
    assert r.total == 203
    assert _rules(r) == ["points-limit"]
    notes = {n.rule: n.message for n in r.notes}
    assert "printed 35, computed 38" in notes["printed-points"]
    assert "Hatamoto" in notes["printed-points"] and "Naginatajutsu" in notes["printed-points"] and "Powerful" in notes["printed-points"]
    assert "printed total 200, computed 203" in notes["printed-total"] and "Hatamoto +3" in notes["printed-total"]


def test_two_rank_5_models_fail(data, write_roster):
    p = write_roster(
        "id: two_bushou\nname: x\nfaction: bushi\npoints_limit: 200\nmodels:\n"
        "  - {model: bushou, count: 2}\n"
        "  - {model: ashigaru, count: 4, choices: {weapon: [yari]}}\n"
    )
    r = _check(data, p)
    assert _rules(r) == ["bushi_one_rank5"]
    f = r.findings[0]
    assert "2 Rank 5" in f.message and "at most 1" in f.message
    assert "Factions: Bushi, Composition" in f.source and "roster.yaml:" in str(f)


def test_three_teppo_among_eight_models_fail(data, write_roster):
    # 8 models: 25% of 8 = 2 teppo allowed (the book's own example, p.32).
    p = write_roster(
        "id: teppo3\nname: x\nfaction: bushi\npoints_limit: 200\nmodels:\n"
        "  - {model: ashigaru, count: 3, choices: {weapon: [teppo]}}\n"
        "  - {model: ashigaru, count: 3, choices: {weapon: [yari]}}\n"
        "  - {model: samurai, count: 2}\n"
    )
    r = _check(data, p)
    assert _rules(r) == ["bushi_teppo_25"]
    assert "3 of 8" in r.findings[0].message and "at most 2" in r.findings[0].message


def test_two_teppo_among_eight_and_ten_models_pass(data, write_roster):
    for extra in (0, 2):
        p = write_roster(
            "id: teppo2\nname: x\nfaction: bushi\npoints_limit: 300\nmodels:\n"
            "  - {model: ashigaru, count: 2, choices: {weapon: [teppo]}}\n"
            f"  - {{model: ashigaru, count: {4 + extra}, choices: {{weapon: [yari]}}}}\n"
            "  - {model: samurai, count: 2}\n"
        )
        assert _check(data, p).findings == []


def test_ratio_rules(data, write_roster):
    # one Samurai (Rank 3) needs two Rank 1/2 models; a Rank 2 needs three Rank 1.
    p = write_roster(
        "id: ratio\nname: x\nfaction: bushi\npoints_limit: 200\nmodels:\n"
        "  - {model: samurai, count: 2}\n  - {model: hatamoto}\n  - {model: ashigaru_gashira}\n"
        "  - {model: ashigaru, count: 2, choices: {weapon: [yari]}}\n"
    )
    assert set(_rules(_check(data, p))) == {"bushi_low_per_high", "bushi_rank1_per_rank2"}
    # every model Rank 3 or higher is the book's alternative
    p = write_roster("id: elite\nname: x\nfaction: bushi\npoints_limit: 200\nmodels:\n  - {model: samurai, count: 3}\n  - {model: hatamoto}\n")
    assert _check(data, p).findings == []


def test_option_limits(data, write_roster):
    p = write_roster(
        "id: opts\nname: x\nfaction: bushi\npoints_limit: 200\nmodels:\n"
        "  - {model: samurai, choices: {attributes: [kenjutsu, powerful]}}\n"
        "  - {model: ashigaru, count: 2}\n"
        "  - {model: ashigaru, choices: {weapon: [yari], banner: [banner]}}\n"
        "  - {model: hatamoto, choices: {attributes: [niten]}}\n"
    )
    rules = _rules(_check(data, p))
    assert "option-limit" in rules  # Samurai: one additional Attribute
    assert rules.count("option-required") == 1  # the line of 2 Ashigaru chose no yari, nagae-yari, yumi or teppo
    assert "option-excluded" in rules  # a banner bearer carries a katana only
    assert "attribute-prerequisite" in rules  # Niten needs Kenjutsu


def test_banner_costs_and_limit(data, write_roster):
    p = write_roster(
        "id: banners\nname: x\nfaction: bushi\npoints_limit: 200\nmodels:\n"
        "  - {model: ashigaru, count: 2, choices: {banner: [banner]}}\n  - {model: ashigaru, count: 2, choices: {weapon: [yari]}}\n"
    )
    r = _check(data, p)
    assert _rules(r) == ["bushi_one_banner"]
    assert r.total == 2 * (18 - 3) + 2 * 18


def test_swords_for_hire(data, write_roster):
    # 4 models: 25% = 1 Sword-for-Hire; a Senior Ronin needs two other Ronin; Sohei hire nobody
    p = write_roster(
        "id: hire\nname: x\nfaction: bushi\npoints_limit: 300\nmodels:\n"
        "  - {model: ashigaru, count: 2, choices: {weapon: [yari]}}\n  - {model: ronin}\n  - {model: senior_ronin}\n"
    )
    assert set(_rules(_check(data, p))) == {"sfh_cap_25", "sfh_senior_ronin_needs_two"}
    p = write_roster("id: hire2\nname: x\nfaction: sohei\npoints_limit: 300\nmodels:\n  - {model: temple_attendant, count: 4}\n  - {model: ronin}\n")
    assert "sohei_hires" in _rules(_check(data, p))
    # a Ronin costs 17 + heavy armour 6 + yumi 3 = 26
    p = write_roster(
        "id: hire3\nname: x\nfaction: ikko_ikki\npoints_limit: 300\nmodels:\n"
        "  - {model: peasant, count: 4}\n  - {model: ronin, choices: {armour: [heavy], weapon: [yumi]}}\n"
    )
    r = _check(data, p)
    assert r.findings == [] and r.total == 4 * 4 + 26


def test_other_rule_kinds(data, write_roster):
    # Ikko-Ikki: more Rank 0/1 than Rank 2+
    p = write_roster("id: ikko\nname: x\nfaction: ikko_ikki\npoints_limit: 300\nmodels:\n  - {model: monto, count: 2}\n  - {model: samurai, count: 2}\n")
    assert "ikko_low_more_than_high" in _rules(_check(data, p))
    # Bushi Fearsome Kiai: at most three, 5 points each
    p = write_roster("id: kiai\nname: x\nfaction: bushi\npoints_limit: 300\nextras: {fearsome_kiai: 4}\nmodels:\n  - {model: samurai, count: 4}\n")
    r = _check(data, p)
    assert _rules(r) == ["bushi_fearsome_kiai"] and r.total == 4 * 24 + 4 * 5
    # Peasants: at least 30% of the points on Peasants. 4 x 4 = 16 of 16 + Ronin 17 = 33: 48%.
    p = write_roster("id: village\nname: x\nfaction: peasants\npoints_limit: 100\nmodels:\n  - {model: peasant, count: 4}\n  - {model: ronin}\n")
    assert "peasants_points_30" not in _rules(_check(data, p))
    # 16 of 16 + Shugyosha (28 + 4 Attributes x 3 + naginata 3 = 43) = 59: 27%.
    p = write_roster(
        "id: village2\nname: x\nfaction: peasants\npoints_limit: 200\nmodels:\n  - {model: peasant, count: 4}\n"
        "  - {model: shugyosha, choices: {attributes: [tough, fast, powerful, kenjutsu], exchange_katana: [naginata]}}\n"
    )
    r = _check(data, p)
    assert _rules(r) == ["peasants_points_30"] and r.total == 59


def test_unknown_ranks_are_reported_not_guessed(data, write_roster):
    p = write_roster(
        "id: school\nname: x\nfaction: koryu\npoints_limit: 100\nfaction_choices: {primary_weapon: [jo], secondary_weapons: [katana]}\nmodels:\n"
        "  - {model: novice, count: 3, choices: {weapon: [jo]}}\n  - {model: sensei, choices: {weapon: [katana]}}\n"
    )
    r = _check(data, p)
    assert r.findings == []
    assert any(n.rule == "koryu_one_rank5" and "Rank unknown" in n.message for n in r.notes)
    p = write_roster(
        "id: school2\nname: x\nfaction: koryu\npoints_limit: 100\nfaction_choices: {primary_weapon: [jo], secondary_weapons: [katana]}\nmodels:\n"
        "  - {model: novice, count: 3, choices: {weapon: [katana]}}\n  - {model: sensei, choices: {weapon: [jo]}}\n"
    )
    assert _rules(_check(data, p)) == ["koryu_half_primary"]


def test_bandit_teppo_limit_note(data, write_roster):
    p = write_roster("id: gang\nname: x\nfaction: bandits\npoints_limit: 100\nmodels:\n  - {model: peasant, count: 4}\n  - {model: leader}\n")
    r = _check(data, p)
    assert any(n.rule == "bandit_teppo_limit" for n in r.notes)


def test_cli_roster_check(capsys):
    from pipeline.cli import app

    rosters = DATA / "rosters"
    with pytest.raises(SystemExit) as ok:
        app(["roster", "check", "--data", str(DATA), str(rosters / "bushi_sample_100.yaml")])
    assert ok.value.code == 0
    assert "total 99 of 100 points" in capsys.readouterr().out
    with pytest.raises(SystemExit) as bad:
        app(["roster", "check", "-q", "--data", str(DATA), str(rosters / "bushi_sample_200.yaml")])
    assert bad.value.code == 1
    out = capsys.readouterr()
    assert "points-limit: 203 points" in out.err and "printed 35, computed 38" in out.out


def test_koryu_weapons_come_from_the_school_choices(data, write_roster):
    p = write_roster(
        "id: school3\nname: x\nfaction: koryu\npoints_limit: 100\nfaction_choices: {primary_weapon: [jo, bo], secondary_weapons: [katana]}\nmodels:\n"
        "  - {model: novice, count: 3, choices: {weapon: [jo]}}\n  - {model: sensei, choices: {weapon: [naginata]}}\n"
    )
    msgs = [f.message for f in _check(data, p).findings if f.rule == "faction-choice"]
    assert any("2 primary_weapon" in m for m in msgs) and any("Sensei picks naginata" in m for m in msgs)
