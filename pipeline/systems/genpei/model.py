"""The schema of the Commands & Colours: Samurai Battles + Genpei War data (``source_data/genpei/``).

The data files are YAML; these pydantic models are their schema (exported as JSON Schema by
``gunbai schema``). Terms are the game's: hex, unit, figure, leader, battle dice, sword, flag,
Honour & Fortune (H&F), victory banner, section.

Files and the model each validates against:

=====================  ==========================
``system.yaml``        :class:`SystemInfo`
``sources.yaml``       :class:`pipeline.data.common.Sources`
``board.yaml``         :class:`BoardGeometry`
``units.yaml``         :class:`UnitsFile`
``leaders.yaml``       :class:`LeadersFile`
``terrain.yaml``       :class:`TerrainFile`
``markers.yaml``       :class:`MarkersFile`
``scenarios/*.yaml``   :class:`Scenario`
=====================  ==========================

Hexes are named ``[column, row]``, both counted from 1: row 1 is the top row of the board as
printed (the north edge), column 1 the left-most hex of that row. The board's long rows and
short rows alternate (see :class:`BoardGeometry`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from pipeline.data.common import (
    DateSavedMs,
    FieldError,
    Fixed,
    HistoricalDate,
    Id,
    Source,
    Strict,
    Text,
    Unknown,
)
from pipeline.data.playability import Playability

#: A die count, or ``unknown`` when no public source gives it.
Dice = Annotated[int, Field(ge=0, le=12)] | Unknown
#: Most battle dice a terrain may cap a roll at: a cap is at most the largest die count (``Dice``).
MAX_DICE = 12
#: Most figures a unit has: Commands & Colours units have 2 to 5 figures (rules-facts: foot x5,
#: cavalry x3), and the counter shows the count as one digit in its circle.
MAX_FIGURES = 9

#: A hex as ``[column, row]``, 1-based (see the module docstring).
Hex = Fixed[Annotated[int, Field(ge=1, le=99)], Annotated[int, Field(ge=1, le=99)]]

#: The six hexsides of a pointy-topped hex, and the six axes of wind/tide on such a board.
Direction = Literal["NE", "E", "SE", "SW", "W", "NW"]

#: The unit standard (class) symbol: green circle, blue triangle, red square.
Standard = Literal["circle", "triangle", "square"]

#: The colour of a standard. Source: rules-facts §1.2-1.3 (green circle, blue triangle, red square).
STANDARD_COLOUR: dict[str, str] = {"circle": "green", "triangle": "blue", "square": "red"}


# ---------------------------------------------------------------------------------------------
# system.yaml


class DieFace(Strict):
    """One face of the battle die.

    Attributes:
        symbol: ``circle``, ``triangle``, ``square``, ``sword``, ``flag`` or ``honour_fortune``.
        label: the text VASSAL reports for it.
    """

    symbol: Literal["circle", "triangle", "square", "sword", "flag", "honour_fortune"]
    label: str


class BattleDie(Strict):
    """The six-sided battle die: its faces and where the face counts come from."""

    faces: list[DieFace] = Field(min_length=6, max_length=6)
    source: Source


class SideColour(Strict):
    """Colours of an army in counters and on the board, as ``#rrggbb``."""

    fill: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
    text: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]


