"""The Ronin play engine: hand-worked rolls from the book's own examples, morale, wounds, the
scenarios' victory conditions, refusing models whose statline is unknown, whole seeded games."""

from __future__ import annotations

import math
import random
import shutil
from fractions import Fraction as F

import pytest

from pipeline.play import play_game, random_policy
from pipeline.systems.base import NotPlayable, get_system
from pipeline.systems.ronin import engine
from pipeline.systems.ronin.engine import RoninGame, UnplayableGame, turn_cap
from pipeline.systems.ronin.load import load

from .conftest import DATA


def _game(data, gid: str) -> RoninGame:
    return RoninGame.from_game(data, next(g.value for g in data.games if g.value.id == gid))


def _model(data, faction: str, model_id: str, weapons=None, armour=None, attributes=()):
    """A Profile of a faction's model with the given weapons (default: its listed ones)."""
    mt = next(m for m in data.factions[faction].models if m.id == model_id)
    return engine._profile(data, model_id, mt, list(weapons or mt.weapons), armour or mt.armour, mt.combat_pool, list(mt.attributes) + list(attributes), False, False)


def _state(data, gid="skirmish"):
    st = _game(data, gid).new_state()
    st.pending = None
    st.steps = []
    for m in st.models.values():
        m.on_table = True
    st._tab = None
    return st


def _only(st, *ids):
    for m in st.models.values():
        m.on_table = m.id in ids
    st._tab = None


def test_initiative_of_the_books_combat_example(data):
    """ronin_book, Combat Example (p.23): Samurai Initiative 3 + 1 for the naginata; the yari
    Ashigaru Initiative 2 + 1 (erratum yari_initiative); the katana Ashigaru 2."""
    st = _state(data)
    m = st.models["red1"]
    for prof, bonus in ((_model(data, "bushi", "samurai", ["katana", "naginata"]), 4),
                        (_model(data, "bushi", "ashigaru", ["katana", "yari"]), 3),
                        (_model(data, "bushi", "ashigaru", ["katana"]), 2)):
        m.p = prof
        assert st.initiative_bonus(m) == bonus
    m.wound = "grievous"  # -2 Initiative (wound table p.22-23)
    assert st.initiative_bonus(m) == 0
    m.rounds = 1
    m.p = _model(data, "bushi", "ashigaru", ["nagae_yari"])  # +3 in the first round, -2 later (p.21)
    m.wound = "none"
    assert st.initiative_bonus(m) == 0
    m.rounds = 0
    assert st.initiative_bonus(m) == 5


def test_one_attack_worked_by_hand(data):
    """p.19-22: an Ashigaru with a katana (Fight 2) attacks a Temple Attendant (Fight 1, no
    armour), neither Enhancing: Wound Score = 2d6 + 2 - (1d6 + 1). A Critical wound needs
    2d6 - 1d6 >= 5: over the defender's die 1..6, 26 + 21 + 15 + 10 + 6 + 3 = 81 of 216."""
    st = _state(data)
    a, t = st.models["red3"], st.models["blue1"]
    a.p = _model(data, "bushi", "ashigaru", ["katana"])
    t.p = _model(data, "sohei", "temple_attendant", ["katana"])
    odds = dict(st._melee_odds(a, t, enhance_attack=False, enhance_defence=False))
    assert odds["critical"] == F(81, 216)
    assert sum(odds.values()) == 1
    # the free attack on a model that Withdraws is +1 (p.13): 2d6 - 1d6 >= 4, 30 + 26 + 21 + 15 + 10 + 6 of 216
    free = dict(st._melee_odds(a, t, enhance_attack=False, enhance_defence=False, extra_attack=1))
    assert free["critical"] == F(30 + 26 + 21 + 15 + 10 + 6, 216) == F(1, 2)


@pytest.mark.parametrize("phase,distance,fired,expected", [
    # p.16: 2d6 + Shoot 1 - 1 (14" away) - 1 (Move Phase) against 6 + 3 (heavy armour)
    ("move", 14, 0, {"none": F(33, 36), "stunned": F(2, 36), "light": F(1, 36)}),
    # p.17: later, 5" away (+1), fired before (-1), Action Phase: 2d6 + 1 against 9
    ("action", 5, 1, {"none": F(26, 36), "stunned": F(4, 36), "light": F(5, 36), "grievous": F(1, 36)}),
])
def test_the_books_shooting_example(data, phase, distance, fired, expected):
    st = _state(data)
    archer, samurai = st.models["red2"], st.models["blue1"]
    archer.p = _model(data, "bushi", "ashigaru", ["katana", "yumi"])
    samurai.p = _model(data, "bushi", "samurai")
    _only(st, "red2", "blue1")
    archer.x, archer.y = 22, 20  # in the open, east of every terrain piece
    samurai.x, samurai.y = 22, 20 - distance - 2 * st.r
    st.phase, archer.shots = phase, fired
    assert archer.p.missile == "yumi" and samurai.p.armour == "heavy"
    got = {k: v for k, v in st.shot_odds(archer, samurai) if v}
    assert got == expected


