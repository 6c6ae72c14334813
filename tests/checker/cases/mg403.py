"""MG403's cases kept with the tests: SHAPES, small whole programs, each in one shape that real training
code takes. ``# expect: MGnnn`` marks every line that must be reported, by any
rule; every other line must stay silent (every default rule runs). The rule's own VALID/INVALID cases
stay in its module (mirrorguard/checker/rules/); tests/checker/test_rule_cases.py runs both.
"""

SHAPES = {
    # The op runs in a helper called before the strategy: reported at the strategy.
    "op_in_a_helper_called_before_the_strategy": """
        import tensorflow as tf
        def load():
            return tf.data.Dataset.range(10)
        ds = load()
        strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: MG403
    """,
    # Listing devices the old way starts no runtime (measured); listing logical devices does.
    "device_lib_listing_starts_no_runtime": """
        import tensorflow as tf
        from tensorflow.python.client import device_lib
        print(device_lib.list_local_devices())
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
    """,
    # The helper is defined first but called after the strategy: nothing ran before it.
    "helper_defined_first_called_after_the_strategy": """
        import tensorflow as tf
        def load():
            return tf.data.Dataset.range(10)
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        ds = load()
    """,
}
