"""Golden-image comparison shared by the render tests.

A rendered image is compared with its reference under ``tests/render/golden/`` by the mean
absolute difference per channel (0-255 scale), so anti-aliasing noise passes and a moved or
missing element fails. ``GUNBAI_REGEN_GOLDEN=1`` rewrites the references from this checkout
(look at them before committing).
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

from pipeline.render.png import png_bytes

GOLDEN = Path(__file__).resolve().parent / "render" / "golden"

#: Largest mean absolute difference per channel (0-255) an image may have from its reference.
TOLERANCE = 1.5


def image_diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per RGBA channel of two images of one size (0 = identical)."""
    hist = ImageChops.difference(a.convert("RGBA"), b.convert("RGBA")).histogram()
    total = sum(i * n for ch in range(4) for i, n in enumerate(hist[ch * 256:(ch + 1) * 256]))
    return total / (a.width * a.height * 4)


def assert_golden(images: dict[str, Image.Image]) -> None:
    """Assert every image matches ``GOLDEN / name`` in size and within :data:`TOLERANCE`
    (after rewriting the references when ``GUNBAI_REGEN_GOLDEN`` is set).

    Raises:
        AssertionError: naming the first image whose size differs or whose difference is over
            the tolerance.
    """
    if os.environ.get("GUNBAI_REGEN_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        for name, img in images.items():
            (GOLDEN / name).write_bytes(png_bytes(img))
    for name, img in images.items():
        ref = Image.open(GOLDEN / name)
        assert ref.size == img.size, name
        assert image_diff(img, ref) < TOLERANCE, f"{name} differs from tests/render/golden/{name} (regenerate: see tests/golden_images.py)"
