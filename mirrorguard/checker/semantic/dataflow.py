"""Where a batched dataset goes: to the strategy, or somewhere else.

A ``tf.data`` pipeline batched in a strategy's file is the global batch only
when it reaches the strategy (``fit``, ``experimental_distribute_dataset``,
``strategy.run``...). This module follows a batched dataset's name through the
method chains and bindings that carry it, and answers whether it only feeds
something else: a layer's ``adapt()``, a host-side loop or ``next(iter(...))``,
``Session.run``, another batching, a library that scans it as an index.
The batch rules (MG201, MG202) ask; this module knows no rule.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from mirrorguard.checker import names as api
from mirrorguard.checker.semantic.units import END_OF_UNIT, BindingKind, CallSite, argument_for, walk

if TYPE_CHECKING:
    from mirrorguard.checker.semantic.model import SemanticModel


def batch_reaches_strategy(site: CallSite, model: SemanticModel) -> bool:
    """Does the dataset this batching call makes reach the strategy as it is?
    Not when the chain it ends is a library's index, or its name only feeds
    something else (see :func:`only_feeds_elsewhere`)."""
    if site.is_inside(lambda outer: any(q.startswith(LIBRARY_SINKS) for q in outer.qualified)):
        return False  # tfrs.metrics.FactorizedTopK(candidates=movies.batch(128)...): an index the library scans
    end = chain_end(site)
    if len(end.targets) == 1 and only_feeds_elsewhere(end.targets[0], end, model, 0):
        return False
    outer = end.inside_call
    if outer is not None and _helper_unbatches(outer, end.node, model):
        return False  # flatten(raw.batch(1024).map(f)), where flatten returns ds.unbatch()
    return not _returned_to_rebatching(end, model)


def _helper_unbatches(call: CallSite, argument: ast.AST, model: SemanticModel) -> bool:
    """Is ``argument`` handed to a function of the file that only hands it back
    unbatched (or batched again): ``def flatten(ds): return ds.map(f).unbatch()``?"""
    for function in model.callees(call):
        node = getattr(function, "node", None)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)]
        for param in params:
            if argument_for(call, function, param) is argument:  # type: ignore[arg-type]
                return _returns_param_rebatched(function, param)  # type: ignore[arg-type]
    return False


def _returns_param_rebatched(function, param: str) -> bool:
    """Every value ``function`` returns is ``param`` through a chain that unbatches
    or batches it again (following names bound once in the function)."""
    returns = [n.value for n in walk(function.node) if isinstance(n, ast.Return) and n.value is not None]
    if not returns:
        return False
    for value in returns:
        methods: set[str] = set()
        node: ast.AST = value
        limit = END_OF_UNIT  # a name read here means its last binding before this order
        for _ in range(8):
            while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                methods.add(node.func.attr)
                node = node.func.value
            if not isinstance(node, ast.Name):
                return False
            bindings = [b for b in function.bindings.get(node.id, ()) if b.order < limit]
            if not bindings:
                return False
            binding = bindings[-1]
            if binding.kind is BindingKind.PARAMETER:
                if node.id != param:
                    return False
                break
            if binding.kind is not BindingKind.ASSIGNMENT or binding.value is None or (
                    len([b for b in bindings if b.kind is not BindingKind.PARAMETER]) > 1 and binding.branches):
                return False
            # ds = ds.map(f): follow the binding back to what it was made from
            node, limit = binding.value, binding.order
        else:
            return False
        if not (UNBATCHING & methods or api.BATCH_METHODS & methods):
            return False
    return True


# Methods after which a batch no longer holds: ds.batch(1024).map(vectorize).unbatch().
UNBATCHING = frozenset({"unbatch", "rebatch"})


def _returned_to_rebatching(end: CallSite, model: SemanticModel, depth: int = 0) -> bool:
    """``def vectorized(ds): return ds.batch(1024).map(f)`` whose every caller
    unbatches or batches again what it returns (``vectorized(raw).unbatch()``,
    ``tmp = vectorized(raw)`` then only ``tmp.unbatch()``): the helper's batch
    never reaches the strategy."""
    unit = end.unit
    returned = None if unit.is_module or not unit.callers or depth > 3 else _returned_as(unit, end)
    if returned is None:
        return False
    for caller in unit.callers:
        if returned != WHOLE:
            # `train, val = get_datasets()`: follow the name its element is unpacked to.
            index, count = returned
            if len(caller.targets) == count and only_feeds_elsewhere(caller.targets[index], caller, model, 0):
                continue
            return False
        above = _methods_above(caller)
        if UNBATCHING.intersection(above) or api.BATCH_METHODS.intersection(above):
            continue
        if result_never_reaches_strategy(caller, model):
            continue
        if _returned_to_rebatching(chain_end(caller), model, depth + 1):
            continue
        return False
    return True


def _methods_above(site: CallSite) -> set[str]:
    """The methods called on the result of ``site`` along its chain: ``unbatch``
    and ``batch`` for ``helper(raw)`` in ``helper(raw).unbatch().batch(G)``."""
    found = set(site.chained)
    current = site
    while current.inside_call is not None and _in_receiver_chain(current.inside_call.node, current.node):
        current = current.inside_call
        if current.method is not None:
            found.add(current.method)
    return found


def returns_dataset_of(unit, site: CallSite) -> bool:
    """Does ``unit`` return the dataset the batching call ``site`` makes (its chain's end)?"""
    return _returns(unit, chain_end(site))


def result_never_reaches_strategy(call: CallSite, model: SemanticModel) -> bool:
    """``ds = make_dataset(64)`` whose ``ds`` only feeds something else: see only_feeds_elsewhere."""
    outer = chain_end(call)
    return len(outer.targets) == 1 and only_feeds_elsewhere(outer.targets[0], outer, model, 0)


def _returns(unit, end: CallSite) -> bool:
    """Does ``unit`` return what ``end`` makes, directly or through the one name it is bound to?"""
    return _returned_as(unit, end) == WHOLE


WHOLE = (0, 0)  # _returned_as: the returned value itself, not an element of a returned tuple


def _returned_as(unit, end: CallSite) -> tuple[int, int] | None:
    """How ``unit`` returns what ``end`` makes (directly or through the one name it is bound
    to): ``WHOLE``, or ``(i, n)`` for element ``i`` of a returned ``n``-tuple (``return train,
    val``), or None when it does not."""
    node = unit.node
    if isinstance(node, ast.Lambda):
        return WHOLE if node.body is end.node else None
    names = set(end.targets) if len(end.targets) == 1 else set()

    def made_here(value: ast.AST) -> bool:
        return value is end.node or (isinstance(value, ast.Name) and value.id in names)

    pending = list(getattr(node, "body", ()))
    while pending:
        statement = pending.pop()
        if isinstance(statement, ast.Return) and statement.value is not None:
            value = statement.value
            if made_here(value):
                return WHOLE
            if isinstance(value, ast.Tuple):
                for i, element in enumerate(value.elts):
                    if made_here(element):
                        return i, len(value.elts)
        elif not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(statement))
    return None


