"""``gunbai edit`` in a real browser (issue 31, item 7): Debian's Chromium (``make browser``)
driven by Playwright, offline, against the command as a user runs it.

On GP19 (a copy of the data folder): place a Stockade and a Samurai Cavalry unit into it and see
``no-cavalry-in-stockade`` on that hex, remove both, load a picture the test makes and align it
to two hexes, cite it, save; the saved file is the original with ``map: entered`` and the
citation and nothing else changed (comments kept), the sidecar holds the alignment worked out
by hand, and ``gunbai verify`` accepts the file. A request without the token is refused, a
scenario outside the data folder is refused, a file changed on disk is not saved over.

``GUNBAI_EDITOR_SHOT=PATH`` keeps a screenshot of the page (the README's, docs/editor_gp19.png).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
GP19 = "gp19_nutas_stronghold.yaml"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

if not CHROMIUM.exists():
    if os.environ.get("CI"):
        raise RuntimeError("the browser tests need Debian's chromium: run `make browser`")
    pytest.skip("no /usr/bin/chromium: run `make browser`", allow_module_level=True)


def _gunbai(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    shutil.copytree(REPO / "source_data" / "genpei", root / "genpei")
    return root


@pytest.fixture()
def server(data: Path):
    proc = _gunbai("edit", str(data / "genpei" / "scenarios" / GP19), "--data", str(data), "--no-browser")
    line = proc.stdout.readline()
    assert " at http://127.0.0.1:" in line, line + proc.stderr.read()
    url = line.split(" at ", 1)[1].split(" ", 1)[0]
    yield proc, url
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)


#: How the test's map picture is drawn from board pixels: scale, degrees clockwise, offset.
PICTURE = (0.7, 2.0, (30.0, 12.0))
PICTURE_SIZE = (800, 660)


def _map_picture(path: Path, data: Path) -> tuple[tuple[float, float], tuple[float, float]]:
    """Draw the map picture of :data:`PICTURE` to ``path``; the picture pixels of the centres of
    hexes [2,2] and [10,9]."""
    import yaml

    from pipeline.systems.genpei.build import layout_of
    from pipeline.systems.genpei.load import load

    gp = load(data / "genpei", scenario_files=[])
    lay = layout_of(gp)
    k, phi, (ox, oy) = PICTURE
    a = math.radians(phi)

    def pic(x: float, y: float) -> tuple[float, float]:
        return ox + k * (x * math.cos(a) - y * math.sin(a)), oy + k * (x * math.sin(a) + y * math.cos(a))

    sc = yaml.safe_load((data / "genpei" / "scenarios" / GP19).read_text())
    fill = {}
    for tp in sc["terrain"]:
        for h in tp.get("hexes", []):
            fill[tuple(h)] = gp.terrain[tp["terrain"]].colour
    img = Image.new("RGB", PICTURE_SIZE, "#efe6cf")
    draw = ImageDraw.Draw(img)
    for h in gp.board.all_hexes():
        draw.polygon([pic(*c) for c in lay.corners(h)], fill=fill.get(tuple(h), "#e4dcc0"), outline="#5a4a3a")
    dots = [pic(*lay.centre((2, 2))), pic(*lay.centre((10, 9)))]
    for x, y in dots:
        draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill="#c00000")
    img.save(path)
    return dots[0], dots[1]


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _click_board(page, x: float, y: float) -> None:
    cx, cy = page.evaluate("([x, y]) => gunbaiEditor.boardToClient(x, y)", [x, y])
    page.mouse.click(cx, cy)


def _click_hex(page, c: int, r: int) -> None:
    x, y = page.evaluate("([c, r]) => gunbaiEditor.centre(c, r)", [c, r])
    _click_board(page, x, y)


def _after(page, action) -> None:
    """Do ``action`` and wait for the page to draw the server's answer."""
    n = int(page.evaluate("document.body.dataset.ready || 0"))
    action()
    page.wait_for_function(f"Number(document.body.dataset.ready) > {n}")


