"""What the Genpei data must satisfy to be drawn right: every text fits the place its template
gives it, every character has a glyph in the font, and the two sides of a scenario look different.

The bounds are not numbers chosen here: each text is laid out in the template that draws it
(unit counter and card, leader counter, terrain tile, marker, scenario sheet), with the real
font, shrunk to the smallest size the template allows (:func:`pipeline.render.drawing.overflows`).
A text that still does not fit — a 540-character scenario name, a 33 KB summary, an
8000-character unit name — is refused with its file and line, before anything is drawn. The
smallest sizes the templates allow are themselves held to the legibility floors of
:mod:`pipeline.render.legible` (8 px on the VASSAL counters at 100 %, 7 pt on the printed
scenario sheet): a template that would let a text shrink below them is refused, naming the
template and the shape, so no data passes by being drawn too small to read. A
character the font lacks (an emoji in ``name_ja``) would print as an empty box ("tofu") and is
refused too.

:func:`problems` is called by :func:`pipeline.systems.genpei.load.load`; templates are rendered
(Jinja, fast), never drawn (:mod:`pipeline.render.fit`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pipeline.errors import DataError, DataProblem
from pipeline.render.fit import Field, check

#: What each template is, for messages.
PLACES = {
    "genpei/terrain_chart.yaml.j2": "the terrain effects chart",
    "genpei/naval_card.yaml.j2": "the naval warfare card",
    "genpei/unit_counter.yaml.j2": "the unit counter",
    "genpei/unit_card.yaml.j2": "the unit card",
    "genpei/leader_counter.yaml.j2": "the leader counter",
    "genpei/terrain_tile.yaml.j2": "the terrain tile",
    "genpei/marker.yaml.j2": "the marker",
    "genpei/scenario_sheet.yaml.j2": "the scenario sheet",
    "genpei/setup_notice.yaml.j2": "the empty-board notice of the VASSAL setup",
}


def _check(template: str, context: dict[str, Any], fields: Iterable[Field], out: list[DataProblem], floor: tuple[float, str] | None = None) -> None:
    """:func:`pipeline.render.fit.check` with the Genpei renderer and place names, and with
    ``floor`` ``(units per pixel or point, medium)`` the template's smallest sizes against the
    legibility floor of that medium (:func:`floor_check`)."""
    from pipeline.systems.genpei import art

    check(art.renderer(), template, context, fields, out, PLACES.get(template, template))
    if floor is not None:
        floor_check(template, context, *floor, out)


def floor_check(template: str, context: dict[str, Any], per_unit: float, medium: str, out: list[DataProblem]) -> None:
    """:func:`pipeline.render.fit.floor_check` with the Genpei renderer and place names: each
    text ``template`` lets shrink below the floor of ``medium`` (``screen``: 8 px at ``per_unit``
    pixels per unit; ``print``: 7 pt at ``per_unit`` points per unit)."""
    from pipeline.render.fit import floor_check as _floor_check
    from pipeline.systems.genpei import art

    _floor_check(art.renderer(), template, context, per_unit, medium, out, PLACES.get(template, template))


def problems(data: Any) -> list[DataProblem]:
    """Every text of ``data`` (a :class:`~pipeline.systems.genpei.load.GenpeiData`) that its
    template cannot show, every character the font lacks, and every scenario whose two sides
    use the same army colour."""
    from pipeline.render.fit import document_glyph_problems
    from pipeline.render.legible import PT_PER_MM
    from pipeline.systems.genpei import art

    out: list[DataProblem] = []
    docs = data.docs
    document_glyph_problems(docs.values(), out)  # every text of every file, printed or not yet
    colours = next(iter(data.system.armies.values()))
    from pipeline.systems.genpei.build import layout_of

    layout = layout_of(data)
    px = art.counter_sizes(layout)  # pixels of each counter at VASSAL's 100 %, on 100-unit canvases
    units_doc, leaders_doc, terrain_doc, markers_doc = (docs[n] for n in ("units.yaml", "leaders.yaml", "terrain.yaml", "markers.yaml"))
    for i, u in enumerate(data.units.values()):
        loc = ("units", i)
        names = [(units_doc, loc + ("name",), u.name), (units_doc, loc + ("name_ja",), u.name_ja or ""), (units_doc, loc + ("abbreviation",), u.abbreviation)]
        _check("genpei/unit_counter.yaml.j2", art.unit_context(u, colours), names[1:], out, (px["unit"] / 100, "screen"))
        rules = [(units_doc, loc + ("rules", j, "summary"), r.summary) for j, r in enumerate(u.rules)]
        card = art.unit_card_context(u)
        _check("genpei/unit_card.yaml.j2", card, [names[0]] + rules, out, (1.0, "screen"))
        floor_check("genpei/unit_card.yaml.j2", card, art.UNIT_CARD_PRINT_MM * PT_PER_MM / art.UNIT_CARD_SIZE[0], "print", out)
    for i, ld in enumerate(data.leaders.values()):
        loc = ("leaders", i)
        _check("genpei/leader_counter.yaml.j2", art.leader_context(ld, colours),
               [(leaders_doc, loc + ("name_ja",), ld.name_ja or ""), (leaders_doc, loc + ("abbreviation",), ld.abbreviation), (leaders_doc, loc + ("name",), ld.name)], out,
               (px["leader"] / 100, "screen"))
    for i, m in enumerate(data.markers.values()):
        loc = ("markers", i)
        _check("genpei/marker.yaml.j2", art.marker_context(m) | {"marker": {**art.marker_context(m)["marker"], "rotate": 0}},
               [(markers_doc, loc + ("abbreviation",), m.abbreviation), (markers_doc, loc + ("name",), m.name), (markers_doc, loc + ("name_ja",), m.name_ja or "")], out,
               (px["marker"] / 100, "screen"))
    for i, t in enumerate(data.terrain.values()):
        loc = ("terrain", i)
        _check("genpei/terrain_tile.yaml.j2", art.terrain_context(t, layout),
               [(terrain_doc, loc + ("name",), t.name), (terrain_doc, loc + ("name_ja",), t.name_ja or "")], out, (1.0, "screen"))
    for face in data.system.battle_die.faces:  # the die faces of the dice button (40 px)
        floor_check("genpei/die_face.yaml.j2", {"face": {"symbol": face.symbol, "label": face.label, "colour": "#1d1d1d"}}, art.DIE_FACE_PX / 100, "screen", out)
    # the charts (fixed texts and the terrain's and rules' own): on screen and across A4's printable width
    terrain_fields = [(terrain_doc, ("terrain", i, "name"), t.name) for i, t in enumerate(data.terrain.values())]
    chart = art.terrain_chart_context(list(data.terrain.values()))
    _check("genpei/terrain_chart.yaml.j2", chart, terrain_fields, out, (1.0, "screen"))
    floor_check("genpei/terrain_chart.yaml.j2", chart, art.CHART_PRINT_MM * PT_PER_MM / art.TERRAIN_CHART_WIDTH, "print", out)
    naval = art.naval_card_context(data)
    _check("genpei/naval_card.yaml.j2", naval, [], out, (1.0, "screen"))
    floor_check("genpei/naval_card.yaml.j2", naval, art.CHART_PRINT_MM * PT_PER_MM / art.NAVAL_CARD_SIZE[0], "print", out)
    for loaded in data.scenarios:
        # a field blamed already (a character the font lacks, found in every text) is not blamed again
        out.extend(p for p in scenario_problems(data, layout, loaded) if not any(q.file == p.file and q.where == p.where for q in out))
    return out


def scenario_problems(data: Any, layout: Any, loaded: Any) -> list[DataProblem]:
    """The scenario's texts against its sheet, and its sides' army colours."""
    from pipeline.systems.genpei.printing import scenario_context

    out: list[DataProblem] = []
    sc, doc = loaded.scenario, loaded.doc
    if len(sc.sides) == 2 and sc.sides[0].army == sc.sides[1].army:
        out.append(DataProblem(doc.path, doc.line_of(("sides", 1, "army")), "sides[1].army", repr(sc.sides[1].army),
                               f"an army colour other than {sc.sides[0].name}'s ({sc.sides[0].army!r}): with the same colour the two sides' counters look alike"))
    if any(s.army not in data.system.armies for s in sc.sides):
        return out  # verify reports the unknown colour
    fields: list[Field] = [(doc, ("name",), sc.name), (doc, ("summary",), sc.summary), (doc, ("date",), sc.date), (doc, ("code",), sc.code)]
    fields += [(doc, ("sides", i, "name"), s.name) for i, s in enumerate(sc.sides)]
    fields += [(doc, ("victory", "rules", i, "summary"), r.summary) for i, r in enumerate(sc.victory.rules)]
    fields += [(doc, ("special_rules", i, "summary"), r.summary) for i, r in enumerate(sc.special_rules)]
    if sc.reconstruction is not None:
        fields.append((doc, ("reconstruction", "note"), sc.reconstruction.note))
    try:
        context = scenario_context(data, layout, loaded)
    except KeyError:
        return out  # a unit or leader id verify reports
    from pipeline.render.legible import PT_PER_MM

    _check("genpei/scenario_sheet.yaml.j2", context, fields, out, (PT_PER_MM, "print"))
    if sc.map == "not public":
        _check("genpei/setup_notice.yaml.j2", {"scenario": {"code": sc.code, "title": sc.title}}, fields[:1] + fields[3:4], out, (1.0, "screen"))
    return out


def check_fit(data: Any) -> None:
    """Refuse ``data`` whose texts do not fit where the templates draw them (:func:`problems`):
    verification's check, run by ``gunbai verify``, the builds and the renderers after loading.

    Raises:
        DataError: every such text, with its file, line and value.
    """
    DataError.check(problems(data))
