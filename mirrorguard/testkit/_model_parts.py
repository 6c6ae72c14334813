"""What the replica oracle needs to know about a built Keras model, for both flavours.

The oracle matches variables between two builds by position, so everything here
returns lists in a fixed order. Keras 3 wraps TensorFlow variables (``v.value``),
tf-keras hands them out directly; :func:`tf_variable` gives the TensorFlow one.
Nothing here imports TensorFlow at import time.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any


def keras_of(model) -> Any:
    """The Keras package the model's class comes from (``keras`` or ``tf_keras``)."""
    root = type(model).__module__.partition(".")[0]
    for cls in type(model).__mro__:
        module = cls.__module__.partition(".")[0]
        if module in ("keras", "tf_keras"):
            root = module
            break
    return importlib.import_module("tf_keras" if root == "tf_keras" else "keras")


def tf_variable(variable):
    """The TensorFlow variable behind a Keras 3 ``keras.Variable`` (itself otherwise)."""
    from mirrorguard.runtime import compat

    inner = compat.tf_variable_of(variable)
    return variable if inner is None else inner


def all_layers(model) -> list:
    """Every layer inside ``model`` (itself included), each once, depth first."""
    from mirrorguard.runtime import compat

    seen: dict[int, Any] = {}

    def visit(layer) -> None:
        if id(layer) in seen:
            return
        seen[id(layer)] = layer
        for child in compat.child_layers(layer):
            visit(child)

    visit(model)
    return list(seen.values())


def optimizer_variables(optimizer) -> list:
    if optimizer is None:
        return []
    found = getattr(optimizer, "variables", [])
    return list(found() if callable(found) else found)


@dataclass
class ModelParts:
    """The layers of a model that change what the oracle may expect of it."""

    batchnorm_stats: set[int] = field(default_factory=set)  # ids of unsynchronised moving statistics
    batchnorm_layers: list[str] = field(default_factory=list)
    regularised: set[int] = field(default_factory=set)  # ids of weights with a regulariser
    noise_disabled: list[str] = field(default_factory=list)  # "name (Dropout)"
    random_layers: list[str] = field(default_factory=list)  # random layers left as they are


def inspect_model(model, disable_noise: bool = True) -> ModelParts:
    """Find BatchNormalization statistics, regularised weights and random layers.

    With ``disable_noise``, Dropout and Gaussian noise layers get rate 0 (stddev 0),
    so that their masks, drawn per replica, do not make the comparison meaningless.
    """
    keras = keras_of(model)
    layers = keras.layers
    parts = ModelParts()
    noise = tuple(
        getattr(layers, name)
        for name in ("Dropout", "GaussianDropout", "AlphaDropout", "GaussianNoise")
        if hasattr(layers, name)
    )
    synced = _sync_batchnorm_classes(keras)
    seed_generator = getattr(getattr(keras, "random", None), "SeedGenerator", None)
    for layer in all_layers(model):
        if isinstance(layer, layers.BatchNormalization) and not _is_synchronised(layer, synced):
            parts.batchnorm_layers.append(layer.name)
            for variable in (getattr(layer, "moving_mean", None), getattr(layer, "moving_variance", None)):
                if variable is not None:
                    parts.batchnorm_stats.add(id(tf_variable(variable)))
        for weight_name, regulariser in (("kernel", "kernel_regularizer"), ("bias", "bias_regularizer"),
                                         ("embeddings", "embeddings_regularizer"),
                                         ("depthwise_kernel", "depthwise_regularizer"),
                                         ("gamma", "gamma_regularizer"), ("beta", "beta_regularizer")):
            weight = getattr(layer, weight_name, None)
            if weight is not None and getattr(layer, regulariser, None) is not None:
                parts.regularised.add(id(tf_variable(weight)))
        if noise and isinstance(layer, noise):
            if disable_noise:
                for attribute in ("rate", "stddev"):
                    if isinstance(getattr(layer, attribute, None), (int, float)):
                        setattr(layer, attribute, 0.0)
                parts.noise_disabled.append(f"{layer.name} ({type(layer).__name__})")
        elif layer is not model and _draws_randomly(layer, seed_generator):
            parts.random_layers.append(f"{layer.name} ({type(layer).__name__})")
    return parts


def _sync_batchnorm_classes(keras) -> tuple:
    found = []
    for path in ("layers.SyncBatchNormalization", "layers.experimental.SyncBatchNormalization"):
        obj = keras
        for part in path.split("."):
            obj = getattr(obj, part, None)
        if isinstance(obj, type):
            found.append(obj)
    return tuple(found)


def _is_synchronised(layer, synced: tuple) -> bool:
    # Keras 3: BatchNormalization(synchronized=True); tf-keras: the SyncBatchNormalization class.
    return bool(getattr(layer, "synchronized", False)) or (bool(synced) and isinstance(layer, synced))


def _draws_randomly(layer, seed_generator: type | None) -> bool:
    # Keras 3 random layers hold a SeedGenerator (under various attribute names);
    # tf-keras ones (BaseRandomLayer) a random generator.
    if getattr(layer, "_random_generator", None) is not None:
        return True
    return seed_generator is not None and any(isinstance(value, seed_generator) for value in vars(layer).values())