def test_teppo_ignores_light_and_medium_armour_and_must_reload(data):
    st = _state(data)
    gun, target = st.models["red1"], st.models["blue3"]
    assert gun.p.missile == "teppo" and target.p.armour == "medium"
    _only(st, "red1", "blue3")
    gun.x, gun.y, target.x, target.y = 22, 20, 22, 10  # 9" apart edge to edge, in the open: no modifier
    st.phase = "action"
    # 2d6 + 1 against 6 (medium armour counts as none against a teppo): no wound on 5 or less
    assert dict(st.shot_odds(gun, target))["none"] == F(10, 36)
    assert target in st._shoot_targets(gun)
    st._shoot(gun, target)
    st.pending = None
    assert not gun.loaded
    assert ("reload",) not in st._options_act("red1")  # it shot this turn (p.24)
    st._auto_turn_start(None)
    st.steps, st.phase = [], "action"
    assert target not in st._shoot_targets(gun) and ("reload",) in st._options_act("red1")
    st._do_act("red1", ("reload",))
    st._auto_turn_start(None)
    st.steps, st.phase = [], "action"
    assert target in st._shoot_targets(gun)


def test_morale_tests_worked_by_hand(data):
    """p.11-12 and errata: 2d6 + modifiers at most the Morale Rating (Bushi 9); a Commander -1,
    Wavering +1, below half strength +1, below a quarter +1 more; a banner re-rolls a failure."""
    st = _state(data)  # the Bushi sample: a Samurai (Commander), four Ashigaru, no banner
    assert st.sides[0].plan.morale == 9
    assert st.morale_pass_chance(0) == F(33, 36)  # 2d6 - 1 <= 9
    st.sides[0].morale = "wavering"
    assert st.morale_pass_chance(0) == F(30, 36)
    for mid in ("red1", "red2", "red3"):
        st.models[mid].alive = False  # 2 of 5 left: below half
    assert st.morale_pass_chance(0) == F(26, 36)  # 2d6 <= 8
    guard = _state(data, "assassination")  # the Defender's bodyguard carries a banner
    d = next(i for i, s in enumerate(guard.sides) if s.plan.role == "Defender")
    guard.sides[d].morale = "wavering"
    p = F(30, 36)
    assert guard.morale_pass_chance(d) == p + (1 - p) * p
    assert guard.sides[1 - d].plan.no_morale  # "Ninja do not have to check Morale" (p.63)


def test_wounds_combine_as_the_errata_says(data):
    st = _state(data)
    a, m = st.models["blue1"], st.models["red3"]
    st._wound(a, m, "light", "melee")
    assert m.wound == "light"
    st._wound(a, m, "stunned", "melee")
    assert (m.wound, m.stunned) == ("light", 1)  # Stunned does not count towards a wound
    st._wound(a, m, "light", "melee")
    assert m.wound == "grievous" and m.alive
    st._wound(a, m, "light", "melee")
    assert not m.alive and m.killer_rank == a.p.rank and m.id in st.slain


def test_grievous_wound_takes_a_counter_at_once(data):
    st = _state(data)
    st.combat = engine.Combat((["red3"], ["blue1"]), attack={"red3": 1, "blue1": 1}, defence={"red3": 1, "blue1": 0})
    st._wound(st.models["blue1"], st.models["red3"], "grievous", "melee")
    assert st.combat.attack["red3"] == 0 and st.combat.defence["red3"] == 1
    assert st.pool(st.models["red3"]) == st.models["red3"].p.combat_pool - 1


