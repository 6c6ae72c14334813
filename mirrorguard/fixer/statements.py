"""What the fixer needs to know about statements: where they sit, what names
they read and bind, which calls they run, and which of those calls are inert.

Everything here over-approximates: a statement is said to read every name it
mentions, and a call the tables below do not know is taken to have side effects.
The fixer only ever *refuses* on these answers, so erring this way is safe.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

import libcst as cst

from mirrorguard.checker import names as api
from mirrorguard.fixer.names import dotted

# Calls that run training or hand the model to code that trains it: a new
# `with scope` block never swallows statements that make them.
TRAINING_METHODS = frozenset(
    {
        "fit", "fit_generator", "train_on_batch", "evaluate", "evaluate_generator",
        "predict", "predict_generator", "save", "export", "run", "experimental_run_v2",
        "train", "train_step", "search",
    }
)

# Calls with no side effect a model construction, a compile or an optimizer
# could depend on (or that could depend on them), by their dotted name.
_INERT_CALLS = frozenset(
    {
        "len", "str", "int", "float", "bool", "round", "min", "max", "abs", "range",
        "list", "tuple", "dict", "set", "frozenset", "sorted", "repr", "format", "isinstance",
        "os.path.join", "os.path.exists", "os.path.dirname", "os.path.basename",
        "os.path.abspath", "os.getenv", "os.environ.get", "os.cpu_count",
    }
)
# Calls that write to the console or a log: inert, unless the statement being
# moved past them might print too (it calls the file's own code).
_OUTPUT_CALLS = frozenset({"print", "pprint", "pprint.pprint"})
# Setting up the distribution itself: what a model is moved *after*.
_STRATEGY_SETUP = frozenset(
    {
        "get_strategy", "TPUClusterResolver", "experimental_connect_to_cluster",
        "connect_to_cluster", "initialize_tpu_system", "list_logical_devices",
        "list_physical_devices", "SlurmClusterResolver", "TFConfigClusterResolver",
    }
) | api.STRATEGY_CLASSES
_STRING_METHODS = frozenset({"format", "join", "upper", "lower", "strip", "replace", "split"})
BUILTIN_NAMES = frozenset(dir(builtins))


# --- where a statement sits ---------------------------------------------------


def index_tree(module: cst.Module) -> tuple[dict[int, cst.CSTNode], list[cst.CSTNode]]:
    """(id(node) -> its parent, every node): one walk of the tree (libcst works out a node's
    children anew each time they are asked for, so questions about the whole file ask this list)."""
    parents: dict[int, cst.CSTNode] = {}
    nodes: list[cst.CSTNode] = [module]
    pending: list[cst.CSTNode] = [module]
    while pending:
        node = pending.pop()
        for child in node.children:
            parents[id(child)] = node
            pending.append(child)
            nodes.append(child)
    return parents, nodes


@dataclass(frozen=True)
class Level:
    """One statement list (a module body or an indented block) and a position in it."""

    owner: cst.CSTNode  # the Module or IndentedBlock holding ``body``
    body: Sequence[cst.BaseStatement]
    index: int

    @property
    def statement(self) -> cst.BaseStatement:
        return self.body[self.index]


@dataclass(frozen=True)
class Place:
    """Where a node is: the statement lists around it, innermost first, up to its function."""

    levels: tuple[Level, ...]
    function: cst.FunctionDef | None

    @property
    def inner(self) -> Level:
        return self.levels[0]


def place_of(node: cst.CSTNode, parents: dict[int, cst.CSTNode]) -> Place | None:
    levels: list[Level] = []
    function: cst.FunctionDef | None = None
    current = node
    while True:
        parent = parents.get(id(current))
        if parent is None:
            break
        if isinstance(parent, (cst.Module, cst.IndentedBlock)):
            body = parent.body
            index = next((i for i, s in enumerate(body) if s is current), None)
            if index is None:  # the node is the block's header or footer
                return None
            levels.append(Level(parent, body, index))
            if isinstance(parent, cst.IndentedBlock):
                owner = parents.get(id(parent))
                if isinstance(owner, (cst.FunctionDef, cst.ClassDef)):
                    function = owner if isinstance(owner, cst.FunctionDef) else None
                    break
        current = parent
    if not levels:
        return None
    return Place(tuple(levels), function)


# --- names read and bound -------------------------------------------------------


def _walk(node: cst.CSTNode, *, into_functions: bool = True) -> Iterator[cst.CSTNode]:
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        if not into_functions and current is not node and isinstance(
            current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)
        ):
            continue
        pending.extend(reversed(current.children))


def reads(node: cst.CSTNode) -> set[str]:
    """Every plain name ``node`` mentions, bodies of nested functions included."""
    found: set[str] = set()
    skip: set[int] = set()
    for current in _walk(node):
        if isinstance(current, cst.Attribute):
            skip.add(id(current.attr))
        elif isinstance(current, cst.Arg) and current.keyword is not None:
            skip.add(id(current.keyword))
        elif isinstance(current, cst.Name) and id(current) not in skip:
            found.add(current.value)
    return found


def _bound(target: cst.CSTNode) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Attribute, cst.Subscript)):
        root = target
        while isinstance(root, (cst.Attribute, cst.Subscript, cst.Call)):
            root = root.value if not isinstance(root, cst.Call) else root.func
        return {root.value} if isinstance(root, cst.Name) else set()
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_bound(e.value) for e in target.elements)) if target.elements else set()
    if isinstance(target, cst.StarredElement):
        return _bound(target.value)
    return set()


def writes(node: cst.CSTNode) -> set[str]:
    """Names ``node`` binds or mutates (``x.attr = ...`` and ``x[i] = ...`` mutate ``x``)."""
    found: set[str] = set()
    for current in _walk(node, into_functions=False):
        if isinstance(current, cst.Assign):
            for target in current.targets:
                found |= _bound(target.target)
        elif isinstance(current, (cst.AnnAssign, cst.AugAssign)):
            found |= _bound(current.target)
        elif isinstance(current, (cst.For, cst.CompFor)):
            found |= _bound(current.target)
        elif isinstance(current, cst.NamedExpr):
            found |= _bound(current.target)
        elif isinstance(current, cst.WithItem) and current.asname is not None:
            found |= _bound(current.asname.name)
        elif isinstance(current, cst.Del):
            found |= _bound(current.target)
        elif isinstance(current, (cst.FunctionDef, cst.ClassDef)):
            found.add(current.name.value)
        elif isinstance(current, (cst.Import, cst.ImportFrom)) and not isinstance(current.names, cst.ImportStar):
            for alias in current.names:
                if alias.asname is not None:
                    found |= _bound(alias.asname.name)
                else:
                    name = dotted(alias.name) or ""
                    found.add(name.split(".")[0])
        elif isinstance(current, cst.ImportFrom):
            found.add("*")
        elif isinstance(current, (cst.Global, cst.Nonlocal)):
            found |= {n.name.value for n in current.names}
        elif isinstance(current, cst.ExceptHandler) and current.name is not None:
            found |= _bound(current.name.name)
    return found


def calls(node: cst.CSTNode) -> Iterator[cst.Call]:
    """Calls that run when ``node`` runs (not those in bodies of functions it defines).

    A class body runs at once, so its calls count; a ``def`` runs its decorators
    and default values.
    """
    for current in _walk(node, into_functions=False):
        if isinstance(current, cst.Call):
            yield current
        elif isinstance(current, cst.FunctionDef) and current is node:
            for decorator in current.decorators:
                yield from calls(decorator)
            yield from calls(current.params)
            return
        elif isinstance(current, cst.FunctionDef):
            for decorator in current.decorators:
                yield from calls(decorator)
            yield from calls(current.params)
        elif isinstance(current, cst.ClassDef) and current is not node:
            yield from calls(current.body)
            for base in (*current.bases, *current.keywords):
                yield from calls(base)


def callee_root(call: cst.Call) -> str | None:
    """The name a call's function starts from: ``keras`` for ``keras.layers.Dense(3)(x)``."""
    func = call.func
    while True:
        if isinstance(func, cst.Call):
            func = func.func
        elif isinstance(func, (cst.Attribute, cst.Subscript)):
            func = func.value
        else:
            break
    return func.value if isinstance(func, cst.Name) else None


