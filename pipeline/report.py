"""``gunbai report``: one static HTML page of everything a build found, ``OUT/report/index.html``.

Per game system and per scenario it shows the map as the setup places it (the scenario sheet
the build drew, ``OUT/<system>/cards/scenario_<id>.png``), the legality verdict with every
finding's rule id, source and data line, the balance verdict (policy, games, each side's win
rate with its 95% interval as an inline SVG chart, Balance, the cut-off share), the lint findings
of the module and the extension, the real-VASSAL results when ``make vassal-check`` has run
(``OUT/vassal-check.json``, written by ``scripts/vassal-check-build``), a gallery of counters and
cards, and the build's figures (``OUT/build-figures.json``, written by ``gunbai build``).

It **reads results, it does not make them**: the legality findings come from the cache
``verify`` keeps (:func:`pipeline.verdicts.verify_cached`: checked again only when the data
changed), the balance verdicts from the verdict cache of ``verify --play``
(:func:`pipeline.verdicts.cached_verdicts`: only those still current for today's data and code;
no game is played), lint runs on the written files. Images are relative links into ``OUT``
(``../<system>/cards/….png``), so the page works when opened as a file, with no server, no
network and no script from elsewhere; a small inline script filters by system and verdict.

Same input, same bytes: everything is sorted or in the data's order, no clock is read; the only
parts that change from one build of the same input to the next are the build's own figures
(its time) and the VASSAL check's run times.

Example::

    >>> write_report(Path("source_data"), Path("build"))    # doctest: +SKIP
    PosixPath('build/report/index.html')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import GunbaiError

#: Where the page goes, under the output folder.
REPORT_DIR = "report"
#: The machine-readable result of ``make vassal-check`` (``scripts/vassal_check_result.py``).
VASSAL_RESULT = "vassal-check.json"
#: Screenshots of setups as VASSAL paints them (``vassal-check --shot OUT/vassal-shots/<id>.png``,
#: or in batch mode ``…/shot.png``, which makes ``shot-<n>-<setup id>.png``), any folder depth.
VASSAL_SHOTS = "vassal-shots"
#: A legality finding's line (every system prints them so, :mod:`pipeline.systems`):
#: ``FILE[:LINE]: WHAT: RULE: MESSAGE [DOC, SECTION]``.
FINDING_LINE = re.compile(r"^(?P<file>[^:]+?)(?::(?P<line>\d+))?: (?P<what>.+?): (?P<rule>[a-z][a-z0-9_.-]*): "
                          r"(?P<message>.*?)(?: \[(?P<source>[^\[\]]*)\])?$")


@dataclass
class FindingRow:
    """One legality finding as the page shows it.

    Attributes:
        text: the line ``verify`` prints.
        file, line: the data file and its 1-based line (None when not known).
        rule: the rule id (``incomplete`` for an incomplete scenario's note).
        what: the scenario (and hex, unit) it is about, as the line names it.
        message: what is wrong; ``source``: ``document, section`` of the rule ("" when none).
        blocking: a problem (True) or a note (an incomplete scenario).
    """

    text: str
    file: str = ""
    line: int | None = None
    rule: str = ""
    what: str = ""
    message: str = ""
    source: str = ""
    blocking: bool = True

    @classmethod
    def of(cls, finding) -> FindingRow:
        """The row of a finding (any system's, or one read back from the cache)."""
        text = str(finding)
        row = cls(text, blocking=bool(getattr(finding, "blocking", True)))
        m = FINDING_LINE.match(text)
        if m:
            row.file, row.rule, row.message, row.source = m["file"], m["rule"], m["message"], m["source"] or ""
            row.what = m["what"]
            row.line = int(m["line"]) if m["line"] else None
        else:
            row.message = text
        return row


@dataclass
class Side:
    """One side of a verdict: its name, win rate and 95% interval (fractions)."""

    name: str
    rate: float
    low: float
    high: float


@dataclass
class ScenarioReport:
    """What the page says of one scenario."""

    id: str
    label: str
    sheet: str | None = None
    #: extra pictures of the set-up (a Ronin game's terrain pieces), relative to the page
    pieces: list[str] = field(default_factory=list)
    findings: list[FindingRow] = field(default_factory=list)
    verdict: object | None = None
    not_played: str | None = None
    sides: list[Side] = field(default_factory=list)
    runs: list[dict] = field(default_factory=list)
    #: screenshots of its setup in VASSAL, relative to the page
    shots: list[str] = field(default_factory=list)

    @property
    def legality(self) -> str:
        """``problems``, ``incomplete`` or ``legal``."""
        if any(f.blocking for f in self.findings):
            return "problems"
        return "incomplete" if self.findings else "legal"

    @property
    def balance(self) -> str:
        """``flagged`` (the verdict has findings), ``balanced``, or ``none`` (no verdict)."""
        if self.verdict is None:
            return "none"
        return "flagged" if getattr(self.verdict, "findings", None) else "balanced"

    @property
    def vassal(self) -> str:
        """``clean``, ``problems`` or ``none`` (no VASSAL run loaded this scenario's setup)."""
        if not self.runs:
            return "none"
        return "clean" if all(r.get("verdict") in ("CLEAN", "BASE-ONLY") for r in self.runs) else "problems"


@dataclass
class SystemReport:
    """What the page says of one game system."""

    system: str
    scenarios: list[ScenarioReport] = field(default_factory=list)
    #: legality findings about no one scenario (a roster, the rules data)
    other_findings: list[FindingRow] = field(default_factory=list)
    #: lint: (file relative to the page, [findings]) per module and extension; None: not run
    lint: list[tuple[str, list]] | None = None
    runs: list[dict] = field(default_factory=list)
    counters: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    chart: str | None = None
    figures: dict | None = None
    checked: int = 0

    def count(self, what: str, value: str) -> int:
        return sum(getattr(s, what) == value for s in self.scenarios)


@dataclass
class Report:
    """The whole page's content (:func:`collect`)."""

    systems: list[SystemReport]
    figures: dict | None
    vassal: dict | None
    #: screenshots that show no scenario's setup (a module alone), relative to the page
    other_shots: list[str] = field(default_factory=list)


def _load_json(path: Path) -> dict | None:
    """A result file read (None when missing or not a JSON object)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


#: How an error names the kind of value expected.
_KINDS = {int: "a whole number", float: "a number", type(None): "null", str: "text", list: "a list", dict: "a mapping", bool: "true or false"}


def _kinds(types: tuple) -> str:
    return " or ".join(_KINDS.get(t, t.__name__) for t in types)


#: A run of the VASSAL result file: key → the types its value may have.
_RUN_FIELDS = {"verdict": (str,), "seconds": (int, type(None)), "label": (str,), "system": (str,), "problems": (list,)}


def _vassal_result(path: Path) -> dict | None:
    """The VASSAL result file (``scripts/vassal_check_result.py``), checked: None when there is
    none or it is of another format (an older checker's; the page says it is not checked).

    Raises:
        GunbaiError: the file is of format 1 but a value is not what it should be (the file and
            the value named).
    """
    doc = _load_json(path)
    if doc is None or doc.get("format") != 1:
        return None
    for key in ("clean", "total", "exit"):
        if not isinstance(doc.get(key), int) or isinstance(doc.get(key), bool):
            raise GunbaiError(f"{path}: {key} is {doc.get(key)!r}; expected a whole number (run make vassal-check again)")
    runs = doc.get("runs")
    if not isinstance(runs, list):
        raise GunbaiError(f"{path}: runs is {runs!r}; expected a list of runs (run make vassal-check again)")
    for i, run in enumerate(runs):
        for key, types in _RUN_FIELDS.items():
            value = run.get(key) if isinstance(run, dict) else None
            if not isinstance(value, types) or isinstance(value, bool) or (key == "problems" and not all(isinstance(p, str) for p in value)):
                raise GunbaiError(f"{path}: runs[{i}].{key} is {value!r}; expected {_kinds(types)} (run make vassal-check again)")
    doc["summary"] = str(doc.get("summary", ""))
    return doc


def _figures(path: Path) -> dict | None:
    """The build's figures (:func:`pipeline.build.write_figures`), or None when there are none
    or they are of another format.

    Raises:
        GunbaiError: a value is not what it should be (the file and the value named).
    """
    doc = _load_json(path)
    if doc is None or doc.get("format") != 1:
        return None
    number = (int, float)
    checks = [("seconds", doc.get("seconds"), number), ("cpu", doc.get("cpu"), number), ("systems", doc.get("systems"), (list,))]
    for i, sy in enumerate(doc.get("systems") or []):
        sy = sy if isinstance(sy, dict) else {}
        checks += [(f"systems[{i}].{k}", sy.get(k), t) for k, t in (("system", (str,)), ("summary", (str,)), ("skipped", (bool,)),
                   ("drawn", (int,)), ("files", (int,)), ("changed", (int,)), ("seconds", (dict,)), ("notes", (list,)))]
        checks += [(f"systems[{i}].seconds.{k}", v, number) for k, v in (sy.get("seconds") or {}).items()]
    for name, value, types in checks:
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise GunbaiError(f"{path}: {name} is {value!r}; expected {_kinds(types)} (run gunbai build again)")
    return doc


def _rel(path: Path, page_dir: Path) -> str:
    """``path`` relative to the page's folder, with forward slashes (a link that works from a
    file:// page)."""
    import os

    return Path(os.path.relpath(path, page_dir)).as_posix()


def _images(folder: Path, page_dir: Path, pattern: str = "*.png", exclude: tuple[str, ...] = ()) -> list[str]:
    return [_rel(p, page_dir) for p in sorted(folder.glob(pattern)) if not p.name.startswith(exclude)]


def collect(data_root: Path, out_root: Path, *, lint: bool = True, use_cache: bool = True) -> Report:
    """Gather what the page shows from ``data_root`` (the scenarios) and ``out_root`` (what the
    build, ``verify`` and ``vassal-check`` wrote). Plays no game.

    Raises:
        DataError: a data file is invalid (the legality check had to run and could not load it).
        GunbaiError: the data folder holds no game system; a result file (``build-figures.json``,
            ``vassal-check.json``) holds a value of the wrong kind.
    """
    from pipeline.build import FIGURES_FILE, systems_in
    from pipeline.data.ladder import FileRecord
    from pipeline.play.verdict import Verdict
    from pipeline.systems.base import get_system
    from pipeline.verdicts import cached_verdicts, verify_cached

    data_root, out_root = Path(data_root), Path(out_root)
    page_dir = out_root / REPORT_DIR
    figures = _figures(out_root / FIGURES_FILE)
    vassal = _vassal_result(out_root / VASSAL_RESULT)
    runs = (vassal or {}).get("runs", [])
    names = systems_in(data_root)
    record = FileRecord.read(data_root, names)
    shots = sorted((out_root / VASSAL_SHOTS).rglob("*.png")) if (out_root / VASSAL_SHOTS).is_dir() else []
    systems = []
    for name in names:
        gs = get_system(name)
        sr = SystemReport(name)
        out_dir = out_root / name
        findings, sr.checked, _hit = verify_cached(data_root, name, out_root, use_cache=use_cache)
        rows = [FindingRow.of(f) for f in findings]
        verdicts = cached_verdicts(data_root, name, out_root, record)
        sr.runs = [r for r in runs if r.get("system") == name]
        for sf in gs.scenario_files(data_root / name, None):
            sc = ScenarioReport(sf.id, sf.id)
            stems = {Path(p).stem for p in sf.files}
            sc.findings = [r for r in rows if r.file and Path(r.file).stem in stems]
            sc.label = _title(sf.files[0]) if sf.files else sf.id
            sheet = out_dir / "cards" / f"scenario_{sf.id}.png"
            if sheet.is_file():
                sc.sheet = _rel(sheet, page_dir)
            sc.pieces = _images(out_dir / "images", page_dir, f"game_terrain_{sf.id}_*.png")
            got = verdicts.get(sf.id)
            if isinstance(got, Verdict):
                sc.verdict = got
                sc.sides = [Side(n, got.rate(i), *got.interval(i)) for i, n in enumerate(got.side_names)]
            elif got is not None:
                sc.not_played = got.reason
            sc.runs = [r for r in sr.runs if f"{sf.id}.vsav" in str(r.get("label", ""))]
            sc.shots = [_rel(p, page_dir) for p in shots if shot_of(p, sf.id)]
            sr.scenarios.append(sc)
        matched = {id(r) for s in sr.scenarios for r in s.findings}
        sr.other_findings = [r for r in rows if id(r) not in matched]
        if lint:
            sr.lint = _lint(out_dir, page_dir)
        sr.counters = _images(out_dir / "images", page_dir, exclude=("game_terrain_", "table_", "board_"))
        sr.cards = _images(out_dir / "cards", page_dir, exclude=("scenario_",))
        chart = out_dir / "playability.png"
        sr.chart = _rel(chart, page_dir) if chart.is_file() else None
        sr.figures = next((s for s in (figures or {}).get("systems", []) if s.get("system") == name), None)
        systems.append(sr)
    shown = {p for sr in systems for sc in sr.scenarios for p in sc.shots}
    return Report(systems, figures, vassal, [p for p in (_rel(p, page_dir) for p in shots) if p not in shown])


def shot_of(path: Path, scenario: str) -> bool:
    """Whether the screenshot ``path`` shows the setup of ``scenario``: its name is the
    scenario's id, or ends in ``-<id>`` (vassal-check's batch mode names the shot of each setup
    ``<shot>-<n>-<setup file name>.png``), a ``.vsav`` left in the name or not.

    >>> shot_of(Path("shots/gp19-3-gp19_nutas_stronghold.png"), "gp19_nutas_stronghold"), shot_of(Path("gp02.png"), "gp20")
    (True, False)
    """
    stem = path.stem.removesuffix(".vsav")
    return stem == scenario or stem.endswith(f"-{scenario}")


def _title(path: Path) -> str:
    """A scenario's title from its file's top-level ``code`` and ``name`` (``OHW4 Take the High
    Ground``; a name ``unknown``: "(name not public)"); the file's name when it has neither or
    cannot be read (the legality findings then say why)."""
    import yaml

    try:
        doc = yaml.load(Path(path).read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, ValueError, yaml.YAMLError):
        return Path(path).stem
    if not isinstance(doc, dict):
        return Path(path).stem
    code, name = doc.get("code"), doc.get("name")
    name = "(name not public)" if name == "unknown" else name
    parts = [str(x) for x in (code, name) if isinstance(x, str | int) and str(x).strip()]
    return " ".join(parts) or Path(path).stem


def _lint(out_dir: Path, page_dir: Path) -> list[tuple[str, list]]:
    """Lint findings of the system's module(s) and extension(s) (an extension against the
    module beside it), per file."""
    from pipeline.vassal.lint import lint_many

    modules = sorted(out_dir.glob("*.vmod"))
    extensions = sorted(out_dir.glob("*.vmdx"))
    out: list[tuple[str, list]] = []
    try:
        if modules:
            found = lint_many(modules)
            out += [(_rel(m, page_dir), found[str(m)]) for m in modules]
        if extensions:
            found = lint_many(extensions, base=modules[0] if modules else None)
            out += [(_rel(x, page_dir), found[str(x)]) for x in extensions]
    except GunbaiError as exc:
        out.append((_rel(out_dir, page_dir), [_LintFailure(str(exc))]))
    return out


@dataclass(frozen=True)
class _LintFailure:
    message: str
    severity: str = "error"
    entry: str = ""
    element_path: str = ""


def render(report: Report) -> str:
    """The page's HTML (``templates/report/index.html.j2``)."""
    import jinja2

    from pipeline.stamp import REPO

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(REPO / "templates" / "report"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["pct"] = lambda x: f"{100 * x:.1f}%"
    return env.get_template("index.html.j2").render(report=report)


def write_report(data_root: Path, out_root: Path, *, lint: bool = True, use_cache: bool = True) -> Path:
    """Write ``OUT/report/index.html`` (atomically) and return its path.

    Raises:
        DataError, GunbaiError: as :func:`collect`.
    """
    from pipeline.output import write_bytes_atomic

    html = render(collect(data_root, out_root, lint=lint, use_cache=use_cache))
    path = Path(out_root) / REPORT_DIR / "index.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_bytes_atomic(path, html.encode("utf-8"))
