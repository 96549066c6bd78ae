"""The keys of a feed dict passed by name: ``feed = {x: ..., y: ...}`` then ``sess.run(..., feed_dict=feed)``.

A feed dict built in the loop and passed by name is the common form of TF1 training code. Its values
change every step, but its keys do not: when every binding of the name in the scope is a dict literal
of the same placeholders, and the name is only ever passed as a ``feed_dict``, the run's function
knows its parameters exactly. A compiled function needs that: ``tf.function`` with an input signature
takes no ``**unused_feeds`` catch-all.

A key may be any tensor the program computes, as TF1 lets a feed replace any tensor for a run
(``replace = {a: 15}`` for ``a = tf.add(2, 5)``): the key names the binding visible where its literal
stands, so it counts only when no binding of that name comes between the literal and the run. A placeholder is
the exception: the literal holds it whatever the name is bound to later (``feed = {x: X}`` before a loop
``for x in range(n)``), so the key feeds the placeholder the literal names.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.run_sites import RunSite
from tf_migrate.analysis.symbols import reads, symbol_key, writes
from tf_migrate.cst.arguments import bind_known
from tf_migrate.cst.text import code
from tf_migrate.traversal import visit


def named_feed_keys(scope: "pm.Scope", site: "RunSite", limit: int) -> Optional[List[Tuple[str, Optional["pm.Symbol"]]]]:
    """The keys the site's named feed holds at every run (in its literal's order), each with the binding it
    feeds, or None.

    The name is looked up where the run stands (the statement at ``limit``): the graph's scope, or the
    method of the graph's class the run sits in (``site.home``), whose feed dict keys are the class's
    placeholders.
    """
    feed = site.feed
    if site.home is not None:
        params = {param.name.value for param in site.home.params.params}
        params |= {p.name.value for p in site.home.params.kwonly_params}
        bodies = [(None, site.home.body)]
    else:
        params, bodies = scope.params, [(st.index, st.node) for st in scope.statements]
    if not isinstance(feed, cst.Name) or feed.value in params:
        return None
    finder = _Uses(feed.value, feed)
    for index, body in bodies:
        finder.statement = index
        visit(body, finder)
    if finder.other or not finder.literals:
        return None
    literals = finder.literals
    key_lists = [[symbol_key(element.key) for element in literal.elements] for literal, _ in literals]
    first = key_lists[0]
    if any(set(keys) != set(first) or len(keys) != len(first) for keys in key_lists):
        literals = _reaching_literal(scope, literals, limit)
        if literals is None:
            return None
        first = [symbol_key(element.key) for element in literals[0][0].elements]
    statements = [index for _, index in literals]
    keyed = []
    for key in first:
        if key is None:
            return None
        literal_placeholder = _placeholder_at_literals(scope, key, statements)
        if literal_placeholder is not None:
            keyed.append((key, literal_placeholder))
        elif _one_value(scope, key, statements, limit):
            keyed.append((key, scope.symbol_at(key, limit)))
        else:
            return None
    return keyed


def bool_literals(dicts: Sequence[cst.Dict]) -> Dict[str, str]:
    """Keys that every dict literal of ``dicts`` maps to the same ``True`` / ``False`` (a training flag fed
    one value at every run of a site): key -> that literal."""
    found: Dict[str, str] = {}
    for index, literal in enumerate(dicts):
        values = {symbol_key(element.key): element.value for element in literal.elements
                  if isinstance(element, cst.DictElement)}
        here = {key: value.value for key, value in values.items()
                if key is not None and isinstance(value, cst.Name) and value.value in ("True", "False")}
        found = here if index == 0 else {key: value for key, value in found.items() if here.get(key) == value}
    return found


def floats_fed_to_integers(dicts: Sequence[cst.Dict], fed_symbols: Dict[str, "pm.Symbol"]) -> List[str]:
    """Why a run's feed is refused where TF1 took it: a float (``3.0``, ``len(x) / 2``, ``np.float32(...)``) fed to
    an integer or bool placeholder. TF1 converted each feed with numpy (``np.asarray(3.7, np.int32)`` is 3); TF2
    refuses a float for an integer tensor (a compiled function's signature, ``convert_to_tensor``)."""
    for literal in dicts:
        for element in literal.elements:
            if not isinstance(element, cst.DictElement) or not _float_valued(element.value):
                continue
            key = symbol_key(element.key)
            symbol = fed_symbols.get(key) if key is not None else None
            dtype = _placeholder_dtype(symbol)
            if dtype is not None and ("int" in dtype or "bool" in dtype):
                return [f"`{key}` ({dtype}) is fed a float (`{code(element.value)}`): TF1 converted it with numpy "
                        "(3.7 -> 3), TF2 refuses a float for an integer tensor"]
    return []


def _placeholder_dtype(symbol: Optional["pm.Symbol"]) -> Optional[str]:
    if symbol is None:
        return None
    if symbol.kind == pm.PLACEHOLDER and symbol.call is not None:
        dtype = bind_known(symbol.call, ["dtype", "shape", "name"]).get("dtype")
        if dtype is not None:
            return code(dtype)
    return symbol.dtype


def _float_valued(value: cst.BaseExpression) -> bool:
    """Whether the expression is a float by its form: a float literal, a true division, ``float(...)`` or a numpy
    float constructor."""
    if isinstance(value, cst.UnaryOperation):
        return _float_valued(value.expression)
    if isinstance(value, cst.Float):
        return True
    if isinstance(value, cst.BinaryOperation):
        return isinstance(value.operator, cst.Divide) or _float_valued(value.left) or _float_valued(value.right)
    if isinstance(value, cst.Call):
        func = value.func
        name = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) \
            else ""
        return name in ("float", "float16", "float32", "float64")
    return False


