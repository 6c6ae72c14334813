"""Properties over generated training scripts: a fix always parses, never drops a token,
adds only scope syntax, and fixing twice is fixing once."""

from __future__ import annotations

import libcst as cst
from hypothesis import HealthCheck, given, settings, strategies as hs

from mirrorguard.fixer.fix import fix_source
from tests.fixer.helpers import assert_sound_fix

# Statement shapes seen in tutorials, each a list of lines (relative indentation).
SIMPLE = [
    ["import tensorflow as tf"],
    ["from tensorflow import keras"],
    ["strategy = tf.distribute.MirroredStrategy()"],
    ["print('replicas', strategy.num_replicas_in_sync)"],
    ["model = tf.keras.Sequential([tf.keras.layers.Dense(4)])"],
    ["model = keras.Sequential([", "    keras.layers.Dense(8),  # hidden", "    keras.layers.Dense(1),", "])"],
    ["inputs = keras.Input(shape=(4,))"],
    ["x = keras.layers.Dense(8)(inputs)"],
    ["model = keras.Model(inputs, x)"],
    ["model.compile(optimizer='adam', loss='mse')"],
    ["model.compile(optimizer=opt,", "              loss='mse')"],
    ["opt = keras.optimizers.Adam(1e-3)"],
    ["auc = keras.metrics.AUC()"],
    ["model = keras.models.load_model('m.keras')"],
    ["model.summary()"],
    ["model.fit(ds, epochs=2, batch_size=32)"],
    ["ds = ds.batch(64)"],
    ["BATCH = 64"],
    ["ds = ds.batch(BATCH)"],
    ["n = 3"],
    ["tf.random.set_seed(n)"],
    ["doc = '''a", "multi-line", "  string'''"],
    ["# a comment"],
    [""],
]
COMPOUND_HEADS = ["with strategy.scope():", "if n:", "with tf.device('/cpu:0'):", "for i in range(2):",
                  "def main():"]


def _statement(draw, depth: int) -> list[str]:
    if depth < 2 and draw(hs.integers(0, 4)) == 0:
        head = draw(hs.sampled_from(COMPOUND_HEADS))
        body = [line for _ in range(draw(hs.integers(1, 3))) for line in _statement(draw, depth + 1)]
        if not any(line.strip() and not line.strip().startswith("#") for line in body):
            body.append("pass")
        return [head] + ["    " + line if line else "" for line in body]
    return list(draw(hs.sampled_from(SIMPLE)))


@hs.composite
def scripts(draw):
    lines = ["import tensorflow as tf", "from tensorflow import keras"]
    if draw(hs.booleans()):  # most scripts create the strategy early
        lines.append("strategy = tf.distribute.MirroredStrategy()")
    for _ in range(draw(hs.integers(1, 12))):
        lines += _statement(draw, 0)
    text = "\n".join(lines) + "\n"
    if draw(hs.booleans()):
        text = text.replace("\n", "\r\n")
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts(), hs.booleans())
def test_fix_is_sound_on_generated_scripts(text, unsafe):
    try:
        cst.parse_module(text)
        compile(text, "<generated>", "exec")
    except (SyntaxError, cst.ParserSyntaxError):
        return
    result = fix_source(text, unsafe=unsafe)
    assert_sound_fix(text, result, unsafe=unsafe)


def test_of_two_findings_with_one_message_the_moved_one_is_the_fixed_one():
    # Found by the property above: two identical `model.compile(...)` with the model built
    # before the strategy exists. The group is all or nothing, so neither compile may move
    # alone; when "fixed" named the first compile instead of the one that moved, the group
    # held the wrong one, the last compile moved without its model, and a second fix moved more.
    text = (
        "import tensorflow as tf\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(4)])\n"
        "model.compile(optimizer=opt,\n"
        "              loss='mse')\n"
        "for i in range(2):\n"
        "    strategy = tf.distribute.MirroredStrategy()\n"
        "    model.compile(optimizer='adam', loss='mse')\n"
        "model.compile(optimizer=opt,\n"
        "              loss='mse')\n"
    )
    once = fix_source(text)
    assert once.text == text and not once.fixed
    assert fix_source(once.text).text == once.text
