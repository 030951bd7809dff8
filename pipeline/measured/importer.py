"""``gunbai import`` for measured tables (game-agnostic part): board pixels → inches and facing.

A piece's position on the table is ``((x - table_origin.x) / px_per_inch, (y - table_origin.y) /
px_per_inch)`` inches from the table's north-west corner, rounded to 1/10000 inch, and its facing
is the Can Rotate angle turned into gunbai's convention (degrees clockwise from north): VASSAL
turns counter-clockwise for a positive angle, so ``facing = -angle mod 360``
(:mod:`pipeline.measured.vassal_module` writes the inverse). ``px_per_inch`` is the piece
mapping's, or, for a module gunbai wrote itself, the system's ``vassal.px_per_inch``.
"""

from __future__ import annotations

from pipeline.setup_import import Mapped, PieceMapFile, SetupSource


def px_per_inch(source: SetupSource, mapping: PieceMapFile, own_module_name: str, own_ppi: float) -> float:
    """Board pixels per inch of the import.

    Raises:
        ValueError: the mapping gives none and the module is not gunbai's own.
    """
    if mapping.px_per_inch:
        return float(mapping.px_per_inch)
    if source.module.name == own_module_name:
        return float(own_ppi)
    raise ValueError(f"module {source.module.name!r} is not gunbai's {own_module_name!r}: give px_per_inch (board pixels per inch) in the piece mapping")


def inches(m: Mapped, mapping: PieceMapFile, ppi: float) -> tuple[float, float]:
    """``(x, y)`` in inches from the table's north-west corner."""
    ox, oy = mapping.table_origin
    return round((m.piece.x - ox) / ppi, 4), round((m.piece.y - oy) / ppi, 4)


def facing(m: Mapped) -> float:
    """Facing in degrees clockwise from north (0 when the piece cannot rotate)."""
    angle = m.piece.angle
    if angle is None:
        return 0.0
    f = round((-angle) % 360.0, 4)
    return 0.0 if f >= 360.0 else f


def nearest(items: list[dict], x: float, y: float, used: set[int], match) -> int | None:
    """Index of the unused base entry that ``match`` accepts, nearest to (x, y) inches."""
    best, best_d = None, None
    for i, e in enumerate(items):
        if i in used or not match(e):
            continue
        try:
            d = (float(e.get("x", 0)) - x) ** 2 + (float(e.get("y", 0)) - y) ** 2
        except (TypeError, ValueError):
            continue
        if best_d is None or d < best_d:
            best, best_d = i, d
    return best
