"""The runtime guards in real fit() runs: Keras 3 and tf-keras, 1 to 3 replicas, two workers.

Each scenario ran in a subprocess (see conftest.py and _scenarios.py); these tests
read what it observed. "Steps" is the optimizer's iteration count when fit()
stopped, so `steps == step + 1` means the mistake was reported before a second
step ran.
"""

from __future__ import annotations

import math

import pytest

from tests.runtime._results import explain, observed, setups

pytestmark = [pytest.mark.tf, pytest.mark.slow]

MIRRORED = [(f, n) for f in ("keras3", "tfkeras") for n in (2, 3)]
TFKERAS_MW = [("tfkeras", "mw")]
BOTH_MW = [("keras3", "mw"), ("tfkeras", "mw")]
ONE_DEVICE = [("keras3", 1), ("tfkeras", 1)]
TWO = [("keras3", 2), ("tfkeras", 2)]  # for behaviour that does not depend on the replica count


def assert_clean(result, steps):
    assert result["error"] is None, explain(result)
    assert result["warnings"] == []
    assert result["steps"] == steps


def greedy(global_batch, replicas):
    per = math.ceil(global_batch / replicas)
    return [max(0, min(per, global_batch - i * per)) for i in range(replicas)]


# AssertMirroredVariables ---------------------------------------------------------


@setups(MIRRORED, TFKERAS_MW)
def test_correct_program_passes_silently_and_leaves_the_model_as_it_was(scenarios):
    for setup, result in observed(scenarios, "mv_inside_passes"):
        assert_clean(result, steps=16)  # 2 epochs of 8 steps
        assert result["notes"] == {"train_step_restored": True, "train_function_reset": True}


@setups(MIRRORED)
def test_model_outside_every_scope_fails_before_the_first_step(scenarios, setup):
    [(_, result)] = observed(scenarios, "mv_outside_default_strategy")
    assert result["error"] == "NotMirroredError", explain(result)
    assert result["steps"] == 0
    message = result["message"]
    assert "default strategy" in message and f"{setup[1]} CPU devices" in message
    assert "outside any `strategy.scope()`" in message
    assert "with strategy.scope():" in message and "model.compile(" in message


@setups(MIRRORED, BOTH_MW)
def test_model_outside_the_given_strategy_fails_before_the_first_step(scenarios):
    for (info, result) in observed(scenarios, "mv_outside_with_strategy"):
        assert result["error"] == "NotMirroredError", explain(result)
        assert result["steps"] == 0
        assert "passed as `strategy=`" in result["message"]
        assert "it and its optimizer were created outside that `strategy.scope()`" in result["message"]
        # Named as users write it, not by TensorFlow's class name.
        expected = "MultiWorkerMirroredStrategy" if info["multiworker"] else "MirroredStrategy"
        assert f"not under the {expected} ({info['replicas']} replica" in result["message"]
        assert "CollectiveAllReduce" not in result["message"]


@setups(BOTH_MW)
def test_single_replica_worker_of_a_cluster_is_reported(scenarios):
    for _, result in observed(scenarios, "mv_outside_multiworker_default"):
        assert result["error"] == "NotMirroredError", explain(result)
        assert result["steps"] == 0
        assert "single replica" in result["message"]


@setups(MIRRORED)
def test_model_of_another_strategy_object_fails(scenarios):
    [(_, result)] = observed(scenarios, "mv_other_strategy")
    assert result["error"] == "NotMirroredError", explain(result)
    assert result["steps"] == 0
    assert "another MirroredStrategy" in result["message"]
    assert "it and its optimizer were created outside" in result["message"]


@setups(MIRRORED)
def test_warn_mode_warns_once_and_trains_on(scenarios):
    [(_, result)] = observed(scenarios, "mv_outside_warns")
    assert result["error"] is None, explain(result)
    assert result["steps"] == 8
    assert len(result["warnings"]) == 1
    assert result["warnings"][0].startswith("NotMirroredError: ")


