"""MG401 tf-config-set-after-strategy."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker.rules import _multiworker as mw
from mirrorguard.checker.rules.base import Case, Context, Report, Rule
from mirrorguard.checker.semantic import SemanticModel, Unit
from mirrorguard.checker.semantic.units import own_nodes

# What starts other processes: a program that does sets TF_CONFIG for them.
_LAUNCHERS = ("subprocess.", "multiprocessing.", "os.system", "os.popen", "os.spawn", "os.exec", "os.fork",
              "concurrent.futures.ProcessPoolExecutor", "tensorflow.__internal__.distribute.multi_process_runner")


def _writes(unit: Unit, model: SemanticModel) -> list[ast.AST]:
    """Where ``unit`` sets ``TF_CONFIG``: ``os.environ["TF_CONFIG"] = ...``,
    ``os.environ.update(...)``/``setdefault(...)`` with that key, ``os.putenv``."""
    found: list[ast.AST] = []
    for site in unit.calls:
        qualified = site.qualified
        node = site.node
        if "os.putenv" in qualified or "os.environ.setdefault" in qualified:
            if node.args and mw.constant_string(node.args[0]) == mw.TF_CONFIG:
                found.append(node)
        elif "os.environ.update" in qualified:
            keys = [k.arg for k in node.keywords]
            for arg in node.args:
                if isinstance(arg, ast.Dict):
                    keys += [mw.constant_string(k) for k in arg.keys]
            if mw.TF_CONFIG in keys:
                found.append(node)
    for node in own_nodes(unit):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            if isinstance(target, ast.Subscript) and "os.environ" in model.qualify(target.value) and (
                    mw.constant_string(target.slice) == mw.TF_CONFIG):
                found.append(node)
    return found


def _bound_to_resolver(node: ast.AST | None, unit: Unit, model: SemanticModel) -> bool:
    if mw.is_resolver_call(node, model):
        return True
    if isinstance(node, ast.Name):
        current: Unit | None = unit
        while current is not None:
            bindings = current.bindings.get(node.id)
            if bindings:
                return any(mw.is_resolver_call(b.value, model) for b in bindings)
            current = current.parent
    return False


def _reads(unit: Unit, model: SemanticModel) -> list[ast.Call]:
    """Strategies this unit constructs that read ``TF_CONFIG`` then: a
    MultiWorkerMirroredStrategy with no resolver of its own, or any strategy given
    a TFConfigClusterResolver (which itself reads ``TF_CONFIG`` only when asked)."""
    found = []
    for site in unit.calls:
        kind = mw.strategy_class_of(site)
        if kind not in (mw.MWMS, mw.PSS):
            continue
        resolver = site.keyword("cluster_resolver")
        given = resolver.value if resolver is not None else None
        if given is None and kind == mw.PSS and site.node.args:
            given = site.node.args[0]  # ParameterServerStrategy(cluster_resolver)
        if given is None and kind == mw.MWMS:
            found.append(site.node)
        elif given is not None and _bound_to_resolver(given, unit, model):
            found.append(site.node)
    return found


def _launches_workers(context: Context, writes: list[ast.AST]) -> bool:
    """A launcher: it sets ``TF_CONFIG`` for the processes it starts, one per worker
    (tensorflow/docs' notebook sets it once per worker it starts with ``%%bash``)."""
    if len(writes) > 1:
        return True
    for unit in context.model.units:
        for site in unit.calls:
            if any(q.startswith(_LAUNCHERS) for q in site.qualified):
                return True
        for node in own_nodes(unit):
            if isinstance(node, (ast.For, ast.While)) and any(
                    node.lineno <= w.lineno <= (node.end_lineno or node.lineno) for w in writes):
                return True
    return False


def check(context: Context) -> Iterator[Report]:
    if not mw.text_mentions(context, mw.TF_CONFIG) or not mw.makes(context, mw.MWMS, mw.PSS):
        return
    model = context.model
    writes_by_unit = {id(u): _writes(u, model) for u in model.units}
    every_write = [w for ws in writes_by_unit.values() for w in ws]
    if not every_write or _launches_workers(context, every_write):
        return

    def events(unit: Unit) -> list[mw.Event]:
        return ([mw.Event("read", node, unit) for node in _reads(unit, model)]
                + [mw.Event("write", node, unit) for node in writes_by_unit[id(unit)]])

    for step, strategy in mw.Timeline(model, events).meetings("read", "write"):
        where = f"`{step.via}()` sets `TF_CONFIG`" if step.via else "`TF_CONFIG` is set"
        yield Report(step.at, (
            f"{where} after `{context.callee(strategy.event.node)}` (line {strategy.event.node.lineno}) "
            "read it, so the "
            "strategy trains this worker alone; set `TF_CONFIG` before creating the strategy"
        ))


RULE = Rule(
    code="MG401",
    name="tf-config-set-after-strategy",
    summary="`TF_CONFIG` set after the multi-worker strategy that reads it was created",
    check=check,
    docs="""
    ## What it does
    Flags a write of the `TF_CONFIG` environment variable (`os.environ["TF_CONFIG"] = ...`,
    `os.environ.update(...)` or `os.environ.setdefault(...)` with that key, `os.putenv`)
    that the program makes after it created a `MultiWorkerMirroredStrategy` (any spelling,
    `experimental` included), or a strategy given a `TFConfigClusterResolver`, in program
    order: the module top to bottom (a notebook's cells in order), a helper where it is called.

    A `TFConfigClusterResolver` reads `TF_CONFIG` only when asked, so creating one early
    is fine as long as the strategy comes after the write. A program that sets `TF_CONFIG`
    more than once, in a loop, or starts processes (`subprocess`, `multiprocessing`) is a
    launcher setting it for its workers, and is not flagged.

    ## Why is this bad?
    The strategy reads `TF_CONFIG` when it is constructed. Set afterwards, it is never
    read: measured with TensorFlow 2.21 on two local workers, each process gets a strategy
    with one worker and one replica (`num_replicas_in_sync == 1`) while
    `strategy.cluster_resolver` still lists both workers. Nothing fails: every process
    trains its own model on its own data.

    ## Example
    ```python
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": index}})
    ```

    ## Use instead
    ```python
    os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": index}})
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    ```

    ## References
    - https://www.tensorflow.org/tutorials/distribute/multi_worker_with_keras#choose_the_right_strategy
    - https://www.tensorflow.org/api_docs/python/tf/distribute/MultiWorkerMirroredStrategy
    """,
    valid=(
        Case("""
        import json, os
        import tensorflow as tf
        cluster = {"worker": ["a:1", "b:2"]}
        os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 0}})
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        """),
        Case("""
        import json, os, subprocess
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()  # this process: single worker on purpose
        for index in range(2):
            os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": index}})
            subprocess.Popen(["python", "worker.py"])
        """),
        Case("""
        import os
        import tensorflow as tf
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        os.environ["TF_CONFIG"] = config_text
        strategy = tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=resolver)
        """),
        Case("""
        import os
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        os.environ["TF_CONFIG"] = config_text  # MirroredStrategy never reads it
        """),
    ),
    invalid=(
        Case("""
        import json, os
        import tensorflow as tf
        strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
        os.environ["TF_CONFIG"] = json.dumps(tf_config)
        """, lines=(4,)),
        Case("""
        import os
        from tensorflow.distribute import MultiWorkerMirroredStrategy as MWMS

        def set_cluster(index):
            os.environ.update({"TF_CONFIG": make_config(index)})

        def main():
            strategy = MWMS()
            set_cluster(int(os.environ["RANK"]))
            with strategy.scope():
                model = build()

        main()
        """, lines=(9,)),
        Case("""
        import os
        import tensorflow as tf
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)
        os.putenv("TF_CONFIG", config_text)
        """, lines=(5,)),
    ),
)
