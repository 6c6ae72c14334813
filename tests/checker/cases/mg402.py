"""MG402's cases kept with the tests: SHAPES, small whole programs, each in one shape that real training
code takes. ``# expect: MGnnn`` marks every line that must be reported, by any
rule; every other line must stay silent (every default rule runs). The rule's own VALID/INVALID cases
stay in its module (mirrorguard/checker/rules/); tests/checker/test_rule_cases.py runs both.
"""

SHAPES = {
    # A save helper called only on the chief: reported at the call.
    "chief_only_save_helper_reported_at_the_call": """
        import os
        os.environ["TF_USE_LEGACY_KERAS"] = "1"
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            model = build_and_compile()
        def export(m):
            m.save("/shared/model")
        if strategy.cluster_resolver.task_id == 0:
            export(model)  # expect: MG402
    """,
    # `if not chief: return` before the save: only the chief reaches it.
    "early_return_of_the_workers_before_the_save": """
        import os
        os.environ["TF_USE_LEGACY_KERAS"] = "1"
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        def finish(model):
            if strategy.extended.should_checkpoint is False:
                return
            model.save_weights("/shared/weights.h5")  # expect: MG402
        with strategy.scope():
            net = build_and_compile()
        finish(net)
    """,
    # A callback's own path, given where the callback is made: every worker saves it.
    "callback_saving_to_its_own_path": """
        import os
        os.environ["TF_USE_LEGACY_KERAS"] = "1"
        import tensorflow as tf
        class SaveEveryEpoch(tf.keras.callbacks.Callback):
            def __init__(self, path):
                super().__init__()
                self.path = path
            def on_epoch_end(self, epoch, logs=None):
                self.model.save_weights(self.path)  # expect: MG402
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            model = build_and_compile()
        model.fit(dataset, epochs=3, callbacks=[SaveEveryEpoch("/shared/weights.h5")])
    """,
}