@setups(MIRRORED)
def test_unmirrored_variables_are_named_by_path_with_a_count(scenarios):
    [(setup, result)] = observed(scenarios, "mv_fit_inside_model_outside")
    assert result["error"] == "NotMirroredError", explain(result)
    assert result["steps"] == 0
    names = result["attrs"]["variables"]
    assert len(names) > 5 and any(n.endswith("dense/kernel") or "/kernel" in n for n in names)
    message = result["message"]
    assert f"{len(names)} of {len(names)} model and optimizer variables are not mirrored" in message
    assert f"`{names[0]}`" in message and f"and {len(names) - 5} more" in message
    assert f"`{names[5]}`" not in message
    assert "created outside `strategy.scope()`" in message


@setups(MIRRORED, TFKERAS_MW)
def test_variables_built_lazily_inside_the_scope_pass(scenarios):
    for _, result in observed(scenarios, "mv_lazily_built_model"):
        assert_clean(result, steps=8)


@setups([s for s in MIRRORED if s[0] == "tfkeras"])
def test_tfkeras_compile_outside_scope_is_legal(scenarios):
    [(_, result)] = observed(scenarios, "mv_compile_outside_tfkeras")
    assert_clean(result, steps=8)


@setups(MIRRORED)
@pytest.mark.parametrize("name", ["mv_one_device_strategy", "mv_central_storage"])
def test_single_copy_strategies_raise_no_false_alarm(scenarios, name):
    [(_, result)] = observed(scenarios, name)
    assert_clean(result, steps=8)


@setups(ONE_DEVICE)
@pytest.mark.parametrize("name", ["mv_default_one_device", "mv_default_declared", "ev_single_replica_inactive"])
def test_default_strategy_on_one_device_passes(scenarios, name):
    [(_, result)] = observed(scenarios, name)
    assert result["error"] is None, explain(result)
    assert result["warnings"] == []
    assert result["steps"] > 0


@setups(ONE_DEVICE)
def test_arguments_are_validated_keras_style(scenarios, setup):
    [(_, result)] = observed(scenarios, "arguments_are_validated")
    errors = result["notes"]["errors"]
    assert errors["on_failure_mv"].startswith("ValueError: Invalid value for argument `on_failure`.")
    assert errors["on_failure_mv"].endswith("Received: on_failure='ignore'")
    assert errors["strategy"].endswith("Received: strategy='mirrored'")
    assert errors["partial_batch"].endswith("Received: partial_batch='sometimes'")
    assert errors["on_failure_ev"].endswith("Received: on_failure=False")
    # The callbacks subclass the Callback class of the flavour fit() expects.
    assert result["notes"]["subclasses"] == [True, True]
    expected = "tf_keras" if setup[0] == "tfkeras" else "keras"
    assert result["notes"]["callback_module"].split(".")[0] == expected


@setups([("keras3", "mw")])
def test_keras3_cannot_fit_under_multiworker_yet(scenarios):
    # Documents why the Keras 3 multi-worker matrix is limited to checks that run
    # before fit()'s own failure; fails once Keras 3 learns to fit there.
    for _, result in observed(scenarios, "mw_keras3_cannot_fit"):
        assert result["error"] == "ValueError" and "PerReplica" in result["message"]


# explain_errors on the errors Keras raises itself -------------------------------


@setups(MIRRORED)
def test_explains_model_outside_compile_inside(scenarios, setup):
    [(_, result)] = observed(scenarios, "ex_model_outside_compile_inside")
    assert result["error"] == "NotMirroredError", explain(result)
    # Keras 3 fails in fit() from the optimizer, tf-keras in compile().
    assert result["cause"] == ("RuntimeError" if setup[0] == "keras3" else "ValueError")
    assert "Fix:" in result["message"]


@setups(MIRRORED)
def test_explains_backbone_built_outside(scenarios):
    [(_, result)] = observed(scenarios, "ex_backbone_outside")
    assert result["error"] == "NotMirroredError", explain(result)
    assert result["cause"] == "ValueError"


@setups(MIRRORED)
def test_explains_a_layer_built_outside_by_name(scenarios, setup):
    [(_, result)] = observed(scenarios, "ex_layer_built_outside")
    assert result["error"] == "NotMirroredError", explain(result)
    assert result["cause"] == "ValueError"
    assert result["attrs"]["variables"] == ["early/kernel"]
    assert result["message"].startswith("The variable `early/kernel` (layer `early`) was created outside")
    # TensorFlow's own message follows, without the variable's values.
    assert "Original error: ValueError: " in result["message"] and "numpy=" not in result["message"]


