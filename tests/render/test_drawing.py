"""The generic renderer: parsing, drawing, determinism, fonts and errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageFont

from pipeline.render import RenderError, TemplateRenderer, draw, parse_drawing, png_bytes
from pipeline.render.fonts import font, font_path, has_glyph

ALL_PRIMITIVES = {
    "canvas": {"width": 100, "height": 80, "background": "#f4ecd8"},
    "shapes": [
        {"rect": {"x": 2, "y": 2, "w": 96, "h": 76, "radius": 6, "fill": "#b3202a80", "outline": "#000000", "width": 1.5}},
        {"circle": {"cx": 20, "cy": 20, "r": 10, "fill": "#2f8f3e"}},
        {"ellipse": {"cx": 50, "cy": 20, "rx": 12, "ry": 6, "outline": "navy", "width": 2, "dash": [3, 2]}},
        {"polygon": {"points": [[70, 10], [90, 10], [80, 30]], "fill": "#1f5cc4"}},
        {"hexagon": {"cx": 20, "cy": 50, "r": 10, "fill": "#aaaaaa", "pointy": False}},
        {"regular_polygon": {"cx": 45, "cy": 50, "r": 9, "sides": 5, "rotation": 10, "fill": "#d4a514"}},
        {"symbol": {"kind": "triangle", "cx": 70, "cy": 50, "size": 16, "fill": "#1f5cc4", "outline": "#000000"}},
        {"line": {"points": [[5, 70], [50, 75], [95, 70]], "colour": "#000000", "width": 1, "dash": [0, 3]}},
        {"arc": {"cx": 85, "cy": 60, "r": 8, "start": -90, "end": 90, "width": 2}},
        {"text": {"x": 50, "y": 40, "text": "僧兵 Sohei", "size": 9, "bold": True, "max_width": 40, "stroke_width": 0.5}},
        {"paragraphs": {"x": 5, "y": 60, "w": 40, "h": 15, "items": [{"text": "Two rules that wrap over lines.", "bullet": "•", "indent": 3, "size": 4}]}},
        {"group": {"rotate": 30, "about": [50, 40], "opacity": 0.5, "clip": {"circle": {"cx": 50, "cy": 40, "r": 15}},
                   "shapes": [{"rect": {"x": 30, "y": 35, "w": 40, "h": 10, "fill": "#000000"}}]}},
    ],
}


def test_every_primitive_draws_and_is_deterministic():
    d = parse_drawing(ALL_PRIMITIVES, source="test")
    a = png_bytes(draw(d, (200, 160)))
    b = png_bytes(draw(parse_drawing(ALL_PRIMITIVES, source="test"), (200, 160)))
    assert a == b
    img = draw(d, scale=3)
    assert img.size == (300, 240) and img.mode == "RGBA"


def test_png_has_no_metadata():
    img = Image.new("RGBA", (4, 4), "red")
    img.info["Software"] = "x"
    data = png_bytes(img)
    assert b"tEXt" not in data and b"tIME" not in data and b"pHYs" not in data


def _ink(img: Image.Image, bg: tuple[int, int, int]) -> int:
    raw = img.convert("RGB").tobytes()
    return sum(1 for i in range(0, len(raw), 3) if sum(abs(raw[i + k] - bg[k]) for k in range(3)) > 60)


def test_kanji_draws_ink_inside_its_box():
    doc = {"canvas": {"width": 100, "height": 40, "background": "#ffffff"},
           "shapes": [{"text": {"x": 50, "y": 20, "text": "僧兵", "size": 30, "colour": "#000000"}}]}
    img = draw(parse_drawing(doc), (200, 80))
    box = img.crop((38, 2, 162, 78))  # two 30-unit em boxes centred on x=50 units, at 2 px/unit
    ink = _ink(box, (255, 255, 255))
    assert ink > 600  # two dense kanji strokes, not blank
    assert _ink(img, (255, 255, 255)) == ink  # all the ink is inside the text box


def test_noto_has_real_glyphs_for_kanji_not_tofu():
    assert font_path().is_file() and font_path(bold=True).is_file()
    assert "Noto" in font(20).getname()[0]
    assert has_glyph("僧") and has_glyph("兵", bold=True)
    f = font(64)
    so, hei = f.getmask("僧"), f.getmask("兵")
    assert so.getbbox() is not None
    missing = f.getmask("\u0e01")  # Thai: not in Noto Sans CJK JP, drawn as .notdef (tofu)
    assert bytes(so) != bytes(hei)
    assert bytes(so) != bytes(missing) and bytes(hei) != bytes(missing)
    # Pillow's built-in bitmap font has no kanji: what a system-font fallback would risk
    default = ImageFont.load_default(size=64) if hasattr(ImageFont, "load_default") else None
    if default is not None and isinstance(default, ImageFont.FreeTypeFont):
        assert bytes(default.getmask("僧")) != bytes(so)


def test_fonts_are_cached():
    assert font(17) is font(17)
    assert font(17) is not font(17, bold=True)


def _template(tmp_path: Path, text: str) -> TemplateRenderer:
    (tmp_path / "t").mkdir(exist_ok=True)
    (tmp_path / "t" / "x.yaml.j2").write_text(text, encoding="utf-8")
    return TemplateRenderer(tmp_path)


def test_unknown_primitive_is_named(tmp_path):
    r = _template(tmp_path, "canvas: {width: 10, height: 10}\nshapes:\n  - circle: {cx: 5, cy: 5, r: 2}\n  - blob: {x: 1}\n")
    with pytest.raises(RenderError) as exc:
        r.image("t/x.yaml.j2", {}, width_px=20)
    msg = str(exc.value)
    assert "blob" in msg and "t/x.yaml.j2" in msg and "shapes[1]" in msg
    assert exc.value.primitive == "blob"


def test_bad_yaml_names_template_and_line(tmp_path):
    r = _template(tmp_path, "canvas: {width: 10, height: 10}\nshapes:\n  - text: {x: 1, y: 1, text: {{ s }}}\n")
    with pytest.raises(RenderError, match=r"t/x.yaml.j2.*not valid YAML.*line 3"):
        r.drawing("t/x.yaml.j2", {"s": "a: b, c}"})
    # the same string through tojson is fine
    r2 = _template(tmp_path, "canvas: {width: 10, height: 10}\nshapes:\n  - text: {x: 1, y: 1, text: {{ s | tojson }}}\n")
    d = r2.drawing("t/x.yaml.j2", {"s": 'a: "b", c} 僧'})
    assert d.shapes[0].params["text"] == 'a: "b", c} 僧'


def test_missing_and_unknown_parameters(tmp_path):
    with pytest.raises(RenderError, match=r"'rect'.*missing parameter 'h'"):
        parse_drawing({"canvas": {"width": 1, "height": 1}, "shapes": [{"rect": {"x": 0, "y": 0, "w": 1}}]})
    with pytest.raises(RenderError, match=r"'circle'.*unknown parameter.*colour"):
        parse_drawing({"canvas": {"width": 1, "height": 1}, "shapes": [{"circle": {"cx": 0, "cy": 0, "r": 1, "colour": "#000000"}}]})
    with pytest.raises(RenderError, match=r"not a colour"):
        parse_drawing({"canvas": {"width": 1, "height": 1}, "shapes": [{"circle": {"cx": 0, "cy": 0, "r": 1, "fill": "#zz0000"}}]})
    r = _template(tmp_path, "canvas: {width: 10, height: 10}\nshapes: [{{ nothing }}]\n")
    with pytest.raises(RenderError, match="undefined"):
        r.drawing("t/x.yaml.j2", {})


def test_text_shrinks_to_fit_and_wraps():
    from pipeline.render.drawing import _layout_text

    p = {"text": "A very long name that cannot fit", "size": 20.0, "bold": True, "max_width": 50.0, "max_height": None,
         "wrap": False, "min_size": None, "line_height": 1.2}
    lines, s = _layout_text(p, 1.0)
    assert lines == [p["text"]] and s < 20
    p.update(wrap=True, max_width=100.0, max_height=80.0, min_size=4.0)
    lines, s = _layout_text(p, 1.0)
    assert len(lines) > 1
    assert all(font(s, True).getlength(line) <= 100 for line in lines)


def _wrap_by_definition(text: str, size_px: int, bold: bool, max_width: float) -> list[str]:
    """Line breaking as the rule states it, measuring every candidate line from scratch: add
    tokens while the line (without trailing spaces) is no wider than ``max_width``; a word wider
    than a line is cut after its longest prefix that fits (at least one character)."""
    from pipeline.render.drawing import _TOKEN, text_length

    lines: list[str] = []
    for para in text.split("\n"):
        cur = ""
        for tok in _TOKEN.findall(para):
            if not cur.strip() or text_length((cur + tok).rstrip(), size_px, bold) <= max_width:
                cur += tok
            else:
                lines.append(cur.rstrip())
                cur = tok.lstrip()
            while len(cur.rstrip()) > 1:
                n = max([1] + [k for k in range(1, len(cur) + 1) if text_length(cur[:k], size_px, bold) <= max_width])
                if n >= len(cur.rstrip()):
                    break
                lines.append(cur[:n])
                cur = cur[n:]
        lines.append(cur.rstrip())
    return lines


def test_wrap_text_breaks_lines_as_measuring_each_line_from_scratch_would():
    """The incremental widths of :func:`wrap_text` give the same lines as measuring every
    candidate line again: names, hyphenated words, kanji runs, over-long words, newlines and
    runs of spaces, at several sizes and widths."""
    import random

    from pipeline.render.drawing import text_length, wrap_text

    rng = random.Random(14)
    words = ["Ashigaru-gashira", "Taira", "no", "Kiyomori", "源平合戦", "僧兵", "—", "a", "Mounted Samurai Archers",
             "Honour & Fortune", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "--", "   ", "\n", "鎌倉幕府の成立"]
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 40))) for _ in range(60)]
    for text in texts:
        for size in (9, 14, 23):
            for width in (30.0, 95.5, 240.0):
                lines = wrap_text(text, size, size == 14, width)
                assert lines == _wrap_by_definition(text, size, size == 14, width)
                assert all(len(line) == 1 or text_length(line, size, size == 14) <= width for line in lines if line)


def _long_drawing_text(n: int = 400) -> str:
    shapes = "\n".join(f"  - polygon: {{points: [[{i % 97}, 1.5], [{i % 89}, 20.25], [3, {i % 7}.125]], fill: \"#{i % 256:02x}8040\", outline: null}}" for i in range(n))
    return f"canvas: {{width: 100, height: 60, background: \"#f4ecd8\"}}\nshapes:\n{shapes}\n  - text: {{x: 50, y: 30, text: \"源平 true 1e3\", size: 9}}\n"


def test_long_drawing_is_kept_as_json_and_read_back_the_same(tmp_path, monkeypatch):
    """A long drawing's loaded document is kept as JSON named by the text's SHA-256; loading it
    again reads the JSON (no YAML parsing) and gives an equal drawing."""
    import hashlib

    import pipeline.render.templates as templates

    text = _long_drawing_text()
    assert len(text) >= templates.DOC_CACHE_MIN_CHARS
    first = templates.parse_drawing_text(text, "t.yaml.j2", tmp_path)
    kept = tmp_path / f"{hashlib.sha256(text.encode()).hexdigest()}.json"
    assert [p.name for p in tmp_path.iterdir()] == [kept.name]
    assert first == templates.parse_drawing_text(text, "t.yaml.j2")  # the same as without a folder

    def no_yaml(*_a, **_k):
        raise AssertionError("the YAML was loaded again")

    monkeypatch.setattr(templates.yaml, "load", no_yaml)
    assert templates.parse_drawing_text(text, "t.yaml.j2", tmp_path) == first
    assert draw(templates.parse_drawing_text(text, "t.yaml.j2", tmp_path), (50, 30)).tobytes() == draw(first, (50, 30)).tobytes()


def test_short_or_altered_or_unrepresentable_drawings_fall_back_to_the_yaml(tmp_path):
    import hashlib

    import pipeline.render.templates as templates

    short = "canvas: {width: 10, height: 10}\nshapes:\n  - rect: {x: 1, y: 1, w: 2, h: 2, fill: red}\n"
    templates.parse_drawing_text(short, "s.yaml.j2", tmp_path)
    assert not list(tmp_path.iterdir())  # short texts load fast: nothing kept
    text = _long_drawing_text()
    kept = tmp_path / f"{hashlib.sha256(text.encode()).hexdigest()}.json"
    kept.write_text('{"canvas": {"width": 1, "height": 1}, "shapes": [{"bogus": {}}]}', encoding="utf-8")
    assert templates.parse_drawing_text(text, "t.yaml.j2", tmp_path) == templates.parse_drawing_text(text, "t.yaml.j2")
    kept.write_text("{not json", encoding="utf-8")
    assert templates.parse_drawing_text(text, "t.yaml.j2", tmp_path) == templates.parse_drawing_text(text, "t.yaml.j2")
    odd = tmp_path / "odd.json"
    templates._keep({1: "integer key"}, odd)  # JSON would give back {"1": …}: not kept
    assert not odd.exists()


@pytest.mark.parametrize("background", ["#f4ecd8", None])
def test_supersampled_resolve_of_opaque_and_transparent_drawings_is_the_premultiplied_box_filter(background):
    """The resolve gives exactly Pillow's premultiplied box filter (``Image.reduce``) for an
    opaque sheet (filtered on its colour channels alone) and for a counter with transparent
    corners."""
    from pipeline.render.drawing import Affine, _draw_shapes, _Painter, _resolve

    bg = f"background: '{background}', " if background else ""
    text = ("canvas: {" + bg + "width: 40, height: 30}\nshapes:\n"
            "  - circle: {cx: 20, cy: 15, r: 13, fill: \"#b22222\", outline: \"#000000\", width: 1.5}\n"
            "  - text: {x: 20, y: 15, text: \"僧兵 AS\", size: 6, colour: \"#ffffff80\"}\n"
            "  - polygon: {points: [[0, 0], [40, 3], [7, 29]], fill: \"#2e8b5760\"}\n")
    from pipeline.render.templates import parse_drawing_text

    d = parse_drawing_text(text, "t")
    big = Image.new("RGBA", (160, 120), d.background or (0, 0, 0, 0))
    _draw_shapes(_Painter(big, "t"), d.shapes, Affine(4, 0, 0, 0, 4, 0))
    assert (big.getchannel("A").getextrema() == (255, 255)) == (background is not None)
    assert _resolve(big, 4).tobytes() == big.reduce(4).tobytes()
    assert draw(d, (40, 30), supersample=4).tobytes() == big.reduce(4).tobytes()


def test_a_wrapped_text_shrinks_before_it_breaks_a_word():
    """Seen on the Sekigahara units card: "12\" (commander)" in a 78 px column was drawn as
    "(command" / "er)" at full size. A word wider than its line now counts as not fitting, so the
    text shrinks until its widest word fits; only at ``min_size`` is a word broken."""
    from pipeline.render.drawing import _layout_text, text_length, widest_word

    p = {"text": '12" (commander)', "size": 15.0, "bold": False, "max_width": 78.0, "max_height": 54.0,
         "wrap": True, "min_size": 8.0, "line_height": 1.1}
    assert text_length("(commander)", 15, False) > 78  # at its own size the word cannot fit
    lines, s = _layout_text(p, 1.0)
    assert lines == ['12"', "(commander)"]
    assert s < 15 and text_length("(commander)", s, False) <= 78
    assert widest_word(p["text"], s, False) == text_length("(commander)", s, False)
    # the largest such size: one step up (÷0.93) it would not fit
    assert text_length("(commander)", round(s / 0.93), False) > 78 or round(s / 0.93) >= 15
    # at the smallest size a word is still broken when nothing else can be done
    p.update(text="Incomprehensibilities", max_width=40.0, min_size=10.0)
    lines, s = _layout_text(p, 1.0)
    assert s == 10 and len(lines) > 1 and "".join(lines) == "Incomprehensibilities"


def test_overflows_names_a_word_broken_mid_word_at_the_smallest_size():
    """A text that fits only by breaking a word mid-word at its smallest size is an overflow
    (the data checks of every system then refuse it, naming file and line); one that fits by
    shrinking is not."""
    from pipeline.render.drawing import overflows, parse_drawing

    def drawing(text: str, width: float):
        return parse_drawing({"canvas": {"width": 200, "height": 100}, "shapes": [
            {"text": {"x": 0, "y": 0, "text": text, "size": 15, "max_width": width, "max_height": 60, "wrap": True, "min_size": 10}}]})

    assert overflows(drawing('12" (commander)', 78), k=1.0) == []
    got = overflows(drawing("Incomprehensibilities", 40), k=1.0)
    assert len(got) == 1 and "broken mid-word" in got[0].need and got[0].where == "shapes[0]"
    paras = parse_drawing({"canvas": {"width": 200, "height": 100}, "shapes": [
        {"paragraphs": {"x": 0, "y": 0, "w": 40, "h": 90, "min_scale": 0.7, "items": [{"text": "Incomprehensibilities", "size": 15}]}}]})
    got = overflows(paras, k=1.0)
    assert len(got) == 1 and "broken mid-word" in got[0].need


def test_at_the_smallest_size_the_pixel_size_never_rounds_up_past_it():
    """A Ronin model named "Kamokudoka" passed the data check (measured at 8 px per unit: 72 px,
    fits) and was drawn broken ("Kamokudok" / "a") on its counter at 2.2 px per unit, where the
    smallest size 9 × 2.2 = 19.8 px rounded up to 20. At the smallest size the size is now
    rounded down: 19 px."""
    from pipeline.render.drawing import _layout_text

    p = {"text": "Kamokudoka Kamokudoka", "size": 14.0, "bold": True, "max_width": 10.0, "max_height": None,
         "wrap": True, "min_size": 9.0, "line_height": 1.1}
    _lines, s = _layout_text(p, 2.2)
    assert s == 19
    _lines, s = _layout_text(p, 8.0)
    assert s == 72
