"""The walk: one pass over a libcst module recording imports, bindings,
scopes and events (see the package docstring for what happens next)."""

from __future__ import annotations

import dataclasses
import re
from typing import Iterator, Mapping

import libcst as cst

from mirrorguard.checker import names as api
from mirrorguard.checker.analysis.records import (
    BATCH,
    BUILD,
    CALL,
    COMPILE,
    LOAD,
    OPTIMIZER,
    Context,
    Event,
    dotted,
    last_identifier,
    ref_key,
    target_names,
)

# Calls on a model that neither train it nor hand it to something that might.
INFERENCE_METHODS = frozenset(
    {
        "compile",
        "evaluate",
        "predict",
        "predict_on_batch",
        "predict_step",
        "test_on_batch",
        "summary",
        "save",
        "save_weights",
        "load_weights",
        "get_weights",
        "set_weights",
        "to_json",
        "get_config",
        "count_params",
        "get_layer",
        "export",
    }
)

_PER_REPLICA_PARAMS = frozenset({"input_context", "input_ctx", "ctx_input"})


# Fields that hold only punctuation and whitespace, or names that are not
# references (the ``fit`` of ``model.fit``, a keyword, a definition's name):
# the walk never enters them, which is most of a libcst tree.
_PASSIVE_FIELDS = frozenset(
    {
        "lpar", "rpar", "comma", "semicolon", "leading_lines", "lines_after_decorators",
        "header", "footer", "trailing_whitespace", "equal", "colon", "dot", "star",
        "operator", "asynchronous", "newline", "indent", "first_line", "default_comma",
    }
)
_NOT_REFERENCES = {
    cst.Attribute: {"attr"},
    cst.FunctionDef: {"name"},
    cst.ClassDef: {"name"},
    cst.Arg: {"keyword"},
    cst.Param: {"name"},
    cst.AsName: {"name"},
}
_OPAQUE = (cst.Import, cst.ImportFrom, cst.BaseString, cst.Integer, cst.Float, cst.Imaginary)


def _child_fields(cls: type) -> tuple[str, ...]:
    skip = _NOT_REFERENCES.get(cls, set())
    return tuple(
        f.name
        for f in dataclasses.fields(cls)
        if f.name not in _PASSIVE_FIELDS and "whitespace" not in f.name and f.name not in skip
    )


