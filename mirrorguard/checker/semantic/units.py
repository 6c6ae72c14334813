"""What the semantic model is made of: units of code, the bindings they make,
the calls they run, and what those calls may reach.

Plain typed records; the builder (:mod:`.builder`) fills them in one walk and
the model (:mod:`.model`) answers the rules' questions about them. They have
``__slots__``: the walk makes one per binding, read and call (thousands a file),
and reads their fields in every rule.

The records nothing changes after the walk are named tuples, not frozen
dataclasses: a frozen dataclass's ``__init__`` sets each field through
``object.__setattr__`` (about three times the cost of a named tuple's, paid
per name read and per binding), and generating one at import costs about
0.5 ms against 0.07 ms, which a one-file run pays for every record. Fields,
repr and hash are the same, and records of one kind compare as before (a named
tuple also equals any tuple of the same items, ``LocalFunction("f") ==
ImportedHelper("f")``: nothing here compares records of two kinds or a record
with a plain tuple, and nothing unpacks or indexes them; keep it so).
"""

from __future__ import annotations

import ast
import bisect
import enum
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterator, NamedTuple

# The walk order after every other: a binding that nothing replaces holds to
# the end of its unit, and a use judged "after everything" is placed here.
END_OF_UNIT = 1 << 62


def _push_children(stack: list[ast.AST], node: ast.AST) -> None:
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            stack.append(value)
        elif isinstance(value, list):
            stack.extend(item for item in value if isinstance(item, ast.AST))


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` (itself included), in no set order.

    ``ast.walk`` does an import and builds a deque on every call; the rules
    walk small expressions many times.
    """
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        _push_children(stack, current)


def own_nodes(unit: Unit) -> list[ast.AST]:
    """Every node that runs as part of ``unit`` itself, in no set order: not the
    bodies of the functions and lambdas nested in it (their own units), but their
    decorators and defaults, which run where they are defined; a class body runs here.

    Walked once per unit and kept: the multi-worker rules (MG401, MG403...) each
    look through every unit's own nodes, which is the whole file each time."""
    if unit._own_nodes is None:
        unit._own_nodes = list(_walk_own_nodes(unit))
    return unit._own_nodes


def _walk_own_nodes(unit: Unit) -> Iterator[ast.AST]:
    node = unit.node
    stack: list[ast.AST] = [node.body] if isinstance(node, ast.Lambda) else list(getattr(node, "body", ()))
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(current.decorator_list)
            stack.extend(d for d in (*current.args.defaults, *current.args.kw_defaults) if d is not None)
        elif not isinstance(current, ast.Lambda):
            _push_children(stack, current)


# The if/else (try, match) branches a node sits in: ((id of the statement, branch index), ...).
Branches = tuple[tuple[int, int], ...]


def never_together(first: Branches, second: Branches) -> bool:
    """Do the two sit on different branches of one ``if`` (``try``, ``match``), so that
    no run of the program reaches both?"""
    mine = dict(first)
    return any(node in mine and mine[node] != branch for node, branch in second)


class UnitKind(enum.Enum):
    MODULE = "module"
    FUNCTION = "function"
    LAMBDA = "lambda"


class BindingKind(enum.Enum):
    ASSIGNMENT = "assignment"  # x = value, x: T = value, a, b = c, d
    AUGMENTED = "augmented"  # x += value: combines with what was there
    LOOP = "loop"  # for x in ...
    WALRUS = "walrus"  # (x := value)
    WITH = "with"  # with ... as x
    PARAMETER = "parameter"
    IMPORT = "import"
    OTHER = "other"  # unpacking and other targets whose value is not one expression


class Binding(NamedTuple):
    """One binding of a name (or of ``self.x``/``a.b``) in a unit, in walk order."""

    name: str
    kind: BindingKind
    order: int
    value: ast.expr | None = None  # the expression bound, when it is one expression
    # The if/else branches it sits in: ((id of the if, 0 for body or 1 for else), ...).
    branches: Branches = ()
    # a, b = value: the position of this name in the target tuple (value is the whole right side).
    # (As a named tuple's field it hides tuple.index, which nothing here calls.)
    index: int | None = None
    # x *= value: the statement, for its operator (value is its right side).
    augmented: ast.AugAssign | None = None

    def never_together_with(self, other: Binding) -> bool:
        """Are the two bindings on different branches of one ``if`` (never both run)?"""
        return never_together(self.branches, other.branches)


class Window(NamedTuple):
    """The walk orders ``start <= order < end`` during which one binding holds."""

    start: int
    end: int

    @property
    def open_ended(self) -> bool:
        """Nothing replaces the binding: it holds to the end of its unit."""
        return self.end >= END_OF_UNIT

    def holds_at(self, order: int) -> bool:
        return self.start <= order < self.end


class Use(NamedTuple):
    """One use of a name at one point of the walk (a prediction, a loop over it...)."""

    name: str
    order: int


class Read(NamedTuple):
    """One read of a name (or ``self.x``): where in the walk, and inside a strategy scope or not."""

    name: str
    order: int
    in_scope: bool
    # metrics["train/loss"]: the constant key the read takes of a container (None: the whole name)
    key: str | None = None


class LocalFunction(NamedTuple):
    """``name(...)``: a function or class of this file, looked up from the caller's unit."""

    name: str


class SelfMethod(NamedTuple):
    """``self.method(...)`` / ``cls.method(...)`` inside class ``class_name``."""

    class_name: str
    method: str


class AttributeCall(NamedTuple):
    """``receiver.method(...)`` on a plain name: an instance or a class of this file, maybe."""

    receiver: str
    method: str


class ImportedHelper(NamedTuple):
    """A function of another file of the checked tree, known by its summary."""

    qualified: str


Callee = LocalFunction | SelfMethod | AttributeCall | ImportedHelper


@dataclass(eq=False, slots=True)
class CallSite:
    """One call, where it runs and what it is bound to."""

    node: ast.Call
    unit: Unit
    in_scope: bool  # lexically inside a strategy scope of its own unit
    order: int
    qualified: tuple[str, ...]  # canonical names the callee may be (imports resolved)
    statement: ast.stmt  # the module-level statement it is in
    targets: tuple[str, ...] = ()  # names the result is bound to: model = Sequential(...)
    callee: Callee | None = None  # the file's own code it may run
    receiver: str | None = None  # ``x`` or ``self.x`` in ``x.method(...)``
    chain_root: str | None = None  # ``ds`` in ``ds.shuffle(100).batch(64)``
    arg_refs: set[str] = field(default_factory=set)  # names read inside its parentheses
    inside_call: CallSite | None = None  # the call whose arguments hold this one
    class_body: str | None = None  # the class whose body (not a method) runs it
    iterated: bool = False  # for x in <this call>: consumed by a host-side loop
    single_device: bool = False  # in the branch of `if strategy: ... else: ...` that has no strategy
    chained: tuple[str, ...] = ()  # methods called on its result: ds.batch(8).unbatch()
    entry: bool = False  # starts the program: main() as a statement, under __main__
    per_replica: bool = False  # inside a function run once per input pipeline
    # Where ``targets`` are bound, when not in ``unit``: a default argument's
    # value is made where the function is defined and bound in the function.
    bound_in: Unit | None = None

    @property
    def binding_unit(self) -> Unit:
        return self.bound_in or self.unit

    @property
    def method(self) -> str | None:
        """``fit`` for ``model.fit(...)``; None for a call of a plain name."""
        func = self.node.func
        return func.attr if isinstance(func, ast.Attribute) else None

    def keyword(self, name: str) -> ast.keyword | None:
        for keyword in self.node.keywords:
            if keyword.arg == name:
                return keyword
        return None

    def positional(self) -> list[ast.expr]:
        return [arg for arg in self.node.args if not isinstance(arg, ast.Starred)]

    def is_inside(self, predicate) -> bool:
        """Is this call an argument (at any depth) of a call for which ``predicate`` holds?"""
        outer = self.inside_call
        while outer is not None:
            if predicate(outer):
                return True
            outer = outer.inside_call
        return False


@dataclass(eq=False, slots=True)
class Unit:
    """A body of code that runs as one: the module, a function, or a lambda."""

    name: str
    kind: UnitKind
    parent: Unit | None
    node: ast.AST
    class_name: str | None = None  # the class whose method this is (or nests in)
    params: set[str] = field(default_factory=set)
    defaults: dict[str, ast.expr] = field(default_factory=dict)  # parameter -> default value
    calls: list[CallSite] = field(default_factory=list)
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    # Name reads and writes: how much, where and how a bound object is used.
    loads: Counter = field(default_factory=Counter)
    stores: Counter = field(default_factory=Counter)
    reads: list[Read] = field(default_factory=list)  # every read of a name or self.x, in walk order
    inference: list[Use] = field(default_factory=list)  # evaluate, predict, save...
    iterated: list[Use] = field(default_factory=list)  # for x in name
    forward: list[Use] = field(default_factory=list)  # name(x), no training=
    refs: set[str] = field(default_factory=set)  # names and self.x read anywhere in it
    in_scope_refs: set[str] = field(default_factory=set)  # ... read inside a strategy scope
    makes_strategy: bool = False  # constructs a tf.distribute strategy
    owns_strategy: bool = False  # makes one, or enters a scope itself: judged on its own
    mentions_strategy: bool = False  # a strategy parameter, self.strategy...
    per_replica: bool = False  # takes an InputContext: runs once per input pipeline
    callers: list[CallSite] = field(default_factory=list)  # filled by the model
    _reads_by_name: dict[str, list[Read]] | None = field(default=None, repr=False)
    _calls_by_name: dict[str, list[CallSite]] | None = field(default=None, repr=False)
    _own_nodes: list[ast.AST] | None = field(default=None, repr=False)  # see own_nodes()

    def reads_between(self, name: str, start: int, end: int) -> list[Read]:
        """The reads of ``name`` with ``start <= order < end`` (reads are in walk order)."""
        reads = self.reads_of(name)
        if len(reads) <= 8:
            return [r for r in reads if start <= r.order < end]
        orders = [r.order for r in reads]
        return reads[bisect.bisect_left(orders, start):bisect.bisect_left(orders, end)]

    def reads_of(self, name: str) -> list[Read]:
        """Every read of ``name`` in this unit, in walk order (indexed on first use)."""
        if self._reads_by_name is None:
            index: dict[str, list[Read]] = {}
            for read in self.reads:
                index.setdefault(read.name, []).append(read)
            self._reads_by_name = index
        return self._reads_by_name.get(name, [])

    def calls_on(self, name: str) -> list[CallSite]:
        """Calls that use ``name`` directly: a method chain on it (``name.map(f)``)
        or an argument that is the name itself (``fit(name)``)."""
        if self._calls_by_name is None:
            index: dict[str, list[CallSite]] = {}
            for site in self.calls:
                used = {site.chain_root} if site.chain_root else set()
                node = site.node
                for arg in (*node.args, *(k.value for k in node.keywords)):
                    if isinstance(arg, ast.Name):
                        used.add(arg.id)
                for key in used:
                    index.setdefault(key, []).append(site)
            self._calls_by_name = index
        return self._calls_by_name.get(name, [])

    @property
    def is_module(self) -> bool:
        return self.kind is UnitKind.MODULE

    @property
    def is_lambda(self) -> bool:
        return self.kind is UnitKind.LAMBDA

    def window(self, name: str, after: int) -> Window:
        """The walk orders between which the binding of ``name`` made after
        ``after`` holds in this unit: from it to the next binding of the name."""
        bindings = self.bindings.get(name, ())
        # Bindings are in walk order: find the first after ``after`` by bisection.
        index = bisect.bisect_right([b.order for b in bindings], after) if len(bindings) > 8 else next(
            (i for i, b in enumerate(bindings) if b.order > after), len(bindings))
        if index >= len(bindings):
            return Window(after, END_OF_UNIT)
        first = bindings[index]
        # The next binding that replaces it; one on the other branch of an if does not.
        for later in bindings[index + 1:]:
            if not later.never_together_with(first):
                return Window(first.order, later.order)
        return Window(first.order, END_OF_UNIT)

    def bind(self, binding: Binding) -> None:
        self.bindings.setdefault(binding.name, []).append(binding)
        if "." not in binding.name:
            self.stores[binding.name] += 1


def argument_for(site: CallSite, function: Unit, param: str, *, or_default: bool = False) -> ast.expr | None:
    """The expression ``site`` passes for ``function``'s parameter ``param`` (with
    ``or_default``, the parameter's default when the call passes nothing for it)."""
    node = function.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return None
    keyword = site.keyword(param)
    if keyword is not None:
        return keyword.value
    names = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    if names and names[0] in ("self", "cls") and function.class_name:
        names = names[1:]  # obj.method(x) and Class(x) (its __init__) pass the receiver themselves
    if param in names:
        index = names.index(param)
        args = site.node.args
        if index < len(args) and not any(isinstance(a, ast.Starred) for a in args[: index + 1]):
            return args[index]
    return function.defaults.get(param) if or_default else None