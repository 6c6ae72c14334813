"""Shape 9.14 (invalid): an Estimator script ported to `model.fit`, the scope forgotten.

Style: the migration path from TF 1.x `RunConfig(train_distribute=strategy)` +
`model_to_estimator` (tensorflow/docs multi_worker_with_estimator) to Keras `fit`
(tensorflow/docs migrate guides). The strategy is kept, the RunConfig is gone,
but the model is still built and compiled at module level: without the
Estimator nothing replicates it, so MG101 and MG102 apply.
"""
import tensorflow as tf

PER_REPLICA_BATCH = 64

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = PER_REPLICA_BATCH * strategy.num_replicas_in_sync

model = tf.keras.Sequential([  # expect: MG101
    tf.keras.layers.Conv2D(32, 3, activation="relu", input_shape=(28, 28, 1)),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(loss="sparse_categorical_crossentropy", optimizer="adam", metrics=["accuracy"])  # expect: MG102


def input_fn():
    (x, y), _ = tf.keras.datasets.mnist.load_data()
    ds = tf.data.Dataset.from_tensor_slices(((x[..., None] / 255.0).astype("float32"), y))
    return ds.shuffle(10_000).repeat().batch(GLOBAL_BATCH)


# was: estimator = tf.keras.estimator.model_to_estimator(model, config=RunConfig(train_distribute=strategy))
model.fit(input_fn(), steps_per_epoch=500, epochs=4)
