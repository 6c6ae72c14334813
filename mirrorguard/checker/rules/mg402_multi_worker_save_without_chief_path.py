"""MG402 multi-worker-save-without-chief-path."""

from __future__ import annotations

import ast
from typing import Iterator, NamedTuple

from mirrorguard.checker.rules import _multiworker as mw
from mirrorguard.checker.rules.base import Case, Context, Report, Rule
from mirrorguard.checker.semantic import CallSite, SemanticModel, Unit
from mirrorguard.checker.semantic.units import argument_for

_MODEL_SAVES = frozenset({"save", "save_weights"})
_CHECKPOINT_SAVES = frozenset({"save", "write"})
# Functions that save the model they are given: (qualified name, position of the path).
_SAVE_FUNCTIONS = {"keras.models.save_model": 1, "keras.saving.save_model": 1, "tensorflow.saved_model.save": 1}
_PATH_KEYWORDS = ("filepath", "file_prefix", "export_dir", "directory")
_CHECKPOINT = "tensorflow.train.Checkpoint"
_MANAGER = "tensorflow.train.CheckpointManager"


# A named tuple, not a frozen dataclass: far cheaper to generate at import
# (see mirrorguard/checker/semantic/units.py).
class Save(NamedTuple):
    site: CallSite
    path: ast.expr | None  # the path expression, as seen from ``path_unit``
    path_unit: Unit


def _binding_call(name: str, unit: Unit, model: SemanticModel, qualified: str) -> tuple[ast.Call, Unit] | None:
    """``ckpt = tf.train.Checkpoint(...)``: the constructor call the name is bound to."""
    if name.startswith("self."):
        for other in model.units:
            if other.class_name and other.class_name == unit.class_name:
                for binding in other.bindings.get(name, ()):
                    if isinstance(binding.value, ast.Call) and qualified in model.qualify(binding.value.func):
                        return binding.value, other
        return None
    current: Unit | None = unit
    while current is not None:
        bindings = current.bindings.get(name)
        if bindings:
            for binding in reversed(bindings):
                value = binding.value
                if isinstance(value, ast.Call) and qualified in model.qualify(value.func):
                    return value, current
            return None
        current = current.parent
    return None


def _argument(node: ast.Call, position: int, keywords: tuple[str, ...] = _PATH_KEYWORDS) -> ast.expr | None:
    for keyword in node.keywords:
        if keyword.arg in keywords:
            return keyword.value
    args = [a for a in node.args]
    if len(args) > position and not any(isinstance(a, ast.Starred) for a in args[: position + 1]):
        return args[position]
    return None


def _is_model(name: str, unit: Unit, context: Context, depth: int = 0) -> bool:
    """A Keras model: bound to one, compiled or trained, bound in the strategy's scope
    (``with strategy.scope(): model = build()``), or a parameter its callers pass one to."""
    if name == "self.model" or name in mw.model_receivers(context) or name in _bound_in_scope(context):
        return True
    if depth > 3 or name not in unit.params:
        return False
    for other in context.model.units:
        for site in other.calls:
            if unit in context.model.callees(site):
                argument = argument_for(site, unit, name, or_default=True)
                if isinstance(argument, ast.Name) and _is_model(argument.id, other, context, depth + 1):
                    return True
    return False


def _bound_in_scope(context: Context) -> set[str]:
    def compute() -> set[str]:
        return {target for unit in context.model.units for site in unit.calls
                if site.in_scope and "." not in "".join(site.targets) for target in site.targets}

    return context.memo("mg4xx bound in scope", compute)


