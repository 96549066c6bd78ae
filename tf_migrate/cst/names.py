"""New names that do not clash with the ones a module already uses, and the names a module mentions."""
from __future__ import annotations

import keyword
from typing import Dict, List, Set

import libcst as cst

from tf_migrate.traversal import visit


def fresh(stem: str, taken: Set[str]) -> str:
    """``stem``, else ``stem_2``, ``stem_3``, ...: the first not in ``taken``, which it joins."""
    name, n = stem, 1
    while name in taken:
        n += 1
        name = f"{stem}_{n}"
    taken.add(name)
    return name


def parameter_name(key: str) -> str:
    """The parameter a generated run function takes the fed value of ``key`` as: its last part (``x`` for ``x``,
    ``self.x`` and ``net.x``) without leading underscores (``self._X`` -> ``X``). ``tf.function`` renames a parameter
    that starts with one (``_X`` -> ``arg__X``), after which a call by keyword no longer binds it; one name for the
    function and every call of it (in this module and in the modules calling an object's methods). A name that
    would then be a keyword or no identifier (``_1``) keeps its underscores; one the run also reads (a builtin it
    calls, a Python value) keeps the run from becoming a function (``analysis/slicing``)."""
    last = key.split(".")[-1]
    stripped = last.lstrip("_")
    if not stripped.isidentifier() or keyword.iskeyword(stripped):
        return last
    return stripped


def all_names(module: cst.CSTNode) -> Set[str]:
    """Every variable name the module mentions (not attributes or keywords): what a new name must avoid."""
    return set(_mentions(module))


def name_mentions(node: cst.CSTNode, name: str) -> int:
    """How often ``node`` mentions the variable ``name`` (not as an attribute or a keyword), its binding included."""
    return _mentions(node).count(name)


def _mentions(node: cst.CSTNode) -> list:
    names = _Names()
    visit(node, names)
    return names.found


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list = []

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        visit(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        visit(node.value, self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.found.append(node.value)


def attribute_mentions(node: cst.CSTNode) -> Dict[str, int]:
    """How many times ``node`` names each attribute (``run`` of ``obj.run``)."""
    counts: Dict[str, int] = {}

    class _Count(cst.CSTVisitor):
        def visit_Attribute(self, found: cst.Attribute) -> None:
            counts[found.attr.value] = counts.get(found.attr.value, 0) + 1

    visit(node, _Count())
    return counts


def attribute_names(node: cst.CSTNode, strings: bool = True, own: Set[str] = frozenset()) -> Set[str]:
    """Every attribute name ``node`` mentions (``run`` of ``obj.run()``), and (``strings``) every string a
    ``getattr``-style call could use as one (``"run"``): what code there may reach on an object. ``own``: names
    not counted as ``self.name`` (a class's own methods, when ``node`` is that class)."""
    attributes = _Attributes(strings, own)
    visit(node, attributes)
    return attributes.found


class _Attributes(cst.CSTVisitor):
    def __init__(self, strings: bool, own: Set[str]) -> None:
        self.strings, self.own = strings, own
        self.found: Set[str] = set()

    def visit_Attribute(self, attribute: cst.Attribute) -> None:
        if not (self.own and attribute.attr.value in self.own and isinstance(attribute.value, cst.Name)
                and attribute.value.value == "self"):
            self.found.add(attribute.attr.value)

    def visit_SimpleString(self, string: cst.SimpleString) -> None:
        value = string.evaluated_value
        if self.strings and isinstance(value, str) and value.isidentifier():
            self.found.add(value)


def substituted(node: cst.BaseExpression, values: Dict[str, cst.BaseExpression]) -> cst.BaseExpression:
    """``node`` with each name ``values`` gives replaced by its value (attribute and keyword names stay)."""
    if not values:
        return node

    class _Substitute(cst.CSTTransformer):
        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            return values.get(updated.value, updated)

        def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
            return updated.with_changes(attr=original.attr)

        def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
            return updated.with_changes(keyword=original.keyword)

    return visit(node, _Substitute())


def target_names(target: cst.BaseExpression) -> List[str]:
    """The names an assignment target binds (``a``, ``a, (b, *c)``; none for attributes and subscripts)."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in target_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return []
