"""Issue 28 item 4 (corpus growth): constructs of VASSAL 2.x-3.0 modules that lint called errors
and VASSAL 3.7.26 accepts, each on a small module built here, with the Java rule it follows and,
where a load shows it, what the real engine said (``/work/shared/vassal/vassal-check`` on the
archives ``python -m tests.vassal.test_vassal_lint_old_modules OUT_DIR`` writes).

Found on the corpus fixtures ``carcassonne*`` (Carcassonne modules of 2006-2007, VASSAL 2.7 to
3.0.11) and ``vive_lempereur``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.vassal.archive import archive_bytes
from pipeline.vassal.lint import ERROR, NOTE, WARNING, java_blank, lint_bytes
from tests.vassal.test_vassal_lint_cases import (
    EPOCH,
    NAME,
    VM,
    buildfile,
    by,
    lint_entries,
    module,
    piece,
    save_bytes,
    slot,
)


def _layer_module() -> dict[str, bytes]:
    """A piece whose Layer has a blank first image (" ", no image at level 1) and a real second
    one, active at level 1 in a setup so VASSAL draws the blank level on load."""
    layer = "emb2;;0;;;11;9;;0;;;;1;false;0;0; ,inf.png;,;false;Layer;;"
    text = piece(traits=(layer,), states=("1",))
    setup = f'<{VM}PredefinedSetup file="s.vsav" isMenu="false" name="S" useFile="true"/>'
    ents = module(buildfile(slots=slot("Inf", "1", text), extra=setup))
    ents["s.vsav"] = save_bytes(["begin_save", _add_piece(layer), "end_save"])
    return ents


def _add_piece(layer: str) -> str:
    from pipeline.vassal.pieces import add_piece_command, nest

    return add_piece_command("7", nest([layer, "piece;;;inf.png;Inf"]),
                             nest(["1", "Main Map;100;100;1;0"]))


def test_java_blank_is_string_is_blank():
    """``String.isBlank``: empty or ``Character.isWhitespace`` only; the no-break spaces are no
    Java whitespace."""
    assert java_blank("") and java_blank(" ") and java_blank("\t\n ")
    assert not java_blank("a") and not java_blank("\u00a0") and not java_blank(" x ")


def test_a_blank_layer_image_names_no_image():
    """Embellishment.mySetType hands each image name to ScaledImagePainter.setImageName, which
    loads nothing for a blank name (``imageName.isBlank()``, VASSAL 3.7.26): the Layer level
    " " is drawn as nothing, with no 'Image not found'. vassal-check on ``blank_layer.vmod``
    with its setup: CLEAN. The same for a BasicPiece or Mask image of " "."""
    assert by(lint_entries(_layer_module()), ERROR) == []
    basic = piece(image=" ")
    assert by(lint_entries(module(buildfile(slots=slot("Inf", "1", basic)))), ERROR) == []
    # an image name with a letter in it is still looked up
    bad = piece(image="nothere.png")
    errs = by(lint_entries(module(buildfile(slots=slot("Inf", "1", bad)))), ERROR)
    assert len(errs) == 1 and "'nothere.png' not found" in errs[0]


def _roster(icon: str) -> str:
    return (f'<{VM}PlayerRoster buttonIcon="{icon}" buttonText="Retire" buttonToolTip="">'
            f"<entry>Red</entry><entry>Black</entry></{VM}PlayerRoster>")


def test_b_playerroster_retire_icon_of_old_vassal():
    """PlayerRoster.build (VASSAL 3.7.26) skips buttonIcon="Retire", which VASSAL before 2.9
    wrote with no such image, when the archive has no ``images/Retire``: no icon, no error.
    vassal-check on ``retire_icon.vmod``: CLEAN. Another missing icon name is still an
    error."""
    assert by(lint_entries(module(buildfile(extra=_roster("Retire")))), ERROR) == []
    errs = by(lint_entries(module(buildfile(extra=_roster("Quit")))), ERROR)
    assert len(errs) == 1 and "buttonIcon image 'Quit' not found" in errs[0]


def _setup(attrs: str) -> str:
    return (f'<{VM}PredefinedSetup isMenu="true" name="New Game" useFile="true">'
            f'<{VM}PredefinedSetup isMenu="false" name="Custom" useFile="true"{attrs}/>'
            f"</{VM}PredefinedSetup>")


def test_c_setup_without_a_file_attribute_starts_an_empty_game():
    """AbstractBuildable.build sets only the attributes an element has, so without ``file``
    PredefinedSetup.fileName stays null and PredefinedSetup.launch takes its new-game branch
    (GameState.setup(true)), as for useFile="false": Carcassonne: The Discovery's "5 Players /
    Custom" and Vive l'Empereur's "No Setup". ``file=""`` reads the entry "": 'Setup not found'
    (an error, as before)."""
    assert by(lint_entries(module(buildfile(extra=_setup("")))), ERROR) == []
    errs = by(lint_entries(module(buildfile(extra=_setup(' file=""')))), ERROR)
    assert len(errs) == 1 and "setup has no file" in errs[0]


def _old_extension(vassal_version: str, *, extension_id: str = "") -> bytes:
    help_ = (f'<{VM}ExtensionElement target="{VM}Documentation">'
             f'<{VM}documentation.HelpFile fileName="rules.html" fileType="archive" '
             f'title="Rules"/></{VM}ExtensionElement>')
    bf = (f'<?xml version="1.0" encoding="UTF-8"?><{VM}ModuleExtension module="{NAME}" '
          f'moduleVersion="1.0" vassalVersion="{vassal_version}" version="1"'
          f'{f" extensionId={chr(34)}{extension_id}{chr(34)}" if extension_id else ""}>'
          f"{help_}</{VM}ModuleExtension>").encode()
    return archive_bytes({"buildFile": bf, "rules.html": b"<html><body>Rules</body></html>"},
                         EPOCH)


def _base_with_documentation() -> bytes:
    doc = f"<{VM}Documentation/>"
    return archive_bytes(module(buildfile(extra=doc)), EPOCH)


def test_d_old_extension_without_metadata_loads():
    """MetaDataFactory.buildMetaData finds ``VASSAL.build.module.ModuleExtension`` in the first
    lines of an old-style ``buildFile``; ExtensionMetaData.read then takes version, VASSAL
    version and module from that root (ExtensionBuildFileXMLHandler), and ModuleExtension.build
    reads ``buildFile`` since that vassalVersion is below 3.5. vassal-check of Carcassonne: The
    Castle with its rules extension (VASSAL 2.8, no extensiondata, no moduledata): 'Extension
    carcassonne_castle_rules ... loaded', CLEAN. A warning (the metadata is guessed), no error;
    with a vassalVersion of 3.5 or more VASSAL reads ``buildFile.xml`` and loads nothing: an
    error."""
    base = _base_with_documentation()
    found = lint_bytes(_old_extension("2.8"), "rules.vmdx", base=base)
    assert by(found, ERROR) == []
    warns = by(found, WARNING)
    assert len(warns) == 1 and "extensiondata is missing: VASSAL loads" in warns[0]
    errs = by(lint_bytes(_old_extension("3.6.0"), "rules.vmdx", base=base), ERROR)
    assert len(errs) == 1 and "empty extension" in errs[0]


def test_e_an_empty_extension_id_is_a_note():
    """ExtensionsLoader.addExtension compares extension ids only when non-empty, and
    ModuleExtension.build allocates one only in the editor: the extension loads (vassal-check,
    the case above). A note; what it does to the extension's own gpids is reported per slot."""
    base = _base_with_documentation()
    found = lint_bytes(_old_extension("2.8"), "rules.vmdx", base=base)
    notes = by(found, NOTE)
    assert len(notes) == 1 and "extensionId is empty" in notes[0]
    assert not any("extensionId" in f for f in by(lint_bytes(
        _old_extension("2.8", extension_id="abc"), "rules.vmdx", base=base), NOTE))


