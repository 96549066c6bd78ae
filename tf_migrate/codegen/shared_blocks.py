"""One home for forward code that several generated functions repeat.

Each ``sess.run`` becomes its own function with the statements its fetches
need, so a program that trains and evaluates one model gets the model's
forward pass in every function (TF1 built it once, in the graph). After a
scope's functions are built, this pass finds runs of statements that two or
more of them repeat word for word and moves each run into one plain Python
function that they call:

    def compute_logits(x):                    # shared: not a tf.function
        hidden = dense(x)
        logits = dense_1(hidden)
        return logits

    @tf.function(input_signature=[...])
    def run_train_op(x, y):
        with tf.GradientTape() as tape:
            logits = compute_logits(x)        # recorded: the tape sees every op it runs
            loss = ...

The move is a function extraction, exact by construction: the helper is
called where the statements stood, its parameters are the caller's local
names the statements read (bound before them), and it returns the names they
bind that the caller reads afterwards. Inside a ``tf.function`` the call is
traced inline, so the graph (and each random op's place in it) is the one the
repeated statements made. Statements that use the caller's tape or other
``with`` targets, return, or bind names in other ways stay where they are.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis.update_ops import update_calls
from tf_migrate.analysis.symbols import reads, value_reads, writes
from tf_migrate.cst.names import fresh
from tf_migrate.cst.text import code
from tf_migrate.traversal import contains, visit

MIN_OPERATIONS = 4  # a shorter repeat (``doubled = tf.identity(x * 2)``) reads better inline than as a call; a call counts 2
MAX_STATEMENTS = 64  # longest run compared: bounds the search in very long generated functions
PREFIX = "compute_"


@dataclass
class _Occurrence:
    function: int  # index in the scope's list of generated functions
    path: Tuple[int, ...]  # statement indices from the function body down to the block holding the run
    start: int
    length: int


def share_repeated_blocks(functions: List[cst.FunctionDef], taken: Set[str], methods: bool = False
                          ) -> Tuple[List[cst.FunctionDef], Dict[int, List[cst.FunctionDef]]]:
    """``functions`` with repeated statement runs replaced by calls, and the helpers to define before each
    (by index of the first function that calls them). ``methods``: the functions are methods of one class
    (``self`` first); the helpers are methods too. ``taken``: names in use, updated with the helpers'."""
    pool = list(functions)  # the functions, then the helpers made so far: a helper's code may repeat too
    anchors = list(range(len(functions)))  # where each is defined: before which of ``functions``
    while True:
        extraction = next(((occurrences, moved) for occurrences in _repeats(pool)
                           if (moved := _extract(pool, occurrences, taken, methods)) is not None), None)
        if extraction is None:
            break
        occurrences, (helper, pool) = extraction
        pool.append(helper)
        anchors.append(min(anchors[o.function] for o in occurrences))
    helpers: Dict[int, List[cst.FunctionDef]] = {}
    for helper, anchor in zip(pool[len(functions):], anchors[len(functions):]):
        helpers.setdefault(anchor, []).insert(0, helper)  # a later helper is called by earlier ones: first
    return pool[:len(functions)], helpers


# -- finding repeats --------------------------------------------------------------------------
def _blocks(function: cst.FunctionDef):
    """Every statement list of the function (its body, and ``with`` bodies in it), with its path."""
    def walk(statements: Sequence[cst.BaseStatement], path: Tuple[int, ...]):
        yield path, statements
        for index, statement in enumerate(statements):
            if isinstance(statement, cst.With) and isinstance(statement.body, cst.IndentedBlock):
                yield from walk(statement.body.body, path + (index,))
    yield from walk(function.body.body, ())


def _with_targets(function: cst.FunctionDef) -> Set[str]:
    names: Set[str] = set()

    class Targets(cst.CSTVisitor):
        def visit_WithItem(self, node: cst.WithItem) -> None:
            if node.asname is not None:
                names.update(_names(node.asname.name))

    visit(function.body, Targets())
    return names


def _names(target: cst.BaseExpression) -> Set[str]:
    """The names an assignment target binds."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*[_names(e.value) for e in target.elements])
    if isinstance(target, cst.StarredElement):
        return _names(target.value)
    return {target.value} if isinstance(target, cst.Name) else set()


def _movable(statement: cst.BaseStatement, with_targets: Set[str], parameters: Set[str]) -> Optional[str]:
    """The statement's code, its identity for comparison, where it may move into a helper; else None.
    An argument's conversion (``x = tf.cast(x, tf.float32)``) stays with its function."""
    if isinstance(statement, cst.For):  # a layer loop of forward code moves whole
        body = statement.body.body if isinstance(statement.body, cst.IndentedBlock) else ()
        if statement.orelse is not None or not body or contains(statement, (cst.Break, cst.Continue, cst.Return)) \
                or any(_movable(line, with_targets, parameters) is None for line in body):
            return None
    elif not isinstance(statement, cst.SimpleStatementLine):
        return None
    for small in getattr(statement, "body", ()) if isinstance(statement, cst.SimpleStatementLine) else ():
        if not isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            return None  # a call for its effect (an optimizer step, a tape's watch) is no forward code
        if isinstance(small, (cst.Assign, cst.AnnAssign)):
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            if not all(_plain_targets(t) for t in targets):
                return None
    if set(writes(statement)) & parameters:
        return None
    if contains(statement, (cst.Yield, cst.Await, cst.NamedExpr)) or reads(statement) & with_targets:
        return None
    if update_calls(statement):
        return None  # a helper named for what it computes should not also change variables
    return code(statement.with_changes(leading_lines=[]))


