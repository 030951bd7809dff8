"""Issue 27 (Ronin items R1-R13) and issue 25 item 9 (Defend the Village's length): positions
built for each rule the engine played otherwise than the book, and the outcome worked out from
the text (seed 001; page numbers of the book)."""

from __future__ import annotations

import copy
import itertools
import math
from fractions import Fraction as F

from pipeline.systems.ronin.odds import wound_of

from .test_engine import _model, _only, _state

D6 = range(1, 7)


def _brute(attack_bonus: int, defence_bonus: int, *, reroll_attack: int = 0) -> dict[str, F]:
    """The wound-table result of one plain attack, every die enumerated: 2d6 (the lowest die
    re-rolled once when it shows ``reroll_attack`` or less, as the engine's bujutsu) +
    ``attack_bonus`` against 1d6 + ``defence_bonus``."""
    out: dict[str, F] = {}
    for a, b, d in itertools.product(D6, D6, D6):
        p = F(1, 216)
        lo, hi = min(a, b), max(a, b)
        rolls = [(hi + r, p / 6) for r in D6] if lo <= reroll_attack else [(a + b, p)]
        for total, q in rolls:
            res = wound_of(total + attack_bonus - (d + defence_bonus))
            out[res] = out.get(res, F(0)) + q
    return out


def test_r1_a_wounded_defender_fights_at_minus_one(data):
    """R1 (high), the Combat Example p.24: the Samurai (Fight 3, naginata +1, Naginatajutsu)
    attacks the grievously wounded Ashigaru with the yari (Fight 2, medium armour): "his
    Grievous wound means that his Fight Characteristic is at -1, reducing his Defence Roll to
    just 7" (a die of 4). His Attack Roll of 2 and 4, the 2 re-rolled to a 1: 9. The Wound Score
    2 is a Light wound, which on a Grievous wound is a Critical one."""
    st = _state(data)
    samurai, ashigaru = st.models["red5"], st.models["red3"]
    samurai.p = _model(data, "bushi", "samurai", ["katana", "naginata"], attributes=["naginatajutsu"])
    ashigaru.p = _model(data, "bushi", "ashigaru", ["katana", "yari"])
    ashigaru.side = 1
    ashigaru.wound = "grievous"
    odds = {k: v for k, v in st._melee_odds(samurai, ashigaru, enhance_attack=False, enhance_defence=False) if v}
    # the raw result of the roll (the engine combines it with the wound the model has)
    assert odds == _brute(3 + 1, 2 - 1 + 2, reroll_attack=3)
    assert 4 + st.defence_modifier(samurai, ashigaru) == 7
    assert 1 + 4 + st.attack_modifier(samurai, ashigaru) == 9
    assert wound_of(9 - 7) == "light"
    st._wound(samurai, ashigaru, "light", "melee")
    assert not ashigaru.alive
    # a Light wound costs a point of Fight too (p.22-23); Tough ignores it (p.29)
    ashigaru.alive, ashigaru.wound = True, "light"
    assert st.defence_modifier(samurai, ashigaru) == 2 - 1 + 2
    ashigaru.p = _model(data, "bushi", "ashigaru", ["katana", "yari"], attributes=["tough"])
    assert st.defence_modifier(samurai, ashigaru) == 2 + 2


def _duel_turn(data, turn: int):
    """The Duel's state at ``turn`` with red1 and blue1 the duellists, red2 an archer in range of
    blue2 (models out of the duelling area)."""
    st = _state(data, "duel")
    st.turn = turn
    for m in st.models.values():
        m.duellist = m.id in ("red1", "blue1")
    return st


def _decisions(st, rng, until_turn: int):
    """Play ``st`` at random until turn ``until_turn`` is over; yield (turn, step kind, payload,
    action) of every decision."""
    from pipeline.play import random_policy, sample_chance

    while not st.is_terminal() and st.turn <= until_turn:
        if st.is_chance_node():
            st.apply_action(sample_chance(st.chance_outcomes(), rng))
            continue
        kind, _player, payload = st.steps[0]
        a = random_policy(st, rng)
        yield st.turn, kind, payload, a
        st.apply_action(a)


