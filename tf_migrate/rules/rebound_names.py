"""A name bound again after graph code read it: the earlier value gets a name of its own.

    b = tf.Variable(tf.random_normal([3]), name='bias')      b_2 = tf.Variable(tf.random_normal([3]), name='bias')
    hypothesis = tf.nn.softmax(tf.matmul(X, W) + b)     ->   hypothesis = tf.nn.softmax(tf.matmul(X, W) + b_2)
    ...                                                      ...
    b = sess.run(hypothesis, feed_dict={X: [[1, 3, 4, 3]]})  b = sess.run(hypothesis, feed_dict={X: [[1, 3, 4, 3]]})
    c = sess.run(hypothesis, feed_dict={X: [[1, 1, 0, 1]]})  c = sess.run(hypothesis, feed_dict={X: [[1, 1, 0, 1]]})

TF1 graph code reads a value once, when it builds the op; the functions the session rule makes
read names each time they run. When a name the graph read is bound again before a later run
(hunkim lab-06-1 reuses the bias variable's name ``b`` for a result), that run would read the new
value. In a class, the runs of its methods come after ``__init__`` ends: a DQN's ``_build_net``
that names the eval and the target network's weights ``w1`` both (inlined into ``__init__``) has
its eval ``w1`` renamed, else both networks' run functions would read the target's. The value model knows which binding every read sees (each binding is its own value), so
this rule gives the earlier binding a fresh name and renames the reads that see it: the program
means the same under TF1, and the generated functions read the value TF1 built with.

Only where every read is known: the earlier binding is kept at this level (a variable, a Python
or eager value: graph values bound again are the run functions' own locals), it is a plain
assignment, no function, class or lambda of the block reads the name (it would read it when
called), and the statements that read it do not bind it in a block. An augmented assignment that
reads and binds it (``a -= 1.0``) becomes ``a = a_2 - 1.0``.
"""
from __future__ import annotations

from typing import Dict, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import program as pm
from tf_migrate.analysis.class_scope import analyze_class
from tf_migrate.analysis.slicing import plan_run
from tf_migrate.codegen.binding_renames import rename_earlier_binding
from tf_migrate.codegen.replace import replace_nodes
from tf_migrate.cst.names import all_names
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._program_scopes import graph_scopes

RULE_ID = "rebound-names"
_MAX_PASSES = 8


class ReboundNames(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("a name graph code read, bound again before a run: the earlier value gets a name of its own "
                   "(the run functions read names when they run)")
    ORDER = 450  # the last local rule: on the code the session rule is about to convert

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        # A chain (`a = ...; use(a); a *= 2.0; use(a); a -= 1.0`) is renamed one link per pass: the
        # rewritten `a = a_2 * 2.0` is the plain assignment the next link needs.
        for _ in range(_MAX_PASSES):
            renamed = self._pass(module, ctx)
            if renamed is module:
                return module
            module = renamed
        return module

    def _pass(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        taken = all_names(module)
        replacements: Dict[int, cst.CSTNode] = {}
        for scope, conflicts in _scopes_with_conflicts(module, ctx):
            for key, bindings in sorted(scope.bindings.items()):
                if "." in key:
                    continue
                for earlier, later in zip(bindings, bindings[1:]):
                    if (key, earlier.index) not in conflicts:
                        continue
                    renamed = self._rename(scope, key, earlier, later, taken, replacements)
                    if renamed is not None:
                        ctx.report(scope.statements[earlier.index].node, RULE_ID, INFO,
                                   f"`{key}` is bound again after graph code read this value: it is `{renamed}` "
                                   "here, so the run functions read the value TF1 built with")
        return replace_nodes(module, replacements) if replacements else module

    def _rename(self, scope: "pm.Scope", key: str, earlier: "pm.Symbol", later: "pm.Symbol", taken: Set[str],
                replacements: Dict[int, cst.CSTNode]) -> Optional[str]:
        if earlier.index < 0 or later.index <= earlier.index:
            return None
        binding = scope.statements[earlier.index]
        between = scope.statements[earlier.index + 1:later.index]
        if binding.role != pm.KEEP or not any(st.role == pm.DEFER and key in st.reads for st in between):
            return None
        return rename_earlier_binding(scope, key, earlier, later, taken, replacements)

def _scopes_with_conflicts(module: cst.Module, ctx: RuleContext):
    """(scope, the rebound values its runs need) for each graph block: the module, its functions, and the
    ``__init__`` of each class whose other methods run what ``__init__`` built (their runs come after it ends,
    so every value they need that ``__init__`` bound again is one)."""
    for scope in graph_scopes(module, ctx):
        if scope.is_graph_program:
            yield scope, _rebound_reads(scope)
        for st in scope.statements:
            if st.kind == "nested-scope" and isinstance(st.node, cst.ClassDef):
                analysis = analyze_class(st.node, ctx.names, ctx.layer_scopes)
                end = len(analysis.scope.statements)
                found: Set[Tuple[str, int]] = set()
                for _, sites in analysis.method_sites:
                    for site in sites:
                        found |= plan_run(analysis.scope, site, end).rebound
                if found:
                    yield analysis.scope, found


def _rebound_reads(scope: "pm.Scope") -> Set[Tuple[str, int]]:
    """(key, binding index) of the values runs of the scope need that are bound again before them."""
    found: Set[Tuple[str, int]] = set()
    for st in scope.statements:
        limit = len(scope.statements) if isinstance(st.node, (cst.FunctionDef, cst.ClassDef)) else st.index
        for site in st.run_sites:
            found |= plan_run(scope, site, limit).rebound
    return found
