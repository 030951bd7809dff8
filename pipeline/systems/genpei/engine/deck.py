"""The Command deck and the Dragon deck as the engine plays them, built from ``cards.yaml``.

The data keeps what no public source gives as ``unknown``; the engine fills the decks by the
errata of ``sources.yaml`` and logs a note for each stand-in:

* Command deck (erratum ``command_card_list``): the listed section cards with their counts,
  1 copy of each named tactic card, and the rest of the 60 places (section cards the public copy
  does not list, tactic cards no source names) as :data:`UNLISTED_COMMAND` cards played by the
  tactic-card fallback: order 1 unit or leader of your choice, in any section.
* Dragon deck (erratum ``dragon_card_list``): 1 copy of each named Dragon card and the rest of
  the 40 places as :data:`UNLISTED_DRAGON` cards. A card whose text is not public (``effect:
  unknown``) is drawn and held and may be discarded at the end of its owner's turn for 1 H&F,
  never played.
* Dragon card costs (erratum ``dragon_card_costs``): :data:`COST_STAND_IN` H&F where unknown.

A card in a hand or a deck is its id (a string).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.systems.genpei.data import GenpeiData

#: Id of the Command cards no public source gives (section or tactic).
UNLISTED_COMMAND = "unlisted_command"
#: Id of the Dragon cards no public source names.
UNLISTED_DRAGON = "unlisted_dragon"
#: H&F cost the engine pays for a Dragon card whose cost is unknown (erratum dragon_card_costs).
COST_STAND_IN = 1
#: H&F a player takes at the end of his turn instead of drawing a Dragon card (GMT rules).
END_OF_TURN_HF = 2
#: H&F for discarding a Dragon card at the end of a turn in which he played none (GMT rules).
DISCARD_DRAGON_HF = 1
#: H&F gained by a leader's seppuku (ccn_faq_retreats).
SEPPUKU_HF = 5
#: H&F a lone leader's retreat costs, whatever its length (ccn_faq_leaders).
LONE_LEADER_RETREAT_HF = 3

#: Command card effects the engine plays (``effect`` of cards.yaml).
COMMAND_EFFECTS = ("section", "cavalry_charge", "infantry_onslaught", "serpent_command", "shogun", "first_strike", "fallback")
#: Dragon card effects the engine plays.
DRAGON_EFFECTS = ("ambush", "personal_challenge", "turncoat")


@dataclass(frozen=True)
class CardInfo:
    """What the engine needs of one card id.

    Attributes:
        id: the card id.
        name: its name.
        effect: the engine rule that plays it (``unknown`` for a Dragon card it cannot play).
        section: a section card's section.
        orders: a section card's orders (a number, or ``hand``).
        draw_two: draw 2 and keep 1 when drawing after it.
        cost: a Dragon card's H&F cost (stand-in where unknown).
    """

    id: str
    name: str
    effect: str
    section: str | None = None
    orders: int | str | None = None
    draw_two: bool = False
    cost: int = 0


@dataclass
class Decks:
    """The two decks of a game: composition (card id → copies) and what each id does.

    Attributes:
        command: the Command deck at the start (60 cards).
        dragon: the Dragon deck at the start (40 cards).
        info: card id → :class:`CardInfo`, for both decks.
        notes: one line per stand-in the engine uses (logged by ``verify --play``).
        draw_order: ``command``/``dragon`` → the deck's card ids in sorted order, each with its
            chance outcome ``("draw", id)`` (the order in which a draw lists its outcomes).
    """

    command: dict[str, int]
    dragon: dict[str, int]
    info: dict[str, CardInfo]
    notes: list[str] = field(default_factory=list)
    draw_order: dict[str, list[tuple[str, tuple[str, str]]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for which, deck in (("command", self.command), ("dragon", self.dragon)):
            self.draw_order[which] = [(c, ("draw", c)) for c in sorted(deck)]


_CACHE: dict[int, tuple[GenpeiData, Decks]] = {}


def decks(data: GenpeiData) -> Decks:
    """The decks of ``data`` (built once per data set; see the module docstring)."""
    got = _CACHE.get(id(data))
    if got is not None and got[0] is data:
        return got[1]
    d = _build(data)
    _CACHE[id(data)] = (data, d)
    return d


def _build(data: GenpeiData) -> Decks:
    cards = data.cards
    info: dict[str, CardInfo] = {}
    command: dict[str, int] = {}
    notes: list[str] = []
    sections = 0
    for c in cards.command_cards:
        if c.count == "unknown":
            n = 1
            notes.append(f"command card {c.id}: count unknown, engine deals 1 (erratum command_card_list)")
        else:
            n = int(c.count)
        if c.kind == "section":
            sections += n
        effect = c.effect if c.effect != "unknown" else "fallback"
        if c.effect == "unknown":
            notes.append(f"command card {c.id}: text unknown, engine orders 1 unit of your choice (erratum command_card_list)")
        info[c.id] = CardInfo(c.id, c.name, effect, c.section, c.orders, c.draw_two_keep_one)
        command[c.id] = command.get(c.id, 0) + n
    rest = cards.command_deck_size - sum(command.values())
    if rest > 0:
        command[UNLISTED_COMMAND] = rest
        info[UNLISTED_COMMAND] = CardInfo(UNLISTED_COMMAND, "Command card not in the public sources", "fallback")
        notes.append(f"{rest} Command cards ({max(0, cards.section_card_count - sections)} section, "
                     f"{rest - max(0, cards.section_card_count - sections)} tactic) are not in the public sources: "
                     "engine plays each as an order to 1 unit or leader of your choice (erratum command_card_list)")
    dragon: dict[str, int] = {}
    for dc in cards.dragon_cards:
        n = 1 if dc.count == "unknown" else int(dc.count)
        cost = COST_STAND_IN if dc.cost == "unknown" else int(dc.cost)
        if dc.effect != "unknown" and dc.cost == "unknown":
            notes.append(f"dragon card {dc.id}: H&F cost unknown, engine pays {COST_STAND_IN} (erratum dragon_card_costs)")
        info[dc.id] = CardInfo(dc.id, dc.name, dc.effect, cost=cost)
        dragon[dc.id] = dragon.get(dc.id, 0) + n
    if any(dc.count == "unknown" for dc in cards.dragon_cards):
        notes.append("dragon card counts unknown: engine deals 1 of each named card (erratum dragon_card_list)")
    unplayable = sorted(dc.id for dc in cards.dragon_cards if dc.effect == "unknown")
    if unplayable:
        notes.append(f"{len(unplayable)} named Dragon cards have no public text: held, discarded for 1 H&F, never played (erratum dragon_card_list)")
    rest = cards.dragon_deck_size - sum(dragon.values())
    if rest > 0:
        dragon[UNLISTED_DRAGON] = rest
        info[UNLISTED_DRAGON] = CardInfo(UNLISTED_DRAGON, "Dragon card not in the public sources", "unknown")
        notes.append(f"{rest} Dragon cards are not in the public sources: held, discarded for 1 H&F, never played (erratum dragon_card_list)")
    return Decks(command, dragon, info, notes)


def naval_move_allowance(card: str | None, *, all_with_wind: bool) -> int:
    """Hexes an ordered naval unit may move (Genpei pack, Naval Warfare: movement and cards).

    Args:
        card: the effect of the card ordering it (``infantry_onslaught`` used on naval units,
            ``serpent_command``) or ``None`` for any other card.
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
