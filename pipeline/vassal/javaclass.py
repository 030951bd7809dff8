"""The classes a compiled Java class refers to, read from its constant pool, and the VASSAL
classes among them that VASSAL 3.7.26 no longer has.

A module's own code (``*.class`` entries) that uses a VASSAL class removed before 3.7 fails with
``NoClassDefFoundError`` when the JVM links it: the component or trait it implements is not built
and every piece using it is lost. The JVM Specification (SE 17, §4.1 and §4.4) gives the layout
read here: ``0xCAFEBABE``, minor and major version, ``constant_pool_count``, the pool (tags 1
Utf8, 3-6 numbers, 7 Class, 8 String, 9-11 member references, 12 NameAndType, 15 MethodHandle,
16 MethodType, 17 Dynamic, 18 InvokeDynamic, 19 Module, 20 Package; long and double take two
slots), then ``access_flags`` and ``this_class``. The classes referred to are every ``Class``
entry (superclass, interfaces, instantiations, calls, casts) and every class named in a
``NameAndType`` or ``MethodType`` descriptor (``LVASSAL/counters/Transparent;``).

>>> from pipeline.vassal.javaclass import missing_vassal_classes
>>> sorted(missing_vassal_classes({"VASSAL/counters/Decorator", "VASSAL/counters/Transparent",
...                                "java/lang/Object"}))
['VASSAL/counters/Transparent']
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from functools import cache

__all__ = ["ClassFileError", "ClassRefs", "class_refs", "missing_vassal_classes", "vassal_classes"]

_MAGIC = b"\xca\xfe\xba\xbe"
#: bytes after the tag of each fixed-size constant pool entry (JVMS §4.4)
_FIXED = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4,
          18: 4, 19: 2, 20: 2}
_DESCRIPTOR_CLASS = re.compile(r"L([^;()\[]+);")


class ClassFileError(ValueError):
    """Bytes that are no Java class file (bad magic, a pool cut short, an unknown tag)."""


@dataclass(frozen=True)
class ClassRefs:
    """A class file's own internal name (``wga/Refresher``) and the internal names of the
    classes it refers to (:mod:`pipeline.vassal.javaclass`)."""

    name: str
    refs: frozenset[str]


def class_refs(data: bytes) -> ClassRefs:
    """Read a class file's constant pool (see the module docstring).

    Raises:
        ClassFileError: ``data`` is no class file or its pool is malformed.
    """
    if data[:4] != _MAGIC or len(data) < 10:
        raise ClassFileError("no Java class file (magic is not 0xCAFEBABE)")
    (count,) = struct.unpack_from(">H", data, 8)
    utf8: dict[int, str] = {}
    classes: dict[int, int] = {}  # Class entry index -> its name's Utf8 index
    descriptors: list[int] = []
    i, pos = 1, 10
    try:
        while i < count:
            tag = data[pos]
            if tag == 1:
                (length,) = struct.unpack_from(">H", data, pos + 1)
                raw = data[pos + 3: pos + 3 + length]
                if len(raw) != length:
                    raise ClassFileError("constant pool cut short")
                utf8[i] = raw.decode("utf-8", "replace")  # modified UTF-8: names are ASCII
                pos += 3 + length
            elif tag in _FIXED:
                if tag == 7:
                    classes[i] = struct.unpack_from(">H", data, pos + 1)[0]
                elif tag == 12:
                    descriptors.append(struct.unpack_from(">H", data, pos + 3)[0])
                elif tag == 16:
                    descriptors.append(struct.unpack_from(">H", data, pos + 1)[0])
                pos += 1 + _FIXED[tag]
                if tag in (5, 6):
                    i += 1  # a long or double takes two slots
            else:
                raise ClassFileError(f"unknown constant pool tag {tag} at byte {pos}")
            i += 1
        _flags, this = struct.unpack_from(">HH", data, pos)
    except (IndexError, struct.error):
        raise ClassFileError("constant pool cut short") from None
    refs: set[str] = set()
    for index in classes.values():
        name = utf8.get(index, "")
        if name.startswith("["):
            refs.update(_DESCRIPTOR_CLASS.findall(name))
        elif name:
            refs.add(name)
    for index in descriptors:
        refs.update(_DESCRIPTOR_CLASS.findall(utf8.get(index, "")))
    own = utf8.get(classes.get(this, -1), "")
    refs.discard(own)
    return ClassRefs(own, frozenset(refs))


@cache
def vassal_classes() -> frozenset[str]:
    """Internal names of every class in VASSAL 3.7.26's jar (:mod:`.jar_classes`)."""
    from .jar_classes import PACKAGES

    return frozenset(f"{pkg}/{simple}" for pkg, names in PACKAGES.items()
                     for simple in names.split())


def missing_vassal_classes(refs: frozenset[str] | set[str]) -> list[str]:
    """The ``VASSAL/…`` classes among ``refs`` that VASSAL 3.7.26's jar does not have, sorted."""
    have = vassal_classes()
    return sorted(r for r in refs if r.startswith("VASSAL/") and r not in have)