class VassalSettings(Strict):
    """How the VASSAL module and the pack's extension are drawn and named.

    The Genpei pack ships as an extension (``genpei.vmdx``) of a base module: the module named
    by ``base_module`` (for a release, the published Samurai Battles module), or, when none is
    set, the core game gunbai writes as its own module (``module_name``: the base game's board,
    units, leaders, terrain, markers, dice and cards, nothing of the pack), so that the
    extension can be tried and checked on it. Both are built by the same code
    (:mod:`pipeline.systems.genpei.extension`).

    Attributes:
        module_name: the name of the core module gunbai writes (VASSAL matches saves and
            extensions on a module's name).
        module_version: its version string.
        description: its description.
        extension_version: the extension's own version (its release; a game saved with an
            older release names that version).
        extension_description: the extension's description (``extensiondata``).
        extension_id: the extension's id, kept the same from release to release: its pieces'
            gpids are ``<extension_id>:<n>``, and a game saved with one release finds its
            pieces' palette slots in the next by them (vassal-format.md §5). Letters, digits,
            ``_ . -``.
        base_module: the ``.vmod`` the extension extends, relative to this data folder (or
            absolute); ``None``: gunbai's own core module. ``gunbai build --base-module``
            overrides it.
        base_module_sha256: the SHA-256 (hex) of that file; a build refuses another file
            (the mapping ``base_mapping.yaml`` was made for this one). Required with
            ``base_module``.
        hex_width_px: width of a hex, flat side to flat side, in pixels at VASSAL's 100% zoom
            (the core module's board; on another base the extension's pieces take that base's
            hex size).
        board_margin_px: blank margin drawn around the hexes on the board image, in pixels.
        date_saved_ms: the ``dateSaved`` written into metadata, in ms since 1970 (reproducible
            builds); ``SOURCE_DATE_EPOCH`` overrides it.
    """

    module_name: str = Field(min_length=1)
    module_version: str = Field(min_length=1)
    description: str
    extension_version: str = Field(min_length=1)
    extension_description: str
    extension_id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,32}$")]
    base_module: str | None = Field(default=None, min_length=1)
    base_module_sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    hex_width_px: int = Field(ge=40, le=400)
    board_margin_px: int = Field(ge=0, le=400)
    date_saved_ms: DateSavedMs

    @model_validator(mode="after")
    def _base_with_digest(self) -> VassalSettings:
        if self.base_module is not None and self.base_module_sha256 is None:
            raise ValueError("base_module needs base_module_sha256 (the SHA-256 of the file the mapping was made for)")
        return self


class SystemInfo(Strict):
    """``system.yaml``: the game system as a whole.

    Attributes:
        id: the system id (also the output folder under ``build/``).
        name: the game's full name.
        battle_die: the battle die.
        armies: army colour schemes by colour name (``red``, ``yellow``…), as scenarios name them.
        vassal: VASSAL settings.
        source: where the system facts come from.
    """

    id: Id
    name: Text
    battle_die: BattleDie
    armies: dict[str, SideColour]
    vassal: VassalSettings
    source: Source


# ---------------------------------------------------------------------------------------------
# board.yaml


class BoardGeometry(Strict):
    """``board.yaml``: the hex board.

    The board has ``rows`` rows of pointy-topped hexes. Long rows hold ``columns`` hexes; short
    rows hold ``columns - 1`` and are shifted half a hex to the right. Which rows are short is
    ``short_rows`` (``even`` means rows 2, 4, …).

    Section lines are vertical lines measured in hex widths from the left edge of a long row
    (a long row's hex ``c`` spans ``[c-1, c]``; a short row's hex spans ``[c-0.5, c+0.5]``).
    A hex a line cuts belongs to both sections it touches.

    Attributes:
        id: the board's id.
        name: its name.
        columns: hexes in a long row.
        rows: number of rows.
        short_rows: ``even`` or ``odd``.
        section_lines: the two x positions (in hex widths) splitting left/centre/right.
        sources: where the geometry comes from.
    """

    id: Id
    name: Text
    columns: int = Field(ge=2, le=40)
    rows: int = Field(ge=2, le=40)
    short_rows: Literal["even", "odd"]
    section_lines: Fixed[float, float]
    sources: list[Source] = Field(min_length=1)

    @model_validator(mode="after")
    def _lines_inside(self) -> BoardGeometry:
        a, b = self.section_lines
        if not (0 < a < b < self.columns):
            raise FieldError("section_lines", f"two increasing numbers inside 0..{self.columns} (the section lines, in columns)")
        return self

    def row_length(self, row: int) -> int:
        """Number of hexes in ``row`` (1-based)."""
        short = (row % 2 == 0) if self.short_rows == "even" else (row % 2 == 1)
        return self.columns - 1 if short else self.columns

    def is_short_row(self, row: int) -> bool:
        """True when ``row`` (1-based) is a short row, shifted half a hex right."""
        return self.row_length(row) == self.columns - 1

    def contains(self, hex_: tuple[int, int]) -> bool:
        """True when ``[column, row]`` is a hex of this board."""
        col, row = hex_
        return 1 <= row <= self.rows and 1 <= col <= self.row_length(row)

    def all_hexes(self) -> list[tuple[int, int]]:
        """Every hex, row by row, left to right."""
        return [(c, r) for r in range(1, self.rows + 1) for c in range(1, self.row_length(r) + 1)]

    def sections(self, hex_: tuple[int, int]) -> frozenset[str]:
        """The sections (``left``, ``centre``, ``right``) ``hex_`` belongs to.

        >>> b = BoardGeometry(id="b", name="b", columns=12, rows=11, short_rows="even",
        ...     section_lines=(4.0, 8.0), sources=[Source(doc="x", section="y")])
        >>> sorted(b.sections((4, 2)))
        ['centre', 'left']
        """
        col, row = hex_
        left_edge = col - 1 + (0.5 if self.is_short_row(row) else 0.0)
        right_edge = left_edge + 1
        a, b = self.section_lines
        out = set()
        if left_edge < a:
            out.add("left")
        if right_edge > a and left_edge < b:
            out.add("centre")
        if right_edge > b:
            out.add("right")
        return frozenset(out)


