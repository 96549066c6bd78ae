"""Give each statement of a scope its role and each name its kind (:mod:`tf_migrate.analysis.program` lists them)."""
from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst

from tf_migrate.analysis import api_tables as api, callables, collections, program as pm
from tf_migrate.analysis.api_checks import check_api, classify_plumbing
from tf_migrate.analysis.branch_placeholders import branch_placeholders, placeholder_lines
from tf_migrate.analysis.block_variables import classify_variable_block, computed_reads
from tf_migrate.analysis.built_objects import classify_built_object
from tf_migrate.analysis.covered_variables import filled_dict_item, filled_variable_item
from tf_migrate.analysis.run_sites import find_run_sites
from tf_migrate.analysis.dtypes import expression_dtype, placeholder_dtype
from tf_migrate.analysis.feed_dicts import feed_dict_literal
from tf_migrate.analysis.fed_gradients import record_targets
from tf_migrate.analysis.fed_rates import fed_rate, step_reads
from tf_migrate.analysis.function_locals import eager_locals
from tf_migrate.analysis.held_objects import bind_elements, bind_loop_elements, held_objects_loop
from tf_migrate.analysis.session_functions import own_session_runs
from tf_migrate.analysis.shadowed_runs import shadowed_run_blockers
from tf_migrate.analysis.instance_runs import mark_runs, writes_member_variable
from tf_migrate.analysis.escapes import escaped_reads
from tf_migrate.analysis.outside_state import kept_for_outside_state, outside_keys
from tf_migrate.analysis.expression_kinds import expression_kind
from tf_migrate.analysis.modules import instance_members
from tf_migrate.analysis.optimizer_choices import classify_optimizer_choice
from tf_migrate.analysis.statement_facts import (calls_method_on, check_by_name, check_feed_objects,
                                                 draws_from_distribution, mutates_variable_list,
                                                 only_initializer_assignments, single, targets_single,
                                                 variable_literal)
from tf_migrate.analysis.symbols import all_calls, callee_name, reads, symbol_key, value_reads, writes
from tf_migrate.cst.arguments import argument
from tf_migrate.tfnames import TFNames

_TENSORISH = {pm.LAYER, pm.PLACEHOLDER, pm.STRUCT, pm.TENSOR, pm.TENSORS, pm.GRADS_AND_VARS, pm.VARIABLE, pm.VARIABLES, pm.EAGER}


