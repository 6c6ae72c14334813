"""Custom training loops: assert_mirrored, and what a per-replica mean loss does; Keras 3 and tf-keras, 1 to 3 replicas.

The scenarios ran in subprocesses (see conftest.py and _scenarios.py); these tests
read what each observed.
"""

from __future__ import annotations

import pytest

from tests.runtime._results import explain, observed, setups

pytestmark = [pytest.mark.tf, pytest.mark.slow]

CUSTOM = [(f, n) for f in ("keras3", "tfkeras") for n in (1, 2, 3)]


def _replicas(setup):
    return f"{setup[1]} replica{'s' if setup[1] != 1 else ''}"  # "1 replica", "2 replicas"


def _fails(result):
    assert result["error"] == "NotMirroredError", explain(result)
    return result["message"], result["attrs"]["variables"]


@setups(CUSTOM)
def test_state_built_in_the_scope_passes_before_and_during_the_loop(scenarios):
    [(_, result)] = observed(scenarios, "am_inside_passes")
    assert result["error"] is None, explain(result)
    notes = result["notes"]
    assert notes["checks"] == [0, 1, 2] and notes["step"] == 3
    # Mirrored weights and optimizer state, sync-on-read metric state: all accepted.
    assert notes["kinds"] == ["MirroredVariable", "SyncOnReadVariable"]
    assert notes["optimizer_variables"] > 8


@setups(CUSTOM)
def test_every_object_made_outside_is_named_with_its_variables(scenarios, setup):
    [(_, result)] = observed(scenarios, "am_everything_outside")
    message, variables = _fails(result)
    model_variables = result["notes"]["model_variables"]
    optimizer_variables = result["notes"]["optimizer_variables"]  # iterations, momentums (Keras 3: rate)
    # tf-keras counts an outside optimizer's steps right (see test_optimizer_made_outside_in_a_custom_loop).
    optimizer_variables -= 1 if setup[0] == "tfkeras" else 0
    # Model weights, optimizer state, metric total and count, the counter.
    assert len(variables) == model_variables + optimizer_variables + 2 + 1
    assert f"{len(variables)} variables are not distributed by MirroredStrategy ({_replicas(setup)})" in message
    assert f"all {model_variables} of its variables" in message and "and 3 more" in message
    assert f"- optimizer `SGD`: all {optimizer_variables} of its variables" in message
    assert "- metric `outside_loss`: all 2 of its variables" in message
    assert "- `step (counter)` of checkpoint was created outside any `strategy.scope()`" in message
    assert "were created outside any `strategy.scope()`" in message
    assert "with strategy.scope():" in message and "tf.train.Checkpoint(" in message


@setups(CUSTOM)
def test_step_counter_outside_the_scope_counts_once_per_replica_and_is_caught(scenarios, setup):
    [(_, result)] = observed(scenarios, "am_step_counter_outside")
    # The silent mistake: every replica adds 1 to the one plain variable.
    assert result["notes"]["counter_after_4_steps"] == 4 * setup[1]
    message, variables = _fails(result)
    assert variables == ["step (counter)"]
    assert message.startswith(f"1 variable is not distributed by MirroredStrategy ({_replicas(setup)})")


@setups(CUSTOM)
def test_one_layer_built_outside_is_named_variable_by_variable(scenarios):
    [(_, result)] = observed(scenarios, "am_layer_built_outside")
    message, variables = _fails(result)
    assert variables == ["encoder/kernel", "encoder/bias"]
    assert "- `encoder/kernel` of model `" in message and "- `encoder/bias` of model `" in message
    assert "head" not in message  # the layer built inside is fine


@setups(CUSTOM)
def test_state_of_another_strategy_object_is_reported(scenarios, setup):
    [(_, result)] = observed(scenarios, "am_other_strategy")
    message, variables = _fails(result)
    assert len(variables) == 8
    assert f"were created in the scope of another MirroredStrategy ({_replicas(setup)}) object" in message


@setups([("keras3", 2), ("tfkeras", 2)])
def test_arguments_are_validated(scenarios):
    [(_, result)] = observed(scenarios, "am_arguments")
    errors = result["notes"]["errors"]
    assert errors["no_objects"].startswith("ValueError: assert_mirrored() needs the objects to check")
    assert errors["not_a_strategy"].endswith("Received: strategy='mirrored'")
    assert errors["not_trackable"].startswith("TypeError: Invalid value for `objects`.")
    assert "Received: 'weights.h5' of type str" in errors["not_trackable"]


