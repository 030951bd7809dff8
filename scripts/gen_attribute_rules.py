#!/usr/bin/env python3
"""Generate ``pipeline/vassal/attribute_rules_data.py`` from the VASSAL 3.7.26 Java source.

For every component class lint knows (:data:`pipeline.vassal.classes.ALLOWED_CHILDREN` and their
superclasses) this reads how VASSAL's loader hands each XML attribute to the component and how
the component parses it:

1. ``build(Element)`` (the class's own or the nearest inherited one) decides where attributes go:
   ``AbstractBuildable.build`` and ``Widget.build`` call ``setAttribute(name, value)`` for every
   XML attribute; ``PlayerRoster.build`` hands them to its launch button; a ``build`` that never
   calls ``setAttribute(att.getName(), …)`` (``BasicLogger``, ``ExtensionElement``…) ignores them;
   a ``build`` that parses ``e.getAttribute(K)`` itself (``BoardPicker``, ``PieceSlot``) adds
   a rule for ``K``.
2. ``setAttribute(String key, Object value)``: each ``if (K.equals(key))`` / ``case K:`` branch,
   ``K`` resolved to its string constant (own, inherited, interface or ``Other.K`` fields), and
   the fall-through (``super.setAttribute(key, value)``, a launch button, an outer class).
3. In each branch, the call that parses the value (``Integer.valueOf``/``parseInt``,
   ``Double.valueOf``, ``Boolean.valueOf``, ``"true".equals``, ``ColorConfigurer.stringToColor``,
   ``HotKeyConfigurer.decode``, ``NamedHotKeyConfigurer.decode``,
   ``StringArrayConfigurer.stringToArray`` and the parse of each element, ``charAt(0)``, or
   comparisons with constants: an enumeration), following the class's own helper methods the
   value is passed to, and what a bad value does: the exception escapes (``throw``: the Builder
   turns it into an ``IllegalBuildException`` and the component is not built), a ``catch`` that
   calls ``ErrorDialog.dataWarning`` (``bad_data``), another RuntimeException that
   ``Builder.build`` rethrows (``abort``: ``charAt(0)`` of ""), or a catch / fallback that keeps a default
   (``default``); an enumeration's other values take its ``else`` (``default``) or no branch
   (``ignored``). The outcome of a helper (``stringToColor``…) is read from the helper's code.

A launch button (``LaunchButton.setAttribute``) parses only its hot-key attribute, whose name
each owner passes to its constructor; those names are taken from the owner's
``getAttributeTypes`` (the ``key`` attributes of :mod:`pipeline.vassal.classes`).

Only names, kinds and file/method names are written, never VASSAL code. Needs the ``tree-sitter``
and ``tree-sitter-java`` packages (``pip install -e '.[dev]'``) and a checkout of the source::

    .venv/bin/python scripts/gen_attribute_rules.py --git-dir path/to/vassal.git   # tag 3.7.26
    .venv/bin/python scripts/gen_attribute_rules.py --src vassal-app/src/main/java

The output is deterministic (sorted), so a re-run on the same tag gives the same file.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TAG = "3.7.26"
OUT = ROOT / "pipeline" / "vassal" / "attribute_rules_data.py"

#: (class simple name, method) -> kind of the value it produces.
PARSERS: dict[tuple[str, str], str] = {
    ("Integer", "valueOf"): "int",
    ("Integer", "parseInt"): "int",
    ("Integer", "decode"): "int_decode",
    ("Long", "valueOf"): "long",
    ("Long", "parseLong"): "long",
    ("Double", "valueOf"): "double",
    ("Double", "parseDouble"): "double",
    ("Float", "valueOf"): "double",
    ("Float", "parseFloat"): "double",
    ("Boolean", "valueOf"): "bool",
    ("Boolean", "parseBoolean"): "bool",
    ("ColorConfigurer", "stringToColor"): "color",
    ("HotKeyConfigurer", "decode"): "key",
    ("NamedHotKeyConfigurer", "decode"): "named_key",
    ("StringArrayConfigurer", "stringToArray"): "list",
}
#: Parsers implemented in the JDK: a bad value throws NumberFormatException (a subclass of
#: IllegalArgumentException, which ``Builder.create`` turns into IllegalBuildException).
JDK_NUMBER = {"int", "int_decode", "long", "double"}
#: Exceptions whose catch clause stops a NumberFormatException.
CATCHES_NFE = {"NumberFormatException", "IllegalArgumentException", "RuntimeException",
               "Exception", "Throwable"}
EMPTY_GUARDS = ("isEmpty()", "isBlank()", "length() > 0", "length() == 0", "length()>0",
                '"".equals', "length() < 1", "StringUtils.isEmpty", "StringUtils.isBlank")


def _load_java():
    import tree_sitter_java as tsj
    from tree_sitter import Language, Parser

    return Parser(Language(tsj.language()))


def text(node) -> str:
    return node.text.decode("utf-8") if node is not None else ""


def strip_parens_casts(node):
    """The expression under any parentheses and casts: ``((String) value)`` -> ``value``."""
    while node is not None and node.type in ("parenthesized_expression", "cast_expression"):
        node = node.named_children[-1]
    return node


@dataclass
class ClassInfo:
    fqcn: str
    path: str  # relative to the source root, e.g. VASSAL/build/module/Map.java
    node: object
    package: str
    imports: dict[str, str]
    wildcards: list[str]
    outer: ClassInfo | None = None
    fields: dict[str, tuple[str, object]] = field(default_factory=dict)
    methods: dict[str, list] = field(default_factory=dict)
    superclass: str | None = None  # simple or qualified name as written
    interfaces: list[str] = field(default_factory=list)
    nested: dict[str, ClassInfo] = field(default_factory=dict)

    @property
    def simple(self) -> str:
        return self.fqcn.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class Rule:
    """How one attribute is parsed: see ``pipeline.vassal.attribute_rules.AttributeRule``."""

    kind: str
    on_bad: str
    parser: str
    file: str
    method: str
    values: tuple[str, ...] = ()
    empty_ok: bool = False
    helper: str = ""  # "java_file Class.method" of the helper that parses, when there is one


class JavaIndex:
    """Parsed Java files of one source tree, by fully qualified class name."""

    def __init__(self, src: Path):
        self.src = src
        self.parser = _load_java()
        self.classes: dict[str, ClassInfo | None] = {}

    # ------------------------------------------------------------------ loading
    def get(self, fqcn: str) -> ClassInfo | None:
        if fqcn in self.classes:
            return self.classes[fqcn]
        parts = fqcn.split(".")
        for i in range(len(parts), 0, -1):
            rel = "/".join(parts[:i]) + ".java"
            if (self.src / rel).is_file():
                self._load(rel)
                break
        self.classes.setdefault(fqcn, None)
        return self.classes[fqcn]

    def _load(self, rel: str) -> None:
        tree = self.parser.parse((self.src / rel).read_bytes())
        root = tree.root_node
        package, imports, wildcards = "", {}, []
        for n in root.named_children:
            if n.type == "package_declaration":
                package = text(n.named_children[0])
            elif n.type == "import_declaration":
                t = text(n).removeprefix("import").strip().rstrip(";").strip()
                if t.startswith("static "):
                    continue
                if t.endswith(".*"):
                    wildcards.append(t[:-2])
                else:
                    imports[t.rsplit(".", 1)[-1]] = t
        for n in root.named_children:
            if n.type in ("class_declaration", "interface_declaration", "enum_declaration"):
                name = text(n.child_by_field_name("name"))
                prefix = package + "." if package else ""
                self._register(n, prefix + name, rel, package, imports, wildcards, None)

    def _register(self, node, fqcn, rel, package, imports, wildcards, outer) -> ClassInfo:
        ci = ClassInfo(fqcn, rel, node, package, imports, wildcards, outer)
        sc = node.child_by_field_name("superclass")
        if sc is not None:
            ci.superclass = text(sc.named_children[0]).split("<")[0]
        for n in node.named_children:
            if n.type in ("super_interfaces", "extends_interfaces"):
                for t in n.named_children[0].named_children:
                    ci.interfaces.append(text(t).split("<")[0])
        body = node.child_by_field_name("body")
        for m in body.named_children if body is not None else ():
            if m.type in ("field_declaration", "constant_declaration"):
                type_ = text(m.child_by_field_name("type"))
                for d in m.children_by_field_name("declarator"):
                    ci.fields[text(d.child_by_field_name("name"))] = (
                        type_, d.child_by_field_name("value"))
            elif m.type == "method_declaration":
                ci.methods.setdefault(text(m.child_by_field_name("name")), []).append(m)
            elif m.type in ("class_declaration", "interface_declaration", "enum_declaration"):
                name = text(m.child_by_field_name("name"))
                ci.nested[name] = self._register(m, fqcn + "." + name, rel, package, imports,
                                                 wildcards, ci)
        self.classes[fqcn] = ci
        return ci

    # ------------------------------------------------------------------ names
    def resolve_type(self, ci: ClassInfo | None, name: str, inherited: bool = True
                     ) -> ClassInfo | None:
        """The class a simple (or qualified) type name means inside ``ci`` (``inherited``:
        also member classes of its superclasses; off while resolving a superclass)."""
        if ci is None or not name:
            return None
        name = name.split("<")[0].strip()
        head, _, rest = name.partition(".")
        scope: ClassInfo | None = ci
        while scope is not None:  # nested classes of this class and its outers
            if head in scope.nested:
                found = scope.nested[head]
                return self._descend(found, rest)
            if scope.simple == head:
                return self._descend(scope, rest)
            scope = scope.outer
        for sup in self.lineage(ci)[1:] if inherited else ():  # inherited member classes
            if head in sup.nested:
                return self._descend(sup.nested[head], rest)
        candidates = []
        if head in ci.imports:
            candidates.append(ci.imports[head])
        candidates.append(f"{ci.package}.{head}")
        candidates += [f"{w}.{head}" for w in ci.wildcards]
        candidates.append(name)
        for c in candidates:
            found = self.get(c)
            if found is not None:
                return self._descend(found, rest) if c != name else found
        return None

    def _descend(self, ci: ClassInfo | None, rest: str) -> ClassInfo | None:
        for part in filter(None, rest.split(".")):
            if ci is None:
                return None
            ci = ci.nested.get(part)
        return ci

    def superclass(self, ci: ClassInfo) -> ClassInfo | None:
        if not ci.superclass:
            return None
        return self.resolve_type(ci.outer or ci, ci.superclass, inherited=False)

    def lineage(self, ci: ClassInfo) -> list[ClassInfo]:
        out, cur, seen = [], ci, set()
        while cur is not None and cur.fqcn not in seen:
            seen.add(cur.fqcn)
            out.append(cur)
            cur = self.superclass(cur)
        return out

    def _member_scopes(self, ci: ClassInfo) -> list[ClassInfo]:
        """Where a bare identifier is looked up: the class and its superclasses, their
        interfaces, then the outer classes (and theirs)."""
        out: list[ClassInfo] = []
        scope: ClassInfo | None = ci
        while scope is not None:
            for c in self.lineage(scope):
                out.append(c)
            for c in list(out):
                for i in c.interfaces:
                    ic = self.resolve_type(c, i)
                    if ic is not None:
                        out.extend(self._interfaces_closure(ic))
            scope = scope.outer
        return out

    def _interfaces_closure(self, ic: ClassInfo, depth: int = 0) -> list[ClassInfo]:
        out = [ic]
        if depth < 5:
            for i in ic.interfaces:
                sub = self.resolve_type(ic, i)
                if sub is not None:
                    out.extend(self._interfaces_closure(sub, depth + 1))
        return out

    def field_of(self, ci: ClassInfo, name: str) -> tuple[ClassInfo, str, object] | None:
        for c in self._member_scopes(ci):
            if name in c.fields:
                type_, value = c.fields[name]
                return c, type_, value
        return None

    def constant(self, ci: ClassInfo, node, depth: int = 0) -> str | None:
        """The string value of a constant expression (literal, ``K``, ``Other.K``, ``a + b``)."""
        if node is None or depth > 8:
            return None
        node = strip_parens_casts(node)
        if node.type == "string_literal":
            return _java_string(text(node))
        if node.type == "identifier":
            found = self.field_of(ci, text(node))
            if found is None:
                return None
            owner, _type, value = found
            return self.constant(owner, value, depth + 1)
        if node.type == "field_access":
            obj = node.child_by_field_name("object")
            fname = text(node.child_by_field_name("field"))
            owner = self.resolve_type(ci, text(obj))
            if owner is None:
                return None
            found = self.field_of(owner, fname)
            if found is None:
                return None
            return self.constant(found[0], found[2], depth + 1)
        if node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "+":
            a = self.constant(ci, node.child_by_field_name("left"), depth + 1)
            b = self.constant(ci, node.child_by_field_name("right"), depth + 1)
            return None if a is None or b is None else a + b
        return None

    def methods_named(self, ci: ClassInfo, name: str) -> list[tuple[ClassInfo, object]]:
        for c in self._member_scopes(ci):
            if name in c.methods:
                return [(c, m) for m in c.methods[name]]
        return []


def _java_string(lit: str) -> str:
    body = lit[1:-1]
    return body.encode("utf-8").decode("unicode_escape") if "\\" in body else body


def _walk(node):
    yield node
    for c in node.children:
        yield from _walk(c)


def _params(method) -> list[str]:
    ps = method.child_by_field_name("parameters")
    return [text(p.child_by_field_name("name")) for p in ps.named_children
            if p.type == "formal_parameter"]


def _param_types(method) -> list[str]:
    ps = method.child_by_field_name("parameters")
    return [text(p.child_by_field_name("type")) for p in ps.named_children
            if p.type == "formal_parameter"]


def _is_build(method) -> bool:
    """True for ``build(Element e)`` (DOM element, however the type is spelled)."""
    return _param_types(method) in (["Element"], ["org.w3c.dom.Element"])


# ---------------------------------------------------------------------------- the analysis


@dataclass
class Branch:
    keys: list[str]
    rule: Rule | None


@dataclass
class SetAttribute:
    """The branches of one ``setAttribute`` and where other keys go."""

    owner: ClassInfo
    branches: list[Branch]
    fallthrough: list[tuple[str, ClassInfo | None]]  # ("super"|"launch"|"outer", class)


class Analyzer:
    def __init__(self, index: JavaIndex):
        self.ix = index
        self._helper_cache: dict[str, tuple[str, str, str]] = {}

    # ------------------------------------------------------------------ setAttribute
    def set_attribute(self, ci: ClassInfo) -> SetAttribute | None:
        methods = [m for m in ci.methods.get("setAttribute", [])
                   if _param_types(m)[:1] == ["String"] and len(_params(m)) == 2]
        if not methods:
            return None
        m = methods[0]
        key, value = _params(m)
        out = SetAttribute(ci, [], [])
        self._statements(ci, m.child_by_field_name("body"), key, value, out)
        return out

    def _statements(self, ci, block, key, value, out: SetAttribute) -> None:
        if block is None:
            return
        nodes = block.named_children if block.type == "block" else [block]
        for st in nodes:
            if st.type == "if_statement":
                self._if_chain(ci, st, key, value, out)
            elif st.type in ("switch_expression", "switch_statement"):
                cond = text(st.child_by_field_name("condition")).strip("() ")
                if cond == key:
                    self._switch(ci, st, key, value, out)
            elif st.type == "expression_statement":
                self._delegation(ci, st, key, value, out)
            elif st.type == "block":
                self._statements(ci, st, key, value, out)

    def _if_chain(self, ci, st, key, value, out) -> None:
        while st is not None and st.type == "if_statement":
            cond = st.child_by_field_name("condition")
            keys = self._keys_in(ci, cond, key)
            body = st.child_by_field_name("consequence")
            if keys:
                out.branches.append(Branch(keys, self.classify(ci, body, value)))
            elif text(cond).replace(" ", "") in (f"({key}!=null)",):
                self._statements(ci, body, key, value, out)
            alt = st.child_by_field_name("alternative")
            if alt is not None and alt.type == "else":  # older grammar versions
                alt = alt.named_children[0] if alt.named_children else None
            if alt is None:
                return
            if alt.type == "if_statement":
                st = alt
                continue
            if keys or text(cond).replace(" ", "") == f"({key}!=null)":
                self._statements(ci, alt, key, value, out)
            return

    def _switch(self, ci, st, key, value, out) -> None:
        body = st.child_by_field_name("body")
        for group in body.named_children:
            labels = [c for c in group.named_children if c.type == "switch_label"]
            keys, default = [], False
            for lab in labels:
                if not lab.named_children:
                    default = True
                for c in lab.named_children:
                    k = self.ix.constant(ci, c)
                    if k is not None:
                        keys.append(k)
            stmts = [c for c in group.named_children if c.type != "switch_label"]
            if keys:
                out.branches.append(Branch(keys, self._classify_nodes(ci, stmts, value)))
            elif default:
                for s in stmts:
                    if s.type == "expression_statement":
                        self._delegation(ci, s, key, value, out)

    def _keys_in(self, ci, cond, key) -> list[str]:
        """String constants compared with ``key`` in a condition (``K.equals(key)``,
        ``key.equals(K)``, joined with ``||`` or ``&&``)."""
        keys = []
        for n in _walk(cond):
            if n.type != "method_invocation" or text(n.child_by_field_name("name")) not in (
                "equals", "equalsIgnoreCase"
            ):
                continue
            obj = n.child_by_field_name("object")
            args = n.child_by_field_name("arguments").named_children
            if len(args) != 1 or obj is None:
                continue
            if text(strip_parens_casts(args[0])) == key:
                k = self.ix.constant(ci, obj)
            elif text(strip_parens_casts(obj)) == key:
                k = self.ix.constant(ci, args[0])
            else:
                continue
            if k is not None:
                keys.append(k)
            elif text(obj) == "nameKey":  # AbstractToolbarItem: the configurable's name key
                keys.append("@nameKey")
        return keys

    def _delegation(self, ci, st, key, value, out) -> None:
        for n in _walk(st):
            if n.type != "method_invocation" or text(n.child_by_field_name("name")) != \
                    "setAttribute":
                continue
            args = [text(strip_parens_casts(a)) for a in
                    n.child_by_field_name("arguments").named_children]
            if args[:1] != [key]:
                continue
            obj = n.child_by_field_name("object")
            target = self._receiver(ci, obj)
            if obj is not None and text(obj) == "super":
                out.fallthrough.append(("super", self.ix.superclass(ci)))
            elif obj is not None and text(obj).endswith(".this"):
                out.fallthrough.append(("outer", target))
            elif target is not None:
                out.fallthrough.append(("launch" if target.simple == "LaunchButton"
                                        else "field", target))

    def _receiver(self, ci, obj) -> ClassInfo | None:
        """The class of a receiver expression: ``super``, ``X.this``, a field, a getter."""
        if obj is None:
            return ci
        t = text(obj)
        if t == "super":
            return self.ix.superclass(ci)
        if t.endswith(".this"):
            return self.ix.resolve_type(ci, t[:-5])
        if obj.type == "identifier":
            found = self.ix.field_of(ci, t)
            return self.ix.resolve_type(found[0], found[1]) if found else None
        if obj.type == "method_invocation" and obj.child_by_field_name("object") is None:
            for owner, m in self.ix.methods_named(ci, text(obj.child_by_field_name("name"))):
                return self.ix.resolve_type(owner, text(m.child_by_field_name("type")))
        return None

    # ------------------------------------------------------------------ one branch
    def classify(self, ci, body, value) -> Rule | None:
        nodes = body.named_children if body is not None and body.type == "block" else [body]
        return self._classify_nodes(ci, [n for n in nodes if n is not None], value)

    def _classify_nodes(self, ci, nodes, value, depth: int = 0,
                        method: str = "setAttribute", owner: ClassInfo | None = None
                        ) -> Rule | None:
        owner = owner or ci
        aliases = {value}
        list_aliases: set[str] = set()
        found: list[tuple[str, object]] = []  # (kind, call node)
        enum_values: list[str] = []
        enum_else = False
        helpers: list[tuple[ClassInfo, object, int]] = []
        for top in nodes:
            for n in _walk(top):
                if n.type == "local_variable_declaration":
                    for d in n.children_by_field_name("declarator"):
                        v = d.child_by_field_name("value")
                        if v is not None and self._refers(v, aliases):
                            if self._call_kind(v) == "list":
                                list_aliases.add(text(d.child_by_field_name("name")))
                            else:
                                aliases.add(text(d.child_by_field_name("name")))
                elif n.type == "assignment_expression":
                    left = n.child_by_field_name("left")
                    right = n.child_by_field_name("right")
                    if left.type == "identifier" and self._refers(right, aliases) and \
                            self._call_kind(right) is None:
                        aliases.add(text(left))
                elif n.type == "enhanced_for_statement":
                    v = n.child_by_field_name("value")
                    if self._refers(v, aliases | list_aliases) or self._call_kind(v) == "list":
                        list_aliases.add(text(n.child_by_field_name("name")))
                elif n.type == "method_invocation":
                    kind = self._call_kind(n)
                    args = n.child_by_field_name("arguments").named_children
                    name = text(n.child_by_field_name("name"))
                    obj = n.child_by_field_name("object")
                    if kind is not None and args and self._refers(args[0], aliases):
                        found.append((kind, n))
                    elif kind is not None and kind != "list" and args and \
                            self._refers(args[0], list_aliases):
                        found.append(("element:" + kind, n))
                    elif name == "equals" and obj is not None and len(args) == 1:
                        a, o = strip_parens_casts(args[0]), strip_parens_casts(obj)
                        lit = None
                        if self._refers(a, aliases):
                            lit = self.ix.constant(ci, o)
                        elif self._refers(o, aliases):
                            lit = self.ix.constant(ci, a)
                        if lit == "true":
                            found.append(("bool_exact", n))
                        elif lit is not None:
                            enum_values.append(lit)
                            enum_else = enum_else or self._chain_has_else(n)
                    elif name == "charAt" and obj is not None and self._refers(obj, aliases) \
                            and args and text(args[0]) == "0":
                        found.append(("char", n))
                    elif name == "setAttribute" and (obj is None or text(obj) == "this") \
                            and len(args) == 2 and self._refers(args[1], aliases):
                        target = self.ix.constant(ci, args[0])
                        if target is not None:  # handled as another attribute's value
                            return Rule("redirect", "none", "setAttribute", owner.path,
                                        f"{owner.simple}.{method}", values=(target,))
                    elif obj is None or text(obj) == "this":
                        for i, a in enumerate(args):
                            if self._refers(a, aliases):
                                for hown, hm in self.ix.methods_named(ci, name):
                                    if len(_params(hm)) == len(args) and hm.child_by_field_name(
                                            "body") is not None:
                                        helpers.append((hown, hm, i))
                                        break
        kinds = [k for k, _ in found]
        if found:
            elements = [(k, n) for k, n in found if k.startswith("element:")]
            if any(k == "list" for k in kinds) and elements:
                ek, en = elements[0]
                on_bad, helper = self._outcome(ci, en, ek[8:], nodes)
                return Rule(ek[8:] + "_list", on_bad,
                            "StringArrayConfigurer.stringToArray + " + self._call_name(en),
                            owner.path, f"{owner.simple}.{method}",
                            empty_ok=True, helper=helper)
            order = ("int", "int_decode", "long", "double", "color", "named_key", "key", "bool",
                     "bool_exact", "char", "list")
            kind, node = sorted(((k, n) for k, n in found if not k.startswith("element:")),
                                key=lambda kn: order.index(kn[0]))[0] if any(
                not k.startswith("element:") for k in kinds) else found[0]
            on_bad, helper = self._outcome(ci, node, kind, nodes)
            empty_ok = self._empty_guarded(node, nodes) or kind in (
                "color", "key", "named_key", "bool", "bool_exact", "list")
            return Rule(kind, on_bad, self._call_name(node), owner.path,
                        f"{owner.simple}.{method}", empty_ok=empty_ok, helper=helper)
        if enum_values:
            vals = tuple(dict.fromkeys(enum_values))
            return Rule("enum", "default", "String.equals", owner.path,
                        f"{owner.simple}.{method}", values=vals,
                        helper="else" if enum_else else "")
        if depth < 2:
            for hown, hm, i in helpers:
                p = _params(hm)[i]
                body = hm.child_by_field_name("body")
                r = self._classify_nodes(hown, [body], p, depth + 1,
                                         text(hm.child_by_field_name("name")), hown)
                if r is not None:
                    return r
        return None

    @staticmethod
    def _chain_has_else(node) -> bool:
        """True when the ``if`` testing ``node`` ends its else-if chain with a plain ``else``
        (every other value takes that branch)."""
        cur = node.parent
        while cur is not None and cur.type != "if_statement":
            if cur.type in ("block", "method_declaration"):
                return False
            cur = cur.parent
        while cur is not None and cur.type == "if_statement":
            alt = cur.child_by_field_name("alternative")
            if alt is None:
                return False
            if alt.type != "if_statement":
                return True
            cur = alt
        return False

    # ------------------------------------------------------------------ getAttributeTypes
    def _own_elements(self, c: ClassInfo, method_name: str) -> list | None:
        """The elements ``c``'s own ``getAttributeNames``/``getAttributeTypes`` lists: the
        whole literal array, or the tail of ``ArrayUtils.addAll(super.X(), …)``; None when
        ``c`` does not define it or builds it some other way."""
        ms = [m for m in c.methods.get(method_name, []) if not _params(m)]
        if not ms or ms[0].child_by_field_name("body") is None:
            return None
        rets = [n for n in _walk(ms[0].child_by_field_name("body"))
                if n.type == "return_statement"]
        if len(rets) != 1 or not rets[0].named_children:
            return None
        expr = rets[0].named_children[0]
        if expr.type == "array_creation_expression":
            init = expr.child_by_field_name("value")
            return list(init.named_children) if init is not None else None
        if expr.type == "method_invocation" and text(expr.child_by_field_name("name")) == \
                "addAll":
            args = expr.child_by_field_name("arguments").named_children
            if args and text(args[0]) == f"super.{method_name}()":
                return list(args[1:])
        return None

    def valid_values(self, ci: ClassInfo, key: str) -> tuple[str, ...] | None:
        """The ``getValidValues`` of the StringEnum ``getAttributeTypes`` gives ``key``: the
        names and types a class lists itself are paired (both arrays run in the same order)."""
        pair = None
        for c in self.ix.lineage(ci):
            names = self._own_elements(c, "getAttributeNames")
            types = self._own_elements(c, "getAttributeTypes")
            if names is None or types is None or len(names) != len(types):
                continue
            for n, t in zip(names, types, strict=True):
                if self.ix.constant(c, n) == key:
                    pair = (c, t)
                    break
            if pair:
                break
        if pair is None:
            return None
        owner, t = pair
        if t.type == "class_literal":
            tc = self.ix.resolve_type(owner, text(t.named_children[0]))
            return self._literal_valid_values(tc) if tc is not None else None
        return None

    def _literal_valid_values(self, tc: ClassInfo) -> tuple[str, ...] | None:
        """``getValidValues`` of a StringEnum when it is ``return new String[]{A, B, …};``."""
        for c in self.ix.lineage(tc):
            for m in c.methods.get("getValidValues", []):
                stmts = m.child_by_field_name("body").named_children
                if len(stmts) != 1 or stmts[0].type != "return_statement" or \
                        not stmts[0].named_children or \
                        stmts[0].named_children[0].type != "array_creation_expression":
                    return None
                init = stmts[0].named_children[0].child_by_field_name("value")
                vals = [self.ix.constant(c, e) for e in init.named_children] if init else []
                return tuple(vals) if vals and all(v is not None for v in vals) else None
        return None

    def enum_of(self, ci: ClassInfo, compared: tuple[str, ...]) -> tuple[str, ...] | None:
        """When ``getAttributeTypes`` cannot be paired with the names: the one StringEnum
        nested in the class (or its superclasses) whose valid values include every value
        ``setAttribute`` compares with."""
        hits = []
        for c in self.ix.lineage(ci):
            for nested in c.nested.values():
                vals = self._literal_valid_values(nested)
                if vals and set(compared) <= set(vals):
                    hits.append(vals)
        return hits[0] if len(hits) == 1 else None

    def _call_kind(self, node) -> str | None:
        node = strip_parens_casts(node)
        if node is None or node.type != "method_invocation":
            return None
        obj = node.child_by_field_name("object")
        if obj is None:
            return None
        return PARSERS.get((text(obj).rsplit(".", 1)[-1], text(node.child_by_field_name("name"))))

    def _call_name(self, node) -> str:
        obj = node.child_by_field_name("object")
        name = text(node.child_by_field_name("name"))
        if obj is not None and obj.type == "string_literal":
            return f"{text(obj)}.{name}"
        return f"{text(obj).rsplit('.', 1)[-1]}.{name}" if obj is not None else name

    def _refers(self, node, aliases: set[str]) -> bool:
        node = strip_parens_casts(node)
        if node is None:
            return False
        if node.type == "identifier":
            return text(node) in aliases
        if node.type == "method_invocation" and text(node.child_by_field_name("name")) in (
            "toString", "trim", "strip"
        ):
            return self._refers(node.child_by_field_name("object"), aliases)
        if node.type == "method_invocation" and self._call_kind(node) == "list":
            args = node.child_by_field_name("arguments").named_children
            return bool(args) and self._refers(args[0], aliases)
        return False

    def _empty_guarded(self, node, top_nodes) -> bool:
        cur = node.parent
        stop = {id(n) for n in top_nodes}
        while cur is not None:
            if cur.type in ("if_statement", "ternary_expression"):
                cond = text(cur.child_by_field_name("condition"))
                if any(g in cond for g in EMPTY_GUARDS):
                    return True
            if id(cur) in stop or cur.type == "method_declaration":
                break
            cur = cur.parent
        return False

    def _outcome(self, ci, node, kind, top_nodes) -> tuple[str, str]:
        """What a bad value does at this call (``throw``, ``abort``, ``bad_data``, ``default``
        or ``none``) and the helper that decides it (``"file Class.method"`` or ``""``)."""
        caught = self._catch_of(node)
        if caught is not None:
            return caught, ""
        if kind in JDK_NUMBER:
            return "throw", ""
        if kind == "char":
            return "abort", ""
        if kind in ("bool", "bool_exact"):
            return "default", ""
        if kind == "list":
            return "none", ""
        if kind in ("color", "key", "named_key"):
            on_bad, file, method = self._helper_outcome(ci, node)
            return on_bad, f"{file} {method}".strip()
        return "default", ""

    def _catch_of(self, node) -> str | None:
        cur = node.parent
        while cur is not None and cur.type not in ("method_declaration", "lambda_expression"):
            if cur.type == "block" and cur.parent is not None and \
                    cur.parent.type == "try_statement" and \
                    cur.parent.child_by_field_name("body") == cur:
                for c in cur.parent.named_children:
                    if c.type != "catch_clause":
                        continue
                    types = text(c.named_children[0]).split("(")[-1]
                    if any(t in types for t in CATCHES_NFE):
                        body = text(c.child_by_field_name("body"))
                        if "throw " in body:
                            return "throw"
                        if "dataWarning" in body or "ErrorDialog" in body:
                            return "bad_data"
                        return "default"
            cur = cur.parent
        return None

    def _helper_outcome(self, ci, node) -> tuple[str, str, str]:
        """Outcome of a bad value inside a helper such as ``ColorConfigurer.stringToColor``,
        read from the helper: the first parse call in it and its catch clause."""
        obj = text(node.child_by_field_name("object"))
        name = text(node.child_by_field_name("name"))
        ck = f"{obj}.{name}"
        if ck in self._helper_cache:
            return self._helper_cache[ck]
        helper = self.ix.resolve_type(ci, obj)
        result = ("default", "", "")
        if helper is not None:
            for m in helper.methods.get(name, []):
                if _param_types(m)[:1] != ["String"]:
                    continue
                for n in _walk(m.child_by_field_name("body")):
                    if n.type == "method_invocation" and self._call_kind(n) in JDK_NUMBER:
                        result = (self._catch_of(n) or "throw", helper.path,
                                  f"{helper.simple}.{name}")
                        break
                break
        self._helper_cache[ck] = result
        return result

    # ------------------------------------------------------------------ per class
    def build_target(self, ci: ClassInfo) -> tuple[str, ClassInfo | None, str]:
        """Where ``build`` sends XML attributes: (``setAttribute``|``launch``|``none``, class
        whose setAttribute receives them, the build method's class)."""
        for c in self.ix.lineage(ci):
            for m in c.methods.get("build", []):
                if not _is_build(m):
                    continue
                body = m.child_by_field_name("body")
                calls_super = False
                for n in _walk(body):
                    if n.type != "method_invocation":
                        continue
                    name = text(n.child_by_field_name("name"))
                    obj = n.child_by_field_name("object")
                    args = n.child_by_field_name("arguments").named_children
                    if name == "build" and obj is not None and text(obj) == "super":
                        calls_super = True
                    if name == "buildAttributes" and len(args) == 2 and text(args[1]) == "this":
                        return "setAttribute", ci, c.simple  # AutoConfigurable.Util
                    if name == "setAttribute" and args and "getName()" in text(args[0]):
                        if obj is None or text(obj) == "this":
                            return "setAttribute", ci, c.simple
                        target = self._receiver(c, obj)
                        if target is not None and target.simple == "LaunchButton":
                            return "launch", target, c.simple
                if not calls_super:
                    return "none", None, c.simple
                break
        return "none", None, ""

    def build_reads(self, ci: ClassInfo) -> dict[str, Rule]:
        """Attributes a ``build(Element e)`` in the lineage parses itself:
        ``Integer.parseInt(e.getAttribute(K))`` and the like (``BoardPicker``, ``PieceSlot``)."""
        out: dict[str, Rule] = {}
        for c in self.ix.lineage(ci):
            for m in c.methods.get("build", []):
                if not _is_build(m) or m.child_by_field_name("body") is None:
                    continue
                el = _params(m)[0]
                for n in _walk(m.child_by_field_name("body")):
                    if n.type != "method_invocation":
                        continue
                    kind = self._call_kind(n)
                    args = n.child_by_field_name("arguments").named_children
                    obj = n.child_by_field_name("object")
                    target = None
                    if text(n.child_by_field_name("name")) == "equals" and obj is not None and \
                            self.ix.constant(c, obj) == "true" and args:
                        kind, target = "bool_exact", args[0]
                    elif kind is not None and args:
                        target = args[0]
                    target = strip_parens_casts(target) if target is not None else None
                    if target is None or target.type != "method_invocation" or \
                            text(target.child_by_field_name("name")) != "getAttribute" or \
                            text(target.child_by_field_name("object")) != el:
                        continue
                    targs = target.child_by_field_name("arguments").named_children
                    key = self.ix.constant(c, targs[0]) if targs else None
                    if key is None or key in out:
                        continue
                    on_bad, helper = self._outcome(c, n, kind, [])
                    out[key] = Rule(kind, on_bad, self._call_name(n), c.path,
                                    f"{c.simple}.build", empty_ok=kind not in JDK_NUMBER,
                                    helper=helper)
            if c.methods.get("build"):
                break
        return out

    def rules_for(self, ci: ClassInfo, typed_keys: list[str], seen=None
                  ) -> dict[str, Rule]:
        """Every attribute ``ci.setAttribute`` parses, own branches first, then fall-through."""
        seen = seen or set()
        out: dict[str, Rule] = {}
        for c in self.ix.lineage(ci):
            sa = self.set_attribute(c)
            if sa is None:
                continue
            redirects: dict[str, str] = {}
            for b in sa.branches:
                for k in b.keys:
                    if k in out or k.startswith("@"):
                        continue
                    rule = b.rule
                    if rule is not None and rule.kind == "redirect":
                        redirects[k] = rule.values[0]
                        continue
                    if rule is not None and rule.kind == "enum":
                        rule = self._enum_rule(c, k, rule)
                    out[k] = rule or Rule("string", "none", "", c.path, f"{c.simple}.setAttribute")
            for how, target in sa.fallthrough:
                if target is None or target.fqcn in seen:
                    continue
                if how == "launch":
                    out.update({k: v for k, v in self.launch_rules(target, typed_keys).items()
                                if k not in out})
                elif how in ("super", "outer", "field"):
                    sub = self.rules_for(target, typed_keys, seen | {c.fqcn})
                    out.update({k: v for k, v in sub.items() if k not in out})
            for k, target in redirects.items():
                if target in out and k not in out:
                    out[k] = out[target]
            break  # the nearest setAttribute decides; inheritance is its own fall-through
        return out

    def _enum_rule(self, ci: ClassInfo, key: str, rule: Rule) -> Rule | None:
        """An enumeration: the values compared, with the StringEnum's valid values when
        ``getAttributeTypes`` names one. Without them a branch whose plain ``else`` takes
        every other value, or a single comparison, is not an enumeration (None)."""
        valid = self.valid_values(ci, key) or self.enum_of(ci, rule.values)
        if valid:
            values = tuple(dict.fromkeys(valid + rule.values))
        elif rule.helper == "else" or len(rule.values) < 2:
            return None
        else:
            values = rule.values
        # with a plain else every other value takes its branch (a default); without, the
        # value matches no branch and is ignored
        return Rule("enum", "default" if rule.helper == "else" else "ignored", rule.parser,
                    rule.file, rule.method, values=values)

    def launch_rules(self, launch: ClassInfo, typed_keys: list[str]) -> dict[str, Rule]:
        """A LaunchButton parses only its hot-key attribute, whose name (``keyAtt``) its owner
        passes to the constructor: the rule is read from the ``key.equals(keyAtt)`` branch of
        ``LaunchButton.setAttribute`` and applied to the owner's key-typed attributes."""
        rule = self._launch_key_rule(launch)
        return {k: rule for k in typed_keys} if rule is not None else {}

    def _launch_key_rule(self, launch: ClassInfo) -> Rule | None:
        for m in launch.methods.get("setAttribute", []):
            if len(_params(m)) != 2:
                continue
            key, value = _params(m)
            for n in _walk(m.child_by_field_name("body")):
                if n.type == "if_statement" and f"{key}.equals(keyAtt)" in text(
                        n.child_by_field_name("condition")).replace(" ", ""):
                    return self.classify(launch, n.child_by_field_name("consequence"), value)
        return None


def typed_key_attributes(tag: str) -> list[str]:
    """Attributes of ``tag`` whose getAttributeTypes type is a key stroke."""
    from pipeline.vassal.classes import ATTRIBUTE_TYPES
    from pipeline.vassal.components import EXTRA_TYPES, _lineage

    out: list[str] = []
    for cls in _lineage(tag):
        for table in (EXTRA_TYPES, ATTRIBUTE_TYPES):
            out += [a for a, k in table.get(cls, {}).items() if k == "key" and a not in out]
    return out


def generate(src: Path) -> str:
    from pipeline.vassal.classes import ALLOWED_CHILDREN

    ix = JavaIndex(src)
    an = Analyzer(ix)
    lines = [
        '"""How VASSAL 3.7.26 parses each buildFile attribute (data; generated, do not edit).',
        "",
        "Written by ``scripts/gen_attribute_rules.py`` from the VASSAL source at tag "
        f"``{TAG}``",
        "(``github:vassalengine/vassal``): for each component class, the attributes its",
        "``setAttribute`` (or a helper, superclass or launch button it hands them to) parses,",
        "as ``attribute: (kind, on_bad, parser, java_file, method, values, empty_ok, helper)``;",
        "a class with ``{}`` takes every attribute as a plain string.",
        "Only names and kinds, no VASSAL code. Field meanings: "
        ":class:`pipeline.vassal.attribute_rules.AttributeRule`.",
        "Classes whose ``build`` never hands attributes to ``setAttribute`` are in",
        ":data:`ATTRIBUTES_IGNORED` (value: the class whose ``build`` decides).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        f'VASSAL_TAG = "{TAG}"',
        "",
        "#: class -> attribute -> (kind, on_bad, parser, java_file, method, values, empty_ok, "
        "helper)",
        "RULES: dict[str, dict[str, tuple[str, str, str, str, str, tuple[str, ...], bool, str]]]"
        " = {",
    ]
    ignored: dict[str, str] = {}
    for tag in sorted(ALLOWED_CHILDREN):
        ci = ix.get(tag)
        if ci is None:
            print(f"warning: no source for {tag}", file=sys.stderr)
            continue
        how, target, where = an.build_target(ci)
        typed = typed_key_attributes(tag)
        rules = an.build_reads(ci)
        if how == "none" and not rules:
            ignored[tag] = where
            continue
        if how == "setAttribute":
            rules.update({k: r for k, r in an.rules_for(ci, typed).items() if k not in rules})
        elif how == "launch":
            rules.update({k: r for k, r in an.launch_rules(target, typed).items()
                          if k not in rules})
        rules = {k: r for k, r in rules.items() if r.kind != "string"}
        if not rules:  # every attribute is taken as a plain string
            lines.append(f"    {tag!r}: {{}},")
            continue
        lines.append(f"    {tag!r}: {{")
        for attr in sorted(rules):
            r = rules[attr]
            lines.append(f"        {attr!r}: ({r.kind!r}, {r.on_bad!r}, {r.parser!r}, "
                         f"{r.file!r}, {r.method!r}, {r.values!r}, {r.empty_ok!r}, "
                         f"{r.helper!r}),")
        lines.append("    },")
    lines.append("}")
    lines.append("")
    lines.append("#: classes whose build(Element) does not pass XML attributes to setAttribute")
    lines.append("ATTRIBUTES_IGNORED: dict[str, str] = {")
    for tag in sorted(ignored):
        lines.append(f"    {tag!r}: {ignored[tag]!r},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _extract(git_dir: str, tag: str, dest: Path) -> Path:
    data = subprocess.run(["git", "-C", git_dir, "archive", tag, "vassal-app/src/main/java"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        tf.extractall(dest, filter="data")
    return dest / "vassal-app" / "src" / "main" / "java"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--src", help="VASSAL's vassal-app/src/main/java folder")
    g.add_argument("--git-dir", help="a clone (bare is fine) of vassalengine/vassal")
    ap.add_argument("--tag", default=TAG)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(args.src) if args.src else _extract(args.git_dir, args.tag, Path(tmp))
        out = generate(src)
    tmp_out = args.out + ".tmp"
    with open(tmp_out, "w", encoding="utf-8") as fh:
        fh.write(out)
    os.replace(tmp_out, args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
