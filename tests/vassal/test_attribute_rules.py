"""Lint knows how VASSAL 3.7.26 parses every attribute (issue 10, part 2).

The rules table (:mod:`pipeline.vassal.attribute_rules_data`) is generated from the VASSAL
3.7.26 source by ``scripts/gen_attribute_rules.py``; the expected outcomes below were worked by
hand from the Java files each test cites (tag 3.7.26, ``vassal-app/src/main/java/``).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from lxml import etree

from pipeline.vassal.archive import archive_bytes
from pipeline.vassal.attribute_rules import (
    AttributeRule,
    check_attribute,
    has_rules,
    java_problem,
    rule_for,
)
from pipeline.vassal.attribute_rules_data import ATTRIBUTES_IGNORED, RULES
from pipeline.vassal.classes import ALLOWED_CHILDREN
from pipeline.vassal.components import TEXT_CHILDREN
from pipeline.vassal.lint import lint, lint_bytes

ROOT = Path(__file__).resolve().parents[2]

ROOT_DIR = Path(__file__).resolve().parents[2]
DATA = ROOT_DIR / "source_data"
FIXTURES = ROOT_DIR / "tests" / "fixtures" / "vassal"
VM = "VASSAL.build.module."
LOS = VM + "map.LOS_Thread"
EPOCH = 1735689600
SYSTEMS = ("genpei", "ohw", "ronin", "sekigahara")


@pytest.fixture(scope="module")
def built(shipped_build) -> Path:
    """Every system as ``pipeline.build`` writes it (each module is linted on the way)."""
    return shipped_build


def entries_of(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def with_buildfile(path: Path, root: etree._Element) -> bytes:
    entries = entries_of(path)
    entries["buildFile.xml"] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    return archive_bytes(entries, EPOCH)


def attribute_findings(findings) -> list:
    return [f for f in findings if "VASSAL 3.7.26 reads it with" in f.message]


# ----------------------------------------------------------------- (1) everything gunbai writes


def test_every_attribute_gunbai_writes_parses_as_vassal_reads_it(built):
    buildfiles = sorted(built.glob("*/*.vmod")) + sorted(built.glob("*/*.vmdx"))
    assert {p.parent.name for p in buildfiles} == set(SYSTEMS)
    assert any(p.suffix == ".vmdx" for p in buildfiles)
    checked: dict[str, int] = {}
    los_scales = {}
    for path in buildfiles:
        root = etree.fromstring(entries_of(path)["buildFile.xml"])
        for el in root.iter():
            if not isinstance(el.tag, str) or el.tag == VM + "ExtensionElement":
                continue
            parent = el.getparent()
            if parent is not None and parent.tag in TEXT_CHILDREN:
                continue  # a text-only child (roster side, option, board setup), not a class
            # every class gunbai writes is covered by the table read from setAttribute
            assert has_rules(el.tag), el.tag
            for attr, value in el.attrib.items():
                rule = rule_for(el.tag, attr)
                if rule is None:
                    continue
                assert java_problem(rule, value) is None, (path.name, el.tag, attr, value)
                assert check_attribute(el.tag, attr, value, is_root=el is root) is None
                checked[rule.kind] = checked.get(rule.kind, 0) + 1
                if el.tag == LOS and attr == "scale":
                    los_scales[path.parent.name] = value
        # an extension on the base module the build made it for (extension_bases.tsv)
        base_of = dict(line.split("\t")[:2] for line in (path.parent / "extension_bases.tsv").read_text().splitlines()) \
            if path.suffix == ".vmdx" else {}
        findings = lint(path) if path.suffix == ".vmod" else lint_bytes(
            path.read_bytes(), path.name, base=(path.parent / base_of[path.name]).read_bytes())
        assert attribute_findings(findings) == []
    # the range threads of the measured systems are whole pixels per inch, read as int
    ppi = {s: str(yaml.safe_load((ROOT / "source_data" / s / "system.yaml").read_text())["vassal"]["px_per_inch"]) for s in ("ohw", "ronin", "sekigahara")}
    assert los_scales == ppi and all(v.isdigit() for v in ppi.values())
    # what gunbai writes spans these parse kinds (no HotKeyConfigurer key stroke: StackMetrics
    # keys are left to their defaults)
    for kind in ("int", "double", "bool", "bool_exact", "color", "named_key", "enum",
                 "double_list"):
        assert checked.get(kind, 0) > 0, (kind, checked)


# ----------------------------------------------------------------- (2) "24.0" for an integer


def test_decimal_in_an_integer_attribute_is_an_error(built):
    path = built / "genpei" / "samurai_battles.vmod"
    root = etree.fromstring(entries_of(path)["buildFile.xml"])
    grid = next(root.iter(VM + "map.boardPicker.board.HexGrid"))
    grid.set("x0", "24.0")  # HexGrid.setAttribute: Integer.valueOf
    errs = [str(f) for f in lint_bytes(with_buildfile(path, root), "samurai_battles.vmod")
            if f.severity == "error"]
    assert len(errs) == 1, errs
    assert 'HexGrid: x0="24.0" is not an integer' in errs[0]
    assert "Integer.valueOf (HexGrid.setAttribute, " in errs[0]
    assert "IllegalBuildException" in errs[0]


def test_decimal_in_the_module_root_stops_the_module(built):
    path = built / "ohw" / "ohw.vmod"
    root = etree.fromstring(entries_of(path)["buildFile.xml"])
    root.set("nextPieceSlotId", "24.0")  # GameModule.setAttribute rethrows IllegalBuildException
    msgs = [f.message for f in lint_bytes(with_buildfile(path, root), "ohw.vmod")
            if f.severity == "error" and "reads it with" in f.message]
    assert msgs == ['nextPieceSlotId="24.0" is not an integer: VASSAL 3.7.26 reads it with '
                    "Integer.parseInt (GameModule.setAttribute, VASSAL/build/GameModule.java), "
                    "expecting an integer from -2147483648 to 2147483647, and fails to load the "
                    "module"]


# ----------------------------------------------------------------- (3) the modules before the fix


@pytest.mark.parametrize("system,old", [("ohw", "24.0"), ("ronin", "56.0"),
                                        ("sekigahara", "16.0")])
def test_los_thread_as_written_before_the_fix_is_an_error(built, system, old):
    before = etree.parse(str(FIXTURES / "before_issue10" / "los_thread.xml")).getroot()
    old_el = before.find(f"module[@system='{system}']/{LOS}")
    assert old_el.get("scale") == old
    path = built / system / f"{system}.vmod"
    root = etree.fromstring(entries_of(path)["buildFile.xml"])
    new_el = next(root.iter(LOS))
    new_el.getparent().replace(new_el, old_el)
    errs = [str(f) for f in lint_bytes(with_buildfile(path, root), path.name)
            if f.severity == "error"]
    assert len(errs) == 1, errs
    assert "/map.LOS_Thread[Range]: " in errs[0]
    assert (f'scale="{old}" is not an integer: VASSAL 3.7.26 reads it with Integer.valueOf '
            "(LOS_Thread.setAttribute, VASSAL/build/module/map/LOS_Thread.java)") in errs[0]
    assert "the LOS_Thread is not loaded" in errs[0]


# ----------------------------------------------------------------- (4) hand-checked rules


def outcome(tag: str, attr: str, value: str) -> str:
    found = check_attribute(tag, attr, value)
    return "ok" if found is None else found[0]


def test_table_rows_match_the_java_read_by_hand():
    # LOS_Thread.java, setAttribute: RANGE_SCALE ("scale") -> Integer.valueOf, no catch
    assert rule_for(LOS, "scale") == AttributeRule(
        "int", "throw", "Integer.valueOf", "VASSAL/build/module/map/LOS_Thread.java",
        "LOS_Thread.setAttribute", (), False, "")
    # HexGrid.java, setAttribute: DX ("dx") -> Double.valueOf
    assert rule_for(VM + "map.boardPicker.board.HexGrid", "dx")[:3] == (
        "double", "throw", "Double.valueOf")
    # StackMetrics.java: EXSEP_X -> Integer.parseInt in a try, catch NumberFormatException ->
    # ErrorDialog.dataWarning(BadDataReport) and the default
    assert rule_for(VM + "map.StackMetrics", "exSepX")[:3] == ("int", "bad_data",
                                                               "Integer.parseInt")
    # PieceSlot.java, build(Element): Integer.parseInt(e.getAttribute(WIDTH)) caught -> default
    assert rule_for("VASSAL.build.widget.PieceSlot", "width")[:2] == ("int", "default")
    assert rule_for("VASSAL.build.widget.PieceSlot", "width").method == "PieceSlot.build"
    # Map.java hotkey goes to its LaunchButton: LaunchButton.setAttribute -> NamedHotKeyConfigurer
    assert rule_for(VM + "Map", "hotkey")[:5] == (
        "named_key", "default", "NamedHotKeyConfigurer.decode", "VASSAL/tools/LaunchButton.java",
        "LaunchButton.setAttribute")
    # ExtensionElement.build reads only "target": its other attributes are never parsed
    assert VM + "ExtensionElement" in ATTRIBUTES_IGNORED


def test_colour_rules_from_colorconfigurer():
    # VASSAL/configure/ColorConfigurer.java stringToColor: "" and "null" -> no colour; 0x ->
    # Color.decode (Integer.decode); else StringTokenizer(",") + Integer.parseInt (no trim);
    # new Color() needs 0-255; bad -> ErrorDialog.dataWarning ("Bad Data in Module"), black
    t = VM + "map.LOS_Thread"
    assert outcome(t, "threadColor", "255,0,0") == "ok"
    assert outcome(t, "threadColor", "255,0,0,128") == "ok"
    assert outcome(t, "threadColor", "1,2,3,4,5") == "ok"  # > 3 tokens: the first four
    assert outcome(t, "threadColor", "255,,0,0") == "ok"  # empty tokens are skipped
    assert outcome(t, "threadColor", "0xFF0000") == "ok"
    assert outcome(t, "threadColor", "") == "ok"
    assert outcome(t, "threadColor", "null") == "ok"
    assert outcome(t, "threadColor", "255, 0, 0") == "error"  # " 0": NumberFormatException
    assert outcome(t, "threadColor", "256,0,0") == "error"  # Color(): IllegalArgumentException
    assert outcome(t, "threadColor", "255,0") == "error"  # NoSuchElementException
    assert outcome(t, "threadColor", "red") == "error"
    assert outcome(t, "threadColor", "0xFFFFFFFF") == "error"  # above Integer.MAX_VALUE
    assert "Bad Data in Module" in check_attribute(t, "threadColor", "red")[1]


def test_key_stroke_rules_from_the_hotkey_configurers():
    # VASSAL/configure/HotKeyConfigurer.java decode: no comma -> null; else parseInt of the
    # text before and after the first comma, IllegalArgumentException -> null (no key)
    sm = VM + "map.StackMetrics"
    assert outcome(sm, "top", "38,130") == "ok"
    assert outcome(sm, "top", "") == "ok"
    assert outcome(sm, "top", "38,130,Up") == "warning"  # "130,Up" is not an int
    assert outcome(sm, "top", "Up") == "warning"
    # VASSAL/configure/NamedHotKeyConfigurer.java decode: split(","), < 2 parts -> NULL; parts
    # 0 and 1 parsed, any Exception -> NULL_KEYSTROKE; part 2 is the name
    m = VM + "Map"
    assert outcome(m, "hotkey", "65,130") == "ok"
    assert outcome(m, "hotkey", "65,130,Show map") == "ok"
    assert outcome(m, "hotkey", "65") == "warning"
    assert outcome(m, "hotkey", "A,CTRL") == "warning"
    assert "no key" in check_attribute(m, "hotkey", "65")[1]


def test_boolean_rules():
    # HexGrid.java VISIBLE: Boolean.valueOf -> "true" in any case is true, everything else false
    g = VM + "map.boardPicker.board.HexGrid"
    assert outcome(g, "visible", "true") == "ok"
    assert outcome(g, "visible", "TRUE") == "ok"
    assert outcome(g, "visible", "false") == "ok"
    assert outcome(g, "visible", "yes") == "warning"
    # DrawPile.java ALLOW_MULTIPLE: "true".equals(value) -> case-sensitive
    d = VM + "map.DrawPile"
    assert outcome(d, "allowMultiple", "true") == "ok"
    assert outcome(d, "allowMultiple", "TRUE") == "warning"
    assert "as false" in check_attribute(d, "allowMultiple", "TRUE")[1]


def test_enum_rules():
    # LOS_Thread.java RANGE_ROUNDING: ROUND_UP.equals / ROUND_DOWN.equals, else 0.5 (nearest);
    # RoundingOptions.getValidValues: "Up", "Down", "Nearest whole number"
    assert rule_for(LOS, "round").values == ("Up", "Down", "Nearest whole number")
    assert outcome(LOS, "round", "Up") == "ok"
    assert outcome(LOS, "round", "Nearest whole number") == "ok"
    assert outcome(LOS, "round", "up") == "warning"  # String.equals is case-sensitive
    # TurnTracker.java LENGTH_STYLE: compared with the three styles, no else: ignored
    tt = VM + "turn.TurnTracker"
    assert rule_for(tt, "lengthStyle")[:2] == ("enum", "ignored")
    assert outcome(tt, "lengthStyle", "Fixed") == "ok"
    assert outcome(tt, "lengthStyle", "fixed") == "warning"


def test_list_rules():
    # Zoomer.java ZOOM_LEVELS: StringArrayConfigurer.stringToArray, then Double.valueOf of each
    # item with no catch -> NumberFormatException stops the Zoomer
    z = VM + "map.Zoomer"
    assert rule_for(z, "zoomLevels").kind == "double_list"
    assert outcome(z, "zoomLevels", "0.25,0.5,1.0,1.6") == "ok"
    assert outcome(z, "zoomLevels", "0.25,half,1.0") == "error"
    # MassKeyCommand.java PROPERTIES_FILTER names: a plain string list, nothing can fail
    assert rule_for(VM + "map.MassKeyCommand", "names").kind == "list"
    assert outcome(VM + "map.MassKeyCommand", "names", "a,b\\,c") == "ok"


def test_number_rules_follow_java():
    # Integer.parseInt: optional sign, decimal digits, int range; no spaces, no decimals
    g = VM + "map.boardPicker.board.HexGrid"
    for good in ("0", "-12", "+12", "2147483647"):
        assert outcome(g, "x0", good) == "ok", good
    for bad in ("12.0", " 12", "12 ", "", "2147483648", "1e3", "0x10"):
        assert outcome(g, "x0", bad) == "error", bad
    # Double.valueOf: trims, accepts exponents, NaN/Infinity, f/d suffixes, hex floats
    for good in ("42.5", "42", " 42.5 ", "1e2", ".5", "5.", "-Infinity", "3.0f", "0x1p3"):
        assert outcome(g, "dx", good) == "ok", good
    for bad in ("42,5", "", "4 2", "1e", "nan"):
        assert outcome(g, "dx", bad) == "error", bad
    # RegularGridNumbering.java FIRST: ((String) value).charAt(0): "" throws
    # StringIndexOutOfBoundsException, which Builder rethrows: the module does not load
    n = VM + "map.boardPicker.board.mapgrid.HexGridNumbering"
    assert outcome(n, "first", "H") == "ok"
    assert check_attribute(n, "first", "") == (
        "error", 'first="" is empty: VASSAL 3.7.26 reads it with ((String) value).charAt '
        "(RegularGridNumbering.setAttribute, VASSAL/build/module/map/boardPicker/board/mapgrid/"
        "RegularGridNumbering.java), expecting at least one character, and fails: the "
        "exception stops the module loading")
    # PieceSlot.java build: a bad width is caught, DEFAULT_SIZE used silently
    assert outcome("VASSAL.build.widget.PieceSlot", "width", "wide") == "warning"


# ----------------------------------------------------------------- (5) third-party modules


@pytest.mark.parametrize("name,at_least", [("almoravid", 4000), ("bushido_risen_sun", 700),
                                           ("vive_lempereur", 1000)])
def test_third_party_attributes_all_parse(name, at_least):
    """VASSAL opens these modules: no attribute of theirs may be reported, and the rules must
    actually cover them (thousands of typed values)."""
    from tests.vassal.corpus import fixture_entries

    entries = fixture_entries(name)
    xml = entries.get("buildFile.xml") or entries["buildFile"]
    assert attribute_findings(lint_bytes(xml, "buildFile.xml")) == []
    root = etree.fromstring(xml)
    covered = sum(1 for el in root.iter() if isinstance(el.tag, str)
                  for attr in el.attrib if rule_for(el.tag, attr) is not None)
    assert covered >= at_least


# ----------------------------------------------------------------- the table and its generator


def test_table_covers_every_class_lint_knows():
    # every class lint knows: its attributes are parsed as the table says, or never handed to
    # setAttribute at all
    missing = [tag for tag in ALLOWED_CHILDREN if not has_rules(tag)]
    assert missing == []
    assert "VASSAL.build.module.map.LOS_Thread" in RULES
    for rows in RULES.values():
        for row in rows.values():
            rule = AttributeRule(*row)
            assert rule.java_file.startswith("VASSAL/") and rule.java_file.endswith(".java")
            assert "." in rule.method
            assert rule.on_bad in ("throw", "abort", "bad_data", "default", "ignored", "none")


def _generator():
    spec = importlib.util.spec_from_file_location("gen_attribute_rules",
                                                  ROOT_DIR / "scripts" / "gen_attribute_rules.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_attribute_rules"] = mod
    spec.loader.exec_module(mod)
    return mod


JAVA_SAMPLE = {
    # Our own small classes in the shapes VASSAL uses (not VASSAL code).
    "VASSAL/build/AbstractBuildable.java": """
