"""Build the program model of one scope: classify each statement, then the whole-scope passes.

:mod:`tf_migrate.analysis.program` holds the model's types and kinds, which the classifier and
the passes build on; this module puts them together.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, Optional, Tuple

import libcst as cst

from tf_migrate.analysis.batch_norm_updates import batch_norm_blockers, scope_run_sites
from tf_migrate.analysis import program as pm
from tf_migrate.analysis import scope_passes
from tf_migrate.analysis.fed_strings import check_fed_strings
from tf_migrate.analysis.graph_only_attributes import check_graph_only_attributes
from tf_migrate.analysis.later_changes import check_given_objects
from tf_migrate.analysis.printed_values import check_printed_values
from tf_migrate.analysis.object_reinitialization import check_object_reinitialization
from tf_migrate.analysis.reinitialization import check_reinitialization
from tf_migrate.analysis.seeded_sessions import check_seeded_sessions
from tf_migrate.analysis.build_blocks import check_build_blocks, check_deferred_calls
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.flatten import unwrap
from tf_migrate.analysis.function_initializers import check_function_initializers
from tf_migrate.analysis.imported_helpers import add_imported
from tf_migrate.analysis.instance_runs import check_parameter_objects, mark_function_runs, parameter_instances
from tf_migrate.analysis.covered_variables import mark_covered_variables
from tf_migrate.analysis.main_guard import main_guard_scopes
from tf_migrate.analysis.run_graphs import check_function_runs_across_graphs, statement_graphs
from tf_migrate.analysis.object_members import bind_built_object
from tf_migrate.analysis.session_escapes import check_session_escapes
from tf_migrate.analysis.variable_places import check_optimizer_places, check_variable_places
from tf_migrate.tfnames import TFNames
from tf_migrate.traversal import remember


def analyze_scope(body, names: TFNames, params: Tuple[str, ...] = (), is_class: bool = False,
                  layer_scopes: Optional[Dict[str, str]] = None, parent: Optional[pm.Scope] = None,
                  known_callables: Tuple[str, ...] = (), known_effects: Tuple[Tuple[str, str], ...] = ()) -> pm.Scope:
    """Build the program model of one block of statements.

    The same statements (unchanged nodes keep their identity) with the same arguments give the
    same model, so it is built once per file: the eager/compat decision, session-to-functions and
    graph-function-inputs all ask for it. Callers read the model; they must not change it.
    ``known_callables``: parameters known to hold TensorFlow functions (``transfer_fct=tf.nn.softplus`` of a class
    no construction gives another, analysis/held_graph_objects.function_parameters). ``known_effects``: (callable,
    what it does in Python) of callables the block does not define (a class's methods, ``self.step``).
    """
    body = list(body)
    key = ("scope", tuple(map(id, body)), tuple(params), is_class, tuple(sorted((layer_scopes or {}).items())),
           id(parent), tuple(sorted(names.aliases.items())), tuple(sorted(names.v1_module_aliases)), tuple(sorted(names.imported)),
           tuple(known_callables), tuple(known_effects))
    return remember(key, (body, parent), lambda: _analyze_scope(body, names, params, is_class, layer_scopes, parent,
                                                                 known_callables, known_effects))


def _analyze_scope(body, names: TFNames, params: Tuple[str, ...], is_class: bool,
                   layer_scopes: Optional[Dict[str, str]], parent: Optional[pm.Scope],
                   known_callables: Tuple[str, ...] = (), known_effects: Tuple[Tuple[str, str], ...] = ()) -> pm.Scope:
    flat = unwrap(body, names)
    scope = pm.Scope([], {}, set(flat.sessions), flat.withs, [], [], is_class=is_class,
                     layer_scopes=dict(layer_scopes or {}))
    scope.local_callables.update(known_callables)
    scope.function_effects.update(known_effects)
    if parent is not None:
        for key, symbol in parent.symbols.items():
            if symbol.kind in pm.INHERITED_KINDS and key not in params:
                scope.bind(replace(symbol, index=-1))
        scope.trainable_order = [k for k in parent.trainable_order if k in scope.symbols]
        scope.creation_order = [k for k in parent.creation_order if k in scope.symbols]
        scope.variable_functions |= parent.variable_functions - set(params)
        scope.tensor_functions |= parent.tensor_functions - set(params)
        scope.structure_functions |= parent.structure_functions - set(params)
        scope.opaque_functions.update((k, v) for k, v in parent.opaque_functions.items() if k not in params)
        scope.function_updates.update((k, v) for k, v in parent.function_updates.items() if k not in params)
        scope.function_steps.update((k, v) for k, v in parent.function_steps.items() if k not in params)
        scope.function_effects.update((k, v) for k, v in parent.function_effects.items() if k not in params)
        scope.variable_classes |= parent.variable_classes - set(params)
        scope.local_callables |= parent.local_callables - set(params)
        outer = dict(parent.outer_functions)
        outer.update((st.node.name.value, st.node) for st in parent.statements if isinstance(st.node, cst.FunctionDef))
        scope.outer_functions.update((name, node) for name, node in outer.items() if name not in params)
        scope.class_defs.update((k, v) for k, v in parent.class_defs.items() if k not in params)
        scope.instances.update(parameter_instances(  # def train(sess, model): train(sess, net)
            body, params, parent, names.tree_helpers.graph_classes))
    else:
        add_imported(scope, names, set(params))
    scope.params = set(params)
    scope.own_scope_blocks = main_guard_scopes([f.node for f in flat.statements], names)
    for param in params:
        if param in ("sess", "session") or param.endswith("_sess") or param.endswith("session"):
            scope.sessions.add(param)
    scope.graphs = statement_graphs(flat.statements, names)
    classifier = Classifier(scope, names, [f.node for f in flat.statements],
                            lambda st: bind_built_object(st, scope, names, classifier.block))
    for index, flat_stmt in enumerate(flat.statements):
        scope.statements.append(classifier.classify(index, flat_stmt))
    mark_function_runs(scope, classifier.kept_members, classifier.block, names.tree_helpers.graph_classes)
    mark_covered_variables(scope)  # (W appended to Ws after the loop that fills Ws: listed once, through Ws)
    for st in scope.statements:  # the runs of functions given a session, planned here (`def evaluate(sess, model)`)
        if isinstance(st.node, cst.FunctionDef) and st.kind != "nested-scope":
            check_parameter_objects(st.node, st.run_sites, classifier.block)
    scope_passes.settle_eager(classifier)
    scope_passes.check_escapes(classifier)
    check_printed_values(classifier)
    check_fed_strings(classifier)
    needed = scope_passes.check_run_plans(classifier)
    check_reinitialization(classifier)
    check_function_runs_across_graphs(classifier)
    check_object_reinitialization(classifier)
    check_seeded_sessions(classifier)
    for node, why in batch_norm_blockers(scope, names, scope_run_sites(scope)):
        classifier.block(node, why)
    check_function_initializers(classifier)
    check_session_escapes(classifier)
    scope_passes.check_tensor_equality(classifier)
    check_graph_only_attributes(classifier)
    scope_passes.check_global_bindings(classifier)
    check_given_objects(scope, names, classifier.block)
    check_variable_places(classifier)
    check_optimizer_places(classifier)
    check_build_blocks(classifier)
    check_deferred_calls(classifier)
    scope_passes.check_unneeded_effects(classifier, needed)  # (last: the blockers above say more)
    return scope
