"""What the multi-worker rules (MG4xx) share: which strategies a file makes,
the order things happen in a program, and whether a value differs between workers.

Everything here asks the semantic model's public questions (units, calls,
bindings, ``qualify``, ``callees``) and walks only the nodes it needs.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterator, NamedTuple

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Context
from mirrorguard.checker.semantic import CallSite, SemanticModel, Unit
from mirrorguard.checker.semantic.units import Branches, argument_for, never_together, own_nodes

MWMS = "MultiWorkerMirroredStrategy"
PSS = "ParameterServerStrategy"
TF_CONFIG = "TF_CONFIG"
_RESOLVER = "TFConfigClusterResolver"


# --- which strategies ---------------------------------------------------------------

def strategy_class_of(site: CallSite) -> str | None:
    """``MultiWorkerMirroredStrategy`` for any spelling of its constructor (aliases resolved)."""
    for name in site.qualified:
        found = api.strategy_class(name)
        if found:
            return found
    return None


def strategy_sites(context: Context) -> list[tuple[CallSite, str]]:
    """Every strategy constructed in the file, with its class (worked out once per file)."""
    def compute() -> list[tuple[CallSite, str]]:
        found = []
        for unit in context.model.units:
            for site in unit.calls:
                kind = strategy_class_of(site)
                if kind:
                    found.append((site, kind))
        return found

    return context.memo("mg4xx strategies", compute)


def makes(context: Context, *kinds: str) -> bool:
    return any(kind in kinds for _, kind in strategy_sites(context))


# Methods only a Keras model has: a receiver they are called on is one.
_MODEL_METHODS = frozenset({"compile", "train_on_batch", "fit_generator"})
# Keywords only Keras's fit/evaluate take (scikit-learn's fit takes none of them).
KERAS_FIT_KEYWORDS = frozenset({"epochs", "steps_per_epoch", "callbacks", "validation_data", "validation_split",
                                "validation_steps", "initial_epoch", "validation_freq", "return_dict", "steps"})


def model_receivers(context: Context) -> set[str]:
    """Names bound to a Keras model, and names the file compiles or trains one through
    (``compile()``, ``fit(..., epochs=...)``)."""
    def compute() -> set[str]:
        model = context.model
        found = set(model.names_bound_by(frozenset(e.code for e in model.effects if e.makes_model)))
        for unit in model.units:
            for site in unit.calls:
                if site.receiver and not site.qualified and (site.method in _MODEL_METHODS or (
                        site.method in ("fit", "evaluate")
                        and any(k.arg in KERAS_FIT_KEYWORDS for k in site.node.keywords))):
                    found.add(site.receiver)
        return found

    return context.memo("mg4xx model receivers", compute)


def is_resolver_call(node: ast.AST, model: SemanticModel) -> bool:
    return isinstance(node, ast.Call) and any(q.endswith("." + _RESOLVER) for q in model.qualify(node.func))


def text_mentions(context: Context, word: str) -> bool:
    """A cheap test before any walk: does the file's text contain ``word`` at all?"""
    return context.memo(("mg4xx text", word), lambda: any(word in line for line in context.positions.lines))


# --- the nodes of one unit ---------------------------------------------------------------

def position(node: ast.AST) -> tuple[int, int]:
    return getattr(node, "lineno", 0), getattr(node, "col_offset", 0)


def site_of(unit: Unit, node: ast.Call) -> CallSite | None:
    for site in unit.calls:
        if site.node is node:
            return site
    return None


# --- program order -------------------------------------------------------------------------

# A named tuple, not a frozen dataclass: far cheaper to generate at import
# (see mirrorguard/checker/semantic/units.py).
class Event(NamedTuple):
    """Something that happens when the program runs: ``what`` (the rule's word
    for it), the node where it happens, and the unit that node is in."""

    what: str
    node: ast.AST
    unit: Unit


class Step(NamedTuple):
    """An event as one unit's run meets it: ``at`` is the node in that unit (the
    event itself, or the call of the helper it happens in); ``branches`` the
    if/else (try, match) branches ``at`` sits in there."""

    event: Event
    at: ast.AST
    via: str | None
    branches: Branches = ()

    def never_together_with(self, other: "Step") -> bool:
        """On different branches of one ``if`` (``elif``...): never both in one run."""
        return never_together(self.branches, other.branches)


