"""The generic half of the semantic model: one walk over Python's ``ast`` that
records scopes, bindings, references, branches and call sites (pyflakes' and
ruff's part). It knows nothing of tf.distribute.

Per unit of code (module, function, lambda) it records the bindings made, the
names read (and whether inside a guarded block), and every call, with the
qualified names the callee may have and the file's own code it may reach.

What those calls and blocks *mean* (a strategy, a scope, a replica function)
is left to the recognisers (:mod:`.distribute`), which subclass :class:`Binder`
and answer its hooks: :meth:`Binder.recognise_call`, :meth:`Binder.scope_of_with`,
:meth:`Binder.scope_free_branches`, :meth:`Binder.learn_from_assignment`...

The walk dispatches on node types itself (``ast.NodeVisitor`` costs a method
lookup per node) and never enters constants, imports' aliases, or other leaves.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.semantic.syntax import (
    chain_root,
    dotted,
    held_calls,
    is_main_guard,
    last_identifier,
    ref_key,
    target_names,
)
from mirrorguard.checker.semantic.units import (
    Binding,
    BindingKind,
    CallSite,
    Read,
    Unit,
    UnitKind,
    Use,
)

# Methods that put their arguments into a container.
_FILLING_METHODS = frozenset({"update", "append", "extend", "add", "insert", "setdefault"})

# Program entry points called as a statement at module level.
_ENTRY_NAMES = frozenset({"main", "run", "train"})

_LEAVES = (ast.Constant, ast.Import, ast.ImportFrom, ast.Pass, ast.Break, ast.Continue,
           ast.Global, ast.Nonlocal, ast.expr_context)


def _skip(node: ast.AST) -> None:
    """A leaf's handler: nothing under it for the walk."""


class Flags:
    """What the walk is inside of (ruff's ``SemanticModelFlags``): set on the
    way in, restored on the way out, so nesting needs no counters.

    Plain ``int`` bit masks, not ``enum.Flag``: the walk tests them at every
    name and call, and each ``enum.Flag`` operation builds a member (ten times the cost).
    """

    NONE = 0
    TAPE = 1 << 0  # the body of ``with tf.GradientTape():``
    EXPORT = 1 << 1  # the arguments of a checkpoint or an export
    PER_REPLICA = 1 << 2  # the arguments of a per-replica dataset API (distribute_datasets_from_function)
    MAIN_GUARD = 1 << 3  # the body of ``if __name__ == "__main__":``
    SINGLE_DEVICE = 1 << 4  # the branch of ``if strategy: ... else: ...`` that has no strategy


def _unpacked_positions(targets: list[ast.expr]) -> dict[str, int]:
    """``total, logs = ...``, ``self.encoder, self.decoder = ...``: each plain name's
    (or attribute's) position in a one-level target tuple."""
    if len(targets) != 1 or not isinstance(targets[0], (ast.Tuple, ast.List)):
        return {}
    elements = targets[0].elts
    if any(isinstance(e, ast.Starred) for e in elements):
        return {}
    positions = {}
    for i, element in enumerate(elements):
        name = element.id if isinstance(element, ast.Name) else (
            dotted(element) if isinstance(element, ast.Attribute) else None)
        if name:
            positions[name] = i
    return positions


def parameters(arguments: ast.arguments) -> Iterator[ast.arg]:
    yield from arguments.posonlyargs
    yield from arguments.args
    yield from arguments.kwonlyargs
    for star in (arguments.vararg, arguments.kwarg):
        if star is not None:
            yield star


