"""One strategy for the whole process, and scope helpers."""
import contextlib

import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


@contextlib.contextmanager
def maybe_scope(strat=None):
    if strat is None:
        yield
    else:
        with strat.scope():
            yield


def scope_of(strat):
    return strat.scope() if strat is not None else contextlib.nullcontext()