class Walker:
    """Records imports, bindings, scopes and events in one walk.

    The walk is its own: libcst's visitor rebuilds every node it passes and
    enters every whitespace node, which costs more than the parse.
    """

    _dispatch: dict[type, tuple] = {}

    def __init__(self, extra_strategy_names: set[str], extra_model_factories: set[str],
                 external: Mapping[str, frozenset[str]]) -> None:
        self.external = external
        self.imported_calls: set[str] = set()
        self.top_statement: cst.CSTNode | None = None
        self.extra_strategy_names = extra_strategy_names
        self.extra_model_factories = {api.canonical(n) for n in extra_model_factories}
        self.imports: dict[str, set[str]] = {}
        self.star_modules: list[str] = []
        self.aliases: dict[str, tuple[str, ...]] = {}
        self.module_context = Context("<module>", None, is_module=True)
        self.context = self.module_context
        self.contexts: list[Context] = [self.module_context]
        self.frames: list[tuple[str, str]] = []  # ("class" | "function", name), innermost last
        self.class_bases: dict[str, list[cst.CSTNode]] = {}
        self.functions: dict[str, list[Context]] = {}
        self.methods: dict[tuple[str, str], Context] = {}
        self.instances: dict[str, str] = {}
        self.strategy_vars: set[str] = set()
        self.scope_vars: set[str] = set()
        self.strategy_kinds: set[str] = set()
        self.unknown_strategy = False
        self.strategy_in_play = False
        self.strategy_name = ""
        self.replica_fn_names: set[str] = set()
        self.per_replica_fn_names: set[str] = set()
        self._targets_of: dict[int, tuple[str, ...]] = {}
        self._scope_withs: set[int] = set()
        self._unscoped_branches: set[int] = set()
        self._unbatched: set[int] = set()
        self._call_marks: list[tuple[int, str, Event | None]] = []
        self.compile_stack: list[Event] = []
        # Events whose arguments' names matter (compile, optimizers, calls of
        # the file's own functions): every name read inside their parentheses.
        self.collectors: list[Event] = []
        self.model_names: set[str] = set()
        self.seq = 0
        # Calls that start the program (main() as a statement, anything under
        # ``if __name__ == "__main__":``, absl's app.run(main)).
        self.main_guard = 0
        self._statement_calls: set[int] = set()
        self.entry_functions: set[str] = set()
        self.optimizer_depth = 0
        self.per_replica_depth = 0

    def walk(self, module: cst.Module) -> None:
        # Statement by statement, so every event knows its top-level statement:
        # positions are later computed for those statements only.
        for statement in module.body:
            self.top_statement = statement
            self._visit(statement)

    def _handlers(self, cls: type) -> tuple:
        found = Walker._dispatch.get(cls)
        if found is None:
            name = cls.__name__
            visit = getattr(Walker, "visit_" + name, None)
            leave = getattr(Walker, "leave_" + name, None)
            fields = () if issubclass(cls, _OPAQUE) else _child_fields(cls)
            found = Walker._dispatch[cls] = (visit, leave, fields)
        return found

    def _visit(self, node: cst.CSTNode) -> None:
        visit, leave, fields = self._handlers(type(node))
        if visit is not None:
            visit(self, node)
        if type(node) is cst.With:
            self._visit_with(node)
        elif type(node) is cst.If:
            self._visit_if(node)
        else:
            for name in fields:
                value = getattr(node, name)
                if isinstance(value, cst.CSTNode):
                    self._visit(value)
                elif isinstance(value, (tuple, list)):
                    for item in value:
                        if isinstance(item, cst.CSTNode):
                            self._visit(item)
        if leave is not None:
            leave(self, node)

    def _visit_with(self, node: cst.With) -> None:
        for item in node.items:
            self._visit(item)
        scoped = id(node) in self._scope_withs
        self.context.scope_depth += scoped
        self._visit(node.body)
        self.context.scope_depth -= scoped

    def _visit_if(self, node: cst.If) -> None:
        self._visit(node.test)
        body_scoped = id(node.body) in self._unscoped_branches
        main_guard = self.context.is_module and _is_main_guard(node.test)
        self.context.scope_depth += body_scoped
        self.main_guard += main_guard
        self._visit(node.body)
        self.main_guard -= main_guard
        self.context.scope_depth -= body_scoped
        if node.orelse is not None:
            else_scoped = id(node.orelse) in self._unscoped_branches
            self.context.scope_depth += else_scoped
            self._visit(node.orelse)
            self.context.scope_depth -= else_scoped

    # --- names -------------------------------------------------------------

    def qualify(self, node: cst.CSTNode) -> tuple[str, ...]:
        """Canonical qualified names ``node`` may refer to (several after conditional imports)."""
        if isinstance(node, cst.Name):
            name = node.value
            if name in self.imports:
                return tuple(api.canonical(q) for q in self.imports[name])
            if name in self.aliases:
                return self.aliases[name]
            if name in api.CONVENTIONAL_NAMES and name not in self.context.params:
                # Notebook cells and `from setup import *` scripts use tf
                # without importing it themselves.
                return (api.CONVENTIONAL_NAMES[name],)
            if self.star_modules:
                return tuple(api.canonical(m + "." + name) for m in self.star_modules)
            return ()
        if isinstance(node, cst.Attribute):
            heads = self.qualify(node.value)
            return tuple(api.canonical(h + "." + node.attr.value) for h in heads)
        return ()

    def is_strategy(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.Name):
            name = node.value
            return (name in self.strategy_vars or name in self.extra_strategy_names
                    or (api.says_strategy(name) and name not in self.imports))
        if isinstance(node, cst.Attribute):
            name = dotted(node)
            return (
                api.says_strategy(node.attr.value)
                or (name is not None and (name in self.strategy_vars or name in self.extra_strategy_names))
            )
        if isinstance(node, cst.Call):
            qualified = self.qualify(node.func)
            if any(api.strategy_class(q) or q in api.GET_STRATEGY for q in qualified):
                return True
            last = last_identifier(node.func)
            if last in self.extra_strategy_names:
                return True
            return last is not None and not qualified and api.says_strategy(last)
        return False

    def is_scope(self, node: cst.CSTNode) -> bool:
        """Does entering ``node`` as a context manager enter a strategy scope?"""
        if isinstance(node, cst.Call):
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "scope":
                return self.is_strategy(func.value)
            last = last_identifier(func)
            return last is not None and api.says_strategy_scope(last)
        if isinstance(node, cst.Name):
            return node.value in self.scope_vars
        if isinstance(node, cst.Attribute):
            return dotted(node) in self.scope_vars
        if isinstance(node, cst.IfExp):
            return self.is_scope(node.body) or self.is_scope(node.orelse)
        return False

    def _note_strategy(self, name: str) -> None:
        if not self.strategy_name:
            self.strategy_name = name

    # --- imports -------------------------------------------------------------

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted(alias.name)
            if not full:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.imports.setdefault(alias.asname.name.value, set()).add(full)
            else:
                head = full.split(".")[0]
                self.imports.setdefault(head, set()).add(head)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        dots = "." * len(node.relative)
        if node.module is None:
            # from . import nets: nets.build() resolves to ".nets.build"
            if not isinstance(node.names, cst.ImportStar):
                for alias in node.names:
                    name = dotted(alias.name)
                    if name:
                        local = name
                        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                            local = alias.asname.name.value
                        self.imports.setdefault(local, set()).add(dots + name)
            return
        module = dots + (dotted(node.module) or "")
        if isinstance(node.names, cst.ImportStar):
            self.star_modules.append(module)
            return
        for alias in node.names:
            name = dotted(alias.name)
            if not name:
                continue
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            self.imports.setdefault(local, set()).add(f"{module}.{name}")

    # --- definitions ---------------------------------------------------------

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        name = node.name.value
        self.class_bases[name] = [arg.value for arg in node.bases]
        self.frames.append(("class", name))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.frames.pop()

    def _enter_context(self, context: Context) -> None:
        self.contexts.append(context)
        self.context = context

    def _leave_context(self) -> None:
        self.context = self.context.parent or self.module_context

    def _param_names(self, params: cst.Parameters) -> Iterator[cst.Param]:
        yield from params.posonly_params
        yield from params.params
        yield from params.kwonly_params
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                yield star

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        parent = self.context
        enclosing_class = self.frames[-1][1] if self.frames and self.frames[-1][0] == "class" else None
        # A function nested in a method still sees that method's ``self``.
        class_name = enclosing_class or parent.class_name
        context = Context(node.name.value, parent, class_name=class_name)
        for param in self._param_names(node.params):
            pname = param.name.value
            context.params.add(pname)
            if api.says_strategy(pname) or pname in self.extra_strategy_names:
                context.mentions_strategy = True
            annotation = param.annotation
            if pname in _PER_REPLICA_PARAMS or (
                annotation is not None and "InputContext" in (dotted(annotation.annotation) or "")
            ):
                context.per_replica = True
        if self.per_replica_depth:
            context.per_replica = True
        if enclosing_class is not None:
            self.methods[(enclosing_class, node.name.value)] = context
        else:
            self.functions.setdefault(node.name.value, []).append(context)
        self.frames.append(("function", node.name.value))
        self._enter_context(context)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.frames.pop()
        self._leave_context()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        context = Context("<lambda>", self.context, class_name=self.context.class_name, is_lambda=True)
        for param in self._param_names(node.params):
            context.params.add(param.name.value)
            if param.name.value in _PER_REPLICA_PARAMS:
                context.per_replica = True
        if self.per_replica_depth:
            context.per_replica = True
        self._enter_context(context)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self._leave_context()

    # --- scopes --------------------------------------------------------------

    def visit_With(self, node: cst.With) -> None:
        if any(self.is_scope(item.item) for item in node.items):
            self._scope_withs.add(id(node))
            self.context.owns_strategy = True
            self.strategy_in_play = True
            for item in node.items:
                call = item.item
                if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute):
                    self._note_strategy(dotted(call.func.value) or "")
        for item in node.items:
            if item.asname is not None:
                for name in target_names(item.asname.name):
                    self._bind(name, None)

    # ``if strategy: with strategy.scope(): ... else: ...``: the other branch
    # is the deliberate no-strategy path, so it is treated as if in a scope.
    def visit_If(self, node: cst.If) -> None:
        orelse = node.orelse
        if orelse is None or not _tests_distribution(node.test):
            return
        if self._enters_scope(node.body.body):
            self._unscoped_branches.add(id(orelse))
        elif isinstance(orelse, cst.Else) and self._enters_scope(orelse.body.body):
            self._unscoped_branches.add(id(node.body))

    def _enters_scope(self, body) -> bool:
        for statement in body:
            if isinstance(statement, cst.With) and any(self.is_scope(i.item) for i in statement.items):
                return True
            if isinstance(statement, (cst.If, cst.For, cst.While, cst.Try)):
                if self._enters_scope(statement.body.body):
                    return True
        return False

    # --- bindings --------------------------------------------------------------

    def _bind(self, name: str, value) -> None:
        context = self.context
        # The walk order numbers bindings and events alike, so a use can be
        # matched with the bindings that come before it (see resolve._name_value).
        self.seq += 1
        context.assignments.setdefault(name, []).append((self.seq, value))
        if "." not in name:
            context.stores[name] += 1

    def _assign(self, targets: list[str], value: cst.BaseExpression | None, simple: bool) -> None:
        for name in targets:
            self._bind(name, value if simple else None)
        if value is None:
            return
        calls = [value]
        if isinstance(value, (cst.List, cst.Tuple)):
            calls = [element.value for element in value.elements]
        for call in calls:
            if isinstance(call, cst.Call):
                self._targets_of[id(call)] = tuple(targets)
        if len(targets) != 1:
            return
        (target,) = targets
        if isinstance(value, (cst.Name, cst.Attribute)):
            qualified = self.qualify(value)
            if qualified and "." not in target:
                self.aliases[target] = qualified
        if self.is_scope(value):
            self.scope_vars.add(target)
        last = target.rsplit(".", 1)[-1]
        if self._makes_strategy(value):
            # MirroredStrategy() if len(gpus) > 1 else OneDeviceStrategy(...),
            # or dist = get_dist() where get_dist constructs one.
            self.strategy_vars.add(target)
            self._note_strategy(target)
            return
        if isinstance(value, cst.Call):
            qualified = self.qualify(value.func)
            kinds = {api.strategy_class(q) for q in qualified} - {None}
            if kinds:
                self.strategy_vars.add(target)
                self._note_strategy(target)
                return
            if last_identifier(value.func) in self.extra_strategy_names:
                # The user's own strategy factory (configured): as good as a constructor.
                self.strategy_vars.add(target)
                self.strategy_in_play = True
                self.context.owns_strategy = True
                self.unknown_strategy = True
                self._note_strategy(target)
                return
            if isinstance(value.func, cst.Name) and not qualified:
                self.instances[target] = value.func.value
            if any(q in api.GET_STRATEGY for q in qualified):
                self.strategy_vars.add(target)
                self._note_strategy(target)
                return
        if api.says_strategy(last) or target in self.extra_strategy_names:
            if isinstance(value, cst.Name) and value.value in ("None",):
                return
            self.strategy_vars.add(target)
            self.context.owns_strategy = True
            self.unknown_strategy = True
            self._note_strategy(target)

    def _makes_strategy(self, value: cst.CSTNode) -> bool:
        """A strategy object: constructed, returned by the file's own function,
        or either branch of ``a if cond else b`` being one."""
        if isinstance(value, cst.IfExp):
            return self._makes_strategy(value.body) or self._makes_strategy(value.orelse)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and not self.qualify(value.func):
            if any(c.makes_strategy for c in self.functions.get(value.func.value, ())):
                return True
        if isinstance(value, cst.Call):
            return any(api.strategy_class(q) or q in api.GET_STRATEGY for q in self.qualify(value.func))
        if isinstance(value, cst.Name):
            return value.value in self.strategy_vars
        return False

    def visit_Expr(self, node: cst.Expr) -> None:
        if self.context.is_module and isinstance(node.value, cst.Call):
            self._statement_calls.add(id(node.value))

    def visit_Assign(self, node: cst.Assign) -> None:
        if self._assign_pairwise(node):
            return
        self._assign_whole(node)

    def _assign_pairwise(self, node: cst.Assign) -> bool:
        """``a, b = x, y``: each name gets its own value."""
        if len(node.targets) != 1:
            return False
        target, value = node.targets[0].target, node.value
        if not (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))):
            return False
        if len(target.elements) != len(value.elements) or any(
            isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)
        ):
            return False
        for left, right in zip(target.elements, value.elements):
            if isinstance(left.value, (cst.Name, cst.Attribute)):
                self._assign(list(target_names(left.value)), right.value, True)
            else:
                self._assign(list(target_names(left.value)), None, False)
        return True

    def _assign_whole(self, node: cst.Assign) -> None:
        targets: list[str] = []
        simple = True
        for target in node.targets:
            if not isinstance(target.target, (cst.Name, cst.Attribute)):
                simple = False
            targets.extend(target_names(target.target))
        self._assign(targets, node.value, simple)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._assign(list(target_names(node.target)), node.value, True)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        for name in target_names(node.target):
            # An augmented value combines with what was there: record both.
            self._bind(name, ("aug", node.value))

    def visit_For(self, node: cst.For) -> None:
        for name in target_names(node.target):
            self._bind(name, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        for name in target_names(node.target):
            self._bind(name, None)

    # --- references ----------------------------------------------------------

    def _reference(self, key: str) -> None:
        context = self.context
        context.refs.add(key)
        if context.scope_depth:
            context.in_scope_refs.add(key)
        for event in self.collectors:
            event.arg_refs.add(key)

    def visit_Name(self, node: cst.Name) -> None:
        self.context.loads[node.value] += 1
        self._reference(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        key = ref_key(node)
        if key is not None and key.startswith("self."):
            self._reference(key)
            if api.says_strategy(node.attr.value):
                self.context.mentions_strategy = True

    # --- calls ---------------------------------------------------------------

    def _event(self, kind: str, node: cst.CSTNode, **kwargs) -> Event:
        context = self.context
        self.seq += 1
        event = Event(kind, node, context, context.scope_depth > 0, top=self.top_statement,
                      seq=self.seq, **kwargs)
        if kind == CALL and (
            self.main_guard
            or (id(node) in self._statement_calls and isinstance(node, cst.Call)
                and isinstance(node.func, cst.Name) and node.func.value in ("main", "run", "train"))
        ):
            event.entry = True
        if kind in (BUILD, LOAD):
            self.model_names.update(kwargs.get("targets", ()))
        context.events.append(event)
        return event

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        qualified = self.qualify(func)
        targets = self._targets_of.get(id(node), ())
        mark: tuple[int, str, Event | None] | None = None
        if qualified:
            self.imported_calls.update(qualified)
            if any(q.endswith("app.run") for q in qualified) and node.args:
                entry = node.args[0].value
                if isinstance(entry, cst.Name):
                    self.entry_functions.add(entry.value)

        if any(api.strategy_class(q) for q in qualified):
            self.strategy_in_play = True
            self.context.owns_strategy = True
            self.context.makes_strategy = True
            self.strategy_kinds.update(k for k in map(api.strategy_class, qualified) if k)
        elif any(q in api.GET_STRATEGY for q in qualified):
            self.strategy_in_play = True
            self.context.mentions_strategy = True
            self.unknown_strategy = True

        if _rewires_existing_model(node, qualified):
            pass  # keras.Model(model.input, [layer.output, model.output]): no new variables
        elif any(api.builds_model(q) for q in qualified) or self._is_model_factory(func, qualified):
            detail = qualified[0] if qualified else (last_identifier(func) or "")
            self._event(BUILD, node, detail=detail, targets=targets)
        elif any(api.loads_model(q) for q in qualified):
            self._event(LOAD, node, detail=qualified[0], targets=targets)
        elif any(api.creates_optimizer(q) or api.creates_metric(q) for q in qualified):
            inline = bool(self.compile_stack) or self.optimizer_depth > 0
            event = self._event(OPTIMIZER, node, detail=qualified[0], targets=targets, inline=inline)
            self.optimizer_depth += 1
            self.collectors.append(event)
            mark = (id(node), "optimizer", event)
        elif any(q in api.SET_STRATEGY for q in qualified):
            # experimental_set_strategy(strategy): what follows runs as in its scope.
            if node.args and not (isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == "None"):
                self.context.scope_depth += 1
                self.context.owns_strategy = True
        elif any(q in api.DATASET_FROM_DIRECTORY for q in qualified):
            self._batch_keyword(node)
        elif self.external and any(q in self.external for q in qualified):
            name = next(q for q in qualified if q in self.external)
            self._event(CALL, node, callee=("external", name), targets=targets)
        elif any(q in _CHECKPOINTS for q in qualified):
            # Checkpointing a model neither trains it nor hands it on.
            for arg in node.args:
                key = ref_key(arg.value)
                if key is not None:
                    self.context.inference_uses[key] += 1
        elif isinstance(func, cst.Attribute):
            mark = self._method_call(node, func, qualified, targets)
        elif isinstance(func, cst.Name) and not qualified:
            if _is_inference_call(node):
                self.context.inference_uses[func.value] += 1
            event = self._event(CALL, node, callee=("func", func.value), targets=targets)
            self.collectors.append(event)
            mark = (id(node), "collect", event)
        if mark is not None:
            self._call_marks.append(mark)

    def _is_model_factory(self, func: cst.CSTNode, qualified: tuple[str, ...]) -> bool:
        """One of the user's configured model factories, by full or bare name."""
        factories = self.extra_model_factories
        if not factories:
            return False
        return last_identifier(func) in factories or any(q in factories for q in qualified)

    def _method_call(self, node: cst.Call, func: cst.Attribute, qualified, targets):
        attr = func.attr.value
        receiver = func.value
        receiver_key = ref_key(receiver)
        if receiver_key is not None and attr in INFERENCE_METHODS:
            self.context.inference_uses[receiver_key] += 1
        if qualified:
            return None  # a module function such as re.compile or tf.function
        if attr == "scope" and self.is_strategy(receiver):
            self.strategy_in_play = True
            self._note_strategy(dotted(receiver) or "")
            return None
        if attr == "compile" and self._looks_like_model_compile(node, receiver_key):
            event = self._event(COMPILE, node, receiver=receiver_key)
            self.compile_stack.append(event)
            self.collectors.append(event)
            return (id(node), "compile", event)
        if attr == "build" and isinstance(receiver, cst.Attribute) and receiver.attr.value == "hypermodel":
            # Keras Tuner: tuner.hypermodel.build(best_hps) runs the user's model builder.
            self._event(BUILD, node, detail="keras_tuner.HyperModel.build", targets=targets)
            return None
        if attr in ("unbatch", "rebatch"):
            # ds.batch(1024).map(vectorize).unbatch(): a batch for speed, not the global batch.
            inner = receiver
            while isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute):
                if inner.func.attr.value in api.BATCH_METHODS:
                    self._unbatched.add(id(inner))
                inner = inner.func.value
            return None
        if attr in api.BATCH_METHODS and id(node) not in self._unbatched:
            value = node.args[0] if node.args and node.args[0].keyword is None else None
            value = value or self._keyword(node, "batch_size")
            if value is not None:
                self._event(BATCH, node, value=value.value, report_node=value,
                            per_replica=self.per_replica_depth > 0)
            return None
        if attr in api.BATCH_SIZE_POSITION:
            self._batch_keyword(node, api.BATCH_SIZE_POSITION[attr])
            return None
        if attr in api.PER_REPLICA_DATASET_APIS:
            for arg in node.args:
                name = dotted(arg.value)
                if name:
                    self.per_replica_fn_names.add(name.rsplit(".", 1)[-1])
            self.per_replica_depth += 1
            return (id(node), "per_replica", None)
        if attr in api.REPLICA_RUN_APIS and self.is_strategy(receiver):
            if node.args:
                name = dotted(node.args[0].value)
                if name:
                    self.replica_fn_names.add(name.rsplit(".", 1)[-1])
            return None
        if isinstance(receiver, cst.Name) and receiver.value in ("self", "cls"):
            event = self._event(CALL, node, callee=("method", self.context.class_name or "", attr),
                                targets=targets)
        elif isinstance(receiver, cst.Name):
            event = self._event(CALL, node, callee=("attr", receiver.value, attr), targets=targets)
        else:
            return None
        self.collectors.append(event)
        return (id(node), "collect", event)

    def _keyword(self, node: cst.Call, keyword: str) -> cst.Arg | None:
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return arg
        return None

    def _batch_keyword(self, node: cst.Call, position: int | None = None) -> None:
        arg = self._keyword(node, "batch_size")
        if arg is None and position is not None:
            positional = [a for a in node.args if a.keyword is None and not a.star]
            if len(positional) > position:
                arg = positional[position]
        if arg is not None:
            self._event(BATCH, node, value=arg.value, report_node=arg,
                        per_replica=self.per_replica_depth > 0)

    def _looks_like_model_compile(self, node: cst.Call, receiver_key: str | None) -> bool:
        for arg in node.args:
            if arg.keyword is not None:
                keyword = arg.keyword.value
                # Keras's own keywords, and custom compile()s: d_optimizer=, loss_fn=.
                if keyword in api.COMPILE_KEYWORDS or keyword.endswith(("optimizer", "loss", "loss_fn")):
                    return True
        if receiver_key is not None and receiver_key in self.model_names:
            return True
        positional = [arg.value for arg in node.args if arg.keyword is None]
        if positional:
            first = positional[0]
            if isinstance(first, cst.SimpleString) and first.raw_value.lower() in api.OPTIMIZER_NAMES:
                return True
            if isinstance(first, cst.Call) and any(api.creates_optimizer(q) for q in self.qualify(first.func)):
                return True
        if receiver_key is None:
            return False
        lowered = receiver_key.lower()
        return "model" in lowered or "net" in lowered or lowered.endswith(("classifier", "regressor"))

    def leave_Call(self, original_node: cst.Call) -> None:
        marks = self._call_marks
        while marks and marks[-1][0] == id(original_node):
            _, what, _event = marks.pop()
            if what == "compile":
                self.compile_stack.pop()
                self.collectors.pop()
            elif what == "optimizer":
                self.optimizer_depth -= 1
                self.collectors.pop()
            elif what == "collect":
                self.collectors.pop()
            elif what == "per_replica":
                self.per_replica_depth -= 1


# A condition that chooses between distributed and single-device code:
# ``if strategy:``, ``if num_gpus > 1:``, ``if args.distributed:``.
_DISTRIBUTION_WORDS = re.compile(r"(?i)strat|replica|gpu|tpu|distribut|device|worker|parallel|multi")


def _tests_distribution(test: cst.CSTNode) -> bool:
    pending: list[cst.CSTNode] = [test]
    while pending:
        current = pending.pop()
        if isinstance(current, cst.Name) and _DISTRIBUTION_WORDS.search(current.value):
            return True
        pending.extend(current.children)
    return False


# Checkpointing or exporting a model neither trains it nor hands it on.
_CHECKPOINTS = frozenset(
    {"tensorflow.train.Checkpoint", "tensorflow.train.CheckpointManager", "tensorflow.saved_model.save"}
)


def _is_inference_call(node: cst.Call) -> bool:
    """``model(x, training=False)``: a forward pass that cannot be training."""
    for arg in node.args:
        if (
            arg.keyword is not None
            and arg.keyword.value == "training"
            and isinstance(arg.value, cst.Name)
            and arg.value.value == "False"
        ):
            return True
    return False


_GRAPH_ENDS = frozenset({"input", "inputs", "output", "outputs"})


def _rewires_existing_model(node: cst.Call, qualified: tuple[str, ...]) -> bool:
    """``keras.Model(model.inputs, [model.get_layer("conv").output, model.output])``.

    A functional model made only of another model's input and output tensors
    (Grad-CAM, feature extractors) adds no layers and so no variables. A new
    layer applied on the way (``Dense(10)(base.output)``) is not a plain
    attribute read and keeps the call a model construction.
    """
    if not any(q in ("keras.Model", "keras.models.Model") for q in qualified):
        return False
    values = [arg.value for arg in node.args if arg.keyword is None or arg.keyword.value in ("inputs", "outputs")]
    if len(values) != 2:
        return False

    def graph_end(value: cst.CSTNode) -> bool:
        if isinstance(value, (cst.List, cst.Tuple)):
            return bool(value.elements) and all(graph_end(e.value) for e in value.elements)
        return isinstance(value, cst.Attribute) and value.attr.value in _GRAPH_ENDS

    return all(graph_end(value) for value in values)


def _is_main_guard(test: cst.CSTNode) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    left, right = test.left, test.comparisons[0].comparator
    names = {n.value for n in (left, right) if isinstance(n, cst.Name)}
    strings = {n.evaluated_value for n in (left, right) if isinstance(n, cst.SimpleString)}
    return names == {"__name__"} and strings == {"__main__"}