def test_r2_duel_only_the_duellists_act_in_turns_one_and_two_and_nobody_shoots(data):
    """R2 (high), Duel p.62: "For the first 2 turns, only the duellists may be activated and they
    may not use any missile weapons. All other models must remain where they are deployed."
    In every phase: the Action Phase activates no one else, and no one shoots in it."""
    import random

    from .test_engine import _game

    st = _duel_turn(data, 1)
    archer = st.models["red2"]
    assert archer.p.missile == "yumi"
    st.phase = "action"
    st.queue = [[m.id for m in st.models.values() if m.side == s] for s in (0, 1)]
    assert [st._next_model(0).id, st._next_model(0)] == ["red1", None]
    assert not any(a[0] == "shoot" for a in st._options_act("red1"))
    st.models["red1"].p = _model(data, "bushi", "ashigaru", ["katana", "yumi"])
    assert st._shoot_targets(st.models["red1"]) == []  # a duellist shoots in no phase
    st.turn = 3
    assert st._shoot_targets(archer)  # from Turn 3, all models may be activated as normal
    # whole games: no decision for a non-duellist's activation, no shot, in turns 1 and 2
    g = _game(data, "duel")
    for i in range(20):
        st = g.new_state()
        for turn, kind, payload, action in _decisions(st, random.Random(f"duel{i}"), 2):
            if kind in ("move", "act", "counters"):
                mid = payload[0] if isinstance(payload, tuple) else payload
                assert st.models[mid].duellist, (turn, kind, payload, action)
            if kind == "free_attack" and action[0] == "strike":
                assert st.models[action[1]].duellist, (turn, kind, payload, action)
            assert action[0] != "shoot", (turn, kind, payload, action)


def test_r12_a_model_that_strikes_a_withdrawing_model_does_not_move(data):
    """R12, Withdraw p.13: "The enemy model(s) may choose to not move and make a single attack
    against the departing model" (erratum withdraw_strike_stands): the striker stays where it
    is for the rest of the Move Phase; one that lets the model go may still charge it."""
    st = _state(data)
    st.phase = "move"
    _only(st, "red3", "blue1")
    m, e = st.models["red3"], st.models["blue1"]
    m.x, m.y = 12, 12
    e.x, e.y = 12, 12 - 2 * st.r
    st._withdraw(m)
    assert st.steps[0][0] == "free_attack"
    let_go = copy.deepcopy(st)
    st.steps = []
    st._do_free_attack(("red3", ("blue1",)), ("strike", "blue1"))
    st.pending = None
    opts = st._options_move("blue1")
    assert ("hold",) in opts and not any(o[0] in ("charge", "advance", "run") for o in opts), opts
    st._auto_turn_start(None)  # the next turn it moves again
    st.steps, st.phase = [], "move"
    assert ("charge", "red3") in st._options_move("blue1")
    let_go.steps = []
    let_go._do_free_attack(("red3", ("blue1",)), ("let_go",))
    assert ("charge", "red3") in let_go._options_move("blue1")  # option 3: move back into contact


def _mounted_skirmish(tmp_path, mount: str = "horse"):
    """The Skirmish with the Bushi led by a Bushou on a horse (p.35: "May be mounted on a horse
    for +10 points")."""
    import shutil

    from pipeline.systems.ronin.load import load

    from .conftest import DATA

    root = tmp_path / "ronin"
    shutil.copytree(DATA, root)
    roster = (root / "rosters" / "bushi_sample_100.yaml").read_text(encoding="utf-8")
    roster = roster.replace('{model: samurai, label: "Samurai with Kenjutsu", choices: {attributes: [kenjutsu]}, printed_points: 27}',
                            f'{{model: bushou, choices: {{mount: [{mount}]}}}}')
    (root / "rosters" / "bushi_sample_100.yaml").write_text(roster, encoding="utf-8")
    return load(root)


