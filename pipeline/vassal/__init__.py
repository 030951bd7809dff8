"""Game-agnostic library for VASSAL 3.7 files: modules (``.vmod``), saves (``.vsav``).

The format facts come from ``/work/shared/research/vassal-format.md``; every public function
names the section it follows. Modules, one per concept:

- :mod:`.sequence` – SequenceEncoder escaping (§3.1)
- :mod:`.traits` – piece traits and key strokes (§3.4-3.5)
- :mod:`.pieces` – trait stacks, AddPiece text, decoding (§3.2-3.3, §4.4)
- :mod:`.grids` – HexGrid/SquareGrid geometry exactly as VASSAL (§2.5)
- :mod:`.buildfile` – declarative module + buildFile.xml/moduledata writer (§1-2)
- :mod:`.commands` – save commands: board setup, begin/end (§4.3)
- :mod:`.save` – saves/setups, !VCSK obfuscation, reading (§4)
- :mod:`.archive` – deterministic ZIP writing, safe ZIP/XML reading (§1, §4.1)
- :mod:`.lint` – checks of §8; :mod:`.classes`/:mod:`.components` – 3.7 class whitelist
- :mod:`.extension` – extensions (``.vmdx``, §5); :mod:`.inspect` – contents in words
- :mod:`.base` – a base module an extension extends, read as untrusted input (§5)
- :mod:`.versions` – version strings ordered as VASSAL orders them
"""

from .archive import VassalFormatError, open_archive, write_archive_atomic, write_module
from .buildfile import Module, write_buildfile, write_moduledata
from .extension import ExtensionElement, ModuleExtension, write_extension
from .lint import Finding, lint, lint_bytes
from .pieces import DecodedPiece, PieceDecodeError, PieceDefinition, decode_add_piece
from .save import PlacedPiece, SaveGame, read_save

__all__ = [
    "DecodedPiece",
    "ExtensionElement",
    "ModuleExtension",
    "Finding",
    "Module",
    "PieceDecodeError",
    "PieceDefinition",
    "PlacedPiece",
    "SaveGame",
    "VassalFormatError",
    "decode_add_piece",
    "lint",
    "lint_bytes",
    "open_archive",
    "read_save",
    "write_archive_atomic",
    "write_buildfile",
    "write_extension",
    "write_module",
    "write_moduledata",
]
