"""A small Genpei data set built in code, for render tests (no data files needed)."""

from __future__ import annotations

from types import SimpleNamespace

from pipeline.data.common import Source
from pipeline.systems.genpei.layout import HexLayout
from pipeline.systems.genpei.model import (
    BoardGeometry,
    CloseCombat,
    DiceCap,
    Inspiration,
    LeaderType,
    MarkerType,
    Movement,
    RangedCombat,
    RuleNote,
    SideColour,
    TerrainCombat,
    TerrainMovement,
    TerrainType,
    UnitType,
)

SRC = Source(doc="genpei_pack", section="test fixture")


def unit(id: str, name: str, standard: str, *, name_ja: str | None = None, abbreviation: str = "UNIT", mounted: bool = False,
         figures: int | str = 3, ranged: bool = False, rules: tuple[str, ...] = (), **kw) -> UnitType:
    return UnitType(
        id=id, name=name, name_ja=name_ja, abbreviation=abbreviation, standard=standard, mounted=mounted, figures=figures,
        base=kw.pop("base", not id.startswith("sohei")),
        movement=Movement(hexes=kw.pop("move", 1), hexes_no_battle=kw.pop("move_nb", None), source=SRC),
        close_combat=CloseCombat(dice=kw.pop("close", 3), dice_after_move=kw.pop("close_moved", None), source=SRC),
        ranged=RangedCombat(dice=2, max_range=3, dice_after_move=1, source=SRC) if ranged else None,
        retreat_hf_per_hex=kw.pop("retreat", 1),
        rules=[RuleNote(id=f"r{i}", summary=s, source=SRC) for i, s in enumerate(rules)],
        sources=[SRC], **kw,
    )


def terrain(id: str, name: str, colour: str, **kw) -> TerrainType:
    return TerrainType(
        id=id, name=name, abbreviation=kw.pop("abbreviation", name[:4].upper()), base=kw.pop("base", False), colour=colour,
        movement=kw.pop("movement", TerrainMovement(source=SRC)), combat=kw.pop("combat", TerrainCombat(source=SRC)),
        sources=[SRC], **kw,
    )


def marker(id: str, name: str, symbol: str, colour: str, **kw) -> MarkerType:
    return MarkerType(id=id, name=name, abbreviation=kw.pop("abbreviation", name[:4].upper()), kind=kw.pop("kind", "marker"),
                      base=kw.pop("base", True),
                      placed=kw.pop("placed", "hex"), symbol=symbol, colour=colour, sources=[SRC], **kw)


def leader(id: str, name: str, kind: str, **kw) -> LeaderType:
    return LeaderType(id=id, name=name, abbreviation=kw.pop("abbreviation", name[:4].upper()), kind=kind, base=kw.pop("base", True),
                      inspiration=Inspiration(hf_cost=1, extra_dice=1, reach="attached", source=SRC), sources=[SRC], **kw)


