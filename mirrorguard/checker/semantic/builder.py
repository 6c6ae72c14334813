"""One walk over Python's ``ast`` that fills the semantic model.

It records, per unit of code (module, function, lambda): the bindings it makes,
the names it reads (and whether inside a strategy scope), and every call it
runs, with the qualified names the callee may have and the file's own code it
may reach. It also learns which names hold a strategy or a strategy scope, and
which blocks run inside a scope. It knows no rule: rules ask the model what the
calls are (see :mod:`mirrorguard.checker.rules`).

The walk dispatches on node types itself (``ast.NodeVisitor`` costs a method
lookup per node) and never enters constants, imports' aliases, or other leaves.
"""

from __future__ import annotations

import ast
import re
from typing import Iterable, Iterator, Mapping

from mirrorguard.checker import names as api
from mirrorguard.checker.semantic.syntax import (
    chain_root,
    dotted,
    held_calls,
    is_inference_call,
    is_main_guard,
    last_identifier,
    ref_key,
    scope_decorators,
    scope_returning_functions,
    target_names,
    tests_distribution,
)
from mirrorguard.checker.semantic.units import (
    AttributeCall,
    Binding,
    BindingKind,
    CallSite,
    ImportedHelper,
    LocalFunction,
    Read,
    SelfMethod,
    Unit,
    UnitKind,
    Use,
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

# Things other than strategies that have a scope(): DTensor's layout map, random tools, graphs.
_OTHER_SCOPES = re.compile(r"(?i)layout|random|rng|name|graph|session|variable|tape|mesh")

# A parameter whose name says it holds a strategy: def train(dist, step_fn): dist.run(step_fn).
_NAMES_A_STRATEGY = re.compile(r"(?i)dist|strat|mirror|tpu")

# A function whose name says it makes or finds a strategy: set_TPU(), init_strategy().
_NAMES_A_STRATEGY_FACTORY = re.compile(r"(?i)tpu|strateg|distribut|replica|gpu|device")

# Methods that put their arguments into a container.
_FILLING_METHODS = frozenset({"update", "append", "extend", "add", "insert", "setdefault"})

# Program entry points called as a statement at module level.
_ENTRY_NAMES = frozenset({"main", "run", "train"})

_LEAVES = (ast.Constant, ast.Import, ast.ImportFrom, ast.Pass, ast.Break, ast.Continue,
           ast.Global, ast.Nonlocal, ast.expr_context)


def _unpacked_positions(targets: list[ast.expr]) -> dict[str, int]:
    """``total, logs = ...``: each plain name's position in a one-level target tuple."""
    if len(targets) != 1 or not isinstance(targets[0], (ast.Tuple, ast.List)):
        return {}
    elements = targets[0].elts
    if any(isinstance(e, ast.Starred) for e in elements):
        return {}
    return {e.id: i for i, e in enumerate(elements) if isinstance(e, ast.Name)}


class Builder:
    """Fills units, bindings, references and call sites in one walk."""

    def __init__(self, extra_strategy_names: Iterable[str] = (), extra_model_factories: Iterable[str] = (),
                 external: Mapping[str, frozenset[str]] | None = None) -> None:
        self.extra_strategy_names = set(extra_strategy_names)
        self.extra_model_factories = {api.canonical(n) for n in extra_model_factories}
        self.external = external or {}
        self.imports: dict[str, set[str]] = {}
        self.star_modules: list[str] = []
        self.aliases: dict[str, tuple[str, ...]] = {}
        self.module = Unit("<module>", UnitKind.MODULE, None, ast.Module(body=[], type_ignores=[]))
        self.unit = self.module
        self.units: list[Unit] = [self.module]
        self.classes: list[str] = []  # enclosing class bodies, innermost last
        self.class_bases: dict[str, list[ast.expr]] = {}
        self.functions: dict[str, list[Unit]] = {}
        self.methods: dict[tuple[str, str], Unit] = {}
        self.instances: dict[str, str] = {}  # trainer = Trainer(...): name -> class of this file
        self.strategy_vars: set[str] = set()
        self.scope_vars: set[str] = set()
        self.scope_functions: set[str] = set()  # the file's functions that return a scope
        self.scope_decorators: set[str] = set()  # decorators that run what they wrap in a scope
        self.ambient_strategies: set[str] = set()  # names bound to tf.distribute.get_strategy()
        self.partials: dict[str, str] = {}  # factory = functools.partial(build_model, ...)
        self.strategy_in_play = False
        self.strategy_name = ""
        self.replica_fn_names: set[str] = set()  # functions given to strategy.run
        self.replica_fn_params: list[tuple[Unit, str]] = []  # parameters given to strategy.run
        self.element_fn_names: set[str] = set()  # functions a dataset maps over its elements (flat_map...)
        self.per_replica_fn_names: set[str] = set()  # given to distribute_datasets_from_function
        self.entry_functions: set[str] = set()  # absl's app.run(main)
        self.imported_calls: set[str] = set()
        self.order = 0
        self.statement: ast.stmt | None = None
        self._scope_depth: dict[int, int] = {}  # id(unit) -> strategy scopes open around the walk
        self._targets_of: dict[int, tuple[str, ...]] = {}
        self._bound_in: dict[int, Unit] = {}
        self._iterated: set[int] = set()
        self._lambda_units: dict[int, Unit] = {}
        self._tape_depth = 0  # inside `with tf.GradientTape():`
        self._export_depth = 0  # inside the arguments of a checkpoint or an export
        self._branches: list[tuple[int, int]] = []  # the if/else branches the walk is in
        self._single_device = 0
        # The strategy is handed to an Estimator (RunConfig(train_distribute=...)),
        # which distributes without a scope.
        self.estimator_distribution = False
        self.scope_entered = False  # a `with ...scope():` somewhere in the file
        self.estimator_input_fns: set[str] = set()  # functions handed to an Estimator as input_fn=
        self._chained: dict[int, list[str]] = {}
        self._open_calls: list[CallSite] = []
        self._per_replica_depth = 0
        self._main_guard = 0
        self._statement_calls: set[int] = set()
        self._dispatch = {
            ast.Import: self._import,
            ast.ImportFrom: self._import_from,
            ast.FunctionDef: self._function,
            ast.AsyncFunctionDef: self._function,
            ast.Lambda: self._lambda,
            ast.ClassDef: self._class,
            ast.With: self._with,
            ast.AsyncWith: self._with,
            ast.If: self._if,
            ast.Try: self._try,
            ast.Match: self._match,
            getattr(ast, "TryStar", ast.Try): self._try,  # except* (3.11)
            ast.Assign: self._assign_statement,
            ast.AnnAssign: self._ann_assign,
            ast.AugAssign: self._aug_assign,
            ast.For: self._for,
            ast.AsyncFor: self._for,
            ast.NamedExpr: self._walrus,
            ast.Expr: self._expression_statement,
            ast.Return: self._return,
            ast.Name: self._name,
            ast.Attribute: self._attribute,
            ast.Call: self._call,
        }

    # --- the walk -----------------------------------------------------------------

    def build(self, tree: ast.Module) -> None:
        self.module.node = tree
        self.scope_functions |= scope_returning_functions(tree.body)
        self.scope_decorators = scope_decorators(tree.body)
        for statement in tree.body:
            self.statement = statement
            self.visit(statement)

    def visit(self, node: ast.AST) -> None:
        handler = self._dispatch.get(type(node))
        if handler is not None:
            handler(node)
        elif not isinstance(node, _LEAVES):
            self.children(node)

    def children(self, node: ast.AST) -> None:
        for field_name in node._fields:
            value = getattr(node, field_name, None)
            if isinstance(value, ast.AST):
                self.visit(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)

    def visit_all(self, nodes: Iterable[ast.AST | None]) -> None:
        for node in nodes:
            if node is not None:
                self.visit(node)

    @property
    def in_scope(self) -> bool:
        return self._scope_depth.get(id(self.unit), 0) > 0

    def _enter_scope(self, count: int = 1) -> None:
        key = id(self.unit)
        self._scope_depth[key] = self._scope_depth.get(key, 0) + count

    # --- names ----------------------------------------------------------------------

    def qualify(self, node: ast.AST) -> tuple[str, ...]:
        """Canonical qualified names ``node`` may refer to (several after conditional imports)."""
        if isinstance(node, ast.Name):
            name = node.id
            if name in self.imports:
                return tuple(api.canonical(q) for q in self.imports[name])
            if name in self.aliases:
                return self.aliases[name]
            if name in api.CONVENTIONAL_NAMES and name not in self.unit.params:
                # Notebook cells and `from setup import *` scripts use tf
                # without importing it themselves.
                return (api.CONVENTIONAL_NAMES[name],)
            if self.star_modules and not self._bound_here(name):
                return tuple(api.canonical(m + "." + name) for m in self.star_modules)
            return ()
        if isinstance(node, ast.Attribute):
            return tuple(api.canonical(h + "." + node.attr) for h in self.qualify(node.value))
        return ()

    def _bound_here(self, name: str) -> bool:
        """Bound by the file itself, where the walk is: then no star import supplies it."""
        unit: Unit | None = self.unit
        while unit is not None:
            if name in unit.bindings or name in unit.params:
                return True
            unit = unit.parent
        return name in self.functions or name in self.class_bases

    def is_strategy(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            name = node.id
            return (name in self.strategy_vars or name in self.extra_strategy_names
                    or api.says_strategy(name))
        if isinstance(node, ast.Attribute):
            name = dotted(node)
            return api.says_strategy(node.attr) or (
                name is not None and (name in self.strategy_vars or name in self.extra_strategy_names))
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
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "scope":
                return self.is_strategy(func.value) or self._handed_in(func.value)
            if last_identifier(func) in self.scope_functions:
                return True  # the file's own helper (function, method) that returns strategy.scope()
            if any(self.is_strategy(arg) for arg in node.args):
                return True  # with in_scope(strategy): a helper (maybe imported) that enters it
            last = last_identifier(func)
            return last is not None and api.says_strategy_scope(last)
        if isinstance(node, ast.Attribute) and node.attr in self.scope_functions:
            return True  # a @property that returns strategy.scope()
        if isinstance(node, (ast.Name, ast.Attribute)):
            return dotted(node) in self.scope_vars
        if isinstance(node, ast.IfExp):
            return self.is_scope(node.body) or self.is_scope(node.orelse)
        return False

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
        if not self.strategy_name or ("." in self.strategy_name and name and "." not in name):
            self.strategy_name = name

    # --- imports ---------------------------------------------------------------------

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.imports.setdefault(alias.asname, set()).add(alias.name)
                self._bind(alias.asname, BindingKind.IMPORT)
            else:
                head = alias.name.split(".")[0]
                self.imports.setdefault(head, set()).add(head)
                self._bind(head, BindingKind.IMPORT)

    def _import_from(self, node: ast.ImportFrom) -> None:
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name == "*":
                self.star_modules.append(module)
                continue
            local = alias.asname or alias.name
            self._bind(local, BindingKind.IMPORT)
            if node.module is None:  # from . import nets: nets.build() is ".nets.build"
                self.imports.setdefault(local, set()).add(module + alias.name)
            else:
                self.imports.setdefault(local, set()).add(f"{module}.{alias.name}")

    # --- units ------------------------------------------------------------------------

    def _parameters(self, arguments: ast.arguments) -> Iterator[ast.arg]:
        yield from arguments.posonlyargs
        yield from arguments.args
        yield from arguments.kwonlyargs
        for star in (arguments.vararg, arguments.kwarg):
            if star is not None:
                yield star

    def _enter(self, unit: Unit) -> Unit:
        outer = self.unit
        self.units.append(unit)
        self.unit = unit
        return outer

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        parent = self.unit
        enclosing_class = self.classes[-1] if self.classes else None
        # A function nested in a method still sees that method's ``self``.
        unit = Unit(node.name, UnitKind.FUNCTION, parent, node, class_name=enclosing_class or parent.class_name)
        # Decorators and defaults run where the function is defined; a default's
        # value is bound to its parameter in the function.
        self.visit_all(node.decorator_list)
        self._defaults(node.args, unit)
        for param in self._parameters(node.args):
            unit.params.add(param.arg)
            if api.says_strategy(param.arg) or param.arg in self.extra_strategy_names:
                unit.mentions_strategy = True
            annotation = dotted(param.annotation) if param.annotation is not None else None
            if param.arg in PER_REPLICA_PARAMS or (annotation and "InputContext" in annotation):
                unit.per_replica = True
        unit.per_replica = unit.per_replica or self._per_replica_depth > 0
        if enclosing_class is not None:
            self.methods[(enclosing_class, node.name)] = unit
        else:
            self.functions.setdefault(node.name, []).append(unit)
        saved_classes, self.classes = self.classes, []
        outer = self._enter(unit)
        if any(last_identifier(d.func if isinstance(d, ast.Call) else d) in self.scope_decorators
               for d in node.decorator_list):
            self._enter_scope()  # @under_strategy: the body runs inside the scope the decorator enters
        for param in self._parameters(node.args):
            self._bind(param.arg, BindingKind.PARAMETER)
        for statement in node.body:
            self.visit(statement)
        self.unit = outer
        self.classes = saved_classes

    def _defaults(self, arguments: ast.arguments, unit: Unit) -> None:
        positional = [*arguments.posonlyargs, *arguments.args]
        pairs = list(zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults))
        pairs += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None]
        for param, default in pairs:
            unit.defaults[param.arg] = default
            if isinstance(default, ast.Call):
                self._targets_of[id(default)] = (param.arg,)
                self._bound_in[id(default)] = unit
            self.visit(default)

    def _lambda(self, node: ast.Lambda) -> None:
        unit = Unit("<lambda>", UnitKind.LAMBDA, self.unit, node, class_name=self.unit.class_name)
        self._defaults(node.args, unit)
        for param in self._parameters(node.args):
            unit.params.add(param.arg)
            if param.arg in PER_REPLICA_PARAMS:
                unit.per_replica = True
        unit.per_replica = unit.per_replica or self._per_replica_depth > 0
        self._lambda_units[id(node)] = unit
        outer = self._enter(unit)
        self.visit(node.body)
        self.unit = outer

    def _class(self, node: ast.ClassDef) -> None:
        self.visit_all(node.decorator_list)
        self.visit_all(node.bases)
        self.visit_all(k.value for k in node.keywords)
        self.class_bases[node.name] = list(node.bases)
        # A class body runs where the class is defined; its methods know their class.
        self.classes.append(node.name)
        for statement in node.body:
            self.visit(statement)
        self.classes.pop()

    # --- scopes -----------------------------------------------------------------------

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        scoped = any(self.is_scope(item.context_expr) for item in node.items)
        if scoped:
            self.scope_entered = True
            self.unit.owns_strategy = True
            self.strategy_in_play = True
            for item in node.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
                    self._note_strategy(dotted(call.func.value) or "")
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                for name in target_names(item.optional_vars):
                    self._bind(name, BindingKind.WITH)
        # A scope entered inside the block (ExitStack.enter_context) ends with it.
        before = self._scope_depth.get(id(self.unit), 0)
        tape = any(
            isinstance(item.context_expr, ast.Call)
            and "tensorflow.GradientTape" in self.qualify(item.context_expr.func)
            for item in node.items
        )
        self._enter_scope(scoped)
        self._tape_depth += tape
        for statement in node.body:
            self.visit(statement)
        self._tape_depth -= tape
        self._scope_depth[id(self.unit)] = before

    def _if(self, node: ast.If) -> None:
        # ``if strategy: with strategy.scope(): ... else: ...``: the other branch
        # is the deliberate no-strategy path, so it is judged as if in a scope.
        body_free = else_free = False
        if node.orelse and tests_distribution(node.test):
            if self._enters_scope(node.body):
                else_free = True
            elif not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)) and self._enters_scope(
                node.orelse
            ):
                body_free = True
        self.visit(node.test)
        main_guard = self.unit.is_module and is_main_guard(node.test)
        self._main_guard += main_guard
        self._enter_scope(body_free)
        self._single_device += body_free
        self._branches.append((id(node), 0))
        for statement in node.body:
            self.visit(statement)
        self._branches[-1] = (id(node), 1)
        self._single_device -= body_free
        self._enter_scope(-body_free)
        self._main_guard -= main_guard
        self._enter_scope(else_free)
        self._single_device += else_free
        for statement in node.orelse:
            self.visit(statement)
        self._branches.pop()
        self._single_device -= else_free
        self._enter_scope(-else_free)

    def _branch(self, node: ast.AST, index: int, statements: list[ast.stmt]) -> None:
        self._branches.append((id(node), index))
        for statement in statements:
            self.visit(statement)
        self._branches.pop()

    def _try(self, node: ast.Try) -> None:
        # The body (with its else) and each handler are alternatives: a name
        # bound in `except` does not replace the one bound in `try`.
        self._branch(node, 0, node.body + node.orelse)
        for index, handler in enumerate(node.handlers, start=1):
            if handler.type is not None:
                self.visit(handler.type)
            if handler.name:
                self._bind(handler.name, BindingKind.OTHER)
            self._branch(node, index, handler.body)
        for statement in node.finalbody:
            self.visit(statement)

    def _match(self, node: ast.Match) -> None:
        self.visit(node.subject)
        for index, case in enumerate(node.cases):
            self.visit(case.pattern)
            if case.guard is not None:
                self.visit(case.guard)
            self._branch(node, index, case.body)

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

    # --- bindings ------------------------------------------------------------------------

    def _bind(self, name: str, kind: BindingKind, value: ast.expr | None = None, index: int | None = None) -> None:
        self.order += 1
        self.unit.bind(Binding(name, kind, self.order, value, tuple(self._branches), index))

    def _assign_statement(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and self._assign_pairwise(node.targets[0], node.value):
            return
        targets: list[str] = []
        simple = True
        for target in node.targets:
            if not isinstance(target, (ast.Name, ast.Attribute)):
                simple = False
            targets.extend(target_names(target))
        self._assign(targets, node.value, simple, node.targets)

    def _assign_pairwise(self, target: ast.expr, value: ast.expr) -> bool:
        """``a, b = x, y``: each name gets its own value."""
        if not (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))):
            return False
        if len(target.elts) != len(value.elts) or any(
            isinstance(e, ast.Starred) for e in (*target.elts, *value.elts)
        ):
            return False
        for left, right in zip(target.elts, value.elts):
            simple = isinstance(left, (ast.Name, ast.Attribute))
            self._assign(list(target_names(left)), right, simple, [left])
        return True

    def _ann_assign(self, node: ast.AnnAssign) -> None:
        self.visit(node.annotation)
        if node.value is None:
            self.visit(node.target)
            return
        self._assign(list(target_names(node.target)), node.value, True, [node.target])

    def _aug_assign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        self.visit(node.target)
        for name in target_names(node.target):
            self._bind(name, BindingKind.AUGMENTED, node.value)

    def _for(self, node: ast.For | ast.AsyncFor) -> None:
        self._iterated.add(id(node.iter))
        if isinstance(node.iter, ast.Name):
            self.unit.iterated.append(Use(node.iter.id, self.order))
        self.visit(node.iter)
        self.visit(node.target)
        for name in target_names(node.target):
            self._bind(name, BindingKind.LOOP, node.iter)  # the value: what is iterated
        for statement in node.body + node.orelse:
            self.visit(statement)

    def _walrus(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        for name in target_names(node.target):
            self._bind(name, BindingKind.WALRUS, node.value)

    def _assign(self, targets: list[str], value: ast.expr, simple: bool, target_nodes: list[ast.expr]) -> None:
        # metrics["auc"] = AUC(): held by the container it is stored in
        holders = tuple(targets) or tuple(
            t.value.id for t in target_nodes if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name))
        for call in held_calls(value):
            self._targets_of[id(call)] = holders
        self.visit(value)
        if isinstance(value, ast.Lambda) and len(targets) == 1 and id(value) in self._lambda_units:
            # build = lambda: keras.Sequential(...): a factory like any def
            self.functions.setdefault(targets[0], []).append(self._lambda_units[id(value)])
        for target in target_nodes:
            self.visit(target)  # self.x = ...: the subscripts and receivers it reads
        unpacked = _unpacked_positions(target_nodes)
        for name in targets:
            index = unpacked.get(name)
            self._bind(name, BindingKind.ASSIGNMENT if simple else BindingKind.OTHER,
                       value if simple or index is not None else None, index)
            if self.classes and "." not in name:
                # class CFG: batch_size = 32 -- read as CFG.batch_size
                self._bind(f"{self.classes[-1]}.{name}", BindingKind.ASSIGNMENT if simple else BindingKind.OTHER,
                           value if simple else None)
        if len(targets) == 1:
            self._learn_from_assignment(targets[0], value)

    def _learn_from_assignment(self, target: str, value: ast.expr) -> None:
        """Aliases, strategies, scope objects and instances of the file's classes."""
        if isinstance(value, (ast.Name, ast.Attribute)):
            qualified = self.qualify(value)
            if qualified and "." not in target:
                self.aliases[target] = qualified
        if self.is_scope(value):
            self.scope_vars.add(target)
        last = target.rsplit(".", 1)[-1]
        if isinstance(value, ast.Call) and api.call_role(self.qualify(value.func)) is api.CallRole.GET_STRATEGY:
            # self.strategy = tf.distribute.get_strategy(): the caller's strategy, whatever
            # scope it entered; reading it later is no sign this code must enter one.
            self.ambient_strategies.add(target)
        if self._makes_strategy(value):
            # MirroredStrategy() if len(gpus) > 1 else OneDeviceStrategy(...),
            # or dist = get_dist() where get_dist constructs one.
            self.strategy_vars.add(target)
            self._note_strategy(target)
            return
        if isinstance(value, ast.Call):
            qualified = self.qualify(value.func)
            if isinstance(value.func, ast.Name) and value.func.id == "getattr" and value.args:
                # optimizer_cls = getattr(tf.keras.optimizers, name): some class of that module
                for module, base in (("keras.optimizers", "Optimizer"), ("keras.metrics", "Metric")):
                    if module in self.qualify(value.args[0]) and "." not in target:
                        self.aliases[target] = (f"{module}.{base}",)
            helper = last_identifier(value.func)
            if helper and api.says_strategy(last) and _NAMES_A_STRATEGY_FACTORY.search(helper) and (
                    not qualified or not any(q.startswith(("tensorflow", "keras")) for q in qualified)):
                # strategy = set_TPU() / init_strategy(): the project's own helper (imported or not)
                self.strategy_in_play = True
            if last_identifier(value.func) in self.extra_strategy_names:
                # The user's own strategy factory (configured): as good as a constructor.
                self.strategy_vars.add(target)
                self.strategy_in_play = True
                self.unit.owns_strategy = True
                self._note_strategy(target)
                return
            if isinstance(value.func, ast.Name) and not qualified:
                self.instances[target] = value.func.id
            if (("functools.partial" in qualified or "tensorflow.function" in qualified)
                    and value.args and isinstance(value.args[0], ast.Name)):
                # factory = partial(build, 4); step = tf.function(step_fn): the same function
                self.partials[target] = self.partials.get(value.args[0].id, value.args[0].id)
        if api.says_strategy(last) or target in self.extra_strategy_names:
            if isinstance(value, ast.Constant) and value.value is None:
                return
            self.strategy_vars.add(target)
            # strategy = make_strategy(args): this code obtains its own strategy and is
            # judged on its own; self.strategy = strategy only keeps the caller's.
            if not isinstance(value, (ast.Name, ast.Attribute)):
                self.unit.owns_strategy = True
            self._note_strategy(target)

    def _makes_strategy(self, value: ast.expr) -> bool:
        """A strategy object: constructed, returned by the file's own function,
        or either branch of ``a if cond else b`` being one."""
        if isinstance(value, ast.IfExp):
            return self._makes_strategy(value.body) or self._makes_strategy(value.orelse)
        if isinstance(value, ast.Call):
            if isinstance(value.func, ast.Name) and not self.qualify(value.func):
                if any(u.makes_strategy for u in self.functions.get(value.func.id, ())):
                    return True
            return any(api.strategy_class(q) or q in api.GET_STRATEGY for q in self.qualify(value.func))
        if isinstance(value, ast.Name):
            return value.id in self.strategy_vars
        return False

    def _return(self, node: ast.Return) -> None:
        if node.value is not None:
            if self.unit.kind is UnitKind.FUNCTION and self.is_scope(node.value):
                self.scope_functions.add(self.unit.name)
            self.visit(node.value)

    def _expression_statement(self, node: ast.Expr) -> None:
        if self.unit.is_module and isinstance(node.value, ast.Call):
            self._statement_calls.add(id(node.value))
        self.visit(node.value)

    # --- references ------------------------------------------------------------------------

    def _reference(self, key: str) -> None:
        unit = self.unit
        unit.refs.add(key)
        unit.reads.append(Read(key, self.order, self.in_scope))
        if self.in_scope:
            unit.in_scope_refs.add(key)
        for site in self._open_calls:
            site.arg_refs.add(key)

    def _name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.unit.loads[node.id] += 1
            if self._export_depth:
                self.unit.inference.append(Use(node.id, self.order))
            self._reference(node.id)

    def _attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            key = ref_key(node)
            if key is not None and key.startswith("self."):
                self._reference(key)
                if api.says_strategy(node.attr) and key not in self.ambient_strategies:
                    self.unit.mentions_strategy = True
        self.visit(node.value)

    # --- calls ----------------------------------------------------------------------------------

    def _call(self, node: ast.Call) -> None:
        func = node.func
        qualified = self.qualify(func)
        self.order += 1
        site = CallSite(
            node=node,
            unit=self.unit,
            in_scope=self.in_scope,
            order=self.order,
            qualified=qualified,
            statement=self.statement,
            targets=self._targets_of.get(id(node), ()),
            receiver=ref_key(func.value) if isinstance(func, ast.Attribute) else None,
            chain_root=chain_root(func),
            inside_call=self._open_calls[-1] if self._open_calls else None,
            chained=tuple(self._chained.pop(id(node), ())),
            per_replica=self._per_replica_depth > 0,
            bound_in=self._bound_in.get(id(node)),
            class_body=self.classes[-1] if self.classes else None,
            iterated=id(node) in self._iterated,
            single_device=self._single_device > 0,
        )
        self.unit.calls.append(site)
        if qualified:
            self.imported_calls.update(qualified)
        self._learn_from_call(site, func, qualified)
        site.entry = site.callee is not None and not site.in_scope and self._starts_program(site)
        if isinstance(func, ast.Attribute):
            # ds.batch(8).map(f).unbatch(): tell the inner calls what follows them.
            inner = func.value
            while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
                self._chained.setdefault(id(inner), []).append(func.attr)
                inner = inner.func.value
        if isinstance(func, ast.Attribute) and func.attr in _FILLING_METHODS and isinstance(func.value, ast.Name):
            # metrics.update({"auc": AUC()}), trackers.append(Mean()): held by the container
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                for held in held_calls(argument):
                    self._targets_of[id(held)] = (func.value.id,)
        per_replica = isinstance(func, ast.Attribute) and func.attr in api.PER_REPLICA_DATASET_APIS
        self._per_replica_depth += per_replica
        # Checkpoint(model=m, embedding=m.dense), saved_model.save(m, signatures=m.serve): exported.
        exported = bool(qualified) and api.call_role(qualified) is api.CallRole.CHECKPOINT
        self._export_depth += exported
        self._open_calls.append(site)
        self.visit(func)
        self.visit_all(node.args)
        self.visit_all(k.value for k in node.keywords)
        self._open_calls.pop()
        self._per_replica_depth -= per_replica
        self._export_depth -= exported

    def _starts_program(self, site: CallSite) -> bool:
        """``main()`` as a statement of the module, anything called as a
        statement under ``if __name__ == "__main__":`` or as ``sys.exit(main())``
        there: the program itself, judged inside. Calls whose result is kept
        (``model = build_model()``) are judged where they are, guard or not."""
        if id(site.node) in self._statement_calls:
            func = site.node.func
            return bool(self._main_guard) or (isinstance(func, ast.Name) and func.id in _ENTRY_NAMES)
        outer = site.inside_call
        return bool(self._main_guard) and outer is not None and any(
            q in ("sys.exit", "exit", "quit") for q in (outer.qualified or (last_identifier(outer.node.func),))
        )

    def _learn_from_call(self, site: CallSite, func: ast.expr, qualified: tuple[str, ...]) -> None:
        node = site.node
        unit = self.unit
        if (isinstance(func, ast.Attribute) and func.attr in ("train", "evaluate", "predict") and node.args
                and isinstance(node.args[0], ast.Name) and node.args[0].id in self.functions):
            self.estimator_input_fns.add(node.args[0].id)  # estimator.train(input_fn, steps=...)
        for keyword in node.keywords:
            if keyword.arg == "input_fn":
                # TrainSpec(input_fn=train_input_fn), estimator.train(input_fn=lambda: input_fn(...))
                value = keyword.value.body if isinstance(keyword.value, ast.Lambda) else keyword.value
                if isinstance(value, ast.Call):
                    value = value.func
                if isinstance(value, ast.Name):
                    self.estimator_input_fns.add(value.id)
        role = api.call_role(qualified) if qualified else None
        if role is api.CallRole.APP_RUN and node.args and isinstance(node.args[0], ast.Name):
            self.entry_functions.add(node.args[0].id)
        if role is api.CallRole.ESTIMATOR and ("RunConfig" not in qualified[0] or any(
                k.arg in ("train_distribute", "eval_distribute") for k in node.keywords)):
            self.estimator_distribution = True
        if role is api.CallRole.STRATEGY:
            self.strategy_in_play = True
            unit.owns_strategy = unit.makes_strategy = True
            return
        if role is api.CallRole.GET_STRATEGY:
            # The current strategy: a function that asks for it runs in whatever
            # scope its caller entered, so this alone makes it no root.
            self.strategy_in_play = True
            return
        if role is api.CallRole.SET_STRATEGY:
            # experimental_set_strategy(strategy): what follows runs as in its scope.
            if node.args and not (isinstance(node.args[0], ast.Constant) and node.args[0].value is None):
                self._enter_scope()
                unit.owns_strategy = True
            return
        if self.external and qualified:
            helper = next((q for q in qualified if q in self.external), None)
            if helper is not None:
                site.callee = ImportedHelper(helper)
                return
        if role is api.CallRole.CHECKPOINT:
            return  # what its arguments read counts as exported, not trained (see _call)
        if isinstance(func, ast.Attribute):
            self._method_call(site, func, qualified)
        elif isinstance(func, ast.Name) and not qualified:
            if is_inference_call(node) or site.is_inside(_serving_function):
                # model(x, training=False), or a forward pass a serving tf.function wraps
                unit.inference.append(Use(func.id, site.order))
            elif not self._tape_depth and not any(k.arg == "training" for k in node.keywords):
                unit.forward.append(Use(func.id, site.order))  # model(x) outside a GradientTape: a prediction
            site.callee = LocalFunction(self.partials.get(func.id, func.id))
        elif isinstance(func, ast.Call) and "functools.partial" in self.qualify(func.func) and func.args:
            # functools.partial(build_model, depth=2)(num_classes=3)
            if isinstance(func.args[0], ast.Name):
                site.callee = LocalFunction(func.args[0].id)

    def _method_call(self, site: CallSite, func: ast.Attribute, qualified: tuple[str, ...]) -> None:
        attr = func.attr
        receiver = func.value
        if attr in INFERENCE_METHODS and (site.receiver or site.chain_root):
            # model.predict(x); sampler.layers[1].reset_states()
            self.unit.inference.append(Use(site.receiver or site.chain_root, site.order))
        if qualified:
            return  # a module function such as re.compile or tf.function
        if attr == "enter_context" and site.node.args and self.is_scope(site.node.args[0]):
            # stack.enter_context(strategy.scope()): in scope until the stack's block ends.
            self._enter_scope()
            self.unit.owns_strategy = True
            return
        if attr == "scope" and self.is_strategy(receiver):
            self.strategy_in_play = True
            self._note_strategy(dotted(receiver) or "")
            return
        if attr in api.ELEMENT_FUNCTION_METHODS:
            for arg in [*site.node.args, *(k.value for k in site.node.keywords)]:
                if isinstance(arg, ast.Name):
                    self.element_fn_names.add(arg.id)
        if attr in api.PER_REPLICA_DATASET_APIS:
            for arg in [*site.node.args, *(k.value for k in site.node.keywords)]:
                name = dotted(arg)
                if name:
                    self.per_replica_fn_names.add(name.rsplit(".", 1)[-1])
            return
        if attr in api.REPLICA_RUN_APIS and (
            self.is_strategy(receiver)
            or (self._handed_in(receiver) and _NAMES_A_STRATEGY.search(last_identifier(receiver) or ""))
            or (isinstance(receiver, ast.Attribute) and receiver.attr == "extended"
                and self.is_strategy(receiver.value))  # strategy.extended.call_for_each_replica
        ):
            function = site.node.args[0] if site.node.args else getattr(site.keyword("fn"), "value", None)
            if isinstance(function, ast.Call) and function.args and any(
                q in ("functools.partial", "tensorflow.function") for q in self.qualify(function.func)
            ):
                function = function.args[0]  # strategy.run(tf.function(step)), run(partial(step, model=m))
            if isinstance(function, ast.Lambda) and isinstance(function.body, ast.Call):
                function = function.body.func  # strategy.run(lambda b: train_step(b, model), ...)
            if function is not None:
                name = dotted(function)
                if name:
                    name = name.rsplit(".", 1)[-1]
                    self.replica_fn_names.add(self.partials.get(name, name))
                if isinstance(function, ast.Name) and function.id in self.unit.params:
                    # def run_step(strategy, fn, x): strategy.run(fn, ...): what callers pass as fn
                    self.replica_fn_params.append((self.unit, function.id))
            return
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            site.callee = SelfMethod(self.unit.class_name or "", attr)
        elif isinstance(receiver, ast.Name):
            site.callee = AttributeCall(receiver.id, attr)
        elif isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and not self.qualify(receiver.func):
            site.callee = AttributeCall(receiver.func.id, attr)  # CsvLoader(path).dataset()


def _serving_function(site: CallSite) -> bool:
    """``tf.function(lambda x: model(x), input_signature=...)``: a serving signature."""
    return "tensorflow.function" in site.qualified