def saves_of(unit: Unit, context: Context) -> list[Save]:
    """The saves of a model or checkpoint ``unit`` makes itself."""
    model = context.model
    found = []
    for site in unit.calls:
        node = site.node
        function = next((q for q in site.qualified if q in _SAVE_FUNCTIONS), None)
        if function is not None:
            found.append(Save(site, _argument(node, _SAVE_FUNCTIONS[function]), unit))
            continue
        method, receiver = site.method, site.receiver
        if method is None or site.qualified or receiver is None:
            continue
        if method in _CHECKPOINT_SAVES and ("." not in receiver or receiver.count(".") == 1 and
                                            receiver.startswith("self.")):
            bound = _binding_call(receiver, unit, model, _CHECKPOINT)
            if bound is not None:
                found.append(Save(site, _argument(node, 0), unit))
                continue
            bound = _binding_call(receiver, unit, model, _MANAGER)
            if bound is not None and method == "save":
                found.append(Save(site, _argument(bound[0], 1), bound[1]))
                continue
        if method in _MODEL_SAVES and _is_model(receiver, unit, context):
            found.append(Save(site, _argument(node, 0), unit))
    return found


# --- where a save runs: on every worker, or under a test that tells workers apart ------------

class Guard(NamedTuple):
    test: ast.expr
    branch: list[ast.stmt]  # the statements that run when it holds
    other: list[ast.stmt]  # the statements that run when it does not


