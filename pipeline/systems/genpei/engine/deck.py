"""The Command deck as the engine plays it (an abstraction; see :data:`SECTION_CARDS`).

The rules' 60-card Command deck holds section cards and tactic cards. The public facts give the
section cards and their counts (rules-facts §1.4, GMT edition: Order One Unit 2 per section,
Order Two 3/4/3, Order Three 3 per section, Advance 2 per section — "1 order per card held")
but not the tactic cards' full list, counts or texts. The engine therefore plays with the
section cards only (31 cards): a tactic card whose text or count is not public is data marked
unknown and is left out of the deck. The naval exceptions of Infantry Onslaught, Cavalry Charge
and Serpent Command are implemented (:func:`naval_move_allowance`) for scenarios or decks that
add those cards, and tested, but are not drawn in play.
Dragon cards (texts not public) are left out likewise: at the end of his turn a player always
takes 2 H&F tokens, the other option of the rule (rules-facts §1.4, "draw 1 Dragon card OR take
2 H&F").
"""

from __future__ import annotations

#: (kind, section) → copies in the deck. Source: rules-facts §1.4, "Section cards, GMT (39)".
SECTION_CARDS: dict[tuple[str, str], int] = {
    ("order1", "left"): 2, ("order1", "centre"): 2, ("order1", "right"): 2,
    ("order2", "left"): 3, ("order2", "centre"): 4, ("order2", "right"): 3,
    ("order3", "left"): 3, ("order3", "centre"): 3, ("order3", "right"): 3,
    ("advance", "left"): 2, ("advance", "centre"): 2, ("advance", "right"): 2,
}

#: Units a card of each kind orders (``advance``: one per card in hand).
ORDERS = {"order1": 1, "order2": 2, "order3": 3}

#: Tactic cards whose naval exceptions the Genpei pack gives; their counts are not public.
TACTIC_CARDS: dict[str, str] = {
    "infantry_onslaught": "unknown",
    "cavalry_charge": "unknown",
    "serpent_command": "unknown",
}

#: H&F a player takes at the end of his turn (the Dragon card option abstracted away).
END_OF_TURN_HF = 2


def naval_move_allowance(card: str | None, *, all_with_wind: bool) -> int:
    """Hexes an ordered naval unit may move (Genpei pack, Naval Warfare: movement and cards).

    Args:
        card: the tactic card ordering it (``infantry_onslaught``, ``cavalry_charge``,
            ``serpent_command``) or ``None`` for a section card.
        all_with_wind: every hex of the move is with the wind/tide.

    >>> naval_move_allowance(None, all_with_wind=False), naval_move_allowance(None, all_with_wind=True)
    (1, 2)
    >>> naval_move_allowance("infantry_onslaught", all_with_wind=False)
    2
    >>> naval_move_allowance("serpent_command", all_with_wind=True)
    1
    """
    if card == "serpent_command":
        return 1
    if card == "infantry_onslaught":
        return 2
    return 2 if all_with_wind else 1


def card_bonus_dice(card: str | None, *, naval: bool) -> int:
    """Close combat dice a card adds: Cavalry Charge +1, also to naval units it orders (Genpei
    pack, Naval Warfare: cards; CCN Cavalry Charge)."""
    return 1 if card == "cavalry_charge" else 0
