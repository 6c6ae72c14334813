"""One pass over a libcst module: which strategy is in play, where its scopes
are, and what builds, loads or compiles a model, or creates an optimizer, where.

The walk records *events* (a model built here, a helper called there), each
tagged with whether it sits lexically inside a ``strategy.scope()`` block of its
own function. Afterwards, summaries of the file's functions and classes decide
whether an event outside a scope really runs outside one:

* a function that creates a strategy or enters a scope is judged on its own
  (it is a *root*), as is the module body when a strategy is in play;
* any other function is judged where it is called: what it does outside its
  own scopes is *exposed* to its callers, transitively, and reported at the
  call site that runs outside a scope;
* a function never called in the file is judged on its own only when it
  mentions a strategy (a ``strategy`` parameter, ``self.strategy``...).

No libcst metadata provider is used: imports, bindings and scopes are tracked
here, which is several times cheaper (see ``benchmarks/``).
"""

from __future__ import annotations

from collections import Counter
import dataclasses
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping

import libcst as cst

from mirrorguard.checker import names as api

BUILD, LOAD, COMPILE, OPTIMIZER, CALL, BATCH = "build", "load", "compile", "optimizer", "call", "batch"

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


@dataclass(eq=False)
class Event:
    kind: str
    node: cst.CSTNode
    context: Context
    in_scope: bool
    detail: str = ""
    targets: tuple[str, ...] = ()
    callee: tuple[str, ...] | None = None
    inline: bool = False  # an optimizer created inside compile(...) or another optimizer
    receiver: str | None = None  # compile: the model it is called on
    arg_refs: set[str] = field(default_factory=set)  # compile: names its arguments use
    value: cst.CSTNode | None = None  # batch: the batch-size expression
    report_node: cst.CSTNode | None = None
    per_replica: bool = False
    top: cst.CSTNode | None = None  # the module-level statement it is in


@dataclass(eq=False)
class Context:
    """A function body, a lambda, or the module body."""

    name: str
    parent: Context | None
    class_name: str | None = None
    is_module: bool = False
    is_lambda: bool = False
    params: set[str] = field(default_factory=set)
    scope_depth: int = 0
    events: list[Event] = field(default_factory=list)
    owns_strategy: bool = False
    mentions_strategy: bool = False
    per_replica: bool = False
    loads: Counter = field(default_factory=Counter)
    stores: Counter = field(default_factory=Counter)
    inference_uses: Counter = field(default_factory=Counter)
    assignments: dict[str, list] = field(default_factory=dict)
    in_scope_refs: set[str] = field(default_factory=set)
    refs: set[str] = field(default_factory=set)
    call_sites: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class OutsideScope:
    """Something that must run inside ``strategy.scope()`` and does not."""

    kind: str  # BUILD, LOAD, COMPILE or OPTIMIZER
    node: cst.CSTNode
    via: str | None = None  # the file's own helper that does it, when reported at its call
    top: cst.CSTNode | None = None  # the module-level statement the node is in
    detail: str = ""  # the canonical API called, when called directly


@dataclass(frozen=True)
class UnscaledBatch:
    node: cst.CSTNode
    value: int | None
    top: cst.CSTNode | None = None


@dataclass
class Analysis:
    strategy_in_play: bool
    outside_scope: list[OutsideScope]
    unscaled_batches: list[UnscaledBatch]
    strategy_name: str


def analyse(module: cst.Module, *, extra_strategy_names: Iterable[str] = (),
            extra_model_factories: Iterable[str] = (),
            external: Mapping[str, frozenset[str]] | None = None) -> Analysis:
    """Analyse one module.

    ``external`` maps qualified names of functions defined in *other* files of
    the checked tree (``models.build_model``, ``.nets.make_net``: spelled as
    this file's imports reach them) to what they do outside a scope (see
    :func:`summarise`), so they are judged at their call sites here.
    """
    walker = _Walker(set(extra_strategy_names), set(extra_model_factories), external or {})
    walker.walk(module)
    return _Resolver(walker).resolve()


