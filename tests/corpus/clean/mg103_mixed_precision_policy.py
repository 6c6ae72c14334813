"""Mixed precision on several GPUs: the policy is global state, set before the scope."""
import tensorflow as tf

tf.keras.mixed_precision.set_global_policy("mixed_float16")
strategy = tf.distribute.MirroredStrategy()
initializer = tf.keras.initializers.HeNormal(seed=42)
loss_fn = tf.keras.losses.CategoricalCrossentropy()
schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([1000, 2000], [0.1, 0.01, 0.001])
callbacks = [tf.keras.callbacks.TensorBoard("logs"), tf.keras.callbacks.EarlyStopping(patience=3)]

with strategy.scope():
    inputs = tf.keras.Input((224, 224, 3))
    x = tf.keras.layers.Conv2D(64, 7, strides=2, kernel_initializer=initializer)(inputs)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    outputs = tf.keras.layers.Dense(1000, activation="softmax", dtype="float32")(x)
    model = tf.keras.Model(inputs, outputs)
    optimizer = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(schedule, momentum=0.9))
    model.compile(optimizer=optimizer, loss=loss_fn, metrics=["accuracy"])

ds = tf.keras.utils.image_dataset_from_directory(
    "imagenet/train", image_size=(224, 224), label_mode="categorical",
    batch_size=128 * strategy.num_replicas_in_sync)
model.fit(ds, epochs=90, callbacks=callbacks)