class Binder:
    """Fills units, bindings, references and call sites in one walk."""

    def __init__(self) -> None:
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
        self.partials: dict[str, str] = {}  # factory = functools.partial(build_model, ...)
        self.if_tests: dict[int, tuple[ast.expr, int]] = {}  # id(if) -> (its test, walk order at it)
        self.call_branches: dict[int, tuple[tuple[int, int], ...]] = {}  # id(site) -> the if/else branches it sits in
        self.discarded: set[int] = set()  # id(call) of calls made as statements: their result is dropped
        self.held_keys: dict[int, str] = {}  # id(call) -> the constant key a container holds its result under
        self.imported_calls: set[str] = set()
        self.order = 0
        self.statement: ast.stmt | None = None
        self.flags = Flags.NONE  # an int: Flags' bits
        self._open_scopes: dict[int, int] = {}  # id(unit) -> guarded (strategy) scopes open around the walk
        self._targets_of: dict[int, tuple[str, ...]] = {}
        self._bound_in: dict[int, Unit] = {}
        self._iterated: set[int] = set()
        self._lambda_units: dict[int, Unit] = {}
        self._branches: list[tuple[int, int]] = []  # the if/else branches the walk is in
        self._chained: dict[int, list[str]] = {}
        self._open_calls: list[CallSite] = []
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
            ast.Subscript: self._subscript,
            ast.Call: self._call,
        }

    # --- hooks: what the recognisers answer (the generic walk recognises nothing) ---------

    def prepare(self, tree: ast.Module) -> None:
        """Before the walk: what must be known of the whole module first."""

    def on_function(self, unit: Unit, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        """A function or lambda unit was made (its parameters are known)."""

    def enters_scope_on_entry(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Does the function's body run inside a guarded scope (a decorator enters one)?"""
        return False

    def scope_of_with(self, node: ast.With | ast.AsyncWith) -> tuple[bool, int]:
        """(does the block enter a guarded scope, flags its body runs under)."""
        return False, Flags.NONE

    def scope_free_branches(self, node: ast.If) -> tuple[bool, bool]:
        """(body, else): which branch of the ``if`` is the deliberate no-scope path."""
        return False, False

    def learn_from_assignment(self, target: str, value: ast.expr) -> None:
        """``target = value``, one target."""

    def on_return(self, value: ast.expr) -> None:
        """``return value`` in the current unit."""

    def on_attribute_read(self, node: ast.Attribute, key: str) -> None:
        """``self.x`` read in the current unit."""

    def on_attribute(self, node: ast.Attribute) -> None:
        """``value.attr`` read (any value), before ``value`` is walked."""

    def recognise_call(self, site: CallSite, func: ast.expr, qualified: tuple[str, ...]) -> None:
        """What the call means; sets ``site.callee`` when it runs the file's own code."""

    def argument_flags(self, site: CallSite, func: ast.expr, qualified: tuple[str, ...]) -> int:
        """Flags the call's arguments are walked under."""
        return Flags.NONE

    # --- the walk -----------------------------------------------------------------

    def build(self, tree: ast.Module) -> None:
        self.module.node = tree
        self.prepare(tree)
        for statement in tree.body:
            self.statement = statement
            self.visit(statement)

    def visit(self, node: ast.AST) -> None:
        handler = self._dispatch.get(type(node))
        if handler is None:
            handler = self._handler_for(type(node))
        handler(node)

    def _handler_for(self, node_type: type) -> Callable[[ast.AST], None]:
        """A type without a handler of its own: a leaf, or walked field by field
        (decided once per type, then looked up like the others)."""
        handler = _skip if issubclass(node_type, _LEAVES) else self.children
        self._dispatch[node_type] = handler
        return handler

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

    def visit_under(self, flags: int, statements: Iterable[ast.AST]) -> None:
        """Walk ``statements`` with ``flags`` set, then restore the flags."""
        saved = self.flags
        self.flags = saved | flags
        for statement in statements:
            self.visit(statement)
        self.flags = saved

    @property
    def in_scope(self) -> bool:
        """Is the walk inside a guarded scope of the current unit?"""
        return self._open_scopes.get(id(self.unit), 0) > 0

    def open_scope(self, count: int = 1) -> None:
        """Open (or, with a negative count, close) guarded scopes in the current unit."""
        key = id(self.unit)
        self._open_scopes[key] = self._open_scopes.get(key, 0) + count

    # --- names ----------------------------------------------------------------------

    def qualify(self, node: ast.AST) -> tuple[str, ...]:
        """Canonical qualified names ``node`` may refer to (several after conditional imports)."""
        if isinstance(node, ast.Name):
            return self._qualify_name(node.id)
        if not isinstance(node, ast.Attribute):
            return ()
        # ``a.b.c``: the root's names, then one attribute at a time (a loop, not a
        # recursion per attribute: the walk asks this of every call).
        attributes = []
        while isinstance(node, ast.Attribute):
            attributes.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return ()
        heads = self._qualify_name(node.id)
        canonical = api.canonical
        for attribute in reversed(attributes):
            if not heads:
                return ()
            heads = tuple(canonical(h + "." + attribute) for h in heads)
        return heads

    def _qualify_name(self, name: str) -> tuple[str, ...]:
        imported = self.imports.get(name)
        if imported is not None:
            return tuple(api.canonical(q) for q in imported)
        aliased = self.aliases.get(name)
        if aliased is not None:
            return aliased
        if name in api.CONVENTIONAL_NAMES and name not in self.unit.params:
            # Notebook cells and `from setup import *` scripts use tf
            # without importing it themselves.
            return (api.CONVENTIONAL_NAMES[name],)
        if self.star_modules and not self._bound_here(name):
            return tuple(api.canonical(m + "." + name) for m in self.star_modules)
        return ()

    def _bound_here(self, name: str) -> bool:
        """Bound by the file itself, where the walk is: then no star import supplies it."""
        unit: Unit | None = self.unit
        while unit is not None:
            if name in unit.bindings or name in unit.params:
                return True
            unit = unit.parent
        return name in self.functions or name in self.class_bases

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
        for param in parameters(node.args):
            unit.params.add(param.arg)
        self.on_function(unit, node)
        if enclosing_class is not None:
            self.methods[(enclosing_class, node.name)] = unit
        else:
            self.functions.setdefault(node.name, []).append(unit)
        saved_classes, self.classes = self.classes, []
        outer = self._enter(unit)
        if self.enters_scope_on_entry(node):
            self.open_scope()
        for param in parameters(node.args):
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
        for param in parameters(node.args):
            unit.params.add(param.arg)
        self.on_function(unit, node)
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

    # --- blocks and branches ------------------------------------------------------------

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        scoped, flags = self.scope_of_with(node)
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                for name in target_names(item.optional_vars):
                    self._bind(name, BindingKind.WITH)
        # A scope entered inside the block (ExitStack.enter_context) ends with it.
        before = self._open_scopes.get(id(self.unit), 0)
        self.open_scope(scoped)
        self.visit_under(flags, node.body)
        self._open_scopes[id(self.unit)] = before

    def _if(self, node: ast.If) -> None:
        self.if_tests[id(node)] = (node.test, self.order)
        body_free, else_free = self.scope_free_branches(node)
        self.visit(node.test)
        main_guard = Flags.MAIN_GUARD if self.unit.is_module and is_main_guard(node.test) else Flags.NONE
        self.open_scope(body_free)
        self._branches.append((id(node), 0))
        self.visit_under(main_guard | (Flags.SINGLE_DEVICE if body_free else Flags.NONE), node.body)
        self._branches[-1] = (id(node), 1)
        self.open_scope(-body_free)
        self.open_scope(else_free)
        self.visit_under(Flags.SINGLE_DEVICE if else_free else Flags.NONE, node.orelse)
        self._branches.pop()
        self.open_scope(-else_free)

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

    # --- bindings ------------------------------------------------------------------------

    def _bind(self, name: str, kind: BindingKind, value: ast.expr | None = None, index: int | None = None,
              augmented: ast.AugAssign | None = None) -> None:
        self.order += 1
        self.unit.bind(Binding(name, kind, self.order, value, tuple(self._branches), index, augmented))

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
            self._bind(name, BindingKind.AUGMENTED, node.value, augmented=node)

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
        self._note_held_keys(value)
        for target in target_nodes:
            # metrics["auc"] = AUC()
            if isinstance(value, ast.Call) and isinstance(target, ast.Subscript) and isinstance(
                    target.slice, ast.Constant) and isinstance(target.slice.value, str):
                self.held_keys[id(value)] = target.slice.value
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
            self.learn_from_assignment(targets[0], value)

    def _note_held_keys(self, value: ast.expr) -> None:
        """``{"auc": AUC()}``, ``dict(auc=AUC())``: the constant key each call's result is held under."""
        if isinstance(value, ast.Dict):
            for key, element in zip(value.keys, value.values):
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(element, ast.Call):
                    self.held_keys[id(element)] = key.value
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
            for keyword in value.keywords:
                if keyword.arg and isinstance(keyword.value, ast.Call):
                    self.held_keys[id(keyword.value)] = keyword.arg

    def _return(self, node: ast.Return) -> None:
        if node.value is not None:
            self.on_return(node.value)
            self.visit(node.value)

    def _expression_statement(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Call):
            self.discarded.add(id(node.value))  # its result is dropped
            if self.unit.is_module:
                self._statement_calls.add(id(node.value))
        self.visit(node.value)

    # --- references ------------------------------------------------------------------------

    def _reference(self, key: str, item: str | None = None) -> None:
        unit = self.unit
        in_scope = self._open_scopes.get(id(unit), 0) > 0  # self.in_scope, asked once
        unit.refs.add(key)
        unit.reads.append(Read(key, self.order, in_scope, item))
        if in_scope:
            unit.in_scope_refs.add(key)
        for site in self._open_calls:
            site.arg_refs.add(key)

    def _name(self, node: ast.Name, item: str | None = None) -> None:
        if isinstance(node.ctx, ast.Load):
            self.unit.loads[node.id] += 1
            if self.flags & Flags.EXPORT:
                self.unit.inference.append(Use(node.id, self.order))
            self._reference(node.id, item)

    def _attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            key = ref_key(node)
            if key is not None and key.startswith("self."):
                self._reference(key)
                self.on_attribute_read(node, key)
            self.on_attribute(node)
        self.visit(node.value)

    def _subscript(self, node: ast.Subscript) -> None:
        """``metrics["auc"]``: a read of one constant key of a container."""
        value, index = node.value, node.slice
        if isinstance(value, ast.Name) and isinstance(index, ast.Constant) and isinstance(index.value, str):
            self._name(value, index.value)
            return
        self.children(node)

    # --- calls ----------------------------------------------------------------------------------

    def _call(self, node: ast.Call) -> None:
        func = node.func
        key = id(node)
        unit = self.unit
        is_method = isinstance(func, ast.Attribute)
        qualified = self.qualify(func)
        self.order += 1
        flags = self.flags
        site = CallSite(
            node=node,
            unit=unit,
            in_scope=self._open_scopes.get(id(unit), 0) > 0,  # self.in_scope
            order=self.order,
            qualified=qualified,
            statement=self.statement,
            targets=self._targets_of.get(key, ()),
            receiver=ref_key(func.value) if is_method else None,
            chain_root=chain_root(func) if is_method else None,  # None for any other func
            inside_call=self._open_calls[-1] if self._open_calls else None,
            chained=tuple(self._chained.pop(key, ())),
            per_replica=bool(flags & Flags.PER_REPLICA),
            bound_in=self._bound_in.get(key),
            class_body=self.classes[-1] if self.classes else None,
            iterated=key in self._iterated,
            single_device=bool(flags & Flags.SINGLE_DEVICE),
        )
        unit.calls.append(site)
        if self._branches:
            self.call_branches[id(site)] = tuple(self._branches)
        if qualified:
            self.imported_calls.update(qualified)
        self.recognise_call(site, func, qualified)
        site.entry = site.callee is not None and not site.in_scope and self._starts_program(site)
        if is_method:
            # ds.batch(8).map(f).unbatch(): tell the inner calls what follows them.
            inner = func.value
            while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
                self._chained.setdefault(id(inner), []).append(func.attr)
                inner = inner.func.value
        if is_method and func.attr in _FILLING_METHODS and isinstance(func.value, ast.Name):
            # metrics.update({"auc": AUC()}), trackers.append(Mean()): held by the container
            for argument in [*node.args, *(k.value for k in node.keywords)]:
                for held in held_calls(argument):
                    self._targets_of[id(held)] = (func.value.id,)
                self._note_held_keys(argument)
        saved = self.flags
        self.flags = saved | self.argument_flags(site, func, qualified)
        self._open_calls.append(site)
        visit = self.visit
        visit(func)
        for argument in node.args:
            visit(argument)
        for keyword in node.keywords:
            visit(keyword.value)
        self._open_calls.pop()
        self.flags = saved

    def _starts_program(self, site: CallSite) -> bool:
        """``main()`` as a statement of the module, anything called as a
        statement under ``if __name__ == "__main__":`` or as ``sys.exit(main())``
        there: the program itself, judged inside. Calls whose result is kept
        (``model = build_model()``) are judged where they are, guard or not."""
        main_guard = bool(self.flags & Flags.MAIN_GUARD)
        if id(site.node) in self._statement_calls:
            func = site.node.func
            return main_guard or (isinstance(func, ast.Name) and func.id in _ENTRY_NAMES)
        outer = site.inside_call
        return main_guard and outer is not None and any(
            q in ("sys.exit", "exit", "quit") for q in (outer.qualified or (last_identifier(outer.node.func),))
        )
