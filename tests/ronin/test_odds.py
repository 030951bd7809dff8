"""Exact odds (icepool) checked against hand computation and brute-force enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

from pipeline.systems.ronin.odds import (
    MeleeSide,
    ShootSide,
    melee_distribution,
    shooting_distribution,
    wound_of,
)
from pipeline.systems.ronin.odds_cli import run

D6 = range(1, 7)


def test_samurai_with_katana_attacks_ashigaru_in_medium_armour():
    # Samurai: Fight 3, katana +0: Attack Roll = 2d6 + 3.
    # Ashigaru: Fight 2, medium armour +2: Defence Roll = d6 + 4.
    # Wound Score = (2d6 - d6) - 1. Ways out of 216 to get 2d6 - d6 = X, with 2d6 counts
    # #(2..12) = 1,2,3,4,5,6,5,4,3,2,1:  #X = sum over d = 1..6 of #(2d6 = X + d).
    #   Stunned  (score 1, X = 2): #3..#8  = 2+3+4+5+6+5 = 25
    #   Light    (2-3,  X = 3, 4): #4..#9 = 27 and #5..#10 = 27 -> 54
    #   Grievous (4-5,  X = 5, 6): #6..#11 = 25 and #7..#12 = 21 -> 46
    #   Critical (6+,   X >= 7): 15 + 10 + 6 + 3 + 1 = 35
    #   None     (X <= 1): 21 + 15 + 10 + 6 + 3 + 1 = 56           (56+25+54+46+35 = 216)
    d = melee_distribution(MeleeSide(fight=3, weapon_attack=0), MeleeSide(fight=2, armour=2))
    assert d == {
        "none": Fraction(56, 216), "stunned": Fraction(25, 216), "light": Fraction(54, 216),
        "grievous": Fraction(46, 216), "critical": Fraction(35, 216),
    }


def _brute_melee(a_fight, a_mod, a_enh, a_rr, d_fight, d_armour, d_enh, d_rr):
    """Enumerate every die (and every re-roll) with exact fractions."""

    def attack_values():
        for dice in itertools.product(D6, repeat=3 if a_enh else 2):
            kept = sorted(dice)[-2:]
            p = Fraction(1, 6 ** len(dice))
            if a_rr and kept[0] <= a_rr:
                for r in D6:
                    yield kept[1] + r, p / 6
            else:
                yield sum(kept), p

    def defence_values():
        for dice in itertools.product(D6, repeat=2 if d_enh else 1):
            p = Fraction(1, 6 ** len(dice))
            low = min(dice)
            if d_rr and low <= d_rr:
                for r in D6:
                    yield sum(dice) - low + r, p / 6
            else:
                yield sum(dice), p

    out = {}
    for av, ap in attack_values():
        for dv, dp in defence_values():
            r = wound_of(av + a_fight + a_mod - (dv + d_fight + d_armour))
            out[r] = out.get(r, Fraction(0)) + ap * dp
    return out


def test_enhanced_and_bujutsu_against_enumeration():
    cases = [
        # (attacker fight, weapon mod, enhance, reroll) vs (defender fight, armour, enhance, reroll)
        (3, 1, True, 3, 2, 2, False, 0),   # Samurai, naginata, Enhanced, Naginatajutsu vs Ashigaru
        (4, 0, False, 0, 3, 3, True, 3),   # Hatamoto vs Samurai, Enhanced defence with Kenjutsu
        (2, 0, True, 0, 3, 3, True, 0),    # the book's combat example: Ashigaru Enhanced vs Samurai
    ]
    for af, am, ae, ar, df, da, de, dr in cases:
        got = melee_distribution(MeleeSide(fight=af, weapon_attack=am, enhance=ae, reroll_at_most=ar), MeleeSide(fight=df, armour=da, enhance=de, reroll_at_most=dr))
        want = _brute_melee(af, am, ae, ar, df, da, de, dr)
        assert {k: v for k, v in got.items() if v} == want


def test_tetsubo_enhanced_bonus_and_existing_wound():
    # errata: a tetsubo gives +1 more on an Enhanced Attack Roll
    plain = melee_distribution(MeleeSide(fight=3, weapon_attack=1, enhanced_attack_bonus=1, enhance=True), MeleeSide(fight=3, armour=3))
    assert plain == _brute_melee(3, 2, True, 0, 3, 3, False, 0) | {k: v for k, v in plain.items() if not v}
    # a defender with a Light wound (Fight -1) turns a new Light into Grievous, Grievous into Critical
    d = melee_distribution(MeleeSide(fight=3), MeleeSide(fight=2, armour=2, wound="light"))
    fresh = _brute_melee(3, 0, False, 0, 1, 2, False, 0)
    assert d["light"] == fresh["stunned"]  # Stunned leaves the Light wound as it is
    assert d["grievous"] == fresh["light"]
    assert d["critical"] == fresh["grievous"] + fresh["critical"]


def test_shooting_in_each_band_by_hand():
    # The book's shooting example: Ashigaru (Shoot 1) with a yumi at a Samurai (heavy: 6 + 3 = 9)
    # from 14" (-1) in the Move Phase (-1): 2d6 + 1 - 1 - 1 - 9 >= 1 needs 2d6 >= 11: 3/36.
    d = shooting_distribution(ShootSide(shoot=1, modifiers=-1), -1, 9)
    assert sum(v for k, v in d.items() if k != "none") == Fraction(3, 36)
    # 2d6 = 11 -> score 1 Stunned (2/36); 12 -> 2 Light (1/36)
    assert d["stunned"] == Fraction(2, 36) and d["light"] == Fraction(1, 36)


def test_odds_cli_prints_the_table(capsys):
    assert run(["melee", "--attacker", "bushi:samurai", "--weapon", "katana", "--defender", "bushi:ashigaru"]) == 0
    out = capsys.readouterr().out
    assert "stunned 25/216" in out and "critical 35/216" in out and "none 7/27" in out
    assert run(["shoot", "--attacker", "bushi:ashigaru", "--weapon", "teppo", "--defender", "bushi:samurai"]) == 0
    out = capsys.readouterr().out
    assert '24-36" (-3)' in out and '36-48" (-4)' in out  # teppo: -3 and -4 beyond 24"
    assert "counts as light" in out


def test_odds_cli_says_unknown_instead_of_guessing(capsys):
    assert run(["melee", "--attacker", "koryu:sensei", "--weapon", "jo", "--defender", "bushi:ashigaru"]) == 2
    assert "unknown" in capsys.readouterr().err
    assert run(["melee", "--attacker", "koryu:sensei", "--attacker-fight", "5", "--weapon", "jo", "--defender", "bushi:ashigaru"]) == 0
    assert run(["melee", "--attacker", "samurai", "--weapon", "katana", "--defender", "bushi:ashigaru"]) == 2  # Bushi and Ikko-Ikki both have one
