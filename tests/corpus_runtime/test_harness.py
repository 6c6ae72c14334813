"""The corpus harness's own decisions, without TensorFlow (quick tier): what is not started,
how an outcome is read, what the README's tables say."""

from __future__ import annotations

import textwrap

from tests.corpus_runtime import harness


def script(tmp_path, text, name="s.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_module_level_import_of_a_missing_package_is_found_before_running(tmp_path):
    path = script(tmp_path, """
        import os
        import tensorflow as tf
        import no_such_package_mg.sub
        from another_missing_mg import thing
    """)
    assert harness.missing_modules(path) == ["no_such_package_mg", "another_missing_mg"]


def test_imports_that_may_not_run_or_are_guarded_are_left_to_the_run(tmp_path):
    path = script(tmp_path, """
        try:
            import no_such_package_mg
        except ImportError:
            no_such_package_mg = None
        if False:
            import missing_under_if_mg
        def main():
            import missing_in_function_mg
        from . import relative_mg
    """)
    assert harness.missing_modules(path) == []


def test_an_unguarded_try_still_stops_at_its_import(tmp_path):
    path = script(tmp_path, """
        try:
            import no_such_package_mg
        except ValueError:
            pass
    """)
    assert harness.missing_modules(path) == ["no_such_package_mg"]


def test_a_sibling_module_of_the_script_is_present(tmp_path):
    script(tmp_path, "X = 1\n", name="mnist_setup_mg.py")
    path = script(tmp_path, "import mnist_setup_mg\n")
    assert harness.missing_modules(path) == []


def test_outcomes_are_read_as_verdicts():
    fit_ok = {"exception": None, "replicas": [2], "strategies": ["MirroredStrategy"], "fits_done": 1}
    assert harness.classify(fit_ok)[0] == "clean"
    made = {"strategies": ["MirroredStrategy"], "replicas": [2]}
    assert harness.classify({"exception": "NotMirroredError", "message": "m", **made})[0] == "guard"
    # No strategy at all: the guard's "several devices" check sees only the harness's CPU split.
    verdict, detail = harness.classify({"exception": "NotMirroredError", "message": "m", "strategies": []})
    assert verdict == "cannot" and "no tf.distribute strategy" in detail
    assert harness.classify({"exception": "UnevenBatchError", "message": "m"})[0] == "batch"
    mixing = "Mixing different tf.distribute.Strategy objects: <A> is not <B>"
    assert harness.classify({"exception": "RuntimeError", "message": mixing})[0] == "tf-scope"
    # A scope phrase after a long quoted weight is still found.
    quoted = "Variable (<tf.Variable 'k:0' numpy=" + "0.1, " * 2000 + ">) was not created in the distribution strategy scope of (x)"
    assert harness.classify({"exception": "ValueError", "message": quoted})[0] == "tf-scope"
    one_replica = {"exception": None, "replicas": [1], "strategies": ["OneDeviceStrategy"]}
    verdict, detail = harness.classify(one_replica)
    assert verdict == "cannot" and "no strategy over 2 replicas" in detail
    assert harness.classify({"exception": "FileNotFoundError", "message": "x"})[0] == "cannot"


def test_a_graph_error_is_named_by_its_point_not_its_header():
    message = ("Graph execution error:\n\nDetected at node x defined at (most recent call last):\n"
               "  File \"a.py\", line 1, in <module>\n\n2 root error(s) found.\n"
               "  (0) INVALID_ARGUMENT:  Incompatible shapes: [8] vs. [4]\n\t [[{{node x}}]]")
    assert harness.classify({"exception": "InvalidArgumentError", "message": message})[1] == (
        "InvalidArgumentError: Graph execution error: (0) INVALID_ARGUMENT:  Incompatible shapes: [8] vs. [4]")


def test_the_readme_tables_name_corpus_files_and_say_why():
    for rows in (harness.known_disagreements(), harness.known_fix_failures()):
        for name, why in rows.items():
            assert (harness.CORPUS / name).is_file(), name
            assert len(why) > 20, name


def test_groups_keep_both_workers_busy_and_stay_under_the_group_size(monkeypatch):
    seen = []
    monkeypatch.setattr(harness, "_run_group", lambda group, *a: seen.append(group) or {})
    harness.run_scripts([f"f{i}.py" for i in range(150)], "keras3", workers=2)
    assert len(seen) % 2 == 0 and max(map(len, seen)) <= harness.GROUP
    assert sum(seen, []) == [f"f{i}.py" for i in range(150)]


def test_only_the_machines_reasons_skip_the_tf_keras_retry():
    for detail in ("FileNotFoundError: [Errno 2] No such file or directory: 'data/x.csv'",
                   "NotFoundError: tf.data snapshot element_spec file not found: /data/x/dataset_spec.pb.",
                   "FailedPreconditionError: Error executing an HTTP request: libcurl code 6 meaning 'Could not resolve hostname'",
                   "ran, but no strategy over 2 replicas (strategies made: TPUStrategy(1))",
                   "Timeout: still running after 12 CPU seconds"):
        assert harness.machine_reason(detail), detail
    for detail in ("ValueError: When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must end in",
                   "ValueError: File not found: filepath=teachers/a.keras. Please ensure the file is an accessible `.keras` zip file.",
                   "TypeError: Could not locate class 'SparseCategoricalAccuracy'.",
                   "InvalidArgumentError: Graph execution error: (0) INVALID_ARGUMENT:  You must feed a value for placeholder"):
        assert not harness.machine_reason(detail), detail