def summarise(module: cst.Module) -> dict[str, frozenset[str]]:
    """What each module-level function and model class does outside a scope of its own.

    Keys are the names as the module defines them; values are sets of BUILD,
    LOAD, COMPILE and OPTIMIZER. Used for cross-file analysis.
    """
    walker = _Walker(set(), set(), {})
    walker.walk(module)
    resolver = _Resolver(walker)
    summary: dict[str, frozenset[str]] = {}
    for name, contexts in walker.functions.items():
        top = [c for c in contexts if c.parent is walker.module_context]
        if top:
            kinds = resolver.exposed(top[-1])
            if kinds:
                summary[name] = kinds
    for name in resolver.model_classes:
        summary[name] = frozenset({BUILD})
    return summary


def imported_modules(module: cst.Module) -> set[str]:
    """The modules a file imports from, as written (``.nets``, ``trainer.models``)."""
    found: set[str] = set()
    for statement in _walk_statements(module.body):
        if isinstance(statement, cst.Import):
            for alias in statement.names:
                name = dotted(alias.name)
                if name:
                    found.add(name)
        elif isinstance(statement, cst.ImportFrom) and not isinstance(statement.names, cst.ImportStar):
            base = ("." * len(statement.relative)) + (dotted(statement.module) if statement.module else "")
            found.add(base)
            for alias in statement.names:
                name = dotted(alias.name)
                if name:
                    found.add(f"{base}.{name}" if base and not base.endswith(".") else base + name)
    return found


def _walk_statements(body) -> Iterator[cst.CSTNode]:
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from statement.body
        elif isinstance(statement, (cst.If, cst.Try, cst.With)):
            yield from _walk_statements(statement.body.body)
            if isinstance(statement, cst.If) and statement.orelse is not None:
                orelse = statement.orelse
                if isinstance(orelse, cst.If):
                    yield from _walk_statements([orelse])
                else:
                    yield from _walk_statements(orelse.body.body)
            if isinstance(statement, cst.Try):
                for handler in statement.handlers:
                    yield from _walk_statements(handler.body.body)


def dotted(node: cst.CSTNode) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def _last_identifier(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


def _target_names(target: cst.CSTNode) -> Iterator[str]:
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, cst.Attribute):
        name = dotted(target)
        if name:
            yield name
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from _target_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from _target_names(target.value)


def _ref_key(node: cst.CSTNode) -> str | None:
    """The key a value is tracked under: ``x`` or ``self.x``."""
    if isinstance(node, cst.Name):
        return node.value
    if (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value in ("self", "cls")
    ):
        return "self." + node.attr.value
    return None


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