# ---------------------------------------------------------------------------------------------
# units.yaml and leaders.yaml


class RuleNote(Strict):
    """A special rule of a unit, leader, terrain or marker, summarised for this project.

    Attributes:
        id: stable id of the rule.
        summary: a short summary written for gunbai (never the rulebook's prose).
        source: where the rule is.
    """

    id: Id
    summary: str = Field(min_length=1)
    source: Source


class Movement(Strict):
    """How far a unit moves when ordered, in hexes.

    Attributes:
        hexes: hexes it may move and still battle.
        hexes_no_battle: a longer move that forbids battle that turn (``None`` when there is none).
        source: the citation.
    """

    hexes: int | Unknown
    hexes_no_battle: int | None | Unknown = None
    source: Source


class CloseCombat(Strict):
    """Close combat dice.

    Attributes:
        dice: battle dice in close combat.
        dice_after_move: dice when the unit moved this turn (``None`` = no reduction).
        not_when_ordered_by: command cards under which it may not close combat at all.
        source: the citation.
    """

    dice: Dice
    dice_after_move: Dice | None = None
    not_when_ordered_by: list[Id] = []
    source: Source


class RangedCombat(Strict):
    """Ranged combat: dice and range in hexes (no ranged combat against an adjacent unit).

    Attributes:
        dice: battle dice at range.
        min_range, max_range: the range band in hexes.
        dice_after_move: dice when the unit moved (``None`` = no reduction).
        weapon: ``bow`` or ``arquebus`` (arquebus units gain no H&F at range).
        source: the citation.
    """

    dice: Dice
    min_range: int | Unknown = 2
    max_range: int | Unknown
    dice_after_move: Dice | None = None
    weapon: Literal["bow", "arquebus"] | Unknown = "bow"
    source: Source


class UnitType(Strict):
    """A unit type.

    Attributes:
        id: stable id (used in scenarios).
        name: English name.
        name_ja: Japanese name (kanji), shown on counters when present.
        standard: the standard symbol (circle, triangle, square).
        base: True for a unit of the base game (Samurai Battles), False for one the Genpei pack
            adds (Sohei): the pack's extension adds only what is not in the base game.
        mounted: True for cavalry.
        figures: figures (blocks) in a full-strength unit.
        tags: words rules select units by: ``archer`` (may fire from an Arrow Tower),
            ``sohei``, ``irregular`` (no hits on swords in close combat), ``bodyguard``.
        movement: ordered movement.
        close_combat: close combat dice.
        ranged: ranged combat, or ``None`` for a unit that has none.
        ignores_flags: flags it may ignore.
        hits_on_swords: False when its swords never hit in close combat (Irregular Peasant
            Infantry, Genpei pack "Grappling").
        hf_reroll: combat types in which it rerolls every H&F symbol for more results
            (``close``, ``ranged``).
        hf_lost_when_eliminated: H&F tokens its army loses when it is eliminated (besides the
            banner).
        retreat_hf_per_hex: H&F a retreat costs per hex.
        copies: how many counters of it a counter sheet prints.
        rules: its special rules.
        sources: where the unit type and its stats come from.
    """

    id: Id
    name: Text
    name_ja: Text | None = None
    abbreviation: str = Field(min_length=1, max_length=6)
    standard: Standard
    base: bool
    mounted: bool = False
    figures: Annotated[int, Field(ge=1, le=MAX_FIGURES)] | Unknown
    tags: list[Literal["archer", "sohei", "irregular", "bodyguard", "peasant"]] = []
    movement: Movement
    close_combat: CloseCombat
    ranged: RangedCombat | None = None
    ignores_flags: int | Unknown = 0
    hits_on_swords: bool = True
    hf_reroll: list[Literal["close", "ranged"]] = []
    hf_lost_when_eliminated: int = Field(0, ge=0)
    retreat_hf_per_hex: int | Unknown
    copies: int = Field(4, ge=0, le=60)
    rules: list[RuleNote] = []
    sources: list[Source] = Field(min_length=1)

    @property
    def colour(self) -> str:
        """``green``, ``blue`` or ``red``, from the standard."""
        return STANDARD_COLOUR[self.standard]


