"""Generic drawing from templates: a Jinja2 template renders a context to a YAML list of drawing
primitives in a resolution-independent space, and :mod:`pipeline.render.drawing` draws them with
Pillow at any pixel size. Nothing here knows any game.

Public API::

    from pipeline.render import TemplateRenderer, RenderError, draw, parse_drawing, png_bytes

    r = TemplateRenderer(Path("templates"))
    img = r.image("genpei/unit_counter.yaml.j2", context, width_px=56)
    Path("x.png").write_bytes(png_bytes(img))
"""

from pipeline.render.drawing import Drawing, RenderError, draw, parse_drawing
from pipeline.render.png import png_bytes, save_png
from pipeline.render.templates import TemplateRenderer

__all__ = ["Drawing", "RenderError", "TemplateRenderer", "draw", "parse_drawing", "png_bytes", "save_png"]
