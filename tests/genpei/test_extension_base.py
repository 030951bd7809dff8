"""The extension's base module (issue 10): gunbai's own module unless ``system.yaml`` names the
published module the extension is for (VASSAL refuses an extension "built for module X" on a
module of another name: ``ModuleExtension.build``, 3.7.26)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pipeline.systems.genpei.build import layout_of
from pipeline.systems.genpei.extension import genpei_extension
from pipeline.systems.genpei.load import load

DATA = Path(__file__).resolve().parents[2] / "source_data" / "genpei"


def test_default_base_is_the_module_gunbai_builds():
    data = load(DATA)
    ext, module, _ = genpei_extension(data, layout_of(data), [])
    assert (ext.module_name, ext.module_version) == (module.name, module.version)
    assert ext.module_name == data.system.vassal.module_name


def test_base_named_in_system_yaml_is_used_exactly():
    data = load(DATA)
    v = data.system.vassal.model_copy(update={"base_module_name": "Samurai Battles (GMT)", "base_module_version": "2.1.4"})
    data = dataclasses.replace(data, system=data.system.model_copy(update={"vassal": v}))
    ext, module, _ = genpei_extension(data, layout_of(data), [])
    assert (ext.module_name, ext.module_version) == ("Samurai Battles (GMT)", "2.1.4")
    assert module.name == "Samurai Battles: The Genpei War"