def branch_paths(unit: Unit) -> dict[int, Branches]:
    """id(node) -> the branches it sits in, for the nodes ``unit`` runs itself."""
    found: dict[int, Branches] = {}
    node = unit.node
    body = [node.body] if isinstance(node, ast.Lambda) else list(getattr(node, "body", ()))

    def visit(current: ast.AST, path: Branches) -> None:
        found[id(current)] = path
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        if isinstance(current, ast.If):
            visit(current.test, path)
            for statement in current.body:
                visit(statement, path + ((id(current), 0),))
            for statement in current.orelse:
                visit(statement, path + ((id(current), 1),))
            return
        if isinstance(current, ast.Try):
            for statement in current.body + current.orelse:
                visit(statement, path + ((id(current), 0),))
            for index, handler in enumerate(current.handlers, start=1):
                for statement in handler.body:
                    visit(statement, path + ((id(current), index),))
            for statement in current.finalbody:
                visit(statement, path)
            return
        if isinstance(current, ast.Match):
            visit(current.subject, path)
            for index, case in enumerate(current.cases):
                for statement in case.body:
                    visit(statement, path + ((id(current), index),))
            return
        for child in ast.iter_child_nodes(current):
            visit(child, path)

    for statement in body:
        visit(statement, ())
    return found


def called_units(site: CallSite, model: SemanticModel) -> list[Unit]:
    """The file's functions a call runs: its callees, and functions handed to it
    (``app.run(main)``, ``strategy.run(step)``, ``ds.map(parse)`` run them there)."""
    found = [t for t in model.callees(site) if isinstance(t, Unit)]
    for arg in (*site.node.args, *(k.value for k in site.node.keywords)):
        if isinstance(arg, ast.Name):
            function = model.function(arg.id, site.unit)
            if function is not None and function not in found and not _shadowed(arg.id, site.unit):
                found.append(function)
    return found


def _shadowed(name: str, unit: Unit) -> bool:
    """``def f(step): run(step)``: a parameter or variable of that name, not the function."""
    current: Unit | None = unit
    while current is not None and not current.is_module:
        if name in current.params or any(b.value is not None and not isinstance(b.value, ast.Lambda)
                                         for b in current.bindings.get(name, ())):
            return True
        current = current.parent
    return False


class Timeline:
    """Program order over the file's units: each unit in source order, a call of
    the file's own function (or a function handed to a call) expanded where it is made."""

    def __init__(self, model: SemanticModel, events: Callable[[Unit], list[Event]]) -> None:
        self.model = model
        self._events = events
        self._expanded: dict[int, list[tuple[Event, str | None]]] = {}
        self._active: set[int] = set()

    def runs(self) -> Iterator[list[Step]]:
        """One list of steps per unit (lambdas aside), in program order. Two steps
        met through one call (same ``at``) are ordered inside the helper, whose own
        run meets them first: a rule reports where two events meet."""
        for unit in self.model.units:
            if not unit.is_lambda:
                steps = list(self._walk(unit))
                paths = branch_paths(unit) if steps else {}
                yield [Step(event, at, via, paths.get(id(at), ())) for event, at, via in steps]

    def meetings(self, earlier: str, later: str, cleared_by: str | None = None) -> Iterator[tuple[Step, Step]]:
        """(a ``later`` step, the first ``earlier`` step before it on its path): each
        place where the program meets ``later`` after it already met ``earlier``,
        once per node (a helper called twice is reported where it is first called).
        A ``cleared_by`` step undoes the ``earlier`` steps before it for each ``later``
        step it always runs before: in the same branches as that step or in fewer, or
        in the same helper call."""
        reported: set[int] = set()
        for run in self.runs():
            before: list[Step] = []
            clears: list[tuple[int, Step]] = []  # (how many earlier steps it follows, the step)
            for step in run:
                if step.event.what == earlier:
                    before.append(step)
                    continue
                if cleared_by is not None and step.event.what == cleared_by:
                    clears.append((len(before), step))
                    continue
                if step.event.what != later or id(step.at) in reported:
                    continue
                candidates = before
                for count, clear in clears:
                    if clear.at is step.at or step.branches[:len(clear.branches)] == clear.branches:
                        candidates = before[count:] if len(before[count:]) < len(candidates) else candidates
                # Not the same call (a helper doing both), not on another branch of an if.
                first = next((b for b in candidates if b.at is not step.at and not b.never_together_with(step)), None)
                if first is not None:
                    reported.add(id(step.at))
                    yield step, first

    def _walk(self, unit: Unit) -> Iterator[tuple[Event, ast.AST, str | None]]:
        for item, kind in self._items(unit):
            if kind == "event":
                yield item, item.node, None
            else:
                site, target = item
                for event, _ in self._expand(target):
                    yield event, site.node, target.name

    def _items(self, unit: Unit):
        items: list[tuple[tuple[int, int], int, object, str]] = []
        for event in self._events(unit):
            items.append((position(event.node), 0, event, "event"))
        for site in unit.calls:
            for target in called_units(site, self.model):
                if target is not unit:
                    # After the call's own event (a helper's result is used after it runs).
                    items.append((position(site.node), 1, (site, target), "call"))
        items.sort(key=lambda item: (item[0], item[1]))
        return [(item, kind) for _, _, item, kind in items]

    def _expand(self, unit: Unit) -> list[tuple[Event, str | None]]:
        key = id(unit)
        found = self._expanded.get(key)
        if found is not None:
            return found
        if key in self._active:
            return []
        self._active.add(key)
        result = [(event, via) for event, _, via in self._walk(unit)]
        self._active.discard(key)
        self._expanded[key] = result
        return result


