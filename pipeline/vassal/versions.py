"""Version strings compared as VASSAL 3.7.26 compares them.

VASSAL's ``VersionUtils.compareVersions(v0, v1)`` (``VASSAL/tools/version/VersionUtils.java``,
3.7.26) hands both strings to Maven's ``ComparableVersion``
(``org.apache.maven.artifact.versioning``; the Debian 12 build of VASSAL links maven-artifact
3.8.7). VASSAL uses it where an extension meets its module (``ModuleExtension.setAttribute``:
the ``moduleVersion`` an extension was built for, newer than the running module's version,
puts "Extension 'X' was built for module version V" in the chat) and for saves.

The rules of ``ComparableVersion`` (3.8.x), ported here:

- the text is lower-cased and cut into items at ``.`` and ``-``, and where digits meet letters
  (``1.0alpha1`` is ``1, 0, alpha, 1``); a ``-`` and a digit/letter change open a sub-list;
- numbers compare as numbers; a letter item compares as a qualifier: ``alpha < beta <
  milestone < rc < snapshot < "" < sp``, then any other word (alphabetically) above ``sp``;
  ``a``, ``b``, ``m`` directly followed by a digit mean alpha, beta, milestone; ``cr`` is
  ``rc``; ``ga``, ``final`` and ``release`` are the empty qualifier;
- trailing zeros and empty qualifiers are dropped (``1.0.0`` equals ``1``); a missing item
  compares as zero or the release qualifier (``1-rc1 < 1 < 1.1``); a number beats a word and a
  sub-list (``1.1 > 1-sp``, ``1.1 > 1-1``), a sub-list beats a word.

>>> compare_versions("1.0", "1.0.0"), compare_versions("1.9", "1.10"), compare_versions("4.2.0a60", "4.2.0")
(0, -1, -1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["compare_versions", "module_older_than"]

_QUALIFIERS = ("alpha", "beta", "milestone", "rc", "snapshot", "", "sp")
_ALIASES = {"ga": "", "final": "", "release": "", "cr": "rc"}
_RELEASE_INDEX = str(_QUALIFIERS.index(""))


def _qualifier_key(value: str) -> str:
    """``StringItem.comparableQualifier``: the index of a known qualifier, else ``7-<word>``;
    compared as strings."""
    return str(_QUALIFIERS.index(value)) if value in _QUALIFIERS else f"{len(_QUALIFIERS)}-{value}"


def _cmp(a: object, b: object) -> int:
    return (a > b) - (a < b)  # type: ignore[operator]


@dataclass
class _Int:
    value: int

    def is_null(self) -> bool:
        return self.value == 0

    def compare(self, other: _Item | None) -> int:
        if other is None:
            return 0 if self.value == 0 else 1
        if isinstance(other, _Int):
            return _cmp(self.value, other.value)
        return 1  # a number beats a word (1.1 > 1-sp) and a sub-list (1.1 > 1-1)


@dataclass
class _Str:
    value: str

    @classmethod
    def of(cls, value: str, followed_by_digit: bool) -> _Str:
        if followed_by_digit and len(value) == 1:
            value = {"a": "alpha", "b": "beta", "m": "milestone"}.get(value, value)
        return cls(_ALIASES.get(value, value))

    def is_null(self) -> bool:
        return _qualifier_key(self.value) == _RELEASE_INDEX

    def compare(self, other: _Item | None) -> int:
        if other is None:
            return _cmp(_qualifier_key(self.value), _RELEASE_INDEX)
        if isinstance(other, _Str):
            return _cmp(_qualifier_key(self.value), _qualifier_key(other.value))
        return -1  # below a number and below a sub-list


@dataclass
class _List:
    items: list[_Item] = field(default_factory=list)

    def is_null(self) -> bool:
        return not self.items

    def normalize(self) -> None:
        """Drop trailing null items (0, the empty qualifier, empty sub-lists), looking past
        sub-lists at the end."""
        for i in range(len(self.items) - 1, -1, -1):
            last = self.items[i]
            if last.is_null():
                del self.items[i]
            elif not isinstance(last, _List):
                break

    def compare(self, other: _Item | None) -> int:
        if other is None:
            for item in self.items:
                result = item.compare(None)
                if result:
                    return result
            return 0
        if isinstance(other, _Int):
            return -1
        if isinstance(other, _Str):
            return 1
        left, right = self.items, other.items
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else None
            b = right[i] if i < len(right) else None
            if a is None:
                result = 0 if b is None else -b.compare(None)
            else:
                result = a.compare(b)
            if result:
                return result
        return 0


_Item = _Int | _Str | _List


def _item(is_digit: bool, text: str) -> _Item:
    return _Int(int(text)) if is_digit else _Str.of(text, False)


def _parse(version: str) -> _List:
    """``ComparableVersion.parseVersion``."""
    text = version.lower()
    top = current = _List()
    stack = [top]
    is_digit = False
    start = 0
    for i, c in enumerate(text):
        if c in ".-":
            current.items.append(_Int(0) if i == start else _item(is_digit, text[start:i]))
            start = i + 1
            if c == "-":
                sub = _List()
                current.items.append(sub)
                current = sub
                stack.append(sub)
        elif c.isdigit():
            if not is_digit and i > start:
                current.items.append(_Str.of(text[start:i], True))
                start = i
                sub = _List()
                current.items.append(sub)
                current = sub
                stack.append(sub)
            is_digit = True
        else:
            if is_digit and i > start:
                current.items.append(_item(True, text[start:i]))
                start = i
                sub = _List()
                current.items.append(sub)
                current = sub
                stack.append(sub)
            is_digit = False
    if len(text) > start:
        current.items.append(_item(is_digit, text[start:]))
    while stack:
        stack.pop().normalize()
    return top


def compare_versions(v0: str, v1: str) -> int:
    """-1, 0 or 1 as ``v0`` is older than, equal to or newer than ``v1``, as VASSAL 3.7.26's
    ``VersionUtils.compareVersions`` (Maven ``ComparableVersion``) orders them.

    >>> compare_versions("1.0-rc1", "1.0"), compare_versions("2.1.4", "2.1"), compare_versions("1.0-sp", "1.0")
    (-1, 1, 1)
    """
    return max(-1, min(1, _parse(v0).compare(_parse(v1))))


def module_older_than(module_version: str, extension_module_version: str) -> bool:
    """Whether VASSAL warns that an extension was built for a newer module: the running
    module's ``version`` compares below the extension's ``moduleVersion``
    (``ModuleExtension.setAttribute``, 3.7.26: ``compareVersions(gameVersion, moduleVersion) <
    0`` puts ``ModuleExtension.wrong_module_version`` in the chat; the extension still loads).

    >>> module_older_than("1.5", "1.41"), module_older_than("1.41", "1.41"), module_older_than("2.0", "1.41")
    (True, False, False)
    """
    return compare_versions(module_version, extension_module_version) < 0
