"""The tf.distribute and Keras half of the semantic model: recognisers that
answer the generic walk's hooks (:class:`~.binder.Binder`) with what calls and
blocks mean to a strategy, and record it as typed :class:`Facts`.

A call is first classified (:class:`CallKind` from its qualified names,
:class:`MethodKind` for ``receiver.method(...)``), then handled by the one
recogniser for that kind: a strategy constructed, the current strategy asked
for, a scope entered, a function given to ``strategy.run`` or to
``distribute_datasets_from_function``, an Estimator's ``input_fn``...
"""

from __future__ import annotations

import ast
import enum
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, NamedTuple

from mirrorguard.checker import names as api
from mirrorguard.checker.names import CallRole
from mirrorguard.checker.semantic.binder import Binder, Flags, parameters
from mirrorguard.checker.semantic.syntax import (
    dotted,
    is_inference_call,
    last_identifier,
    scope_decorators,
    scope_returning_functions,
    tests_distribution,
)
from mirrorguard.checker.semantic.units import (
    AttributeCall,
    CallSite,
    ImportedHelper,
    LocalFunction,
    SelfMethod,
    Unit,
    UnitKind,
    Use,
    walk,
)

# Methods of a model that neither train it nor hand it to something that might.
INFERENCE_METHODS = frozenset(
    {
        "compile", "evaluate", "predict", "predict_on_batch", "predict_step", "test_on_batch",
        "summary", "save", "save_weights", "load_weights", "get_weights", "set_weights",
        "to_json", "get_config", "count_params", "get_layer", "export", "reset_states", "reset_state",
    }
)

PER_REPLICA_PARAMS = frozenset({"input_context", "input_ctx", "ctx_input"})

# Builtins that only look at what they are given: type(model.weights[0]). (Not print: printing
# `copy.distribute_strategy` is no sign the copy is kept out on purpose, red-team round 2.)
_INSPECTING_BUILTINS = frozenset({"type", "isinstance", "id", "len", "repr"})

# Attributes of a loaded SavedModel that serve it: model.signatures["serving_default"](x).
_SERVING_ATTRIBUTES = frozenset({"signatures"})

# Things other than strategies that have a scope(): DTensor's layout map, random tools, graphs.
_OTHER_SCOPES = re.compile(r"(?i)layout|random|rng|name|graph|session|variable|tape|mesh")

# A parameter whose name says it holds a strategy: def train(dist, step_fn): dist.run(step_fn).
_NAMES_A_STRATEGY = re.compile(r"(?i)dist|strat|mirror|tpu")

# A function whose name says it makes or finds a strategy: set_TPU(), init_strategy().
_NAMES_A_STRATEGY_FACTORY = re.compile(r"(?i)tpu|strateg|distribut|replica|gpu|device")


class ReplicaFunctionParameter(NamedTuple):
    """``def run_step(strategy, fn, x): strategy.run(fn, ...)``: what callers pass as ``fn`` runs per replica."""

    helper: Unit
    param: str


@dataclass
class Facts:
    """What the recognisers learnt of the file's tf.distribute and Keras code."""

    strategy_in_play: bool = False
    strategy_name: str = ""  # the name messages give the strategy
    strategy_vars: set[str] = field(default_factory=set)
    scope_vars: set[str] = field(default_factory=set)  # names bound to a strategy scope
    scope_functions: set[str] = field(default_factory=set)  # the file's functions that return a scope
    scope_decorators: set[str] = field(default_factory=set)  # decorators that run what they wrap in a scope
    # (function, parameter) that a call of the file hands a scope factory: train(strategy.scope)
    scope_parameters: set[tuple[str, str]] = field(default_factory=set)
    ambient_strategies: set[str] = field(default_factory=set)  # names bound to tf.distribute.get_strategy()
    scope_entered: bool = False  # a `with ...scope():` somewhere in the file
    scoped_units: set[int] = field(default_factory=set)  # id(unit) of the units that enter a scope themselves
    replica_fn_names: set[str] = field(default_factory=set)  # functions given to strategy.run
    # (unit that calls strategy.run, name of the function it gives): which def that is, the model resolves
    replica_fn_uses: list[tuple[Unit, str]] = field(default_factory=list)
    replica_fn_params: list[ReplicaFunctionParameter] = field(default_factory=list)
    element_fn_names: set[str] = field(default_factory=set)  # functions a dataset maps over its elements
    per_replica_fn_names: set[str] = field(default_factory=set)  # given to distribute_datasets_from_function
    entry_functions: set[str] = field(default_factory=set)  # absl's app.run(main)
    # The strategy is handed to an Estimator (RunConfig(train_distribute=...)),
    # which distributes without a scope.
    estimator_distribution: bool = False
    estimator_input_fns: set[str] = field(default_factory=set)  # functions handed to an Estimator as input_fn=
    # load_model(p).signatures["serving_default"]: calls whose result is read only for its serving signatures
    serving_results: set[int] = field(default_factory=set)


