"""run_workers with real TensorFlow: two workers form one MultiWorkerMirroredStrategy."""

from __future__ import annotations

import pytest

from mirrorguard.testkit import task_index

pytestmark = [pytest.mark.tf, pytest.mark.slow]


def all_reduce_task_indices():
    # The example of docs/testkit.md: TF_CONFIG is already set when the strategy is made.
    import tensorflow as tf

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    value = strategy.run(lambda: tf.constant(float(task_index() + 1)))
    total = strategy.reduce(tf.distribute.ReduceOp.SUM, value, axis=None)
    return strategy.num_replicas_in_sync, float(total)


def test_two_workers_form_one_strategy_and_all_reduce(local_workers):
    # 1 + 2 summed over the cluster, seen by both workers: they really talked. The
    # timeout is generous: importing TensorFlow takes a minute on a loaded 2-core machine.
    assert local_workers.run(all_reduce_task_indices, workers=2, timeout=240) == [(2, 3.0), (2, 3.0)]
