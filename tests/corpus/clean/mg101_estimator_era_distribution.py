"""Shape 9.14 (valid): Estimator-era code distributes through `RunConfig`, not a scope.

Style: tensorflow/docs multi_worker_with_estimator.ipynb and TF 1.x repositories
(`config = tf.estimator.RunConfig(train_distribute=strategy)`,
`tf.keras.estimator.model_to_estimator(keras_model=model, config=config)`,
`tf.contrib.distribute.MirroredStrategy(num_gpus=2)` in even older code). The Keras
model is built and compiled at module level on purpose; the Estimator replicates
it. Its `input_fn` batches are not given to any strategy API: no findings.
"""
import tensorflow as tf

BATCH_SIZE = 64
NUM_GPUS = 2

model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(32, 3, activation="relu", input_shape=(28, 28, 1)),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(loss="sparse_categorical_crossentropy",
              optimizer=tf.compat.v1.train.AdamOptimizer(learning_rate=1e-3),
              metrics=["accuracy"])


def input_fn(mode):
    (x, y), _ = tf.keras.datasets.mnist.load_data()
    ds = tf.data.Dataset.from_tensor_slices(((x[..., None] / 255.0).astype("float32"), y))
    if mode == tf.estimator.ModeKeys.TRAIN:
        ds = ds.shuffle(10_000).repeat()
    return ds.batch(BATCH_SIZE)


strategy = tf.distribute.MirroredStrategy()
config = tf.estimator.RunConfig(train_distribute=strategy, eval_distribute=strategy)
estimator = tf.keras.estimator.model_to_estimator(keras_model=model, config=config, model_dir="/tmp/mnist_est")

tf.estimator.train_and_evaluate(
    estimator,
    train_spec=tf.estimator.TrainSpec(input_fn=lambda: input_fn(tf.estimator.ModeKeys.TRAIN), max_steps=2000),
    eval_spec=tf.estimator.EvalSpec(input_fn=lambda: input_fn(tf.estimator.ModeKeys.EVAL)),
)