class MethodKind(enum.Enum):
    """What ``receiver.method(...)`` (on no imported module) is to a strategy."""

    ENTER_CONTEXT = "enter_context"  # stack.enter_context(strategy.scope())
    STRATEGY_SCOPE = "scope"  # strategy.scope() outside a with
    PER_REPLICA_DATASET = "per_replica_dataset"  # strategy.distribute_datasets_from_function(fn)
    REPLICA_RUN = "replica_run"  # strategy.run(step, args=...)
    OTHER = "other"  # maybe a method of the file's own code


class Builder(Binder):
    """The binder's walk with the tf.distribute recognisers answering its hooks."""

    def __init__(self, extra_strategy_names: Iterable[str] = (), extra_model_factories: Iterable[str] = (),
                 external: Mapping[str, frozenset[str]] | None = None) -> None:
        super().__init__()
        self.extra_strategy_names = set(extra_strategy_names)
        self.extra_model_factories = {api.canonical(n) for n in extra_model_factories}
        self.external = external or {}
        self.facts = Facts()
        self._tree: ast.Module | None = None
        self._scope_factories: set[tuple[str, str]] | None = None
        self._roles: dict[CallRole, Callable[[CallSite, tuple[str, ...]], bool]] = {
            CallRole.APP_RUN: self._app_run,
            CallRole.ESTIMATOR: self._estimator,
            CallRole.STRATEGY: self._strategy_made,
            CallRole.GET_STRATEGY: self._strategy_asked_for,
            CallRole.SET_STRATEGY: self._strategy_set,
            CallRole.CHECKPOINT: lambda site, qualified: False,  # see argument_flags
        }
        self._methods: dict[MethodKind, Callable[[CallSite, ast.Attribute], None]] = {
            MethodKind.ENTER_CONTEXT: self._scope_entered_by_stack,
            MethodKind.STRATEGY_SCOPE: self._strategy_scope_read,
            MethodKind.PER_REPLICA_DATASET: self._per_replica_dataset,
            MethodKind.REPLICA_RUN: self._replica_run,
            MethodKind.OTHER: self._own_method,
        }

    # --- questions the recognisers (and the model) ask ----------------------------------

    def is_strategy(self, node: ast.AST) -> bool:
        facts = self.facts
        if isinstance(node, ast.Name):
            name = node.id
            return (name in facts.strategy_vars or name in self.extra_strategy_names
                    or api.says_strategy(name))
        if isinstance(node, ast.Attribute):
            name = dotted(node)
            return api.says_strategy(node.attr) or (
                name is not None and (name in facts.strategy_vars or name in self.extra_strategy_names))
        if isinstance(node, ast.Call):
            qualified = self.qualify(node.func)
            if any(api.strategy_class(q) or q in api.GET_STRATEGY for q in qualified):
                return True
            last = last_identifier(node.func)
            if last in self.extra_strategy_names:
                return True
            return last is not None and not qualified and api.says_strategy(last)
        return False

    def is_scope(self, node: ast.AST) -> bool:
        """Does entering ``node`` as a context manager enter a strategy scope?"""
        facts = self.facts
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "scope":
                return self.is_strategy(func.value) or self._handed_in(func.value)
            if last_identifier(func) in facts.scope_functions:
                return True  # the file's own helper (function, method) that returns strategy.scope()
            if any(self.is_strategy(arg) for arg in node.args):
                return True  # with in_scope(strategy): a helper (maybe imported) that enters it
            if isinstance(func, ast.Name) and func.id in self.unit.params and (
                    api.says_strategy(func.id) or (self.unit.name, func.id) in self._scope_parameters()):
                # with strategy() if strategy else nullcontext(): the scope factory the caller
                # hands in (train(strategy.scope), a parametrised test's `strategy`)
                return True
            last = last_identifier(func)
            return last is not None and api.says_strategy_scope(last)
        if isinstance(node, ast.Attribute) and node.attr in facts.scope_functions:
            return True  # a @property that returns strategy.scope()
        if isinstance(node, (ast.Name, ast.Attribute)):
            return dotted(node) in facts.scope_vars
        if isinstance(node, ast.IfExp):
            return self.is_scope(node.body) or self.is_scope(node.orelse)
        return False

    def _scope_parameters(self) -> set[tuple[str, str]]:
        """Worked out on first need (a ``with`` that calls a parameter): one walk of the module."""
        if self._scope_factories is None:
            self._scope_factories = self.facts.scope_parameters = _scope_factory_parameters(self._tree)
        return self._scope_factories

    def _handed_in(self, receiver: ast.expr) -> bool:
        """``def build(distribution): with distribution.scope():`` and ``self.dist.scope()``:
        a scope of something the caller handed in is a strategy's, unless its name says
        it is one of the other things with a ``scope()`` (a DTensor layout map...)."""
        if isinstance(receiver, ast.Name) and receiver.id in self.unit.params:
            name = receiver.id
        elif (isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name)
              and receiver.value.id in ("self", "cls")):
            name = receiver.attr
        else:
            return False
        return not _OTHER_SCOPES.search(name)

    def _note_strategy(self, name: str) -> None:
        # Messages name the strategy: a plain variable reads better than self.strategy.
        facts = self.facts
        if not facts.strategy_name or ("." in facts.strategy_name and name and "." not in name):
            facts.strategy_name = name

    def _enters_scope(self, body: list[ast.stmt]) -> bool:
        for statement in body:
            if isinstance(statement, (ast.With, ast.AsyncWith)) and any(
                self.is_scope(item.context_expr) for item in statement.items
            ):
                return True
            if isinstance(statement, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try)):
                if self._enters_scope(statement.body):
                    return True
        return False

    def _makes_strategy(self, value: ast.expr, called: tuple[str, ...] | None = None) -> bool:
        """A strategy object: constructed, returned by the file's own function,
        or either branch of ``a if cond else b`` being one. ``called``: the
        qualified names of ``value.func`` when the caller has them already."""
        if isinstance(value, ast.IfExp):
            return self._makes_strategy(value.body) or self._makes_strategy(value.orelse)
        if isinstance(value, ast.Call):
            if called is None:
                called = self.qualify(value.func)
            if isinstance(value.func, ast.Name) and not called:
                if any(u.makes_strategy for u in self.functions.get(value.func.id, ())):
                    return True
            return any(api.strategy_class(q) or q in api.GET_STRATEGY for q in called)
        if isinstance(value, ast.Name):
            return value.id in self.facts.strategy_vars
        return False

    # --- hooks of the walk ------------------------------------------------------------

    def prepare(self, tree: ast.Module) -> None:
        self.facts.scope_functions |= scope_returning_functions(tree.body)
        self.facts.scope_decorators = scope_decorators(tree.body)
        self._tree = tree

    def on_function(self, unit: Unit, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        for param in parameters(node.args):
            if unit.kind is UnitKind.LAMBDA:
                if param.arg in PER_REPLICA_PARAMS:
                    unit.per_replica = True
                continue
            if api.says_strategy(param.arg) or param.arg in self.extra_strategy_names:
                unit.mentions_strategy = True
            annotation = dotted(param.annotation) if param.annotation is not None else None
            if param.arg in PER_REPLICA_PARAMS or (annotation and "InputContext" in annotation):
                unit.per_replica = True
        unit.per_replica = unit.per_replica or bool(self.flags & Flags.PER_REPLICA)

    def enters_scope_on_entry(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        # @under_strategy: the body runs inside the scope the decorator enters
        return any(last_identifier(d.func if isinstance(d, ast.Call) else d) in self.facts.scope_decorators
                   for d in node.decorator_list)

    def scope_of_with(self, node: ast.With | ast.AsyncWith) -> tuple[bool, int]:
        scoped = any(self.is_scope(item.context_expr) for item in node.items)
        if scoped:
            self.facts.scope_entered = True
            self.facts.scoped_units.add(id(self.unit))
            self.unit.owns_strategy = True
            self.facts.strategy_in_play = True
            for item in node.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
                    self._note_strategy(dotted(call.func.value) or "")
        tape = any(
            isinstance(item.context_expr, ast.Call)
            and "tensorflow.GradientTape" in self.qualify(item.context_expr.func)
            for item in node.items
        )
        return scoped, Flags.TAPE if tape else Flags.NONE

    def scope_free_branches(self, node: ast.If) -> tuple[bool, bool]:
        # ``if strategy: with strategy.scope(): ... else: ...``: the other branch
        # is the deliberate no-strategy path, so it is judged as if in a scope.
        if node.orelse and tests_distribution(node.test):
            if self._enters_scope(node.body):
                return False, True
            if not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)) and self._enters_scope(
                node.orelse
            ):
                return True, False
        return False, False

    def on_return(self, value: ast.expr) -> None:
        if self.unit.kind is UnitKind.FUNCTION and self.is_scope(value):
            self.facts.scope_functions.add(self.unit.name)

    def on_attribute_read(self, node: ast.Attribute, key: str) -> None:
        if api.says_strategy(node.attr) and key not in self.facts.ambient_strategies:
            self.unit.mentions_strategy = True

    def on_attribute(self, node: ast.Attribute) -> None:
        if node.attr in _SERVING_ATTRIBUTES:
            if isinstance(node.value, ast.Name):
                self.unit.inference.append(Use(node.value.id, self.order))  # infer = loaded.signatures[...]
            elif isinstance(node.value, ast.Call):
                self.facts.serving_results.add(id(node.value))

    def argument_flags(self, site: CallSite, func: ast.expr, qualified: tuple[str, ...]) -> int:
        flags = Flags.NONE
        if isinstance(func, ast.Name) and not qualified and func.id in _INSPECTING_BUILTINS and not self._bound_here(
                func.id):
            flags |= Flags.EXPORT  # type(reloaded.weights[0]): looked at, never trained
        if isinstance(func, ast.Attribute) and func.attr in api.PER_REPLICA_DATASET_APIS:
            flags |= Flags.PER_REPLICA
        # Checkpoint(model=m, embedding=m.dense), saved_model.save(m, signatures=m.serve): exported.
        if qualified and api.call_role(qualified) is CallRole.CHECKPOINT:
            flags |= Flags.EXPORT
        return flags

    # --- assignments --------------------------------------------------------------------

    def learn_from_assignment(self, target: str, value: ast.expr) -> None:
        """Aliases, strategies, scope objects and instances of the file's classes."""
        facts = self.facts
        if isinstance(value, (ast.Name, ast.Attribute)):
            qualified = self.qualify(value)
            if qualified and "." not in target:
                self.aliases[target] = qualified
        if self.is_scope(value):
            facts.scope_vars.add(target)
        last = target.rsplit(".", 1)[-1]
        # What the called function may be, asked once: nothing below changes it before it is used.
        called = self.qualify(value.func) if isinstance(value, ast.Call) else None
        if called is not None and api.call_role(called) is CallRole.GET_STRATEGY:
            # self.strategy = tf.distribute.get_strategy(): the caller's strategy, whatever
            # scope it entered; reading it later is no sign this code must enter one.
            facts.ambient_strategies.add(target)
        if self._makes_strategy(value, called):
            # MirroredStrategy() if len(gpus) > 1 else OneDeviceStrategy(...),
            # or dist = get_dist() where get_dist constructs one.
            facts.strategy_vars.add(target)
            self._note_strategy(target)
            return
        if called is not None and self._learn_from_called_value(target, last, value, called):
            return
        if api.says_strategy(last) or target in self.extra_strategy_names:
            if isinstance(value, (ast.Constant, ast.JoinedStr, ast.List, ast.Tuple, ast.Dict, ast.Set)):
                return  # strategy = None, distribution_strategy = "mirrored": a value, not a strategy
            facts.strategy_vars.add(target)
            # strategy = make_strategy(args): this code obtains its own strategy and is
            # judged on its own; self.strategy = strategy only keeps the caller's.
            if not isinstance(value, (ast.Name, ast.Attribute)):
                self.unit.owns_strategy = True
            self._note_strategy(target)

    def _learn_from_called_value(self, target: str, last: str, value: ast.Call, qualified: tuple[str, ...]) -> bool:
        """``target = value(...)`` (``qualified``: what ``value.func`` may be); True
        when nothing more is to be learnt of it."""
        if isinstance(value.func, ast.Name) and value.func.id == "getattr" and value.args:
            # optimizer_cls = getattr(tf.keras.optimizers, name): some class of that module
            for module, base in (("keras.optimizers", "Optimizer"), ("keras.metrics", "Metric")):
                if module in self.qualify(value.args[0]) and "." not in target:
                    self.aliases[target] = (f"{module}.{base}",)
        helper = last_identifier(value.func)
        if helper and api.says_strategy(last) and _NAMES_A_STRATEGY_FACTORY.search(helper) and (
                not qualified or not any(q.startswith(("tensorflow", "keras")) for q in qualified)):
            # strategy = set_TPU() / init_strategy(): the project's own helper (imported or not)
            self.facts.strategy_in_play = True
        if last_identifier(value.func) in self.extra_strategy_names:
            # The user's own strategy factory (configured): as good as a constructor.
            self.facts.strategy_vars.add(target)
            self.facts.strategy_in_play = True
            self.unit.owns_strategy = True
            self._note_strategy(target)
            return True
        if isinstance(value.func, ast.Name) and not qualified:
            self.instances[target] = value.func.id
        if (("functools.partial" in qualified or "tensorflow.function" in qualified)
                and value.args and isinstance(value.args[0], ast.Name)):
            # factory = partial(build, 4); step = tf.function(step_fn): the same function
            self.partials[target] = self.partials.get(value.args[0].id, value.args[0].id)
        return False

    # --- calls: classified, then one recogniser per kind -----------------------------------

    def recognise_call(self, site: CallSite, func: ast.expr, qualified: tuple[str, ...]) -> None:
        self._note_estimator_input_fns(site, func)
        role = api.call_role(qualified) if qualified else None
        if role is not None and self._roles[role](site, qualified):
            return
        if self.external and qualified:
            helper = next((q for q in qualified if q in self.external), None)
            if helper is not None:
                site.callee = ImportedHelper(helper)
                return
        if role is CallRole.CHECKPOINT:
            return  # what its arguments read counts as exported, not trained (see argument_flags)
        if isinstance(func, ast.Attribute):
            self._method_call(site, func, qualified)
        elif isinstance(func, ast.Name) and not qualified:
            self._local_call(site, func)
        elif isinstance(func, ast.Call) and "functools.partial" in self.qualify(func.func) and func.args:
            # functools.partial(build_model, depth=2)(num_classes=3)
            if isinstance(func.args[0], ast.Name):
                site.callee = LocalFunction(func.args[0].id)

    def _note_estimator_input_fns(self, site: CallSite, func: ast.expr) -> None:
        node = site.node
        if (isinstance(func, ast.Attribute) and func.attr in ("train", "evaluate", "predict") and node.args
                and isinstance(node.args[0], ast.Name) and node.args[0].id in self.functions):
            self.facts.estimator_input_fns.add(node.args[0].id)  # estimator.train(input_fn, steps=...)
        for keyword in node.keywords:
            if keyword.arg == "input_fn":
                # TrainSpec(input_fn=train_input_fn), estimator.train(input_fn=lambda: input_fn(...))
                value = keyword.value.body if isinstance(keyword.value, ast.Lambda) else keyword.value
                if isinstance(value, ast.Call):
                    value = value.func
                if isinstance(value, ast.Name):
                    self.facts.estimator_input_fns.add(value.id)

    def _app_run(self, site: CallSite, qualified: tuple[str, ...]) -> bool:
        node = site.node
        if node.args and isinstance(node.args[0], ast.Name):
            self.facts.entry_functions.add(node.args[0].id)
        return False

    def _estimator(self, site: CallSite, qualified: tuple[str, ...]) -> bool:
        if "RunConfig" not in qualified[0] or any(
                k.arg in ("train_distribute", "eval_distribute") for k in site.node.keywords):
            self.facts.estimator_distribution = True
        return False

    def _strategy_made(self, site: CallSite, qualified: tuple[str, ...]) -> bool:
        self.facts.strategy_in_play = True
        self.unit.owns_strategy = self.unit.makes_strategy = True
        return True

    def _strategy_asked_for(self, site: CallSite, qualified: tuple[str, ...]) -> bool:
        # The current strategy: a function that asks for it runs in whatever
        # scope its caller entered, so this alone makes it no root.
        self.facts.strategy_in_play = True
        return True

    def _strategy_set(self, site: CallSite, qualified: tuple[str, ...]) -> bool:
        # experimental_set_strategy(strategy): what follows runs as in its scope.
        node = site.node
        if node.args and not (isinstance(node.args[0], ast.Constant) and node.args[0].value is None):
            self.open_scope()
            self.unit.owns_strategy = True
        return True

    def _local_call(self, site: CallSite, func: ast.Name) -> None:
        unit = self.unit
        if is_inference_call(site.node) or site.is_inside(_serving_function):
            # model(x, training=False), or a forward pass a serving tf.function wraps
            unit.inference.append(Use(func.id, site.order))
        elif not self.flags & Flags.TAPE and not any(k.arg == "training" for k in site.node.keywords):
            unit.forward.append(Use(func.id, site.order))  # model(x) outside a GradientTape: a prediction
        site.callee = LocalFunction(self.partials.get(func.id, func.id))

    def _method_call(self, site: CallSite, func: ast.Attribute, qualified: tuple[str, ...]) -> None:
        if func.attr in INFERENCE_METHODS and (site.receiver or site.chain_root):
            # model.predict(x); sampler.layers[1].reset_states()
            self.unit.inference.append(Use(site.receiver or site.chain_root, site.order))
        if qualified:
            return  # a module function such as re.compile or tf.function
        kind = self._method_kind(site, func)
        if kind not in (MethodKind.ENTER_CONTEXT, MethodKind.STRATEGY_SCOPE) and (
                func.attr in api.ELEMENT_FUNCTION_METHODS):
            for arg in [*site.node.args, *(k.value for k in site.node.keywords)]:
                if isinstance(arg, ast.Name):
                    self.facts.element_fn_names.add(arg.id)
        self._methods[kind](site, func)

    def _method_kind(self, site: CallSite, func: ast.Attribute) -> MethodKind:
        attr, receiver = func.attr, func.value
        if attr == "enter_context" and site.node.args and self.is_scope(site.node.args[0]):
            return MethodKind.ENTER_CONTEXT
        if attr == "scope" and self.is_strategy(receiver):
            return MethodKind.STRATEGY_SCOPE
        if attr in api.PER_REPLICA_DATASET_APIS:
            return MethodKind.PER_REPLICA_DATASET
        if attr in api.REPLICA_RUN_APIS and (
            self.is_strategy(receiver)
            or (self._handed_in(receiver) and _NAMES_A_STRATEGY.search(last_identifier(receiver) or ""))
            or (isinstance(receiver, ast.Attribute) and receiver.attr == "extended"
                and self.is_strategy(receiver.value))  # strategy.extended.call_for_each_replica
        ):
            return MethodKind.REPLICA_RUN
        return MethodKind.OTHER

    def _scope_entered_by_stack(self, site: CallSite, func: ast.Attribute) -> None:
        # stack.enter_context(strategy.scope()): in scope until the stack's block ends.
        self.open_scope()
        self.facts.scoped_units.add(id(self.unit))
        self.unit.owns_strategy = True

    def _strategy_scope_read(self, site: CallSite, func: ast.Attribute) -> None:
        self.facts.strategy_in_play = True
        self._note_strategy(dotted(func.value) or "")

    def _per_replica_dataset(self, site: CallSite, func: ast.Attribute) -> None:
        for arg in [*site.node.args, *(k.value for k in site.node.keywords)]:
            name = dotted(arg)
            if name:
                self.facts.per_replica_fn_names.add(name.rsplit(".", 1)[-1])

    def _replica_run(self, site: CallSite, func: ast.Attribute) -> None:
        function = site.node.args[0] if site.node.args else getattr(site.keyword("fn"), "value", None)
        if isinstance(function, ast.Call) and function.args and any(
            q in ("functools.partial", "tensorflow.function") for q in self.qualify(function.func)
        ):
            function = function.args[0]  # strategy.run(tf.function(step)), run(partial(step, model=m))
        if isinstance(function, ast.Lambda) and isinstance(function.body, ast.Call):
            function = function.body.func  # strategy.run(lambda b: train_step(b, model), ...)
        if function is None:
            return
        name = dotted(function)
        if name:
            name = name.rsplit(".", 1)[-1]
            self.facts.replica_fn_names.add(self.partials.get(name, name))
            if isinstance(function, ast.Name):
                self.facts.replica_fn_uses.append((self.unit, self.partials.get(name, name)))
        if isinstance(function, ast.Name) and function.id in self.unit.params:
            # def run_step(strategy, fn, x): strategy.run(fn, ...): what callers pass as fn
            self.facts.replica_fn_params.append(ReplicaFunctionParameter(self.unit, function.id))

    def _own_method(self, site: CallSite, func: ast.Attribute) -> None:
        receiver = func.value
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            site.callee = SelfMethod(self.unit.class_name or "", func.attr)
        elif isinstance(receiver, ast.Name):
            site.callee = AttributeCall(receiver.id, func.attr)
        elif isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and not self.qualify(receiver.func):
            site.callee = AttributeCall(receiver.func.id, func.attr)  # CsvLoader(path).dataset()


def _scope_factory_parameters(tree: ast.Module) -> set[tuple[str, str]]:
    """(function, parameter) pairs that a call in the module passes ``x.scope``
    (the bound method, not called) to: ``train(strategy.scope)``."""
    handed: list[tuple[str, int | str]] = []
    definitions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for node in walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            definitions.setdefault(node.name, node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            for index, arg in enumerate(node.args):
                if isinstance(arg, ast.Attribute) and arg.attr == "scope":
                    handed.append((node.func.id, index))
            for keyword in node.keywords:
                if keyword.arg and isinstance(keyword.value, ast.Attribute) and keyword.value.attr == "scope":
                    handed.append((node.func.id, keyword.arg))
    found: set[tuple[str, str]] = set()
    for name, where in handed:
        definition = definitions.get(name)
        if definition is None:
            continue
        positional = [a.arg for a in (*definition.args.posonlyargs, *definition.args.args)]
        if isinstance(where, str):
            found.add((name, where))
        elif where < len(positional):
            found.add((name, positional[where]))
    return found


def _serving_function(site: CallSite) -> bool:
    """``tf.function(lambda x: model(x), input_signature=...)``: a serving signature."""
    return "tensorflow.function" in site.qualified
