"""`check`'s "N fixable" counts what `fix` then fixes (issue 17 part 4): a
strategy parameter named in the configured ``strategy-names`` is a strategy to
the fixer as it is to the checker."""

from __future__ import annotations

import textwrap

from mirrorguard.checker import check_source
from mirrorguard.checker.core import Settings
from mirrorguard.fixer.fix import fix_source

SOURCE = textwrap.dedent("""\
    import tensorflow as tf


    def run(dist, ds):
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        with dist.scope():
            model.compile(optimizer="adam", loss="mse")
        model.fit(ds)
    """)


def test_a_configured_strategy_parameter_is_fixed_as_the_check_counts_it():
    settings = Settings(extra_strategy_names=("dist",))
    before = check_source(SOURCE, "train.py", settings)
    assert [(f.line, f.code) for f in before] == [(5, "MG101")]
    result = fix_source(SOURCE, "train.py", settings)
    assert result.remaining == []
    assert [(f.line, f.code) for f in result.fixed] == [(5, "MG101")]
    assert result.text == textwrap.dedent("""\
        import tensorflow as tf


        def run(dist, ds):
            with dist.scope():
                model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                model.compile(optimizer="adam", loss="mse")
            model.fit(ds)
        """)
