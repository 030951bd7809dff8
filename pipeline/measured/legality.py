"""Legality findings of a measured-table scenario: rule ids, statements, sources, findings.

A finding prints as one line with the file, line, scenario, unit, rule id, message and the
rule's source::

    source_data/ohw/scenarios/ohw04.yaml:41: OHW4 unit red_2: inside-deployment: Ashigaru stands outside its deployment area 'hill' … [ohw_samurai, Movement]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class LegalityRule:
    """A static rule a set-up must obey: stable ``id``, ``statement``, source ``doc`` and
    ``section``."""

    id: str
    statement: str
    doc: str
    section: str


def rules(*items: LegalityRule) -> dict[str, LegalityRule]:
    return {r.id: r for r in items}


@dataclass(frozen=True)
class Finding:
    """A scenario problem: where (file, line, scenario, unit), which rule, what is wrong."""

    file: Path
    line: int | None
    scenario: str
    unit: str | None
    rule: LegalityRule
    message: str

    @property
    def rule_id(self) -> str:
        return self.rule.id

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        unit = f" unit {self.unit}" if self.unit else ""
        return f"{where}: {self.scenario}{unit}: {self.rule.id}: {self.message} [{self.rule.doc}, {self.rule.section}]"


def explain(table: dict[str, LegalityRule], rule_id: str) -> str:
    """``gunbai verify --explain`` text of a rule.

    Raises:
        KeyError: unknown id.
    """
    r = table[rule_id]
    return f"{r.id}: {r.statement}\nsource: {r.doc}, {r.section}"