def test_r9_a_horse_bought_in_a_roster_is_ridden(tmp_path):
    """R9, Mounted Models p.27-28: "Mounted models may move up to 12 in the Move Phase"; "a
    Gallop move up to 18"; "may not enter difficult terrain or buildings"; "Fighting while
    mounted incurs a -2 penalty to the Attack Roll" (the Bushou: Fight 5, katana, -2 = 3)."""
    from .test_engine import _game

    data = _mounted_skirmish(tmp_path)
    st = _game(data, "skirmish").new_state()
    st.pending, st.steps = None, []
    for m in st.models.values():
        m.on_table = True
    st._tab = None
    rider = st.models["red5"]
    assert rider.p.name == "Bushou" and rider.p.mounted
    assert (st.allowance(rider, "move"), st.allowance(rider, "run")) == (12.0, 18.0)
    foe = st.models["blue1"]
    assert st.attack_modifier(rider, foe) == 5 + 0 - 2
    # the rice paddy (difficult, x 14-20, y 9-14): a foot model wades in at half pace to fight a
    # model standing in it; a rider may not go in, and stops at its edge
    _only(st, "red5", "red1", "blue1")
    foe.x, foe.y = 17, 10.5
    walker = st.models["red1"]
    walker.x, walker.y = 17, 7  # 2.5 inches from contact: within half its 6
    assert st._charge_spot(walker, foe) is not None
    walker.x = 3
    rider.x, rider.y = 17, 7
    assert st._charge_spot(rider, foe) is None
    end = st._path(rider, 17, 20, 12.0, 0.0)
    assert end is None or end[1] <= 9 - st.r + 1e-9  # stops at the paddy's edge


def test_r3_range_bands_at_their_boundaries(data):
    """R3, Modifiers to Shooting Attack Roll p.14: "Target is less than 6 away +1", so a target
    exactly 6 inches away gets no +1; "more than 36 away -3" and the teppo's "all shots of more
    than 24 incur an additional -1" (p.16) put 24 and 36 in the bands below them (erratum
    range_band_boundaries). An Ashigaru archer (Shoot 1), Action Phase, not moved, first shot,
    at a Samurai in heavy armour (9): no wound when 2d6 + 1 + band <= 9."""
    st = _state(data)
    archer, samurai = st.models["red2"], st.models["blue1"]
    archer.p = _model(data, "bushi", "ashigaru", ["katana", "yumi"])
    samurai.p = _model(data, "bushi", "samurai")
    _only(st, "red2", "blue1")
    st.phase = "action"
    no_wound = {6: F(15, 36), 7: F(21, 36), 8: F(26, 36), 9: F(30, 36), 10: F(33, 36), 11: F(35, 36)}  # P(2d6 <= n)
    for distance, band in ((5.5, 1), (6, 0), (12, 0), (12.5, -1), (24, -1), (24.5, -2), (36, -2), (36.5, -3)):
        archer.x, archer.y = 22, 30 if distance <= 24 else 44.5
        samurai.x, samurai.y = 22, archer.y - distance - 2 * st.r
        st.table = 48
        assert abs(st.dist(archer, samurai) - distance) < 1e-9
        if distance == 6:
            assert st.dist(archer, samurai) == 6.0  # exactly, to the last bit
        assert dict(st.shot_odds(archer, samurai))["none"] == no_wound[8 - band], distance
    # the teppo at exactly 24 inches: -1, not its -3 of the band beyond 24 (p.16); it ignores the
    # Samurai's heavy armour but light: 2d6 + 1 - 1 against 7
    archer.p = _model(data, "bushi", "ashigaru", ["katana", "teppo"])
    samurai.y = archer.y - 24 - 2 * st.r
    assert dict(st.shot_odds(archer, samurai))["none"] == no_wound[7]
    samurai.y = archer.y - 24.5 - 2 * st.r
    assert dict(st.shot_odds(archer, samurai))["none"] == no_wound[7 + 2]


