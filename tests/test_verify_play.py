"""``gunbai verify --play`` end to end: the one system interface, bad options, the verdict cache,
the playability band from the data, and the same verdicts on one process, several and Dask."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.play.verdict import Verdict
from pipeline.systems.base import SYSTEMS, GameSystem, get_system
from pipeline.verdicts import play_all

from .test_whole_builds import DATA, ROOT, _data, _gunbai


def _run_code(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT)


def test_every_system_offers_the_one_interface_and_imports_lazily():
    for name in SYSTEMS:
        gs = get_system(name)
        assert isinstance(gs, GameSystem) and gs.name == name
        assert list(gs.LADDER)[0] == "random" and gs.print_sheets
    # naming a system, its ladder and its files imports no rules engine and loads no data
    run = _run_code("import sys\nfrom pathlib import Path\nfrom pipeline.systems.base import SYSTEMS, get_system\n"
                    "for n in SYSTEMS:\n    g = get_system(n); list(g.LADDER); g.scenario_files(Path('source_data') / n)\n"
                    "print(sorted(m for m in sys.modules if m.startswith('pipeline.systems.') and m.count('.') > 2 and not m.endswith(('.system', '.base'))))")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


@pytest.mark.parametrize("args, message", [
    (["--play", "99999999999999999999"], "--play 99999999999999999999 is not valid; expected a game budget from 0 up to 10,000,000 (10^7) games per scenario"),
    (["--play", "10000001"], "--play 10000001 is not valid"),
    (["--play", "-5"], "--play -5 is not valid"),
    (["--play", "10", "--workers", "0"], "--workers 0 is not valid; expected 1 to 512 processes"),
    (["--play", "10", "--workers", "-3"], "--workers -3 is not valid"),
    (["--play", "10", "--precision", "0"], "--precision 0.0 is not valid; expected a half-width of the 95% interval above 0 and below 0.5"),
    (["--play", "10", "--precision", "0.5"], "--precision 0.5 is not valid"),
    (["--play", "10", "--precision", "-0.1"], "--precision -0.1 is not valid"),
    (["--dask", "tcp://127.0.0.1:1"], "--dask needs --play N"),
    (["--play", "10", "--system", "ohw", "--policy", "rollout"], "--policy 'rollout' is not a policy of every system played (ohw: random, greedy, ismcts)"),
    (["--ladder", "--play", "10"], "--ladder takes --games (games per run), not --play"),
    (["--ladder", "--games", "0"], "--games [0] is not valid; expected --ladder and 1 to 100,000 games per run"),
    (["--games", "10"], "--games [10] is not valid; expected --ladder"),
    (["--ladder", "--dask", "tcp://127.0.0.1:1"], "--ladder plays on this machine (--workers), not on a Dask cluster"),
    (["--ladder", "--system", "ohw", "--policy", "rollout"], "--policy 'rollout' is not a policy of every system played"),
])
def test_bad_play_options_are_refused_with_exit_2(tmp_path, args, message):
    run = _gunbai("verify", "--data", str(_data(tmp_path, "ohw")), "--out", str(tmp_path / "out"), *args)
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert message in run.stderr
    assert not (tmp_path / "out").exists()  # refused before anything was read or written


def test_dask_without_the_extra_says_how_to_install_it(tmp_path):
    data = _data(tmp_path, "ohw")
    code = ("import sys\nsys.modules['distributed'] = None\nsys.modules['dask'] = None\nfrom pipeline.cli import main\n"
            f"sys.argv = ['gunbai', 'verify', '--data', {str(data)!r}, '--play', '10', '--dask', 'tcp://127.0.0.1:8786']\nmain()")
    run = _run_code(code)
    assert run.returncode == 2, run.stderr
    assert "--dask needs the optional Dask extra, which is not installed: pip install 'gunbai[dask]'" in run.stderr


def _verdict_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if not line.startswith(("ohw:", "sekigahara:", "played ", "chart:"))]


def test_a_second_run_is_a_cache_hit_and_a_changed_scenario_alone_is_replayed(tmp_path):
    data, out = _data(tmp_path, "ohw", "sekigahara"), tmp_path / "out"
    # random play: these are the cache's tests, not the policies' (and without OHW30, whose Red
    # rearguard random play never wins: a finding, exit 1)
    (data / "ohw" / "scenarios" / "ohw30_last_stand.yaml").unlink()
    args = ("verify", "--data", str(data), "--out", str(out), "--play", "40", "--workers", "1", "--policy", "random")
    first = _gunbai(*args)
    assert first.returncode == 0, first.stderr
    assert "ohw: 2 verdict(s), 2 played (80 games)" in first.stdout and "sekigahara: 1 verdict(s), 1 played (40 games)" in first.stdout
    for system in ("ohw", "sekigahara"):
        assert (out / system / "playability.png").read_bytes()[:4] == b"\x89PNG"
    # nothing changed: every verdict from the cache, no data loaded, no engine imported
    code = ("import sys\nfrom pipeline.cli import main\n"
            f"sys.argv = ['gunbai', *{list(args)!r}]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
            "print('LOADED', sorted(m for m in sys.modules if m.endswith(('.engine', '.load', '.model'))), file=sys.stderr)\nsys.exit(code)")
    again = _run_code(code)
    assert again.returncode == 0, again.stderr
    assert "ohw: 2 verdict(s), 2 from the cache" in again.stdout and "sekigahara: 1 verdict(s), 1 from the cache" in again.stdout
    assert "LOADED []" in again.stderr
    assert _verdict_lines(again.stdout) == _verdict_lines(first.stdout)
    # one scenario edited: that one replayed, the others from the cache
    path = data / "ohw" / "scenarios" / "ohw11_surprise_attack.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    third = _gunbai(*args)
    assert third.returncode == 0, third.stderr
    assert "ohw: 2 verdict(s), 1 played (40 games), 1 from the cache" in third.stdout and "sekigahara: 1 verdict(s), 1 from the cache" in third.stdout
    # another precision or seed is another verdict; --no-cache plays everything again
    assert "2 played" in _gunbai(*args, "--precision", "0.1").stdout
    forced = _gunbai(*args, "--no-cache")
    assert "ohw: 2 verdict(s), 2 played" in forced.stdout and "sekigahara: 1 verdict(s), 1 played" in forced.stdout
    assert _verdict_lines(forced.stdout) == _verdict_lines(first.stdout)


def test_a_playability_band_in_the_data_passes_or_flags_the_verdict(tmp_path):
    data, out = _data(tmp_path, "ohw"), tmp_path / "out"
    path = data / "ohw" / "scenarios" / "ohw11_surprise_attack.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "playability:\n  win_rate: {min: 0.8, max: 1.0}\n  note: meant to favour the first side\n", encoding="utf-8")
    line = len(text.splitlines()) + 2  # the line of playability's value (its first key)
    run = _gunbai("verify", str(path), "--data", str(data), "--out", str(out), "--play", "50", "--workers", "1", "--system", "ohw", "--policy", "random")
    assert run.returncode == 1
    # random play: the first side wins about a third of OHW11 (the flag is the data's band, not a guess)
    assert f"{path}:{line}: ohw OHW11 Surprise Attack: win-rate-band: " in run.stderr
    assert "outside the band 80%-100% [gunbai, Playability (pipeline/play/judge.py)]" in run.stderr
    assert "  playability: flag: first side " in run.stdout
    path.write_text(text + "playability:\n  win_rate: {min: 0.0, max: 0.7}\n", encoding="utf-8")
    ok = _gunbai("verify", str(path), "--data", str(data), "--out", str(out), "--play", "50", "--workers", "1", "--system", "ohw", "--policy", "random")
    assert ok.returncode == 0, ok.stderr
    assert "  playability: pass: first side " in ok.stdout
    path.write_text(text + "playability:\n  turn_cap: {greedyy: 10}\n", encoding="utf-8")
    bad = _gunbai("verify", str(path), "--data", str(data), "--out", str(out), "--play", "50", "--system", "ohw", "--policy", "random")
    assert bad.returncode == 1
    assert f"{path}:{line}: playability.turn_cap: 'greedyy' is not valid; expected a policy of the ladder (random, greedy, ismcts)" in bad.stderr


def _entries(results) -> list:
    return [(r.system, e) for r in results for e in r.entries]


def test_same_seeds_same_verdicts_on_one_process_several_and_a_dask_cluster(tmp_path):
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    kw = dict(budget=60, seed=3, precision=0.05, policy="random")
    systems = ["ohw", "sekigahara"]
    one = _entries(play_all(DATA, systems, workers=1, **kw))
    assert all(isinstance(e, Verdict) for _s, e in one) and len(one) == 4
    assert _entries(play_all(DATA, systems, workers=2, **kw)) == one
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        assert _entries(play_all(DATA, systems, dask=cluster.scheduler_address, **kw)) == one
        # and through the command: the same lines as a local run
        args = ("verify", "--system", "ohw", "--play", "60", "--seed", "3", "--no-cache", "--out", str(tmp_path / "out"), "--policy", "random")
        on_dask = _gunbai(*args, "--dask", cluster.scheduler_address)
    local = _gunbai(*args, "--workers", "1")
    # random play of OHW30: its Red rearguard never wins, a finding (exit 1) on both
    assert on_dask.returncode == local.returncode == 1 and on_dask.stderr == local.stderr, on_dask.stderr
    assert f"on the Dask cluster at {cluster.scheduler_address}" in on_dask.stdout
    assert _verdict_lines(on_dask.stdout) == _verdict_lines(local.stdout) and "ohw OHW4" in on_dask.stdout


def test_the_code_digest_covers_every_module_a_game_runs():
    # what decides a verdict's games must be in its cache key: every pipeline module loaded to
    # build the playables and play a game lies under the system's code_paths (or only draws,
    # shows progress, checks legality or writes outputs); of the system's drawing_code, no
    # function runs (loading checks no text fit: that is verification's), whatever
    # policy of the ladder plays; nor of a third-party package outside PLAY_DISTRIBUTIONS
    code = """
