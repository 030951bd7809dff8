"""``gunbai verify --ladder`` end to end: the record holds the games it played (each figure
replayed here from its seed), the same bytes on one process or two, the verdicts play the
strongest policy it proves, and a bad or stale record says so."""

from __future__ import annotations

from pathlib import Path

from pipeline.data.ladder import FileRecord
from pipeline.play.ladder import MARGIN, newcombe, run_seed
from pipeline.play.runner import run_playability
from pipeline.systems.base import Playable, get_system

from ..test_whole_builds import _data, _gunbai

SEKI = "sekigahara_1600"


def _climb(data: Path, out: Path, *extra: str):
    return _gunbai("verify", "--ladder", "--system", "sekigahara", "--data", str(data), "--out", str(out), "--games", "20", "--policy", "greedy", *extra)


def test_the_record_holds_the_games_it_played_and_the_verdict_plays_its_proof(tmp_path):
    data = _data(tmp_path, "sekigahara")
    (data / "sekigahara" / "ladder.yaml").unlink(missing_ok=True)
    run = _climb(data, tmp_path / "out", "--workers", "2")
    assert run.returncode == 0, run.stderr
    path = data / "sekigahara" / "ladder.yaml"
    assert f"sekigahara: ladder record written to {path}" in run.stdout
    rec = FileRecord.read(data, ["sekigahara"]).scenario("sekigahara", SEKI)
    assert rec is not None and rec.seed == 1 and len(rec.pairs) == 1
    (pair,) = rec.pairs
    assert (pair.weaker, pair.stronger) == ("random", "greedy")
    # replay the three runs from their seeds: random v random, greedy v random, random v greedy
    gs = get_system("sekigahara")
    (p,) = [p for p in gs.playables(data / "sekigahara") if isinstance(p, Playable)]
    cap = p.cap_for("greedy", list(gs.LADDER))
    assert rec.turn_cap == cap == 13  # one more than the rules' 12 player turns
    rnd, greedy = gs.policy("random"), gs.policy("greedy")

    def wins(policies, a, b):
        r = run_playability(p.new_state, policies, games=20, seed=run_seed(1, a, b), turn_cap=cap)
        return [s.wins for s in r.sides]

    base = wins([rnd, rnd], "random", "random")
    on0, on1 = wins([greedy, rnd], "greedy", "random")[0], wins([rnd, greedy], "random", "greedy")[1]
    for side, w in ((0, on0), (1, on1)):
        s = pair.sides[side]
        assert (s.games, s.wins, s.baseline_games, s.baseline_wins) == (20, w, 20, base[side])
        lo, hi = newcombe(w, 20, base[side], 20)
        assert (s.low, s.high) == (round(lo, 4), round(hi, 4))
        assert s.stronger == ((w - base[side]) / 20 >= MARGIN and lo > 0)
    assert pair.proven == all(s.stronger for s in pair.sides)
    assert rec.proven == (["random", "greedy"] if pair.proven else ["random"])
    # the same games on one process: the same bytes
    first = path.read_bytes()
    again = _climb(data, tmp_path / "out", "--workers", "1")
    assert again.returncode == 0, again.stderr
    assert path.read_bytes() == first
    # the verdict plays the strongest policy the record proves on the scenario
    verdict = _gunbai("verify", "--system", "sekigahara", "--data", str(data), "--out", str(tmp_path / "out"), "--play", "25", "--workers", "1")
    assert verdict.returncode in (0, 1), verdict.stderr
    if pair.proven:
        assert "sekigahara SEKI Sekigahara, 1600: greedy policy (strength proven head to head), " in verdict.stdout
    else:
        assert "sekigahara SEKI Sekigahara, 1600: random policy (no stronger policy proven head to head on this scenario), " in verdict.stdout


def test_without_a_record_the_verdict_is_greedy_and_says_strength_not_proven(tmp_path):
    data = _data(tmp_path, "sekigahara")
    (data / "sekigahara" / "ladder.yaml").unlink(missing_ok=True)
    run = _gunbai("verify", "--system", "sekigahara", "--data", str(data), "--out", str(tmp_path / "out"), "--play", "25", "--workers", "1")
    assert run.returncode in (0, 1), run.stderr
    assert "sekigahara SEKI Sekigahara, 1600: greedy policy (strength not proven), 25 games" in run.stdout


def _record(data: Path, code: str = "0" * 64, proven: str = "[random, greedy]", fmt: int = 1) -> Path:
    path = data / "sekigahara" / "ladder.yaml"
    path.write_text(f"format: {fmt}\nsystem: sekigahara\nscenarios:\n  {SEKI}:\n    label: SEKI\n    seed: 1\n    code: '{code}'\n"
                    f"    turn_cap: 13\n    proven: {proven}\n", encoding="utf-8")
    return path


def test_a_record_of_other_engine_code_is_used_and_says_so(tmp_path):
    data = _data(tmp_path, "sekigahara")
    _record(data)
    run = _gunbai("verify", "--system", "sekigahara", "--data", str(data), "--out", str(tmp_path / "out"), "--play", "25", "--workers", "1")
    assert run.returncode in (0, 1), run.stderr
    assert "greedy policy (strength proven head to head)" in run.stdout
    assert f"the ladder record (sekigahara/ladder.yaml) of {SEKI} was played with other engine code than this checkout's" in run.stdout
    # random play asked for by name is never "proven", though it is the ladder's bottom
    asked = _gunbai("verify", "--system", "sekigahara", "--data", str(data), "--out", str(tmp_path / "out"), "--play", "25", "--workers", "1",
                    "--policy", "random")
    assert "sekigahara SEKI Sekigahara, 1600: random policy (strength not proven), 25 games" in asked.stdout


def test_a_bad_record_names_its_file_line_and_value(tmp_path):
    data = _data(tmp_path, "sekigahara")
    path = _record(data, fmt=2)
    run = _gunbai("verify", "--system", "sekigahara", "--data", str(data), "--out", str(tmp_path / "out"), "--play", "25", "--workers", "1")
    assert run.returncode == 1
    assert f"{path}:1: format: 2 is not valid" in run.stderr
    path = _record(data, proven="random")
    run = _gunbai("verify", "--system", "sekigahara", "--data", str(data), "--out", str(tmp_path / "out"), "--play", "25", "--workers", "1")
    assert run.returncode == 1
    assert f"{path}:9: scenarios.{SEKI}.proven: 'random' is not valid" in run.stderr
