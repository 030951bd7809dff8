"""Exact odds (icepool) against hand computations. Die faces: system.yaml, one each of circle,
triangle, square, sword, flag, H&F (erratum battle_die_faces)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from pipeline.systems.genpei.odds import (
    battle_odds,
    format_odds,
    kill_odds,
    marginals,
    matchup,
    odds_table,
)
from pipeline.systems.genpei.odds_cli import run_cli


def _p_hits(data, setup, k):
    return marginals(battle_odds(data, setup))["hits"].get(k, Fraction(0))


def test_two_dice_at_range_against_a_triangle_unit(data):
    # Ashigaru Archers fire 2 dice (units.yaml ranged.dice 2) at Ashigaru Spearmen (blue
    # triangle). At range only the target's symbol hits (swords score in close combat,
    # rules-facts §1.2), so each die hits with 1/6: P(>=1 hit) = 1 - (5/6)^2 = 11/36.
    s = matchup(data, "ashigaru_archers", "ashigaru_spearmen", ranged=True)
    assert s.dice == 2
    assert 1 - _p_hits(data, s, 0) == 1 - Fraction(5, 6) ** 2 == Fraction(11, 36)


def test_two_dice_close_combat_with_rank_resistance(data):
    # Close combat, circle (2 dice) against triangle: the triangle ignores 1 sword from a
    # circle (rules-facts §1.2, superior rank). Hits = triangles + max(0, swords - 1).
    # No hit when no triangle and at most one sword: (5/6)^2 - (1/6)^2 = 24/36, so
    # P(>=1 hit) = 12/36 = 1/3.
    s = matchup(data, "ashigaru_archers", "ashigaru_spearmen")
    assert (s.dice, s.sword_ignores) == (2, 1)
    assert 1 - _p_hits(data, s, 0) == Fraction(1, 3)


def test_four_dice_against_a_triangle_without_resistance(data):
    # Samurai Infantry (square, 4 dice) against Ashigaru Spearmen: triangle and sword hit,
    # 2 faces of 6: P(0 hits) = (4/6)^4 = 16/81; E[hits] = 4 * 2/6 = 4/3.
    s = matchup(data, "samurai_infantry", "ashigaru_spearmen")
    m = marginals(battle_odds(data, s))
    assert m["hits"][0] == Fraction(16, 81)
    assert sum(k * p for k, p in m["hits"].items()) == Fraction(4, 3)
    assert sum(m["hits"].values()) == 1


def test_terrain_cap_and_inspiration_after_the_cap(data):
    # Forest caps close combat into it at 2; Inspiration adds 1 after the cap (rules-facts
    # §1.5): Samurai Cavalry 4 -> 2 + 1 = 3 dice. Against a circle unit (no resistance from a
    # square): hits on circle or sword, P(0) = (4/6)^3 = 8/27.
    s = matchup(data, "samurai_cavalry", "ashigaru_archers", terrain="forest", leader=True)
    assert s.dice == 3
    assert _p_hits(data, s, 0) == Fraction(8, 27)


def test_inspired_roll_loses_its_first_hf(data):
    # One inspired die: its only possible H&F is the first one, cancelled (ccn_faq_close_combat).
    s = matchup(data, "samurai_infantry", "samurai_infantry", leader=True)
    d1 = matchup(data, "samurai_infantry", "samurai_infantry")
    assert marginals(battle_odds(data, s))["hf"][0] < 1  # 5 dice, H&F possible
    # With the inspired 5 dice, P(0 tokens) = P(at most one H&F) = (5/6)^5 + 5 (1/6)(5/6)^4.
    assert marginals(battle_odds(data, s))["hf"][0] == Fraction(5, 6) ** 5 + 5 * Fraction(1, 6) * Fraction(5, 6) ** 4
    assert marginals(battle_odds(data, d1))["hf"][0] == Fraction(5, 6) ** 4


def test_sohei_rerolls_every_hf_for_another_result(data):
    # Sohei Warriors (triangle) against a circle unit: circle and sword hit. A rerolling die
    # ends on one of the 5 faces that are not H&F, each equally likely: P(hit per die) = 2/5
    # (Genpei pack, Sohei Warriors; erratum sohei_hf_reroll), exact whatever the chain length.
    s = matchup(data, "sohei_warriors", "ashigaru_archers")
    assert s.reroll_hf and s.dice == 3
    assert _p_hits(data, s, 0) == Fraction(3, 5) ** 3


def test_flags_against_a_naval_unit_are_hits(data):
    # At sea both units are naval: 1 die less (3 -> 2 for Ashigaru Spearmen) and every flag not
    # ignored is a hit (Genpei pack, Naval Warfare). Per die: triangle, sword, flag hit = 3/6.
    s = matchup(data, "ashigaru_spearmen", "ashigaru_spearmen", at_sea=True)
    assert s.dice == 2 and s.flags_are_hits
    m = marginals(battle_odds(data, s))
    assert m["hits"][0] == Fraction(1, 4) and set(m["flags"]) == {0}


def test_lying_flat_gets_no_rank_resistance(data):
    s_flat = matchup(data, "ashigaru_archers", "samurai_infantry", flat=True)
    s_up = matchup(data, "ashigaru_archers", "samurai_infantry")
    assert (s_up.sword_ignores, s_flat.sword_ignores) == (2, 0)


def test_kill_odds_and_table(data):
    s = matchup(data, "samurai_infantry", "ashigaru_spearmen")
    p_kill, e_hits = kill_odds(data, s, 1)
    assert abs(p_kill - (1 - 16 / 81)) < 1e-12 and abs(e_hits - (1 - 16 / 81)) < 1e-12
    rows = odds_table(data, "ashigaru_archers")
    assert {r["kind"] for r in rows} == {"close", "ranged"}
    row = next(r for r in rows if r["defender"] == "ashigaru_spearmen" and r["kind"] == "ranged")
    assert abs(row["p_hit"] - 11 / 36) < 1e-12


def test_odds_command(data, capsys):
    assert run_cli(["samurai_infantry", "ashigaru_spearmen", "--terrain", "stockade", "--leader"]) == 0
    text = capsys.readouterr().out
    assert "capped at 2 attacking into Stockade" in text and "Leader Inspiration: +1" in text
    assert run_cli(["nobody", "ashigaru_spearmen"]) == 2
    assert "unknown unit" in capsys.readouterr().err
    assert "Samurai Infantry" in format_odds(data, matchup(data, "samurai_infantry", "bodyguard"), "t")


def test_odds_cli_says_when_a_stat_is_a_stand_in(capsys):
    """`bodyguard` has unknown close combat dice in the data: the printout must say the odds use
    a stand-in, not present them as sourced."""
    from pipeline.systems.genpei.odds_cli import run_cli

    assert run_cli(["bodyguard", "ashigaru_spearmen", "--data", str(ROOT_DATA)]) == 0
    out = capsys.readouterr().out
    assert "not in the public sources" in out and "bodyguard.close_combat.dice unknown" in out
    assert run_cli(["samurai_infantry", "ashigaru_spearmen", "--terrain", "lava", "--data", str(ROOT_DATA)]) == 2
    assert "unknown terrain 'lava'" in capsys.readouterr().err


ROOT_DATA = Path(__file__).resolve().parents[3] / "source_data"


def test_odds_command_no_inspiration_in_a_village(capsys):
    # issue 12: `gunbai odds samurai_infantry ashigaru_spearmen --from village --leader` said 3
    # close combat dice; units in buildings cannot be inspired (ccn_faq_terrain): 2.
    from pipeline.systems.genpei.odds_cli import run_cli

    assert run_cli(["samurai_infantry", "ashigaru_spearmen", "--from", "village", "--leader", "--data", str(ROOT_DATA)]) == 0
    out = capsys.readouterr().out
    assert "close combat, 2 dice" in out and "not inspired" in out and "no Leader Inspiration on Village" in out


def test_odds_command_prints_the_sohei_chain_exactly(capsys):
    # issue 12: row 8 was printed as 475/30233088 (the chain cut at depth 8); exact: 625/40310784
    from pipeline.systems.genpei.odds_cli import run_cli

    assert run_cli(["sohei_warriors", "ashigaru_spearmen", "--data", str(ROOT_DATA)]) == 0
    out = capsys.readouterr().out
    assert "625/40310784" in out and "475/30233088" not in out
