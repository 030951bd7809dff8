"""Compare the print PDFs of two build folders page by page, as pictures.

Usage: .venv/bin/python scripts/compare_print.py BEFORE_BUILD AFTER_BUILD [--dpi 30]

Renders every page of every ``<system>/print/*.pdf`` of both folders with pdfium (the
pypdfium2 dev dependency) at ``--dpi`` and prints, per file, its pages and the largest mean
absolute difference of a page (0-255, every channel of every pixel, after a 1 px box blur so
that anti-aliasing along edges counts little), with the file sizes. Exit 1 when a file is
missing from AFTER_BUILD or its page count or page size differs. A vector page against the
raster page it replaced gives about 3-5 (edges); a moved or missing shape gives 10 and more.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageFilter


def pages(path: Path, dpi: float) -> list[Image.Image]:
    """Every page of the PDF at ``path`` rendered at ``dpi``, as RGB pictures."""
    doc = pdfium.PdfDocument(path.read_bytes())
    try:
        return [doc[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in range(len(doc))]
    finally:
        doc.close()


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference (0-255) of two RGB pictures of one size after a 1 px blur."""
    blur = ImageFilter.BoxBlur(1)
    hist = ImageChops.difference(a.filter(blur), b.filter(blur)).histogram()
    return sum((i % 256) * n for i, n in enumerate(hist)) / sum(hist)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--dpi", type=float, default=30.0)
    args = ap.parse_args()
    bad = 0
    for pa in sorted(args.before.glob("*/print/*.pdf")):
        pb = args.after / pa.relative_to(args.before)
        name = pa.relative_to(args.before)
        if not pb.is_file():
            print(f"{name}: missing after")
            bad += 1
            continue
        A, B = pages(pa, args.dpi), pages(pb, args.dpi)
        if len(A) != len(B) or any(x.size != y.size for x, y in zip(A, B, strict=False)):
            print(f"{name}: {len(A)} pages before, {len(B)} after, or another page size")
            bad += 1
            continue
        worst = max(mean_difference(x, y) for x, y in zip(A, B, strict=True))
        print(f"{name}: {len(A)} pages, largest mean difference {worst:.2f}, {pa.stat().st_size // 1024} KB -> {pb.stat().st_size // 1024} KB")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