def _map_module(map_attrs: str, map_children: str = "") -> dict[str, bytes]:
    bf = buildfile().decode().replace(
        f'<{VM}Map mapName="Main Map">', f'<{VM}Map mapName="Main Map" {map_attrs}>'
    ).replace(f"</{VM}map.BoardPicker>", f"</{VM}map.BoardPicker>{map_children}", 1)
    return module(bf.encode())


def test_f_icons_vassal_never_loads():
    """Malifaux 3e: PieceMover.initButton makes the "Mark unmoved" button, and loads its icon,
    only when the map's markMoved is not "Never"; LOS_Thread shows persistentIconName only
    while a thread persists (LOS_Thread.setPersisting), which with persistence "Never" it never
    does (mouseReleased). Missing icons there are no error; with markMoved "Always" or
    persistence "Always" they are."""
    never = _map_module('markMoved="Never" markUnmovedIcon="gone.png"')
    assert by(lint_entries(never), ERROR) == []
    always = _map_module('markMoved="Always" markUnmovedIcon="gone.png"')
    errs = by(lint_entries(always), ERROR)
    assert len(errs) == 1 and "markUnmovedIcon image 'gone.png'" in errs[0]
    for persistence, n in (("Never", 0), ("Always", 1)):
        los = (f'<{VM}map.LOS_Thread threadName="LOS" persistence="{persistence}" '
               f'persistentIconName="gone.png"/>')
        errs = by(lint_entries(_map_module("", los)), ERROR)
        assert len(errs) == n and all("persistentIconName image 'gone.png'" in e for e in errs)