def test_r4_a_temple_attendant_is_fearless_near_a_rank_two_model(data):
    """R4, Sohei model list p.39: the Temple Attendant is "Fearless when within 3 of any model of
    Rank 2 or higher" (a friendly one: erratum temple_attendant_fearless); Fearless "ignores the
    results of any Morale Test" (p.29). A Wavering Buntai's Attendant charges without the d6 +
    Rank roll (p.12) when an Initiate (Rank 2) stands within 3 inches, and rolls otherwise."""
    st = _state(data)
    st.phase = "move"
    st.sides[1].morale = "wavering"
    attendant, initiate, foe = st.models["blue1"], st.models["blue3"], st.models["red3"]
    assert (attendant.p.name, initiate.p.rank) == ("Temple Attendant", 2)
    _only(st, "blue1", "blue3", "red3")
    attendant.x, attendant.y = 12, 12
    foe.x, foe.y = 12, 8
    initiate.x, initiate.y = 15, 12  # 3 - 2r inches apart, base edge to base edge
    st._do_move("blue1", ("charge", "red3"))
    assert st.pending is None and st.engaged(attendant)
    attendant.x, attendant.y = 12, 12
    initiate.x = 18  # over 3 inches away: the Attendant rolls d6 + Rank 1, 7 or more
    st._do_move("blue1", ("charge", "red3"))
    assert st.pending is not None and st.pending[0] == [("pass", F(1, 6)), ("fail", F(5, 6))]
    st.pending = None
    # an enemy of Rank 2 or higher (the Samurai, Rank 3) within 3 inches does not make him brave
    red_samurai = st.models["red5"]
    _only(st, "blue1", "blue3", "red3", "red5")
    red_samurai.x, red_samurai.y = 9.5, 12
    st._do_move("blue1", ("charge", "red3"))
    assert st.pending is not None
    st.pending = None
    # a Routing Buntai's Attendant near the Initiate acts as it wishes, with no roll (p.12)
    st.sides[1].morale = "routing"
    attendant.x, attendant.y, initiate.x = 12, 12, 15
    st.queue, st.sides[1].done = [[], ["blue1"]], False
    st.sides[0].done = True
    st._auto_next_activation(1)
    assert st.steps[0][:2] == ("move", 1)


def test_r6_a_routing_model_rolls_at_every_activation_in_the_action_phase_too(data):
    """R6, Routing p.12: "Each time you activate a model, roll a d6 and add that model's Rank.
    If the result is 7 or more, the model may act as you wish. Otherwise, it must make a Run or
    Gallop move towards the nearest table edge". The Action Phase activates models too (p.24):
    a Rank 1 Ashigaru passes on a 6 only; failing, it runs 9 inches for the edge."""
    st = _state(data)
    st.phase = "action"
    st.sides[0].morale = "routing"
    archer = st.models["red2"]
    _only(st, "red2", "blue1")
    archer.x, archer.y = 11.5, 11
    st.models["blue1"].x, st.models["blue1"].y = 21, 21
    st.queue, st.sides[0].done, st.sides[1].done = [["red2"], []], False, True
    st._auto_next_activation(0)
    assert st.steps[0] == ("rout_check", -1, "red2")
    st.steps.pop(0)
    st._auto_rout_check("red2")
    assert st.pending[0] == [("pass", F(1, 6)), ("fail", F(5, 6))]
    st.apply_action("fail")
    assert (archer.x, archer.y, archer.moved) == (11.5, 2, "run")  # 9 inches north, to the nearest edge
    st.pending, st.steps = None, []
    st._on_rout_check("red2", "pass")
    assert st.steps[0] == ("act", 0, "red2")


def _with_ronin(tmp_path):
    """The Skirmish with a hired Ronin in the Bushi Buntai (Bushi may hire Ronin, p.34)."""
    import shutil

    from pipeline.systems.ronin.load import load

    from .conftest import DATA
    from .test_engine import _game

    root = tmp_path / "ronin"
    shutil.copytree(DATA, root)
    path = root / "rosters" / "bushi_sample_100.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "  - {model: ronin}\n", encoding="utf-8")
    st = _game(load(root), "skirmish").new_state()
    st.pending, st.steps = None, []
    for m in st.models.values():
        m.on_table = True
    st._tab = None
    return st