@setups([s for s in MIRRORED if s[0] == "keras3"])
def test_explains_keras3_compile_outside(scenarios):
    [(_, result)] = observed(scenarios, "ex_compile_outside_keras3")
    assert result["error"] == "NotMirroredError", explain(result)
    assert result["cause"] == "RuntimeError"
    assert "different strategy" in result["message"]


@setups([s for s in MIRRORED if s[0] == "tfkeras"])
def test_explains_tfkeras_metric_outside(scenarios):
    [(_, result)] = observed(scenarios, "ex_metric_outside_tfkeras")
    assert result["error"] == "NotMirroredError", explain(result)
    assert "metric" in result["message"]


@setups(MIRRORED)
def test_unrelated_errors_pass_through(scenarios):
    [(_, result)] = observed(scenarios, "ex_unrelated_error_passes")
    assert result["error"] == "ValueError", explain(result)
    assert result["cause"] is None
    assert "incompatible" in result["message"]


# AssertEvenBatchSplit --------------------------------------------------------------


def _setup_info(scenarios):
    return (scenarios.get("_setup") or scenarios["worker0"]["_setup"])


def rows_phrase(global_batch, replicas):
    split = greedy(global_batch, replicas)
    rows = "row" if global_batch == 1 else "rows"
    return f"a global batch of {global_batch} {rows} over {replicas} replicas: " + (
        ", ".join(map(str, split[:-1])) + f" and {split[-1]}"
    )


def assert_uneven(result, *, step, global_batch, replicas, epoch=0, partial=False):
    assert result["error"] == "UnevenBatchError", explain(result)
    attrs = result["attrs"]
    split = greedy(global_batch, replicas)
    assert attrs == {
        "global_batch_size": global_batch,
        "num_replicas": replicas,
        "split": split,
        "step": step,
        "epoch": epoch,
    }
    message = result["message"]
    # Global batch, replica count and rows first, then the fix.
    assert message.startswith(f"Step {step} of epoch {epoch} (0-based) trained {rows_phrase(global_batch, replicas)}")
    assert message.index("Fix:") > message.index(rows_phrase(global_batch, replicas))
    assert partial or "strategy.num_replicas_in_sync" in message


@setups(MIRRORED, TFKERAS_MW)
def test_uneven_first_batch(scenarios, setup):
    info = _setup_info(scenarios)
    for _, result in observed(scenarios, "ev_first_batch_uneven"):
        if setup[0] == "keras3":
            # Keras 3 fails in fit()'s set-up before any callback: explain_errors.
            assert result["error"] == "UnevenBatchError", explain(result)
            assert result["cause"] == "InvalidArgumentError"
            assert result["steps"] == 0
            # From AddN's inputs: replica 0's rows, the first that differs, and their count.
            split = greedy(info["B"] + 1, info["replicas"])
            attrs = result["attrs"]
            assert (attrs["global_batch_size"], attrs["num_replicas"], attrs["split"]) == (
                info["B"] + 1, info["replicas"], split)
            assert rows_phrase(info["B"] + 1, info["replicas"]) in result["message"]
            assert "[Op:AddN]" in result["message"]  # the original is quoted
        else:
            assert_uneven(result, step=0, global_batch=info["B"] + 1, replicas=info["replicas"])
            assert result["steps"] == 1


@setups(MIRRORED, TFKERAS_MW)
def test_uneven_batch_mid_epoch_is_reported_before_the_next_step(scenarios):
    info = _setup_info(scenarios)
    for _, result in observed(scenarios, "ev_dataset_mid_epoch"):
        assert_uneven(result, step=1, global_batch=info["B"] + 1, replicas=info["replicas"])
        assert result["steps"] == 2


@setups(MIRRORED)
def test_replica_left_with_zero_rows(scenarios):
    info = _setup_info(scenarios)
    [(_, result)] = observed(scenarios, "ev_zero_rows")
    zero = {2: 1, 3: 4, 4: 6}[info["replicas"]]
    assert_uneven(result, step=1, global_batch=zero, replicas=info["replicas"])
    assert 0 in result["attrs"]["split"] and "0 rows" in result["message"]
    assert result["steps"] == 2


