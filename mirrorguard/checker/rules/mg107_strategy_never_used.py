"""MG107 strategy-never-used."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker.names import CallRole, call_role
from mirrorguard.checker.rules.base import Case, Context, Report, Rule
from mirrorguard.checker.semantic import walk

# Reading these tells about the strategy; it distributes nothing.
_INFORMATION = frozenset({"num_replicas_in_sync"})
# Host-side calls that only show the strategy.
_SHOWING = frozenset({"print", "repr", "str", "type", "isinstance", "id", "format"})
# The file trains a Keras model: a strategy that nothing uses there is a mistake,
# not a module that makes one for other files to import.
_TRAINING_METHODS = frozenset({"fit", "compile", "fit_generator", "train_on_batch"})


def _uses(name: str, tree: ast.AST) -> bool:
    """Is the strategy bound to ``name`` used anywhere: a scope, ``run``, a
    distributed dataset, any method, handed to a call or stored? Reading
    ``num_replicas_in_sync`` or printing it is no use."""
    benign: set[int] = set()  # reads of the name that only show or count the replicas
    for node in walk(tree):  # a parent comes before its children
        if isinstance(node, ast.Attribute) and node.attr in _INFORMATION and isinstance(node.value, ast.Name):
            benign.add(id(node.value))
        elif isinstance(node, ast.FormattedValue) and isinstance(node.value, ast.Name):
            benign.add(id(node.value))  # f"{strategy}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SHOWING:
            benign.update(id(arg) for arg in node.args if isinstance(arg, ast.Name))
        elif (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
              and id(node) not in benign):
            return True
    return False


def _calls_a_method(name: str, model) -> bool:
    """``strategy.scope()``, ``strategy.run(...)``...: any method call on it is a use."""
    return any(site.receiver == name for unit in model.units for site in unit.calls)


def check(context: Context) -> Iterator[Report]:
    model = context.model
    tree = model.module.node
    trains = any(
        site.method in _TRAINING_METHODS or model.has_effect(site, "MG101")
        for unit in model.units
        for site in unit.calls
    )
    if not trains:
        return
    if any(True for effect in model.effects for _ in model.unscoped(effect.code)):
        return  # MG101-MG105 already point at the work done outside the scope, with the same advice
    for unit in model.units:
        for site in unit.calls:
            if len(site.targets) != 1 or "." in site.targets[0] or not site.qualified:
                continue
            if call_role(site.qualified) is not CallRole.STRATEGY:
                continue
            name = site.targets[0]
            if not _calls_a_method(name, model) and not _uses(name, tree):
                yield Report(site.node, (
                    f"`{name}` is created but nothing uses it (no scope, `run` or distributed dataset); "
                    f"build and compile the model inside `with {name}.scope():`"
                ))


RULE = Rule(
    code="MG107",
    name="strategy-never-used",
    summary="A strategy is created but nothing uses it",
    check=check,
    docs="""
    ## What it does
    In a file that builds, compiles or trains a Keras model, flags a
    `tf.distribute` strategy bound to a name that nothing uses: no
    `with strategy.scope():`, no `strategy.run`, no distributed dataset, no
    method of it, never handed to a call or stored. Reading
    `strategy.num_replicas_in_sync` or printing the strategy is no use.
    When MG101-MG105 already report work done outside the scope (with the same
    advice), MG107 stays silent: it reports the strategy nothing meets at all,
    such as one created only after the model was trained.

    ## Why is this bad?
    Creating a strategy distributes nothing by itself. A model built and
    compiled outside its scope trains on one device, and every replica the
    strategy found stays idle; a strategy created after `fit()` (a common
    slip when a notebook's cells are reordered) is never met by the model.

    ## Example
    ```python
    model = build_model()
    model.compile(optimizer="adam", loss="mse")
    model.fit(train_ds, epochs=5)
    strategy = tf.distribute.MirroredStrategy()
    print("Number of devices:", strategy.num_replicas_in_sync)
    ```

    ## Use instead
    ```python
    strategy = tf.distribute.MirroredStrategy()
    print("Number of devices:", strategy.num_replicas_in_sync)
    with strategy.scope():
        model = build_model()
        model.compile(optimizer="adam", loss="mse")
    model.fit(train_ds, epochs=5)
    ```

    ## References
    - https://www.tensorflow.org/tutorials/distribute/keras
    """,
    valid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        print(strategy.num_replicas_in_sync)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        model.fit(ds)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        dist_ds = strategy.experimental_distribute_dataset(ds)
        model.fit(dist_ds)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()  # made here, imported by train.py
        """),
        Case("""
        import tensorflow as tf
        def main():
            strategy = tf.distribute.MirroredStrategy()
            trainer = Trainer(strategy)
            trainer.model.fit(ds)
        """),
    ),
    invalid=(
        # The tutorial's wrong order (shared seeds: the multi-GPU basics lab).
        Case("""
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        model.fit(ds, epochs=2)
        strategy = tf.distribute.MirroredStrategy()
        print("Number of devices: {}".format(strategy.num_replicas_in_sync))
        """, lines=(5,)),
        # The lab's answer C, and Wilboy-ai/MT_IBC_project main.py's opening: the strategy is
        # made and its devices printed; the model comes from another module, built outside.
        Case("""
        import tensorflow as tf
        from models import build_model
        strategy = tf.distribute.MirroredStrategy()
        print('Number of devices: {}'.format(strategy.num_replicas_in_sync))
        model = build_model()
        model.fit(ds, epochs=2)
        """, lines=(3,)),
    ),
)