import random, sys
from pathlib import Path
from pipeline.play import play_game
from pipeline.systems.base import Playable, SYSTEMS, get_system
from importlib.metadata import packages_distributions
from pipeline.stamp import requirement_closure
from pipeline.verdicts import PLAY_DISTRIBUTIONS
bad, ran, third, dists = [], [], set(), packages_distributions()
for name in SYSTEMS:
    before = set(sys.modules)
    gs = get_system(name)
    p = next(p for p in gs.playables(Path('source_data') / name) if isinstance(p, Playable))
    drawing = {str(d) for d in gs.drawing_paths()}
    called = set()
    sys.setprofile(lambda frame, event, arg: called.add(frame.f_code.co_filename) if event == 'call' else None)
    try:
        for policy in gs.ladder().values():
            play_game(p.new_state, policy, random.Random(1), 8)
    finally:
        sys.setprofile(None)
    ran += sorted((name, Path(f).name) for f in called & drawing)
    for f in called:
        if 'site-packages' in Path(f).parts:
            top = Path(f).parts[Path(f).parts.index('site-packages') + 1].removesuffix('.py')
            if not top.startswith(('_distutils_hack', '__editable__')):  # the import system's finders
                third.update((d, name) for d in dists.get(top, [top]))
    roots = [str(c) for c in gs.code_paths()] + sorted(drawing)
    for m in sorted(set(sys.modules) - before):
        f = getattr(sys.modules[m], '__file__', None) or ''
        if m.startswith('pipeline.') and not any(f == r or f.startswith(r + '/') for r in roots) \\
                and not m.startswith(('pipeline.render', 'pipeline.vassal', 'pipeline.progress', 'pipeline.legality', 'pipeline.build', 'pipeline.output')):
            bad.append((name, m))