def site_feed_literals(scope: "pm.Scope", site: "RunSite",
                       statements: Optional[Sequence[cst.CSTNode]] = None, member_keys: bool = False) -> List[cst.Dict]:
    """The dict literals a site's feed is at its runs: its own literal, or every binding of its named feed
    (in ``statements``: by default the scope's, or the method's the run stands in). ``member_keys``: keys
    may also be members of objects (``net.x``)."""
    if isinstance(site.feed, cst.Dict):
        return [site.feed]
    if not isinstance(site.feed, cst.Name):
        return []
    finder = _Uses(site.feed.value, site.feed, member_keys)
    bodies = [site.home.body] if site.home is not None else [st.node for st in scope.statements]
    bodies = bodies if statements is None else list(statements)
    for body in bodies:
        visit(body, finder)
    return [] if finder.other else [literal for literal, _ in finder.literals]


def feeds_tensors(scope: "pm.Scope", site: "RunSite") -> bool:
    """Whether the site's named feed is bound to a dict literal keyed by tensors other than placeholders."""
    if not isinstance(site.feed, cst.Name) or not scope.feed_literals:
        return False
    finder = _Uses(site.feed.value, site.feed)
    for st in scope.statements:
        visit(st.node, finder)
    return any(id(literal) in scope.feed_literals for literal, _ in finder.literals)


def only_fed(statements: Sequence[cst.CSTNode], name: str) -> bool:
    """Whether ``name`` is only ever bound to dict literals and passed as a ``feed_dict`` in ``statements``."""
    finder = _Uses(name, None)
    for statement in statements:
        visit(statement, finder)
    return not finder.other and bool(finder.literals)


def _reaching_literal(scope: "pm.Scope", literals: List[Tuple[cst.Dict, Optional[int]]], limit: int
                      ) -> Optional[List[Tuple[cst.Dict, Optional[int]]]]:
    """The one literal a run at statement ``limit`` sees where the name is bound to dicts of different keys
    (``feed_dict = {x_input_1d: data_1d}`` runs, then ``feed_dict = {x_input_2d: data_2d}`` runs): the last before
    the run, where every binding is a line of its own in the scope's body (so each holds until the next) and none is
    in the run's own statement. None otherwise."""
    if any(index is None or index == limit for _, index in literals):
        return None
    if any(not isinstance(scope.statements[index].node, cst.SimpleStatementLine) for _, index in literals):
        return None
    before = [(literal, index) for literal, index in literals if index < limit]
    return [max(before, key=lambda pair: pair[1])] if before else None


def _placeholder_at_literals(scope: "pm.Scope", key: str, literal_statements: List[Optional[int]]
                             ) -> Optional["pm.Symbol"]:
    """The placeholder ``key`` holds where every literal stands, when it is one binding for all of them and no
    literal's statement binds the name itself (``feed = {x: X}`` before ``for x in range(n)``: the dict holds the
    placeholder, whatever the name holds at the run), or None."""
    if not literal_statements or None in literal_statements:
        return None
    symbols = {id(symbol): symbol for symbol in (scope.symbol_at(key, index) for index in literal_statements)}
    if len(symbols) != 1:
        return None
    (symbol,) = symbols.values()
    if symbol is None or symbol.kind != pm.PLACEHOLDER:
        return None
    if any(key in writes(scope.statements[index].node) for index in literal_statements):
        return None
    return symbol


