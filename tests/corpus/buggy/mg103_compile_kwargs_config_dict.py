"""Config-driven Kaggle trainer: compile arguments and per-task metrics live in module-level dicts."""
import tensorflow as tf

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.MirroredStrategy()

TASK = "binary"
GLOBAL_BATCH = 128 * strategy.num_replicas_in_sync
COMPILE_KWARGS = dict(
    optimizer=tf.keras.optimizers.Adam(learning_rate=1e-3),  # expect: MG103
    loss="binary_crossentropy",
    steps_per_execution=32,
)
TASK_METRICS = {
    "binary": [tf.keras.metrics.AUC(name="auc")],  # expect: MG103
    "regression": ["mae"],
}


def get_model(n_features):
    inputs = tf.keras.Input(shape=(n_features,))
    x = tf.keras.layers.Dense(256, activation="relu")(inputs)
    x = tf.keras.layers.Dropout(0.2)(x)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(1, activation="sigmoid")(x))


features = tf.random.normal((100_000, 50))
labels = tf.cast(tf.reduce_sum(features[:, :3], axis=1) > 0, tf.float32)
train_ds = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(100_000).batch(GLOBAL_BATCH)

with strategy.scope():
    model = get_model(50)
    model.compile(metrics=TASK_METRICS[TASK], **COMPILE_KWARGS)

model.fit(train_ds, epochs=10)