def test_r5_hired_ronin_are_unreliable(tmp_path):
    """R5, Swords-for-Hire: Ronin p.52: "If the Morale level of the Buntai is Wavering, roll a
    d6 for each Ronin. On a roll of 4+, that Ronin model will use its activation to move at
    maximum speed towards the nearest table edge until it has left the table. If it is in
    combat, it will Withdraw. If the Morale of the Buntai drops to Routing, Ronin will
    automatically follow the procedure" (erratum ronin_unreliable_when: the roll is made in
    each Priority Phase that leaves the Buntai Wavering)."""
    st = _with_ronin(tmp_path)
    ronin = st.models["red6"]
    assert ronin.p.name == "Ronin" and ronin.p.hired
    st.phase = "priority"
    st._on_morale(0, "fail")  # Steady -> Wavering
    assert st.sides[0].morale == "wavering"
    assert ("unreliable", -1, 0) in st.steps
    st.steps = []
    st._auto_unreliable(0)
    assert st.steps == [("loyalty_roll", -1, "red6")]
    st.steps = []
    st._auto_loyalty_roll("red6")
    assert sorted(st.pending[0]) == [("leaves", F(1, 2)), ("stays", F(1, 2))]
    st.apply_action("leaves")
    assert ronin.deserting
    # its activation: the nearest edge at maximum speed (a Run, 9 inches), no choice for the player
    _only(st, "red6", "blue1")
    ronin.x, ronin.y = 11.5, 11
    st.models["blue1"].x, st.models["blue1"].y = 21, 21
    st.phase = "move"
    st.queue, st.sides[0].done, st.sides[1].done = [["red6"], []], False, True
    st._auto_next_activation(0)
    assert st.steps[0] == ("desert", -1, "red6")
    st._run()
    assert (ronin.x, ronin.y, ronin.moved) == (11.5, 2, "run")
    st._auto_turn_start(None)
    st.steps, st.phase = [], "move"
    st._flee_to_edge(ronin)
    assert ronin.fled and not ronin.on_table
    # engaged, it Withdraws (the enemy may strike it)
    st = _with_ronin(tmp_path / "b")
    ronin, foe = st.models["red6"], st.models["blue1"]
    _only(st, "red6", "blue1")
    ronin.deserting, st.phase = True, "move"
    ronin.x, ronin.y, foe.x, foe.y = 12, 12, 12, 12 - 2 * st.r
    st._auto_desert("red6")
    assert not st.engaged(ronin) and st.steps[0][0] == "free_attack"
    # a Routing Buntai: every Ronin leaves, without a roll
    st = _with_ronin(tmp_path / "c")
    st.sides[0].morale = "wavering"
    st._on_morale(0, "fail")
    st.steps = []
    st._auto_unreliable(0)
    assert st.sides[0].morale == "routing" and st.models["red6"].deserting and st.steps == []


def test_r7_reserves_move_onto_the_table_in_the_move_phase(data):
    """R7, Reserves p.59: "Half of these reserve models (rounding up) may move onto the table
    during the Move Phase of the second turn. All remaining models may move onto the table
    during the Move Phase of the third turn." The Defence's Attacker (p.62) has 12 models: 6
    deployed, 3 in the second turn, 3 in the third; none is on the table before its Move Phase."""
    from .test_engine import _game

    st = _game(data, "defence").new_state()
    st.pending, st.steps = None, []
    att = next(i for i, s in enumerate(st.sides) if s.plan.role == "Attacker")
    st.turn = 1
    st._auto_turn_start(None)  # turn 2 begins: the Priority Phase comes next
    st.steps = []
    second = [m for m in st.buntai(att) if m.arrives == 2]
    third = [m for m in st.buntai(att) if m.arrives == 3]
    assert len(second) == 3 and len(third) == 3
    assert not any(m.on_table for m in second + third)
    st.phase = "move"
    st.queue = [[], []]
    st.queue[att] = [m.id for m in st.buntai(att)]
    st.sides[att].done, st.sides[1 - att].done = False, True
    seen = []
    while (m := st._next_model(att)) is not None:
        seen.append(m.id)
    assert set(m.id for m in second) <= set(seen) and not set(m.id for m in third) & set(seen)
    r = second[0]
    assert ("enter",) in st._options_move(r.id) and not any(o[0] in ("charge", "shoot", "run") for o in st._options_move(r.id))
    st._do_move(r.id, ("enter",))
    assert r.on_table and r.moved == "move" and r in st.on_table(att)
    spot = st.g.spots[att][[p.key for p in st.g.sides[att].models].index(r.id)]
    assert (r.x, r.y) == spot  # its place in the Attacker's edge zone
    # a side with no model on the table but reserves still to come is not destroyed
    for m in st.buntai(att):
        if m.arrives == 1:
            m.alive = False
    r.alive = False
    st._tab = None
    st.steps = []
    st._auto_turn_end(None)
    assert not st.is_terminal()