package VASSAL.build;
public abstract class AbstractBuildable {
  public void build(Element e) {
    for (int i = 0; i < n.getLength(); ++i) { setAttribute(att.getName(), att.getValue()); }
  }
}
""",
    "VASSAL/build/module/Sample.java": """
package VASSAL.build.module;
import VASSAL.build.AbstractBuildable;
import VASSAL.configure.ColorConfigurer;
public class Sample extends Base {
  public static final String SIZE = "size";
  public static final String RATIO = "ratio";
  public static final String SHOW = "show";
  public static final String TINT = "tint";
  public static final String MODE = "mode";
  public static final String SAFE = "safe";
  public void setAttribute(String key, Object value) {
    if (SIZE.equals(key)) {
      if (value instanceof String) { value = Integer.valueOf((String) value); }
      size = (Integer) value;
    }
    else if (RATIO.equals(key)) { ratio = Double.parseDouble((String) value); }
    else if (key.equals(SHOW)) { show = "true".equals(value); }
    else if (TINT.equals(key)) { tint = ColorConfigurer.stringToColor((String) value); }
    else if (MODE.equals(key)) {
      if ("a".equals(value)) { mode = 1; } else if ("b".equals(value)) { mode = 2; }
    }
    else if (SAFE.equals(key)) {
      try { safe = Integer.parseInt((String) value); }
      catch (NumberFormatException e) { safe = 0; }
    }
    else { super.setAttribute(key, value); }
  }
}
""",
    "VASSAL/build/module/Base.java": """
