"""`gunbai verify --explain` finds a rule in whichever game system defines it."""

import pytest

from pipeline.build import explain_rule


def test_rule_of_one_system():
    text = explain_rule("no-cavalry-in-stockade")
    assert text.startswith("no-cavalry-in-stockade: Cavalry units and cavalry leaders may not enter")


def test_rule_id_shared_by_two_systems_prints_both_and_a_prefix_picks_one():
    both = explain_rule("known-unit")
    assert "[genpei]" in both and "[ohw]" in both
    assert "[" not in explain_rule("ohw:known-unit")


def test_unknown_rule_lists_the_ids():
    with pytest.raises(KeyError) as exc:
        explain_rule("no-such-rule")
    assert "genpei:no-cavalry-in-stockade" in exc.value.args[0]


@pytest.mark.parametrize("system", ["ohw", "sekigahara"])
def test_measured_engine_rules_are_listed_with_sources_and_their_errata_exist(system):
    """Issue 27: the rules the OHW and Sekigahara engines play are in ``--explain all`` with their
    source, every document they cite is in the system's sources.yaml, and every erratum a
    statement names is recorded there."""
    import importlib
    import re
    from pathlib import Path

    engine_rules = importlib.import_module(f"pipeline.systems.{system}.rules").ENGINE_RULES
    text = explain_rule(f"{system}:all")
    sources = importlib.import_module(f"pipeline.systems.{system}.load").load(Path(__file__).resolve().parents[1] / "source_data" / system).sources
    docs, errata = {d.id for d in sources.documents}, {e.id for e in sources.errata}
    for r in engine_rules.values():
        assert f"[{system}] {r.id}: {r.statement}\nsource: {r.doc}, {r.section}" in text
        assert r.doc in docs
        for named in re.findall(r"errat(?:um|a) ([a-z_]+(?:, [a-z_]+)*)", r.statement):
            assert set(named.replace(",", " ").split()) <= errata, named
