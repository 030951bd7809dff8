"""Geometry and data of a measured table (miniatures rules): game-agnostic.

- :mod:`.geometry` – bases (rectangles with a centre, a facing and a width/depth in inches),
  arcs, faces, ranges, contact, overlap, movement with turning;
- :mod:`.data` – the YAML pieces every measured-table system shares (rectangles, placements,
  tables) and a loader of a system's data folder with citation checks.
"""
