"""The schema of the Ronin data (``source_data/ronin/``).

Ronin (Craig Woodfield, Osprey Wargames, 2013) is a skirmish game: each player fields a
*Buntai* of 4 to 20 *models* bought to a points limit under the composition rules of a
*faction*. A model has a *Rank* (0-5), a *Combat Pool* (Attack and Defence counters drawn each
combat), *Initiative*, *Fight*, *Shoot*, armour, weapons and *Attributes* (abilities, bujutsu,
advanced bujutsu).

Files and the model each validates against:

=========================  ==========================================
``system.yaml``            :class:`SystemInfo`
``sources.yaml``           :class:`pipeline.data.common.Sources`
``rules.yaml``             :class:`RulesFile`
``weapons.yaml``           :class:`WeaponsFile`
``attributes.yaml``        :class:`AttributesFile`
``terrain.yaml``           :class:`TerrainFile` (the kinds of terrain piece)
``factions/*.yaml``        :class:`Faction` (``swords_for_hire.yaml`` too)
``scenarios/*.yaml``       :class:`Scenario`
``rosters/*.yaml``         :class:`Roster` (a player's Buntai)
``games/*.yaml``           :class:`Game` (a scenario with two rosters and their deployment)
=========================  ==========================================

A value the public sources do not give is written ``unknown``; the tools say so instead of
guessing (e.g. a composition rule that needs the Rank of a model whose Rank is ``unknown`` is
reported as *not checked*). Composition rules are data (:class:`CompositionRule`), evaluated by
one generic checker (:mod:`pipeline.systems.ronin.roster`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from pipeline.data.common import DateSavedMs, FieldError, Fixed, Id, Source, Strict, Text, Unknown
from pipeline.data.playability import Playability

#: A characteristic (Rank, Combat Pool, Initiative, Fight, Shoot), or ``unknown``.
Stat = Annotated[int, Field(ge=0, le=9)] | Unknown

#: Most points a model or an option may cost: a whole Buntai of the book's largest game size
#: (200 points and above, rules.yaml table sizes) costs a few hundred; 1000 is above any of them.
MAX_POINTS = 1000

#: Armour classes; ``none`` is no armour. Defence bonus: light +1, medium +2, heavy +3.
ArmourId = Literal["none", "light", "medium", "heavy", "as_model"]

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]


# ---------------------------------------------------------------------------------------------
# system.yaml


class VassalSettings(Strict):
    """How the Ronin module is drawn and named.

    Attributes:
        module_name, module_version, description: the module's identity.
        px_per_inch: pixels per tabletop inch at VASSAL's 100% zoom (the range thread's scale).
        boards_inches: the square tables offered, side in inches (e.g. 24, 36, 48).
        base_mm: model base diameter in millimetres (25 mm round bases).
        date_saved_ms: ``dateSaved`` for reproducible builds (``SOURCE_DATE_EPOCH`` overrides).
        faction_colours: the ring colour of each faction's model counters (display only; a
            faction not listed gets grey).
    """

    module_name: str = Field(min_length=1)
    module_version: str = Field(min_length=1)
    description: str
    px_per_inch: int = Field(ge=8, le=100)
    boards_inches: list[Annotated[int, Field(ge=12, le=96)]] = Field(min_length=1)
    base_mm: float = Field(gt=0, le=100)
    date_saved_ms: DateSavedMs
    faction_colours: dict[Id, Colour] = {}


class SideColours(Strict):
    """Counter colours of the two players."""

    fill: Colour
    text: Colour


class MarkerType(Strict):
    """A marker of the module: wounds, Attack/Defence counters, teppo fired, banner…

    Attributes:
        label, sub: the text drawn on it (``sub`` smaller, below).
        fill, text: colours; shape: ``circle`` or ``square``.
    """

    id: Id
    name: Text
    label: str
    sub: str | None = None
    fill: Colour
    text: Colour
    shape: Literal["circle", "square"] = "circle"
    source: Source


class SystemInfo(Strict):
    """``system.yaml``: the game as a whole."""

    id: Id
    name: Text
    vassal: VassalSettings
    markers: list[MarkerType] = []
    sides: dict[Id, SideColours] = Field(min_length=2)
    buntai_min_models: int = Field(ge=1)
    buntai_max_models: int = Field(ge=1)
    source: Source


# ---------------------------------------------------------------------------------------------
# weapons.yaml


class RangeBand(Strict):
    """A shooting range band: ``from_in`` < range ≤ ``to_in`` (inches; range < ``to_in`` when
    ``to_exclusive``, the book's "less than 6"), and the modifier to the Shooting Attack Roll
    (``teppo_modifier`` when it differs for a teppo). Erratum ``range_band_boundaries``.

    >>> b = RangeBand(id="short", from_in=0, to_in=6, to_exclusive=True, modifier=1, source={"doc": "ronin_book", "section": "p.14"})
    >>> b.reaches(5.9), b.reaches(6.0)
    (True, False)
    """

    id: Id
    from_in: float = Field(ge=0)
    to_in: float = Field(gt=0)
    to_exclusive: bool = False
    modifier: int
    teppo_modifier: int | None = None
    source: Source

    def reaches(self, inches: float) -> bool:
        """Is a target ``inches`` away (base edge to base edge) within this band's upper end?
        Distances within a millionth of an inch of the end count as on it."""
        return inches < self.to_in - 1e-6 if self.to_exclusive else inches <= self.to_in + 1e-6


class Weapon(Strict):
    """A weapon: hand-to-hand (``melee``) or ``missile``.

    Attributes:
        initiative: Initiative modifier (first round of a combat for weapons that change).
        initiative_later: Initiative modifier from the second round on, when it changes.
        attack: Attack Roll modifier (hand-to-hand).
        enhanced_attack_bonus: extra Attack Roll modifier when the Attack Roll is Enhanced.
        vs_heavy_attack: extra Attack Roll modifier against a model in heavy armour.
        shoot: Shooting Attack Roll modifier (missile).
        max_range_in: maximum range in inches (missile).
        armour_as: for missiles that pierce armour: the armour class each class counts as.
        reload: must be reloaded before firing again (teppo).
        long_handled: -1 Initiative and -1 Attack Roll inside buildings.
        same_as: this name is the book's word (in a Korean or Chinese list) for that weapon.
    """

    id: Id
    name: Text
    kind: Literal["melee", "missile"]
    initiative: int | Unknown = 0
    initiative_later: int | None = None
    attack: int | Unknown = 0
    enhanced_attack_bonus: int = 0
    vs_heavy_attack: int = 0
    subdue_bonus: int = 0
    shoot: int | Unknown = 0
    max_range_in: float | None = None
    armour_as: dict[str, str] | None = None
    reload: bool = False
    long_handled: bool = False
    mounted_shoot: int | Literal["forbidden"] | None = None
    same_as: Id | None = None
    special: str | None = None
    source: Source
    sources: list[Source] = []


class WeaponsFile(Strict):
    """``weapons.yaml``: every weapon, the shooting range bands."""

    weapons: list[Weapon] = Field(min_length=1)
    range_bands: list[RangeBand] = Field(min_length=1)


# ---------------------------------------------------------------------------------------------
# attributes.yaml


class Attribute(Strict):
    """An Attribute: an ability, a (weapon) bujutsu or an advanced bujutsu.

    Attributes:
        weapons: for a bujutsu: the weapons it applies to (re-roll one die of the roll).
        requires: attributes needed first (``any_bujutsu`` for "any of the Bujutsu").
        modifiers: game effects as numbers where the rules give them (e.g. ``initiative: 1``).
    """

    id: Id
    name: Text
    category: Literal["ability", "bujutsu", "advanced_bujutsu", "advanced_rule"]
    weapons: list[Id] = []
    requires: list[Id] = []
    modifiers: dict[str, int] = {}
    text: str
    source: Source


class AttributesFile(Strict):
    """``attributes.yaml``."""

    attribute_cost: int
    attributes: list[Attribute] = Field(min_length=1)
    cost_source: Source


# ---------------------------------------------------------------------------------------------
# rules.yaml


class ArmourClass(Strict):
    """An armour class and its bonus to the Defence Roll and to the Shooting Defence Score."""

    id: ArmourId
    name: Text
    defence: int
    source: Source


class WoundResult(Strict):
    """A row of the wound table: Wound Scores ``min``..``max`` (``max`` None: and above)."""

    id: Literal["stunned", "light", "grievous", "critical"]
    name: Text
    min: int = Field(ge=1)
    max: int | None = None
    initiative: int = 0
    fight: int = 0
    combat_pool: int = 0
    shoot: int = 0
    effect: str
    source: Source


class WoundCombination(Strict):
    """What a new wound does to a model that already has one (``has`` + ``new`` → ``becomes``)."""

    has: Literal["light", "grievous"]
    new: Literal["stunned", "light", "grievous"]
    becomes: Literal["light", "grievous", "critical"]
    source: Source


class Modifier(Strict):
    """A numbered modifier of a roll, as the rules list it."""

    id: Id
    text: str
    value: int | Unknown
    source: Source


class TableRow(Strict):
    """A row of a d6 table (``rolls`` are the die faces that give it)."""

    rolls: list[Annotated[int, Field(ge=1, le=6)]] = Field(min_length=1)
    id: Id
    name: Text
    effect: str
    line_of_sight_in: float | Unknown | None = None
    source: Source


class D6Table(Strict):
    id: Id
    name: Text
    rows: list[TableRow] = Field(min_length=1)


class TableSize(Strict):
    """Table size by game size: games of up to ``max_points`` (None: above) use this side."""

    max_points: int | None
    side_inches: int
    terrain_pieces: str
    source: Source


class Deployment(Strict):
    id: Id
    name: Text
    text: str
    depth_in: float | None = None
    source: Source


class Phase(Strict):
    """One phase of the turn (book p.10): its ``name`` and what happens in it (``text``)."""

    id: Id
    name: str
    text: str
    source: Source


class StunnedRow(Strict):
    """A row of the Stunned removal table: on ``rolls``, ``removes`` Stunned counters go."""

    rolls: list[Annotated[int, Field(ge=1, le=6)]] = Field(min_length=1)
    removes: int = Field(ge=0)
    text: str
    source: Source


class StunnedRemoval(Strict):
    """The End Phase roll to remove Stunned counters (book p.26): a d6 per Stunned model read
    on ``rows`` (faces 1-6, each once), with ``modifiers`` (engaged -1, rested +1); a modified
    roll below 1 or above 6 reads the first or last row."""

    rows: list[StunnedRow] = Field(min_length=1)
    modifiers: list[Modifier]

    @model_validator(mode="after")
    def _every_face_once(self) -> StunnedRemoval:
        faces = sorted(r for row in self.rows for r in row.rolls)
        if faces != [1, 2, 3, 4, 5, 6]:
            raise FieldError("rows", f"rows covering the faces 1-6 once each, not {faces}")
        return self

    def removed(self, roll: int) -> int:
        """Stunned counters removed on a modified ``roll`` (clamped to 1-6)."""
        v = min(6, max(1, roll))
        return next(row.removes for row in self.rows if v in row.rolls)


class RulesFile(Strict):
    """``rules.yaml``: the core rules gunbai needs as numbers (and cites).

    ``turn_sequence`` (the five phases, p.10), ``initiative_dice`` / ``attack_dice`` /
    ``defence_dice`` (d6 rolled for Initiative, the Attack Roll and the Defence Roll, p.18-19),
    ``max_attackers`` (models that may fight one model, p.17) and ``stunned_removal`` (p.26)
    are what the reference sheet prints besides the tables the engine plays.
    """

    turn_sequence: list[Phase] = Field(min_length=1)
    initiative_dice: int = Field(ge=1)
    max_attackers: int = Field(ge=1)
    stunned_removal: StunnedRemoval

    armour: list[ArmourClass]
    wound_table: list[WoundResult]
    wound_combinations: list[WoundCombination]
    defence_modifiers: list[Modifier]
    shooting_attack_modifiers: list[Modifier]
    shooting_defence_modifiers: list[Modifier]
    shooting_defence_base: int
    attack_dice: int
    defence_dice: int
    enhance: dict[str, str]
    morale_modifiers: list[Modifier]
    movement: list[Modifier]
    mounted: list[Modifier]
    warhorse: dict[str, int]
    banner: list[str]
    victory_points: list[Modifier]
    table_sizes: list[TableSize]
    weather: D6Table
    time_of_day: D6Table
    location: D6Table
    deployments: list[Deployment]
    fatigue_resilience: dict[int, int]
    sources: list[Source] = Field(min_length=1)


# ---------------------------------------------------------------------------------------------
# terrain.yaml

#: How a terrain piece affects movement (book p.13): ``open``; ``difficult`` halves the move
#: through it; ``impassable`` cannot be crossed.
Movement = Literal["open", "difficult", "impassable"]
#: The cover a terrain piece gives a target (book p.15): ``light`` +1, ``heavy`` +2 to the
#: Shooting Defence Score.
Cover = Literal["none", "light", "heavy"]
#: How a kind of terrain is drawn (``templates/ronin/_terrain.j2``).
TerrainDraw = Literal["building", "shrine", "stone_wall", "plaster_wall", "fence", "palisade", "hedge", "woods", "undergrowth",
                      "bamboo", "shrubs", "paddy", "marsh", "rocks", "pond", "stream", "river", "hill"]


class Footprint(Strict):
    """A terrain piece's ground on the table, in inches: a ``rect`` ``w`` × ``h`` (``w`` east,
    ``h`` south, before the player turns it) or a ``circle`` of radius ``r``."""

    id: Id
    kind: Literal["rect", "circle"]
    w: float = Field(default=0, ge=0, le=48)
    h: float = Field(default=0, ge=0, le=48)
    r: float = Field(default=0, ge=0, le=24)

    @model_validator(mode="after")
    def _sized(self) -> Footprint:
        if self.kind == "rect" and (self.w <= 0 or self.h <= 0):
            raise FieldError("kind", "a rect footprint with w and h above 0")
        if self.kind == "circle" and self.r <= 0:
            raise FieldError("kind", "a circle footprint with r above 0")
        return self

    def size(self) -> tuple[float, float]:
        """Width and depth in inches of the box around it."""
        return (2 * self.r, 2 * self.r) if self.kind == "circle" else (self.w, self.h)


class TerrainKind(Strict):
    """A kind of terrain piece a player puts on a Ronin table (book p.13-15, p.57).

    Attributes:
        name: what the piece is called in the palette and on the reference card.
        draw: how it is drawn (:data:`TerrainDraw`).
        category: the book's terrain type (p.13: Difficult, Impassable, Buildings, Water; or
            ``open`` for ground the book gives no movement effect).
        movement, cover: the effects the book gives this kind (players agree the effects of
            each piece before the game, p.13; a game's ``terrain`` may differ).
        text: the rule in a line, for the reference card.
        footprints: the sizes the palette offers (small pieces are under 6 inches across,
            large up to 12, p.57); ``footprint_source`` cites where the sizes come from.
        source: where the book names the kind and its effects.
    """

    id: Id
    name: str
    draw: TerrainDraw
    category: Literal["open", "difficult", "impassable", "building", "water"]
    movement: Movement
    cover: Cover
    text: str
    footprints: list[Footprint] = Field(min_length=1)
    footprint_source: Source
    source: Source


class TerrainFile(Strict):
    """``terrain.yaml``: the kinds of terrain piece (the module's terrain palette)."""

    terrain: list[TerrainKind] = Field(min_length=1)


# ---------------------------------------------------------------------------------------------
# factions/*.yaml


class OptionGroup(Strict):
    """One option line of a model list (``text`` is the book's wording).

    A roster picks from a group by its ``id``: ``choices: {weapon: [yari]}``.

    Attributes:
        kind: ``weapon`` (adds the weapon), ``armour`` (replaces the armour), ``attribute``
            (adds Attributes), ``mount`` (horse, warhorse), ``banner``, ``exchange`` (replaces
            ``removes`` with the choice; may set the armour).
        choices: choice id → points per pick. ``None`` for ``attribute``: any Attribute of
            ``attributes.yaml`` (``categories`` restricts), at ``cost`` each.
        cost: points per pick when ``choices`` is None.
        min, max: how many picks (a weapon the model must take has ``min: 1``).
        excludes: option groups that must stay empty when this one is picked (a banner
            bearer takes no other equipment).
        removes: weapons the model loses when this group is picked.
        sets_armour: armour after the pick.
        sets_combat_pool: Combat Pool after the pick (e.g. an additional sword).
    """

    id: Id
    text: str
    kind: Literal["weapon", "armour", "attribute", "mount", "banner", "exchange"]
    choices: dict[Id, int] | None = None
    categories: list[Literal["ability", "bujutsu", "advanced_bujutsu"]] = []
    cost: Annotated[int, Field(ge=-MAX_POINTS, le=MAX_POINTS)] = 0
    min: int = Field(default=0, ge=0)
    max: int = Field(default=1, ge=1)
    excludes: list[Id] = []
    removes: list[Id] = []
    sets_armour: ArmourId | None = None
    sets_combat_pool: int | None = None
    source: Source | None = None


class AttributeNear(Strict):
    """An Attribute a model has only while near others: the Temple Attendant is "Fearless when
    within 3 of any model of Rank 2 or higher" (book p.39; erratum temple_attendant_fearless).

    Attributes:
        attribute: the Attribute's id (``fearless``).
        within_in: inches, base edge to base edge.
        min_rank: the other model's lowest Rank.
        of: ``friendly`` models of its Buntai, or ``any`` model.
    """

    attribute: Id
    within_in: float = Field(gt=0, le=48)
    min_rank: int = Field(ge=0, le=5)
    of: Literal["friendly", "any"] = "friendly"
    source: Source


class ModelType(Strict):
    """A model of a faction's model list.

    Attributes:
        type: the "Type" column (Ashigaru, Samurai, Sohei…).
        rank, combat_pool, initiative, fight, shoot: the statline (``unknown`` when no public
            source gives it).
        armour: the armour it comes with.
        points: its cost with that armour and its listed weapons.
        weapons: weapons always carried (``special`` for a Koryu's chosen weapon).
        attributes: attributes it has for free.
        attributes_near: attributes it has only near other models (:class:`AttributeNear`).
        options: the option lines.
        mounted: fielded on a horse (e.g. Ming Light Cavalry).
        unreliable: hired, it leaves a Wavering or Routing Buntai (Ronin and Senior Ronin,
            p.52).
        stat_source: where the statline comes from (the seed lost the numbers).
        source: where the model list entry comes from.
        note: free text.
    """

    id: Id
    name: Text
    type: str
    rank: Stat
    combat_pool: Stat
    initiative: Stat
    fight: Stat
    shoot: Stat
    armour: ArmourId
    points: Annotated[int, Field(ge=0, le=MAX_POINTS)]
    weapons: list[Id] = []
    attributes: list[Id] = []
    attributes_near: list[AttributeNear] = []
    attribute_note: str | None = None
    options: list[OptionGroup] = []
    mounted: bool = False
    unreliable: bool = False
    max_per_buntai: int | None = None
    stat_source: Source | None = None
    source: Source
    note: str | None = None
    # two option groups of one id: refused, naming both lines, as every repeated id of a list
    # (pipeline.data.yamlfile.repeated_ids)


class Selector(Strict):
    """Which models a composition rule counts. All given conditions must hold.

    Attributes:
        ranks: model Ranks.
        models: model ids.
        weapon: armed with this weapon (after options), or ``missile`` for any missile weapon.
        option: has picked from this option group.
        banner: carries a banner.
        hired: Swords-for-Hire (``True``) or the faction's own models (``False``).
        scope: ``faction`` counts only the faction's own models (Swords-for-Hire "are not
            counted when determining Buntai composition"), ``all`` counts every model.
    """

    ranks: list[int] | None = None
    models: list[Id] | None = None
    weapon: Id | None = None
    option: Id | None = None
    banner: bool | None = None
    hired: bool | None = None
    scope: Literal["faction", "all"] = "faction"


class CompositionRule(Strict):
    """A composition rule, one of a few kinds evaluated by one generic checker.

    Kinds (``a``, ``b`` are :class:`Selector`; counts are numbers of models):

    - ``max_count``: count(a) ≤ ``n``.
    - ``min_count``: count(a) ≥ ``n``.
    - ``ratio``: count(a) ≥ ``n`` × count(b) ("at least two Rank 1/2 for each Rank 3+");
      ``or_all``: also satisfied when every counted model matches it.
    - ``max_per``: count(a) ≤ floor(count(b) / ``n``) ("one Rank 2 for every four Rank 0/1").
    - ``more_than``: count(a) > count(b).
    - ``max_percent``: count(a) ≤ floor(``percent`` % of count(b)) (rounded down).
    - ``min_percent``: count(a) ≥ ``percent`` % of count(b).
    - ``min_points_percent``: points of a ≥ ``percent`` % of the Buntai's points.
    - ``forbids``: when count(a) > 0 then count(b) = 0.
    - ``max_extra``: a roster extra (``extra``) bought at most ``n`` times.
    - ``hires``: Swords-for-Hire allowed (``models``; an empty list: none).
    """

    id: Id
    kind: Literal[
        "max_count", "min_count", "ratio", "max_per", "more_than", "max_percent",
        "min_percent", "min_points_percent", "forbids", "max_extra", "hires",
    ]
    text: str
    a: Selector | None = None
    b: Selector | None = None
    n: int | None = None
    percent: Annotated[int, Field(ge=0, le=100)] | Unknown | None = None
    or_all: Selector | None = None
    extra: Id | None = None
    models: list[Id] | None = None
    source: Source

    @model_validator(mode="after")
    def _fields_for_kind(self) -> CompositionRule:
        need = {
            "max_count": ("a", "n"), "min_count": ("a", "n"), "ratio": ("a", "b", "n"),
            "max_per": ("a", "b", "n"), "more_than": ("a", "b"), "max_percent": ("a", "b", "percent"),
            "min_percent": ("a", "b", "percent"), "min_points_percent": ("a", "percent"),
            "forbids": ("a", "b"), "max_extra": ("extra", "n"), "hires": ("models",),
        }[self.kind]
        missing = [f for f in need if getattr(self, f) is None]
        if missing:
            raise FieldError("kind", f"a {self.kind} rule with {', '.join(missing)}")
        return self


class Extra(Strict):
    """Something bought for the whole Buntai (e.g. Bushi Fearsome Kiai, 5 points each)."""

    id: Id
    name: Text
    cost: int
    text: str
    source: Source


class FactionRule(Strict):
    """A special rule (Victory Points, morale, banners…) as text with its numbers."""

    id: Id
    kind: Literal["victory_points", "morale", "banner", "weapon", "special"]
    text: str
    value: float | Unknown | None = None
    source: Source


class FactionChoice(Strict):
    """A choice a roster of this faction makes once for the whole Buntai (a Koryu's primary
    weapon and secondary weapons).

    Attributes:
        choices: what may be chosen; min, max: how many.
        restricts: an option group id of the models: their picks must be among the roster's
            choices of this and the other restricting keys.
    """

    text: str
    choices: list[Id]
    min: int = Field(default=0, ge=0)
    max: int = Field(default=1, ge=1)
    restricts: Id | None = None
    source: Source


class Faction(Strict):
    """A faction file: the model list, composition, special rules, morale, Swords-for-Hire.

    Attributes:
        morale: the Morale Rating (``None`` when it depends on the game, see ``rules``).
        faction_choices: roster-level choices the faction needs (Koryu primary weapon…).
    """

    id: Id
    name: Text
    hired_only: bool = False
    morale: int | None
    models: list[ModelType] = Field(min_length=1)
    composition: list[CompositionRule] = []
    extras: list[Extra] = []
    rules: list[FactionRule] = []
    faction_choices: dict[Id, FactionChoice] = {}
    source: Source


# ---------------------------------------------------------------------------------------------
# rosters/*.yaml


class RosterEntry(Strict):
    """A line of a roster: ``count`` models of one model type with the same choices.

    Attributes:
        model: a model id of the faction (or of ``swords_for_hire.yaml``).
        choices: option group id → the picks (choice ids, or attribute ids).
        banner: carries the Buntai's banner.
        printed_points: the points the book prints for this line (all ``count`` models).
    """

    model: Id
    count: int = Field(default=1, ge=1, le=20)
    label: str | None = None
    choices: dict[Id, list[Id]] = {}
    printed_points: int | None = None


class Roster(Strict):
    """A Buntai: a faction, a points limit and its models.

    Attributes:
        printed_total: the total the source prints (compared with the computed total).
        faction_choices: e.g. ``{primary_weapon: [jo], secondary_weapons: [katana, bo]}``.
    """

    id: Id
    name: Text
    faction: Id
    points_limit: int = Field(ge=1)
    models: list[RosterEntry] = Field(min_length=1)
    extras: dict[Id, int] = {}
    faction_choices: dict[Id, list[Id]] = {}
    printed_total: int | None = None
    source: Source | None = None


# ---------------------------------------------------------------------------------------------
# scenarios/*.yaml


class Forces(Strict):
    """How the two forces are chosen.

    ``kind``: ``equal`` (equal points), ``attacker_double`` (the Attacker has twice the
    Defender's points), ``fixed`` (Assassination: the Defender has ``defender_points``, the
    Attacker a fixed force), ``agreed`` (Tournament: no points).
    """

    kind: Literal["equal", "attacker_double", "fixed", "agreed"]
    defender_points: int | None = None
    attacker_models: dict[str, int] = {}
    civilians_per_points: int | None = None
    text: str
    source: Source


class GameLength(Strict):
    """How many turns a game of the scenario lasts: ``turns`` fixed, or d6 + ``d6_plus`` rolled at
    the start of the game; a Tournament plays matches of ``match_turns`` turns; ``open_ended``:
    no turn limit (Defend the Village: "until one side withdraws, concedes or is destroyed").
    Every game also ends when a side has no model left on the table or to come (destroyed, or
    withdrawn)."""

    turns: int | None = Field(default=None, ge=1)
    d6_plus: int | None = Field(default=None, ge=0)
    match_turns: int | None = Field(default=None, ge=1)
    open_ended: bool = False
    source: Source

    @model_validator(mode="after")
    def _one_kind(self) -> GameLength:
        if sum(x is not None for x in (self.turns, self.d6_plus, self.match_turns)) + self.open_ended != 1:
            raise ValueError("give exactly one of turns, d6_plus, match_turns, open_ended")
        return self


class Scoring(Strict):
    """How the scenario decides the winner, as numbers the play engine uses.

    Attributes:
        kind: ``victory_points`` (the standard Victory Points of p.58-59, the factions' own and
            the scenario's below; most points wins, equal is a draw), ``kill_leader``
            (Assassination: the Attacker wins by killing the Defender's Leader, else the
            Defender wins), ``tournament`` (matches of two models, won on match points).
        objective_control: Victory Points for controlling the objective at the end (Capture 5,
            Defence 10).
        minor_objective: Victory Points of the Skirmish's rolled Minor Objective (5).
        civilian_left, civilian_slain: Defend the Village: the Defender's points per civilian
            left on the board, the Attacker's per civilian slain (3 each).
        first_non_duellist_attack, first_non_duellist_enters: Duel penalties (-2 each).
        duellists_only_turns: Duel: turns in which only the duellists act (2).
        match_points: Tournament: match points of a Light, Grievous and Critical wound.
    """

    kind: Literal["victory_points", "kill_leader", "tournament"]
    objective_control: float | None = None
    minor_objective: float | None = None
    civilian_left: float | None = None
    civilian_slain: float | None = None
    first_non_duellist_attack: float | None = None
    first_non_duellist_enters: float | None = None
    duellists_only_turns: int | None = None
    match_points: dict[Literal["light", "grievous", "critical"], int] | None = None
    source: Source


class DeploymentRule(Strict):
    """A rule of a scenario's set-up that ``gunbai verify`` checks on every game of the scenario
    (:mod:`pipeline.systems.ronin.deployment`), in inches, measured from the edge of a model's
    base as the book measures (erratum ``deployment_measured_from_bases``).

    Attributes:
        kind: ``within``: every model of ``who`` lies wholly within ``inches`` of ``of``
            (Defence: the Defender within 12 of the objective); ``outside``: no model of ``who``
            comes within ``inches`` of ``of`` (Duel: none inside the duelling area);
            ``apart``: every model of ``who`` at least ``inches`` from every model of
            ``apart_from``, base edge to base edge (Assassination: 9); ``edge``: every model of
            ``who`` wholly within ``inches`` of a table edge (Defend the Village: 3); ``clear``:
            every terrain piece but the objective's at least ``inches`` from ``of`` (Defence: 8
            from the objective's piece; Duel: a 12-inch circle, radius 6, round the centre);
            ``centred``: the game's objective stands in the centre of the table (Capture);
            ``near_duellist``: every model of ``who`` within ``inches`` of its duellist, base
            edge to base edge, who stands on the edge of the duelling area of radius ``area_in``
            round ``of``, at the point nearest the side's zone (Duel: 6, p.61).
        who: the role the rule binds (None: both sides).
        of: ``centre`` of the table, the game's ``objective`` point, or ``objective_piece`` (the
            terrain piece marked ``objective``).
        apart_from: for ``apart``, the other role.
        inches: the distance.
        area_in: for ``near_duellist``, the duelling area's radius.
        source: the page the rule comes from.
    """

    kind: Literal["within", "outside", "apart", "edge", "clear", "centred", "near_duellist"]
    who: str | None = None
    of: Literal["centre", "objective", "objective_piece"] | None = None
    apart_from: str | None = None
    inches: float = Field(default=0, ge=0, le=1000)
    area_in: float | None = Field(default=None, gt=0, le=1000)
    source: Source

    @model_validator(mode="after")
    def _complete(self) -> DeploymentRule:
        fields = {"within": {"of", "inches"}, "outside": {"of", "inches"}, "apart": {"who", "apart_from", "inches"},
                  "edge": {"inches"}, "clear": {"of", "inches"}, "centred": set(), "near_duellist": {"of", "inches", "area_in"}}[self.kind]
        optional = {"within": {"who"}, "outside": {"who"}, "edge": {"who"}, "near_duellist": {"who"}}.get(self.kind, set())
        given = {k for k in ("who", "of", "apart_from", "area_in") if getattr(self, k) is not None} | ({"inches"} if self.inches else set())
        if missing := sorted(fields - given):
            raise FieldError("kind", f"a {self.kind!r} rule with {', '.join(missing)}")
        if extra := sorted(given - fields - optional):
            raise FieldError("kind", f"a {self.kind!r} rule without {', '.join(extra)}")
        if self.kind in ("within", "outside", "near_duellist") and self.of == "objective_piece":
            raise FieldError("of", f"a point a {self.kind!r} rule measures from: centre or objective")
        if self.kind == "apart" and self.who == self.apart_from:
            raise FieldError("apart_from", "a role other than 'who' (an 'apart' rule keeps one role from another)")
        return self


class Scenario(Strict):
    """A scenario of the Scenarios chapter. ``length`` and ``scoring`` are its game length and
    victory conditions as numbers (the texts ``game_length`` and ``victory_points`` say the
    same in the book's words)."""

    id: Id
    name: Text
    description: str
    forces: Forces
    roles: Fixed[str, str] = ("Player A", "Player B")
    table_side_in: int | None = None
    terrain: str
    weather: str
    weather_on: list[int] = []
    time_of_day: str
    time_of_day_on: list[int] = []
    deployment: str
    deployment_options: list[Id] = []
    deployment_rules: list[DeploymentRule] = []
    reserves: Literal["no", "optional", "attacker"] = "no"
    game_length: str
    length: GameLength
    victory_points: list[str]
    scoring: Scoring
    special_rules: list[str] = []
    models: list[ModelType] = []
    source: Source


# ---------------------------------------------------------------------------------------------
# games/*.yaml


class Zone(Strict):
    """A deployment zone on the table, in inches from the top-left corner: a ``rect`` (``x``,
    ``y`` its top-left corner, ``w``, ``h``) or a ``circle`` (centre ``x``, ``y``, radius ``r``)."""

    kind: Literal["rect", "circle"]
    x: float
    y: float
    w: float = 0
    h: float = 0
    r: float = 0

    @model_validator(mode="after")
    def _sized(self) -> Zone:
        if self.kind == "rect" and (self.w <= 0 or self.h <= 0 or self.r):
            raise FieldError("kind", "a rect zone with w and h greater than 0 (and no r)")
        if self.kind == "circle" and (self.r <= 0 or self.w or self.h):
            raise FieldError("kind", "a circle zone with r greater than 0 (and no w or h)")
        return self


class PlacedModel(Strict):
    """Where the set-up puts one model: ``model`` is ``<faction>:<model id>`` (``hired:<id>``
    for a hired model, ``<scenario>:<id>`` for a scenario's fixed force), ``x``, ``y`` in inches
    from the table's top-left corner (``gunbai import`` of a VASSAL setup writes these)."""

    model: str = Field(pattern=r"^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$")
    x: float
    y: float


class GameTerrain(Strict):
    """A terrain piece of a game's table (book p.13-15): what ``kind`` of terrain.yaml it is
    (how it is drawn), its ``zone``, its effect on movement (``open``, ``difficult``: half
    movement through it, ``impassable``) and the cover it gives a target (``light`` +1,
    ``heavy`` +2 to the Shooting Defence Score; more than 2 inches of light cover, or any heavy
    cover in front of a target that has not moved or shot, blocks line of sight).
    ``objective``: the scenario's objective (Defence: the piece in the centre)."""

    name: Text
    kind: Id
    zone: Zone
    movement: Movement = "open"
    cover: Cover = "none"
    objective: bool = False
    source: Source


class GameSide(Strict):
    """One side of a game.

    Attributes:
        role: the scenario role (Attacker, Defender, Player A…).
        side: the colour scheme of ``system.yaml``.
        roster: id of a roster of ``rosters/`` (or None with ``fixed``).
        fixed: a scenario's fixed force (Assassination: ``{chunin: 1, ninja: 5}``).
        zone: its deployment zone (the models are set up in it in roster order).
        placed: where each model stands, when the set-up says (an imported setup); empty: the
            module sets them up in rows 1.5 inches apart inside the zone.
    """

    role: str
    side: Id
    roster: Id | None = None
    fixed: dict[Id, int] = {}
    zone: Zone
    placed: list[PlacedModel] = []


class Game(Strict):
    """A scenario set up with two rosters: checked by ``gunbai verify`` and packaged as a
    predefined setup of the module."""

    id: Id
    name: Text
    scenario: Id
    table_side_in: int
    sides: Fixed[GameSide, GameSide]
    civilians: int = 0
    objective: Fixed[float, float] | None = None
    terrain: list[GameTerrain] = []
    note: str | None = None
    #: thresholds and band of ``gunbai verify --play`` (:class:`pipeline.data.playability.Playability`)
    playability: Playability = Playability()