def _one_value(scope: "pm.Scope", key: str, literal_statements: List[Optional[int]], limit: int) -> bool:
    """Whether ``key`` names, in every literal, the value the run at ``limit`` can replace.

    A placeholder bound once always does. Any other tensor must be the binding the run sees, with no
    binding of the name from the literal's statement to the run's (a class method's literals: none).
    """
    symbol = scope.symbols.get(key)
    if symbol is None:
        return False
    if symbol.kind == pm.PLACEHOLDER and len(scope.bindings.get(key, [])) == 1:
        return True
    seen = scope.symbol_at(key, limit)
    if seen is None or seen.kind not in pm.DEFERRED_KINDS or None in literal_statements:
        return False
    return all(not any(start <= other.index <= limit for other in scope.bindings.get(key, []))
               for start in literal_statements)


class _Uses(cst.CSTVisitor):
    """Every occurrence of one name: dict-literal assignments, ``feed_dict=`` arguments, and anything else."""

    def __init__(self, name: str, run_feed: Optional[cst.Name], member_keys: bool = False) -> None:
        self.name = name
        self.member_keys = member_keys
        self.literals: List[Tuple[cst.Dict, Optional[int]]] = []  # (literal, index of its statement)
        self.statement: Optional[int] = None  # the scope statement being visited (None: a method body)
        self.other = False
        self._accounted: set = {id(run_feed)} if run_feed is not None else set()  # the run's own feed

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name) and target.target.value == self.name:
                if len(node.targets) == 1 and _is_key_literal(node.value, self.member_keys):
                    self.literals.append((node.value, self.statement))
                    self._accounted.add(id(target.target))

    def visit_Call(self, node: cst.Call) -> None:
        positional = [arg for arg in node.args if arg.keyword is None and not arg.star]
        if (isinstance(node.func, cst.Attribute) and node.func.attr.value == "run" and len(positional) >= 2
                and isinstance(positional[1].value, cst.Name) and positional[1].value.value == self.name):
            self._accounted.add(id(positional[1].value))  # `sess.run(fetches, feed)`: the feed by position
        if (isinstance(node.func, cst.Attribute) and node.func.attr.value in ("run", "eval") and len(positional) == 1
                and isinstance(positional[0].value, cst.Name) and positional[0].value.value == self.name):
            # `step.run(feed, session=sess)`, `acc.eval(feed)`: an op's or a tensor's feed (a dict of arrays is no
            # fetch a session could run)
            self._accounted.add(id(positional[0].value))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._accounted.add(id(node.keyword))  # `feed_dict=feed_dict`: the keyword is no use of the name
        if (node.keyword is not None and node.keyword.value == "feed_dict" and not node.star
                and isinstance(node.value, cst.Name) and node.value.value == self.name):
            self._accounted.add(id(node.value))

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name and id(node) not in self._accounted:
            self.other = True  # read, mutated, rebound otherwise, or passed elsewhere: keys may change

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._accounted.add(id(node.attr))  # `self.feed` is another value

    def visit_Param(self, node: cst.Param) -> None:
        if node.name.value == self.name:
            self.other = True


def _is_key_literal(value: cst.BaseExpression, member_keys: bool = False) -> bool:
    def is_key(key: cst.BaseExpression) -> bool:
        return symbol_key(key) is not None or (member_keys and isinstance(key, cst.Attribute)
                                               and isinstance(key.value, cst.Name))

    return isinstance(value, cst.Dict) and bool(value.elements) and all(
        isinstance(element, cst.DictElement) and is_key(element.key) for element in value.elements)


def feed_dict_literal(scope: "pm.Scope", statements: Sequence[cst.CSTNode], targets, value, tensor_kinds,
                      block) -> bool:
    """``{x: batch}`` keyed by placeholders, or ``replace = {a: 15}`` by tensors a run replaces, only fed (then
    recorded in ``scope.feed_literals``); a dict keyed by other tensors, or used otherwise, blocks."""
    if not (isinstance(value, cst.Dict) and value.elements
            and all(isinstance(e, cst.DictElement) for e in value.elements)):
        return False
    kinds = [scope.kind(symbol_key(e.key) or "") for e in value.elements]
    if all(kind == pm.PLACEHOLDER for kind in kinds):
        return True
    if not all(kind in (pm.PLACEHOLDER, pm.TENSOR, pm.EAGER) for kind in kinds):
        return False
    if not (isinstance(targets, cst.Name) and only_fed(statements, targets.value)) or any(
            scope.kind(key) in tensor_kinds for e in value.elements for key in reads(e.value)):
        block(value, "a dict keyed by tensors that are not placeholders, used other than as a feed dict "
                     "of Python values: which runs it replaces them in is not known")
        return False
    scope.feed_literals.add(id(value))
    return True
