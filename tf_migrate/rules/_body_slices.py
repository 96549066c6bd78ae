"""A function body as a tree of statements to slice in two (``_module_split``'s ``__init__`` and ``__call__``).

The body's ``if`` and ``for`` blocks that hold what one side needs and what the other side needs
are *decomposed*: their statements are *leaves*, each put whole on one side, and the block is
rebuilt on each side around that side's leaves (a side with none of a block's leaves drops it).
Other statements, compound ones included, are leaves themselves.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import value_reads, writes
from tf_migrate.traversal import contains, visit


class SliceRefused(Exception):
    """The body has no faithful split (the message says why)."""


@dataclass
class Leaf:
    """A statement a slice puts whole on one side."""

    node: cst.BaseStatement
    reads: Set[str]
    writes: Set[str]
    maker: bool  # makes a variable
    loop: Optional[cst.For]  # the layer loop whose body it is directly in (None: the helper's body)
    parents: Tuple[int, ...]  # ids of the blocks it is in, outermost first


def def_reads(func: cst.FunctionDef) -> Set[str]:
    """The names an inner function reads from the helper (not its own parameters and locals)."""
    own = {p.name.value for p in func.params.params} | set(writes(func.body))
    return {key for key in value_reads(func.body) if key.split(".")[0] not in own}


def leaves(lines: Sequence[cst.BaseStatement], decomposed: Set[int], makes: Callable[[cst.CSTNode], bool],
           parents: Tuple[int, ...] = (), loop: Optional[cst.For] = None) -> List[Leaf]:
    """The leaves of ``lines`` in program order (``makes``: whether a statement makes a variable)."""
    out: List[Leaf] = []
    for line in lines:
        if id(line) in decomposed and isinstance(line, cst.If):
            inner = parents + (id(line),)
            out += leaves(line.body.body, decomposed, makes, inner)
            if isinstance(line.orelse, cst.If):
                raise SliceRefused("it makes variables inside an `elif` chain")
            if line.orelse is not None:
                out += leaves(line.orelse.body.body, decomposed, makes, inner)
        elif id(line) in decomposed and isinstance(line, cst.For):
            out += leaves(line.body.body, decomposed, makes, parents + (id(line),), line)
        elif id(line) in decomposed and isinstance(line, cst.With):
            out += leaves(line.body.body, decomposed, makes, parents + (id(line),), loop)
        elif isinstance(line, cst.FunctionDef):
            out.append(Leaf(line, def_reads(line), {line.name.value}, False, loop, parents))
        else:
            out.append(Leaf(line, value_reads(line), set(writes(line)), makes(line), loop, parents))
    return out


def decompose(lines: Sequence[cst.BaseStatement], makes: Callable[[cst.CSTNode], bool],
              scoped: Callable[[cst.With], bool], in_loop: bool = False) -> Set[int]:
    """Ids of the blocks sliced rather than kept whole: each ``if``, ``for`` and ``with`` (of name scopes only:
    ``scoped``) that holds a variable-making statement, and in such a loop each ``if`` (its branches may
    compute both a shape and a forward value)."""
    found: Set[int] = set()
    for line in lines:
        if isinstance(line, cst.With) and scoped(line) and makes(line):
            found.add(id(line))
            found |= decompose(line.body.body, makes, scoped, in_loop)
            continue
        branch = in_loop and isinstance(line, cst.If) and not isinstance(line.orelse, cst.If)
        if isinstance(line, (cst.If, cst.For)) and (makes(line) or branch):
            if line.orelse is not None and isinstance(line, cst.For):
                raise SliceRefused("it makes variables in a `for` loop with an `else`")
            found.add(id(line))
            blocks = [line.body.body] + ([line.orelse.body.body] if isinstance(line.orelse, cst.Else) else [])
            for block in blocks:
                found |= decompose(block, makes, scoped, in_loop or isinstance(line, cst.For))
        elif isinstance(line, cst.BaseCompoundStatement) and not isinstance(line, cst.FunctionDef) and makes(line):
            raise SliceRefused(f"it makes variables inside a `{type(line).__name__.lower()}` block")
    return found


def loop_index(loop: cst.For) -> Optional[str]:
    """The iteration number's name of ``for i, x in enumerate(xs)`` or ``for i in range(n)`` (None: neither)."""
    it = loop.iter
    if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name)):
        return None
    if it.func.value == "enumerate" and len(it.args) == 1 and isinstance(loop.target, cst.Tuple) \
            and loop.target.elements and isinstance(loop.target.elements[0].value, cst.Name):
        return loop.target.elements[0].value.value
    if it.func.value == "range" and len(it.args) == 1 and isinstance(loop.target, cst.Name):
        return loop.target.value
    return None


