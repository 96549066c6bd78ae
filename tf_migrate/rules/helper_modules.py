"""Helpers that make variables and compute on graph tensors -> ``tf.Module`` classes, one instance per call.

    def add_layer(inputs, in_size, out_size, activation_function=None): ...   # tf.Variable + matmul
    l1 = add_layer(xs, 1, 10, activation_function=tf.nn.relu)
    prediction = add_layer(l1, 10, 1)
becomes
    class AddLayer(tf.Module): ...          # variables in __init__, the forward in __call__
    add_layer_1 = AddLayer(1, 10, activation_function=tf.nn.relu)
    l1 = add_layer_1(xs)
    add_layer_2 = AddLayer(10, 1)
    prediction = add_layer_2(l1)

In TF1 each call made its own variables, once, at build time, and returned a tensor that every run recomputed. Here
each call site builds its instance where the call stood (variables made in TF1's order, before any run function
traces); the run functions call the instance on the fed tensors. Which arguments are tensors is read from the call
sites: every call must pass tensors for the same parameters. A call in a line directly in a ``for`` body builds its
instance there, at each iteration; ``split-build-loops`` then makes the instances in a first loop (a list) and calls
them in a second, or blocks the loop. Variables shaped by the input (``x.get_shape()[1]``), and Keras layers the helper
builds, are made at the instance's first call, where nothing after the first call site makes variables or lists them
but helpers that wait too (``_lazy_builds``): still TF1's order. The helper is left as it was, with the reason as an
eager blocker, when a call sits in another loop or block of a loop or in a nested function, it is used other than by
calling it, its variables wait for the first call and a call is in a loop, or they depend on its tensor arguments'
values (``_module_split``).

A helper imported from another module of the tree gets the same treatment across modules (``_tree_helpers``): this
module builds the instances and imports the class, the provider, asked by the project pass
(``tf_migrate/tree_helpers``), defines the class in place of the function (``_export``).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

import libcst as cst

from tf_migrate.analysis import api_tables as api
from tf_migrate.analysis import program as pm
from tf_migrate.analysis.scope_analysis import analyze_scope
from tf_migrate.analysis.symbols import all_calls, reads
from tf_migrate.cst.arguments import bind
from tf_migrate.cst.names import all_names, fresh
from tf_migrate.report import INFO
from tf_migrate.rules import Rule, RuleContext
from tf_migrate.rules._helper_sites import Helper, Site, SiteFinder
from tf_migrate.rules._helper_variable_markers import init_attributes, resolve_helper_markers
from tf_migrate.rules._hoisting import fixed_arguments
from tf_migrate.rules._lazy_builds import first_call_refusal, lazily_built
from tf_migrate.rules._module_split import SplitRefused, class_name, local_attribute, split
from tf_migrate.rules._tree_helpers import (RenameImports, class_for_importer, class_for_provider, imported_candidates,
                                           kept_imported_helper)
from tf_migrate.traversal import visit

RULE_ID = "helper-modules"
# Kinds of values that are graph tensors when handed to a helper.
_TENSOR_KINDS = pm.DEFERRED_KINDS | {pm.VARIABLE, pm.VARIABLES, pm.EAGER, pm.LAYER}


class HelperModules(Rule):
    RULE_ID = RULE_ID
    DESCRIPTION = ("helpers that make variables and compute on graph tensors -> tf.Module classes, "
                   "one instance per TF1 call")
    ORDER = 95
    TRIGGERS = ("Variable", "variable")
    TREE_WORK = True

    def apply(self, module: cst.Module, ctx: RuleContext) -> cst.Module:
        rewrite = _Rewrite(module, ctx)
        module = rewrite.run()
        if ctx.helper_markers:  # a Saver's variables of layer helpers -> their instances' attributes
            module = resolve_helper_markers(module, rewrite.instances, local_attribute, ctx.block)
        return module


class _Rewrite:
    def __init__(self, module: cst.Module, ctx: RuleContext) -> None:
        self.module, self.ctx = module, ctx
        self.module_scope = analyze_scope(list(module.body), ctx.names, layer_scopes=ctx.layer_scopes)
        self.scopes: Dict[int, "pm.Scope"] = {}
        self.literal_params: Dict[int, Set[str]] = {}  # id(function) -> _literal_params
        # (helper, call number) -> (its instance, the attributes the class's __init__ binds): made here, not lazily
        self.instances: Dict[Tuple[str, int], Tuple[str, Set[str]]] = {}

    def run(self) -> cst.Module:
        helpers = {s.name.value: Helper(s) for s in self.module.body
                   if isinstance(s, cst.FunctionDef) and s.name.value in self.module_scope.variable_functions}
        for local, summary in imported_candidates(self.ctx.names).items():
            helpers.setdefault(local, Helper(summary.definition, imported=summary))
        exports = self.ctx.names.tree_helpers.exports
        if not helpers:
            return self.module
        visit(self.module, SiteFinder(helpers, self.module_scope.own_scope_blocks))
        taken = all_names(self.module)
        classes: Dict[int, cst.ClassDef] = {}
        renamed_imports: Dict[str, str] = {}  # imported helper -> its class
        built: Dict[int, List[Tuple[int, cst.SimpleStatementLine]]] = {}  # statement -> (call order, build)
        calls: Dict[int, Tuple[str, List[int]]] = {}  # call -> (instance, positions of its tensor arguments)
        # Helpers called only where no graph is run (no session, no placeholder) are not the session rule's work.
        tensor_params_of = {name: self._tensor_params(name, helper) for name, helper in helpers.items()
                            if helper.func is not None  # an imported helper without a class form
                            and any(self._scope(site.function).is_graph_program for site in helper.sites)}
        candidates = [name for name, params in tensor_params_of.items() if params is not None]  # (in order)
        self._keep_imported({name: h for name, h in helpers.items() if h.imported and name not in candidates})
        self._export(helpers, exports, taken, classes)
        self.lazy = lazily_built([name for name in candidates if helpers[name].imported is None],
                                 lambda name: self._splits_lazily(name, helpers[name], tensor_params_of[name],
                                                                  candidates),
                                 lambda name, lazy: self._lazy_refused(helpers[name], lazy))
        for name in candidates:
            helper, tensor_params = helpers[name], tensor_params_of[name]
            try:
                self._check_sites(helper, candidates)
                if name in self.lazy and any(site.loop is not None for site in helper.sites):
                    raise SplitRefused("it is called in a loop, and its variables wait for its first call (they "
                                       "read the input's shape, or Keras layers make them): they would be made at "
                                       "each instance's first call, inside the run")
                if helper.imported is not None:
                    form = class_for_importer(helper.imported, tensor_params, self._lazy_refused(helper, self.lazy),
                                              self.module, set() if "." in name else taken)
                    cls = form.class_name
                    if "." in name:  # model.inference -> model.Inference: the module's own name holds it
                        cls = f"{name.rpartition('.')[0]}.{cls}"
                    else:
                        renamed_imports[name] = cls
                    self.ctx.names.tree_helpers.requested[name] = form
                    self.ctx.names.tree_helpers.classes[cls] = form.members
                else:
                    cls = class_name(name, taken)
                    made = split(helper.func, tensor_params, cls, self.ctx.tf, self.ctx.names,
                                 self.module_scope.variable_functions, self._lazy_refused(helper, self.lazy))
                    why = self._holds_keras_layers(made) and self._lazy_refused(helper, self.lazy)
                    if why:  # (its layers' variables wait for its first call, as a build method's do)
                        raise SplitRefused(f"its Keras layers make their variables at its first call, and {why}")
                    classes[id(helper.func)] = made
            except SplitRefused as refused:
                for site in helper.sites:
                    self.ctx.block(site.call, f"`{name}` creates variables each time it is called on graph "
                                              f"tensors, and has no tf.Module form here: {refused}")
                continue
            if helper.imported is not None:
                lazily = self.ctx.names.tree_helpers.requested[name].lazy
                where = helper.sites[0].call
                became = (f"`{name}` of {helper.imported.provider} is built as its tf.Module `{cls}` (its module "
                          "defines it)")
            else:
                lazily = any(isinstance(m, cst.FunctionDef) and m.name.value == "build"
                             for m in classes[id(helper.func)].body.body)
                where, became = helper.func, f"`{name}` became the tf.Module `{cls}`"
            self.ctx.report(where, RULE_ID, INFO, f"{became}: one instance per call, its variables made once, " + (
                "at its first call (from the input's static shape, which they read)" if lazily else "in __init__"))
            params = [p.name.value for p in helper.func.params.params]
            for number, site in enumerate(sorted(helper.sites, key=lambda s: s.order), 1):  # as Python calls them
                # One call: its instance takes the helper's name, but for an imported one (the analysis knows it
                # as the function of the tree), whose name the instance leaves to its import.
                alone = len(helper.sites) == 1 and helper.imported is None
                instance = name if alone else fresh(f"{name.rpartition('.')[2]}_{number}", taken)
                given = [a.keyword.value if a.keyword is not None else params[i] for i, a in enumerate(site.call.args)]
                python_args = [a for a, p in zip(site.call.args, given) if p not in tensor_params]
                build = cst.SimpleStatementLine([cst.Assign(
                    [cst.AssignTarget(cst.Name(instance))],
                    cst.Call(cst.parse_expression(cls), args=_tidy_args(python_args)))])
                built.setdefault(id(site.statement), []).append((site.order, build))
                if helper.imported is None and not lazily:
                    self.instances[(name, number)] = instance, init_attributes(classes[id(helper.func)])
                calls[id(site.call)] = (instance, [i for i, p in enumerate(given) if p in tensor_params])
        if not classes and not calls:
            return self.module
        module = visit(self.module, _Apply(classes, built, calls))
        return visit(module, RenameImports(renamed_imports)) if renamed_imports else module

    def _keep_imported(self, kept: Dict[str, "Helper"]) -> None:
        """Imported helpers that stay functions here: fine on Python values only (they make their variables at
        build time, once per call, as TF1 did), else each call is blocked with the reason."""
        for name, helper in kept.items():
            summary = helper.imported
            why = kept_imported_helper(summary, self.module, [  # a graph this module runs would call it per run
                self._passes_tensors(s) and self._scope(s.function).is_graph_program for s in helper.sites])
            for site in helper.sites if why else ():
                self.ctx.block(site.call, f"`{name}` ({summary.opaque or 'imported from ' + summary.provider}) makes "
                                          f"variables each time it is called, and has no tf.Module form here: {why}")

    def _export(self, helpers: Dict[str, "Helper"], exports: Dict[str, Tuple[str, ...]], taken: Set[str],
                classes: Dict[int, cst.ClassDef]) -> None:
        """The helpers the modules importing this one build as classes (the project pass asks, rules/_tree_helpers):
        each becomes its class here, or says why it cannot."""
        exported = self.ctx.names.tree_helpers.exported
        for name, tensor_params in exports.items():
            helper = helpers.get(name)
            if helper is None or helper.imported is not None:
                exported[name] = f"is not a helper that makes variables in {self.ctx.path}"
                continue
            if helper.sites or helper.other_uses != 1:
                exported[name] = f"is also used in {self.ctx.path} itself"
                continue
            try:
                form, definition = class_for_provider(helper.func, tensor_params, self.ctx.path, self.ctx.tf,
                                                      self.ctx.names, self.module_scope.variable_functions, taken)
            except SplitRefused as refused:
                exported[name] = f"has no tf.Module form in {self.ctx.path}: {refused}"
                continue
            exported[name] = form
            classes[id(helper.func)] = definition
            taken.add(form.class_name)
            self.ctx.report(helper.func, RULE_ID, INFO, f"`{name}` became the tf.Module `{form.class_name}`, which "
                            "the modules importing it build once per call, its variables made once, " + (
                                "at its first call (from the input's static shape, which they read)" if form.lazy
                                else "in __init__"))

    @staticmethod
    def _check_sites(helper: Helper, candidates: List[str]) -> None:
        """Raises SplitRefused when a call of the helper cannot become a call of an instance."""
        for site in helper.sites:
            if site.trouble:
                raise SplitRefused(site.trouble)
            if isinstance(site.function, cst.FunctionDef) and site.function.name.value in candidates:
                raise SplitRefused(f"it is called inside `{site.function.name.value}`, another helper "
                                   "called on graph tensors")
        if helper.other_uses != len(helper.sites) + (helper.imported is None):
            raise SplitRefused("it is used other than by calling it (passed or stored as a value)")

    def _splits_lazily(self, name: str, helper: Helper, tensor_params: List[str], candidates: List[str]) -> bool:
        """Whether the helper would become a class whose variables wait for its first call (if allowed to)."""
        try:
            self._check_sites(helper, candidates)
            made = split(helper.func, tensor_params, class_name(name, set()), self.ctx.tf, self.ctx.names,
                         self.module_scope.variable_functions, None)
        except SplitRefused:
            return False
        return any(isinstance(m, cst.FunctionDef) and m.name.value == "build" for m in made.body.body) \
            or self._holds_keras_layers(made)

    def _holds_keras_layers(self, cls: cst.ClassDef) -> bool:
        """Whether the class builds Keras layers, whose variables exist from their first call (the module's)."""
        return any(api.is_keras_layer_with_variables(self.ctx.names.call_name(call)) for call in all_calls(cls))

    def _lazy_refused(self, helper: Helper, lazy: Set[str]) -> Optional[str]:
        """Why the helper's variables may not wait for its first call (None: they may); ``lazy``: the other helpers
        whose variables wait for their first calls (``rules/_lazy_builds``)."""
        return first_call_refusal(helper.func.name.value, helper.sites, self.module, self.ctx.names,
                                  self.module_scope.variable_functions, lazy)

    def _tensor_params(self, name: str, helper: Helper) -> Optional[List[str]]:
        """The parameters every call passes tensors for (None: no call passes a tensor; blocked if they differ)."""
        params = [p.name.value for p in helper.func.params.params]
        seen: List[Optional[Set[str]]] = []
        why = ""
        for site in helper.sites:
            bound = bind(site.call, params)
            if bound is None:
                seen.append(None)
                why = "a call passes *args or **kwargs, or an unknown keyword"
                continue
            kinds = {p: self._arg_kind(value, site) for p, value in bound.items()}
            unknown = [p for p, kind in kinds.items() if kind is None]
            if unknown:
                seen.append(None)
                why = f"the analysis cannot tell whether `{unknown[0]}` is given a tensor or a Python value"
                continue
            seen.append({p for p, kind in kinds.items() if kind == "tensor"})
        if not any(seen):
            return None  # a helper that only makes variables from Python values: W = weight_variable(shape)
        first = next(s for s in seen if s)
        if not why and any(s != first for s in seen):
            why = "its calls pass tensors for different parameters"
        if why:
            for site in helper.sites:
                self.ctx.block(site.call, f"`{name}` creates variables each time it is called on graph tensors, "
                                          f"and has no tf.Module form here: {why}")
            return None
        return [p for p in params if p in first]

    def _passes_tensors(self, site: Site) -> bool:
        """Whether the call passes a graph tensor, or a value the analysis does not know."""
        return any(self._arg_kind(arg.value, site) != "python" for arg in site.call.args)

    def _arg_kind(self, value: cst.BaseExpression, site: Site) -> Optional[str]:
        """"tensor", "python", or None when the analysis does not know."""
        scope = self._scope(site.function)
        if any(self.ctx.names.call_name(c) is not None for c in all_calls(value)):
            return "tensor"
        kinds = set()
        for key in reads(value):
            bindings = scope.bindings.get(key) or self.module_scope.bindings.get(key)
            if bindings:
                kinds |= {b.kind for b in bindings}
            elif key in scope.params and key not in self._literal_params(site.function):
                return None
        return "tensor" if kinds & _TENSOR_KINDS else "python"

    def _literal_params(self, function: Optional[cst.CSTNode]) -> Set[str]:
        """Parameters of the function a call stands in that every call of it gives one value made of literals
        (``def train(hidden_dim=32)`` called as ``train()``): Python values, not tensors."""
        if not isinstance(function, cst.FunctionDef):
            return set()
        if id(function) not in self.literal_params:
            self.literal_params[id(function)] = set(fixed_arguments(function, self.module, set()))
        return self.literal_params[id(function)]

    def _scope(self, function: Optional[cst.CSTNode]) -> "pm.Scope":
        if function is None:
            return self.module_scope
        if id(function) not in self.scopes:
            body, params = pm.nested_scope_body(function)
            self.scopes[id(function)] = analyze_scope(body, self.ctx.names, params,
                                                      layer_scopes=self.ctx.layer_scopes, parent=self.module_scope)
        return self.scopes[id(function)]


def _tidy_args(args: List[cst.Arg]) -> List[cst.Arg]:
    return [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in args]


class _Apply(cst.CSTTransformer):
    def __init__(self, classes, built, calls) -> None:
        self.classes, self.built, self.calls = classes, built, calls

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef):
        return self.classes.get(id(original), updated)

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if id(original) not in self.calls:
            return updated
        instance, positions = self.calls[id(original)]
        return updated.with_changes(func=cst.Name(instance), args=_tidy_args([updated.args[i] for i in positions]))

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        builds = [build for _, build in sorted(self.built.get(id(original), []), key=lambda pair: pair[0])]
        if not builds:
            return updated
        first = builds[0].with_changes(leading_lines=original.leading_lines)
        return cst.FlattenSentinel([first] + builds[1:] + [updated.with_changes(leading_lines=[])])
