"""Playability of Genpei scenarios: seeded games under each policy, judged by the scenario's
thresholds (``playability:`` in the scenario file, :class:`~pipeline.systems.genpei.model.Playability`).

Random and greedy play ``N`` games each; the rollout policy, some thirty times dearer per game,
plays ``N // ROLLOUT_SHARE`` (at least 1). A scenario is unplayable when, under a policy, more
games are cut off by the turn cap than ``max_cut_off_share`` allows (rule ``games-end``), or when
a side's win rate is at or below ``min_win_rate`` (rule ``both-sides-win``) in the **balance
verdict**: the games of the strongest policy that played at least :data:`VERDICT_GAMES` games
(rollout, else greedy), or of every policy when none did.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pipeline.play import Job, PlayabilityReport, run_many, run_playability
from pipeline.systems.genpei.engine.policies import POLICIES
from pipeline.systems.genpei.engine.state import GenpeiState
from pipeline.systems.genpei.load import GenpeiData, LoadedScenario
from pipeline.systems.genpei.model import Scenario
from pipeline.systems.genpei.verify import Finding

#: The rollout policy plays this share of the games of the others (1 in 10).
ROLLOUT_SHARE = 10
#: Games a policy needs to give the balance verdict.
VERDICT_GAMES = 20


def games_for(policy: str, games: int) -> int:
    """Games ``policy`` plays when the others play ``games`` (see the module docstring)."""
    return max(1, games // ROLLOUT_SHARE) if policy == "rollout" else games


@dataclass(frozen=True)
class Thresholds:
    turn_cap: int
    max_cut_off_share: float
    min_win_rate: float


def thresholds_for(sc: Scenario, policy: str) -> Thresholds:
    """The thresholds of ``sc`` for ``policy`` (scenario data, else the schema's defaults)."""
    pl = sc.playability
    key = "greedy" if policy == "rollout" else policy  # the rollout policy plays as greedy does
    share = pl.max_cut_off_share.get(key, 1.0 if key == "random" else 0.2)  # type: ignore[call-overload]
    cap = pl.turn_cap.get(key, 40 if key == "random" else 100)  # type: ignore[call-overload]
    return Thresholds(cap, share, pl.min_win_rate)


# Module-level so that worker processes can pickle the factory.
_DATA: dict[str, GenpeiData] = {}


def _factory(data_key: str, scenario_index: int) -> GenpeiState:
    data = _DATA[data_key]
    return GenpeiState(data, data.scenarios[scenario_index].scenario)


def _state_factory(data: GenpeiData, index: int):
    key = str(data.root.resolve()) + f"#{id(data)}"
    _DATA[key] = data
    return functools.partial(_factory, key, index)


def _warm(data: GenpeiData, sc: Scenario) -> None:
    """Warm the odds caches before worker processes fork, so that each worker does not compute
    the same dice distributions again (2 greedy games, not counted in any report)."""
    import random

    from pipeline.play import play_game

    for k in range(2):
        play_game(lambda: GenpeiState(data, sc), POLICIES["greedy"], random.Random(f"warm:{k}"), 60)


@dataclass
class ScenarioPlay:
    """Every report of one scenario and the findings drawn from them."""

    loaded: LoadedScenario
    reports: dict[str, PlayabilityReport]
    findings: list[Finding]


def play_scenario(data: GenpeiData, loaded: LoadedScenario, games: int, *, seed: int = 1,
                  workers: int = 1) -> ScenarioPlay:
    """Play ``games`` seeded games of ``loaded`` under each policy of :data:`POLICIES`."""
    sc = loaded.scenario
    index = data.scenarios.index(loaded)
    reports: dict[str, PlayabilityReport] = {}
    names = [s.name for s in sc.sides]
    if workers > 1:
        _warm(data, sc)
    for name, policy in POLICIES.items():
        th = thresholds_for(sc, name)
        factory = _state_factory(data, index) if workers > 1 else (lambda sc=sc: GenpeiState(data, sc))
        reports[name] = run_playability(factory, policy, games=games_for(name, games), seed=seed, turn_cap=th.turn_cap,
                                        side_names=names, label=f"{sc.code} / {name}", workers=workers)
    return ScenarioPlay(loaded, reports, judge(loaded, reports))


def verdict_reports(reports: dict[str, PlayabilityReport]) -> tuple[str, list[PlayabilityReport]]:
    """The reports the balance verdict comes from: the strongest policy (last in
    :data:`POLICIES`) that played :data:`VERDICT_GAMES` games, else every policy (``"all"``)."""
    for name in reversed(list(reports)):
        if reports[name].games >= VERDICT_GAMES:
            return name, [reports[name]]
    return "all", list(reports.values())


def verdict_lines(loaded: LoadedScenario, reports: dict[str, PlayabilityReport]) -> list[str]:
    """The balance verdict of a scenario: each side's win rate with its 95% interval."""
    from pipeline.play import wilson

    sc = loaded.scenario
    name, reps = verdict_reports(reports)
    total = sum(r.games for r in reps)
    parts = []
    for i, side in enumerate(sc.sides):
        wins = sum(r.sides[i].wins for r in reps)
        lo, hi = wilson(wins, total)
        parts.append(f"{side.name} {wins / total if total else 0:.1%} (95% CI {lo:.1%}-{hi:.1%})")
    return [f"{sc.code} balance verdict ({name} policy, {total} games): " + "; ".join(parts)]


def stats_lines(reports: dict[str, PlayabilityReport]) -> list[str]:
    """``--stats``: per policy, how often each Command and Dragon card was played and what else
    the engine counted (end-of-turn choices, seppuku, leaders lost…), in total and per game."""
    out = []
    for rep in reports.values():
        totals = rep.event_totals()
        out.append(f"{rep.label}: cards played and events in {rep.games} games (total, per game)")
        for group, prefix in (("Command cards", "command:"), ("Dragon cards", "dragon:"), ("other", "")):
            items = [(k, n) for k, n in totals.items() if (k.startswith(prefix) if prefix else not k.startswith(("command:", "dragon:")))]
            if not items:
                out.append(f"  {group}: none")
                continue
            out.append(f"  {group}: " + ", ".join(f"{k.removeprefix(prefix)} {n} ({n / rep.games:.2f})" for k, n in items))
    return out


def judge(loaded: LoadedScenario, reports: dict[str, PlayabilityReport]) -> list[Finding]:
    """Findings of rules ``games-end`` (each policy) and ``both-sides-win`` (the balance
    verdict's games, :func:`verdict_reports`) from the reports."""
    sc = loaded.scenario
    doc = loaded.doc
    line = doc.line_of(("playability",)) or doc.line_of(("victory", "banners"))
    out: list[Finding] = []
    for name, rep in reports.items():
        th = thresholds_for(sc, name)
        if rep.cut_off_share > th.max_cut_off_share:
            out.append(Finding(loaded.path, line, sc.code, None, "games-end",
                               f"under the {name} policy {rep.cut_off_share:.1%} of {rep.games} games were cut off by the turn cap of {th.turn_cap} turns (at most {th.max_cut_off_share:.0%} allowed)"))
    vname, reps = verdict_reports(reports)
    total = sum(r.games for r in reps)
    for i, side in enumerate(sc.sides):
        wins = sum(r.sides[i].wins for r in reps)
        rate = wins / total if total else 0.0
        th = thresholds_for(sc, "greedy")
        if rate <= th.min_win_rate:
            out.append(Finding(loaded.path, line, sc.code, None, "both-sides-win",
                               f"{side.name} won {wins} of {total} games of the {vname} policy ({rate:.1%}; at least above {th.min_win_rate:.0%} needed)"))
    return out


def play_command(data_root, scenario_files, games: int, *, seed: int = 1, workers: int = 1,
                 out_dir=None, stats: bool = False) -> tuple[list[str], list[Finding], object]:
    """What ``gunbai verify --play N [--stats]`` does for the Genpei system: play every scenario
    (or the given files) under each policy (:func:`games_for`), return the report lines (each
    policy's win rates with 95% intervals, the balance verdict, with ``stats`` the cards played),
    the findings and the chart path (``OUT/genpei/playability.png``)."""
    import time
    from pathlib import Path

    from pipeline.play.chart import write_chart
    from pipeline.systems.genpei.load import load

    root = Path(data_root) / "genpei" if (Path(data_root) / "genpei").is_dir() else Path(data_root)
    data = load(root, scenario_files=list(scenario_files) if scenario_files else None)
    lines: list[str] = []
    findings: list[Finding] = []
    reports: list[PlayabilityReport] = []
    seen: set[str] = set()
    playable = [s for s in data.scenarios if not s.scenario.incomplete()]
    for loaded in data.scenarios:
        if loaded not in playable:
            lines.append(f"{loaded.scenario.code} {loaded.scenario.name}: not played (incomplete: {'; '.join(loaded.scenario.incomplete())})")
    for loaded in playable:
        for note in GenpeiState(data, loaded.scenario).notes:
            if note not in seen:
                seen.add(note)
                lines.append(f"engine note: {note}")
    t0 = time.perf_counter()
    jobs = []
    for loaded in playable:
        sc = loaded.scenario
        index = data.scenarios.index(loaded)
        if workers > 1:
            _warm(data, sc)
        for name, policy in POLICIES.items():
            th = thresholds_for(sc, name)
            factory = _state_factory(data, index) if workers > 1 else (lambda sc=sc: GenpeiState(data, sc))
            jobs.append(Job(factory, policy, games_for(name, games), seed, th.turn_cap, [s.name for s in sc.sides], f"{sc.code} / {name}"))
    done = run_many(jobs, workers=workers)
    names = list(POLICIES)
    for i, loaded in enumerate(playable):
        reps = {name: done[i * len(names) + k] for k, name in enumerate(names)}
        for rep in reps.values():
            lines.extend(rep.lines())
            reports.append(rep)
        lines.extend(verdict_lines(loaded, reps))
        if stats:
            lines.extend(stats_lines(reps))
        findings.extend(judge(loaded, reps))
    played = sum(j.games for j in jobs)
    lines.append(f"played {len(jobs)} runs, {played} games, in {time.perf_counter() - t0:.1f} s ({workers} worker(s))")
    chart = None
    if out_dir is not None and reports:
        chart = write_chart(reports, Path(out_dir) / "genpei" / "playability.png",
                            title=f"Genpei playability: {games} seeded games per policy, rollout {games_for('rollout', games)} (seed {seed})")
    return lines, findings, chart
