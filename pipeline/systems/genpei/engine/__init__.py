"""The Commands & Colours: Samurai Battles + Genpei rules engine.

Modules:

* :mod:`.state` — :class:`~.state.GenpeiState`, the game as an OpenSpiel-style state machine
  (implements :class:`pipeline.play.GameState`), made of one part per phase: :mod:`.turn` (decks,
  turn, phase decisions, cards and orders), :mod:`.movement`, :mod:`.leaders` (lone leaders),
  :mod:`.battle`; with :mod:`.pieces` (units, leaders, players) and :mod:`.dice` (the chance
  distributions of the rolls other than battle rolls);
* :mod:`.combat` — what a battle roll is (dice, caps, resistance, ignores, H&F), shared with the
  odds command; :mod:`pipeline.systems.genpei.odds` gives its exact distribution (icepool);
* :mod:`.board` — hex geometry, tiles, sections, line of sight, wind/tide;
* :mod:`.stats` — unit stats with every ``unknown`` replaced (logged);
* :mod:`.deck` — the Command deck abstraction and the naval card exceptions;
* :mod:`.victory` — the scenarios' temporary banners;
* :mod:`.search` — what a player cannot see (``GenpeiState.determinize`` and
  ``information_key``), for information-set search;
* :mod:`.policies` — uniform random, greedy one-ply, rollout and ISMCTS policies and the
  evaluation (the system's ladder, :class:`pipeline.systems.genpei.system.GenpeiSystem`;
  ``gunbai verify --play`` is :mod:`pipeline.verdicts`).
"""
