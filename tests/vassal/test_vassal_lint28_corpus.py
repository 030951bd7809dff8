"""Issue 28 item 4: lint classes the grown corpus showed false on real modules, each on a small
module built here with the VASSAL 3.7.26 rule it follows (class and method named in each test).
"""

from __future__ import annotations

from pipeline.vassal.archive import archive_bytes
from pipeline.vassal.lint import lint_bytes
from tests.vassal.test_vassal_lint_cases import (
    ADD,
    EPOCH,
    MODULEDATA,
    NAME,
    VM,
    buildfile,
    module,
    save_bytes,
)

OTHER = MODULEDATA.replace(f"<name>{NAME}</name>".encode(), b"<name>Another Module</name>")


def _save_of_another_module() -> bytes:
    """A save whose ``savedata`` and ``moduledata`` name ``Another Module`` (as the IKRPG
    module's 111 setups, made with Warmachine & Hordes MKII, name that module)."""
    import io
    import zipfile

    inner = zipfile.ZipFile(io.BytesIO(save_bytes([ADD.format(id=1, x=100, y=100)])))
    entries = {n: inner.read(n) for n in inner.namelist()}
    entries["moduledata"] = OTHER
    entries["savedata"] = OTHER
    return archive_bytes(entries, EPOCH)


def test_a_setup_made_with_another_module_is_not_questioned():
    """``GameState.isSaveMetaDataValid`` (3.7.26), the "This save was created with the module
    named …" question, is asked only of a file the player opens: ``GameState.loadGame`` and
    ``WizardSupport.SavedGameLoader`` given a file. A predefined setup is loaded by
    ``PredefinedSetup.launch`` -> ``GameState.loadGameInBackground(name, stream, true)`` (or the
    wizard's ``getSavedGameContents`` branch), which decode and run it with no metadata check:
    a setup naming another module loads without a word, so lint says nothing of it (the corpus
    fixture ``ikrpg``: 111 such warnings were false)."""
    setup = f'<{VM}PredefinedSetup file="s.vsav" isMenu="false" name="S" useFile="true"/>'
    ents = module(buildfile(extra=setup))
    ents["s.vsav"] = _save_of_another_module()
    findings = lint_bytes(archive_bytes(ents, EPOCH), "case.vmod")
    assert not [f for f in findings if "save is for module" in f.message], findings


def test_a_save_file_of_another_module_is_questioned():
    """The same save opened as a file (``gunbai lint SAVE --base MODULE``: what File > Load
    does, ``GameState.loadGame`` -> ``isSaveMetaDataValid``): VASSAL asks before loading it,
    a warning as before."""
    base = archive_bytes(module(), EPOCH)
    findings = lint_bytes(_save_of_another_module(), "s.vsav", base=base)
    hits = [f for f in findings if "save is for module 'Another Module'" in f.message]
    assert hits and all(f.severity == "warning" for f in hits), findings
