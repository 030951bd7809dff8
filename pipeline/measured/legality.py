"""Legality findings of a measured-table scenario: rule ids, statements, sources, findings.

A finding prints as one line with the file, line, scenario, unit, rule id, message and the
rule's source::

    source_data/ohw/scenarios/ohw04.yaml:41: OHW4 unit red_2: inside-deployment: Ashigaru stands outside its deployment area 'hill' … [ohw_samurai, Movement]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.legality import LegalityRule, explain, rules

__all__ = ["Finding", "LegalityRule", "explain", "rules"]


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