class UnitsFile(Strict):
    """``units.yaml``."""

    units: list[UnitType] = Field(min_length=1)


class Inspiration(Strict):
    """Leader Inspiration: H&F spent for extra battle dice.

    Attributes:
        hf_cost: H&F spent.
        extra_dice: dice added.
        reach: ``attached`` (only the unit it is attached to) or ``attached_or_adjacent``.
        source: the citation.
    """

    hf_cost: int = Field(ge=0)
    extra_dice: int = Field(ge=0)
    reach: Literal["attached", "attached_or_adjacent"]
    source: Source


class LeaderType(Strict):
    """A leader type.

    Attributes:
        id, name, name_ja, abbreviation: as for units.
        kind: ``infantry``, ``cavalry`` or ``commander`` (a commander with bodyguard).
        base: True for a leader of the base game, False for one the Genpei pack adds.
        mounted: True for a cavalry leader (may not enter a Stockade).
        bodyguard: for a commander, the unit type of its bodyguard.
        inspiration: Leader Inspiration.
        copies: counters on a sheet.
        rules: special rules.
        sources: citations.
    """

    id: Id
    name: Text
    name_ja: Text | None = None
    abbreviation: str = Field(min_length=1, max_length=6)
    kind: Literal["infantry", "cavalry", "commander"]
    base: bool
    mounted: bool = False
    bodyguard: Id | None = None
    inspiration: Inspiration
    copies: int = Field(4, ge=0, le=60)
    rules: list[RuleNote] = []
    sources: list[Source] = Field(min_length=1)


class LeadersFile(Strict):
    """``leaders.yaml``."""

    leaders: list[LeaderType] = Field(min_length=1)


# ---------------------------------------------------------------------------------------------
# terrain.yaml


class DiceCap(Strict):
    """A maximum number of battle dice, for foot and for mounted units (``None`` = no cap).

    Caps limit only the base dice; Leader Inspiration and card bonuses are added after the cap
    (rules-facts §1.5, CCN faqs/terrain.html).
    """

    foot: Annotated[int, Field(ge=0, le=MAX_DICE)] | None = None
    mounted: Annotated[int, Field(ge=0, le=MAX_DICE)] | None = None


class TerrainMovement(Strict):
    """How a terrain affects movement.

    Attributes:
        passable: ``yes``, ``no``, or ``naval`` (only by naval movement, in scenarios that allow
            naval combat).
        must_stop: a unit entering must stop.
        no_battle_after_entering: a unit that entered may not battle that turn.
        must_start_adjacent: an ordered unit must start its turn adjacent to enter.
        exit_max_hexes: a unit leaving may move only this many hexes (``None`` = normal).
        mounted_may_enter: False when cavalry units and cavalry leaders may not enter.
        source: the citation.
    """

    passable: Literal["yes", "no", "naval"] = "yes"
    must_stop: bool = False
    no_battle_after_entering: bool = False
    must_start_adjacent: bool = False
    exit_max_hexes: int | None = None
    mounted_may_enter: bool = True
    source: Source