@setups(MIRRORED, TFKERAS_MW)
def test_partial_last_batch_warns_once_by_default(scenarios):
    for _, result in observed(scenarios, "ev_partial_warns_once"):
        assert result["error"] is None, explain(result)
        assert result["steps"] == 8  # both epochs ran in full
        assert len(result["warnings"]) == 1
        warning = result["warnings"][0]
        assert warning.startswith("UnevenBatchError: Step 3 of epoch 0 (0-based) trained a global batch of 1 row")
        assert "partial batch left at the end of the data" in result["warnings"][0]
        assert "drop_remainder" not in warning  # arrays have none
        assert "drop the last 1 row (the partial batch)" in warning  # no batch size splits 4N+1 rows evenly


@setups(MIRRORED)
def test_partial_last_batch_raises_when_asked(scenarios):
    info = _setup_info(scenarios)
    [(_, result)] = observed(scenarios, "ev_partial_raises")
    assert_uneven(result, step=3, global_batch=1, replicas=info["replicas"], partial=True)
    assert "partial batch left at the end of the data" in result["message"]
    assert result["steps"] == 4


@setups(MIRRORED)
def test_partial_last_batch_ignored_when_asked(scenarios):
    [(_, result)] = observed(scenarios, "ev_partial_ignored")
    assert_clean(result, steps=8)


@setups(MIRRORED)
def test_partial_batch_that_splits_evenly_is_fine(scenarios):
    [(_, result)] = observed(scenarios, "ev_partial_even_is_fine")
    assert_clean(result, steps=4)


@setups(MIRRORED)
def test_uneven_batch_in_warn_mode(scenarios):
    [(_, result)] = observed(scenarios, "ev_uneven_warns")
    assert result["error"] is None, explain(result)
    assert result["steps"] == 4
    assert len(result["warnings"]) == 1 and "Step 1 of epoch 0" in result["warnings"][0]


@setups(MIRRORED)
def test_generator_input(scenarios):
    info = _setup_info(scenarios)
    [(_, result)] = observed(scenarios, "ev_generator")
    step = result["attrs"].get("step")
    assert step is not None, explain(result)
    assert_uneven(result, step=step, global_batch=info["B"] + 1, replicas=info["replicas"])
    assert result["steps"] == step + 1


@setups(MIRRORED)
def test_sequence_or_pydataset_input(scenarios):
    info = _setup_info(scenarios)
    [(_, result)] = observed(scenarios, "ev_sequence")
    assert_uneven(result, step=1, global_batch=info["B"] + 1, replicas=info["replicas"])
    assert result["steps"] == 2


@setups(MIRRORED)
def test_partial_batch_of_unknown_cardinality_dataset_warns(scenarios):
    [(_, result)] = observed(scenarios, "ev_unknown_cardinality_partial")
    assert result["notes"] == {"cardinality": -2}  # tf.data.UNKNOWN_CARDINALITY
    assert result["error"] is None, explain(result)
    assert len(result["warnings"]) == 1 and "partial batch left at the end of the data" in result["warnings"][0]
    assert "drop_remainder=True" in result["warnings"][0]


@setups(MIRRORED)
def test_uneven_batch_of_unknown_cardinality_dataset_costs_one_more_step(scenarios):
    # With no step count, only the next step tells a mid-epoch batch from the
    # last one; the documented price is one more step before the error.
    info = _setup_info(scenarios)
    [(_, result)] = observed(scenarios, "ev_unknown_cardinality_mid_epoch")
    assert_uneven(result, step=1, global_batch=info["B"] + 1, replicas=info["replicas"])
    assert result["steps"] == 3


@setups([("tfkeras", 2)])
def test_steps_per_execution(scenarios):
    [(_, result)] = observed(scenarios, "ev_steps_per_execution")
    assert_uneven(result, step=1, global_batch=9, replicas=2)
    assert result["steps"] == 2


@setups([("keras3", 2), ("tfkeras", 2)])
def test_run_eagerly(scenarios):
    [(_, result)] = observed(scenarios, "ev_run_eagerly")
    assert_uneven(result, step=1, global_batch=9, replicas=2)
    assert result["steps"] == 2