def header_reads(node: cst.CSTNode) -> Set[str]:
    if isinstance(node, cst.If):
        return value_reads(node.test)
    if isinstance(node, cst.For):
        return value_reads(node.iter)
    if isinstance(node, cst.With):
        return set().union(*(value_reads(item.item) for item in node.items))
    return set()


def jumps(loop: cst.For) -> bool:
    return contains(loop.body, cst.Break) or contains(loop.body, cst.Continue)


def blocks_by_id(lines: Sequence[cst.BaseStatement], decomposed: Set[int]) -> Dict[int, cst.CSTNode]:
    found: Dict[int, cst.CSTNode] = {}
    for line in lines:
        if id(line) in decomposed:
            found[id(line)] = line
            found.update(blocks_by_id(line.body.body, decomposed))
            if isinstance(getattr(line, "orelse", None), cst.Else):
                found.update(blocks_by_id(line.orelse.body.body, decomposed))
    return found


def reads_after(all_leaves: List[Leaf], loop: cst.For, chosen: List[Leaf]) -> Set[str]:
    """What the ``chosen`` leaves after ``loop`` read (leaves are in program order)."""
    inside = [i for i, leaf in enumerate(all_leaves) if id(loop) in leaf.parents]
    chosen_ids = {id(leaf.node) for leaf in chosen}
    later = [leaf for leaf in all_leaves[inside[-1] + 1:] if id(leaf.node) in chosen_ids] if inside else []
    return set().union(*(leaf.reads for leaf in later)) if later else set()


def rebuild(lines: Sequence[cst.BaseStatement], keep: Dict[int, Leaf], decomposed: Set[int], form, before_loop,
            headers: Optional[cst.CSTTransformer] = None) -> List[cst.BaseStatement]:
    """The statements of ``lines`` that ``keep`` holds (each in its ``form``), in the blocks that hold some."""
    out: List[cst.BaseStatement] = []
    for line in lines:
        if id(line) in decomposed:
            body = rebuild(line.body.body, keep, decomposed, form, before_loop, headers)
            orelse_body = rebuild(line.orelse.body.body, keep, decomposed, form, before_loop, headers) \
                if isinstance(getattr(line, "orelse", None), cst.Else) else []
            if not body and not orelse_body:
                continue
            if not body:
                body = [cst.parse_statement("pass")]
            new = line.with_changes(body=line.body.with_changes(body=body))
            if not isinstance(line, cst.With):
                new = new.with_changes(orelse=line.orelse.with_changes(
                    body=line.orelse.body.with_changes(body=orelse_body)) if orelse_body else None)
            if headers is not None:
                if isinstance(new, cst.If):
                    new = new.with_changes(test=visit(new.test, headers))
                elif isinstance(new, cst.For):
                    new = new.with_changes(iter=visit(new.iter, headers))
                else:
                    new = new.with_changes(items=[visit(item, headers) for item in new.items])
            made = before_loop(line) if isinstance(line, cst.For) else []
            if made:  # the lists go where the loop stood, under its comments
                made[0] = made[0].with_changes(leading_lines=new.leading_lines)
                new = new.with_changes(leading_lines=[])
            out.extend(made)
            out.append(new)
        elif id(line) in keep:
            out.append(form(keep[id(line)]))
    return out


def backward_slice(all_leaves: List[Leaf], seeds: List[Leaf], blocks: Dict[int, cst.CSTNode]
                   ) -> Tuple[Set[int], Set[str]]:
    """The leaves ``seeds`` need, to a fixed point (a leaf that binds a name a chosen leaf, or the header of a
    block around one, reads; names, not bindings: a loop may read on its next pass what it binds later),
    as ids, with every name they read."""
    chosen: Set[int] = {id(leaf.node) for leaf in seeds}
    needed: Set[str] = set().union(*(leaf.reads for leaf in seeds)) if seeds else set()
    changed = True
    while changed:
        changed = False
        for leaf in all_leaves:
            if id(leaf.node) not in chosen and leaf.writes & needed:
                chosen.add(id(leaf.node))
                changed = True
            if id(leaf.node) in chosen:
                more = set().union(leaf.reads, *(header_reads(blocks[block]) for block in leaf.parents)) - needed
                changed |= bool(more)
                needed |= more
    return chosen, needed