class TerrainCombat(Strict):
    """How a terrain affects battle.

    Attributes:
        close_from: cap on close combat dice of a unit on this hex.
        close_into: cap on close combat dice of a unit attacking a unit on this hex.
        ranged_from: cap on ranged dice of a unit on this hex.
        ranged_into: cap on ranged dice against a unit on this hex (for Stockade: only from a
            non-Stockade hex).
        ignore_swords: swords a unit on this hex ignores.
        ignore_flags: flags a unit on this hex may ignore.
        flags_optional: the ``ignore_flags`` are the owner's choice, roll by roll (the text
            says the unit "may ignore" them: Palisade, Stockade, Bridge); else always used.
        protection_from: ``all`` sides, or only ``covered_hexsides`` (Palisade).
        battles_first: a unit here targeted in close combat from a different terrain may
            battle first (as if playing First Strike), its owner's choice.
        no_inspiration: units here cannot be inspired.
        max_range: ranged combat range from this hex for archer units (Arrow Tower).
        source: the citation.
    """

    close_from: DiceCap = DiceCap()
    close_into: DiceCap = DiceCap()
    ranged_from: DiceCap = DiceCap()
    ranged_into: DiceCap = DiceCap()
    ignore_swords: int = 0
    ignore_flags: int = 0
    flags_optional: bool = False
    protection_from: Literal["all", "covered_hexsides"] = "all"
    battles_first: bool = False
    no_inspiration: bool = False
    max_range: int | None = None
    source: Source


class Destruction(Strict):
    """A terrain tile an ordered adjacent unit may attack instead of an enemy unit.

    Attributes:
        swords_needed: swords in one close-combat roll that destroy the tile.
        full_dice: the roll uses the unit's full close combat dice (no terrain cap).
        occupant_loses_figures: figures lost by a unit on the hex when the tile is destroyed.
        source: the citation.
    """

    swords_needed: int = Field(ge=1)
    full_dice: bool = True
    occupant_loses_figures: int = Field(0, ge=0)
    source: Source


class EntryRoll(Strict):
    """A die a unit rolls on entering (Marsh).

    Attributes:
        dice: dice rolled.
        unit_loses_figure_on: ``own_standard`` (the face matching the unit's standard symbol).
        lone_leader_eliminated_on: the face that eliminates a lone leader.
        source: the citation.
    """

    dice: int = 1
    unit_loses_figure_on: Literal["own_standard"]
    lone_leader_eliminated_on: Literal["sword", "flag", "honour_fortune"]
    source: Source


class TerrainType(Strict):
    """A terrain tile.

    Attributes:
        id, name, name_ja, abbreviation: names.
        base: True for base-game terrain, False for Genpei pack terrain.
        overlay: True for a tile built on another (Arrow Tower).
        requires: for an overlay, the terrains it may be built on.
        hexsides: True when the tile covers only some hexsides (Palisade); scenarios then list
            them.
        blocks_los: ``no``, ``yes``, or ``between_other_hexes`` (blocks line of sight between
            hexes of other terrain, Stockade).
        water: counts as water terrain (Blue Dragon card).
        naval: units on it are naval units.
        movement: movement effects.
        combat: combat effects.
        destruction: how it can be destroyed, or ``None``.
        entry_roll: a roll on entering, or ``None``.
        colour: fill colour of the tile as ``#rrggbb``.
        tile_label: draw the terrain's name on its tile (default). ``false`` where the picture
            names it and the label would repeat hex after hex across an area (Ocean).
        copies: tiles on a counter sheet.
        rules: other rules.
        sources: citations.
    """

    id: Id
    name: Text
    name_ja: Text | None = None
    abbreviation: str = Field(min_length=1, max_length=6)
    base: bool
    overlay: bool = False
    requires: list[Id] = []
    hexsides: bool = False
    blocks_los: Literal["no", "yes", "between_other_hexes"] = "no"
    water: bool = False
    naval: bool = False
    movement: TerrainMovement
    combat: TerrainCombat
    destruction: Destruction | None = None
    entry_roll: EntryRoll | None = None
    colour: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
    tile_label: bool = True
    copies: int = Field(4, ge=0, le=60)
    rules: list[RuleNote] = []
    sources: list[Source] = Field(min_length=1)