def make_data() -> SimpleNamespace:
    board = BoardGeometry(id="standard", name="Standard board", columns=13, rows=9, short_rows="even", section_lines=(4.5, 8.5), sources=[SRC])
    units = [
        unit("sohei_warriors", "Sohei Warriors", "triangle", name_ja="僧兵", abbreviation="SOHEI", figures=4, move=1, move_nb=2,
             rules=("Rerolls every H&F in close combat for more results.", "Army loses 2 H&F when eliminated."),
             hf_reroll=["close"], hf_lost_when_eliminated=2),
        unit("sohei_archers", "Sohei Archers", "triangle", name_ja="僧兵弓", abbreviation="SOH-A", figures=4, ranged=True, close_moved=2),
        unit("mounted_samurai_archers", "Mounted Samurai Archers", "square", name_ja="騎馬武者", abbreviation="MSA", mounted=True,
             figures=3, ranged=True, move=3),
        unit("ashigaru_spearmen", "Ashigaru Spearmen", "circle", name_ja="足軽", abbreviation="ASH-S", figures="unknown"),
        unit("peasants", "Irregular Peasant Infantry", "circle", abbreviation="PEAS", figures=4, hits_on_swords=False, retreat="unknown"),
    ]
    leaders = [
        leader("infantry_leader", "Infantry Leader", "infantry", abbreviation="INF"),
        leader("cavalry_leader", "Cavalry Leader", "cavalry", abbreviation="CAV", mounted=True),
        leader("commander", "Commander", "commander", abbreviation="CMDR", name_ja="大将",
               rules=[RuleNote(id="naval_leader", summary="At sea every leader counts as an infantry leader.", source=SRC)]),
    ]
    terrains = [
        terrain("ocean", "Ocean", "#3f7fb5", naval=True, water=True, name_ja="海", movement=TerrainMovement(passable="naval", source=SRC),
                rules=[RuleNote(id="naval_move", summary="Naval units move 1 hex, or 2 wholly with the wind/tide.", source=SRC),
                       RuleNote(id="naval_dice", summary="Naval units roll 1 die less in close and ranged combat.", source=SRC)]),
        terrain("marsh", "Marsh", "#7c9a6a", water=True, movement=TerrainMovement(must_stop=True, exit_max_hexes=1, source=SRC),
                combat=TerrainCombat(close_from=DiceCap(foot=2, mounted=2), close_into=DiceCap(foot=2, mounted=2), ranged_from=DiceCap(foot=1, mounted=1), source=SRC)),
        terrain("forest", "Forest", "#4f7a3a", base=True, blocks_los="yes"),
        terrain("hill", "Hill", "#b9a467", base=True),
        terrain("stockade", "Stockade", "#a68a5b", blocks_los="between_other_hexes",
                movement=TerrainMovement(must_stop=True, must_start_adjacent=True, mounted_may_enter=False, source=SRC),
                combat=TerrainCombat(ignore_swords=1, ignore_flags=1, battles_first=True, source=SRC)),
        terrain("palisade", "Palisade", "#c9bb8a", hexsides=True,
                combat=TerrainCombat(ignore_swords=1, ignore_flags=1, protection_from="covered_hexsides", source=SRC)),
        terrain("arrow_tower", "Arrow Tower", "#8c6a43", overlay=True, requires=["palisade", "stockade"],
                combat=TerrainCombat(max_range=4, source=SRC)),
    ]
    markers = [
        marker("honour_fortune", "Honour & Fortune", "fortune", "#d4a514", abbreviation="H&F", kind="token", placed="off_board"),
        marker("victory_banner", "Victory Banner", "banner", "#b3202a", abbreviation="VB", kind="token", placed="off_board"),
        marker("grapple", "Grapple", "grapple", "#6b6b6b", abbreviation="GRP", placed="hexside",
               rules=[RuleNote(id="grapple", summary="A sword may grapple a naval unit instead of hitting it.", source=SRC)]),
        marker("wind_tide", "Wind/Tide", "arrow", "#2f6f9f", abbreviation="WIND"),
        marker("command_tent", "Command Tent", "tent", "#f1e6c8", abbreviation="TENT", kind="tile"),
        marker("command_ship", "Command Ship", "ship", "#6d4c2f", abbreviation="SHIP", kind="tile"),
        marker("lying_flat", "Lying Flat", "flat", "#7a7a7a", abbreviation="FLAT"),
    ]
    system = SimpleNamespace(armies={
        "red": SideColour(fill="#b3202a", text="#ffffff"),
        "white": SideColour(fill="#ece6d6", text="#1a1a1a"),
        "yellow": SideColour(fill="#e0b22c", text="#1a1a1a"),
    })
    return SimpleNamespace(
        board=board, system=system,
        units={u.id: u for u in units}, leaders={x.id: x for x in leaders},
        terrain={t.id: t for t in terrains}, markers={m.id: m for m in markers},
    )


def make_layout(data: SimpleNamespace | None = None, hex_width: int = 84, margin: int = 24) -> HexLayout:
    data = data or make_data()
    return HexLayout(data.board, hex_width=hex_width, margin=margin)
