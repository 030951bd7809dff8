"""Fonts for drawing: only the Noto Sans CJK JP faces of the installed font packages.

System fonts are never used, so kanji (e.g. 僧兵) and Latin text render the same on every
machine. Fonts are cached per (weight, pixel size).

Example::

    >>> f = font(40, bold=True)
    >>> has_glyph("僧")
    True
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from pipeline.errors import GunbaiError


class FontError(GunbaiError):
    """A font package is missing or its font file cannot be read."""


def font_path(bold: bool = False) -> Path:
    """Path of the Noto Sans CJK JP font file (regular or bold) from its installed package.

    Raises:
        FontError: the package ``noto_cjk_sans_jp_regular`` / ``noto_cjk_sans_jp_bold`` is not
            installed or its ``FONT_PATH`` does not exist.
    """
    name = "noto_cjk_sans_jp_bold" if bold else "noto_cjk_sans_jp_regular"
    try:
        module = __import__(name)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise FontError(f"font package {name} is not installed (pip install {name.replace('_', '-')})") from exc
    path = Path(module.FONT_PATH)
    if not path.is_file():  # pragma: no cover
        raise FontError(f"font package {name}: FONT_PATH {path} does not exist")
    return path


@lru_cache(maxsize=256)
def font(size_px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The Noto Sans CJK JP font at ``size_px`` pixels (em size), regular or bold. Cached.

    Raises:
        FontError: the font package is missing; ValueError: ``size_px`` < 1.
    """
    if size_px < 1:
        raise ValueError(f"font size must be at least 1 px, got {size_px}")
    return ImageFont.truetype(str(font_path(bold)), size_px, layout_engine=ImageFont.Layout.BASIC)


def has_glyph(char: str, bold: bool = False) -> bool:
    """True when the font has a real glyph for ``char`` (its bitmap has ink; a space has none)."""
    f = font(64, bold)
    mask = f.getmask(char)
    return mask.getbbox() is not None