def imported_names(nodes: Iterable[cst.CSTNode]) -> set[str]:
    """Names bound by import statements among ``nodes`` (a file's: :func:`index_tree`)."""
    found: set[str] = set()
    for current in nodes:
        if isinstance(current, (cst.Import, cst.ImportFrom)):
            found |= writes(current)
    return found


def calls_only_libraries(node: cst.CSTNode, imported: set[str]) -> bool:
    """Do all calls in ``node`` go to imported libraries and builtins (not the file's own code)?"""
    return all(callee_root(call) in imported | BUILTIN_NAMES for call in calls(node))


def inert_call(call: cst.Call, *, output_ok: bool) -> bool:
    """A call known to have no effect that code moved past it could observe."""
    func = call.func
    if (
        isinstance(func, cst.Attribute)
        and func.attr.value in _STRING_METHODS
        and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
    ):
        return True
    name = dotted(func)
    if name is None:
        return False
    last = name.rsplit(".", 1)[-1]
    parts = name.split(".")
    if name in _INERT_CALLS or last in _STRATEGY_SETUP:
        return True
    if "losses" in parts[:-1]:  # keras.losses.X(): loss objects hold no state
        return True
    if name in _OUTPUT_CALLS or parts[0] == "logging" or name.startswith("absl.logging"):
        return output_ok
    return False


