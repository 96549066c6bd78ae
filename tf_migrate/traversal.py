"""Walk and transform LibCST trees without rebuilding what does not change.

``node.visit(visitor)`` in LibCST rebuilds (and re-validates) every node it passes, even for a read-only
:class:`libcst.CSTVisitor`, and calls two per-field hooks for every child. The rules and the program analysis walk
the same module dozens of times, so that rebuilding was most of tf-migrate's time. :func:`visit` is a drop-in
replacement for ``node.visit(visitor)``:

- a :class:`libcst.CSTVisitor` gets the same ``on_visit`` / ``on_leave`` calls (hence the same ``visit_X`` /
  ``leave_X`` methods) in the same lexical order, and nothing is built;
- a :class:`libcst.CSTTransformer` gets the same calls, but a node is rebuilt (``with_changes``) only when one of its
  children changed, so an unchanged subtree keeps its identity across rules (and caches keyed on nodes stay valid);
- a visitor with named handlers only (no ``on_visit`` / ``on_leave``) is not taken into a subtree that has no node
  of a type it handles (the types under each node are remembered for the file): it could see nothing there, and a
  transform would return the subtree as it is.

Not supported (tf-migrate does not use them): per-field hooks such as ``visit_Call_func``, and metadata-dependent
visitors (they go through ``MetadataWrapper.visit``).

The traversal order of each node type's children is read from LibCST itself: the field names its
``_visit_and_replace_children`` passes to the ``visit_*`` helpers, in the order it passes them (a test checks the
result against ``node.children`` on every node of the samples).
"""
from __future__ import annotations

import dataclasses
from typing import Dict, Optional, Tuple, Type, Union

import libcst as cst

_ORDER: Dict[type, Tuple[Tuple[str, object], ...]] = {}
_NO_DEFAULT = object()


def child_fields(cls: Type[cst.CSTNode]) -> Tuple[Tuple[str, object], ...]:
    """(field name, default) of each child-holding field of ``cls``, in traversal order."""
    order = _ORDER.get(cls)
    if order is None:
        defaults = {f.name: (f.default if f.default is not dataclasses.MISSING else _NO_DEFAULT)
                    for f in dataclasses.fields(cls)}
        names = []
        for const in cls._visit_and_replace_children.__code__.co_consts:
            if isinstance(const, str) and const in defaults and const not in names:
                names.append(const)
        order = _ORDER[cls] = tuple((name, defaults[name]) for name in names)
    return order


def children(node: cst.CSTNode) -> list:
    """The node's direct children in lexical order (what ``node.children`` gives, without rebuilding).

    The walk and the transform use this same list (through ``_kids``), so checking it checks them."""
    return list(_kids(node, frozenset()))


def all_nodes(node: cst.CSTNode) -> list:
    """``node`` and every node under it, in lexical order (parents before their children)."""
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(reversed(children(current)))
    return found


def visit(node: cst.CSTNode, visitor: Union[cst.CSTVisitor, cst.CSTTransformer]):
    """``node.visit(visitor)``, faster: see the module docstring."""
    plan = _plan(type(visitor))
    if plan.transforms:
        return _transform(node, visitor, plan)
    _walk(node, visitor, plan)
    return node


def contains(node: cst.CSTNode, kinds) -> bool:
    """Whether ``node`` or a node under it is of type ``kinds`` (a type or a tuple of types)."""
    names = _concrete_names(kinds)
    if names is not None:
        return not names.isdisjoint(_kinds_below(node))
    finder = _Find(kinds)
    visit(node, finder)
    return finder.found


class _Find(cst.CSTVisitor):
    """Whether a node of ``kinds`` is there; stops at the first (for trivia, which the kinds below leave out)."""

    def __init__(self, kinds) -> None:
        self.kinds, self.found = kinds, False

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, self.kinds):
            self.found = True
        return not self.found


def _concrete_names(kinds) -> Optional[frozenset]:
    """The names of ``kinds`` and of all their subclasses (what ``isinstance`` accepts); None if one is trivia."""
    try:
        return _KIND_NAMES[kinds]
    except KeyError:
        found = _with_subclasses(kinds if isinstance(kinds, tuple) else (kinds,))
        names = _KIND_NAMES[kinds] = None if found & _TRIVIA else frozenset(cls.__name__ for cls in found)
        return names


