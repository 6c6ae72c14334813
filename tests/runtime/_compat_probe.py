"""Asks every guard function of mirrorguard.runtime.compat what it gives, then takes its private thing away.

    TF_USE_LEGACY_KERAS=1 python tests/runtime/_compat_probe.py

Run by tests/runtime/test_compat.py once per Keras flavour, on 2 logical CPU devices;
prints one JSON line of observations, which the tests assert on.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

import tensorflow as tf

_cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(_cpu, [tf.config.LogicalDeviceConfiguration()] * 2)

from mirrorguard.runtime import compat  # noqa: E402

keras = tf.keras
PREFIX = "MG-COMPAT "
out: dict = {"flavour": "tfkeras" if os.environ.get("TF_USE_LEGACY_KERAS") == "1" else "keras3"}


def gone(name, take_away, call, put_back):
    """Whether `call()` raises CompatError (and names what moved) once `take_away()` ran."""
    take_away()
    try:
        call()
        out[f"{name}_gone"] = "no error"
    except compat.CompatError as error:
        out[f"{name}_gone"] = f"CompatError: {error}"
    except Exception as error:  # noqa: BLE001 - observed, asserted in pytest
        out[f"{name}_gone"] = f"{type(error).__name__}: {error}"
    finally:
        put_back()


strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with strategy.scope():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.compile(optimizer="sgd", loss="mse", steps_per_execution=3)
weight = model.weights[0]
outside = tf.Variable(1.0)

# tf_variable_of / keras3_variable_class
inner = compat.tf_variable_of(weight)
out["tf_variable_kind"] = type(inner).__name__
out["tf_variable_of_tf_variable_is_itself"] = compat.tf_variable_of(outside) is outside
out["tf_variable_of_other"] = repr(compat.tf_variable_of("kernel"))
out["keras3_variable_class"] = getattr(compat.keras3_variable_class(), "__module__", None)
if out["flavour"] == "keras3":
    import keras as keras3

    base = compat.keras3_variable_class()
    out["keras3_variable_class_holds_the_weight"] = isinstance(weight, base)
    out["keras3_variable_class_is_a_base_of_keras_variable"] = issubclass(keras3.Variable, base)
    public = keras3.Variable
    gone("keras3_variable_class", lambda: setattr(keras3, "Variable", type("Variable", (), {})),
         compat.keras3_variable_class, lambda: setattr(keras3, "Variable", public))
    saved = weight._value
    gone("tf_variable_of", lambda: object.__delattr__(weight, "_value"), lambda: compat.tf_variable_of(weight),
         lambda: object.__setattr__(weight, "_value", saved))

# child_layers


class _Block(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner = [keras.layers.Dense(2), keras.layers.Dropout(0.5)]

    def call(self, x):
        return self.inner[1](self.inner[0](x))


nested = keras.Sequential([keras.Input((3,)), _Block()])
out["child_layers_of_model"] = [type(layer).__name__ for layer in compat.child_layers(nested)]
out["child_layers_of_block"] = [type(layer).__name__ for layer in compat.child_layers(nested.layers[0])]
flatten = type(nested)._flatten_layers
owner = next(klass for klass in type(nested).__mro__ if "_flatten_layers" in vars(klass))
gone("child_layers", lambda: delattr(owner, "_flatten_layers"), lambda: compat.child_layers(nested),
     lambda: setattr(owner, "_flatten_layers", flatten))

# steps_per_execution
out["steps_per_execution"] = compat.steps_per_execution(model)
attribute = "steps_per_execution" if out["flavour"] == "keras3" else "_steps_per_execution"
held = vars(model)[attribute]
gone("steps_per_execution", lambda: model.__dict__.pop(attribute), lambda: compat.steps_per_execution(model),
     lambda: model.__dict__.__setitem__(attribute, held))

# in_xla_context
seen = {}


@tf.function(jit_compile=True)
def compiled(x):
    seen["xla"] = compat.in_xla_context()
    return x + 1


@tf.function
def traced(x):
    seen["plain"] = compat.in_xla_context()
    return x + 1


compiled(tf.constant(1.0))
traced(tf.constant(1.0))
out["in_xla_context"] = seen
from tensorflow.python.ops import control_flow_util  # noqa: E402

probe = control_flow_util.GraphOrParentsInXlaContext
gone("in_xla_context", lambda: delattr(control_flow_util, "GraphOrParentsInXlaContext"), compat.in_xla_context,
     lambda: setattr(control_flow_util, "GraphOrParentsInXlaContext", probe))

# replicates_variables / is_default_strategy / is_parameter_server_strategy
one = tf.distribute.OneDeviceStrategy("/cpu:0")
central = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
out["replicates_variables"] = {
    "mirrored": compat.replicates_variables(strategy),
    "one_device": compat.replicates_variables(one),
    "central_storage": compat.replicates_variables(central),
}
from tensorflow.python.distribute import distribute_lib, mirrored_strategy  # noqa: E402

extended = mirrored_strategy.MirroredExtended
gone("replicates_variables", lambda: delattr(mirrored_strategy, "MirroredExtended"),
     lambda: compat.replicates_variables(strategy), lambda: setattr(mirrored_strategy, "MirroredExtended", extended))
out["is_default_strategy"] = {
    "default": compat.is_default_strategy(tf.distribute.get_strategy()),
    "mirrored": compat.is_default_strategy(strategy),
    "one_device": compat.is_default_strategy(one),
}
default_class = distribute_lib._DefaultDistributionStrategy
gone("is_default_strategy", lambda: delattr(distribute_lib, "_DefaultDistributionStrategy"),
     lambda: compat.is_default_strategy(strategy),
     lambda: setattr(distribute_lib, "_DefaultDistributionStrategy", default_class))
out["is_parameter_server_strategy"] = {
    "mirrored": compat.is_parameter_server_strategy(strategy),
    "default": compat.is_parameter_server_strategy(tf.distribute.get_strategy()),
}

# strategy_of_variable
out["strategy_of_variable"] = {
    "mirrored_weight_is_the_strategy": compat.strategy_of_variable(inner) is strategy,
    "plain": repr(compat.strategy_of_variable(outside)),
}
# A distributed value without the attribute (the base class sets none), as a release might make it.
from tensorflow.python.distribute import values as values_lib  # noqa: E402

bare_values = values_lib.DistributedValues((tf.constant(1.0),))
gone("strategy_of_variable", lambda: None, lambda: compat.strategy_of_variable(bare_values), lambda: None)

# trackable_children / checkpoint_save_counter
step = tf.Variable(0, name="step")
checkpoint = tf.train.Checkpoint(model=model, step=step)
out["trackable_children"] = sorted(compat.trackable_children(checkpoint))
out["trackable_children_of_other"] = repr(compat.trackable_children("weights.h5"))
out["save_counter_before_save"] = repr(compat.checkpoint_save_counter(checkpoint))
checkpoint.save(os.path.join(tempfile.mkdtemp(), "ckpt"))
counter = compat.checkpoint_save_counter(checkpoint)
out["save_counter_after_save"] = int(counter.numpy()) if counter is not None else None
out["save_counter_is_a_child_after_save"] = any(c is counter for c in compat.trackable_children(checkpoint).values())
kept = checkpoint._save_counter
gone("checkpoint_save_counter", lambda: object.__delattr__(checkpoint, "_save_counter"),
     lambda: compat.checkpoint_save_counter(checkpoint), lambda: object.__setattr__(checkpoint, "_save_counter", kept))
from tensorflow.python.trackable import base  # noqa: E402

children = base.Trackable._trackable_children
bare = base.Trackable()  # inherits the method; subclasses may override it
gone("trackable_children", lambda: delattr(base.Trackable, "_trackable_children"),
     lambda: compat.trackable_children(bare), lambda: setattr(base.Trackable, "_trackable_children", children))

print(PREFIX + json.dumps(out), flush=True)
sys.exit(0)