def test_edit_gp19_in_chromium(server, data: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    proc, url = server
    scenario = data / "genpei" / "scenarios" / GP19
    original = scenario.read_text(encoding="utf-8")
    base = url.split("/?", 1)[0]
    token = url.split("token=", 1)[1]

    # The token guards every request.
    assert _status(url) == 200
    assert _status(base + "/") == 403
    assert _status(base + "/api/state") == 403
    assert _status(base + "/api/state?token=" + token[:-1] + ("A" if token[-1] != "A" else "B")) == 403
    assert _status(base + "/static/editor.js") == 403

    # A picture to trace, drawn as a published map would be: the board's hexes at 0.7 of the
    # module's size, turned 2 degrees, shifted; GP19's terrain coloured in; two red dots on the
    # centres of hexes [2,2] and [10,9], where the test clicks to align it.
    picture, (p1, p2) = tmp_path / "map.png", _map_picture(tmp_path / "map.png", data)
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True,
                                                    args=ARGS, bypass_csp=True, viewport={"width": 1800, "height": 1100})
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function("Number(document.body.dataset.ready) > 0")
        assert page.locator("#findings li:not(.note)").count() == 0  # GP19 as shipped is legal

        # A Stockade on the empty hex [7,5], then a Taira Samurai Cavalry unit into it.
        page.keyboard.press("t")
        page.click("#tray button[data-id=stockade]")
        _after(page, lambda: _click_hex(page, 7, 5))
        page.keyboard.press("u")
        page.select_option("#side", "taira")
        page.click("#tray button[data-id=samurai_cavalry]")
        _after(page, lambda: _click_hex(page, 7, 5))
        mark = page.locator('#marks polygon.finding[data-hex="7,5"]')
        assert mark.count() == 1
        assert "no-cavalry-in-stockade" in mark.get_attribute("data-rules").split()
        item = page.locator('#findings li[data-rule="no-cavalry-in-stockade"]')
        assert item.count() == 1 and item.get_attribute("data-hex") == "7,5"
        assert "[genpei_pack, Stockade]" in item.inner_text()

        # Undo takes the unit off, redo puts it back; the remove tool takes the unit, then the tile.
        _after(page, lambda: page.keyboard.press("Control+z"))
        assert page.locator('#marks polygon.finding[data-hex="7,5"]').count() == 0
        _after(page, lambda: page.keyboard.press("Control+y"))
        assert page.locator('#marks polygon.finding[data-hex="7,5"]').count() == 1
        page.keyboard.press("x")
        _after(page, lambda: _click_hex(page, 7, 5))
        assert page.locator('#marks polygon.finding[data-hex="7,5"]').count() == 0
        assert page.locator('#pieces image.unit[data-hex="7,5"]').count() == 0
        _after(page, lambda: _click_hex(page, 7, 5))
        assert page.locator('#terrain image.tile[data-hex="7,5"]').count() == 0

        # Trace: load the picture, align its two dots to hexes [2,2] and [10,9], cite it.
        _after(page, lambda: page.set_input_files("#picture", str(picture)))
        page.wait_for_function("gunbaiEditor.state().underlay && gunbaiEditor.state().underlay.x === 0")
        page.click("#align")
        s0 = page.evaluate("gunbaiEditor.state().underlay.scale")
        _click_board(page, p1[0] * s0, p1[1] * s0)
        _click_hex(page, 2, 2)
        _click_board(page, p2[0] * s0, p2[1] * s0)
        _after(page, lambda: _click_hex(page, 10, 9))
        page.select_option("#srcdoc", "gunbai")
        page.fill("#srcsection", "GP19 test underlay")
        page.select_option("#srcconf", "L")
        page.fill("#srcnote", "a picture made by the editor test")
        page.locator("#opacity").fill("0.6")
        _after(page, lambda: page.dispatch_event("#opacity", "change"))
        page.evaluate("document.activeElement.blur()")
        if os.environ.get("GUNBAI_EDITOR_SHOT"):
            page.keyboard.press("t")
            page.click("#tray button[data-id=stockade]")
            _after(page, lambda: _click_hex(page, 7, 5))
            page.keyboard.press("u")
            page.click("#tray button[data-id=samurai_cavalry]")
            _after(page, lambda: _click_hex(page, 7, 5))
            page.wait_for_selector('#marks polygon.finding[data-hex="7,5"]')
            page.evaluate("document.getElementById('right').scrollTop = 0")
            page.wait_for_timeout(1500)  # the counter images drawn
            page.screenshot(path=os.environ["GUNBAI_EDITOR_SHOT"])
            _after(page, lambda: page.keyboard.press("Control+z"))
            _after(page, lambda: page.keyboard.press("Control+z"))
        page.keyboard.press("Control+s")
        page.wait_for_function("document.getElementById('status').textContent.startsWith('saved')")

        # The saved file: the original with map: entered and the citation, comments kept.
        expected = original.replace(
            "map: reconstructed  # gunbai's own layout: see `reconstruction` at the end\n",
            "map: entered        # gunbai's own layout: see `reconstruction` at the end\n"
            "map_source: {doc: gunbai, section: GP19 test underlay, confidence: L, note: a picture made by the editor test}\n")
        assert expected != original
        assert scenario.read_text(encoding="utf-8") == expected

        # The alignment, worked by hand: the inverse of how the picture was drawn.
        meta = json.loads((scenario.parent / "gp19_nutas_stronghold.editor.json").read_text())["underlay"]
        k, phi, (ox, oy) = PICTURE
        r = math.radians(-phi)
        # A click lands on a whole screen pixel (here 1 board pixel): within half a pixel of the dot.
        assert meta["scale"] == pytest.approx(1 / k, rel=2e-3)
        assert meta["rotation"] == pytest.approx(-phi, abs=0.1)
        assert meta["x"] == pytest.approx(-(ox * math.cos(r) - oy * math.sin(r)) / k, abs=1.5)
        assert meta["y"] == pytest.approx(-(ox * math.sin(r) + oy * math.cos(r)) / k, abs=1.5)
        assert meta["opacity"] == 0.6 and meta["source"]["section"] == "GP19 test underlay"
        with Image.open(scenario.parent / meta["picture"]) as traced:
            assert traced.size == PICTURE_SIZE

        # Changed on disk since it was opened (by the save): not saved over, a copy offered.
        scenario.write_text(expected + "# edited elsewhere\n", encoding="utf-8")
        page.click("#save")
        page.wait_for_function("document.getElementById('status').textContent.includes('changed on disk')")
        assert page.locator("#copybox").is_visible()
        assert scenario.read_text(encoding="utf-8").endswith("# edited elsewhere\n")
        page.fill("#copyname", "../evil")
        page.click("#savecopy")
        page.wait_for_function("document.getElementById('status').textContent.includes(\"a copy's name\")")
        page.fill("#copyname", "gp19_traced")
        page.click("#savecopy")
        page.wait_for_function("document.getElementById('status').textContent.includes('saved a copy')")
        assert (scenario.parent / "gp19_traced.yaml").read_text(encoding="utf-8") == expected

        # Quick games of the scenario in the background, then a long run cancelled.
        page.fill("#games", "2")
        page.click("#play")
        page.wait_for_function("document.getElementById('verdict').dataset.state === 'finished'", timeout=120_000)
        assert "2/2 games" in page.inner_text("#verdict")
        page.fill("#games", "200")
        page.click("#play")
        page.wait_for_function("document.getElementById('verdict').dataset.state === 'running'")
        page.click("#cancel")
        page.wait_for_function("document.getElementById('verdict').textContent.includes('cancelled')")
        ctx.close()

    # gunbai verify accepts what was saved.
    scenario.write_text(expected, encoding="utf-8")
    (scenario.parent / "gp19_traced.yaml").unlink()
    v = subprocess.run([sys.executable, "-m", "pipeline", "verify", "--data", str(data), "--system", "genpei", str(scenario)],
                       cwd=REPO, capture_output=True, text=True)
    assert v.returncode == 0, v.stdout + v.stderr

    # Ctrl-C stops the server cleanly.
    proc.send_signal(signal.SIGINT)
    assert proc.wait(20) == 0
    assert proc.stdout.read().strip() == "gunbai edit: stopped"
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=5)


def test_scenario_outside_the_data_folder_is_refused(data: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "scenarios" / GP19
    outside.parent.mkdir(parents=True)
    shutil.copy(data / "genpei" / "scenarios" / GP19, outside)
    for given in (outside, data / "genpei" / "scenarios" / ".." / ".." / ".." / "elsewhere" / "scenarios" / GP19):
        p = _gunbai("edit", str(given), "--data", str(data), "--no-browser")
        out, err = p.communicate(timeout=60)
        assert p.returncode == 1, out + err
        assert "outside the data folder" in err
    link = data / "genpei" / "scenarios" / "link.yaml"
    link.symlink_to(outside)
    p = _gunbai("edit", str(link), "--data", str(data), "--no-browser")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 1 and "outside the data folder" in err