def _with_subclasses(classes) -> frozenset:
    found = set()
    pending = list(classes)
    while pending:
        cls = pending.pop()
        found.add(cls)
        pending.extend(cls.__subclasses__())
    return frozenset(found)


# Whitespace, comments, punctuation and operators: a visitor that names none of them (and does
# not override on_visit/on_leave) cannot observe them, so the walk skips them.
def _trivia_types() -> frozenset:
    bases = (cst.BaseParenthesizableWhitespace, cst.EmptyLine, cst.TrailingWhitespace, cst.Newline,
             cst.Comment, cst.Comma, cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual, cst.LeftParen,
             cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace,
             cst.RightCurlyBrace, cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp,
             cst.BaseAugOp, cst.ImportStar, cst.Asynchronous)
    return _with_subclasses(bases)


_TRIVIA = _trivia_types()
_TRIVIA_NAMES = frozenset(t.__name__ for t in _TRIVIA)
# Visitor class -> its plan. Some visitor classes are local to a function, made at each call: the table is
# emptied when they have made it large.
_PLANS: Dict[type, "_Plan"] = {}
_PLANS_LIMIT = 2_000
_KIND_NAMES: Dict[object, Optional[frozenset]] = {}  # for contains(): kinds -> _concrete_names(kinds)


class _Handlers(dict):
    """node type -> the visitor's ``visit_X`` (or ``leave_X``) for it, or None; filled on first use."""

    def __init__(self, methods: Dict[str, object], prefix: str) -> None:
        super().__init__()
        self.methods, self.prefix = methods, prefix

    def __missing__(self, node_type: type):
        found = self[node_type] = self.methods.get(self.prefix + node_type.__name__)
        return found


class _Plan:
    """How to dispatch one visitor class: its visit_X / leave_X per node type, cached."""

    def __init__(self, cls: type) -> None:
        # The MRO, not issubclass: LibCST's bases are ABCs, whose subclass check of a new class (local visitor
        # classes are made at each call) walks every subclass ever made.
        self.transforms = cst.CSTTransformer in cls.__mro__
        base = cst.CSTTransformer if self.transforms else cst.CSTVisitor
        self.generic = cls.on_visit is not base.on_visit or cls.on_leave is not base.on_leave
        # Only methods the project defines: LibCST's own visit_X / leave_X are empty stubs.
        self.methods: Dict[str, object] = {}
        for klass in reversed(cls.__mro__):
            if klass is not object and not klass.__module__.startswith("libcst"):
                self.methods.update((name, value) for name, value in vars(klass).items()
                                    if name.startswith(("visit_", "leave_")))
        handled = {name.split("_", 1)[1] for name in self.methods}
        self.skip = frozenset() if self.generic or not handled.isdisjoint(_TRIVIA_NAMES) else _TRIVIA
        # The node types it handles, when a subtree without any of them can be passed over whole (it would
        # see no call, and a transform would return the subtree as it is); None for generic visitors.
        self.handled = frozenset(handled) if self.skip else None
        self.visits = _Handlers(self.methods, "visit_")
        self.leaves = _Handlers(self.methods, "leave_")


def _plan(cls: type) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is None:
        if len(_PLANS) > _PLANS_LIMIT:
            _PLANS.clear()
        plan = _PLANS[cls] = _Plan(cls)
    return plan


class _NodeTypes(dict):
    """type -> whether it is a CSTNode (``isinstance`` against LibCST's ABC is slow)."""

    def __missing__(self, cls):
        found = self[cls] = isinstance(cls, type) and issubclass(cls, cst.CSTNode)
        return found


