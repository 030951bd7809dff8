"""Legality rules shared by every game system: a stable id, a statement and the rule's source.

Each system's ``verify.py`` keeps its table of rules (``RULES``); ``gunbai verify --explain ID``
prints one with :func:`explain`.

Example::

    >>> table = rules(LegalityRule("one-unit-per-hex", "At most one unit stands in a hex.", "rules_facts", "1.2"))
    >>> print(explain(table, "one-unit-per-hex"))
    one-unit-per-hex: At most one unit stands in a hex.
    source: rules_facts, 1.2
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LegalityRule:
    """A static rule a scenario set-up must obey.

    Attributes:
        id: stable id (``gunbai verify --explain ID``).
        statement: the rule in one sentence.
        doc: id of the document in the system's ``sources.yaml``.
        section: section of that document.
    """

    id: str
    statement: str
    doc: str
    section: str


def rules(*items: LegalityRule) -> dict[str, LegalityRule]:
    """A rule table by id, in the order given."""
    return {r.id: r for r in items}


def explain(table: dict[str, LegalityRule], rule_id: str) -> str:
    """The ``gunbai verify --explain`` text of a rule: its statement, then its source.

    Raises:
        KeyError: no rule of ``table`` has that id.
    """
    r = table[rule_id]
    return f"{r.id}: {r.statement}\nsource: {r.doc}, {r.section}"
