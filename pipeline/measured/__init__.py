"""Geometry and data of a measured table (miniatures rules): game-agnostic.

- :mod:`.geometry` – bases (rectangles with a centre, a facing and a width/depth in inches),
  arcs, faces, ranges, contact, overlap, movement with turning;
- :mod:`.movement` – moves over ground that slows or blocks;
- :mod:`.data` – the YAML pieces every measured-table system shares (rectangles, placements,
  tables) and a loader of a system's data folder with citation checks;
- :mod:`.legality` – the legality rules' shared shape;
- :mod:`.layout` – where a table's compass rose and scale bar go (set-ups keep off them);
- drawing, printing, text fit, import and the VASSAL module: :mod:`.art`, :mod:`.printing`,
  :mod:`.fit`, :mod:`.importer`, :mod:`.vassal_module` (they decide no game).
"""

#: The files of this package whose code decides a game of a measured-table system (paths under
#: ``pipeline/``, :attr:`pipeline.systems.base.GameSystem.engine_code`): the drawing, printing,
#: text-fit, import and module files are left out, so changing how a table looks leaves the
#: verdicts and the ladder records standing (``tests/test_verify_play.py`` traces a game of every
#: policy and fails when a file outside these runs).
ENGINE_CODE = ("measured/__init__.py", "measured/data.py", "measured/geometry.py", "measured/layout.py",
               "measured/legality.py", "measured/movement.py")
