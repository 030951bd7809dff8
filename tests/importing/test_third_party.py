"""Importing setups of another publisher's public module (Almoravid, GMT Games, VASSAL module by
Cattlesquat; tests/fixtures/vassal/corpus/almoravid/SOURCE.md): the first import names every piece
it cannot map and writes nothing; the drafted mapping lists them; completed by a person (here:
the two victory markers stand for two OHW units, everything else is ignored), the same mapping
imports both of the module's setups, positions turned into inches by the mapping's scale."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.data.yamlfile import YamlDocument
from pipeline.setup_import import ImportError_, import_setup
from pipeline.systems.base import get_system
from pipeline.systems.ohw.model import Scenario
from pipeline.vassal.archive import archive_bytes

from .conftest import DATA, ROOT

FIX = ROOT / "tests" / "fixtures" / "vassal" / "corpus" / "almoravid" / "files"
BASE = ROOT / "tests" / "fixtures" / "import" / "ohw_whole_table.yaml"
SETUPS = {"Scenario_A_Toledo_Beset.vsav": (1979, 1586, 1977, 644), "Scenario_B_Quelling_of_the_Tajo.vsav": (2453, 2857, 1977, 644)}


@pytest.fixture(scope="module")
def module(tmp_path_factory) -> Path:
    """The module as its public repository holds it, packed: buildFile.xml (no images)."""
    path = tmp_path_factory.mktemp("alm") / "Almoravid.vmod"
    path.write_bytes(archive_bytes({"buildFile.xml": (FIX / "buildFile.xml").read_bytes()}))
    return path


def test_unmapped_pieces_are_named_and_a_draft_lists_them(module, tmp_path):
    out, draft = tmp_path / "o.yaml", tmp_path / "pieces.yaml"
    with pytest.raises(ImportError_) as err:
        import_setup(FIX / "Scenario_B_Quelling_of_the_Tajo.vsav", module, "ohw", out, data_root=DATA, base=BASE, draft_pieces=draft)
    msg = str(err.value)
    # a locale of the map, named by the zone VASSAL shows for it, with its board pixels
    assert "piece 'Granada' at Granada (4172, 2684) px on map 'Main Map' is not in the piece mapping" in msg
    assert "241 piece(s) cannot be imported; nothing written" in msg  # every piece on the main map
    assert not out.exists()
    text = draft.read_text()
    assert text.startswith("# gunbai piece mapping (draft)") and "map: Main Map" in text
    assert "px_per_inch: null  # TODO" in text
    assert "  - name: Granada\n    as: null  # TODO" in text
    assert "  # 9 on the map at" in text  # the nine Muslim lord mats, one rule for all


def test_marker_pixels_are_the_saves_own():
    """The expected pixels above, checked against the raw save text (not through gunbai's
    reader): the marker's AddPiece state holds ``Main Map;x;y``, or its stack does."""
    import re
    import zipfile

    from pipeline.vassal.save import deobfuscate

    for setup, (cx, cy, mx, my) in SETUPS.items():
        with zipfile.ZipFile(FIX / setup) as z:
            text = deobfuscate(z.read("savedGame"))
        for x, y in ((cx, cy), (mx, my)):
            assert re.search(rf"Main Map;{x};{y};", text), (setup, x, y)


def _complete(text: str) -> str:
    """What the person does with the draft: a scale, the two markers as units, ignore the rest."""
    text = text.replace("px_per_inch: null  # TODO: board pixels per inch of the table", "px_per_inch: 220")
    text = text.replace("  - name: Christian Victory Marker\n    as: null  # TODO", "  - name: Christian Victory Marker\n    as: {unit: foot_samurai, army: red, general: true}")
    text = text.replace("  - name: Muslim Victory Marker\n    as: null  # TODO", "  - name: Muslim Victory Marker\n    as: {unit: foot_samurai, army: blue, general: true}")
    return text.replace("as: null  # TODO", "ignore: true")


def test_completed_draft_imports_both_setups(module, tmp_path):
    draft = tmp_path / "pieces.yaml"
    with pytest.raises(ImportError_):
        import_setup(FIX / "Scenario_A_Toledo_Beset.vsav", module, "ohw", tmp_path / "x.yaml", data_root=DATA, base=BASE, draft_pieces=draft)
    draft.write_text(_complete(draft.read_text()))
    # Scenario B has pieces Scenario A's main map did not: the completed mapping names them, and
    # drafting again keeps every rule already written and adds only those.
    again = tmp_path / "pieces2.yaml"
    with pytest.raises(ImportError_) as err:
        import_setup(FIX / "Scenario_B_Quelling_of_the_Tajo.vsav", module, "ohw", tmp_path / "x.yaml", data_root=DATA, base=BASE, pieces=draft, draft_pieces=again)
    assert "piece 'Conquered Marker' at Toledo (3950, 1433) px on map 'Main Map' is not in the piece mapping" in str(err.value)
    assert "4 piece(s) cannot be imported" in str(err.value)
    text = again.read_text()
    assert text.count("as: null  # TODO") == 2  # 'M21 - Al-Sumaisir / Hasham' and 'Conquered Marker'
    assert "as: {unit: foot_samurai, army: red, general: true}" in text
    again.write_text(_complete(text))
    for setup, ignored in (("Scenario_A_Toledo_Beset.vsav", 274), ("Scenario_B_Quelling_of_the_Tajo.vsav", 239)):
        out = tmp_path / f"{setup}.yaml"
        result = import_setup(FIX / setup, module, "ohw", out, data_root=DATA, base=BASE, pieces=again, verify=get_system("ohw").verify)
        # all but the two markers of the main map's pieces (A: 276, B: 241) are ignored
        assert (result.imported, result.ignored) == (2, ignored)
        assert result.findings == []
        sc = YamlDocument.load(out).validate(Scenario)
        cx, cy, mx, my = SETUPS[setup]  # board pixels of the two markers in the save
        got = {(u.side, u.unit, u.general): (u.x, u.y, u.facing) for u in sc.units}
        assert got == {("red", "foot_samurai", "Red Daimyo"): (round(cx / 220, 4), round(cy / 220, 4), 0.0),
                       ("blue", "foot_samurai", "Blue Daimyo"): (round(mx / 220, 4), round(my / 220, 4), 0.0)}
        assert "'Christian Victory Marker'" in out.read_text()  # where each entry came from
