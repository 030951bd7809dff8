"""Findings in a prototype no piece uses are warnings, not errors (``used_prototypes``).

VASSAL 3.7.26 keeps a PrototypeDefinition as text (``PrototypeDefinition.build``) and decodes
it only when a piece carrying ``prototype;Name`` is expanded (``UsePrototype.buildPrototype`` →
``PrototypesContainer.getPrototype(name)`` → ``PrototypeDefinition.getPiece``); pieces come
from PieceSlots, saves and Place Marker / Replace definitions. So a missing image or a
missing prototype inside a prototype nothing names is never shown to a player: fragile (the
first piece made to use it shows it), not broken. Each case is a small module built here: the
prototype ``Faded`` has a Layer naming the missing ``ghost.png`` and uses the missing prototype
``Nowhere``.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from pipeline.vassal.archive import archive_bytes
from pipeline.vassal.lint import ERROR, UNUSED_PROTOTYPE, WARNING, lint_bytes
from pipeline.vassal.pieces import add_piece_command, nest
from pipeline.vassal.sequence import encode
from tests.vassal.corpus import standin_class
from tests.vassal.test_vassal_lint_cases import (
    EPOCH,
    VM,
    buildfile,
    module,
    piece,
    save_bytes,
    slot,
)

#: A Layer (emb2) whose two levels show ``ghost.png`` (not in the archive) and ``inf.png``.
LAYER = "emb2;;0;;Flip;2;F;;0;;;114,195;1;false;0;0;ghost.png,inf.png;,;true;;;;false;;0"
#: The two findings of ``Faded`` (its path in the buildFile, then the message's start).
FADED = "buildFile.xml GameModule[Case Module]/PrototypesContainer/PrototypeDefinition[Faded]"
IMAGE = "piece image 'ghost.png' not found"
MISSING = "prototype 'Nowhere' does not exist"


def prototype(name: str, text: str) -> str:
    return f'<{VM}PrototypeDefinition name="{name}">{escape(text)}</{VM}PrototypeDefinition>'


def faded() -> str:
    """The definition of ``Faded``: the Layer and the missing prototype over a blank piece."""
    return prototype("Faded", piece(image="", name="", gpid="",
                                    traits=(LAYER, "prototype;Nowhere"), states=("1", "")))


def user(proto: str, name: str = "Inf", gpid: str = "1") -> str:
    """PieceSlot text of a piece using the prototype ``proto``."""
    return piece(name=name, gpid=gpid, traits=(f"prototype;{proto}",), states=("",))


def lint_module(slots: str = "", prototypes: str = "", extra: str = "", **entries: bytes):
    container = f"<{VM}PrototypesContainer>{faded()}{prototypes}</{VM}PrototypesContainer>"
    ents = module(buildfile(slots=slots, extra=container + extra), **entries)
    return lint_bytes(archive_bytes(ents, EPOCH), "case.vmod")


def faded_findings(findings) -> list[tuple[str, str]]:
    """``(severity, message start)`` of the findings on ``Faded``, in order."""
    return [(f.severity, f.message.split(":")[0].split(" (")[0]) for f in findings
            if f"{f.entry} {f.element_path}" == FADED]


def assert_errors(findings) -> None:
    assert faded_findings(findings) == [(ERROR, MISSING), (ERROR, IMAGE)], findings
    assert not any(f.message.endswith(UNUSED_PROTOTYPE) for f in findings)


def test_a_prototype_no_piece_uses_gives_warnings():
    findings = lint_module()
    assert faded_findings(findings) == [(WARNING, MISSING), (WARNING, IMAGE)], findings
    assert [str(f) for f in findings if f.severity == ERROR] == []
    image = next(str(f) for f in findings if IMAGE in f.message)
    assert image == (f"warning: {FADED}: piece image 'ghost.png' not found: no images/ghost.png "
                     "in the archive or VASSAL's jar; 'Image not found' when drawn (§1, §7.3)"
                     + UNUSED_PROTOTYPE)


def test_a_slot_naming_the_prototype_keeps_the_errors():
    assert_errors(lint_module(slots=slot("Inf", "1", escape(user("Faded")))))


def test_a_setup_piece_naming_the_prototype_keeps_the_errors():
    """Saves keep ``prototype;Faded`` unexpanded (``UsePrototype.myGetType``): a piece of a
    predefined setup is built with it when the setup loads."""
    placed = add_piece_command("7", nest(["prototype;Faded", "piece;;;inf.png;Inf"]),
                               nest(["", "Main Map;100;100;1;0"]))
    setup = f'<{VM}PredefinedSetup file="s.vsav" isMenu="false" name="S" useFile="true"/>'
    findings = lint_module(extra=setup, s_DOT_vsav=save_bytes(["begin_save", placed, "end_save"]))
    assert_errors(findings)
    # without the setup, the same module has only the warnings
    assert faded_findings(lint_module())[0][0] == WARNING


def test_a_used_prototype_naming_it_keeps_the_errors():
    outer = prototype("Outer", piece(image="", name="", gpid="", traits=("prototype;Faded",),
                                     states=("",)))
    assert_errors(lint_module(slots=slot("Inf", "1", escape(user("Outer"))), prototypes=outer))


def test_an_unused_prototype_naming_it_does_not_make_it_used():
    outer = prototype("Outer", piece(image="", name="", gpid="", traits=("prototype;Faded",),
                                     states=("",)))
    findings = lint_module(prototypes=outer)
    assert faded_findings(findings) == [(WARNING, MISSING), (WARNING, IMAGE)], findings


def _marker_slot(proto: str) -> str:
    """A slot whose Place Marker trait defines its marker inline, a piece using ``proto``
    (``PlaceMarker.createBaseMarker`` decodes that AddPiece when the trait fires)."""
    spec = add_piece_command("null", nest([f"prototype;{proto}", "piece;;;inf.png;M"]),
                             nest(["", "null;0;0;;0"]))
    mark = "placemark;" + encode(["Place", "80,130", spec, "null", "0", "0", "false", "",
                                  "Place", "5", "0", "false"], ";")
    return slot("Inf", "1", escape(piece(traits=(mark,), states=("",))))


def test_a_place_marker_definition_naming_it_keeps_the_errors():
    assert_errors(lint_module(slots=_marker_slot("Faded")))


def test_module_code_reaching_prototypes_keeps_the_errors():
    """A module class referring to ``PrototypesContainer`` may build pieces from any prototype
    by name (X-Wing's ``VassalXWSPilotPieces`` does): nothing can be proved unused."""
    code = standin_class("case/Builder", "VASSAL/build/module/PrototypesContainer")
    assert_errors(lint_module(case__Builder_DOT_class=code))
    other = standin_class("case/Other", "VASSAL/build/GameModule")
    findings = lint_module(case__Other_DOT_class=other)
    assert faded_findings(findings)[0][0] == WARNING


def test_any_fault_of_a_trait_in_an_unused_prototype_is_a_warning():
    """Not only images and prototypes: a Restricted Access naming a side the roster lacks (the
    Flashpoint: South China Sea corpus module's two Card Slot prototypes, copied from Almoravid
    with its sides) is never decoded while no piece uses the prototype; used by a slot, it is
    the error :func:`tests.vassal.test_vassal_lint28.test_restricted_to_the_observer_side`
    shows."""
    roster = f"<{VM}PlayerRoster><entry>Red</entry></{VM}PlayerRoster>"
    guarded = prototype("Guarded", piece(image="", name="", gpid="", traits=("restrict;Green;false;true;",),
                                         states=("",)))
    side = "side 'Green' is not a PlayerRoster side"
    unused = [f for f in lint_module(prototypes=guarded, extra=roster) if side in f.message]
    assert [(f.severity, f.message.endswith(UNUSED_PROTOTYPE)) for f in unused] == [(WARNING, True)]
    used = [f for f in lint_module(slots=slot("Inf", "1", escape(user("Guarded"))), prototypes=guarded, extra=roster)
            if side in f.message]
    assert [(f.severity, f.message.endswith(UNUSED_PROTOTYPE)) for f in used] == [(ERROR, False)]
