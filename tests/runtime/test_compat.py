"""Every guard function of mirrorguard.runtime.compat, on Keras 3 and tf-keras: what it gives, and a loud
CompatError once the private thing it reads is taken away (as a TensorFlow or Keras release might move it).

The observations come from tests/runtime/_compat_probe.py, one subprocess per flavour.
"""

from __future__ import annotations

import concurrent.futures
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.runtime.conftest import _env

pytestmark = [pytest.mark.tf, pytest.mark.slow]

PROBE = Path(__file__).with_name("_compat_probe.py")
PREFIX = "MG-COMPAT "


def _probe(flavour: str) -> dict:
    done = subprocess.run(
        [sys.executable, str(PROBE)], env=_env(flavour), capture_output=True, text=True, timeout=900
    )
    for line in done.stdout.splitlines():
        if line.startswith(PREFIX):
            return json.loads(line[len(PREFIX) :])
    raise AssertionError(f"the compat probe ({flavour}) printed nothing:\n{(done.stdout + done.stderr)[-4000:]}")


@pytest.fixture(scope="module")
def _probes():
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {flavour: pool.submit(_probe, flavour) for flavour in ("keras3", "tfkeras")}
        yield futures


@pytest.fixture(params=["keras3", "tfkeras"])
def probe(request, _probes):
    return _probes[request.param].result()


def assert_loud(probe, name, where):
    observed = probe[f"{name}_gone"]
    assert observed.startswith("CompatError: mirrorguard cannot find"), observed
    assert where in observed


def test_tf_variable_of(probe):
    # A Keras weight made in the scope is, underneath, a MirroredVariable on both flavours.
    assert probe["tf_variable_kind"] == "MirroredVariable"
    assert probe["tf_variable_of_tf_variable_is_itself"] is True
    assert probe["tf_variable_of_other"] == "None"
    if probe["flavour"] == "keras3":
        # The class Keras's common backend defines, which every layer's weight is, on every
        # Keras 3 (on 3.3 `keras.Variable` is a subclass layers never make).
        assert probe["keras3_variable_class"] == "keras.src.backend.common.variables"
        assert probe["keras3_variable_class_holds_the_weight"] is True
        assert probe["keras3_variable_class_is_a_base_of_keras_variable"] is True
        assert_loud(probe, "keras3_variable_class", "keras.src.backend.common.variables")
        assert_loud(probe, "tf_variable_of", "keras.Variable._value")
    else:  # tf-keras weights are TF variables: nothing private is read
        assert "tf_variable_of_gone" not in probe


def test_steps_per_execution(probe):
    assert probe["steps_per_execution"] == 3
    assert_loud(probe, "steps_per_execution", "steps_per_execution")


def test_in_xla_context(probe):
    assert probe["in_xla_context"] == {"xla": True, "plain": False}
    assert_loud(probe, "in_xla_context", "GraphOrParentsInXlaContext")


def test_replicates_variables(probe):
    assert probe["replicates_variables"] == {"mirrored": True, "one_device": False, "central_storage": False}
    assert_loud(probe, "replicates_variables", "MirroredExtended")


def test_is_default_strategy(probe):
    assert probe["is_default_strategy"] == {"default": True, "mirrored": False, "one_device": False}
    assert_loud(probe, "is_default_strategy", "_DefaultDistributionStrategy")


def test_is_parameter_server_strategy(probe):
    assert probe["is_parameter_server_strategy"] == {"mirrored": False, "default": False}


def test_strategy_of_variable(probe):
    assert probe["strategy_of_variable"] == {"mirrored_weight_is_the_strategy": True, "plain": "None"}
    assert_loud(probe, "strategy_of_variable", "_distribute_strategy")


def test_trackable_children(probe):
    assert probe["trackable_children"] == ["model", "step"]
    assert probe["trackable_children_of_other"] == "None"
    assert_loud(probe, "trackable_children", "_trackable_children")


def test_child_layers(probe):
    # A layer's own sublayers (a list attribute), which the public `layers` does not list.
    assert probe["child_layers_of_model"] == ["InputLayer", "_Block"]
    assert probe["child_layers_of_block"] == ["Dense", "Dropout"]
    assert_loud(probe, "child_layers", "_flatten_layers")


def test_checkpoint_save_counter(probe):
    # Not created by looking (the public property would create it), made by the first save.
    assert probe["save_counter_before_save"] == "None"
    assert probe["save_counter_after_save"] == 1
    assert probe["save_counter_is_a_child_after_save"] is True
    assert_loud(probe, "checkpoint_save_counter", "_save_counter")