# Libraries that take a dataset to scan it themselves, not to train on it.
LIBRARY_SINKS = ("tensorflow_recommenders.",)


def chain_end(site: CallSite) -> CallSite:
    """The outermost call of the method chain ``site`` is part of:
    ``ids = ratings.batch(N).map(f)`` for ``ratings.batch(N)``."""
    current = site
    while current.inside_call is not None and _in_receiver_chain(current.inside_call.node, current.node):
        current = current.inside_call
    return current


def _in_receiver_chain(outer: ast.Call, inner: ast.Call) -> bool:
    node = outer.func
    while isinstance(node, ast.Attribute):
        node = node.value
        if node is inner:
            return True
        if isinstance(node, ast.Call):
            node = node.func
    return False


def only_feeds_elsewhere(name: str, site: CallSite, model: SemanticModel, depth: int) -> bool:
    """``vocab_ds = text_ds.batch(1024)`` then only ``layer.adapt(vocab_ds)``;
    ``chunks = stream.batch(SEQ + 1)`` then ``chunks.map(split)...batch(GLOBAL)``;
    ``held_out = ds.batch(256)`` then only ``for x in held_out:``. The batched
    dataset never reaches the strategy as it is."""
    if "." in name or depth > 3:
        return False
    home = site.binding_unit
    window = home.window(name, site.order)
    start, end = window
    uses = reads = 0
    for unit in model.units_seeing(home, name):
        if unit is not home and not model.seen_by_functions(home, name, end):
            continue

        def inside(order: int, unit=unit) -> bool:
            return start <= order < end if unit is home else True

        reads += len(unit.reads_between(name, start, end) if unit is home else unit.reads_of(name))
        uses += sum(1 for use in unit.iterated if use.name == name and inside(use.order))
        for other in unit.calls_on(name):
            if not inside(other.order):
                continue
            if other.chain_root == name and other.inside_call is not None and other.inside_call.chain_root == name:
                continue
            uses += 1
            chain = [c for c in unit.calls_on(name)
                     if c.chain_root == name and (c is other or c.is_inside(lambda o: o is other))]
            if other.chain_root == name and any(c.method in api.BATCH_METHODS or c.method in UNBATCHING
                                                for c in chain):
                continue  # batched again (or unbatched) on the way
            if other.method == "adapt" or other.is_inside(lambda outer: outer.method == "adapt"):
                continue
            if other.chain_root == name and other.iterated:
                continue
            if _host_side(other, name, model):
                continue
            if other.method in api.BATCH_SIZE_POSITION and model.trained_before_the_strategy(other):
                continue  # fed to a model trained to the end before the strategy exists
            passed = None if other.chain_root == name else next(
                (a for a in other.node.args if isinstance(a, ast.Name) and a.id == name), None)
            if passed is not None and _helper_unbatches(other, passed, model):
                continue  # flatten(chunks): a helper of the file unbatches it
            # dataset = chunks.map(split): follow the new name.
            final = _end_of_chain(other, unit) if other.chain_root == name else None
            if final is not None and len(final.targets) == 1 and only_feeds_elsewhere(
                final.targets[0], final, model, depth + 1
            ):
                continue
            return False
    if not reads:
        # Re-bound before anything reads it: it reaches nothing. Never read in a
        # file that hands other data to the strategy: not its input either. Left
        # unused where the file feeds nothing to a strategy (a data module another
        # file imports, a fragment), it is still the global batch the code means.
        return not window.open_ended or _feeds_strategy(model)
    return reads <= uses


