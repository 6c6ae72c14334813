"""MG104's cases kept with the tests: SHAPES, small whole programs, each in one shape that real training
code takes. ``# expect: MGnnn`` marks every line that must be reported, by any
rule; every other line must stay silent (every default rule runs). The rule's own VALID/INVALID cases
stay in its module (mirrorguard/checker/rules/); tests/checker/test_rule_cases.py runs both.
"""

SHAPES = {
    "loaders_in_every_spelling": """
        import keras
        import tensorflow as tf
        from tensorflow.keras.models import load_model, model_from_json
        strategy = tf.distribute.MirroredStrategy()
        a = load_model("a.keras")  # expect: MG104
        b = keras.saving.load_model("b.keras")  # expect: MG104
        c = model_from_json(text)  # expect: MG104
        d = tf.keras.models.clone_model(a)  # expect: MG104
        e = tf.keras.Model.from_config(config)  # expect: MG104
        f = tf.saved_model.load("exported")
        for m in (a, b, c, d, e):
            m.fit(ds)
    """,
    "unreplicated_twin_for_evaluation_is_deliberate": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            replicated = tf.keras.models.load_model(path)
            replicated.compile(optimizer="adam", loss="mse")
        unreplicated = tf.keras.models.load_model(path)
        unreplicated.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
        unreplicated.evaluate(ds)
    """,
    "model_distribute_strategy_scope": """
        import tensorflow as tf
        with model.distribute_strategy.scope():
            model.compile(optimizer="adam", loss="mse")
        clone = tf.keras.models.clone_model(model)  # expect: MG104
        clone.fit(ds)
    """,
    # Only an if/else that chooses between distributed and single-device code makes the other
    # branch a deliberate no-strategy path; a resume check does not.
    "resume_branch_that_loads_outside_the_scope_is_reported": """
        import os
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        if os.path.exists("ckpt.keras"):
            model = tf.keras.models.load_model("ckpt.keras")  # expect: MG104
        else:
            with strategy.scope():
                model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        model.fit(ds)
    """,
}