# Methods of a Keras model, optimizer or metric that only describe it (they create no variable
# and change nothing): a statement calling them, or printing or logging the object, may move
# into the scope with the object it describes.
REPORTING_METHODS = frozenset({"summary", "count_params", "get_config", "to_json"})
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "exception", "log"})
# Names a reporting statement may read besides the objects it reports on.
_REPORTING_NAMES = frozenset({"print", "pprint", "logging", "absl", "True", "False", "None"}) | frozenset(
    name for name in _INERT_CALLS if "." not in name)


def loggers(nodes: Iterable[cst.CSTNode]) -> set[str]:
    """Names bound to a logger among ``nodes``: ``log = logging.getLogger(__name__)``, ``logger = tf.get_logger()``."""
    found: set[str] = set()
    for current in nodes:
        if isinstance(current, cst.Assign) and len(current.targets) == 1 and isinstance(current.value, cst.Call):
            target = current.targets[0].target
            func = dotted(current.value.func) or ""
            if isinstance(target, cst.Name) and func.rsplit(".", 1)[-1] in ("getLogger", "get_logger"):
                found.add(target.value)
    return found


def _output_call(call: cst.Call, logger_names: set[str]) -> bool:
    name = dotted(call.func)
    if name is None:
        return False
    parts = name.split(".")
    if name in _OUTPUT_CALLS or (parts[0] == "logging" and len(parts) == 2 and parts[1] in _LOG_METHODS):
        return True
    if name.startswith("absl.logging.") and len(parts) == 3 and parts[2] in _LOG_METHODS:
        return True
    return len(parts) == 2 and parts[0] in logger_names and parts[1] in _LOG_METHODS


def _reporting_method(call: cst.Call, objects: set[str]) -> bool:
    func = call.func
    return (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
            and func.value.value in objects and func.attr.value in REPORTING_METHODS)


