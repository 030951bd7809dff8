"""Traits and piece strings (§3.2-3.5), including the §3.3 worked example."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.vassal.pieces import (
    PieceDecodeError,
    PieceDefinition,
    decode_add_piece,
    nest,
    stack_command,
    unnest_state,
    unnest_type,
)
from pipeline.vassal.traits import (
    CTRL,
    BasicPiece,
    Clone,
    Delete,
    DynamicProperty,
    FreeRotator,
    Label,
    Layer,
    Marker,
    PropertyCommand,
    RawTrait,
    ReportState,
    Restricted,
    UsePrototype,
    keystroke,
    named_key,
)

T = "\t"
BS = "\\"
# §3.3 worked example, written with explicit TABs and backslashes.
WORKED = (
    "+/null/prototype;Unit" + T
    + "emb2;;128;A;;128;;;128;;;;1;false;0;0;ger_inf.png,ger_inf_back.png;,+ (reduced);true;"
    "Step;;;false;;1;1;true;;70,130;;;1.0;;true" + BS + T
    + "mark;Side,Type" + BS * 2 + T
    + "piece;;;ger_inf.png;German Infantry/" + T
    + "1" + BS + T + "Axis,Infantry" + BS * 2 + T + "null;0;0;12;0"
)


def worked_piece(gpid="12"):
    return PieceDefinition(
        [
            UsePrototype("Unit"),
            Layer(("ger_inf.png", "ger_inf_back.png"), ("", "+ (reduced)"), name="Step",
                  increase_key=keystroke(ord("F"), CTRL)),
            Marker(("Side", "Type"), ("Axis", "Infantry")),
        ],
        BasicPiece("ger_inf.png", "German Infantry", gpid=gpid),
    )


def test_worked_example_byte_for_byte():
    assert worked_piece().slot_text() == WORKED
    assert WORKED.count(T) == 6


def test_worked_example_decodes():
    d = decode_add_piece(WORKED)
    assert d.id == "null"
    assert d.trait_ids == ["prototype;", "emb2;", "mark;", "piece;"]
    assert [s for _, s in d.levels] == ["", "1", "Axis,Infantry", "null;0;0;12;0"]
    assert (d.image, d.name, d.map_name, d.x, d.y, d.gpid) == (
        "ger_inf.png", "German Infantry", "null", 0, 0, "12")
    assert d.prototype_names == ["Unit"]
    assert d.unknown_trait_ids == []


def test_layer_has_33_fields():
    t = worked_piece().traits[1].type_string()
    assert t.startswith("emb2;")
    assert len(t[5:].split(";")) == 33


def test_trait_vectors_from_spec():
    assert Delete().type_string() == "delete;Delete;68,130;"
    assert Clone().type_string() == "clone;Clone;67,130;"
    assert Restricted(("Axis",)).type_string() == "restrict;Axis;false;true;"
    assert ReportState(("68,130",), "$location$: $newPieceName$ deleted *").type_string() == (
        "report;68\\,130;$location$: $newPieceName$ deleted *;;;;false")
    assert FreeRotator(6, "93,130", "91,130", name="Facing").type_string() == (
        "rotate;6;93,130;91,130;Rotate CW;Rotate CCW;;;Facing;;;;;true")
    assert Label("", key="76,130", menu_text="Change Label", font_size=13,
                 background="51,204,255", foreground="255,0,51", vertical_pos="c",
                 vertical_offset=4, horizontal_pos="l", horizontal_offset=4,
                 vertical_justify="t", horizontal_justify="r", font_family="DialogInput",
                 font_style=3, rotation=90, property_name="TextLabel2",
                 description="A Label").type_string() == (
        "label;76,130;Change Label;13;51,204,255;255,0,51;c;4;l;4;t;r;$pieceName$ ($label$);"
        "DialogInput;3;90;TextLabel2;A Label;false")
    dp = DynamicProperty("Strength", "5", numeric=True, minimum=0, maximum=10, commands=(
        PropertyCommand("Increase", "73,130", "I", ("1",)),
        PropertyCommand("Decrease", "68,130", "I", ("-1",))))
    assert dp.type_string() == (
        "PROP;Strength;true,0,10,false;Increase:73\\,130:I\\,1,Decrease:68\\,130:I\\,-1;")
    assert dp.state_string() == "5"
    assert named_key("Flip") == "0,0,Flip"
    assert FreeRotator(1).state_string() == "0.0"


def test_trait_validation():
    with pytest.raises(ValueError):
        Layer(("a.png",), ("x", "y"))
    with pytest.raises(ValueError):
        Layer(("a.png",), value=2)
    with pytest.raises(ValueError):
        Marker(("a", "b"), ("1",))
    with pytest.raises(ValueError):
        RawTrait("noid")
    with pytest.raises(ValueError):
        FreeRotator(0)


def test_placed_and_add_piece_command():
    cmd = worked_piece().add_piece_command("1001", "Main Map", 250, 310)
    d = decode_add_piece(cmd)
    assert (d.id, d.map_name, d.x, d.y, d.gpid) == ("1001", "Main Map", 250, 310, "12")


def test_stack_command():
    cmd = stack_command("2001", "Main Map", 250, 310, ["1001", "1002"])
    assert cmd == "+/2001/stack/Main Map;250;310;1001;1002;@@0"
    d = decode_add_piece(cmd)
    assert d.kind == "stack" and d.stack.piece_ids == ("1001", "1002") and d.stack.layer == 0


def test_decode_errors():
    with pytest.raises(PieceDecodeError, match=r"\+/"):
        decode_add_piece("null/piece;;;;/null;0;0;;0")
    with pytest.raises(PieceDecodeError, match="3"):
        decode_add_piece("+/null/piece;;;;")
    with pytest.raises(PieceDecodeError, match="innermost"):
        decode_add_piece("+/null/mark;A/x")
    short = "+/null/mark;A\tpiece;;;;/null;0;0;;0"
    with pytest.raises(PieceDecodeError, match="1 level"):
        decode_add_piece(short)
    extra = "+/null/piece;;;;/x\tnull;0;0;;0"
    with pytest.raises(PieceDecodeError, match="levels"):
        decode_add_piece(extra)
    with pytest.raises(PieceDecodeError, match="integer"):
        decode_add_piece("+/null/piece;;;;/null;a;0;;0")


def test_unknown_trait_id_reported():
    d = decode_add_piece("+/null/bogus;x\tpiece;;;;/\tnull;0;0;;0")
    assert d.unknown_trait_ids == ["bogus;"]


TEXT = st.text(alphabet=st.sampled_from(list(";/\\'\t,:aZ é字")), max_size=8).filter(
    lambda s: not s.endswith("\\") and s == s.strip())
SAFE = st.text(alphabet=st.sampled_from(list("abc XYZ.é字-_")), max_size=8).filter(
    lambda s: s == s.strip())


@st.composite
def pieces(draw):
    traits = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.integers(0, 4))
        if kind == 0:
            n = draw(st.integers(1, 3))
            traits.append(Marker(tuple(draw(st.lists(SAFE.filter(bool), min_size=n, max_size=n))),
                                 tuple(draw(st.lists(TEXT, min_size=n, max_size=n)))))
        elif kind == 1:
            traits.append(Label(draw(TEXT), menu_text=draw(TEXT)))
        elif kind == 2:
            traits.append(UsePrototype(draw(SAFE.filter(bool))))
        elif kind == 3:
            traits.append(DynamicProperty(draw(SAFE), draw(TEXT)))
        else:
            traits.append(RawTrait("cmt;" + draw(TEXT), draw(TEXT)))
    notab = TEXT.filter(lambda s: "\t" not in s)
    basic = BasicPiece(draw(notab), draw(notab), gpid=str(draw(st.integers(0, 999))),
                       properties=tuple(draw(st.lists(st.tuples(SAFE, notab), max_size=2))))
    return PieceDefinition(traits, basic)


@given(pieces())
def test_nested_piece_round_trip(piece):
    d = decode_add_piece(piece.slot_text())
    assert list(d.levels) == piece.levels()
    assert d.basic.image == piece.basic.image and d.basic.name == piece.basic.name
    assert d.basic.properties == piece.basic.properties


@given(st.lists(TEXT, min_size=0, max_size=5), TEXT)
def test_nest_unnest(outer, inner):
    levels = [*outer, "piece;" + inner]  # the innermost level is always a piece; (§3.2)
    if "\t" in levels[-1]:
        with pytest.raises(ValueError):
            nest(levels)
        return
    assert unnest_state(nest(levels), len(levels)) == levels
    assert unnest_type(nest(levels)) == levels


def test_basic_piece_rejects_tab():
    with pytest.raises(ValueError, match="TAB"):
        BasicPiece("a.png", "a\tb")


@settings(max_examples=1000)
@given(st.text(alphabet=st.sampled_from(list("ab/;'\\\t")), max_size=16))
def test_add_piece_split_agrees_with_decode(body):
    """The direct cut of ``+/id/type/state`` is ``decode(body, "/")`` on any body."""
    from pipeline.vassal.pieces import _split_add_piece
    from pipeline.vassal.sequence import decode

    assert _split_add_piece("+/" + body) == decode(body, "/")