def _plain_targets(target: cst.BaseExpression) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(_plain_targets(e.value) for e in target.elements)
    return isinstance(target, cst.Name)


def _operations(statements: Sequence[cst.BaseStatement]) -> int:
    count = [0]

    class Count(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:  # a TF op or a layer: more than an operator
            count[0] += 2

        def visit_BinaryOperation(self, node: cst.CSTNode) -> None:
            count[0] += 1

        visit_UnaryOperation = visit_Subscript = visit_Comparison = visit_BooleanOperation = visit_IfExp = \
            visit_BinaryOperation

    for statement in statements:
        visit(statement, Count())
    return count[0]


def _repeats(functions: List[cst.FunctionDef]):
    """The repeated runs of at least MIN_OPERATIONS, each as its non-overlapping occurrences, the one that
    saves the most code (operations times repeats beyond the first) first."""
    sequences = []  # (function index, path, [code or None])
    for index, function in enumerate(functions):
        targets = _with_targets(function)
        parameters = {p.name.value for p in function.params.params}
        for path, statements in _blocks(function):
            sequences.append((index, path, [_movable(s, targets, parameters) for s in statements]))
    starts: Dict[str, List[Tuple[int, int]]] = {}  # statement code -> (sequence, position) where it stands
    for number, (_, _, keys) in enumerate(sequences):
        for position, key in enumerate(keys):
            if key is not None:
                starts.setdefault(key, []).append((number, position))

    def common_length(a: Tuple[int, int], b: Tuple[int, int]) -> int:
        (sa, pa), (sb, pb) = a, b
        keys_a, keys_b = sequences[sa][2], sequences[sb][2]
        limit = min(len(keys_a) - pa, len(keys_b) - pb, MAX_STATEMENTS, abs(pb - pa) if sa == sb else len(keys_a))
        length = 0
        while length < limit and keys_a[pa + length] is not None and keys_a[pa + length] == keys_b[pb + length]:
            length += 1
        return length

    runs: Set[Tuple[str, ...]] = set()
    for places in starts.values():
        for place in places if len(places) > 1 else ():
            longest = max(common_length(place, other) for other in places if other != place)
            keys = sequences[place[0]][2]
            runs.update(tuple(keys[place[1]:place[1] + length]) for length in range(1, longest + 1))
    scored = []
    for run in runs:
        occurrences = []
        taken_until: Dict[int, int] = {}
        for number, position in starts[run[0]]:
            index, path, keys = sequences[number]
            if position >= taken_until.get(number, 0) and tuple(keys[position:position + len(run)]) == run:
                occurrences.append(_Occurrence(index, path, position, len(run)))
                taken_until[number] = position + len(run)
        if len(occurrences) < 2:
            continue
        first = occurrences[0]
        operations = _operations(_statements_at(functions[first.function], first.path)[
            first.start:first.start + first.length])
        if operations >= MIN_OPERATIONS:
            scored.append(((operations * (len(occurrences) - 1), len(run), run), occurrences))
    return [occurrences for _, occurrences in sorted(scored, key=lambda pair: pair[0], reverse=True)]


def _statements_at(function: cst.FunctionDef, path: Tuple[int, ...]) -> Sequence[cst.BaseStatement]:
    statements = function.body.body
    for index in path:
        statements = statements[index].body.body
    return statements


# -- moving a repeat into a helper ------------------------------------------------------------
def _flat(function: cst.FunctionDef):
    """The function's statements in execution order, each with its path and index (``with`` headers first)."""
    def walk(statements, path):
        for index, statement in enumerate(statements):
            yield path, index, statement
            if isinstance(statement, cst.With) and isinstance(statement.body, cst.IndentedBlock):
                yield from walk(statement.body.body, path + (index,))
    yield from walk(function.body.body, ())


def _extract(functions: List[cst.FunctionDef], occurrences: List[_Occurrence], taken: Set[str], methods: bool):
    parameters: List[str] = []
    outputs: List[str] = []
    per_occurrence_outputs = []
    for occurrence in occurrences:
        function = functions[occurrence.function]
        block = _statements_at(function, occurrence.path)[occurrence.start:occurrence.start + occurrence.length]
        block_ids = {id(s) for s in block}
        bound_before = {p.name.value for p in function.params.params}
        if function.params.star_kwarg is not None:
            bound_before.add(function.params.star_kwarg.name.value)
        local, later_reads, seen_block = set(bound_before), set(), False
        for _, _, statement in _flat(function):
            if id(statement) in block_ids:
                seen_block = True
                continue
            if isinstance(statement, cst.With):  # its header only: _flat yields its body's statements
                bound = {n for item in statement.items if item.asname is not None for n in _names(item.asname.name)}
                read = set().union(*[_roots(reads(item.item)) for item in statement.items])
            else:
                bound, read = _roots(writes(statement)), _roots(reads(statement))
            local |= bound
            if not seen_block:
                bound_before |= bound
            later_reads |= read
        bound_in_block: Set[str] = set()
        for statement in block:
            needed = _roots(value_reads(statement)) - bound_in_block
            if needed & (local - bound_before):
                return None  # reads a local bound only after the block: leave the caller as it is
            parameters.extend(n for n in _in_read_order(statement, needed & bound_before) if n not in parameters)
            for name in _roots(writes(statement)):
                bound_in_block.add(name)
        used = [name for name in _ordered_writes(block) if name in later_reads]
        if not used:
            return None  # computes nothing its caller reads: statements kept for their effects
        per_occurrence_outputs.append(set(used))
        outputs.extend(n for n in used if n not in outputs)
    binding_order = _ordered_writes(_statements_at(functions[occurrences[0].function], occurrences[0].path)[
        occurrences[0].start:occurrences[0].start + occurrences[0].length])
    outputs.sort(key=binding_order.index)
    caller_order = [p.name.value for p in functions[occurrences[0].function].params.params]
    parameters.sort(key=lambda name: caller_order.index(name) if name in caller_order else len(caller_order))
    if methods:
        parameters = ["self"] + [p for p in parameters if p != "self"]
    first = occurrences[0]
    block = _statements_at(functions[first.function], first.path)[first.start:first.start + first.length]
    name = fresh(PREFIX + "_".join(outputs[:3] or ["step"]), taken)
    taken.add(name)
    helper_body = [_tidied(block[0])] + list(block[1:])
    if outputs:
        value = outputs[0] if len(outputs) == 1 else ", ".join(outputs)
        helper_body.append(cst.parse_statement(f"return {value}"))
    helper = cst.FunctionDef(
        name=cst.Name(name), params=cst.Parameters(params=[cst.Param(cst.Name(p)) for p in parameters]),
        body=cst.IndentedBlock(helper_body), leading_lines=[cst.EmptyLine(indent=False)])
    callee = f"self.{name}" if methods else name
    arguments = ", ".join(p for p in parameters if not (methods and p == "self"))
    changed = list(functions)
    # Replace from the last occurrence of each function backwards, so earlier positions stay valid.
    for occurrence, used in sorted(zip(occurrences, per_occurrence_outputs),
                                   key=lambda pair: (pair[0].function, pair[0].path, pair[0].start), reverse=True):
        if not outputs:
            call = f"{callee}({arguments})"
        else:
            targets = [n if n in used else "_" for n in outputs]
            call = f"{', '.join(targets)} = {callee}({arguments})" if any(t != "_" for t in targets) \
                else f"{callee}({arguments})"
        changed[occurrence.function] = _replaced(changed[occurrence.function], occurrence,
                                                 cst.parse_statement(call))
    return helper, changed


def _in_read_order(statement: cst.BaseStatement, names: Set[str]) -> List[str]:
    ordered: List[str] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value in names and node.value not in ordered:
                ordered.append(node.value)

    visit(statement, Names())
    return ordered + sorted(names - set(ordered))


def _roots(keys) -> Set[str]:
    return {key.split(".")[0] for key in keys}


def _ordered_writes(block) -> List[str]:
    names: List[str] = []
    for statement in block:
        for name in writes(statement):
            root = name.split(".")[0]
            if "." not in name and root not in names:
                names.append(root)
    return names


def _tidied(statement: cst.BaseStatement) -> cst.BaseStatement:
    return statement.with_changes(leading_lines=[line for line in statement.leading_lines if line.comment])


def _replaced(function: cst.FunctionDef, occurrence: _Occurrence, call: cst.BaseStatement) -> cst.FunctionDef:
    def in_block(statements: Sequence[cst.BaseStatement], path: Tuple[int, ...]) -> List[cst.BaseStatement]:
        statements = list(statements)
        if path:
            head = statements[path[0]]
            statements[path[0]] = head.with_changes(body=head.body.with_changes(
                body=in_block(head.body.body, path[1:])))
            return statements
        first = statements[occurrence.start]
        call_line = call.with_changes(leading_lines=[line for line in first.leading_lines if not line.comment])
        return statements[:occurrence.start] + [call_line] + statements[occurrence.start + occurrence.length:]

    return function.with_changes(body=function.body.with_changes(body=in_block(function.body.body, occurrence.path)))