def only_reports_on(statement: cst.CSTNode, objects: set[str], logger_names: set[str] = frozenset()) -> bool:
    """Does ``statement`` only describe some of ``objects``: ``model.summary()``,
    ``print(model.count_params())``, ``logging.info("%s", model.get_config())``?

    It must be a line of expression statements, each a call that prints, logs or
    describes; it binds nothing, calls nothing else, and reads no name but the
    objects, the printing and logging functions and builtins such as ``len``. Moving
    it into the scope with its objects, in order, changes nothing it does.
    """
    if not isinstance(statement, cst.SimpleStatementLine) or not objects:
        return False
    for small in statement.body:
        if not isinstance(small, cst.Expr) or not isinstance(small.value, cst.Call):
            return False
        top = small.value
        if not (_output_call(top, logger_names) or _reporting_method(top, objects)):
            return False
    if writes(statement):
        return False
    for call in calls(statement):
        name = dotted(call.func)
        if not (_output_call(call, logger_names) or _reporting_method(call, objects)
                or name in _INERT_CALLS and "." not in name
                or isinstance(call.func, cst.Attribute) and call.func.attr.value in _STRING_METHODS
                and isinstance(call.func.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))):
            return False
    names = reads(statement)
    return bool(names & objects) and names <= objects | _REPORTING_NAMES | logger_names


# Methods that go on building a model (`model.add(layers.Dense(8))`, `model.build((None, 4))`):
# they create its weights, so they belong in the scope with it.
BUILDING_METHODS = frozenset({"add", "build"})


def only_builds(statement: cst.CSTNode, objects: set[str], imported: set[str]) -> bool:
    """Is ``statement`` a line of ``model.add(...)`` / ``model.build(...)`` calls on ``objects``,
    whose arguments are made there from imported libraries, builtins and literals
    (``layers.Dense(8)``)? Not ``model.add(base)``: a layer or model made before may hold
    weights made outside the scope, and the model must not mix them with its own."""
    if not isinstance(statement, cst.SimpleStatementLine) or not objects or writes(statement):
        return False
    tops: set[int] = set()
    for small in statement.body:
        call = small.value if isinstance(small, cst.Expr) else None
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                and isinstance(call.func.value, cst.Name) and call.func.value.value in objects
                and call.func.attr.value in BUILDING_METHODS):
            return False
        tops.add(id(call))
    if not reads(statement) <= objects | imported | BUILTIN_NAMES:
        return False
    return all(id(call) in tops or callee_root(call) in imported | BUILTIN_NAMES for call in calls(statement))


# `adapt()` is what makes a preprocessing layer's variables (a Normalization's mean, variance
# and count): when the layer belongs to a model that moves into the scope, so does its adapt.
# The data handed to it may be shaped on the way (`ds.map(lambda x, y: x)`): those methods make
# no variable.
_DATA_METHODS = frozenset({"map", "batch", "unbatch", "take", "skip", "shuffle", "prefetch", "cache", "filter"})


def _rooted_in(node: cst.CSTNode, objects: set[str]) -> bool:
    """Is ``node`` one of ``objects`` or a part of one: ``aug``, ``aug.layers[0]``,
    ``model.get_layer("norm")``?"""
    while True:
        if isinstance(node, (cst.Attribute, cst.Subscript)):
            node = node.value
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get_layer":
            node = node.func.value
        else:
            return isinstance(node, cst.Name) and node.value in objects


def only_adapts(statement: cst.CSTNode, objects: set[str], imported: set[str]) -> bool:
    """Is ``statement`` a line of ``<part of one of objects>.adapt(data)`` calls
    (``data_augmentation.layers[0].adapt(x_train)``)? It binds nothing, and the only other
    calls shape the data (library functions, builtins, dataset methods such as ``map``)."""
    if not isinstance(statement, cst.SimpleStatementLine) or not objects or writes(statement):
        return False
    tops: set[int] = set()
    for small in statement.body:
        call = small.value if isinstance(small, cst.Expr) else None
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "adapt" and _rooted_in(call.func.value, objects)):
            return False
        tops.add(id(call))
    return all(
        id(call) in tops
        or callee_root(call) in imported | BUILTIN_NAMES
        or isinstance(call.func, cst.Attribute) and call.func.attr.value in _DATA_METHODS | {"get_layer"}
        for call in calls(statement)
    )