def test_withdraw_gives_one_free_attack_a_turn(data):
    """p.13 and errata withdraw_free_attack: the enemy may make one attack at +1, without
    Enhancing, at a model that Withdraws; at most one a turn."""
    st = _state(data)
    _only(st, "red3", "blue1")
    m, e = st.models["red3"], st.models["blue1"]
    m.x, m.y = 12, 12
    e.x, e.y = 12, 12 - 2 * st.r
    assert st.engaged(m) and ("withdraw",) in st._options_move("red3")
    st._withdraw(m)
    assert not st.engaged(m) and abs(st.dist(m, e) - 2) < 1e-9
    assert st.steps[0][0] == "free_attack" and st._options_free_attack(st.steps[0][2]) == [("let_go",), ("strike", "blue1")]
    st.steps = []
    st._do_free_attack(("red3", ("blue1",)), ("strike", "blue1"))
    assert m.struck_on_withdraw and st.pending is not None  # the attack's roll
    st.pending = None
    m.x, m.y = 12, 12  # back in contact, it withdraws again the same turn: no second attack
    st._withdraw(m)
    assert not st.engaged(m) and st.steps == []


def test_reserves_in_the_defence(data):
    """Scenarios: Defence (p.62), Reserves (p.59): half the Attacker's models (rounding up) on
    the table at the start, half of the rest (rounding up) on turn 2, the others on turn 3."""
    g = _game(data, "defence")
    att = next(s for s in g.sides if s.role == "Attacker")
    assert len(att.models) == 12 and list(att.arrives) == [1] * 6 + [2] * 3 + [3] * 3
    assert all(a == 1 for a in next(s for s in g.sides if s.role == "Defender").arrives)


def test_standard_victory_points_with_the_bushi_rules(data):
    """p.58-59 (Rank of each enemy killed, Rank 0 half a point) and the Bushi's own (p.33-34):
    -1 for a Bushi killed by a lower Rank, +1 for a head taken by a living Samurai."""
    st = _state(data)
    st.sides[0].minor = st.sides[1].minor = None
    reds, blues = st.models, st.models
    assert reds["red5"].p.type == "Samurai" and reds["red5"].p.rank == 3
    st._kill(1, reds["red5"])  # the Samurai, killed by a Temple Attendant (Rank 1)
    st._kill(3, reds["red4"])  # an Ashigaru, killed by the Sohei (Rank 3)
    st._kill(1, blues["blue5"])  # the Sohei (Rank 3)
    st._kill(1, blues["blue1"])  # a Temple Attendant (Rank 1)
    assert st.victory_points() == [3 + 1 - 1, 3 + 1]
    reds["red5"].alive = True
    reds["red5"].heads = 1
    assert st.victory_points()[0] == 3 + 1 + 1


def test_scenario_objectives(data):
    # Capture (p.60): a model in base contact with the objective, not engaged: +5
    st = _state(data, "capture")
    st.sides[0].minor = st.sides[1].minor = None
    m = st.models["red3"]
    m.x, m.y = st.objective[0], st.objective[1] - 2 * st.r
    assert st.objective_holder() == 0 and st.victory_points() == [5, 0]
    # Defend the Village (p.66): civilians left +3 each for the Defender, slain +3 for the Attacker
    st = _state(data, "defend_the_village")
    d = next(i for i, s in enumerate(st.sides) if s.plan.role == "Defender")
    assert len(st.civilians) == 4 and st.victory_points()[d] == 12
    st._kill(1, st.models["civ1"])
    assert st.victory_points()[d] == 9 and st.victory_points()[1 - d] == 3
    # Assassination (p.63): the Attacker wins as soon as the Defender's Leader falls
    st = _state(data, "assassination")
    d = next(i for i, s in enumerate(st.sides) if s.plan.role == "Defender")
    leader = st._leader(d)
    assert leader.p.rank == 3
    st._kill(3, leader)
    assert st.is_terminal() and st.winner() == 1 - d


def test_skirmish_minor_objectives(data):
    """p.60: 4 lose at most 25% of the force; 5 kill more than 75% of the enemy; 6 the same as
    the opponent (both 6: none)."""
    st = _state(data)
    st.sides[0].minor, st.sides[1].minor = 4, 6
    assert st.minor_objective_met(0) and st.minor_objective_met(1)
    st._kill(1, st.models["red1"])  # 1 of 5 = 20%
    assert st.minor_objective_met(0)
    st._kill(1, st.models["red2"])
    assert not st.minor_objective_met(0)
    st.sides[0].minor = 5
    for mid in ("blue1", "blue2", "blue3", "blue4"):
        st._kill(1, st.models[mid])
    assert len(st.buntai(1)) == 6 and not st.minor_objective_met(0)  # 4 of 6 is not more than 75%
    st._kill(1, st.models["blue5"])
    assert st.minor_objective_met(0)
    st.sides[0].minor = st.sides[1].minor = 6
    assert not st.minor_objective_met(0) and not st.minor_objective_met(1)


