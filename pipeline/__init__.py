"""gunbai: a build pipeline for samurai-era wargames on VASSAL.

The package is laid out as the data flows:

- :mod:`pipeline.data` reads the canonical data files (YAML) with exact error locations;
- :mod:`pipeline.systems` holds one package per game system: its schema, loader and rules
  (legality checks), its art (what to draw) and its VASSAL module layout;
- :mod:`pipeline.render` draws counters, boards and cards from the templates in ``templates/``;
- :mod:`pipeline.vassal` writes and reads VASSAL files (modules, extensions, saves) and lints them;
- :mod:`pipeline.build` runs the whole job; :mod:`pipeline.cli` is the ``gunbai`` command.
"""

__version__ = "0.1.0"
