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