# --- values that differ between workers ---------------------------------------------------------

# Attributes of TensorFlow's cluster resolvers and strategies that tell workers apart.
_WORKER_ATTRIBUTES = frozenset({"task_id", "task_type", "should_checkpoint", "should_save_summary"})
# Calls whose result is the same on every worker given the same arguments.
_PURE_CALLS = frozenset({"os.path.join", "os.path.dirname", "os.path.basename", "os.path.abspath",
                         "os.path.expanduser", "os.path.splitext", "os.path.realpath", "pathlib.Path", "str",
                         "int", "format", "os.fspath", "json.dumps", "os.getcwd"})
_COMMAND_LINE = frozenset({"parse_args", "parse_known_args"})
_PURE_METHODS = frozenset({"format", "join", "replace", "strip", "rstrip", "lstrip", "lower", "upper",
                           "joinpath", "with_suffix", "as_posix"})


class Flow(int):
    """Does a value differ between workers? SAME < UNKNOWN < DIFFERS (the most telling wins)."""


SAME, UNKNOWN, DIFFERS = Flow(0), Flow(1), Flow(2)


class WorkerFlow:
    """Follows a value back through bindings, parameters (to every caller) and the
    file's own functions, to what makes it differ between workers: a worker's task
    (``cluster_resolver.task_id``, ``TF_CONFIG``'s ``task``), a temporary directory."""

    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self._names: dict[tuple[int, str], Flow] = {}
        self._returns: dict[int, Flow] = {}

    def of(self, node: ast.AST | None, unit: Unit, depth: int = 0) -> Flow:
        if node is None or depth > 12:
            return UNKNOWN
        if isinstance(node, ast.Constant):
            return SAME
        if isinstance(node, ast.Name):
            return self._name(node.id, unit, depth)
        if isinstance(node, ast.Attribute):
            if node.attr in _WORKER_ATTRIBUTES:
                return DIFFERS
            if "os.environ" in self.model.qualify(node):
                return UNKNOWN
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                return self._self_attribute(node.attr, unit, depth)
            qualified = self.model.qualify(node)
            if qualified:
                return SAME  # a module constant
            return self.of(node.value, unit, depth + 1)
        if isinstance(node, ast.Subscript):
            if _reads_tf_config(node, self.model):
                return DIFFERS
            if constant_string(node.slice) == "cluster":
                return SAME  # TF_CONFIG's cluster is the same on every worker; its task is not
            return max(self.of(node.value, unit, depth + 1), self.of(node.slice, unit, depth + 1))
        if isinstance(node, ast.Call):
            return self._call(node, unit, depth)
        if isinstance(node, ast.IfExp):
            test = self.of(node.test, unit, depth + 1)
            branches = max(self.of(node.body, unit, depth + 1), self.of(node.orelse, unit, depth + 1))
            return DIFFERS if test == DIFFERS else branches
        if isinstance(node, (ast.JoinedStr, ast.BinOp, ast.BoolOp, ast.Compare, ast.Tuple, ast.List,
                             ast.FormattedValue, ast.UnaryOp, ast.Dict)):
            parts = [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
            return max((self.of(child, unit, depth + 1) for child in parts), default=SAME)
        return UNKNOWN

    def _name(self, name: str, unit: Unit, depth: int) -> Flow:
        home: Unit | None = unit
        while home is not None and name not in home.bindings and name not in home.params:
            home = home.parent
        if home is None:
            return UNKNOWN
        key = (id(home), name)
        if key in self._names:
            return self._names[key]
        self._names[key] = UNKNOWN  # a cycle tells nothing
        flows = []
        for binding in home.bindings.get(name, ()):
            if binding.kind.value == "parameter":
                continue
            if binding.kind.value == "import":
                flows.append(SAME)
            else:
                flows.append(self.of(binding.value, home, depth + 1) if binding.value is not None else UNKNOWN)
        if name in home.params:
            flows.append(self._parameter(name, home, depth))
        # One binding that differs is enough: the name may hold it.
        found = max(flows, default=UNKNOWN)
        self._names[key] = found
        return found

    def _parameter(self, name: str, function: Unit, depth: int) -> Flow:
        callers = [site for unit in self.model.units for site in unit.calls
                   if function in called_units(site, self.model) and function in self.model.callees(site)]
        if not callers:
            return UNKNOWN
        return max(self.of(argument_for(site, function, name, or_default=True), site.unit, depth + 1) for site in callers)

    def _self_attribute(self, attr: str, unit: Unit, depth: int) -> Flow:
        if not unit.class_name:
            return UNKNOWN
        flows = []
        for other in self.model.units:
            if other.class_name == unit.class_name:
                for binding in other.bindings.get("self." + attr, ()):
                    flows.append(self.of(binding.value, other, depth + 1) if binding.value is not None else UNKNOWN)
        return max(flows, default=UNKNOWN)

    def _call(self, node: ast.Call, unit: Unit, depth: int) -> Flow:
        qualified = self.model.qualify(node.func)
        if any(q.startswith("tempfile.") for q in qualified):
            return DIFFERS
        if any(q in ("os.getenv", "os.environ.get") for q in qualified) and node.args and \
                isinstance(node.args[0], ast.Constant) and node.args[0].value == TF_CONFIG:
            return DIFFERS
        args = [*node.args, *(k.value for k in node.keywords)]
        arg_flow = max((self.of(a.value if isinstance(a, ast.Starred) else a, unit, depth + 1) for a in args),
                       default=SAME)
        if arg_flow == DIFFERS:
            return DIFFERS
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _COMMAND_LINE:
            return SAME  # one launch command for every worker: its paths are shared (absl's FLAGS too)
        if isinstance(func, ast.Attribute) and not qualified:
            receiver = self.of(func.value, unit, depth + 1)
            if receiver == DIFFERS:
                return DIFFERS
            if func.attr in _PURE_METHODS:
                return max(receiver, arg_flow)
        if any(q in _PURE_CALLS or q.startswith(("os.path.", "pathlib.")) for q in qualified):
            return arg_flow
        if isinstance(func, ast.Name) and func.id in ("str", "int", "format", "len") and not qualified:
            return arg_flow
        site = site_of(unit, node)
        targets = [t for t in self.model.callees(site) if isinstance(t, Unit)] if site is not None else []
        if targets:
            return max(max(self._returns_of(t, depth) for t in targets), arg_flow)
        return UNKNOWN

    def _returns_of(self, function: Unit, depth: int) -> Flow:
        """What the file's function returns: DIFFERS when a returned value (or a
        test the function branches on) differs between workers."""
        key = id(function)
        if key in self._returns:
            return self._returns[key]
        self._returns[key] = UNKNOWN
        flows = []
        for node in own_nodes(function):
            if isinstance(node, ast.Return) and node.value is not None:
                flows.append(self.of(node.value, function, depth + 1))
            elif isinstance(node, (ast.If, ast.IfExp)) and self.of(node.test, function, depth + 1) == DIFFERS:
                flows.append(DIFFERS)
        if isinstance(function.node, ast.Lambda):
            flows.append(self.of(function.node.body, function, depth + 1))
        found = max(flows, default=UNKNOWN)
        self._returns[key] = found
        return found


def _reads_tf_config(node: ast.Subscript, model: SemanticModel) -> bool:
    """``os.environ["TF_CONFIG"]``."""
    return ("os.environ" in model.qualify(node.value) and isinstance(node.slice, ast.Constant)
            and node.slice.value == TF_CONFIG)


def worker_flow(context: Context) -> WorkerFlow:
    return context.memo("mg4xx flow", lambda: WorkerFlow(context.model))


def constant_string(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
