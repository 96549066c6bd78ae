"""Build the eager function that replaces one ``sess.run``.

    def run_train_op_loss(x, y):
        x = tf.cast(x, tf.float32)            # what feeding did
        y = tf.cast(y, tf.float32)
        with tf.GradientTape() as tape:       # records what the gradients need
            pred = tf.matmul(x, W) + b
            loss = tf.reduce_mean((pred - y) ** 2)
        gradients = tape.gradient(loss, [W, b])
        optimizer.apply_gradients(...)
        return None, loss.numpy()             # the fetch structure, as numpy

The tape is *clean* when every gradient differentiates values computed
before the first gradient statement: those statements go inside the ``with``
and the gradient calls after it. Otherwise (gradients of gradients, a loss
built from a Jacobian) each gradient statement gets its own tape, nested: see
:mod:`tf_migrate.codegen.nested_tapes`. A gradient statement whose tape must record
it while it runs (ys built inline such as ``y[i]``, hessians) runs inside its
own, persistent tape.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Set

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.classify import Classifier
from tf_migrate.analysis.collections import container_part
from tf_migrate.analysis.fed_rates import rate_assignment
from tf_migrate.analysis.modules import member_list
from tf_migrate.analysis.slicing import RunPlan
from tf_migrate.analysis.statement_facts import single
from tf_migrate.analysis.symbols import all_calls, reads, symbol_key
from tf_migrate.codegen import gradients as grads
from tf_migrate.codegen import compiled
from tf_migrate.codegen.branch_lines import lower_branch_placeholders
from tf_migrate.codegen.fetch_reads import plan_reads
from tf_migrate.codegen.fetches import op_calls, to_numpy, to_tensors
from tf_migrate.codegen.local_bindings import OUTER, unshadow
from tf_migrate.codegen.nested_tapes import nested_tapes
from tf_migrate.codegen.optimizer_steps import lower_optimizer_call
from tf_migrate.codegen.replace import rename_keys, replace_nodes
from tf_migrate.codegen.tapes import Tapes, optimizer_call
from tf_migrate.cst.arguments import bind_known
from tf_migrate.cst.names import fresh as fresh_name, parameter_name
from tf_migrate.cst.text import code
from tf_migrate.tfnames import TFNames


def _stmt(code: str) -> cst.BaseStatement:
    return cst.parse_statement(code)


class FunctionBuilder:
    def __init__(self, scope: "pm.Scope", names: TFNames, tf: str, kind_of: Callable, taken: Set[str],
                 keras_variables: bool = False) -> None:
        """``keras_variables``: the module may train variables Keras layers own (``variable_owners``), which a
        TF1 optimizer is given as the tf.Variables they hold."""
        self.scope, self.names, self.tf, self.kind_of = scope, names, tf, kind_of
        self.taken = taken
        self.keras_variables = keras_variables
        self.tape = self._unused("tape")
        self.fed_keys: Set[str] = set()  # the keys the run being built feeds (its parameters)
        self._gathers: Optional[bool] = None  # whether the scope gathers rows (sparse gradients); asked once
        self.tapes = Tapes(scope, names, kind_of)  # where the run's tapes start, what they watch

    def _unused(self, stem: str) -> str:
        return fresh_name(stem, set(self.taken))  # local to each generated function: reserves no module name

    # -- parameters ------------------------------------------------------------------------
    def _conversion(self, key: str, symbol: Optional["pm.Symbol"]) -> str:
        """What feeding did to the argument: TF1 converts a fed value to the fed tensor's dtype."""
        name, tf = parameter_name(key), self.tf
        call = symbol.call if symbol is not None and symbol.kind == pm.PLACEHOLDER else None
        with_default = call is not None and (self.names.call_name(call) or "").endswith("placeholder_with_default")
        if call is not None and not with_default:
            dtype = bind_known(call, ["dtype", "shape", "name"]).get("dtype")
            if dtype is not None:
                dtype_code = code(dtype)
                if "string" in dtype_code:
                    return f"{name} = {tf}.convert_to_tensor({name}, {dtype_code})"
                return f"{name} = {tf}.cast({name}, {dtype_code})"
        if symbol is not None and symbol.dtype is not None:
            if symbol.dtype == "string":
                return f"{name} = {tf}.convert_to_tensor({name}, {tf}.string)"
            return f"{name} = {tf}.cast({name}, {tf}.{symbol.dtype})"
        if with_default:
            default = code(self._default(call))
            return f"{name} = {tf}.cast({name}, {tf}.convert_to_tensor({default}).dtype)"
        return f"{name} = {tf}.convert_to_tensor({name})"

    def _default(self, call: Optional[cst.Call]) -> Optional[cst.BaseExpression]:
        """The default value of a ``placeholder_with_default`` (None for other placeholders)."""
        if call is not None and (self.names.call_name(call) or "").endswith("placeholder_with_default"):
            return bind_known(call, ["input", "shape", "name"]).get("input")
        return None

    def _parameters(self, plan: RunPlan, converted=lambda name: True, constants: Optional[Dict[str, str]] = None):
        """The function's parameters and the lines that convert them as feeding did (where ``converted``).
        ``constants``: fed flags the function is compiled for (name -> literal): bound in its body instead."""
        constants = constants or {}
        required: List[str] = [parameter_name(k) for k, _ in plan.fed if parameter_name(k) not in constants]
        optional: List[str] = []
        prologue: List[str] = [f"{name} = {value}" for name, value in constants.items()]
        prologue += [self._conversion(k, plan.fed_symbols.get(k)) for k, _ in plan.fed
                     if converted(parameter_name(k)) and parameter_name(k) not in constants]
        for st in plan.unfed_placeholders:
            key = st.defines[0]
            name = parameter_name(key)
            symbol = self.scope.symbol_at(key, st.index + 1)
            default = self._default(symbol.call if symbol is not None else None)
            if default is None:
                required.append(name)
                if converted(name):
                    prologue.append(self._conversion(key, symbol))
            elif plan.open_feed:
                optional.append(name)
                prologue.append(f"{name} = {code(default)} if {name} is None else {name}")
                prologue.append(self._conversion(key, symbol))
            elif isinstance(default, (cst.Integer, cst.Float, cst.Name)):
                prologue.append(f"{name} = {code(default)}")  # a Python number or flag, as layers expect it
            else:
                prologue.append(f"{name} = {self.tf}.convert_to_tensor({code(default)})")
        params = [cst.Param(cst.Name(n)) for n in required]
        params += [cst.Param(cst.Name(n), default=cst.Name("None"), equal=cst.AssignEqual(
            cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))) for n in optional]
        star = cst.Param(cst.Name("unused_feeds")) if plan.open_feed else None
        return cst.Parameters(params=params, star_kwarg=star), prologue

    # -- body ------------------------------------------------------------------------------
    def lower(self, st: "pm.Statement", fresh) -> List[cst.BaseStatement]:
        node = replace_nodes(st.node, self.scope.replacements)
        if st.index in self.scope.branch_placeholders:
            node = lower_branch_placeholders(node, self.scope.branch_placeholders[st.index], self.fed_keys, self.names,
                                             self.tf)
        call = optimizer_call(st, self.kind_of)
        if call is not None:
            call = replace_nodes(call, self.scope.replacements)
            optimizer = self.scope.symbols.get(symbol_key(call.func.value) or "")
            keras = optimizer.keras if optimizer is not None else True
            target = st.defines[0] if st.defines else None
            dense = self.tf if keras and self._sums_sparse_rows(optimizer) else None
            layers = not keras and (self.keras_variables or any(
                s.kind == pm.LAYER and not (s.weightless or s.members)  # Keras, not tf.Module
                for s in self.scope.symbols.values()))
            lines = lower_optimizer_call(call, target, keras, self._default_var_list(st.index), self.tape, fresh,
                                         dense, self.tf if layers else None)
            assignment = rate_assignment(self.scope, call)  # this run's fed learning rate, before the step
            lines = [assignment, *lines] if assignment is not None else lines
            out = [_stmt(line) for line in lines]
            return [out[0].with_changes(leading_lines=_tidy(node.leading_lines))] + out[1:]
        if grads.gradient_calls(node, self.names):
            node = grads.rewrite_gradients(node, self.names, self.tape, self.scope, self.tf)
        return [node.with_changes(leading_lines=_tidy(node.leading_lines))]

    def _sums_sparse_rows(self, optimizer: Optional["pm.Symbol"]) -> bool:
        """Whether TF1's update summed repeated sparse-gradient rows where a Keras optimizer's would not (module
        doc of ``optimizer_steps``): the scope gathers from variables, and the optimizer is not linear in the
        gradient. Asked of Keras optimizers only: a tf.compat.v1.train one is TF1's and sums them itself."""
        constructor = self.names.call_name(optimizer.call) if optimizer is not None and optimizer.call else None
        if constructor in api.LINEAR_OPTIMIZERS:
            return False
        if self._gathers is None:
            self._gathers = any(self.names.call_name(call) in api.SPARSE_GRADIENT_OPS
                                for st in self.scope.statements for call in all_calls(st.node))
        return self._gathers

    def _default_var_list(self, before: int) -> str:
        parts = []
        for key in self.scope.trainable_order:
            symbol = self.scope.kept_symbol_at(key, before)
            if symbol is None or symbol.covered_by or not self.scope.same_graph(symbol.index, before):
                continue  # (appended to a list named here too; made in another graph)
            if symbol is not self.scope.symbol_at(key, before) and "." not in key:
                key = OUTER + key  # graph code rebinds the name in this function: the variable is the outer one
            if symbol.kind == pm.VARIABLE:
                parts.append(key)
            elif symbol.kind == pm.LAYER and symbol.members:
                parts.extend(member_list(key, symbol, trainable_only=True))
            elif symbol.kind == pm.LAYER and not symbol.weightless:
                parts.append(f"*{key}.trainable_variables")
            elif symbol.kind == pm.VARIABLES:
                parts.append(container_part(key, symbol))
        return "[" + ", ".join(parts) + "]"

    def build(self, plan: RunPlan, name: str, compile_it: bool = False, plain: bool = False) -> cst.FunctionDef:
        """The function for ``plan``: eager, returning numpy values; or, with ``compile_it`` (see
        :func:`tf_migrate.codegen.compiled.why_eager` first), a ``tf.function`` returning tensors; or, ``plain``,
        a function returning tensors that other generated functions call (an object's members)."""
        compile_it = compile_it or plain
        self.fed_keys = {key for key, _ in plan.fed}
        spec, python_params, specialized = compiled.signature(plan, self.scope, self.names, self.tf) \
            if compile_it and not plain else (None, [], {})
        params, prologue = self._parameters(
            plan, converted=lambda param: not compile_it or (spec is None and param not in python_params),
            constants=specialized)
        if compile_it:
            iterators = [cst.Param(cst.Name(key)) for key in compiled.iterator_parameters(plan, self.scope)]
            params = params.with_changes(params=[*params.params, *iterators])
        body: List[cst.BaseStatement] = [_stmt(line) for line in prologue]
        statements = plan.statements
        local_names: Set[str] = set()

        def fresh(stem: str) -> str:
            name = fresh_name(stem, self.taken | local_names)
            local_names.add(name)
            return name

        fetch = plan.site.fetch
        view = self.scope.at(plan.limit)  # the fetch names the values bound before the run site
        reads_at_start, reads_after, read_names, leaf_reads = plan_reads(
            statements, fetch, view, self.names, fresh) if plan.site.style != "op_run" else ([], {}, {}, {})
        body.extend(_stmt(line) for line in reads_at_start)
        gradient_positions = [i for i, s in enumerate(statements) if s.gradient]
        if not gradient_positions:
            for st in statements:
                body.extend(self.lower(st, fresh))
                body.extend(_stmt(line) for line in reads_after.get(st.index, []))
        elif not self.tapes.is_clean(statements) and (nested := nested_tapes(self, statements, plan, fresh,
                                                                        reads_after)) is not None:
            body.extend(nested)
        else:
            # one tape records the statements before the first gradient, and the gradients run after it; or,
            # where a gradient's ys are built inline or after an earlier gradient, it records them all
            split = gradient_positions[0] if self.tapes.is_clean(statements) else gradient_positions[-1] + 1
            at_start, after, stopped_after = self.tapes.watches(statements, plan)
            block = [_stmt(f"{item[1]} = {self.tf}.stop_gradient({item[1]})") if isinstance(item, tuple)
                     else _stmt(f"{self.tape}.watch({item})") for item in at_start]
            for st in statements[:split]:
                block.extend(self.lower(st, fresh))
                block.extend(_stmt(f"{key} = {self.tf}.stop_gradient({key})")
                             for key in stopped_after.get(st.index, []))
                block.extend(_stmt(f"{self.tape}.watch({key})") for key in after.get(st.index, []))
                block.extend(_stmt(line) for line in reads_after.get(st.index, []))
            persistent = "persistent=True" if split > gradient_positions[0] or sum(
                self.tapes.gradient_count(s) for s in statements) > 1 else ""
            with_stmt = _stmt(f"with {self.tf}.GradientTape({persistent}) as {self.tape}:\n    pass\n")
            body.append(with_stmt.with_changes(body=with_stmt.body.with_changes(body=block or with_stmt.body.body)))
            for st in statements[split:]:
                body.extend(self.lower(st, fresh))
                body.extend(_stmt(line) for line in reads_after.get(st.index, []))
        if plan.site.style != "op_run":
            kind_of = Classifier(view, self.names).kind_of
            body.extend(cst.SimpleStatementLine([cst.Expr(rename_keys(call, read_names))])
                        for call in op_calls(fetch, kind_of))  # ops built in the fetch run here
            value = to_tensors(fetch, view, kind_of) if compile_it else to_numpy(fetch, view, kind_of, self.tf)
            value = rename_keys(value, read_names)
            if not (isinstance(value, cst.Name) and value.value == "None"):
                body.append(cst.SimpleStatementLine([cst.Return(value)]))
        leaves = {leaf: cst.Name(target) for reads_of in leaf_reads.values() for leaf, target in reads_of.items()}
        body = [replace_nodes(statement, leaves) for statement in body] if leaves else body
        body = _without_unread_no_ops(body, self.names)
        body = [rename_keys(statement, _renamed_parameters(plan)) for statement in body]
        param_names = {param.name.value for param in params.params}
        body = unshadow(body, param_names, set(self.taken) | local_names | param_names)
        if not body:
            body.append(_stmt("pass"))
        decorators = [compiled.decorator(spec, self.tf)] if compile_it and not plain else []
        return cst.FunctionDef(name=cst.Name(name), params=params, body=cst.IndentedBlock(body),
                               decorators=decorators, leading_lines=[cst.EmptyLine(indent=False)])