class TerrainFile(Strict):
    """``terrain.yaml``."""

    terrain: list[TerrainType] = Field(min_length=1)


# ---------------------------------------------------------------------------------------------
# markers.yaml


class MarkerType(Strict):
    """A marker or token (Honour & Fortune, victory banner, grapple, wind/tide arrow…).

    Attributes:
        id, name, name_ja, abbreviation: names.
        kind: ``token`` (held by a player), ``marker`` (placed on the board), ``tile`` (a
            terrain-like tile such as the Command Tent).
        base: True for a marker of the base game, False for one the Genpei pack adds (the naval
            markers).
        placed: where it goes: ``hex``, ``hexside`` (between two hexes) or ``off_board``.
        symbol: what the counter shows: a short word the counter template draws.
        colour: fill colour ``#rrggbb``.
        copies: how many a counter sheet prints.
        rules: rules the marker stands for.
        sources: citations.
    """

    id: Id
    name: Text
    name_ja: Text | None = None
    abbreviation: str = Field(min_length=1, max_length=6)
    kind: Literal["token", "marker", "tile"]
    base: bool
    placed: Literal["hex", "hexside", "off_board"]
    symbol: Literal["fortune", "banner", "grapple", "arrow", "tent", "ship", "flat"]
    colour: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
    copies: int = Field(1, ge=0, le=60)
    rules: list[RuleNote] = []
    sources: list[Source] = Field(min_length=1)


class MarkersFile(Strict):
    """``markers.yaml``."""

    markers: list[MarkerType] = Field(min_length=1)


# ---------------------------------------------------------------------------------------------
# scenarios/*.yaml


class ScenarioSide(Strict):
    """One side of a scenario.

    Attributes:
        id: the side's id within the scenario (``taira``…).
        name: its name as the scenario gives it.
        army: its colour scheme, a key of ``system.yaml`` ``armies``.
        edge: the board edge it plays from (``south`` = the bottom, row ``rows``); ``unknown``
            when only a picture of the map shows it.
        command_cards: Command cards in hand at the start (``unknown`` when no public text
            gives it).
        dragon_cards: Dragon cards at the start (or ``unknown``).
        honour_fortune: H&F tokens at the start (or ``unknown``).
        banners: this side's own banner target when the two sides need different numbers
            (``None``: ``victory.banners``).
        source: citation.
    """

    id: Id
    name: Text
    army: Id
    edge: Literal["north", "south"] | Unknown
    command_cards: int | Unknown
    dragon_cards: int | Unknown
    honour_fortune: int | Unknown
    banners: int | None = None
    source: Source


class Victory(Strict):
    """Victory conditions.

    Attributes:
        banners: victory banners a side needs to win (``unknown`` when no public text gives it).
        rules: the scenario's other victory conditions (temporary banners…).
        source: citation.
    """

    banners: int | Unknown
    rules: list[RuleNote] = []
    source: Source


class WindTide(Strict):
    """The scenario's nett wind and tide: one or more axes of the hexes, as the direction the
    water pushes towards (a naval unit moving with it may move 2 hexes).

    Attributes:
        directions: the axes, e.g. ``[E]``.
        source: citation.
    """

    directions: list[Direction] = Field(min_length=1)
    source: Source


class RowSpan(Strict):
    """A run of hexes in one row: columns ``first`` to ``last`` of ``row``, inclusive."""

    row: int = Field(ge=1)
    first: int = Field(ge=1)
    last: int = Field(ge=1)

    def hexes(self) -> list[tuple[int, int]]:
        """The hexes of the run, left to right."""
        return [(c, self.row) for c in range(self.first, self.last + 1)]


class TerrainPlacement(Strict):
    """Terrain tiles of one type on the board.

    Attributes:
        terrain: a terrain id.
        hexes: the hexes it covers.
        rows: runs of hexes it covers (handy for Ocean).
        hexsides: for a Palisade, the hexsides it covers (same for every listed hex).
    """

    terrain: Id
    hexes: list[Hex] = []
    rows: list[RowSpan] = []
    hexsides: list[Direction] = []

    def all_hexes(self) -> list[tuple[int, int]]:
        """The listed hexes then the hexes of the row runs, in file order."""
        out = [tuple(h) for h in self.hexes]
        for span in self.rows:
            out.extend(span.hexes())
        return out  # type: ignore[return-value]