class Classifier:
    def __init__(self, scope: "pm.Scope", names: TFNames, statements: Sequence[cst.CSTNode] = (),
                 bind_members=None) -> None:
        """``bind_members(statement)``: binds the members of an object the statement builds (object_members)."""
        self.scope, self.bind_members = scope, bind_members
        self.kept_members = callables.kept_members(scope, names)  # class -> members its conversion keeps
        self.names = names
        self.statements = statements  # every statement of the scope, the ones not classified yet included
        self.variable_functions = scope.variable_functions  # user functions that create variables
        self.tensor_functions = scope.tensor_functions  # user functions whose every return is a TF op's result
        # State outside the object that a class's __init__ changes (analysis/outside_state).
        self.outside = outside_keys(statements, scope.params, set(names.aliases)) if scope.is_class else set()

    # -- queries used by run-site matching -------------------------------------------------
    def is_session(self, expr: cst.BaseExpression) -> bool:
        key = symbol_key(expr)
        if key is not None:
            if key in self.scope.sessions:
                return True
            kind = self.scope.kind(key)
            return kind is None and key.split(".")[-1] in ("sess", "session")
        if isinstance(expr, cst.Call):
            qualname = self.names.call_name(expr)
            return qualname in api.SESSIONS or qualname == "tf.get_default_session"
        return False

    def kind_of(self, expr: cst.BaseExpression) -> Optional[str]:
        return expression_kind(expr, self.scope, self.names)

    # -- classification --------------------------------------------------------------------
    def block(self, node: cst.CSTNode, reason: str) -> None:
        self.scope.blockers.append((node, reason))

    def define(self, st: "pm.Statement", kind: str, call: Optional[cst.Call] = None, **info) -> None:
        if kind in (pm.VARIABLE, pm.VARIABLES) and filled_variable_item(st.node, self.scope, st.index, self.names):
            kind = pm.VARIABLES  # `weights['W1'] = tf.Variable(...)`: binds the dict, one variable more
            info["mapping"] = info["filled"] = True
        st.kind = kind
        targets, value = single(st.node)
        single_value = kind in pm.DEFERRED_KINDS | {pm.EAGER} and targets is not None and symbol_key(targets)
        dtype = expression_dtype(call or value, self.scope, st.index, self.names) if single_value else None
        if kind == pm.VARIABLES and isinstance(value, (cst.Dict, cst.DictComp)):
            info["mapping"] = True
            if filled_dict_item(st.node, self.scope, st.index, self.names):
                info["nested"] = True
        declared = branch_placeholders(st.node, self.names)  # `if flag: self.w = tf.placeholder(...)`: fed, its dtype
        declared = {key: call for key, call in declared.items()  # (declared with other dtypes: each line casts)
                    if call is not None or all(placeholder_dtype(line.body[0].value, self.names) for line in
                                               placeholder_lines(st.node, {key}, self.names).values())}
        if declared:
            self.scope.branch_placeholders[st.index] = declared
        for key in st.defines:
            key_dtype = expression_dtype(declared[key], self.scope, st.index, self.names) if declared.get(key) else (
                None if key in declared else dtype)
            self.scope.bind(pm.Symbol(key, kind, st.index, call, dtype=key_dtype, **info))

    def classify(self, index: int, flat) -> "pm.Statement":
        st = self._classify(index, flat)
        if self.bind_members is not None:
            self.bind_members(st)  # after the statement's own bindings, which name the object
        bind_loop_elements(st, self.scope, self.names, _TENSORISH, self.block)  # for out in outs, for layer in self.layers
        return st

    def _classify(self, index: int, flat) -> "pm.Statement":
        node = flat.node
        st = pm.Statement(index, flat)
        st.defines = writes(node)
        if not (isinstance(node, cst.SimpleStatementLine) and isinstance(node.body[0], (cst.Import, cst.ImportFrom))):
            st.defines = [k for k in st.defines if k not in self.names.aliases]  # modules are not rebound here
        st.reads = value_reads(node) | flat.extra_deps
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return self._classify_def(st, node)
        if id(node) in self.scope.own_scope_blocks:  # a main guard that builds and runs its own graph
            st.role = pm.KEEP
            self.define(st, pm.PYTHON)
            st.kind = "nested-scope"
            return st
        bind_elements(node, index, self.scope, _TENSORISH)  # `for out in outs`, `for layer in self.layers`: each
        st.run_sites = find_run_sites(node, self.is_session, self.kind_of)
        mark_runs(st.run_sites, self.scope, self.kept_members, self.statements, self.scope.instances, self.block)
        calls = all_calls(node)
        qualnames = [q for q in (self.names.call_name(c) for c in calls) if q]
        check_api(self, node, calls)
        callables.check_knowledge(st, calls, self.scope, self.names, self.kind_of, self.block)
        st.random = any(map(api.is_random_op, qualnames)) or any(
            draws_from_distribution(call, self.scope, self.names) for call in calls)
        st.per_run_effect = any(q in api.PER_RUN_EFFECT_OPS for q in qualnames)
        st.python_effect = next(filter(None, (callables.python_effect(c, self.scope, self.names) for c in calls)), None)
        st.gradient = any(q in api.GRADIENTS for q in qualnames)
        if st.gradient:
            record_targets(st, [c for c in calls if self.names.call_name(c) in api.GRADIENTS], self.scope, self.names)
        collections.resolve_statement(st, calls, self.scope, self.names, self.block, self.statements)
        if isinstance(node, cst.If) and not st.run_sites and only_initializer_assignments(node, self.names):
            st.role = pm.REMOVE  # if old TF: init = initialize_all_variables() else: init = global_...()
            self.define(st, pm.INIT)
            return st
        if classify_optimizer_choice(self, st):  # if adam: opt = tf.train.AdamOptimizer(lr) else: opt = ...
            return st
        targets, value = single(node)
        callables.record_callables(st, targets, value, self.scope, self.names)
        if self._is_layer_build(value) and not st.defines:
            self.scope.symbols[symbol_key(value.func.value)].built = True
            st.role = pm.KEEP  # dense.build((None, 8)) / set_weights: the layer's variables exist from here on
            return st
        if self._is_layer_method(value, "compute_output_shape") and st.defines \
                and not any(self.scope.deferred(k) for k in reads(value)):
            st.role = pm.KEEP  # h_shape = dense.compute_output_shape(h_shape): a static shape, known where built
            self.define(st, pm.PYTHON)
            return st
        if value is not None and st.defines and not isinstance(value, cst.Call) and self.is_session(value):
            self.scope.sessions.update(st.defines)  # self.sess = sess
            st.role = pm.REMOVE
            self.define(st, pm.SESSION)
            return st
        for call in calls:
            if (call is not value and isinstance(call.func, cst.Attribute)
                    and call.func.attr.value in ("minimize", "compute_gradients")
                    and self.kind_of(call.func.value) == "optimizer"):
                self.block(call, "optimizer call nested inside an expression: bind it to a name first")
        if classify_plumbing(self, st, value):
            return st
        if classify_built_object(self, st, targets, value):
            return st
        if isinstance(value, cst.Call) and targets is not None and self._classify_definition(st, value):
            return st
        if self.scope.is_class and kept_for_outside_state(self, st, self.outside):
            return st
        self._classify_generic(st, calls, qualnames)
        lazy = next((c for c in calls if id(c) in self.scope.lazy_collections), None)
        if st.defines and st.role == pm.KEEP and lazy is not None:
            st.role = pm.DEFER  # reads layer variables, which exist once the layers have run
            self.define(st, pm.STRUCT)
        elif st.role == pm.KEEP and lazy is not None:
            self.block(lazy, "this line reads the variables of Keras layers that exist once they have been called "
                             "(their input width is not known where they are built), before any run calls them")
        return st

    def _is_layer_build(self, value) -> bool:
        return self._is_layer_method(value, "build") or self._is_layer_method(value, "set_weights")

    def _is_layer_method(self, value, method: str) -> bool:
        return (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == method
                and self.scope.kind(symbol_key(value.func.value) or "") == pm.LAYER)

    def _classify_definition(self, st, call: cst.Call) -> bool:
        qualname = self.names.call_name(call)
        deferred_reads = escaped_reads(call, [], self.scope)
        if qualname in api.PLACEHOLDERS:
            st.role = pm.DEFER
            self.define(st, pm.PLACEHOLDER, call)
            return True
        if qualname in api.SAVERS:
            st.role = pm.KEEP  # a checkpoint writer holds variables; it is no graph op
            self.define(st, pm.SAVER, call)
            var_list = call.args[0].value if call.args and call.args[0].keyword is None else argument(call, "var_list")
            if not isinstance(var_list, cst.Dict):
                self.block(call, "an eager tf.train.Saver needs var_list={TF1 name: variable}")
            if deferred_reads:
                self.block(call, "a Saver of per-run tensors")
            return True
        if qualname in api.VARIABLE_COLLECTIONS and not collections.reads_regularization(call, qualname, self.names):
            if id(call) in self.scope.lazy_collections:
                st.role = pm.DEFER  # holds layer variables, which exist once the layers have run
                self.define(st, pm.STRUCT)
            else:
                st.role = pm.KEEP
                self.define(st, pm.VARIABLES)
            return True
        if qualname is not None and qualname.startswith("tf.keras.layers.") and targets_single(st):
            st.role = pm.KEEP
            tf_name = self.scope.layer_scopes.get(st.defines[0]) or "/".join(st.flat.scope_path + [st.defines[0]])
            weightless = qualname.rsplit(".", 1)[-1] in api.WEIGHTLESS_LAYERS
            self.define(st, pm.LAYER, call, tf_name=tf_name, built=weightless, weightless=weightless)
            self.scope.add_trainable(st.defines)
            return True
        members = instance_members(call, self.scope, self.names) if targets_single(st) else None
        if members is not None:
            st.role = pm.KEEP  # a tf.Module whose variables exist from its construction
            self.define(st, pm.LAYER, call, built=True, members=members)
            self.scope.add_trainable(st.defines)
            if deferred_reads:
                self.block(call, "a tf.Module built from per-run tensors")
            return True
        if qualname in api.VARIABLE_CONSTRUCTORS:
            st.role = pm.KEEP
            trainable = argument(call, "trainable")
            is_trainable = not (isinstance(trainable, cst.Name) and trainable.value == "False")
            name_arg = argument(call, "name")
            base = name_arg.evaluated_value if isinstance(name_arg, cst.SimpleString) else "Variable"
            self.define(st, pm.VARIABLE, call, trainable=is_trainable,
                         tf_name="/".join(st.flat.scope_path + [base]))
            if is_trainable:
                self.scope.add_trainable(st.defines)
            else:
                self.scope.add_created(st.defines)
            if deferred_reads:
                self.block(call, "a variable's initial value depends on a placeholder or a per-run tensor")
            return True
        if qualname is not None and api.is_optimizer_constructor(qualname):
            st.role = pm.KEEP
            rate = fed_rate(call, st, self.scope, self.names, self.statements, self.block) if deferred_reads else None
            self.define(st, pm.OPTIMIZER, call, keras=api.is_keras_optimizer(qualname), rate=rate)
            return True
        if qualname in api.GRADIENTS:
            st.role, st.gradient = pm.DEFER, True
            inputs = call.args[1].value if len(call.args) > 1 and call.args[1].keyword is None else None
            single = qualname in (api.PFOR_JACOBIAN, api.PFOR_BATCH_JACOBIAN) and not isinstance(
                inputs, (cst.List, cst.Tuple))
            unpacked = len(st.defines) > 1  # da, dk = tf.gradients(f, [a, k]): one tensor each
            self.define(st, pm.TENSOR if single or unpacked else pm.TENSORS, call)
            return True
        if isinstance(call.func, cst.Attribute) and self.kind_of(call.func.value) == "optimizer":
            method = call.func.attr.value
            if method in ("minimize", "compute_gradients", "apply_gradients"):
                st.reads |= step_reads(self.scope, call)  # a learning rate fed per run
                st.role = pm.DEFER
                st.gradient = method != "apply_gradients"
                if st.gradient:
                    record_targets(st, [call], self.scope, self.names)
                self.define(st, pm.GRADS_AND_VARS if method == "compute_gradients" else pm.OP, call)
                return True
        return False

    def _classify_generic(self, st, calls, qualnames) -> None:
        graph_reads = {k for k in st.reads if self.scope.kind(k) in _TENSORISH}
        # Per-run values read for their value (not a placeholder's declared shape, not a feed key).
        deferred_reads = (escaped_reads(st.node, [], self.scope) | st.flat.extra_deps & graph_reads) | {
            k for k in graph_reads if self.scope.kind(k) in (pm.VARIABLE, pm.VARIABLES, pm.LAYER)}
        tf_calls = [q for q in qualnames if q.startswith("tf.") and not q.startswith(api.HOST_CALL_PREFIXES)]
        calls_variable_fn = [c for c in calls if callee_name(c) in self.variable_functions]
        if st.run_sites:
            st.role = pm.RUN
            self.define(st, pm.PYTHON)
            for site in st.run_sites:
                check_by_name(site, self.block)
                check_feed_objects(site, self.scope, self.block)
            return
        if any(q in api.VARIABLE_CONSTRUCTORS for q in tf_calls) and isinstance(st.node, cst.BaseCompoundStatement):
            classify_variable_block(self, st)
            return
        if held_objects_loop(self, st):  # for M2 in sizes: self.layers.append(HiddenLayer(M1, M2))
            return
        if any(q in api.VARIABLE_CONSTRUCTORS for q in tf_calls):
            st.role = pm.KEEP
            self.define(st, pm.VARIABLES)
            targets, _ = single(st.node)
            if isinstance(targets, (cst.Tuple, cst.List)):  # w, b = [tf.Variable(v) for v in ...]: one each
                if any(isinstance(e, cst.StarredElement) for e in targets.elements):
                    self.block(st.node, "starred unpacking of variables (`w, *rest = ...`)")
                for element in targets.elements:
                    key = symbol_key(element.value)
                    if key is not None:
                        self.scope.bind(pm.Symbol(key, pm.VARIABLE, st.index))
            self.scope.add_trainable(st.defines)
            if deferred_reads - {k for k in deferred_reads if self.scope.kind(k) in (pm.VARIABLE, pm.VARIABLES)}:
                self.block(st.node, "variables created from per-run tensors")
            return
        if calls_variable_fn and not (deferred_reads or graph_reads) and st.defines and isinstance(
                st.node, cst.SimpleStatementLine):
            st.role = pm.KEEP  # W = weight_variable(shape): a variable built by a helper (not a block calling one)
            self.define(st, pm.VARIABLE)
            self.scope.add_trainable(st.defines)
            return
        if calls_variable_fn and (deferred_reads or tf_calls or graph_reads):  # (graph_reads: a tensor made once)
            self.block(calls_variable_fn[0], f"`{callee_name(calls_variable_fn[0])}` creates variables each "
                        "time it is called on graph tensors; the helper-modules rule did not make it a tf.Module "
                        "(it does so for helpers defined at module level)")
        targets, value = single(st.node)
        if variable_literal(value, self.scope) and len(st.defines) == 1:
            st.role = pm.KEEP  # net = [W1, b1, W2, b2]: a list of the variables themselves
            self.define(st, pm.VARIABLES)
            return
        alias_of = symbol_key(value) if value is not None else None
        if alias_of is not None and self.scope.kind(alias_of) in (pm.VARIABLE, pm.LAYER, pm.OPTIMIZER, pm.VARIABLES):
            st.role = pm.KEEP  # v_again = v: another name for the same object
            source = self.scope.symbols[alias_of]
            self.define(st, source.kind, source.call, trainable=source.trainable, keras=source.keras,
                         tf_name=source.tf_name)
            return
        if writes_member_variable(value, self.scope, self.kept_members):
            st.role = pm.DEFER  # net.w.assign_add(...): runs where a run fetches it
            self.define(st, pm.OP)
            return
        reordered = mutates_variable_list(value, self.scope, st.index)  # encoder.reverse(): variables still
        if not tf_calls and (reordered or not graph_reads & (  # or only static shapes read (at module level)
                computed_reads(st.node) if not self.scope.is_class else graph_reads)):
            st.role = pm.KEEP
            self.define(st, pm.VARIABLES if reordered else pm.PYTHON)
            return
        if feed_dict_literal(self.scope, self.statements, targets, value, _TENSORISH, self.block):
            st.role = pm.KEEP  # a feed dict: its keys become strings
            self.define(st, pm.PYTHON)
            return
        # writer.close() on an eager object is Python; t.assign(...) on a graph value builds an op.
        per_run = {k for k in graph_reads if self.scope.kind(k) not in (pm.EAGER,)}
        top_is_op = isinstance(value, cst.Call) and (
            (self.names.call_name(value) or "").startswith("tf.") or calls_method_on(value, per_run))
        if not st.defines and not top_is_op:
            st.role = pm.KEEP  # print(t) and friends: Python reading graph values (checked as an escape)
            self.define(st, pm.PYTHON)
            return
        if isinstance(value, cst.Call) and self.kind_of(value) == "op":
            st.role = pm.DEFER
            self.define(st, pm.OP)
            return
        if deferred_reads or not st.defines:
            st.role = pm.DEFER
            kind = pm.TENSOR
            targets, value = single(st.node)
            if isinstance(value, cst.Call) and self.kind_of(value) == "op":
                kind = pm.OP
            elif isinstance(value, (cst.List, cst.Tuple, cst.Dict, cst.ListComp, cst.DictComp)) or (
                    isinstance(value, cst.Call) and (self.kind_of(value) is None
                                                     or callee_name(value) in self.scope.structure_functions)
                    and callee_name(value) not in self.tensor_functions):
                kind = pm.STRUCT
            self.define(st, kind)
            return
        st.role = pm.KEEP
        self.define(st, pm.EAGER)

    def _classify_def(self, st, node) -> "pm.Statement":
        st.role = pm.KEEP
        self.define(st, pm.PYTHON)
        body_calls = all_calls(node)
        qualnames = {self.names.call_name(c) for c in body_calls}
        callables.summarize_definition(node, body_calls, self.scope, self.names)
        if qualnames & (api.PLACEHOLDERS | api.SESSIONS) or _runs_held_objects(node, body_calls, self.names):
            # a scope of its own, or a main() on this graph; a class given an object to run (held_graph_objects)
            st.run_sites = own_session_runs(node, self.scope, self.names, self.statements, self.is_session, self.kind_of)
            if st.run_sites is None:
                st.run_sites, st.kind = [], "nested-scope"  # analysed as a scope of its own
            return st
        check_api(self, node, body_calls)
        st.run_sites = find_run_sites(node, self.is_session, self.kind_of)
        for blocked, reason in shadowed_run_blockers(node, st.run_sites, lambda f: eager_locals(f, self.scope)):
            self.block(blocked, reason)
        return st


def _runs_held_objects(node, body_calls, names: TFNames) -> bool:
    """A class given objects of graph classes (``Train(sess, net)``, analysis/held_graph_objects) whose methods run
    a session."""
    return isinstance(node, cst.ClassDef) and bool(names.held_parameters.get(node.name.value)) and any(
        isinstance(call.func, cst.Attribute) and call.func.attr.value == "run" for call in body_calls)
