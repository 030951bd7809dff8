"""Round trips: build every shipped scenario of every system, import its predefined setup back
from the built module (for Genpei: from its extension, loaded onto the core module), and get
data equal to the source.

What a VASSAL setup cannot hold (a scenario's name, cards, victory, citations; a Ronin game's
rosters) comes from the source file given as ``--base``; everything the setup does hold
(Genpei terrain, units with leaders, markers, wind/tide; OHW and Sekigahara positions, facing
and stands; Ronin models, objective, civilians) is read from the setup and compared with the
source.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pipeline.build import blocking
from pipeline.data.yamlfile import YamlDocument
from pipeline.setup_import import import_setup
from pipeline.systems.genpei.model import Scenario as GenpeiScenario
from pipeline.systems.ohw.model import Scenario as OhwScenario
from pipeline.systems.ronin.model import Game
from pipeline.systems.sekigahara.model import Scenario as SekiScenario

from .conftest import DATA


def _import(built: Path, system: str, module: str, scenario: Path, tmp_path: Path, model, extensions: tuple[str, ...] = ()):
    out = tmp_path / scenario.name
    from pipeline.systems.base import get_system

    result = import_setup(Path(f"{scenario.stem}.vsav"), built / system / module, system, out, data_root=DATA,
                          base=scenario, verify=get_system(system).verify,
                          extensions=[built / system / e for e in extensions])
    assert result.written == out
    assert blocking(result.findings) == []
    return YamlDocument.load(out).validate(model), YamlDocument.load(scenario).validate(model), out


def genpei_canonical(sc: GenpeiScenario) -> dict:
    """A Genpei scenario with its placements as multisets: the same set-up written in another
    order (hexes listed or given as row runs, terrain grouped differently) compares equal."""
    d = sc.model_dump(exclude={"terrain", "units", "leaders", "markers"})
    d["terrain"] = Counter((tp.terrain, tuple(sorted(tp.hexsides)), h) for tp in sc.terrain for h in tp.all_hexes())
    d["units"] = Counter((u.side, u.unit, tuple(u.hex), u.leader, u.name, u.note) for u in sc.units)
    d["leaders"] = Counter((ld.side, ld.leader, tuple(ld.hex), ld.name) for ld in sc.leaders)
    d["markers"] = Counter((m.marker, tuple(m.hex), m.side) for m in sc.markers)
    return d


GENPEI = sorted((DATA / "genpei" / "scenarios").glob("*.yaml"))
#: The core module and the pack's extension `gunbai build` writes (the setups are the extension's).
CORE, EXT = "samurai_battles.vmod", ("genpei.vmdx",)


@pytest.mark.parametrize("scenario", GENPEI, ids=lambda p: p.stem)
def test_genpei_setup_imports_back_to_its_source(built, scenario, tmp_path):
    imported, source, out = _import(built, "genpei", CORE, scenario, tmp_path, GenpeiScenario, EXT)
    assert genpei_canonical(imported) == genpei_canonical(source)
    if source.units:  # a scenario with a set-up: every entry says which piece it came from
        text = out.read_text()
        assert text.count("its own properties") >= len(source.units) + sum(len(tp.all_hexes()) for tp in source.terrain)


def test_gp19_and_gp20_have_their_reconstructed_setups_back(built, tmp_path):
    for stem in ("gp19_nutas_stronghold", "gp20_nishinomiya"):
        imported, source, _ = _import(built, "genpei", CORE, DATA / "genpei" / "scenarios" / f"{stem}.yaml", tmp_path, GenpeiScenario, EXT)
        assert imported.map == "reconstructed" and imported.reconstruction == source.reconstruction
        assert imported.units and sorted(imported.units, key=repr) == sorted(source.units, key=repr)
        assert imported.wind_tide == source.wind_tide


@pytest.mark.parametrize("scenario", sorted((DATA / "ohw" / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_ohw_setup_imports_back_to_its_source(built, scenario, tmp_path):
    imported, source, _ = _import(built, "ohw", "ohw.vmod", scenario, tmp_path, OhwScenario)
    assert imported.model_dump() == source.model_dump()


@pytest.mark.parametrize("scenario", sorted((DATA / "sekigahara" / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_sekigahara_setup_imports_back_to_its_source(built, scenario, tmp_path):
    imported, source, _ = _import(built, "sekigahara", "sekigahara.vmod", scenario, tmp_path, SekiScenario)
    assert imported.model_dump() == source.model_dump()


@pytest.mark.parametrize("game", sorted((DATA / "ronin" / "games").glob("*.yaml")), ids=lambda p: p.stem)
def test_ronin_setup_imports_back_to_its_source(built, game, tmp_path):
    from pipeline.systems.ronin.load import load
    from pipeline.systems.ronin.module import model_key, placements

    imported, source, out = _import(built, "ronin", "ronin.vmod", game, tmp_path, Game)
    # Everything but the placed models is the source's.
    bare = imported.model_dump()
    for s in bare["sides"]:
        s["placed"] = []
    assert bare == source.model_dump()
    # The placed models are where the module put them (its rows inside each zone), worked from
    # the source game, and building the imported game places every piece at the same pixel.
    data = load(DATA / "ronin")
    src = next(lg for lg in data.games if lg.value.id == source.id)
    ppi = data.system.vassal.px_per_inch
    expected = Counter((p.key, p.x, p.y) for p in placements(data, src.value) if p.key.startswith("model:"))
    got = Counter((model_key(*pm.model.split(":", 1), s.side), round(pm.x * ppi), round(pm.y * ppi)) for s in imported.sides for pm in s.placed)
    assert got == expected
    again = Counter((p.key, p.x, p.y) for p in placements(data, imported))
    assert again == Counter((p.key, p.x, p.y) for p in placements(data, src.value))