_IS_NODE = _NodeTypes()
# id(node) -> (node, its children), one table with trivia and one without: every rule walks the same
# nodes again, and an unchanged node keeps its identity; the node is kept alive with its entry so its
# id is not reused.
_ALL_KIDS: Dict[int, Tuple[cst.CSTNode, list]] = {}
_LEAN_KIDS: Dict[int, Tuple[cst.CSTNode, list]] = {}
_KIDS_LIMIT = 400_000
# id(node) -> (node, the names of the node types in its subtree, trivia excluded).
_KINDS: Dict[int, Tuple[cst.CSTNode, frozenset]] = {}
_LONE_KINDS: Dict[str, frozenset] = {}  # type name -> the frozenset of that name alone


_FACTS: Dict[Tuple[str, int], Tuple[cst.CSTNode, object]] = {}


def forget() -> None:
    """Drop the cached children and facts (the engine calls this between files)."""
    _ALL_KIDS.clear()
    _LEAN_KIDS.clear()
    _KINDS.clear()
    _FACTS.clear()


def remember(key: tuple, keep: object, compute):
    """``compute()``, remembered under ``key`` until :func:`forget` (the end of the file).

    ``key`` may hold ``id()`` s of nodes and other objects: ``keep`` holds those objects, so no
    id is reused while the entry lives."""
    key = ("remember",) + key
    cached = _FACTS.get(key)
    if cached is not None:
        return cached[1]
    value = compute()
    if len(_FACTS) > _KIDS_LIMIT:
        _FACTS.clear()
    _FACTS[key] = (keep, value)
    return value


def fact(kind: str, node: cst.CSTNode, compute):
    """``compute(node)``, remembered for this node object (nodes are immutable: the answer cannot change).

    For pure functions of a subtree (the names it reads, the calls in it); callers get the
    cached object, so they must copy it before changing it."""
    key = (kind, id(node))
    cached = _FACTS.get(key)
    if cached is not None and cached[0] is node:
        return cached[1]
    value = compute(node)
    if len(_FACTS) > _KIDS_LIMIT:
        _FACTS.clear()
    _FACTS[key] = (node, value)
    return value


def _kids(node: cst.CSTNode, skip: frozenset) -> list:
    cache = _LEAN_KIDS if skip else _ALL_KIDS
    cached = cache.get(id(node))
    if cached is not None and cached[0] is node:
        return cached[1]
    return _new_kids(node, skip, cache)


def _new_kids(node: cst.CSTNode, skip: frozenset, cache: Dict[int, Tuple[cst.CSTNode, list]]) -> list:
    out = []
    is_node = _IS_NODE
    for name, _ in child_fields(type(node)):
        value = getattr(node, name)
        kind = type(value)
        if kind is tuple or kind is list:
            out.extend(item for item in value if type(item) not in skip and is_node[type(item)])
        elif kind not in skip and is_node[kind]:
            out.append(value)
    if len(cache) > _KIDS_LIMIT:
        cache.clear()
    cache[id(node)] = (node, out)
    return out


def _kinds_below(root: cst.CSTNode) -> frozenset:
    """The names of the node types in ``root``'s subtree, ``root`` included, trivia excluded."""
    cached = _KINDS.get(id(root))
    if cached is not None and cached[0] is root:
        return cached[1]
    if len(_KINDS) > _KIDS_LIMIT:
        _KINDS.clear()
    kinds, lone = _KINDS, _LONE_KINDS
    stack = [root]  # iterative, for deep expressions; children first: a node, later (node, its children)
    pop, push, get = stack.pop, stack.append, kinds.get
    while stack:
        node = pop()
        if type(node) is tuple:
            node, kids = node
            own = type(node).__name__
            alone = lone.get(own) or lone.setdefault(own, frozenset((own,)))
            if not kids:
                names = alone
            elif len(kids) == 1:  # most nodes: a set already made serves
                below = kinds[id(kids[0])][1]
                names = below if own in below else below | alone
            else:
                gathered = {own}
                for kid in kids:
                    gathered.update(kinds[id(kid)][1])
                names = frozenset(gathered)
            kinds[id(node)] = (node, names)
            continue
        cached = get(id(node))
        if cached is None or cached[0] is not node:
            kids = _kids(node, _TRIVIA)
            push((node, kids))
            stack.extend(kids)
    return kinds[id(root)][1]