def trains(node: cst.CSTNode) -> bool:
    """Does ``node`` call fit/evaluate/predict/save or the like?"""
    for call in calls(node):
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in TRAINING_METHODS:
            return True
    return False


def feeds_graph(statement: cst.CSTNode) -> bool:
    """A functional-API step: ``x = layers.Dense(8)(x)`` or ``inputs = keras.Input(...)``.

    Calling a layer on a symbolic tensor builds it and creates its weights, so
    these steps belong in the scope with the ``Model(inputs, outputs)`` they feed.
    """
    for call in calls(statement):
        if isinstance(call.func, cst.Call):
            return True
        name = dotted(call.func)
        if name is not None and name.rsplit(".", 1)[-1] in ("Input", "InputLayer"):
            return True
    return False


# --- strategies and scopes ----------------------------------------------------------


def strategy_binding(statement: cst.CSTNode, names: set[str]) -> str | None:
    """The strategy name ``statement`` binds, if it binds one (also inside try/if blocks).

    A ``def`` or ``class`` binds only its own name: a strategy made in its body is its local
    (red team round 6: a module-level batch was scaled by ``create_model()``'s local strategy,
    and the fixed script stopped with a NameError)."""
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
        return None
    for current in _walk(statement, into_functions=False):
        if isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(current, cst.Assign) and len(current.targets) == 1:
            target, value = current.targets[0].target, current.value
        elif isinstance(current, cst.AnnAssign) and current.value is not None:
            target, value = current.target, current.value
        else:
            continue
        name = dotted(target)
        if name is None:
            continue
        if isinstance(value, cst.Name) and value.value == "None":
            continue
        if isinstance(value, cst.Call):
            func = dotted(value.func) or ""
            if func.rsplit(".", 1)[-1] in api.STRATEGY_CLASSES | {"get_strategy"}:
                return name
        if name in names:
            return name
    return None


def scope_target(with_node: cst.CSTNode, strategy: str, scope_names: set[str]) -> bool:
    """Is ``with_node`` a plain ``with <strategy>.scope():`` block with a body we can add to?

    Only a block whose single context manager is the scope: adding a statement
    to ``with tf.device(...), strategy.scope():`` would also move it to a device.
    """
    if not isinstance(with_node, cst.With) or with_node.asynchronous is not None:
        return False
    if len(with_node.items) != 1 or not isinstance(with_node.body, cst.IndentedBlock):
        return False
    item = with_node.items[0].item
    if isinstance(item, cst.Name):
        return item.value in scope_names
    if (
        isinstance(item, cst.Call)
        and not item.args
        and isinstance(item.func, cst.Attribute)
        and item.func.attr.value == "scope"
    ):
        return dotted(item.func.value) == strategy
    return False


def scope_names(nodes: Iterable[cst.CSTNode], strategy: str) -> set[str]:
    """Names bound to ``<strategy>.scope()`` among ``nodes`` (``scope = strategy.scope()``)."""
    found: set[str] = set()
    for current in nodes:
        if isinstance(current, cst.Assign) and len(current.targets) == 1:
            value = current.value
            if (
                isinstance(value, cst.Call)
                and isinstance(value.func, cst.Attribute)
                and value.func.attr.value == "scope"
                and dotted(value.func.value) == strategy
                and isinstance(current.targets[0].target, cst.Name)
            ):
                found.add(current.targets[0].target.value)
    return found


def strategy_params(function: cst.FunctionDef | None, configured: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The function's parameters that hold a strategy: named like one, or named in
    the configured ``strategy-names`` (what the checker also takes for a strategy)."""
    if function is None:
        return []
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    return [p.name.value for p in every if api.says_strategy(p.name.value) or p.name.value in configured]