closure = set(requirement_closure(PLAY_DISTRIBUTIONS))
print(bad, ran, sorted(x for x in third if requirement_closure([x[0]])[0] not in closure), len(third) > 0)
"""
    run = _run_code(code)
    assert run.returncode == 0, run.stderr
    # no module outside the digest, no drawing code run, no third-party code run outside the
    # pinned play distributions (and some of theirs ran: pydantic's, at least)
    assert run.stdout.strip() == "[] [] [] True"


@pytest.mark.parametrize("system", ["genpei", "ohw", "sekigahara", "ronin"])
def test_the_code_of_a_game_imports_no_drawing_code(system):
    # the code digest leaves drawing_code out: no file of the digest may take a name from it
    # (the interface's build, render and text-fit check aside, which no game calls)
    import ast

    from pipeline.systems.base import get_system

    gs = get_system(system)
    drawing = {f"pipeline.systems.{system}.{Path(f).stem}" for f in gs.drawing_code}
    package = Path("pipeline/systems") / system
    taken = []
    for path in gs.code_paths():
        if not path.is_relative_to(package.resolve()):
            continue
        parts = path.relative_to(Path("pipeline").resolve()).with_suffix("").parts  # ("systems", "genpei", "load")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                pkg = ("pipeline", *parts[: len(parts) - node.level]) if node.level else ()
                module = ".".join((*pkg, *([node.module] if node.module else [])))
                names = [module] + [f"{module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for n in names:
                if n.rstrip(".") in drawing:
                    taken.append((path.name, n.rstrip("."), tuple(a.name for a in getattr(node, "names", ()))))
    allowed = {
        # the interface's build, render and text-fit check, which play no game (the fit check is
        # verification's: gunbai verify refuses such data; loading draws nothing)
        ("system.py", ("build", "render")), ("system.py", ("check_fit",)),
        ("verify.py", ("DIRECTIONS",)),  # Genpei's legality names hexsides by the layout's six directions
    }
    assert [t for t in taken if (t[0], t[2]) not in allowed] == []
    assert any(t[0] == "system.py" and t[2] == ("check_fit",) for t in taken)  # the check is seen


@pytest.mark.parametrize("system", ["genpei", "ohw", "sekigahara", "ronin"])
def test_an_engine_reads_the_data_it_is_given_not_the_loader(system):
    # the house rule: an engine reads its rules from the loaded data it is given; the data's
    # shape lives in the system's data.py, and of the code that decides a game only the
    # interface (system.py: playables, verify) imports the loader
    import ast

    from pipeline.systems.base import get_system

    gs = get_system(system)
    loader = f"pipeline.systems.{system}.load"
    package = (Path("pipeline/systems") / system).resolve()
    importers = set()
    for path in gs.code_paths():
        for f in ([path] if path.is_file() else sorted(path.rglob("*.py"))):
            for node in ast.walk(ast.parse(f.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module == loader \
                        or isinstance(node, ast.Import) and any(a.name == loader for a in node.names):
                    importers.add(f.relative_to(package).as_posix() if f.is_relative_to(package) else str(f))
    assert importers == {"system.py"}


def test_what_the_code_digest_leaves_out_exists():
    # the ladder record's reader is left out of the code digest (a change to the record's
    # schema must not mark every record as "of other engine code"; the loaders take only its
    # file name from it, to let ladder.yaml stand in a data folder); the path must stay right
    from pipeline.verdicts import NOT_PLAY_CODE, code_digest

    assert NOT_PLAY_CODE and all(p.is_file() for p in NOT_PLAY_CODE)
    assert {p.name for p in NOT_PLAY_CODE} == {"ladder.py"}
    assert len(code_digest("ohw")) == 64


@pytest.mark.parametrize("system", ["genpei", "ohw", "sekigahara", "ronin"])
def test_the_shipped_ladder_records_are_of_todays_game_code(system):
    # the README's ladder table and every verdict's policy come from source_data/*/ladder.yaml;
    # a change to the code that plays a game (code_digest) must re-prove them
    # (gunbai verify --ladder --games 100 --games 40), else verify --play says each record was
    # played with other engine code
    import re

    from pipeline.verdicts import code_digest

    text = (ROOT / "source_data" / system / "ladder.yaml").read_text(encoding="utf-8")
    digests = set(re.findall(r"^\s*code: ([0-9a-f]{64})$", text, re.M))
    assert digests == {code_digest(system)}
