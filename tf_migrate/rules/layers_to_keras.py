"""tf.layers.* calls -> Keras layer objects built once, called where the graph called them.

    h = tf.layers.dense(x, 64, activation=tf.nn.relu, name="fc1")
becomes
    fc1 = tf.keras.layers.Dense(units=64, activation=tf.nn.relu, name="fc1")
    h = fc1(x)

On TF 2.16+ (Keras 3) ``tf.compat.v1.layers`` does not run at all, so this is
the only way such programs run on a plain TF2 install. Every TF1 argument is
carried over; TF1's defaults equal Keras' (glorot_uniform kernels, zero
biases, batch norm momentum 0.99 / epsilon 1e-3) except ``training``, which
TF1 defaults to False and is therefore always passed to the call.

Layers built inside a function are built once, at module level, which is what
``reuse=True`` / ``AUTO_REUSE`` did: before the first statement that calls the
function, where TF1 made their variables (so collections list them in TF1's
order), or before the function where that statement is not known.
A layer configured by a parameter (``tf.layers.dense(h, out_dim)``) is
configured by the value every call passes (``generator(z, input_size)`` and
``generator(z, input_size, reuse=True)``: ``Dense(units=input_size)``); where
calls pass different values it is left alone. A function that builds layers
and is called more than once without reuse (each call made new variables in
TF1) builds them in its body, at each call (``l1 = tf.keras.layers.Dense(...)``,
``h = l1(x)``), where ``helper-modules`` makes it a ``tf.Module``: one instance,
holding its layers, per call. Layers built in a module-level ``for`` loop are built in its body, at each
iteration (``split-build-loops`` then makes them in a first loop); layers in other loops are left alone.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis.symbols import reads, writes
from tf_migrate.cst.arguments import argument, keyword
from tf_migrate.cst.names import fresh, substituted
from tf_migrate.cst.text import code
from tf_migrate.rules._layer_variable_markers import resolve_markers
from tf_migrate.rules._hoisting import (call_counts, first_calling_statement, fixed_arguments, how_called,
                                       opens_session, reuses)
from tf_migrate.rules._layer_shapes import LayerShapes
from tf_migrate.rules._per_call_layers import per_call_layers, per_iteration_layers
from tf_migrate.report import INFO, WARNING
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.traversal import all_nodes, visit

RULE_ID = "layers-to-keras"

_CONV = ["filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "activation",
         "use_bias", "kernel_initializer", "bias_initializer", "kernel_regularizer", "bias_regularizer",
         "activity_regularizer", "kernel_constraint", "bias_constraint", "trainable", "name", "reuse"]
_CONV_T = [p for p in _CONV if p != "dilation_rate"]
_POOL = ["pool_size", "strides", "padding", "data_format", "name"]
# TF1 function -> (Keras class, TF1 parameters after `inputs`, parameters that go to the call)
LAYERS: Dict[str, Tuple[str, List[str], Set[str]]] = {
    "dense": ("Dense", ["units", "activation", "use_bias", "kernel_initializer", "bias_initializer",
                        "kernel_regularizer", "bias_regularizer", "activity_regularizer", "kernel_constraint",
                        "bias_constraint", "trainable", "name", "reuse"], set()),
    "conv1d": ("Conv1D", _CONV, set()), "conv2d": ("Conv2D", _CONV, set()), "conv3d": ("Conv3D", _CONV, set()),
    "conv2d_transpose": ("Conv2DTranspose", _CONV_T, set()),
    "conv3d_transpose": ("Conv3DTranspose", _CONV_T, set()),
    "max_pooling1d": ("MaxPooling1D", _POOL, set()), "max_pooling2d": ("MaxPooling2D", _POOL, set()),
    "max_pooling3d": ("MaxPooling3D", _POOL, set()), "average_pooling1d": ("AveragePooling1D", _POOL, set()),
    "average_pooling2d": ("AveragePooling2D", _POOL, set()),
    "average_pooling3d": ("AveragePooling3D", _POOL, set()),
    "dropout": ("Dropout", ["rate", "noise_shape", "seed", "training", "name"], {"training"}),
    "flatten": ("Flatten", ["name", "data_format"], set()),
    "batch_normalization": ("BatchNormalization", [
        "axis", "momentum", "epsilon", "center", "scale", "beta_initializer", "gamma_initializer",
        "moving_mean_initializer", "moving_variance_initializer", "beta_regularizer", "gamma_regularizer",
        "beta_constraint", "gamma_constraint", "training", "trainable", "name", "reuse", "renorm",
        "renorm_clipping", "renorm_momentum", "fused", "virtual_batch_size", "adjustment"], {"training"}),
}
_TRAINING_DEFAULT = {"dropout", "batch_normalization"}
_DROPPED = {"reuse", "fused"}
_UNSUPPORTED = {"renorm", "renorm_clipping", "renorm_momentum", "virtual_batch_size", "adjustment"}
# Keras layers built where constructed when their input's width is known -> the rank of that input.
_BUILDABLE = {"Dense": 2, "BatchNormalization": 2, "Conv1D": 3, "Conv2D": 4, "Conv3D": 5, "Conv2DTranspose": 4,
              "Conv3DTranspose": 5}


class LayersToKeras(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = "tf.layers.* -> Keras layer objects built once (hoisted out of functions), called where TF1 called them"
    ORDER = 50
    TRIGGERS = ("layers",)

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        return _Hoister(ctx, module).run()


class _Hoister:
    def __init__(self, ctx: RuleContext, module: cst.Module) -> None:
        self.ctx, self.module = ctx, module
        self.taken: Set[str] = {k.split(".")[-1] for k in reads(module)} | set(writes(module))
        self.call_counts = call_counts(module)
        self.shapes = LayerShapes(module, ctx.names)
        self.function: Optional[str] = None  # the module-level function being converted
        self.scope_stack: List[str] = []  # variable_scope names around the statement being converted
        self._pushed: List[int] = []
        self.reusing: List[cst.Call] = []  # the `variable_scope(..., reuse=True)` calls around it
        self._reuse_pushed: List[bool] = []
        self.fixed: Dict[str, cst.BaseExpression] = {}  # parameters of that function every call gives one value
        self.deferred: Dict[int, List[cst.BaseStatement]] = {}  # module statement index -> layers built before it
        self.built: Set[str] = set()  # layers built where they are constructed: their variables exist from there
        # (scoped TF1 name, Keras class, constructor arguments) -> the module-level layer named so in the text
        self.module_layers: Dict[Tuple[str, str, str], str] = {}
        self.per_call = False  # building a helper's layers in its body, at each call (_per_call)

    def enter_with(self, node: cst.With) -> None:
        pushed = 0
        for item in node.items:
            call = item.item
            # (a name scope does not name variables: TF1's layers took their names from the variable scope alone)
            if isinstance(call, cst.Call) and self.ctx.names.call_name(call) == "tf.variable_scope" \
                    and call.args and isinstance(call.args[0].value, cst.SimpleString):
                self.scope_stack.append(call.args[0].value.evaluated_value)
                pushed += 1
        self._pushed.append(pushed)
        reusing = next((item.item for item in node.items if self._shares_variables(item.item)), None)
        if reusing is not None:
            self.reusing.append(reusing)
        self._reuse_pushed.append(reusing is not None)

    def leave_with(self) -> None:
        for _ in range(self._pushed.pop()):
            self.scope_stack.pop()
        if self._reuse_pushed.pop():
            self.reusing.pop()

    def _shares_variables(self, call) -> bool:
        """``tf.variable_scope(..., reuse=True)`` (or AUTO_REUSE, or a name other than the hoisted function's
        own ``reuse`` parameter): its layers share the variables of earlier layers of the same name."""
        if not (isinstance(call, cst.Call) and self.ctx.names.call_name(call) == "tf.variable_scope"):
            return False
        return self.reuses_variables(argument(call, "reuse"))

    def reuses_variables(self, reuse: Optional[cst.BaseExpression]) -> bool:
        """Whether a ``reuse=`` argument makes a layer share another's variables where this rule cannot tell whose
        (the hoisted function's own ``reuse`` parameter is the case it converts: the layers are built once)."""
        if reuse is None or (isinstance(reuse, cst.Name) and reuse.value in ("False", "None")):
            return False
        return not (self.function is not None and isinstance(reuse, cst.Name) and reuse.value != "True")

    def _fresh(self, stem: str) -> str:
        return fresh(stem, self.taken)

    def run(self) -> cst.Module:
        body: List[cst.BaseStatement] = []
        for index, stmt in enumerate(self.module.body):
            deferred = self.deferred.pop(index, [])
            if deferred:  # a function's layers, built where it is first called
                deferred[0] = deferred[0].with_changes(leading_lines=list(stmt.leading_lines))
                stmt = stmt.with_changes(leading_lines=[])
                body.extend(deferred)
            if isinstance(stmt, cst.FunctionDef):
                hoisted, stmt = self._function(stmt)
                body.extend(hoisted)
            elif isinstance(stmt, cst.ClassDef):
                stmt = self._class(stmt)
            else:
                hoisted, stmt = self._statement(stmt, local=set())
                body.extend(hoisted)
            body.append(stmt)
        module = self.module.with_changes(body=body)
        return resolve_markers(module, self.ctx.layer_scopes, self.built) if self.ctx.layer_markers else module

    # -- one statement: returns (layer constructors to place before it, new statement) --
    def _statement(self, stmt, local: Set[str]):
        if isinstance(stmt, (cst.For, cst.While)):
            if not self.layer_calls(stmt):
                return [], stmt
            in_place = per_iteration_layers(self, stmt, _CallReplacer) \
                if isinstance(stmt, cst.For) and self.function is None else None
            if in_place is None:
                self.ctx.report(stmt, RULE_ID, WARNING, "tf.layers call inside a loop: each iteration made new "
                                "variables; not converted (a module-level `for` loop of one-statement lines is)")
                return [], stmt
            self.ctx.report(stmt, RULE_ID, INFO, "the loop's layers are built at each iteration, as TF1 made their "
                                                 "variables (split-build-loops makes them once, in a first loop)")
            return [], in_place
        if isinstance(stmt, (cst.With, cst.If, cst.Try)):
            return [], self._block_owner(stmt, local)
        if not isinstance(stmt, cst.SimpleStatementLine):
            return [], stmt
        constructors: List[cst.BaseStatement] = []
        replacer = _CallReplacer(self, local, constructors)
        new = visit(stmt, replacer)
        if constructors and stmt.leading_lines:
            constructors[0] = constructors[0].with_changes(leading_lines=stmt.leading_lines)
            new = new.with_changes(leading_lines=[])
        return constructors, new

    def _block_owner(self, stmt, local):
        """A with/if/try: layers built in its blocks are placed in the same block."""

        class _Blocks(cst.CSTTransformer):
            def __init__(inner) -> None:
                inner.depth = 0

            def visit_IndentedBlock(inner, node) -> bool:
                return True

            def leave_IndentedBlock(inner, original, updated):
                out: List[cst.BaseStatement] = []
                for child in updated.body:
                    if isinstance(child, (cst.With, cst.If, cst.Try, cst.For, cst.While)):
                        out.append(child)
                        continue
                    hoisted, child = self._statement(child, local)
                    out.extend(hoisted)
                    out.append(child)
                return updated.with_changes(body=out)

            def visit_For(inner, node) -> bool:
                if self.layer_calls(node):
                    self.ctx.report(node, RULE_ID, WARNING, "tf.layers call inside a loop: not converted")
                return False

            visit_While = visit_For

            def visit_FunctionDef(inner, node) -> bool:
                return False

            def visit_With(inner, node) -> None:
                self.enter_with(node)

            def leave_With(inner, original, updated):
                self.leave_with()
                return updated

        if isinstance(stmt, cst.With):
            self.enter_with(stmt)
            try:
                return stmt.with_changes(body=visit(stmt.body, _Blocks()))
            finally:
                self.leave_with()
        return visit(stmt, _Blocks())

    def _function(self, func: cst.FunctionDef):
        if not self.layer_calls(func.body):
            return [], func
        name = func.name.value
        params = {p.name.value for p in [*func.params.params, *func.params.kwonly_params]}
        local = params | set(writes(func.body))
        if self.call_counts.get(name, 0) > 1 and not reuses(func, self.module, name):
            per_call = self._per_call(func)
            if per_call is not None:  # helper-modules makes it a tf.Module, one instance (its layers) per call
                return [], per_call
            self.ctx.report(func, RULE_ID, WARNING, f"`{name}` builds layers and is "
                            f"{how_called(self.module, name, self.call_counts)} without reuse: each call made new "
                            "variables")
            return [], func
        if self.call_counts.get(name, 0) == 1 and not opens_session(func) and self._in_loops(func):
            per_call = self._per_call(func)  # (hoisted, a loop's layers would be one layer)
            if per_call is not None:
                return [], per_call
        hoisted: List[cst.BaseStatement] = []
        self.function = name
        self.fixed = fixed_arguments(func, self.module, self.shapes.module_stable | set(self.ctx.names.aliases))
        if self.call_counts.get(name, 0) == 1 and opens_session(func) and any(
                self._configured_by(call, local - set(self.fixed)) for call in self.layer_calls(func.body)):
            return [], self._in_place(func)

        class _Body(cst.CSTTransformer):
            def leave_IndentedBlock(inner, original, updated):
                out = []
                for child in updated.body:
                    if isinstance(child, cst.SimpleStatementLine):
                        constructors: List[cst.BaseStatement] = []
                        child = visit(child, _CallReplacer(self, local, constructors))
                        hoisted.extend(constructors)
                    out.append(child)
                return updated.with_changes(body=out)

            def visit_For(inner, node) -> bool:
                return False

            visit_While = visit_For

            def visit_With(inner, node) -> None:
                self.enter_with(node)

            def leave_With(inner, original, updated):
                self.leave_with()
                return updated

        new_func = func.with_changes(body=visit(func.body, _Body()))
        self.function, self.fixed = None, {}
        first_call = first_calling_statement(self.module, name)  # where TF1 made them: their place in collections
        if hoisted and first_call:
            self.deferred.setdefault(first_call, []).extend(hoisted)
            return [], new_func
        if hoisted:
            hoisted[0] = hoisted[0].with_changes(leading_lines=list(func.leading_lines))
            new_func = new_func.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        return hoisted, new_func

    def _in_place(self, func: cst.FunctionDef) -> cst.FunctionDef:
        """A program function called once (it opens the session) whose layers read values it computes (``n_acts =
        env.action_space.n``): each layer is built just before its statement, as in ``__init__``, where those values
        exist; the run functions generated in its body call them."""
        body: List[cst.BaseStatement] = []
        for child in func.body.body:
            hoisted, child = self._statement(child, local=set())
            body.extend(hoisted)
            body.append(child)
        self.function, self.fixed = None, {}
        self.ctx.report(func, RULE_ID, INFO, f"`{func.name.value}` builds its layers where TF1 made them: they read "
                                             "values it computes")
        return func.with_changes(body=func.body.with_changes(body=body))

    def _in_loops(self, func: cst.FunctionDef) -> bool:
        """Whether a layer call of the function sits in a ``for`` loop (each iteration made a layer)."""
        return any(self.layer_calls(node) for node in all_nodes(func.body) if isinstance(node, cst.For))

    def _configured_by(self, call: cst.Call, names: Set[str]) -> bool:
        """Whether the layer call's configuration (not its input) reads one of ``names``."""
        function = (self.ctx.names.call_name(call) or "")[len("tf.layers."):]
        _, params, call_params = LAYERS[function]
        bound = _bound_arguments(call, params) or {}
        return any(name != "inputs" and name not in call_params and reads(value) & names
                   for name, value in bound.items())

    def _per_call(self, func: cst.FunctionDef) -> Optional[cst.FunctionDef]:
        new = per_call_layers(self, func, _CallReplacer)
        if new is not None:
            self.ctx.report(func, RULE_ID, INFO, f"`{func.name.value}` builds its layers at each call, as TF1 did "
                                                 "(helper-modules makes it a tf.Module: one instance per call)")
        return new

    def _class(self, cls: cst.ClassDef) -> cst.ClassDef:
        members = []
        for stmt in cls.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "__init__":
                body = []  # layers in __init__ are built just before their statement: its locals exist
                self.function = f"{cls.name.value}.__init__"  # where LayerShapes read its input widths
                for child in stmt.body.body:
                    hoisted, child = self._statement(child, local=set())
                    body.extend(hoisted)
                    body.append(child)
                self.function = None
                stmt = stmt.with_changes(body=stmt.body.with_changes(body=body))
            members.append(stmt)
        return cls.with_changes(body=cls.body.with_changes(body=members))

    def layer_calls(self, node) -> List[cst.Call]:
        """The tf.layers calls in ``node`` this rule converts (also _per_call_layers)."""
        found: List[cst.Call] = []
        names = self.ctx.names

        class _Find(cst.CSTVisitor):
            def visit_Call(inner, call: cst.Call) -> None:
                qualname = names.call_name(call) or ""
                if qualname.startswith("tf.layers.") and qualname[len("tf.layers."):] in LAYERS:
                    found.append(call)

        visit(node, _Find())
        return found

    # -- one call ----------------------------------------------------------------------
    def convert(self, call: cst.Call, local: Set[str], original: Optional[cst.Call] = None, reused: bool = False
                ) -> Optional[Tuple[str, List[cst.BaseStatement], cst.Call]]:
        """(layer name, statements that build it, call expression), or None to leave it. ``reused``: the call passes
        ``reuse=True``, and calls the module-level layer its name and scopes give, configured alike."""
        function = (self.ctx.names.call_name(call) or "")[len("tf.layers."):]
        keras_class, params, call_params = LAYERS[function]
        bound = _bound_arguments(call, params)
        if bound is None:
            return None
        if "inputs" not in bound or set(bound) & _UNSUPPORTED:
            self.ctx.report(call, RULE_ID, WARNING, f"tf.layers.{function} with arguments Keras 3 lacks; not converted")
            return None
        constructor_args = [(k, substituted(v, self.fixed)) for k, v in bound.items()
                            if k not in ("inputs",) and k not in call_params and k not in _DROPPED]
        if any(reads(v) & local for _, v in constructor_args) and not self.per_call:
            self.ctx.report(call, RULE_ID, WARNING, f"tf.layers.{function} configured from values local to "
                            "its function: cannot be built once; not converted")
            return None
        layer_name = bound.get("name")
        stem = layer_name.evaluated_value if isinstance(layer_name, cst.SimpleString) and \
            layer_name.evaluated_value.isidentifier() else function
        args = ", ".join(f"{k}={code(v)}" for k, v in constructor_args)
        scoped = "/".join(self.scope_stack + [stem])
        if reused:
            var = self.module_layers.get((scoped, keras_class, args))
            if var is None or self.function is not None:
                return None
            self.ctx.report(call, RULE_ID, INFO, f"tf.layers.{function}(reuse=True) -> the Keras layer `{var}` of "
                            f"`{scoped}`, whose variables TF1 shared")
            return var, [], cst.Call(cst.Name(var), args=self._call_arguments(function, bound, call_params))
        var = self._fresh(stem)
        self.ctx.layer_scopes[var] = scoped
        if self.function is None and layer_name is not None and not self.per_call:  # a later call may reuse it
            self.module_layers.setdefault((scoped, keras_class, args), var)
        constructor = cst.parse_statement(f"{var} = {self.ctx.tf}.keras.layers.{keras_class}({args})")
        width = None if self.per_call else self.shapes.input_width(self.function, code(original or call))
        if width is not None:  # read where the layer is built: a parameter of the function by its value
            width_value = substituted(cst.parse_expression(width), self.fixed)
            width = None if reads(width_value) & local else code(width_value)
        if width is not None and keras_class in _BUILDABLE:
            # Variables exist from here on, as in TF1 once the graph was built.
            shape = ", ".join(["None"] * (_BUILDABLE[keras_class] - 1) + [width])
            constructor = [constructor, cst.parse_statement(f"{var}.build(({shape}))")]
            self.built.add(var)
        else:
            constructor = [constructor]
        self.ctx.report(call, RULE_ID, INFO, f"tf.layers.{function} -> tf.keras.layers.{keras_class} `{var}`, built once")
        return var, constructor, cst.Call(cst.Name(var), args=self._call_arguments(function, bound, call_params))

    @staticmethod
    def _call_arguments(function: str, bound: Dict[str, cst.BaseExpression], call_params) -> List[cst.Arg]:
        call_args = [cst.Arg(bound["inputs"])]
        for key in sorted(call_params):
            value = bound.get(key, cst.Name("False") if function in _TRAINING_DEFAULT else None)
            if value is not None:
                call_args.append(keyword(key, value))
        return call_args


class _CallReplacer(cst.CSTTransformer):
    def __init__(self, hoister: _Hoister, local: Set[str], constructors: List[cst.BaseStatement]) -> None:
        self.hoister, self.local, self.constructors = hoister, local, constructors

    def visit_Lambda(self, node) -> bool:
        return False

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        qualname = self.hoister.ctx.names.call_name(original) or ""
        if not (qualname.startswith("tf.layers.") and qualname[len("tf.layers."):] in LAYERS):
            return updated
        reuse = argument(original, "reuse")
        reused = isinstance(reuse, cst.Name) and reuse.value == "True"  # by its name: the layer it names, if known
        if self.hoister.reusing or self.hoister.reuses_variables(reuse) and not reused:
            self.hoister.ctx.report(original, RULE_ID, WARNING, f"`{qualname}` under `variable_scope(reuse=...)` "
                                    "shares the variables of an earlier layer of its name: not converted")
            return updated
        converted = self.hoister.convert(updated, self.local, original, reused=reused)
        if converted is None:
            if reused:
                self.hoister.ctx.report(original, RULE_ID, WARNING, f"`{qualname}(reuse=True)` shares the variables "
                                        "of an earlier layer of its name, which is not a module-level layer configured "
                                        "alike: not converted")
            return updated
        _, constructor, call = converted
        self.constructors.extend(constructor)
        return call


def _bound_arguments(call: cst.Call, params: List[str]) -> Optional[Dict[str, cst.BaseExpression]]:
    """The ``tf.layers`` call's arguments by parameter name (``inputs`` first, then ``params``), or None where
    one is starred or past the parameters."""
    bound: Dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        name = arg.keyword.value if arg.keyword is not None else (["inputs"] + params)[index] \
            if index <= len(params) else None
        if name is None:
            return None
        bound[name] = arg.value
    return bound