class UnitPlacement(Strict):
    """A unit on the board at the start.

    Attributes:
        side: the scenario side id.
        unit: a unit type id.
        hex: where it stands.
        leader: a leader type id attached to it, if any.
        name: the historical commander or contingent it stands for, if the scenario names one.
        note: e.g. "supply ship".
    """

    side: Id
    unit: Id
    hex: Hex
    leader: Id | None = None
    name: str | None = None
    note: str | None = None


class LeaderPlacement(Strict):
    """A lone leader (not attached to a unit) at the start."""

    side: Id
    leader: Id
    hex: Hex
    name: str | None = None


class MarkerPlacement(Strict):
    """A marker or tile on the board at the start (Command Tent, Command Ship…)."""

    marker: Id
    hex: Hex
    side: Id | None = None


class Reconstruction(Strict):
    """How much of the scenario is known and how much this project reconstructed.

    Attributes:
        map_known: False when the pack's map is not public and the layout is this project's.
        note: what was reconstructed and from what.
        sources: what is known and where from.
    """

    map_known: bool
    note: str
    sources: list[Source] = Field(min_length=1)


class Scenario(Strict):
    """A scenario file.

    Attributes:
        id: stable id (file name without ``.yaml``).
        code: the pack's number, e.g. ``GP20``.
        name: its name.
        date: the historical date as the pack gives it.
        summary: two or three sentences for the scenario sheet (may be empty).
        map: where the set-up (terrain, units, leaders, markers) comes from: ``published`` (a
            public map, typed in), ``imported`` (``gunbai import`` of a VASSAL setup),
            ``reconstructed`` (this project's own layout, see ``reconstruction``), or ``not
            public`` (the map is only a picture: the scenario is incomplete and not playable
            until a setup is imported), or ``entered`` (laid out in ``gunbai edit`` over a
            picture of the map, cited by ``map_source``).
        map_source: with ``map: entered``, the picture of the map the set-up was traced from.
        board: the board id.
        sides: exactly two sides.
        first_player: id of the side that moves first, or ``unknown``.
        victory: victory conditions.
        naval: True when naval combat is allowed (Ocean hexes passable).
        wind_tide: the wind/tide, required when naval units stand on the board.
        special_rules: the scenario's special rules.
        terrain: terrain tiles.
        units: units with their attached leaders.
        leaders: lone leaders.
        markers: markers and tiles.
        reconstruction: what is known and reconstructed.
        playability: thresholds and band of ``gunbai verify --play`` (optional;
            :class:`pipeline.data.playability.Playability`).
    """

    id: Id
    code: str
    name: Text
    date: HistoricalDate
    summary: str = ""
    map: Literal["published", "imported", "reconstructed", "not public", "entered"] = "published"
    map_source: Source | None = None
    board: Id
    sides: list[ScenarioSide] = Field(min_length=2, max_length=2)
    first_player: Id | Unknown
    victory: Victory
    naval: bool = False
    wind_tide: WindTide | None = None
    special_rules: list[RuleNote] = []
    terrain: list[TerrainPlacement] = []
    units: list[UnitPlacement] = []
    leaders: list[LeaderPlacement] = []
    markers: list[MarkerPlacement] = []
    reconstruction: Reconstruction | None = None
    playability: Playability = Playability()

    @property
    def title(self) -> str:
        """``code`` and name as menus and sheets show them (``GP05 (name not public)`` when the
        name is ``unknown``)."""
        return f"{self.code} {'(name not public)' if self.name == 'unknown' else self.name}"

    def incomplete(self) -> list[str]:
        """Why the scenario cannot be played yet: the map is not public, or values no public
        text gives (``unknown``) that the game needs. Empty when it is complete."""
        out = []
        if self.map == "not public":
            out.append("map not public (terrain, units and leaders unknown)")
        missing = []
        for attr, what in (("command_cards", "Command cards"), ("dragon_cards", "Dragon cards"), ("honour_fortune", "H&F"), ("edge", "board edge")):
            sides = [side for side in self.sides if getattr(side, attr) == "unknown"]
            if len(sides) == len(self.sides):
                missing.append(f"{what} of both sides")
            else:
                missing += [f"{side.name} {what}" for side in sides]
        if self.first_player == "unknown":
            missing.append("who moves first")
        if self.victory.banners == "unknown":
            missing.append("victory banners")
        if missing:
            out.append("unknown: " + ", ".join(missing))
        return out

    @model_validator(mode="after")
    def _reconstruction_marked(self) -> Scenario:
        if self.map == "reconstructed" and self.reconstruction is None:
            raise FieldError("map", "map: reconstructed with a `reconstruction` block saying what was reconstructed and from what")
        if self.map == "entered" and self.map_source is None:
            raise FieldError("map", "map: entered with a `map_source` citing the picture the set-up was traced from")
        return self