def _palette_module(hidden: str, marker_path: str = "") -> dict[str, bytes]:
    """A second palette holding a slot whose image is missing; ``marker_path``: a PlaceMarker
    trait on the first palette's piece that places a piece of that second palette."""
    traits, states = (), ()
    if marker_path:
        traits = (f"placemark;Place;80,130;{marker_path};;0;0;false;;;;;",)
        states = ("",)
    first = slot("Inf", "1", piece(traits=traits, states=states))
    window = (f'<{VM}PieceWindow name="Spares" hidden="{hidden}">'
              f'<VASSAL.build.widget.ListWidget entryName="All">'
              f'{slot("Ghost", "2", piece(image="ghost.png", name="Ghost", gpid="2"))}'
              f"</VASSAL.build.widget.ListWidget></{VM}PieceWindow>")
    return module(buildfile(slots=first, extra=window))


def test_g_a_missing_image_in_a_hidden_palette_is_a_warning():
    """Ragnarok: PieceWindow.addTo makes no window and no toolbar button for hidden="true",
    so a slot there is drawn only in the editor: a missing image is a warning. When a Place
    Marker or Replace trait names that palette in its marker path (PlaceMarker.createBaseMarker
    via ComponentPathBuilder, as Fields of Fire's hidden unit palettes), its pieces reach the
    map: an error, as in a shown palette."""
    found = lint_entries(_palette_module("true"))
    assert by(found, ERROR) == []
    warns = by(found, WARNING)
    assert len(warns) == 1 and "'ghost.png' not found" in warns[0] and "hidden" in warns[0]
    assert len(by(lint_entries(_palette_module("false")), ERROR)) == 1
    path = (f"{VM}PieceWindow:Spares/VASSAL.build.widget.ListWidget:All/"
            "VASSAL.build.widget.PieceSlot:Ghost")
    errs = by(lint_entries(_palette_module("true", path)), ERROR)
    assert any("'ghost.png' not found" in e for e in errs), errs


def write_cases(out: Path) -> list[Path]:
    """The archives the tests' vassal-check verdicts come from."""
    out.mkdir(parents=True, exist_ok=True)
    cases = {
        "blank_layer.vmod": archive_bytes(_layer_module(), EPOCH),
        "retire_icon.vmod": archive_bytes(module(buildfile(extra=_roster("Retire"))), EPOCH),
        "setup_without_file.vmod": archive_bytes(module(buildfile(extra=_setup(""))), EPOCH),
    }
    paths = []
    for name, data in cases.items():
        (out / name).write_bytes(data)
        paths.append(out / name)
    return paths


if __name__ == "__main__":  # pragma: no cover
    for p in write_cases(Path(sys.argv[1])):
        print(p)
