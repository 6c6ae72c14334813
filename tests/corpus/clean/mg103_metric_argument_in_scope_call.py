"""Shape 9.7 (valid): a metric object created as an argument of the factory call inside the scope.

Style: keras-io examples/vision/melanoma_classification_with_tfrecords.py (TPU,
`BATCH_SIZE = 16 * strategy.num_replicas_in_sync`, `def make_model(output_bias=None,
metrics=None)` called as `make_model(output_bias=initial_bias,
metrics=tf.keras.metrics.AUC(name="auc"))` under `with strategy.scope():`). The
metric is created inside the scope; callbacks and the LR schedule live outside.
"""
import numpy as np
import tensorflow as tf

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.get_strategy()

BATCH_SIZE = 16 * strategy.num_replicas_in_sync
IMAGE_RESIZE = [256, 256]


def make_model(output_bias=None, metrics=None):
    if output_bias is not None:
        output_bias = tf.keras.initializers.Constant(output_bias)
    base_model = tf.keras.applications.Xception(input_shape=(*IMAGE_RESIZE, 3), include_top=False, weights=None)
    base_model.trainable = False
    model = tf.keras.Sequential([
        base_model,
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(8, activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid", bias_initializer=output_bias),
    ])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=metrics)
    return model


train_dataset = tf.data.TFRecordDataset(tf.io.gfile.glob("gs://melanoma/train*.tfrec")).repeat().batch(BATCH_SIZE)
lr_scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.01 * 0.1 ** (epoch / 20))
early_stopping = tf.keras.callbacks.EarlyStopping(patience=10, restore_best_weights=True)
initial_bias = np.log([584 / 32542])

with strategy.scope():
    model = make_model(output_bias=initial_bias, metrics=tf.keras.metrics.AUC(name="auc"))

model.fit(train_dataset, epochs=100, steps_per_epoch=1000, callbacks=[lr_scheduler, early_stopping])