def _renamed_parameters(plan: RunPlan) -> Dict[str, str]:
    """The program's names of fed values the function takes under another name (``_inputs`` as ``inputs``:
    :func:`~tf_migrate.cst.names.parameter_name`). Members (``self._X``) are renamed where the function becomes a
    method or reads an object's members."""
    return {key: parameter_name(key) for key in plan.parameter_keys if "." not in key and parameter_name(key) != key}


def _without_unread_no_ops(body: List[cst.BaseStatement], names: TFNames) -> List[cst.BaseStatement]:
    """``train_op = tf.no_op()`` or ``tf.group(train_step, ema_op)`` of named ops that nothing after it reads:
    what it waited for (``control_dependencies``, the grouped ops) ran before it, in program order, so in eager
    code it does nothing (and an optimizer step's name is no longer bound: the tape code replaced it)."""
    kept: List[cst.BaseStatement] = []
    for index, statement in enumerate(body):
        target, value = single(statement)
        key = symbol_key(target) if target is not None else None
        if (isinstance(value, cst.Call) and _waits_only(value, names) and key is not None
                and not any(key in reads(later) for later in body[index + 1:])):
            continue
        kept.append(statement)
    return kept


def _waits_only(call: cst.Call, names: TFNames) -> bool:
    qualname = names.call_name(call)
    if qualname == "tf.no_op":
        return True
    if qualname != "tf.group" or not call.args:
        return False
    grouped = [a.value for a in call.args if a.keyword is None]
    if len(grouped) == 1 and isinstance(grouped[0], (cst.List, cst.Tuple)):
        grouped = [e.value for e in grouped[0].elements]
    return all(isinstance(g, cst.Name) for g in grouped) and all(
        a.keyword is None or a.keyword.value == "name" for a in call.args)


def _tidy(lines):
    """Leading lines of a moved statement: its comments, not the blank lines that separated graph code."""
    return [line for line in lines if line.comment]