@setups([("keras3", 2), ("tfkeras", 2)])
def test_model_is_restored_between_fits(scenarios):
    [(_, result)] = observed(scenarios, "ev_refit_restores_model")
    assert result["notes"]["restored_after_first_fit"] is True
    # A fit without the callback trains the uneven batch as Keras would...
    assert result["notes"]["steps_after_plain_fit"] == 8 + 3
    # ...and the next fit with it hooks the retraced step again.
    assert_uneven(result, step=1, global_batch=9, replicas=2)
    assert result["steps"] == 8 + 3 + 2


# Which batch is partial: the remainder at the end of the data ----------------------


@setups(TWO)
@pytest.mark.parametrize(
    "name, reason",
    [
        ("ev_repeat_uneven_on_last_step", "The dataset repeats"),
        ("ev_steps_per_epoch_ends_before_data", "`steps_per_epoch=4` ends epochs apart from the data's end"),
    ],
)
def test_uneven_last_step_that_is_not_the_end_of_the_data_is_an_error(scenarios, name, reason):
    info = _setup_info(scenarios)
    [(_, result)] = observed(scenarios, name)
    assert_uneven(result, step=3, global_batch=info["B"] + 1, replicas=info["replicas"])
    assert result["steps"] == 4
    assert reason in result["message"] and "partial batch left" not in result["message"]
    assert "drop_remainder" not in result["message"]


@setups(TWO)
def test_unshuffled_pydataset_short_batch_mid_epoch_is_an_error(scenarios):
    # shuffle=False keeps index order, so the data's remainder can only be the last batch.
    [(_, result)] = observed(scenarios, "ev_pydataset_remainder_mid_epoch")
    assert_uneven(result, step=1, global_batch=1, replicas=2)
    assert result["steps"] == 2


@setups(TWO)
def test_shuffled_pydataset_remainder_anywhere_in_the_epoch_is_the_partial_batch(scenarios):
    [(_, result)] = observed(scenarios, "ev_pydataset_remainder_shuffled")
    assert result["error"] is None, explain(result)
    assert len(result["warnings"]) == 1  # once per fit(), not every epoch
    warning = result["warnings"][0]
    assert "trained a global batch of 1 row over" in warning and "partial batch left at the end" in warning
    # Advice for a PyDataset, which has no drop_remainder.
    assert "make `__len__` return `rows // batch_size`" in warning and "drop_remainder" not in warning


@setups(TWO)
def test_pydataset_with_two_short_batches_is_an_error(scenarios):
    info = _setup_info(scenarios)
    [(_, result)] = observed(scenarios, "ev_pydataset_two_short_batches")
    # Unshuffled, the first short batch is already an error (a shuffled PyDataset waits
    # for the second: see test_split.py's test_pydataset_two_short_batches_are_both_errors).
    assert_uneven(result, step=1, global_batch=1, replicas=info["replicas"])
    assert result["steps"] == 2


@setups([("keras3", 2)])
def test_keras3_pydataset_remainder_first_gets_pydataset_advice(scenarios):
    info = _setup_info(scenarios)
    [(_, result)] = observed(scenarios, "ev_keras3_pydataset_remainder_first")
    assert result["error"] == "UnevenBatchError", explain(result)
    assert rows_phrase(1, info["replicas"]) in result["message"]
    assert "make `__len__` return `rows // batch_size`" in result["message"]


# XLA ---------------------------------------------------------------------------------


@setups(ONE_DEVICE)
def test_guarded_fit_with_jit_compile(scenarios):
    [(_, result)] = observed(scenarios, "xla_guarded_fit")
    assert result["error"] is None, explain(result)
    assert result["steps"] == 8  # 2 epochs of 32 rows in batches of 8
    notes = result["notes"]
    # The check was compiled into the XLA step and recorded every step's rows.
    assert notes["jit_compile"] is True and notes["compiled_check"] is True
    assert notes["rows_recorded"] == [8] * 8 + [0, 0]


@setups(ONE_DEVICE)
def test_uneven_split_found_under_jit_compile_by_the_end_of_the_epoch(scenarios):
    [(_, result)] = observed(scenarios, "xla_guarded_fit_zero_rows")
    assert result["error"] == "UnevenBatchError", explain(result)
    assert result["attrs"]["split"] == [0] and result["attrs"]["step"] == 2
    assert "a global batch of 0 rows over 1 replica: 0" in result["message"]
    assert result["steps"] == 4  # read from the device at the end of the epoch