class _Walker:
    """Records imports, bindings, scopes and events in one walk.

    The walk is its own: libcst's visitor rebuilds every node it passes and
    enters every whitespace node, which costs more than the parse.
    """

    _dispatch: dict[type, tuple] = {}

    def __init__(self, extra_strategy_names: set[str], extra_model_factories: set[str],
                 external: Mapping[str, frozenset[str]]) -> None:
        self.external = external
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
        self._call_marks: list[tuple[int, str, Event | None]] = []
        self.compile_stack: list[Event] = []
        self.optimizer_depth = 0
        self.per_replica_depth = 0

    def walk(self, module: cst.Module) -> None:
        # Statement by statement, so every event knows its top-level statement:
        # positions are later computed for those statements only.
        for statement in module.body:
            self.top_statement = statement
            self._visit(statement)

    def _handlers(self, cls: type) -> tuple:
        found = _Walker._dispatch.get(cls)
        if found is None:
            name = cls.__name__
            visit = getattr(_Walker, "visit_" + name, None)
            leave = getattr(_Walker, "leave_" + name, None)
            fields = () if issubclass(cls, _OPAQUE) else _child_fields(cls)
            found = _Walker._dispatch[cls] = (visit, leave, fields)
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
        self.context.scope_depth += body_scoped
        self._visit(node.body)
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
            last = _last_identifier(node.func)
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
            last = _last_identifier(func)
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
                for name in _target_names(item.asname.name):
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
        context.assignments.setdefault(name, []).append(value)
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
        if isinstance(value, cst.Call):
            qualified = self.qualify(value.func)
            kinds = {api.strategy_class(q) for q in qualified} - {None}
            if kinds:
                self.strategy_vars.add(target)
                self._note_strategy(target)
                return
            if _last_identifier(value.func) in self.extra_strategy_names:
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

    def visit_Assign(self, node: cst.Assign) -> None:
        targets: list[str] = []
        simple = True
        for target in node.targets:
            if not isinstance(target.target, (cst.Name, cst.Attribute)):
                simple = False
            targets.extend(_target_names(target.target))
        self._assign(targets, node.value, simple)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._assign(list(_target_names(node.target)), node.value, True)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        for name in _target_names(node.target):
            # An augmented value combines with what was there: record both.
            self._bind(name, ("aug", node.value))

    def visit_For(self, node: cst.For) -> None:
        for name in _target_names(node.target):
            self._bind(name, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        for name in _target_names(node.target):
            self._bind(name, None)

    # --- references ----------------------------------------------------------

    def _reference(self, key: str) -> None:
        context = self.context
        context.refs.add(key)
        if context.scope_depth:
            context.in_scope_refs.add(key)
        if self.compile_stack:
            self.compile_stack[-1].arg_refs.add(key)

    def visit_Name(self, node: cst.Name) -> None:
        self.context.loads[node.value] += 1
        self._reference(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        key = _ref_key(node)
        if key is not None and key.startswith("self."):
            self._reference(key)
            if api.says_strategy(node.attr.value):
                self.context.mentions_strategy = True

    # --- calls ---------------------------------------------------------------

    def _event(self, kind: str, node: cst.CSTNode, **kwargs) -> Event:
        context = self.context
        event = Event(kind, node, context, context.scope_depth > 0, top=self.top_statement, **kwargs)
        context.events.append(event)
        return event

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        qualified = self.qualify(func)
        targets = self._targets_of.get(id(node), ())
        mark: tuple[int, str, Event | None] | None = None

        if any(api.strategy_class(q) for q in qualified):
            self.strategy_in_play = True
            self.context.owns_strategy = True
            self.strategy_kinds.update(k for k in map(api.strategy_class, qualified) if k)
        elif any(q in api.GET_STRATEGY for q in qualified):
            self.strategy_in_play = True
            self.context.mentions_strategy = True
            self.unknown_strategy = True

        if any(api.builds_model(q) for q in qualified) or self._is_model_factory(func, qualified):
            detail = qualified[0] if qualified else (_last_identifier(func) or "")
            self._event(BUILD, node, detail=detail, targets=targets)
        elif any(api.loads_model(q) for q in qualified):
            self._event(LOAD, node, detail=qualified[0], targets=targets)
        elif any(api.creates_optimizer(q) or api.creates_metric(q) for q in qualified):
            inline = bool(self.compile_stack) or self.optimizer_depth > 0
            self._event(OPTIMIZER, node, detail=qualified[0], targets=targets, inline=inline)
            self.optimizer_depth += 1
            mark = (id(node), "optimizer", None)
        elif any(q in api.DATASET_FROM_DIRECTORY for q in qualified):
            self._batch_keyword(node)
        elif self.external and any(q in self.external for q in qualified):
            name = next(q for q in qualified if q in self.external)
            self._event(CALL, node, callee=("external", name), targets=targets)
        elif any(q in _CHECKPOINTS for q in qualified):
            # Checkpointing a model neither trains it nor hands it on.
            for arg in node.args:
                key = _ref_key(arg.value)
                if key is not None:
                    self.context.inference_uses[key] += 1
        elif isinstance(func, cst.Attribute):
            mark = self._method_call(node, func, qualified, targets)
        elif isinstance(func, cst.Name) and not qualified:
            if _is_inference_call(node):
                self.context.inference_uses[func.value] += 1
            self._event(CALL, node, callee=("func", func.value), targets=targets)
        if mark is not None:
            self._call_marks.append(mark)

    def _is_model_factory(self, func: cst.CSTNode, qualified: tuple[str, ...]) -> bool:
        """One of the user's configured model factories, by full or bare name."""
        factories = self.extra_model_factories
        if not factories:
            return False
        return _last_identifier(func) in factories or any(q in factories for q in qualified)

    def _method_call(self, node: cst.Call, func: cst.Attribute, qualified, targets):
        attr = func.attr.value
        receiver = func.value
        receiver_key = _ref_key(receiver)
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
            return (id(node), "compile", event)
        if attr in api.BATCH_METHODS:
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
            self._event(CALL, node, callee=("method", self.context.class_name or "", attr),
                        targets=targets)
        elif isinstance(receiver, cst.Name):
            self._event(CALL, node, callee=("attr", receiver.value, attr), targets=targets)
        return None

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
        if any(arg.keyword is not None and arg.keyword.value in api.COMPILE_KEYWORDS for arg in node.args):
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
            elif what == "optimizer":
                self.optimizer_depth -= 1
            elif what == "per_replica":
                self.per_replica_depth -= 1


class _Resolver:
    """Turns the walk's events into findings-to-be, using function summaries."""

    def __init__(self, walker: _Walker) -> None:
        self.w = walker
        self.model_classes = self._model_classes()
        self._exposed: dict[int, frozenset[str]] = {}
        self._in_progress: set[int] = set()
        self._callees: dict[int, list] = {}
        self._has_scoped_model: bool | None = None

    # --- classes and callees -------------------------------------------------

    def _model_classes(self) -> set[str]:
        bases = self.w.class_bases
        models: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, base_nodes in bases.items():
                if name in models:
                    continue
                for base in base_nodes:
                    if (isinstance(base, cst.Name) and base.value in models) or any(
                        q in api.MODEL_BASES for q in self.w.qualify(base)
                    ):
                        models.add(name)
                        changed = True
                        break
        return models

    def _class_chain(self, class_name: str) -> Iterator[str]:
        seen = set()
        pending = [class_name]
        while pending:
            name = pending.pop(0)
            if name in seen:
                continue
            seen.add(name)
            yield name
            for base in self.w.class_bases.get(name, ()):
                if isinstance(base, cst.Name):
                    pending.append(base.value)

    def _method(self, class_name: str, attr: str) -> Context | None:
        for name in self._class_chain(class_name):
            found = self.w.methods.get((name, attr))
            if found is not None:
                return found
        return None

    def _function(self, name: str, caller: Context) -> Context | None:
        candidates = self.w.functions.get(name)
        if not candidates:
            return None
        # Prefer a function nested in the caller's own chain of definitions.
        chain = []
        context: Context | None = caller
        while context is not None:
            chain.append(context)
            context = context.parent
        for candidate in reversed(candidates):
            if candidate.parent in chain:
                return candidate
        return candidates[-1]

    def callees(self, event: Event) -> list:
        """What a CALL event runs: ("model", class) or ("function", context)."""
        key = id(event)
        if key in self._callees:
            return self._callees[key]
        found: list = []
        kind, *rest = event.callee or ("",)
        if kind == "func":
            (name,) = rest
            if name in self.model_classes:
                found.append(("model", name))
            elif name in self.w.class_bases:
                init = self._method(name, "__init__")
                if init is not None:
                    found.append(("function", init))
            else:
                function = self._function(name, event.context)
                if function is not None:
                    found.append(("function", function))
        elif kind == "external":
            (name,) = rest
            found.append(("external", name))
        elif kind == "method":
            class_name, attr = rest
            method = self._method(class_name, attr) if class_name else None
            if method is not None:
                found.append(("function", method))
        elif kind == "attr":
            receiver, attr = rest
            if receiver in self.model_classes and attr == "from_config":
                found.append(("load", receiver))
            else:
                class_name = self.w.instances.get(receiver)
                if class_name is None and receiver in self.w.class_bases:
                    class_name = receiver  # Trainer.build(...) on the class itself
                if class_name is not None:
                    method = self._method(class_name, attr)
                    if method is not None:
                        found.append(("function", method))
        self._callees[key] = found
        return found

    # --- summaries -----------------------------------------------------------

    def exposed(self, context: Context) -> frozenset[str]:
        """What ``context`` does outside any scope of its own, for its callers to judge."""
        key = id(context)
        if key in self._exposed:
            return self._exposed[key]
        if context.owns_strategy or key in self._in_progress:
            return frozenset()
        self._in_progress.add(key)
        kinds: set[str] = set()
        for event in context.events:
            if event.in_scope:
                continue
            if event.kind in (BUILD, LOAD, COMPILE):
                kinds.add(event.kind)
            elif event.kind == OPTIMIZER and not event.inline:
                kinds.add(OPTIMIZER)
            elif event.kind == CALL:
                for what, target in self.callees(event):
                    kinds |= self._callee_kinds(what, target)
        self._in_progress.discard(key)
        result = frozenset(kinds)
        self._exposed[key] = result
        return result

    def _callee_kinds(self, what: str, target) -> frozenset[str]:
        if what == "model":
            return frozenset({BUILD})
        if what == "load":
            return frozenset({LOAD})
        if what == "external":
            return self.w.external[target]
        return self.exposed(target)

    def _roots(self) -> list[Context]:
        for context in self.w.contexts:
            for event in context.events:
                if event.kind == CALL:
                    for what, target in self.callees(event):
                        if what == "function" and target is not context:
                            target.call_sites.append(event)
        roots = []
        for context in self.w.contexts:
            if context.class_name in self.model_classes:
                # A Keras model's own methods (Keras's Model class itself, or a
                # custom model building sub-models in __init__): what they do
                # is judged where the model is instantiated.
                continue
            if context.is_module:
                if self.w.strategy_in_play:
                    roots.append(context)
            elif context.owns_strategy:
                roots.append(context)
            elif not context.call_sites and context.mentions_strategy and not context.is_lambda:
                roots.append(context)
        return roots

    # --- usage of a bound model ----------------------------------------------

    @property
    def has_scoped_model(self) -> bool:
        """Does any model get built or loaded inside a strategy scope?"""
        if self._has_scoped_model is None:
            self._has_scoped_model = any(
                event.in_scope
                and (
                    event.kind in (BUILD, LOAD)
                    or (
                        event.kind == CALL
                        and any(self._callee_kinds(w, t) & {BUILD, LOAD} for w, t in self.callees(event))
                    )
                )
                for context in self.w.contexts
                for event in context.events
            )
        return self._has_scoped_model

    def _uses(self, context: Context, name: str) -> tuple[int, int]:
        """(all uses, inference-only uses) of ``name`` bound in ``context``."""
        total = context.loads[name] - context.stores[name]
        inference = context.inference_uses[name]
        if context.is_module:
            for other in self.w.contexts:
                if other is context or name in other.stores or name in other.params:
                    continue
                total += other.loads[name]
                inference += other.inference_uses[name]
        return total, inference

    def inference_only(self, event: Event) -> bool:
        """A model bound to plain names used only to evaluate, predict or save.

        Such a model was deliberately kept out of the strategy (the TensorFlow
        tutorials load an "unreplicated" copy to evaluate it), so it is no mistake.
        """
        targets = event.targets
        if not targets or any("." in target for target in targets):
            return False
        # The copy is deliberate only beside a replicated twin; a lone model
        # loaded outside the scope is the model the strategy was made for.
        if not self.has_scoped_model:
            return False
        for target in targets:
            total, inference = self._uses(event.context, target)
            if total <= 0 or inference < total:
                return False
            # Used inside a scope (compiled there, say): meant for the strategy.
            if any(target in c.in_scope_refs for c in self._contexts_seeing(event.context, target)):
                return False
        return True

    def _optimizer_used_in_strategy(self, event: Event, exempt_compiles: set[int]) -> bool:
        targets = event.targets
        if any(target.endswith(".optimizer") for target in targets):
            return True
        for target in targets:
            for context in self._contexts_seeing(event.context, target):
                if target in context.in_scope_refs:
                    return True
                if context.name in self.w.replica_fn_names and target in context.refs:
                    return True
                for other in context.events:
                    if (
                        other.kind == COMPILE
                        and id(other) not in exempt_compiles
                        and target in other.arg_refs
                    ):
                        return True
        return False

    def _contexts_seeing(self, context: Context, target: str) -> Iterator[Context]:
        yield context
        if target.startswith("self."):
            for other in self.w.contexts:
                if other is not context and other.class_name and other.class_name == context.class_name:
                    yield other
        elif context.is_module:
            for other in self.w.contexts:
                if other is not context and target not in other.stores and target not in other.params:
                    yield other

    # --- the verdict -----------------------------------------------------------

    def resolve(self) -> Analysis:
        w = self.w
        outside: list[OutsideScope] = []
        batches: list[UnscaledBatch] = []
        if not w.strategy_in_play:
            return Analysis(False, outside, batches, "")
        exempt_compiles: set[int] = set()
        inference_names: set[tuple[int, str]] = set()
        roots = self._roots()
        root_events = [e for root in roots for e in root.events if not e.in_scope]
        for event in root_events:
            if event.kind in (BUILD, LOAD) and self.inference_only(event):
                inference_names.update((id(event.context), t) for t in event.targets)
        for event in root_events:
            if event.kind == COMPILE and (id(event.context), event.receiver) in inference_names:
                exempt_compiles.add(id(event))

        seen: set[tuple[int, str]] = set()

        def report(kind: str, event: Event, via: str | None = None) -> None:
            if (id(event.node), kind) not in seen:
                seen.add((id(event.node), kind))
                detail = "" if via else event.detail
                outside.append(OutsideScope(kind, event.node, via, event.top, detail))

        for event in root_events:
            if event.kind in (BUILD, LOAD):
                if (id(event.context), event.targets[0] if event.targets else "") not in inference_names:
                    report(event.kind, event)
            elif event.kind == COMPILE:
                if id(event) not in exempt_compiles:
                    report(COMPILE, event)
            elif event.kind == OPTIMIZER:
                if not event.inline and self._optimizer_used_in_strategy(event, exempt_compiles):
                    report(OPTIMIZER, event)
            elif event.kind == CALL:
                self._report_call(event, report, exempt_compiles)

        if not (w.strategy_kinds == {"OneDeviceStrategy"} and not w.unknown_strategy):
            for context in self._strategy_code(roots):
                for event in context.events:
                    if event.kind == BATCH and not self._per_replica(event):
                        verdict, value = self.batch_value(event.value, context, 0)
                        if verdict == "const":
                            batches.append(UnscaledBatch(event.report_node or event.node, value, event.top))
        return Analysis(True, outside, batches, w.strategy_name or "strategy")

    def _strategy_code(self, roots: list[Context]) -> list[Context]:
        """Contexts that run with a strategy around: the roots, what they
        call (transitively), and the lambdas inside those. A test method or
        utility that no strategy code calls is not judged for batch sizes."""
        reached: dict[int, Context] = {}
        pending = list(roots) + [c for c in self.w.contexts if c.mentions_strategy]
        while pending:
            context = pending.pop()
            if id(context) in reached:
                continue
            reached[id(context)] = context
            for event in context.events:
                if event.kind == CALL:
                    pending.extend(t for what, t in self.callees(event) if what == "function")
        for context in self.w.contexts:
            if context.is_lambda and context.parent is not None and id(context.parent) in reached:
                reached[id(context)] = context
        return list(reached.values())

    def _report_call(self, event: Event, report, exempt_compiles: set[int]) -> None:
        for what, target in self.callees(event):
            if what == "model":
                if not self.inference_only(event):
                    report(BUILD, event, None)
                continue
            if what == "load":
                report(LOAD, event, None)
                continue
            kinds = self._callee_kinds(what, target)
            via = target.rsplit(".", 1)[-1] if what == "external" else target.name
            if BUILD in kinds and not self.inference_only(event):
                report(BUILD, event, via)
            if LOAD in kinds and not self.inference_only(event):
                report(LOAD, event, via)
            if COMPILE in kinds:
                report(COMPILE, event, via)
            if OPTIMIZER in kinds and not kinds & {BUILD, LOAD, COMPILE}:
                if self._optimizer_used_in_strategy(event, exempt_compiles):
                    report(OPTIMIZER, event, via)

    def _per_replica(self, event: Event) -> bool:
        if event.per_replica:
            return True
        context: Context | None = event.context
        while context is not None and not context.is_module:
            if context.per_replica or context.name in self.w.per_replica_fn_names:
                return True
            context = context.parent
        return False

    # --- batch sizes -----------------------------------------------------------

    def batch_value(self, node, context: Context, depth: int) -> tuple[str, int | None]:
        """("const", n), ("derived", None) when scaled by the replica count, or ("unknown", None)."""
        if depth > 12 or node is None:
            return "unknown", None
        if isinstance(node, cst.Integer):
            try:
                return "const", int(node.evaluated_value)
            except ValueError:
                return "unknown", None
        if isinstance(node, cst.Attribute):
            if node.attr.value == "num_replicas_in_sync":
                return "derived", None
            return "unknown", None
        if isinstance(node, cst.BinaryOperation):
            left = self.batch_value(node.left, context, depth + 1)
            right = self.batch_value(node.right, context, depth + 1)
            return _combine(left, right, node.operator)
        if isinstance(node, cst.Name):
            return self._name_value(node.value, context, depth)
        if isinstance(node, cst.Call):
            if _mentions_replicas(node):
                return "derived", None
            return "unknown", None
        return "unknown", None

    def _name_value(self, name: str, context: Context, depth: int) -> tuple[str, int | None]:
        scope: Context | None = context
        while scope is not None:
            if name in scope.params:
                return "unknown", None
            if name in scope.assignments:
                break
            scope = scope.parent
        if scope is None:
            scope = self.w.module_context
            if name not in scope.assignments:
                return "unknown", None
        values = scope.assignments[name]
        verdicts = []
        for value in values:
            if value is None:
                return "unknown", None
            if isinstance(value, tuple):  # augmented assignment
                verdicts.append(("aug", self.batch_value(value[1], scope, depth + 1)))
            else:
                verdicts.append(("set", self.batch_value(value, scope, depth + 1)))
        if any(v[1][0] == "derived" for v in verdicts):
            return "derived", None
        if all(v[1][0] == "const" for v in verdicts):
            numbers = {v[1][1] for v in verdicts if v[0] == "set"}
            has_aug = any(v[0] == "aug" for v in verdicts)
            return "const", (numbers.pop() if len(numbers) == 1 and not has_aug else None)
        return "unknown", None


def _combine(left, right, operator) -> tuple[str, int | None]:
    if "derived" in (left[0], right[0]):
        return "derived", None
    if left[0] == "const" and right[0] == "const":
        a, b = left[1], right[1]
        if a is None or b is None:
            return "const", None
        if isinstance(operator, cst.Multiply):
            return "const", a * b
        if isinstance(operator, cst.Add):
            return "const", a + b
        if isinstance(operator, cst.Subtract):
            return "const", a - b
        if isinstance(operator, cst.FloorDivide) and b:
            return "const", a // b
        if isinstance(operator, cst.LeftShift):
            return "const", a << b if b < 64 else None
        return "unknown", None
    return "unknown", None


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


_CHECKPOINTS = frozenset({"tensorflow.train.Checkpoint", "tensorflow.train.CheckpointManager"})


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


def _mentions_replicas(node: cst.CSTNode) -> bool:
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, cst.Attribute) and current.attr.value in (
            "num_replicas_in_sync",
            "get_per_replica_batch_size",
        ):
            return True
        pending.extend(current.children)
    return False
