"""MG103's cases kept with the tests: SHAPES, small whole programs, each in one shape that real training
code takes. ``# expect: MGnnn`` marks every line that must be reported, by any
rule; every other line must stay silent (every default rule runs). The rule's own VALID/INVALID cases
stay in its module (mirrorguard/checker/rules/); tests/checker/test_rule_cases.py runs both.
"""

SHAPES = {
    # --- values that travel
    "metrics_reach_compile_through_a_parameter_default": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        METRICS = [tf.keras.metrics.AUC(name="auc"), "accuracy"]  # expect: MG103

        def make_model(metrics=METRICS):
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="binary_crossentropy", metrics=metrics)
            return model

        with strategy.scope():
            model = make_model()
    """,
    "optimizer_made_in_a_default_argument": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        def build(opt=tf.keras.optimizers.Adam(1e-3)):  # expect: MG103
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=opt, loss="mse")
            return model

        with strategy.scope():
            model = build()
    """,
    # try/except: the fallback strategy and its model are one alternative, not a rebinding
    "try_except_alternatives_keep_the_binding": """
        import tensorflow as tf
        try:
            resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
            strategy = tf.distribute.TPUStrategy(resolver)
        except ValueError:
            strategy = tf.distribute.get_strategy()
        optimizer = tf.keras.optimizers.Adam()  # expect: MG103
        try:
            with strategy.scope():
                model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                model.compile(optimizer=optimizer, loss="mse")
        except RuntimeError:
            model = None
    """,
    "host_metric_then_rebound_inside_scope": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        auc = tf.keras.metrics.AUC()
        auc.update_state(labels, scores)
        with strategy.scope():
            auc = tf.keras.metrics.AUC()
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse", metrics=[auc])
    """,
    "optimizer_and_metrics_flowing_into_scope": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)  # expect: MG103
        auc = tf.keras.metrics.AUC()  # expect: MG103
        schedule = tf.keras.optimizers.schedules.ExponentialDecay(1e-3, 1000, 0.9)
        loss = tf.keras.losses.BinaryCrossentropy()
        unused = tf.keras.optimizers.Adam()
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer=opt, loss=loss, metrics=[auc, "accuracy"])
    """,
    "optimizer_helper_called_outside": """
        import tensorflow as tf

        def make_optimizer(lr):
            return tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.Adam(lr))

        strategy = tf.distribute.MirroredStrategy()
        optimizer = make_optimizer(1e-3)  # expect: MG103
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer=optimizer, loss="mse")
    """,
    "custom_loop_state_outside_scope": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential()
        optimizer = tf.keras.optimizers.Adam()  # expect: MG103
        train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()  # expect: MG103
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction="none")

        def train_step(inputs):
            images, labels = inputs
            with tf.GradientTape() as tape:
                predictions = model(images, training=True)
                loss = loss_object(labels, predictions)
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            train_accuracy.update_state(labels, predictions)
            return loss

        @tf.function
        def distributed_train_step(inputs):
            return strategy.run(train_step, args=(inputs,))
    """,
    "optimizer_wrapped_aliased_or_handed_to_a_scoped_trainer": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        class Trainer:
            def __init__(self, optimizer):
                with strategy.scope():
                    self.model = tf.keras.Sequential()
                    self.model.compile(optimizer=optimizer, loss="mse")

        base = tf.keras.optimizers.Adam()  # expect: MG103
        wrapped = tf.keras.mixed_precision.LossScaleOptimizer(base)  # expect: MG103
        chosen = wrapped
        other = tf.keras.optimizers.RMSprop()  # expect: MG103
        Trainer(other)
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer=chosen, loss="mse")
    """,
    "tf2_optimizer_and_metric_aliases": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        opt = tf.optimizers.Adam(1e-3)  # expect: MG103
        auc = tf.metrics.AUC()  # expect: MG103
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=opt, loss="mse", metrics=[auc])
    """,
    "module_metric_tracked_by_a_custom_train_step": """
        import tensorflow as tf
        from tensorflow import keras
        strategy = tf.distribute.MirroredStrategy()
        loss_tracker = keras.metrics.Mean(name="loss")  # expect: MG103

        class CustomModel(keras.Model):
            def train_step(self, data):
                loss = self.compute_loss(*data)
                loss_tracker.update_state(loss)
                return {"loss": loss_tracker.result()}

        with strategy.scope():
            model = CustomModel(inputs, outputs)
            model.compile(optimizer="adam")
    """,
}