@setups(TWO)
def test_multi_replica_jit_compile_is_not_possible_on_logical_cpus(scenarios):
    # Documents why the XLA tests run on one replica: plain Keras fails here too.
    [(_, result)] = observed(scenarios, "xla_multi_replica_plain_keras")
    assert result["error"] == "InvalidArgumentError" and "Trying to access resource" in result["message"]


# Lifecycle ---------------------------------------------------------------------------


@setups(TWO)
def test_every_way_out_leaves_plain_keras_behind(scenarios, setup):
    [(_, result)] = observed(scenarios, "lc_ways_out")
    assert result["error"] is None, explain(result)
    notes = result["notes"]
    outcomes = notes.pop("outcomes")
    assert outcomes == {
        "normal_end": "returned",
        "guard_error": "UnevenBatchError",
        "keyboard_interrupt": "KeyboardInterrupt",
        "callback_error": "ValueError",
        # tf.data runs the generator and reports its KeyboardInterrupt as UnknownError.
        "interrupt_in_step": "KeyboardInterrupt" if setup[0] == "keras3" else "UnknownError",
        "evaluate": "returned",
        "predict": "returned",
    }
    assert notes.pop("plain_ops") > 100
    # After each: an unguarded fit() traces the same op types as before any guard.
    assert notes == {f"{way}_{what}": True for way in outcomes for what in ("same_ops", "step_restored")}


# Issue 21 and 19: causes never invented, advice that works, frames and warnings where the user is ----


@setups(TWO)
def test_single_copy_strategy_says_what_it_needs(scenarios):
    [(_, result)] = observed(scenarios, "mv_one_device_fit_inside_model_outside")
    assert result["error"] == "NotMirroredError", explain(result)
    message = result["message"]
    assert "owned by OneDeviceStrategy (1 replica)" in message
    assert "1 replicas" not in message and "across replicas" not in message
    assert "places each variable on its device (`/job:localhost/replica:0/task:0/device:CPU:0`)" in message


@setups([("keras3", 2)])
def test_optimizer_made_inside_is_not_blamed(scenarios):
    [(_, result)] = observed(scenarios, "mv_optimizer_inside_model_outside_wording")
    assert result["error"] == "NotMirroredError", explain(result)
    message = result["message"]
    assert "it was built outside that `strategy.scope()`, although its optimizer was created in it" in message
    assert "it and its optimizer" not in message


@setups(TWO)
def test_validation_split_advice_works_on_the_replica_count(scenarios):
    # 75 training rows in batches of 16 leave 11; no batch size divides 75 and splits over 2.
    [(_, result)] = observed(scenarios, "ev_validation_split_advice")
    assert result["error"] is None, explain(result)
    [warning] = result["warnings"]
    assert warning.startswith("UnevenBatchError: Step 4 of epoch 0 (0-based) trained a global batch of 11 rows")
    assert "divides the 75" not in warning and "pass `batch_size=" not in warning
    assert "drop the last 1 row so that the last batch (10 rows) splits evenly" in warning
    assert "drop the last 11 rows (the partial batch)" in warning


@setups(TWO)
def test_gan_train_step_partial_last_batch_warns_at_its_step(scenarios):
    # Two optimizers of its own, model.optimizer never steps: the guard counts steps itself.
    [(_, result)] = observed(scenarios, "ev_gan_partial_last_batch")
    assert result["error"] is None, explain(result)
    assert result["notes"]["d_steps"] == 10  # both epochs ran in full
    [warning] = result["warnings"]
    assert warning.startswith("UnevenBatchError: Step 4 of epoch 0 (0-based) trained a global batch of 5 rows")
    assert "partial batch left at the end of the data" in warning


@setups(TWO)
def test_guard_error_does_not_end_in_mirrorguard_frames(scenarios):
    [(_, result)] = observed(scenarios, "tb_guard_error_frames")
    notes = result["notes"]
    assert notes["first"] == "_scenarios.py"
    assert notes["last"] is False
    # Only the re-raise in the fit() wrapper remains, as Keras' own error handler remains.
    assert notes["ours"] == ["fit"]


@setups(TWO)
def test_partial_batch_warning_points_at_the_fit_line(scenarios):
    [(_, result)] = observed(scenarios, "tb_partial_warning_location")
    notes = result["notes"]
    assert notes["locations"] == [["_scenarios.py", notes["fit_line"]]]