def test_r8_long_handled_weapons_inside_a_building(data):
    """R8, Terrain: Buildings p.13: "Models armed with long handled weapons (including yari,
    nagae-yari, tetsubo, nodachi and naginata) suffer a -1 Initiative penalty and -1 penalty to
    Attack Rolls when fighting inside buildings" (rules.yaml long_weapon_building). Defend the
    Village's farmhouse (x 9-13, y 9-11.5): a Samurai with a naginata, Initiative 3 + 1, Fight
    3 + 1, inside it 3 and 3; a katana is not long-handled."""
    st = _state(data, "defend_the_village")
    samurai, foe = st.models["red5"], st.models["blue1"]
    samurai.p = _model(data, "bushi", "samurai", ["katana", "naginata"])
    foe.p = _model(data, "bushi", "ashigaru", ["katana"], armour="none")
    samurai.x, samurai.y = 11, 20  # in the open
    assert (st.initiative_bonus(samurai), st.attack_modifier(samurai, foe)) == (4, 4)
    samurai.x, samurai.y = 11, 10  # inside the farmhouse
    assert (st.initiative_bonus(samurai), st.attack_modifier(samurai, foe)) == (3, 3)
    samurai.p = _model(data, "bushi", "samurai", ["katana"])
    assert (st.initiative_bonus(samurai), st.attack_modifier(samurai, foe)) == (3, 3)


def test_r11_a_critically_injured_duellist_is_replaced(data):
    """R11, Duel p.62: "If a duellist is critically injured, another model can be nominated to
    replace it and may use its next movement to enter the duelling area. This model is now
    considered a duellist": in turn 2 it may be activated, and entering the area or attacking
    costs no Victory Points."""
    st = _duel_turn(data, 1)
    st._kill(3, st.models["red1"])
    assert st.steps[0] == ("replace_duellist", 0, 0)
    opts = st._options_replace_duellist(0)
    assert ("no_duellist",) in opts and ("duellist", "red2") in opts and ("duellist", "red1") not in opts
    st.apply_action(("duellist", "red2"))
    new = st.models["red2"]
    assert new.duellist
    st.turn, st.phase = 2, "move"
    st.queue = [["red2", "red3"], []]
    assert st._next_model(0) is new and st._next_model(0) is None
    new.x, new.y = 12, 5.3  # just outside the duelling area (radius 6 round the centre)
    st._move_to(new, 12, 9, kind="move")
    assert st.sides[0].penalties == 0 and not st.first_intruder
    # nominating nobody is allowed ("can be nominated")
    st = _duel_turn(data, 1)
    st._kill(3, st.models["blue1"])
    st.apply_action(("no_duellist",))
    assert not any(m.duellist for m in st.buntai(1) if m.alive)


def _verify_copy(tmp_path, game: str, change):
    """``verify_all`` findings of the shipped data with one game changed."""
    from pipeline.systems.ronin.load import load
    from pipeline.systems.ronin.verify import verify_all

    from .test_scenarios import _copy

    copy, _path = _copy(tmp_path, game, change)
    return verify_all(load(copy))


def test_r10_duel_the_others_within_6_inches_of_the_duellist(tmp_path, data):
    """R10, Duel p.61: each player "places his nominated duellist (see below) at some point on
    the edge of the duelling area and the rest of his models within 6 of the duellist but not
    within the duelling area". The duellist stands at the point of the area's edge nearest his
    side's zone (the centre of the 24-inch table is (12, 12), the area's radius 6: Player A's at
    (12, 6 + r)). A zone 12 inches wide (x 6-18) along y 0.5-5.5 has a corner base at
    (6 + r, 0.5 + r), 7.78 inches centre to centre from that place: 6.80 base edge to base edge."""
    from pipeline.systems.ronin.deployment import duellist_spot
    from pipeline.systems.ronin.model import Zone
    from pipeline.systems.ronin.verify import RULES, verify_all

    from .test_engine import _game

    r = 25 / 25.4 / 2
    spot = duellist_spot(Zone(kind="rect", x=6, y=0.5, w=12, h=5), (12, 12), 6, r)
    assert abs(spot[0] - 12) < 1e-9 and abs(spot[1] - (6 + r)) < 1e-9
    found = [f for f in _verify_copy(tmp_path, "duel", lambda d: d["sides"][0]["zone"].update(x=6, y=0.5, w=12, h=5)) if f.rule == "deploy-near"]
    assert len(found) == 1 and "6.80 inches" in found[0].message and "within 6" in found[0].message and "Duel" in found[0].source
    assert "deploy-near" in RULES and "p.61" in RULES["deploy-near"].section
    assert verify_all(data) == []  # the shipped Duel obeys it
    # play puts the duellist there, and every other model of his side is within 6 of him
    st = _game(data, "duel").new_state()
    st.pending, st.steps = None, []
    for m in st.models.values():
        m.duellist = m.id in ("red1", "blue4")
    st.turn = 0
    st._auto_turn_start(None)
    for d in (st.models["red1"], st.models["blue4"]):
        assert abs(math.dist((d.x, d.y), (12, 12)) - (6 - st.r)) < 1e-9
        assert all(st.dist(d, o) <= 6 + 1e-9 for o in st.buntai(d.side) if o is not d)