def _guards(unit: Unit) -> dict[int, list[Guard]]:
    """id(node) -> the ``if`` tests it runs under, for every node ``unit`` runs itself.
    ``if not chief: return`` guards what follows it (with the test's other side)."""
    found: dict[int, list[Guard]] = {}
    node = unit.node
    body = [ast.Expr(node.body)] if isinstance(node, ast.Lambda) else list(getattr(node, "body", ()))

    def mark(tree: ast.AST, guards: list[Guard]) -> None:
        stack = [tree]
        while stack:
            current = stack.pop()
            found[id(current)] = guards
            if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            stack.extend(ast.iter_child_nodes(current))

    def block(statements: list[ast.stmt], guards: list[Guard]) -> None:
        for index, statement in enumerate(statements):
            if isinstance(statement, ast.If):
                mark(statement.test, guards)
                block(statement.body, guards + [Guard(statement.test, statement.body, statement.orelse)])
                block(statement.orelse, guards + [Guard(statement.test, statement.orelse, statement.body)])
                if statement.body and isinstance(statement.body[-1], (ast.Return, ast.Raise, ast.Continue)) \
                        and not statement.orelse:
                    rest = statements[index + 1:]
                    guards = guards + [Guard(statement.test, rest, statement.body)]
                continue
            if isinstance(statement, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
                for field in ("target", "iter", "test"):
                    part = getattr(statement, field, None)
                    if part is not None:
                        mark(part, guards)
                for item in getattr(statement, "items", ()):
                    mark(item, guards)
                block(statement.body, guards)
                block(getattr(statement, "orelse", []), guards)
                continue
            if isinstance(statement, ast.Try):
                for part in (statement.body, statement.orelse, statement.finalbody,
                             *[h.body for h in statement.handlers]):
                    block(part, guards)
                continue
            mark(statement, guards)

    block(body, [])
    return found


def _contains_save(statements: list[ast.stmt], saves: list[Save]) -> bool:
    nodes = {id(n) for statement in statements for n in ast.walk(statement)}
    return any(id(save.site.node) in nodes for save in saves)


def check(context: Context) -> Iterator[Report]:
    # A ParameterServerStrategy's coordinator is the one process that saves: nothing to judge there.
    if not mw.makes(context, mw.MWMS) or mw.makes(context, mw.PSS):
        return
    model = context.model
    flow = mw.worker_flow(context)
    judged = {id(u) for u in model.strategy_code()}
    saves_by_unit = {id(u): saves_of(u, context) for u in model.units}
    guards_by_unit: dict[int, dict[int, list[Guard]]] = {}

    def guards(unit: Unit) -> dict[int, list[Guard]]:
        if id(unit) not in guards_by_unit:
            guards_by_unit[id(unit)] = _guards(unit)
        return guards_by_unit[id(unit)]

    def splitting(unit: Unit, node: ast.AST) -> Guard | None:
        """The innermost test over the worker that ``node`` runs under, if any."""
        for guard in reversed(guards(unit).get(id(node), [])):
            if flow.of(guard.test, unit) == mw.DIFFERS:
                return guard
        return None

    def unconditional(unit: Unit, node: ast.AST) -> bool:
        """Does ``node`` run whatever the worker: every test it runs under is the same on all
        of them (a test this walk cannot follow, ``is_chief(*imported())``, may not be)?"""
        return all(flow.of(guard.test, unit) == mw.SAME for guard in guards(unit).get(id(node), []))

    callers: dict[int, list[CallSite]] = {}
    for unit in model.units:
        for site in unit.calls:
            for target in model.callees(site):
                if isinstance(target, Unit) and target is not unit:
                    callers.setdefault(id(target), []).append(site)

    def every_worker_runs(unit: Unit, seen: frozenset[int] = frozenset()) -> bool:
        """Does every worker run ``unit``: no caller calls it only on some workers?"""
        if id(unit) in seen:
            return True
        sites = callers.get(id(unit), [])
        return all(unconditional(s.unit, s.node) and every_worker_runs(s.unit, seen | {id(unit)})
                   for s in sites)

    def saves_within(unit: Unit, seen: frozenset[int] = frozenset()) -> bool:
        if saves_by_unit.get(id(unit)):
            return True
        return any(saves_within(t, seen | {id(unit)}) for site in unit.calls for t in model.callees(site)
                   if isinstance(t, Unit) and id(t) not in seen and t is not unit)

    for unit in model.units:
        if id(unit) not in judged:
            continue
        saves = saves_by_unit[id(unit)]
        for save in saves:
            site = save.site
            if site.single_device:
                continue
            guard = splitting(unit, site.node)
            if guard is not None:
                if not _contains_save(guard.other, saves):
                    yield Report(site.node, _only_some_message(context, site.node, guard.test))
                continue
            if not unconditional(unit, site.node) or not every_worker_runs(unit):
                continue
            if save.path is not None and flow.of(save.path, save.path_unit) == mw.SAME:
                yield Report(site.node, (
                    f"every worker runs `{context.callee(site.node)}` to the same path "
                    f"`{context.code(save.path)}` and they overwrite each other; let the chief write it and "
                    "the other workers a temporary path (`write_filepath()` in TensorFlow's multi-worker tutorial)"
                ))
        # if is_chief: save_everything(model): a helper that saves, called on some workers only.
        for site in unit.calls:
            guard = splitting(unit, site.node)
            if guard is None or any(s.site is site for s in saves):
                continue
            helpers = [t for t in model.callees(site) if isinstance(t, Unit) and t is not unit]
            if helpers and any(saves_within(t) for t in helpers) and not _contains_calls_of(guard.other, helpers,
                                                                                            unit, model):
                yield Report(site.node, _only_some_message(context, site.node, guard.test))


def _contains_calls_of(statements: list[ast.stmt], helpers: list[Unit], unit: Unit, model: SemanticModel) -> bool:
    nodes = {id(n) for statement in statements for n in ast.walk(statement)}
    return any(id(site.node) in nodes and any(t in helpers for t in model.callees(site)) for site in unit.calls)


def _only_some_message(context: Context, node: ast.Call, test: ast.expr) -> str:
    return (
        f"`{context.callee(node)}` runs only on some workers (`if {context.code(test)}:`), but saving under "
        "MultiWorkerMirroredStrategy must run on every worker (reading synced variables waits for all of "
        "them); save on every worker, the non-chief ones to a temporary path"
    )


RULE = Rule(
    code="MG402",
    name="multi-worker-save-without-chief-path",
    summary="Saving under MultiWorkerMirroredStrategy from every worker to one path, or on the chief only",
    check=check,
    docs="""
    ## What it does
    In a program that makes a `MultiWorkerMirroredStrategy`, flags two ways of saving
    a model or checkpoint (`model.save`, `model.save_weights`, `keras.models.save_model`,
    `tf.saved_model.save`, `tf.train.Checkpoint.save`/`write`, `CheckpointManager.save`):

    - a save every worker runs to a path that is the same on every worker;
    - a save that runs only under a test that tells workers apart (`if task_id == 0:`,
      `if is_chief:`, `if not chief: return` before it), with no save on the other side.

    What tells workers apart is decided by following values, not names: a value that
    comes from the worker's task (`cluster_resolver.task_id`/`task_type`,
    `strategy.extended.should_checkpoint`, the `task` of `TF_CONFIG`) or from `tempfile`,
    through variables, parameters and the file's own functions (TensorFlow's
    `write_filepath(path, task_type, task_id)` gives a path that differs). A path whose
    value cannot be followed (another module's helper) is not judged.

    `BackupAndRestore` and `ModelCheckpoint` are not flagged: tf-keras gives non-chief
    workers a temporary path itself, and Keras 3 cannot `fit()` under this strategy at
    all (MG404). A `ParameterServerStrategy` program saves from its one coordinator.

    ## Why is this bad?
    Under `MultiWorkerMirroredStrategy` every worker runs the same program, so every
    worker saves. Saving reads the variables through collectives that need every worker
    ("variables can trigger synchronization on read", tensorflow/models' train_lib):
    measured with TensorFlow 2.21 and tf-keras on two local workers, `model.save()` on
    the chief alone blocks in a `CollectiveReduceV2` until the other worker's process is
    gone, then fails with `UnavailableError: Collective ops is aborted`. (A
    `tf.train.Checkpoint` of a Keras 3 model's weights alone, no metrics, saved on the
    chief alone did finish: whether it blocks depends on what is saved, so TensorFlow's
    tutorials and tensorflow/models save on every worker always.) Saving to one
    path from every worker makes the workers overwrite each
    other's files, on a shared file system a corrupt or mixed result. The tutorial's
    way: every worker saves, the chief to the real path, the others to a temporary
    directory they delete afterwards.

    ## Example
    ```python
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    ...
    model.fit(dataset, epochs=3)
    if strategy.cluster_resolver.task_id == 0:
        model.save("/shared/model.keras")
    ```

    ## Use instead
    ```python
    task_type, task_id = strategy.cluster_resolver.task_type, strategy.cluster_resolver.task_id
    model.save(write_filepath("/shared/model.keras", task_type, task_id))
    if not is_chief(task_type, task_id):
        tf.io.gfile.rmtree(os.path.dirname(write_filepath("/shared/model.keras", task_type, task_id)))
    ```

    ## References
    - https://www.tensorflow.org/tutorials/distribute/multi_worker_with_keras#model_saving_and_loading
    - https://www.tensorflow.org/tutorials/distribute/multi_worker_with_ctl#checkpoint_saving_and_restoring
    """,
    valid=(
        Case("""
        import os, tempfile
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            model = build_and_compile()
        model.fit(dataset, epochs=2)

        def write_path(path, task_id):
            return path if task_id == 0 else os.path.join(tempfile.mkdtemp(), "model.keras")

        model.save(write_path("/shared/model.keras", strategy.cluster_resolver.task_id))
        """),
        Case("""
        import tempfile
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        with strategy.scope():
            model = build_and_compile()
        model.fit(dataset, epochs=2)
        if resolver.task_id == 0:
            model.save("my_model.keras")
        else:
            model.save(tempfile.mkdtemp() + "/model.keras")
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_and_compile()
        model.fit(dataset, epochs=2)
        model.save("model.keras")  # one process
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            model = build_and_compile()
        model.fit(dataset, epochs=2)
        model.save("/shared/model.keras")
        """, lines=(6,)),
        Case("""
        import json, os
        import tensorflow as tf
        tf_config = json.loads(os.environ["TF_CONFIG"])
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            model = build_and_compile()
        model.fit(dataset, epochs=2)
        if tf_config["task"]["index"] == 0:
            model.save("/shared/model.keras")
        """, lines=(9,)),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            model = build_and_compile()
            checkpoint = tf.train.Checkpoint(model=model)
        manager = tf.train.CheckpointManager(checkpoint, directory="/shared/ckpt", max_to_keep=3)

        def train(epochs):
            for epoch in range(epochs):
                strategy.run(step, args=(next(iterator),))
                manager.save()

        train(3)
        """, lines=(11,)),
    ),
)