@setups(CUSTOM)
def test_per_replica_mean_loss_multiplies_the_update_by_the_replica_count(scenarios, setup):
    # Rule MG301's claim: Dense(1), weight 1, MSE on x=1, y=0, one SGD(1.0) step.
    # The right update is 1 - 2 = -1 on any number of replicas; `tf.reduce_mean`
    # in the replica function gives 1 - 2N, because apply_gradients sums the replicas.
    [(_, result)] = observed(scenarios, "mg301_loss_averaged_per_replica")
    replicas = setup[1]
    assert result["notes"]["weights"] == {"reduce_mean": 1.0 - 2 * replicas, "compute_average_loss": -1.0}


@setups(CUSTOM)
def test_default_loss_object_in_a_replica_function(scenarios, setup):
    [(_, result)] = observed(scenarios, "mg301_loss_averaged_per_replica")
    if setup[0] == "keras3":
        # Keras 3 scales a default-reduction loss object for the replicas itself.
        assert result["error"] is None, explain(result)
        assert result["notes"]["loss_object"] == -1.0
    else:
        # tf-keras refuses it at trace time, even on one replica; explain_errors says why.
        assert result["error"] == "LossReductionError", explain(result)
        assert result["cause"] == "ValueError"
        assert "Reduction.NONE" in result["message"] and "compute_average_loss" in result["message"]
        assert "loss_object(y, p)" in result["message"]  # the user's line, from the original


# Issue 21 and 20: bookkeeping, unbuilt models, paths, single-copy strategies, optimizers made outside ---

TWO = [("keras3", 2), ("tfkeras", 2)]


@setups(TWO)
def test_checkpoint_saved_outside_the_scope_is_not_training_state(scenarios):
    [(_, result)] = observed(scenarios, "am_checkpoint_saved_outside")
    assert result["error"] is None, explain(result)
    assert result["notes"] == {"save_counter": 2}  # the counter exists: two saves made it count


@setups(TWO)
def test_unbuilt_model_is_said_to_have_nothing_to_check(scenarios):
    [(_, result)] = observed(scenarios, "am_unbuilt_model")
    assert result["error"] is None, explain(result)
    notes = result["notes"]
    assert notes["built"] is False
    # tf-keras cannot even list an unbuilt model's weights; Keras 3 lists none: both say so.
    [warning] = notes["warnings"]
    assert warning.startswith("assert_mirrored: model `sequential")
    assert "is not built yet, so it has no variables to check" in warning


@setups(TWO)
def test_variables_are_named_by_their_layer_path(scenarios):
    [(_, result)] = observed(scenarios, "am_embedding_built_by_hand")
    message, variables = _fails(result)
    assert variables == ["item_emb/embeddings"]
    assert "`item_emb/embeddings`" in message and "user_emb" not in message


@setups(TWO)
def test_single_copy_strategy_wording(scenarios):
    [(_, result)] = observed(scenarios, "am_one_device_outside")
    message, variables = _fails(result)
    assert message.startswith(f"{len(variables)} variables were not created in the scope of OneDeviceStrategy (1 replica)")
    assert "across replicas" not in message and "1 replicas" not in message
    assert "places each variable on its device" in message


@setups(TWO)
def test_optimizer_made_outside_in_a_custom_loop(scenarios, setup):
    [(_, result)] = observed(scenarios, "am_optimizer_outside_custom_loop")
    assert result["error"] is None, explain(result)
    notes = result["notes"]
    if setup[0] == "keras3":
        # Its step counter is a plain variable both replicas increment: reported before the first step.
        assert notes["reported"] is True
        assert notes["iterations_after_2_steps"] == 4
        assert any(v.endswith("iteration") for v in notes["variables"])
        assert "its step counter `iterations` is a plain variable that every replica increments" in notes["message"]
        assert "runs 2 times too fast" in notes["message"]
    else:
        # tf-keras makes its counter in the strategy's scope itself and counts right: nothing to report.
        assert notes["iterations_after_2_steps"] == 2
        assert notes["reported"] is False, notes.get("message")