def test_r13_assassination_the_attackers_zone_keeps_9_inches_from_the_defenders(tmp_path, data):
    """R13, Assassination p.63: the Attacker deploys "anywhere on the table, but no nearer than 9
    to any of the defending player's models"; the zone drawn for him obeys the rule as the
    models in it do (README). A band along the north edge 10 inches deep: its models stand in
    its middle row (y = 5), 12.02 inches from the Defenders' row (y = 18) base edge to base
    edge, but the band's edge at y = 10 comes 8 inches from their centres, 7.51 from their
    bases."""
    from pipeline.systems.ronin.verify import verify_all

    found = [f for f in _verify_copy(tmp_path, "assassination", lambda d: d["sides"][0]["zone"].update(h=10)) if f.rule == "deploy-apart"]
    assert len(found) == 1 and "zone comes 7.51 inches" in found[0].message and "at least 9" in found[0].message
    assert [f for f in verify_all(data) if f.rule == "deploy-apart"] == []


def test_defend_the_village_lasts_until_one_side_is_gone(data):
    """Issue 25 item 9, Defend the Village, Game Length p.66: "The game lasts until one side
    withdraws, concedes or is destroyed" (erratum defend_the_village_length, now as written):
    no turn limit. It goes on after turn 12 (the longest d6+6); it ends when a Buntai has no
    model left on the table (destroyed, or withdrawn: its Routing models left it), and the
    Victory Points decide: the Defender's civilians left on the board +3 each (p.66)."""
    from .test_engine import _game

    g = _game(data, "defend_the_village")
    st = g.new_state()
    assert st.length is None and (st.pending is None or st.pending[1] != "length")  # no d6+6 rolled
    st = _state(data, "defend_the_village")
    st.turn = 40
    st._auto_turn_end(None)
    assert not st.is_terminal() and st.steps == [("turn_start", -1, None)]
    d = next(i for i, s in enumerate(st.sides) if s.plan.role == "Defender")
    st.steps = []
    for m in st.buntai(d):
        st._kill(1, m)
    st._auto_turn_end(None)
    assert st.is_terminal()
    vp = st.victory_points()
    assert vp[d] == 4 * 3  # the four civilians are left on the board
    # the Attacker withdraws: its models routed off the table
    st = _state(data, "defend_the_village")
    st.turn = 3
    for m in st.buntai(1 - d):
        m.on_table, m.fled = False, True
    st._tab = None
    st._auto_turn_end(None)
    assert st.is_terminal() and st.winner() == d


def test_explain_all_lists_the_rules_the_engine_now_plays():
    """``gunbai verify --explain all`` names each rule of issue 27 with its source."""
    from pipeline.build import explain_rule

    text = explain_rule("ronin:all")
    for rule, page in (("wounded-defence", "p.24"), ("duel-first-turns", "p.62"), ("withdraw-strike", "p.13"), ("mounted-models", "p.27-28"),
                       ("range-bands", "p.14"), ("fearless", "p.39"), ("ronin-unreliable", "p.52"), ("routing-activation", "p.12"),
                       ("reserves-move-on", "p.59"), ("long-weapon-indoors", "p.13"), ("deploy-near", "p.61"), ("duel-replace-duellist", "p.62"),
                       ("deploy-apart", "p.63"), ("defend-the-village-length", "p.66"), ("tournament-secret-order", "p.64"), ("counters-secret", "p.18")):
        line = next(x for x in text.splitlines() if x.startswith(f"[ronin] {rule}:"))
        source = text.splitlines()[text.splitlines().index(line) + 1]
        assert source.startswith("source: ronin_book") and page in source, rule
