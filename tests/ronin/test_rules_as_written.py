"""Issue 27 (Ronin items R1-R13) and issue 25 item 9 (Defend the Village's length): positions
built for each rule the engine played otherwise than the book, and the outcome worked out from
the text (seed 001; page numbers of the book)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from pipeline.systems.ronin.odds import wound_of

from .test_engine import _model, _only, _state

D6 = range(1, 7)


def _brute(attack_bonus: int, defence_bonus: int, *, reroll_attack: int = 0) -> dict[str, F]:
    """The wound-table result of one plain attack, every die enumerated: 2d6 (the lowest die
    re-rolled once when it shows ``reroll_attack`` or less, as the engine's bujutsu) +
    ``attack_bonus`` against 1d6 + ``defence_bonus``."""
    out: dict[str, F] = {}
    for a, b, d in itertools.product(D6, D6, D6):
        p = F(1, 216)
        lo, hi = min(a, b), max(a, b)
        rolls = [(hi + r, p / 6) for r in D6] if lo <= reroll_attack else [(a + b, p)]
        for total, q in rolls:
            res = wound_of(total + attack_bonus - (d + defence_bonus))
            out[res] = out.get(res, F(0)) + q
    return out


def test_r1_a_wounded_defender_fights_at_minus_one(data):
    """R1 (high), the Combat Example p.24: the Samurai (Fight 3, naginata +1, Naginatajutsu)
    attacks the grievously wounded Ashigaru with the yari (Fight 2, medium armour): "his
    Grievous wound means that his Fight Characteristic is at -1, reducing his Defence Roll to
    just 7" (a die of 4). His Attack Roll of 2 and 4, the 2 re-rolled to a 1: 9. The Wound Score
    2 is a Light wound, which on a Grievous wound is a Critical one."""
    st = _state(data)
    samurai, ashigaru = st.models["red5"], st.models["red3"]
    samurai.p = _model(data, "bushi", "samurai", ["katana", "naginata"], attributes=["naginatajutsu"])
    ashigaru.p = _model(data, "bushi", "ashigaru", ["katana", "yari"])
    ashigaru.side = 1
    ashigaru.wound = "grievous"
    odds = {k: v for k, v in st._melee_odds(samurai, ashigaru, enhance_attack=False, enhance_defence=False) if v}
    # the raw result of the roll (the engine combines it with the wound the model has)
    assert odds == _brute(3 + 1, 2 - 1 + 2, reroll_attack=3)
    assert 4 + st.defence_modifier(samurai, ashigaru) == 7
    assert 1 + 4 + st.attack_modifier(samurai, ashigaru) == 9
    assert wound_of(9 - 7) == "light"
    st._wound(samurai, ashigaru, "light", "melee")
    assert not ashigaru.alive
    # a Light wound costs a point of Fight too (p.22-23); Tough ignores it (p.29)
    ashigaru.alive, ashigaru.wound = True, "light"
    assert st.defence_modifier(samurai, ashigaru) == 2 - 1 + 2
    ashigaru.p = _model(data, "bushi", "ashigaru", ["katana", "yari"], attributes=["tough"])
    assert st.defence_modifier(samurai, ashigaru) == 2 + 2