def _walk(root: cst.CSTNode, visitor: cst.CSTVisitor, plan: _Plan) -> None:
    # Iterative, so a deeply nested expression (a 1,000-term sum) cannot exhaust Python's stack. The
    # stack holds nodes to visit and, for the nodes whose leave must run once their children are done,
    # (leave, node) pairs.
    stack = [root]
    pop, push, extend, skip = stack.pop, stack.append, stack.extend, plan.skip
    cache = _LEAN_KIDS if skip else _ALL_KIDS
    get = cache.get
    if plan.generic:
        on_visit, on_leave = visitor.on_visit, visitor.on_leave
        while stack:
            node = pop()
            if type(node) is tuple:
                on_leave(node[1])
                continue
            push((None, node))
            if on_visit(node):
                cached = get(id(node))
                extend(reversed(cached[1] if cached is not None and cached[0] is node
                                else _new_kids(node, skip, cache)))
        return
    visits, leaves, handled, kinds = plan.visits, plan.leaves, plan.handled, _KINDS.get
    while stack:
        node = pop()
        node_type = type(node)
        if node_type is tuple:
            node[0](visitor, node[1])
            continue
        if handled is not None:
            known = kinds(id(node))
            if handled.isdisjoint(known[1] if known is not None and known[0] is node else _kinds_below(node)):
                continue
        leave = leaves[node_type]
        if leave is not None:
            push((leave, node))
        handler = visits[node_type]
        if handler is None or handler(visitor, node) is not False:
            cached = get(id(node))
            extend(reversed(cached[1] if cached is not None and cached[0] is node else _new_kids(node, skip, cache)))


def _transform(node: cst.CSTNode, transformer: cst.CSTTransformer, plan: _Plan):
    if plan.handled is not None:
        known = _KINDS.get(id(node))
        if plan.handled.isdisjoint(known[1] if known is not None and known[0] is node else _kinds_below(node)):
            return node
    node_type = type(node)
    if plan.generic:
        go = transformer.on_visit(node)
    else:
        handler = plan.visits[node_type]
        go = handler is None or handler(transformer, node) is not False
    if go:
        skip = plan.skip
        is_node = _IS_NODE
        changes = {}
        for name, default in _ORDER.get(node_type) or child_fields(node_type):
            value = getattr(node, name)
            kind = type(value)
            if kind is not tuple and kind is not list:
                if kind in skip or not is_node[kind]:
                    continue
                new = _transform(value, transformer, plan)
                if new is not value:
                    changes[name] = _single(node, name, default, new)
            elif value:
                new_items, changed = [], False
                for item in value:
                    if type(item) in skip or not is_node[type(item)]:
                        new_items.append(item)
                        continue
                    new = _transform(item, transformer, plan)
                    if new is item:
                        new_items.append(new)
                    elif isinstance(new, cst.RemovalSentinel):
                        changed = True
                    elif isinstance(new, cst.FlattenSentinel):
                        # Like LibCST's visit_body_sequence: a statement line emptied by a removal goes too.
                        new_items.extend(n for n in new.nodes if item._is_removable() or not n._is_removable())
                        changed = True
                    else:
                        if item._is_removable() or not new._is_removable():
                            new_items.append(new)
                        changed = True
                if changed:
                    changes[name] = tuple(new_items)
        updated = node.with_changes(**changes) if changes else node
    else:
        updated = node
    if plan.generic:
        return transformer.on_leave(node, updated)
    leave = plan.leaves[node_type]
    return updated if leave is None else leave(transformer, node, updated)


def _single(parent: cst.CSTNode, name: str, default: object, new):
    """What a non-sequence field becomes when its child's visit returned ``new`` (LibCST's rules)."""
    if isinstance(new, cst.RemovalSentinel):
        if default is None or isinstance(default, cst.MaybeSentinel):
            return default
        raise cst.CSTValidationError(f"cannot remove the required field {type(parent).__name__}.{name}")
    if isinstance(new, cst.FlattenSentinel):
        raise cst.CSTValidationError(f"cannot flatten into the single field {type(parent).__name__}.{name}")
    return new
