"""``gunbai verify --play``: a balance verdict per playable scenario of every system, each from
the cache when nothing that decides it changed.

For each system (:class:`~pipeline.systems.base.GameSystem`) and each of its scenarios the
verdict's **cache key** is the SHA-256 of what decides it: the scenario's own files
(:meth:`~pipeline.systems.base.GameSystem.scenario_files`), the system's rules data (its data
folder less the per-scenario folders and ``schema/``), the code that plays it
(:meth:`~pipeline.systems.base.GameSystem.code_paths`: the system's package less the files that
only draw, print, build or import modules, ``pipeline/play``, the data layer), the Python version and the dependency lock, the policy (whose parameters are
constants of that code) and the ladder record, the seed, the precision, the budget, the batch
size, and the paths the scenario's files are named by (its findings cite them). Verdicts are stored as JSON in ``OUT/.verdicts/<system>/<scenario>.json``; a run whose
keys all match prints them without loading any data or importing any engine, and a change to one
scenario replays that scenario alone. The legality findings of ``verify`` are cached the same
way (``OUT/.verdicts/<system>/legality.json``, keyed by :func:`pipeline.stamp.inputs_digest`).

Games run on this process (``workers=1``), on processes forked from it, or on a Dask cluster
(:class:`~pipeline.play.verdict.DaskExecutor`): the same verdicts on each
(:mod:`pipeline.play.verdict`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.data.ladder import LADDER_FILE, FileRecord
from pipeline.errors import GunbaiError
from pipeline.play.verdict import (
    BATCH,
    Batch,
    BatchResult,
    LadderRecord,
    Task,
    Verdict,
    choose_policy,
    play_games,
)
from pipeline.systems.base import GameSystem, NotPlayable, Playable, ScenarioFiles, get_system

#: Format of the cache entries (an entry of another format is stale).
CACHE_FORMAT = 1
#: The cache folder under the output folder.
CACHE_DIR = ".verdicts"


# ------------------------------------------------------------------------ states in workers
@dataclass(frozen=True)
class StateRef:
    """A picklable reference to a playable scenario's state factory: a worker process makes the
    factory from the data folder once (:meth:`GameSystem.playables`) and keeps it; a process
    forked after :func:`register` finds it made.

    Attributes:
        system: the system's name.
        data_dir: the data folder (absolute).
        files: the scenario files ``verify`` was given (absolute), or None for the whole folder.
        playable: the scenario's id.
        key: the verdict's cache key (its data and code): a long-lived worker never plays
            states of other data under this reference.
    """

    system: str
    data_dir: str
    files: tuple[str, ...] | None
    playable: str
    key: str

    def __call__(self):
        return factory_of(self)()

    @classmethod
    def of(cls, system: str, data_dir: Path, files: Sequence[Path] | None, playable: str, key: str) -> StateRef:
        """The reference with the folder and files made absolute (``files`` None or empty: the
        whole folder)."""
        return cls(system, os.path.abspath(data_dir), tuple(os.path.abspath(f) for f in files) if files else None, playable, key)


_FACTORIES: dict[StateRef, Callable[[], Any]] = {}
_POLICIES: dict[tuple[str, str], Callable] = {}
_CODE: dict[str, str] = {}


def register(ref: StateRef, factory: Callable[[], Any]) -> None:
    """Make ``ref`` stand for ``factory`` in this process (and in processes forked from it)."""
    _FACTORIES[ref] = factory


def factory_of(ref: StateRef) -> Callable[[], Any]:
    """The state factory ``ref`` stands for (loaded from its data folder the first time).

    Raises:
        GunbaiError: the scenario is not in the data folder, or cannot be played.
    """
    made = _FACTORIES.get(ref)
    if made is None:
        files = [Path(f) for f in ref.files] if ref.files is not None else None
        found = {p.id: p for p in get_system(ref.system).playables(Path(ref.data_dir), files)}
        p = found.get(ref.playable)
        if not isinstance(p, Playable):
            raise GunbaiError(f"{ref.data_dir}: no playable scenario {ref.playable!r} of {ref.system} in this worker's data folder")
        made = _FACTORIES[ref] = p.new_state
    return made


#: Files under the systems' code paths that decide no game: the ladder record's reader (its part
#: in a verdict is the scenario's proven policies, in the verdict's request).
NOT_PLAY_CODE = frozenset({Path(__file__).resolve().parent / "data" / "ladder.py"})


#: The third-party distributions whose code decides a game (the loaders' pydantic and PyYAML,
#: the odds' icepool); :func:`code_digest` takes their pins, and those of what they require, from
#: the lock, so a package added for drawing, serving or testing leaves the verdicts and the
#: ladder records standing (``tests/test_verify_play.py`` traces a game of every policy to hold
#: the list).
PLAY_DISTRIBUTIONS = ("icepool", "pydantic", "PyYAML")


def code_digest(system: str) -> str:
    """SHA-256 of the code that decides a game of ``system`` (its
    :meth:`~pipeline.systems.base.GameSystem.code_paths` less :data:`NOT_PLAY_CODE`), the
    Python version and the locked versions of :data:`PLAY_DISTRIBUTIONS`; computed once per
    process."""
    d = _CODE.get(system)
    if d is None:
        from pipeline.stamp import locked_digest, paths_digest

        h = hashlib.sha256(b"gunbai play code\0")
        locked_digest(h, PLAY_DISTRIBUTIONS)
        paths_digest(h, "code", get_system(system).code_paths(), skip=NOT_PLAY_CODE)
        d = _CODE[system] = h.hexdigest()
    return d


def play_batch(batch: Batch) -> BatchResult:
    """Play a batch's games (on a worker process, a Dask worker, or here): the batch function
    of every executor.

    Raises:
        EngineError: a game broke the protocol.
        GunbaiError: this process runs other code than the command that sent the batch.
    """
    system = batch.ref.system
    if code_digest(system) != batch.code:
        raise GunbaiError(f"{batch.label}: this worker runs other gunbai code or dependencies than the command that sent the games "
                          "(their digests differ), so the same seeds would not give the same games: install the same checkout on every worker")
    policy = _POLICIES.get((system, batch.policy))
    if policy is None:
        policy = _POLICIES[(system, batch.policy)] = get_system(system).policy(batch.policy)
    return play_games(batch, factory_of(batch.ref), policy)


# ------------------------------------------------------------------------ cache keys
def rules_digest(gs: GameSystem, data_dir: Path) -> str:
    """SHA-256 of the system's rules data: every file of ``data_dir`` outside its
    per-scenario folders, ``schema/`` and the ladder record (whose part in a verdict is the
    scenario's proven policies, in the request), named relative to it."""
    from pipeline.stamp import _hash_tree

    h = hashlib.sha256(b"gunbai rules data\0")
    _hash_tree(h, "data", Path(data_dir), {Path(data_dir) / f for f in (*gs.scenario_folders, "schema", LADDER_FILE)})
    return h.hexdigest()


def verdict_key(code: str, rules: str, data_dir: Path, sf: ScenarioFiles, request: dict) -> str:
    """The cache key of one verdict (module docstring): ``code`` and ``rules`` digests, the
    scenario's files (named relative to ``data_dir``) and the ``request`` (policy, seed,
    precision, budget…)."""
    from pipeline.systems.base import relative_files

    h = hashlib.sha256(f"gunbai verdict {CACHE_FORMAT}\0{code}\0{rules}\0".encode())
    for name, path in zip(relative_files(data_dir, sf.files), sf.files, strict=True):
        try:
            h.update(f"{name}\0".encode() + Path(path).read_bytes() + b"\0")
        except OSError:
            h.update(f"{name}\0-missing\0".encode())
    h.update(json.dumps(request, sort_keys=True).encode())
    return h.hexdigest()


def _read_entry(path: Path, key: str) -> dict | None:
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT or entry.get("key") != key:
        return None
    return entry


def _write_entry(path: Path, entry: dict) -> None:
    """Write a cache entry atomically; a failure only costs a replay next time."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(entry, sort_keys=True, indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def cache_folder(out_root: Path, system: str) -> Path:
    """Where the verdicts and legality findings of ``system`` are cached."""
    return Path(out_root) / CACHE_DIR / system


# ------------------------------------------------------------------------ legality, cached
@dataclass(frozen=True)
class CachedFinding:
    """A legality finding read back from the cache: its line, whether it is a problem, and the
    scenario it is about (what ``verify`` counts)."""

    text: str
    blocking: bool
    scenario: str
    #: file, line, rule, message, source, severity (:func:`pipeline.ci_formats.finding_fields`)
    fields: dict | None = None

    def __str__(self) -> str:
        return self.text


def finding_scenario(f) -> str:
    """The scenario a finding is about, for counting (a Ronin game's findings name it as
    ``<game>`` or ``<game> (<role>)``)."""
    return getattr(f, "scenario", None) or (getattr(f, "roster", None) or "").split(" (")[0] or str(f)


def verify_cached(data_root: Path, name: str, out_root: Path, *, use_cache: bool = True) -> tuple[list, int, bool]:
    """``(findings, scenarios checked, from the cache)`` of one system's whole data folder:
    from the cache when its inputs digest (:func:`pipeline.stamp.inputs_digest`) is the one
    stored, else verified (and stored).

    Raises:
        DataError: a data file is invalid.
    """
    from pipeline.stamp import inputs_digest

    data_dir = Path(data_root) / name
    # the folder as given is in the key: the findings name their files by it
    key = inputs_digest(data_dir, name, {"verify": CACHE_FORMAT, "data": str(data_dir), "fields": 1})
    path = cache_folder(out_root, name) / "legality.json"
    if use_cache:
        entry = _read_entry(path, key)
        if entry is not None:
            return [CachedFinding(f["text"], f["blocking"], f["scenario"], f.get("fields")) for f in entry["findings"]], entry["count"], True
    from pipeline.ci_formats import finding_fields

    findings, count = get_system(name).verify(data_dir, None)
    _write_entry(path, {"format": CACHE_FORMAT, "key": key, "count": count,
                        "findings": [{"text": str(f), "blocking": getattr(f, "blocking", True), "scenario": finding_scenario(f),
                                      "fields": finding_fields(f)} for f in findings]})
    return list(findings), count, False


# ------------------------------------------------------------------------ verdicts of a run
@dataclass
class SystemVerdicts:
    """What ``verify --play`` found for one system.

    Attributes:
        system: its name.
        entries: per scenario, in the data's order: a :class:`~pipeline.play.verdict.Verdict`
            or a :class:`~pipeline.systems.base.NotPlayable`.
        notes: the engine notes (stand-ins for values no public source gives), once each.
        played: verdicts played in this run; ``cached``: answered from the cache.
        games: games played in this run.
        chart: the chart written (or found up to date), or None.
    """

    system: str
    entries: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: what the verdicts' policies rest on, when the ladder record does not hold for this code
    record_notes: list[str] = field(default_factory=list)
    played: int = 0
    cached: int = 0
    games: int = 0
    chart: Path | None = None

    def findings(self) -> list:
        """The verdicts' findings (:class:`~pipeline.play.judge.PlayFinding`)."""
        from pipeline.play.judge import findings_of

        return [f for e in self.entries if isinstance(e, Verdict) for f in findings_of(e.findings)]


@dataclass
class _Pending:
    system: str
    sf_id: str
    key: str
    request: dict


def _choose(ladder: Sequence[str], system: str, scenario: str, record: LadderRecord, requested: str | None, default: str | None) -> tuple[str, bool]:
    """:func:`~pipeline.play.verdict.choose_policy`, except that the bottom of the ladder asked
    for by name is never "proven" (it is proven only as what is left when nothing above it is)."""
    pol, proven = choose_policy(ladder, system, scenario, record, requested, default)
    if requested is not None and requested == ladder[0]:
        proven = False
    return pol, proven


def _request(system: str, sf: ScenarioFiles, record: LadderRecord, *, policy: str, proven: bool, seed: int, precision: float,
             budget: int) -> dict:
    """What a verdict was asked for, as its cache key digests it (:func:`verdict_key`)."""
    return {"system": system, "scenario": sf.id, "policy": policy, "proven": proven, "seed": seed, "precision": precision,
            "budget": budget, "batch": BATCH, "ladder": list(record.proven(system, sf.id)), "where": [str(p) for p in sf.files]}


def cached_verdicts(data_root: Path, system: str, out_root: Path, record: LadderRecord | None = None) -> dict[str, Verdict | NotPlayable]:
    """The verdicts the cache holds for ``system`` that are still current, by scenario id,
    whatever options (policy, seed, precision, budget) they were played with: an entry counts
    when its key is the one :func:`play_all` would compute today for the options the verdict
    records (the same data, code, lock, ladder record and file names). Nothing is played and
    no engine is imported; a scenario with no current entry is left out. A "not played" entry
    (the scenario cannot be played, e.g. its map is not public) records no options to check its
    key by: it is taken as it stands (the legality findings say the same of today's data).

    ``gunbai report`` reads the balance verdicts with it (:mod:`pipeline.report`).

    Raises:
        GunbaiError: ``system`` is unknown.
    """
    data_root = Path(data_root)
    if record is None:
        record = FileRecord.read(data_root, [system])
    gs = get_system(system)
    data_dir = data_root / system
    code, rules = code_digest(system), rules_digest(gs, data_dir)
    out: dict[str, Verdict | NotPlayable] = {}
    for sf in gs.scenario_files(data_dir, None):
        path = cache_folder(out_root, system) / f"{sf.id}.json"
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT:
            continue
        if entry.get("kind") == "verdict":
            v = entry.get("verdict") or {}
            try:
                request = _request(system, sf, record, policy=v["policy"], proven=v["proven"], seed=v["seed"], precision=v["precision"],
                                   budget=v["budget"])
            except (KeyError, TypeError):
                continue
            if entry.get("key") == verdict_key(code, rules, data_dir, sf, request):
                out[sf.id] = Verdict.from_json(v)
        elif entry.get("kind") == "not played":
            # keyed by the full request, whose options a not-played entry does not record: the
            # scenario's own files and the code decide that it cannot be played
            out[sf.id] = NotPlayable(entry["id"], entry["label"], entry["reason"])
    return out


def play_all(data_root: Path, systems: Sequence[str], *, files: dict[str, list[Path]] | None = None, budget: int, seed: int = 1,
             precision: float, policy: str | None = None, workers: int = 1, dask: str | None = None, out_root: Path | None = None,
             use_cache: bool = True, record: LadderRecord | None = None) -> list[SystemVerdicts]:
    """The verdict of every playable scenario of ``systems`` (of ``files[system]`` where given).

    Args:
        budget: the most games a verdict plays.
        precision: the half-width of the first side's 95% interval at which a verdict stops.
        policy: a policy of the ladders to play instead of each scenario's verdict policy.
        workers: processes on this machine (1: this one).
        dask: the address of a Dask scheduler to send the batches to instead.
        out_root: the output folder (cache and charts); None: no cache, no chart.
        use_cache: False: play every verdict again (and store it).
        record: what head-to-head play proved (default: the ladder records of the data folder,
            ``<system>/ladder.yaml``, :mod:`pipeline.data.ladder`).

    Raises:
        DataError: a data file (or a ``playability:`` policy key) is invalid.
        EngineError: a game broke the protocol.
        DaskMissing: ``dask`` without the Dask extra.
        GunbaiError: the Dask scheduler cannot be reached.
    """
    from pipeline.play.judge import check_policies, judge

    data_root = Path(data_root)
    if record is None:
        record = FileRecord.read(data_root, systems)
    out: list[SystemVerdicts] = []
    pending: dict[tuple[str, str], Task] = {}
    found: dict[tuple[str, str], Playable] = {}
    for name in systems:
        gs = get_system(name)
        data_dir = data_root / name
        given = (files or {}).get(name)
        ladder = list(gs.LADDER)
        sfs = gs.scenario_files(data_dir, given)
        code, rules = code_digest(name), rules_digest(gs, data_dir)
        result = SystemVerdicts(name)
        out.append(result)
        keys: dict[str, str] = {}
        hits: dict[str, dict] = {}
        stale = []
        for sf in sfs:
            pol, proven = _choose(ladder, name, sf.id, record, policy, gs.UNPROVEN_POLICY)
            rec = record.scenario(name, sf.id) if isinstance(record, FileRecord) else None
            if rec is not None and rec.code != code:
                stale.append(sf.id)
            request = _request(name, sf, record, policy=pol, proven=proven, seed=seed, precision=precision, budget=budget)
            keys[sf.id] = verdict_key(code, rules, data_dir, sf, request)
            entry = _read_entry(cache_folder(out_root, name) / f"{sf.id}.json", keys[sf.id]) if (use_cache and out_root is not None) else None
            if entry is not None:
                hits[sf.id] = entry
        if stale:
            result.record_notes.append(f"the ladder record ({name}/{LADDER_FILE}) of {', '.join(stale)} was played with other engine code than "
                                "this checkout's: run gunbai verify --ladder again to prove the policies on this engine")
        if len(hits) == len(sfs):
            for sf in sfs:
                _entry_into(result, hits[sf.id])
            result.cached = len(sfs)
            continue
        playables = gs.playables(data_dir, given)
        by_id = {sf.id: sf for sf in sfs}
        for p in playables:
            if p.id in hits:
                _entry_into(result, hits[p.id])
                result.cached += 1
                continue
            sf = by_id.get(p.id) or ScenarioFiles(p.id, (p.file,) if isinstance(p, Playable) and p.file else ())
            pol, proven = _choose(ladder, name, p.id, record, policy, gs.UNPROVEN_POLICY)
            key = keys.get(p.id) or verdict_key(code, rules, data_dir, sf, {"scenario": p.id, "policy": pol, "seed": seed})
            if isinstance(p, NotPlayable):
                result.entries.append(p)
                if out_root is not None:
                    _write_entry(cache_folder(out_root, name) / f"{p.id}.json",
                                 {"format": CACHE_FORMAT, "key": key, "kind": "not played", "id": p.id, "label": p.label, "reason": p.reason})
                continue
            doc_line = _line_finder(p.file)
            check_policies(p.playability, ladder, p.file, doc_line)
            ref = StateRef.of(name, data_dir, given, p.id, key)
            register(ref, p.new_state)
            pending[(name, p.id)] = Task(ref, p.label, p.side_names, pol, proven, seed, p.cap_for(pol, ladder), precision, budget, code)
            found[(name, p.id)] = p
            result.entries.append((name, p.id))  # a place for the verdict
            result.notes.extend(n for n in p.notes if n not in result.notes)
    if pending:
        keys_ = list(pending)

        def settled(i: int, v: Verdict) -> None:  # judged and stored as soon as it is reached
            name, pid = keys_[i]
            p = found[(name, pid)]
            v.caveat = p.caveat
            v.findings, v.band = judge(v, p.playability, list(get_system(name).LADDER), p.file, p.line)
            wr = p.playability.win_rate
            v.win_band = [wr.min, wr.max] if wr is not None else None
            if out_root is not None:
                _write_entry(cache_folder(out_root, name) / f"{pid}.json",
                             {"format": CACHE_FORMAT, "key": pending[(name, pid)].ref.key, "kind": "verdict", "verdict": v.to_json(), "notes": list(p.notes)})

        by_key = dict(zip(keys_, _run(list(pending.values()), workers=workers, dask=dask, settled=settled), strict=True))
        for result in out:
            for i, e in enumerate(result.entries):
                if isinstance(e, tuple):
                    v = result.entries[i] = by_key[e]
                    result.played += 1
                    result.games += v.games
    if out_root is not None:
        for result in out:
            result.chart = _chart(result, out_root)
    return out


def _entry_into(result: SystemVerdicts, entry: dict) -> None:
    if entry.get("kind") == "not played":
        result.entries.append(NotPlayable(entry["id"], entry["label"], entry["reason"]))
        return
    result.entries.append(Verdict.from_json(entry["verdict"]))
    result.notes.extend(n for n in entry.get("notes", []) if n not in result.notes)


def _line_finder(path: Path | None):
    """``finder(loc) -> line`` of a YAML file (None when unknown)."""
    if path is None:
        return lambda loc: None
    from pipeline.data.yamlfile import YamlDocument

    try:
        doc = YamlDocument.load(Path(path))
    except (GunbaiError, OSError):
        return lambda loc: None
    return doc.line_of


def _run(tasks: list[Task], *, workers: int, dask: str | None, settled=None) -> list[Verdict]:
    from pipeline.play.verdict import DaskExecutor, PoolExecutor, SerialExecutor, play_verdicts

    if dask is not None:
        executor: Any = DaskExecutor(play_batch, dask)
    elif workers > 1:
        executor = PoolExecutor(play_batch, workers)
    else:
        executor = SerialExecutor(play_batch)
    try:
        return play_verdicts(tasks, executor, settled=settled)
    finally:
        executor.close()


def _chart(result: SystemVerdicts, out_root: Path) -> Path | None:
    """Write ``OUT/<system>/playability.png`` of the system's verdicts, unless the one there
    shows these very verdicts (its key is kept beside the cache)."""
    verdicts = [e for e in result.entries if isinstance(e, Verdict)]
    if not verdicts:
        return None
    path = Path(out_root) / result.system / "playability.png"
    key = hashlib.sha256(json.dumps([{**v.to_json(), "cpu": None} for v in verdicts], sort_keys=True).encode()).hexdigest()
    key_file = cache_folder(out_root, result.system) / "chart.key"
    try:
        if path.is_file() and key_file.read_text(encoding="utf-8") == key:
            return path
    except OSError:
        pass
    from pipeline.render.balance_chart import write_chart

    write_chart(verdicts, path, title=f"{result.system}: balance verdicts (95% intervals; Balance = 1 - |p1 - p2|)")
    try:
        key_file.parent.mkdir(parents=True, exist_ok=True)
        key_file.write_text(key, encoding="utf-8")
    except OSError:
        pass
    return path


def summary_line(result: SystemVerdicts) -> str:
    """One line per system: verdicts played and from the cache."""
    n = sum(isinstance(e, Verdict) for e in result.entries)
    skipped = len(result.entries) - n
    parts = [f"{n} verdict(s)"]
    if result.played:
        parts.append(f"{result.played} played ({result.games} games)")
    if result.cached:
        parts.append(f"{result.cached} from the cache")
    if skipped:
        parts.append(f"{skipped} scenario(s) not played")
    return f"{result.system}: " + ", ".join(parts)
