"""The PNG writer (:mod:`pipeline.render.png`): valid files that decode to the same pixels."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image, ImageDraw

from pipeline.render.png import png_bytes


def _sample(mode: str) -> Image.Image:
    """A small image with distinct pixels in every row (so row order and filter bytes matter)."""
    img = Image.new("RGBA", (13, 7), (0, 0, 0, 0))
    px = img.load()
    for y in range(7):
        for x in range(13):
            px[x, y] = (x * 19 % 256, y * 37 % 256, (x * y) % 256, 40 + 30 * y)
    return img.convert(mode)


@pytest.mark.parametrize("mode", ["L", "LA", "RGB", "RGBA"])
def test_png_decodes_to_the_same_pixels_in_the_same_mode(mode):
    img = _sample(mode)
    back = Image.open(io.BytesIO(png_bytes(img)))
    assert back.mode == mode and back.size == img.size and back.tobytes() == img.tobytes()


def test_an_opaque_rgba_image_is_stored_as_rgb_with_the_same_pixels():
    img = Image.new("RGBA", (9, 4), (200, 10, 30, 255))
    ImageDraw.Draw(img).line([(0, 0), (8, 3)], fill=(1, 2, 3, 255))
    back = Image.open(io.BytesIO(png_bytes(img)))
    assert back.mode == "RGB" and back.convert("RGBA").tobytes() == img.tobytes()
    one_clear = img.copy()
    one_clear.putpixel((4, 2), (0, 0, 0, 254))
    assert Image.open(io.BytesIO(png_bytes(one_clear))).mode == "RGBA"


def test_other_modes_are_written_as_rgba():
    img = Image.new("P", (5, 5))
    img.putpalette([255, 0, 0, 0, 0, 255] + [0] * 762)
    img.putpixel((2, 2), 1)
    back = Image.open(io.BytesIO(png_bytes(img)))
    assert back.mode == "RGB"  # RGBA, opaque, so RGB
    assert back.getpixel((2, 2)) == (0, 0, 255) and back.getpixel((0, 0)) == (255, 0, 0)


def test_png_structure_is_the_fixed_minimal_one():
    """Signature, IHDR (8-bit, colour type 2, no interlace), one IDAT whose rows all start with
    filter 0, IEND; CRCs right; nothing else."""
    img = _sample("RGB")
    data = png_bytes(img, level=9)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, []
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert crc == zlib.crc32(kind + body)
        chunks.append((kind, body))
        pos += 12 + n
    assert [k for k, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    assert struct.unpack(">IIBBBBB", chunks[0][1]) == (13, 7, 8, 2, 0, 0, 0)
    rows = zlib.decompress(chunks[1][1])
    stride = 13 * 3 + 1
    assert len(rows) == 7 * stride and all(rows[y * stride] == 0 for y in range(7))
    assert b"".join(rows[y * stride + 1:(y + 1) * stride] for y in range(7)) == img.tobytes()


def test_png_is_deterministic_and_levels_are_checked():
    img = _sample("RGBA")
    assert png_bytes(img) == png_bytes(img.copy())
    assert png_bytes(img, 1) != png_bytes(img, 9)
    with pytest.raises(ValueError, match="0-9"):
        png_bytes(img, 10)
    with pytest.raises(ValueError, match="empty"):
        png_bytes(Image.new("RGB", (0, 3)))