# Consumers that bring a dataset to the host, never to the strategy.
_HOST_METHODS = frozenset({"as_numpy_iterator", "numpy", "take_while"})
_HOST_FUNCTIONS = frozenset({
    "iter", "next", "list", "enumerate", "len", "print", "tensorflow_datasets.as_numpy",
    # TF1 iterators, read by a Session on the host
    "tensorflow.data.make_one_shot_iterator", "tensorflow.data.make_initializable_iterator",
})


def _host_side(site: CallSite, name: str, model: SemanticModel) -> bool:
    """``next(iter(ds))``, ``ds.as_numpy_iterator()``, ``session.run(ds)``: the dataset
    goes to the host (a plot, a print, a TF1 session), not to the strategy."""
    if site.method in _HOST_METHODS and site.chain_root == name:
        return True
    func = site.node.func
    if site.method == "run" and isinstance(func, ast.Attribute) and not model.is_strategy(func.value):
        return True  # Session.run, not strategy.run
    return _host_call(site)


STRATEGY_SINKS = frozenset({
    "experimental_distribute_dataset", "distribute_datasets_from_function", "create_per_worker_dataset",
    "fit", "evaluate", "predict", "run", "search",
})


def _feeds_strategy(model: SemanticModel) -> bool:
    """Does the file hand some input to a strategy: a ``fit``/``evaluate`` or a
    distributed dataset, with an argument?"""
    found = model.cache.get("feeds strategy")
    if found is None:
        found = model.cache["feeds strategy"] = any(
            site.method in _INPUT_SINKS and (site.node.args or site.node.keywords)
            for unit in model.units for site in unit.calls
        )
    return found


_INPUT_SINKS = frozenset({
    "experimental_distribute_dataset", "distribute_datasets_from_function", "create_per_worker_dataset",
    "fit", "evaluate",
})


def gathered_on_host(site: CallSite) -> bool:
    """The call sits in the arguments of a host-side call (``next(iter(...))``)
    with nothing that hands it to the strategy in between."""
    outer = site.inside_call
    while outer is not None:
        if outer.method in STRATEGY_SINKS:
            return False
        if _host_call(outer):
            return True
        outer = outer.inside_call
    return False


def _host_call(site: CallSite) -> bool:
    func = site.node.func
    called = site.qualified or ((func.id,) if isinstance(func, ast.Name) else ())
    return any(q in _HOST_FUNCTIONS for q in called)


def _end_of_chain(site: CallSite, unit) -> CallSite | None:
    """The outermost call of the method chain ``site`` starts: ``a.map(f).shuffle(9)`` for ``a.map(f)``."""
    if not site.chained:
        return site
    for other in unit.calls:
        if (other.statement is site.statement and other.chain_root == site.chain_root and not other.chained
                and other.order < site.order):
            return other
    return None
