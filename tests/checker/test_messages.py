"""Messages name what the user wrote (issue 19 item 6)."""

from __future__ import annotations

import textwrap

import pytest

from mirrorguard.checker import check_source
from mirrorguard.checker.core import Settings
from tests.checker.cases.mg101 import SHAPES as MG101_SHAPES

_SOURCE = textwrap.dedent("""\
    import tensorflow as tf
    from .models import {name} as helper_alias
    strategy = tf.distribute.MirroredStrategy()
    model = helper_alias()
    model.fit(ds)
    """)


@pytest.mark.parametrize("code, does, act", [
    ("MG101", "builds a Keras model", "call it"),
    ("MG102", "calls `compile()`", "call it"),
    ("MG104", "loads a Keras model", "call it"),
])
def test_an_imported_helper_is_named_as_the_import_binds_it(code, does, act):
    # What another file's helper does comes from its summary (cross-file analysis).
    settings = Settings(select=(code,), external={".models.build_model": frozenset({code})})
    findings = check_source(_SOURCE.format(name="build_model"), "pkg/train.py", settings)
    assert [(f.line, f.code, f.message) for f in findings] == [
        (4, code, f"`helper_alias()` {does} outside `strategy.scope()`; {act} inside `with strategy.scope():`"),
    ]


def test_a_helper_called_through_its_module_is_named_by_its_own_name():
    source = textwrap.dedent("""\
        import tensorflow as tf
        from . import models
        strategy = tf.distribute.MirroredStrategy()
        model = models.build_model()
        model.fit(ds)
        """)
    settings = Settings(select=("MG101",), external={".models.build_model": frozenset({"MG101"})})
    findings = check_source(source, "pkg/train.py", settings)
    assert [f.message.split(" ")[0] for f in findings] == ["`build_model()`"]


def test_constructor_finding_names_the_class_not_init():
    source = textwrap.dedent(MG101_SHAPES["constructor_inside_and_outside_names_the_class"]).lstrip("\n")
    messages = [f.message for f in check_source(source)]
    assert messages and all(m.startswith("`Trainer()` ") for m in messages)


def test_a_batch_multiplied_in_place_by_a_fixed_count_names_that_count():
    findings = check_source(textwrap.dedent("""\
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH = 64
        BATCH *= 2
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
        model.fit(x, y, batch_size=BATCH)
        """))
    [finding] = findings
    assert finding.code == "MG201" and not finding.fixable
    assert finding.message.startswith("global batch size `128` is `BATCH *= 2`, which multiplies by a fixed `2`")