def test_tournament_matches_are_won_on_match_points(data):
    """p.64: Light 1, Grievous 2, Critical 3 match points; a match ends after six turns."""
    st = _game(data, "tournament").new_state()
    st.pending = None
    st.steps = []
    st._auto_next_match(None)
    a, b = (st.models[i] for i in st.match)
    assert (a.side, b.side) == (0, 1) and math.isclose(math.dist((a.x, a.y), (b.x, b.y)), 12 - 2 * st.r)
    st._wound(a, b, "light", "melee")
    st._wound(b, a, "stunned", "melee")
    st.match_turn = 5
    st.steps = []
    st._match_turn_end()
    assert st.sides[0].match_wins == 1 and st.sides[0].match_points == 1 and st.match is None


def test_models_with_unknown_statlines_are_refused(tmp_path):
    root = tmp_path / "ronin"
    shutil.copytree(DATA, root)
    (root / "rosters" / "koreans_100.yaml").write_text(
        "id: koreans_100\nname: Koreans\nfaction: koreans\npoints_limit: 100\nmodels:\n  - {model: soldier, count: 5}\n  - {model: captain}\n", encoding="utf-8")
    game = (root / "games" / "skirmish.yaml").read_text(encoding="utf-8").replace("roster: sohei_temple_100", "roster: koreans_100")
    (root / "games" / "skirmish.yaml").write_text(game, encoding="utf-8")
    data = load(root)
    with pytest.raises(UnplayableGame, match=r"ronin game skirmish: .*Player B \(koreans_100\): Soldier has Rank, Combat Pool, Initiative, Fight, Shoot unknown"):
        _game(data, "skirmish")
    playables = get_system("ronin").playables(root)
    refused = [r for r in playables if isinstance(r, NotPlayable)]
    assert len(refused) == 1 and "Captain has Rank, Combat Pool, Initiative, Fight, Shoot unknown" in refused[0].lines()[0]
    assert len(playables) == len(data.games)


def test_every_game_is_played_to_its_end_seeded(data):
    for lg in data.games:
        g = RoninGame.from_game(data, lg.value)
        a = [play_game(g.new_state, random_policy, random.Random(f"x{i}"), turn_cap(g)) for i in range(3)]
        b = [play_game(g.new_state, random_policy, random.Random(f"x{i}"), turn_cap(g)) for i in range(3)]
        assert a == b, lg.value.id
        assert not any(r.cut_off for r in a), lg.value.id
        if lg.value.scenario not in ("tournament", "defend_the_village"):  # d6+6 turns at most (or Capture's 8); Defend the Village has no limit
            assert all(r.turns <= 12 for r in a), lg.value.id



def test_a_wavering_model_that_fails_to_charge_may_do_something_else(data):
    """p.12: Wavering: to move into contact roll d6 + Rank, 7 or more; otherwise the model may not
    move into contact, though it may take other actions. A Rank 1 Ashigaru passes on a 6 only."""
    st = _state(data)
    st.sides[0].morale = "wavering"
    _only(st, "red3", "blue1")
    m, e = st.models["red3"], st.models["blue1"]
    m.x, m.y, e.x, e.y = 12, 12, 12, 8
    st._do_move("red3", ("charge", "blue1"))
    assert st.pending[0] == [("pass", F(1, 6)), ("fail", F(5, 6))]
    st.apply_action("fail")
    kind, player, payload = st.steps[0]
    assert (kind, player, payload) == ("move", 0, ("red3", "no_charge"))
    opts = st.legal_actions()
    assert ("hold",) in opts and not any(o[0] == "charge" for o in opts)


def test_a_tough_model_falls_at_the_end_of_the_combat_phase(data):
    """p.29 Tough: a Critical wound removes it only at the end of the current Combat Phase."""
    st = _state(data)
    m = st.models["red5"]
    m.p = engine.Profile(**{**m.p.__dict__, "attributes": m.p.attributes | {"tough"}})
    st.phase = "combat"
    st.combat = engine.Combat((["red5"], ["blue5"]))
    st._wound(st.models["blue5"], m, "critical", "melee")
    assert m.alive and m.dying
    st._wound(st.models["blue5"], m, "critical", "melee")
    assert m.alive
    st.steps = []
    st._auto_next_combat(0)
    assert not m.alive and not m.dying and m.killer_rank == 3
