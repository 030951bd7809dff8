"""Small hand-made Genpei situations for the rules tests."""

from __future__ import annotations

import copy
from collections import deque
from pathlib import Path

import pytest

from pipeline.systems.genpei.engine.state import GenpeiState
from pipeline.systems.genpei.load import load
from pipeline.systems.genpei.model import Scenario

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "source_data" / "genpei"


@pytest.fixture(scope="session")
def data():
    return load(DATA)


def scenario(data, *, units, terrain=(), naval=False, wind=None, banners=5, rules=(), markers=()):
    """A scenario on the shipped board with only the given units and terrain.

    ``units``: ``(side, unit id, (col, row), leader id or None[, note])``; side ``a`` sits at
    the south edge, ``b`` at the north edge.
    """
    base = next(s.scenario for s in data.scenarios if s.scenario.code == "GP20").model_dump(mode="json")
    doc = copy.deepcopy(base)
    doc["sides"][0].update(id="a", name="South", edge="south")
    doc["sides"][1].update(id="b", name="North", edge="north")
    doc["first_player"] = "a"
    doc["naval"] = naval
    doc["wind_tide"] = None if wind is None else {"directions": list(wind), "source": {"doc": "gunbai", "section": "test"}}
    doc["terrain"] = [dict(t) for t in terrain]
    doc["units"] = [
        {"side": u[0], "unit": u[1], "hex": list(u[2]), "leader": u[3], **({"note": u[4]} if len(u) > 4 else {})}
        for u in units
    ]
    doc["leaders"] = []
    doc["markers"] = list(markers)
    doc["victory"]["banners"] = banners
    doc["victory"]["rules"] = list(rules)
    return Scenario.model_validate(doc)


#: Rows 1-5 Ocean (the north half of the board), land from row 6 down: a ``terrain`` for
#: :func:`scenario`.
SEA = [{"terrain": "ocean", "rows": [{"row": r, "first": 1, "last": 12 - (r % 2 == 0)} for r in range(1, 6)]}]

#: Cards the opening deal of the rules tests gives: a plain section card, and a Dragon card the
#: engine never plays, so no reaction or Dragon card interrupts a hand-made situation.
DEAL = (("draw", "order2_centre"), ("draw", "unlisted_dragon"))


def dealt(data, sc) -> GenpeiState:
    """The state after the opening deal (section cards and unplayable Dragon cards only)."""
    st = GenpeiState(data, sc)
    while st.is_chance_node():
        outs = dict(st.chance_outcomes())
        st.apply_action(next((o for o in DEAL if o in outs), st.chance_outcomes()[0][0]))
    return st


def at_battle(st: GenpeiState, uid: int, *, moved: bool = False) -> GenpeiState:
    """Put ``st`` at the battle decision of unit ``uid`` (its side to play)."""
    st.player = st.units[uid].side
    st.phase = "battle"
    st.ordered = [uid]
    st.queue = deque([uid])
    st.units[uid].moved = moved
    st.node = None
    st._legal = None
    st.card_effect = "section"
    return st


def roll(sym=0, swords=0, flags=0, hf=0):
    """A chance outcome of a battle roll."""
    return ("roll", sym, swords, flags, hf)


def apply_outcome(st: GenpeiState, outcome) -> None:
    """Apply the chance ``outcome``, which must be one of the node's outcomes."""
    assert outcome in dict(st.chance_outcomes()), (outcome, st.chance_outcomes()[:5])
    st.apply_action(outcome)


def at_card(st: GenpeiState, side: int, hand, dragons=()) -> GenpeiState:
    """Put ``st`` at the card decision of ``side`` holding ``hand`` (and ``dragons``)."""
    st.player = side
    st.phase = "card"
    st.sides[side].hand = list(hand)
    st.sides[side].dragons = list(dragons)
    st.node = None
    st._legal = None
    st.steps.clear()
    return st


def at_move(st: GenpeiState, pid: int) -> GenpeiState:
    """Put ``st`` at the move decision of piece ``pid`` (a unit or a lone leader), ordered alone."""
    st.player = st.piece_side(pid)
    st.phase = "move"
    st.ordered = [pid]
    st.queue = deque([pid])
    st.node = None
    st._legal = None
    return st
