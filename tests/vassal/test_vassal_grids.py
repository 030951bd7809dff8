"""HexGrid/SquareGrid centres against hand-worked values (§2.5, HexGridNumbering.getCenterPoint)."""

import pytest

from pipeline.vassal.grids import GridNumbering, HexGrid, SquareGrid


def test_hex_non_sideways_hand_worked():
    g = HexGrid(x0=30, y0=35, dx=51.96, dy=60.0)
    assert g.center(0, 0) == (30, 35)
    # odd column: shifted down by dy/2 = 30; x = 30 + int(51.96) = 81
    assert g.center(1, 0) == (81, 65)
    # column 2: x = 30 + int(103.92) = 133; row 3: y = 35 + 180
    assert g.center(2, 3) == (133, 215)
    # column 3, row 2: x = 30 + int(155.88) = 185; y = 35 + int(120 + 30) = 185
    assert g.center(3, 2) == (185, 185)


def test_hex_truncates_each_term():
    g = HexGrid(x0=10, y0=10, dx=33.7, dy=38.9)
    # col 1: x = 10 + int(33.7) = 43; y = 10 + int(2*38.9 + 19.45) = 10 + int(97.25) = 107
    assert g.center(1, 2) == (43, 107)
    # col 5: x = 10 + int(168.5) = 178
    assert g.center(5, 0) == (178, 10 + int(19.45))


def test_hex_sideways_hand_worked():
    g = HexGrid(x0=40, y0=20, dx=60.0, dy=70.0, sideways=True)
    # swapped frame: (40 + 0, 20 + 0) -> swapped back (20, 40)
    assert g.center(0, 0) == (20, 40)
    # raw col 1 (second row of hexes, shifted right by dy/2 = 35): frame (100, 20 + 140 + 35)
    assert g.center(1, 2) == (195, 100)
    # raw col 2, row 1: frame (40 + 120, 20 + 70) -> (90, 160)
    assert g.center(2, 1) == (90, 160)


@pytest.mark.parametrize("sideways", [False, True])
def test_snap_returns_centres(sideways):
    g = HexGrid(x0=30, y0=35, dx=51.96, dy=60.0, sideways=sideways)
    for c in range(6):
        for r in range(5):
            x, y = g.center(c, r)
            assert g.snap(x, y) == (x, y)
            assert g.snap(x + 3, y - 4) == (x, y)


def test_square_center():
    g = SquareGrid(x0=10, y0=10, dx=20.5, dy=20.5)
    assert g.center(3, 1) == (71, 30)  # int(61.5 + 10), int(20.5 + 10)


def test_numbering_rejects_empty_values():
    with pytest.raises(ValueError):
        GridNumbering(first="")
    with pytest.raises(ValueError):
        GridNumbering(h_type="")
