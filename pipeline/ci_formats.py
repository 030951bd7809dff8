"""``gunbai verify --format``: the findings for a CI system (GitHub Actions, JUnit, JSON).

``verify`` reports each finding as one line of text by default. For a CI job it can instead give:

- ``github``: GitHub Actions workflow commands, one per finding, which GitHub shows on the
  data line of a pull request's diff (``error`` for a problem, ``warning`` for a note such as an
  incomplete scenario)::

      ::error file=source_data/genpei/scenarios/gp20.yaml,line=41,title=lone-leader-alone (genpei GP20)::GP20 hex [3,4]: ... [rules_facts, §1.4 Retreat]

  Properties are escaped as GitHub's toolkit does (``%`` ``\\r`` ``\\n`` ``:`` ``,`` as
  ``%25`` ``%0D`` ``%0A`` ``%3A`` ``%2C``), the message as its data (``%`` ``\\r`` ``\\n``).
  ``file`` is relative to the repository root (``$GITHUB_WORKSPACE`` when the file lies under
  it, else the nearest folder above the file holding ``.git``, else the working folder), since
  that is how GitHub matches it to the diff.
- ``junit``: JUnit XML (the Jenkins/Surefire ``junit-10.xsd`` shape: ``testsuites`` >
  ``testsuite`` per system > ``testcase``): per system one ``data`` test case (its data files
  load), one ``legality`` test case per scenario (a ``failure`` per problem, ``skipped`` when
  the scenario is incomplete), and with ``--play`` one ``balance`` test case per scenario. No
  times, so the same data gives the same bytes.
- ``json``: one object (schema: ``docs/verify-report.schema.json``)::

      {"format": "gunbai-verify", "version": 1, "ok": false,
       "summary": {"scenarios": 41, "errors": 1, "warnings": 22},
       "systems": [{"system": "genpei", "scenarios": [{"id": "gp20_nishinomiya", "file": ..., "legality": "problems"}, ...]}],
       "findings": [{"system": "genpei", "check": "legality", "severity": "error", "scenario": "GP20",
                     "file": "source_data/genpei/scenarios/gp20.yaml", "line": 41, "rule": "lone-leader-alone",
                     "message": "...", "source": "rules_facts, §1.4 Retreat", "text": "<the text line>"}],
       "verdicts": [...]}

Example::

    >>> escape_property("a:b,c%")
    'a%3Ab%2Cc%25'
    >>> workflow_command("error", "line one\\nline two", file="x.yaml", line=3, title="r (s)")
    '::error file=x.yaml,line=3,title=r (s)::line one%0Aline two'
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

#: The formats ``verify --format`` takes (``text``: the default lines).
FORMATS = ("text", "github", "junit", "json")
#: ``version`` of the JSON document; raised when a field changes meaning or goes.
JSON_VERSION = 1

_SOURCE = re.compile(r" \[([^\[\]]*)\]$")


@dataclass(frozen=True)
class Record:
    """One finding of ``verify`` in the fields every format needs.

    Attributes:
        system: the game system (``genpei``).
        check: ``data`` (a data file is invalid), ``legality`` or ``balance``.
        severity: ``error`` (a problem: ``verify`` exits 1) or ``warning`` (a note).
        scenario: the scenario (or Ronin roster or game) it is about, or None.
        file: the data file as the finding names it (POSIX), or None.
        line: its 1-based line, or None.
        rule: the rule id (``gunbai verify --explain RULE``), or None for invalid data.
        message: what is wrong.
        source: the rule's source (``doc, section``), or None.
        text: the finding's line as ``verify`` prints it.
    """

    system: str
    check: str
    severity: str
    scenario: str | None
    file: str | None
    line: int | None
    rule: str | None
    message: str
    source: str | None
    text: str


def finding_fields(f) -> dict:
    """The fields of a legality or play finding (any system's: they share ``file``, ``line``,
    ``rule``, ``message`` and a scenario or roster; an incomplete scenario has ``reasons``), as
    stored in the legality cache: ``file``, ``line``, ``scenario``, ``rule``, ``message``,
    ``source``, ``severity``."""
    from pipeline.verdicts import finding_scenario

    text = str(f)
    rule = getattr(f, "rule", None)
    rule = getattr(rule, "id", rule)
    m = _SOURCE.search(text)
    if getattr(f, "reasons", None) is not None:  # an incomplete scenario
        rule, message = "incomplete", text.split(": ", 1)[-1]
    else:
        message = getattr(f, "message", None) or text
    file = getattr(f, "file", None)
    return {"file": Path(file).as_posix() if file is not None else None, "line": getattr(f, "line", None),
            "scenario": finding_scenario(f), "rule": rule, "message": message,
            "source": m.group(1) if m and rule != "incomplete" else None,
            "severity": "error" if getattr(f, "blocking", True) else "warning"}


def record_of(system: str, check: str, f) -> Record:
    """A :class:`Record` of finding ``f`` of ``system`` (a cached one carries its fields)."""
    fields = getattr(f, "fields", None) or finding_fields(f)
    return Record(system, check, fields["severity"], fields["scenario"], fields["file"], fields["line"],
                  fields["rule"], fields["message"], fields["source"], str(f))


def data_records(system: str, problems: Iterable) -> list[Record]:
    """Records of the :class:`~pipeline.errors.DataProblem` of an invalid data file."""
    out = []
    for p in problems:
        where = f"{p.where}: " if p.where else ""
        out.append(Record(system, "data", "error", None, Path(p.file).as_posix(), p.line, None,
                          f"{where}{p.value} is not valid; expected {p.expected}", None, str(p)))
    return out


# ---------------------------------------------------------------------------------- github
def escape_data(s: str) -> str:
    """A workflow command's message escaped as GitHub's toolkit does (``escapeData``)."""
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    """A workflow command's property value escaped as GitHub's toolkit does (``escapeProperty``)."""
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def workflow_command(kind: str, message: str, **props) -> str:
    """``::kind k=v,...::message`` with the properties (those not None) in the order given."""
    ps = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items() if v is not None)
    return f"::{kind}{' ' + ps if ps else ''}::{escape_data(message)}"


def workspace_root(path: Path) -> Path:
    """The folder GitHub names files from: ``$GITHUB_WORKSPACE`` when ``path`` lies under it,
    else the nearest folder above ``path`` holding ``.git``, else the working folder."""
    ws = os.environ.get("GITHUB_WORKSPACE")
    if ws and path.is_relative_to(Path(ws).resolve()):
        return Path(ws).resolve()
    for parent in path.parents:
        if (parent / ".git").exists():
            return parent
    return Path.cwd().resolve()


def repo_path(file: str) -> str:
    """``file`` (as a finding names it: relative to the working folder, or absolute) relative to
    the repository root (:func:`workspace_root`), POSIX; as given when it lies outside."""
    p = Path(file)
    absolute = (p if p.is_absolute() else Path.cwd() / p).resolve()
    try:
        return absolute.relative_to(workspace_root(absolute)).as_posix()
    except ValueError:
        return p.as_posix()


def github_lines(records: Sequence[Record]) -> list[str]:
    """One workflow command per record: ``::error`` for a problem, ``::warning`` for a note."""
    out = []
    for r in records:
        title = f"{r.rule or 'invalid data'} ({r.system}{' ' + r.scenario if r.scenario else ''})"
        message = r.text
        if r.file is not None:  # the annotation shows the file and line already
            message = re.sub(rf"^{re.escape(r.file)}(:{r.line})?: ", "", message)
        out.append(workflow_command(r.severity, message, file=repo_path(r.file) if r.file else None,
                                    line=r.line, title=title))
    return out


# ---------------------------------------------------------------------------------- junit / json
@dataclass(frozen=True)
class ScenarioCase:
    """One scenario checked: its id (file name), its files (the first is its own file)."""

    id: str
    files: tuple[str, ...]


def _case_of(records: Sequence[Record], cases: Sequence[ScenarioCase]) -> dict[int, str]:
    """Which scenario each legality record belongs to: the scenario whose own file it names,
    else the one whose id it names, else none (its file then gets a test case of its own)."""
    by_file = {_norm(c.files[0]): c.id for c in cases if c.files}
    by_id = {c.id.lower(): c.id for c in cases}
    out = {}
    for i, r in enumerate(records):
        cid = by_file.get(_norm(r.file)) if r.file else None
        if cid is None and r.scenario:
            cid = by_id.get(r.scenario.lower())
        if cid is not None:
            out[i] = cid
    return out


def _norm(file: str) -> str:
    return os.path.normcase(os.path.abspath(file))


def junit_xml(systems: Sequence[tuple[str, Sequence[ScenarioCase]]], records: Sequence[Record],
              verdicts: Sequence = ()) -> bytes:
    """The JUnit XML document (UTF-8 bytes) of a ``verify`` run: ``systems`` in order, each with
    the scenarios checked; ``records``: every finding; ``verdicts``: the ``--play`` verdicts
    (:class:`~pipeline.verdicts.SystemVerdicts`), if any."""
    from lxml import etree

    root = etree.Element("testsuites", name="gunbai verify")
    totals = [0, 0]
    for system, cases in systems:
        suite = etree.SubElement(root, "testsuite", name=f"gunbai.{system}")
        mine = [r for r in records if r.system == system]
        counts = {"tests": 0, "failures": 0, "skipped": 0}

        def case(classname: str, name: str, found: Sequence[Record], counts=counts, suite=suite, system=system) -> None:
            tc = etree.SubElement(suite, "testcase", classname=f"gunbai.{system}.{classname}", name=name)
            counts["tests"] += 1
            errors = [r for r in found if r.severity == "error"]
            for r in errors:
                etree.SubElement(tc, "failure", type=r.rule or "invalid-data", message=r.message).text = r.text
            if errors:
                counts["failures"] += 1
            elif found:
                etree.SubElement(tc, "skipped", message="; ".join(r.message for r in found)).text = "\n".join(r.text for r in found)
                counts["skipped"] += 1

        case("data", "data files load", [r for r in mine if r.check == "data"])
        legal = [r for r in mine if r.check == "legality"]
        owner = _case_of(legal, cases)
        for c in cases:
            case("legality", c.id, [r for i, r in enumerate(legal) if owner.get(i) == c.id])
        by_file: dict[str, list[Record]] = {}
        for i, r in enumerate(legal):
            if i not in owner:
                by_file.setdefault(r.file or r.scenario or system, []).append(r)
        for name, found in by_file.items():
            case("legality", name, found)
        play = [r for r in mine if r.check == "balance"]
        for sv in verdicts:
            if sv.system != system:
                continue
            for e in sv.entries:
                sid = getattr(e, "scenario", None) or e.id
                found = [r for r in play if r.scenario in (sid, getattr(e, "label", None))
                         or (r.scenario or "").lower() == sid.lower()]
                if not hasattr(e, "games"):  # not playable: skipped, with why
                    found = [Record(system, "balance", "warning", sid, None, None, None, e.reason, None, e.lines()[0])]
                case("balance", sid, found)
        suite.set("tests", str(counts["tests"]))
        suite.set("failures", str(counts["failures"]))
        suite.set("errors", "0")
        suite.set("skipped", str(counts["skipped"]))
        totals[0] += counts["tests"]
        totals[1] += counts["failures"]
    root.set("tests", str(totals[0]))
    root.set("failures", str(totals[1]))
    root.set("errors", "0")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def verdict_dict(v) -> dict:
    """A ``--play`` verdict (:class:`~pipeline.play.verdict.Verdict`) as the JSON document gives it."""
    return {"system": v.system, "scenario": v.scenario, "label": v.label, "sides": list(v.side_names),
            "policy": v.policy, "proven": v.proven, "games": v.games, "wins": list(v.wins), "cut_off": v.cut_off,
            "stop": v.stop, "precision": v.precision, "budget": v.budget, "seed": v.seed, "band": v.band}


def json_report(systems: Sequence[tuple[str, Sequence[ScenarioCase]]], records: Sequence[Record],
                verdicts: Sequence = ()) -> bytes:
    """The JSON document (UTF-8 bytes, keys in a fixed order, a final newline) of a ``verify``
    run; its schema is ``docs/verify-report.schema.json``."""
    out_systems = []
    for system, cases in systems:
        legal = [r for r in records if r.system == system and r.check == "legality"]
        owner = _case_of(legal, cases)
        scen = []
        for c in cases:
            mine = [r for i, r in enumerate(legal) if owner.get(i) == c.id]
            state = ("problems" if any(r.severity == "error" for r in mine) else "incomplete" if mine else "legal")
            scen.append({"id": c.id, "file": repo_path(c.files[0]) if c.files else None, "legality": state})
        data_ok = not any(r.system == system and r.check == "data" for r in records)
        out_systems.append({"system": system, "data": "valid" if data_ok else "invalid", "scenarios": scen})
    findings = [{**asdict(r), "file": repo_path(r.file) if r.file else None} for r in records]
    errors = sum(r.severity == "error" for r in records)
    doc = {"format": "gunbai-verify", "version": JSON_VERSION, "ok": errors == 0,
           "summary": {"scenarios": sum(len(c) for _s, c in systems), "errors": errors,
                       "warnings": sum(r.severity == "warning" for r in records)},
           "systems": out_systems, "findings": findings,
           "verdicts": [verdict_dict(e) for sv in verdicts for e in sv.entries if hasattr(e, "games")]}
    return (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
