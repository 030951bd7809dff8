"""How VASSAL 3.7 finds a file a module names: archive entry names as Java reads them, image
lookups with VASSAL's fallbacks, and the images an HTML page or an SVG document references.

Ground truth (VASSAL 3.7.26 source):

- ``tools/DataArchive.getInputStream(name)``: a name starting with ``/`` is a resource of
  VASSAL's own jar; else the entry ``name`` in the module, then in each loaded extension; then
  the NFD-normalised name; then the jar resource ``/name``; then ``name + ".gif"`` (archive, then
  jar). Images are asked for as ``images/<name>`` (``I18nResourcePathFinder.findImagePath``).
  Lookups are exact: case matters on every system, because they are ZIP entry lookups.
- ``java.util.zip.ZipFile`` reads an entry name as UTF-8 whether or not the entry's UTF-8 flag
  (general purpose bit 11) is set; zip tools that write CP437 without the flag give names Java
  reads differently (or not at all) from what the tool shows.
- ``tools/swing/DataArchiveHTMLEditorKit`` (HelpFile pages and HtmlChart): an ``<img src>``
  without ``/`` is read from ``images/<src>`` in the archive; with ``/`` Swing resolves it against
  the page's URL, which an HtmlChart does not have (``setText``), so there it shows a broken
  image; a HelpFile page has its ``jar:`` URL (``setPage``), so the path is relative to the page
  inside the archive that holds the page.
- ``tools/imageop/SourceOpSVGImpl`` renders an SVG with its ``jar:`` URL as document base: an
  ``xlink:href`` is a URL relative to the SVG inside the same archive; a backslash is no path
  separator in a URL.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from lxml import etree
from lxml import html as lxml_html

from .archive import Archive
from .read import parse_svg
from .resources import VASSAL_RESOURCES

__all__ = ["JAR", "ArchiveNames", "html_image_refs", "resolve_file", "resolve_image",
           "svg_refs", "svg_root_refs"]

#: What :func:`resolve_file` returns for a name VASSAL's own jar provides.
JAR = "<VASSAL jar>"


@dataclass
class ArchiveNames:
    """An archive's entry names as Java's ``ZipFile`` reads them.

    Attributes:
        label: the archive's name in messages (``module``, ``extension``, a file name).
        names: every name Java can look up.
        unreadable: ``(shown name, raw bytes)`` of entries whose name has no UTF-8 flag and is
            not valid UTF-8 (CP437 from an old zip tool): Java cannot look them up by the name
            the tool shows.
        lower: lower-cased name -> the names that fold to it (case collisions, case hints).
    """

    label: str
    names: set[str] = field(default_factory=set)
    unreadable: list[tuple[str, bytes]] = field(default_factory=list)
    lower: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, arc: Archive, label: str) -> ArchiveNames:
        """The Java view of ``arc``'s names (see the class docstring)."""
        out = cls(label)
        for name, info in arc.infos.items():
            if name == info.filename and not info.flag_bits & 0x800 and not name.isascii():
                # no UTF-8 flag and no UTF-8 (java_name kept Python's CP437 reading)
                out.unreadable.append((name, name.encode("cp437", errors="replace")))
                continue
            out.names.add(name)
            out.lower.setdefault(name.lower(), []).append(name)
        return out

    def __contains__(self, name: object) -> bool:
        return name in self.names


def resolve_file(name: str, archives: Sequence[ArchiveNames]) -> str | None:
    """Where ``DataArchive.getInputStream(name)`` finds ``name``: the label of the first archive
    holding it (module first, then extensions), :data:`JAR` for a VASSAL resource, else None.
    Tries ``name``, its NFD form, the jar resource, then ``name + ".gif"``."""
    if name.startswith("/"):
        return JAR if name[1:] in VASSAL_RESOURCES else None
    nfd = unicodedata.normalize("NFD", name)
    for candidate in (name, nfd) if nfd != name else (name,):
        for arc in archives:
            if candidate in arc:
                return arc.label
    if name in VASSAL_RESOURCES:
        return JAR
    for arc in archives:
        if name + ".gif" in arc:
            return arc.label
    if name + ".gif" in VASSAL_RESOURCES:
        return JAR
    return None


def resolve_image(image: str, archives: Sequence[ArchiveNames]) -> str | None:
    """:func:`resolve_file` of an image name as traits and components give it: a name with a
    leading ``/`` is a jar resource, any other is looked up as ``images/<name>``."""
    if image.startswith("/"):
        return resolve_file(image, archives)
    return resolve_file("images/" + image, archives)


def case_hint(path: str, archives: Iterable[ArchiveNames]) -> str:
    """`` (found 'X': case differs)`` when an entry matches ``path`` but for case, else ``""``."""
    for arc in archives:
        for other in arc.lower.get(path.lower(), ()):
            if other != path:
                return f" (found {other!r}: case differs)"
    return ""


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def html_image_refs(data: bytes) -> list[str]:
    """Every ``<img src>`` of an HTML page, in document order (lxml's forgiving HTML parser;
    entities are not expanded from any DTD). An empty list for bytes that are no HTML."""
    try:
        doc = lxml_html.document_fromstring(data, parser=lxml_html.HTMLParser(
            no_network=True, recover=True, remove_comments=True, huge_tree=False))
    except (etree.ParserError, ValueError):
        return []
    return [img.get("src", "") for img in doc.iter("img") if img.get("src") is not None]


def svg_refs(data: bytes) -> list[str]:
    """Every ``href``/``xlink:href`` of an SVG document, in document order (:func:`~.read.
    parse_svg`); an SVG that does not parse gives an empty list."""
    root = parse_svg(data)
    if root is None:
        return []
    return svg_root_refs(root)


def svg_root_refs(root: etree._Element) -> list[str]:
    """:func:`svg_refs` of an SVG document already parsed by :func:`~.read.parse_svg`."""
    # an attribute's local name is "href" when its Clark name {namespace}local ends so
    return [v for el in root.iter() if isinstance(el.tag, str)
            for k, v in el.attrib.items() if k == "href" or k.endswith("}href")]


def classify_url(ref: str) -> str:
    """``fragment`` (``#id``), ``data`` (inline), ``external`` (a URL with a scheme: http, file…),
    ``backslash`` (a relative path with ``\\``, no separator in a URL), else ``relative``."""
    if not ref or ref.startswith("#"):
        return "fragment"
    if ref.startswith("data:"):
        return "data"
    if _SCHEME.match(ref):
        return "external"
    if "\\" in ref:
        return "backslash"
    return "relative"


def join_relative(base_entry: str, ref: str) -> str | None:
    """The archive entry a relative URL ``ref`` names from the entry ``base_entry`` (both
    ``/``-separated; query and fragment dropped, percent-escapes decoded), or None when it climbs
    out of the archive."""
    path = unquote(urlsplit(ref).path)
    if path.startswith("/"):
        parts: list[str] = []
        segs = path.split("/")
    else:
        parts = base_entry.split("/")[:-1]
        segs = path.split("/")
    for seg in segs:
        if seg in ("", "."):
            continue
        if seg == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(seg)
    return "/".join(parts)


def iter_nonempty(values: Iterable[str]) -> Iterator[str]:
    """The non-empty strings of ``values``."""
    return (v for v in values if v)
