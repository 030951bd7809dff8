"""The Genpei content as a VASSAL extension (``.vmdx``) to an existing Samurai Battles module.

The same map, palette, prototypes, dice, reference cards and scenario setups as the Genpei module
(:func:`pipeline.systems.genpei.module.build_module` builds them; nothing is redefined here),
each added to the base module in its own ``ExtensionElement`` (``vassal-format.md`` §5):

- the Battlefield map (with the Genpei board and its HexGrid), the piece window, the reference
  card window, the battle dice buttons and each scenario's PredefinedSetup go to the module root
  (``target=""``);
- each prototype goes to the module's ``PrototypesContainer``, which every module has.

Slots get gpids ``<extensionId>:<n>`` and the setups place pieces with those gpids. The base
module is, by default, the module gunbai builds for the same system (``vassal.module_name`` and
``module_version``), so the extension can be loaded and tested on it; a module maker who
publishes it for another module (the published Samurai Battles module) sets that module's exact
name and version as ``vassal.base_module_name`` and ``base_module_version`` in ``system.yaml``.
The setups are saves for the base module.
"""

from __future__ import annotations

import hashlib

from pipeline.systems.genpei.layout import HexLayout
from pipeline.systems.genpei.load import GenpeiData
from pipeline.systems.genpei.module import build_module, scenario_saves
from pipeline.vassal.buildfile import BuildFile, Module
from pipeline.vassal.extension import (
    PROTOTYPES,
    ROOT,
    ExtensionElement,
    ModuleExtension,
    extension_entries,
)
from pipeline.vassal.save import SaveGame

#: File name of the extension in the output folder.
EXTENSION_FILE = "genpei.vmdx"


def extension_id(data: GenpeiData) -> str:
    """A stable 3-hex-digit extension id (VASSAL's own form, §5) derived from the module name,
    so rebuilding never changes it."""
    return hashlib.sha256(data.system.vassal.module_name.encode("utf-8")).hexdigest()[:3]


def genpei_extension(data: GenpeiData, layout: HexLayout, card_images: list[str]) -> tuple[ModuleExtension, Module, list]:
    """The extension, the module description it is made from, and the palette.

    Args:
        data: the loaded data.
        layout: the board layout (pixels).
        card_images: image names of the reference cards, in display order.
    """
    module, palette = build_module(data, layout, card_images)
    v = data.system.vassal
    elements = [ExtensionElement(ROOT, m) for m in module.maps]
    elements += [ExtensionElement(PROTOTYPES, p) for p in module.prototypes]
    elements += [ExtensionElement(ROOT, w) for w in module.piece_windows]
    elements += [ExtensionElement(ROOT, d) for d in module.dice_buttons]
    elements += [ExtensionElement(ROOT, c) for c in module.chart_windows]
    elements += [ExtensionElement(ROOT, s) for s in module.setups]
    base_name, base_version = v.extension_base
    ext = ModuleExtension(
        name=f"{v.module_name} (extension)",
        extension_id=extension_id(data),
        module_name=base_name,
        module_version=base_version,
        version=v.module_version,
        description=v.description,
        elements=elements,
        date_saved_ms=v.date_saved_ms,
        stable_gpids=True,
    )
    return ext, module, palette


def extension_archive_entries(
    data: GenpeiData, layout: HexLayout, images: dict[str, bytes], card_images: list[str], *, date_saved_ms: int
) -> tuple[dict[str, bytes], BuildFile, dict[str, SaveGame]]:
    """Every entry of ``genpei.vmdx``: buildFile.xml, extensiondata, the base module's
    moduledata, the images (counters, board, cards) and one setup per scenario.

    Raises:
        ValueError: as :func:`pipeline.vassal.extension.extension_entries`.
    """
    from pipeline.vassal.buildfile import write_moduledata
    from pipeline.vassal.extension import write_extension

    ext, _module, palette = genpei_extension(data, layout, card_images)
    built = write_extension(ext)
    base_name, base_version = data.system.vassal.extension_base
    saves = scenario_saves(data, layout, palette, built.gpids, base_name, base_version)
    base_md = write_moduledata(Module(base_name, version=base_version), date_saved_ms)
    entries, built = extension_entries(
        ext, base_moduledata=base_md, images=images, setups=saves, default_epoch=date_saved_ms // 1000
    )
    return entries, built, saves