package VASSAL.build.module;
import VASSAL.build.AbstractBuildable;
public class Base extends AbstractBuildable {
  public static final String ON = "on";
  public void setAttribute(String key, Object value) {
    if (ON.equals(key)) { on = Boolean.valueOf((String) value); }
  }
}
""",
    "VASSAL/configure/ColorConfigurer.java": """
package VASSAL.configure;
public class ColorConfigurer {
  public static Color stringToColor(String s) {
    try { return new Color(Integer.parseInt(s), 0, 0); }
    catch (NumberFormatException e) { ErrorDialog.dataWarning(new BadDataReport("x", s, e)); }
    return Color.BLACK;
  }
}
""",
}


def test_generator_reads_setattribute_shapes(tmp_path):
    gen = _generator()
    for rel, text in JAVA_SAMPLE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    an = gen.Analyzer(gen.JavaIndex(tmp_path))
    ci = an.ix.get("VASSAL.build.module.Sample")
    assert an.build_target(ci)[0] == "setAttribute"
    rules = {k: (r.kind, r.on_bad, r.parser, r.method) for k, r in an.rules_for(ci, []).items()}
    assert rules["size"] == ("int", "throw", "Integer.valueOf", "Sample.setAttribute")
    assert rules["ratio"] == ("double", "throw", "Double.parseDouble", "Sample.setAttribute")
    assert rules["show"] == ("bool_exact", "default", '"true".equals', "Sample.setAttribute")
    assert rules["tint"] == ("color", "bad_data", "ColorConfigurer.stringToColor",
                             "Sample.setAttribute")
    assert rules["mode"][:2] == ("enum", "ignored")
    assert rules["safe"] == ("int", "default", "Integer.parseInt", "Sample.setAttribute")
    assert rules["on"] == ("bool", "default", "Boolean.valueOf", "Base.setAttribute")


def _vassal_source() -> str | None:
    for git_dir in (os.environ.get("VASSAL_GIT_DIR", ""), "/work/.mirror/vassalengine+vassal/repo"):
        if git_dir and Path(git_dir).is_dir():
            return git_dir
    return None


@pytest.mark.skipif(_vassal_source() is None, reason="no clone of the VASSAL source here "
                    "(set VASSAL_GIT_DIR to check the committed table against it)")
def test_committed_table_is_what_the_generator_writes(tmp_path):
    gen = _generator()
    out = tmp_path / "rules.py"
    assert gen.main(["--git-dir", _vassal_source(), "--out", str(out)]) == 0
    committed = ROOT_DIR / "pipeline" / "vassal" / "attribute_rules_data.py"
    assert out.read_text() == committed.read_text()
