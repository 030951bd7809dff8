"""Plane geometry of the table (inches): segments, zones, clipping."""

from __future__ import annotations

import math

from pipeline.systems.ronin.model import Zone


def _seg_point(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    dx, dy = bx - ax, by - ay
    n2 = dx * dx + dy * dy
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n2))
    return math.hypot(ax + dx * t - px, ay + dy * t - py)


def _in_zone(z: Zone, x: float, y: float, pad: float = 0.0) -> bool:
    if z.kind == "circle":
        return math.hypot(x - z.x, y - z.y) <= z.r + pad
    return z.x - pad <= x <= z.x + z.w + pad and z.y - pad <= y <= z.y + z.h + pad


def _seg_zone(z: Zone, ax: float, ay: float, bx: float, by: float, pad: float) -> bool:
    """Does the segment come within ``pad`` of the zone?"""
    if z.kind == "circle":
        return _seg_point(ax, ay, bx, by, z.x, z.y) <= z.r + pad
    return _clip(z, ax, ay, bx, by, pad) > 0 or _in_zone(z, ax, ay, pad)


def _clip(z: Zone, ax: float, ay: float, bx: float, by: float, pad: float = 0.0) -> float:
    """Length of the segment inside the zone (grown by ``pad``)."""
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return 0.0
    dx, dy = bx - ax, by - ay
    if z.kind == "circle":
        fx, fy = ax - z.x, ay - z.y
        a = dx * dx + dy * dy
        b = 2 * (fx * dx + fy * dy)
        c = fx * fx + fy * fy - (z.r + pad) ** 2
        disc = b * b - 4 * a * c
        if disc <= 0:
            return 0.0
        s = math.sqrt(disc)
        t0, t1 = max(0.0, (-b - s) / (2 * a)), min(1.0, (-b + s) / (2 * a))
        return max(0.0, t1 - t0) * length
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - (z.x - pad)), (dx, z.x + z.w + pad - ax), (-dy, ay - (z.y - pad)), (dy, z.y + z.h + pad - ay)):
        if p == 0:
            if q < 0:
                return 0.0
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    return max(0.0, t1 - t0) * length