# ---------------------------------------------------------------------------------------------
# cards.yaml


class CommandCard(Strict):
    """A Command card of the 60-card deck.

    Attributes:
        id: stable id.
        name: the printed name.
        kind: ``section`` (orders units in one section) or ``tactic``.
        section: the section a section card orders in (``left``, ``centre``, ``right``).
        orders: units and/or leaders a section card orders: a number, or ``hand`` (one per
            Command card held, this one included: the Advance cards).
        draw_two_keep_one: when drawing the new Command card, draw 2, keep 1, discard the other.
        count: copies in the deck, or ``unknown`` (erratum ``command_card_list``).
        effect: the engine rule that plays the card (``section``, ``cavalry_charge``, …), or
            ``unknown`` when no public text says what the card does.
        text: a summary of the card's text (paraphrased).
        naval: the Genpei pack's naval exception for the card, if any.
        source: where the card and its text come from; ``sources``: further citations.
    """

    id: Id
    name: str = Field(min_length=1)
    kind: Literal["section", "tactic"]
    section: Literal["left", "centre", "right"] | None = None
    orders: int | Literal["hand"] | None = None
    draw_two_keep_one: bool = False
    count: Annotated[int, Field(ge=1, le=60)] | Unknown
    effect: Id | Unknown
    text: str = Field(min_length=1)
    naval: str | None = None
    source: Source
    sources: list[Source] = []

    @model_validator(mode="after")
    def _section_fields(self) -> CommandCard:
        if self.kind == "section" and (self.section is None or self.orders is None):
            raise FieldError("kind", "a section card naming its section and how many units it orders")
        return self


class DragonCard(Strict):
    """A Dragon card of the 40-card deck.

    Attributes:
        id: stable id.
        name: the printed name.
        count: copies in the deck, or ``unknown`` (erratum ``dragon_card_list``).
        cost: H&F paid to play it, or ``unknown`` (erratum ``dragon_card_costs``).
        phase: when it is played (``unknown`` when not public).
        target: what it acts on (``unknown`` when not public).
        effect: the engine rule that plays it (``ambush``, ``personal_challenge``,
            ``turncoat``), or ``unknown`` when no public text says what it does.
        text: a summary of the card's text (paraphrased).
        naval: what the Genpei pack says of it at sea, if anything.
    """

    id: Id
    name: str = Field(min_length=1)
    count: Annotated[int, Field(ge=1, le=40)] | Unknown
    cost: Annotated[int, Field(ge=0, le=10)] | Unknown
    phase: str | Unknown
    target: str | Unknown
    effect: Id | Unknown
    text: str = Field(min_length=1)
    naval: str | None = None
    source: Source
    sources: list[Source] = []


class CardsFile(Strict):
    """``cards.yaml``: the Command deck and the Dragon deck.

    Attributes:
        command_deck_size: cards in the Command deck (60, GMT edition).
        section_card_count: how many of them are section cards (39).
        dragon_deck_size: cards in the Dragon deck (40, GMT edition).
        command_cards: the Command cards public sources name (section cards and tactic cards).
        dragon_cards: the Dragon cards public sources name.
    """

    command_deck_size: int = Field(ge=1, le=200)
    section_card_count: int = Field(ge=0, le=200)
    dragon_deck_size: int = Field(ge=0, le=200)
    source: Source
    dragon_deck_source: Source
    command_cards: list[CommandCard] = Field(min_length=1)
    dragon_cards: list[DragonCard] = []
