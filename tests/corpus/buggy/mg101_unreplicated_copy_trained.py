"""Shape 9.10 (invalid): a "copy for export" that is compiled and trained outside the scope.

Style: Kaggle notebooks that keep a single-device copy "for submission" and then
fine-tune it a little more on the full data before exporting. Predict/export-only
copies are deliberate; this one is compiled and trained, so MG101 and MG102.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 128 * strategy.num_replicas_in_sync

(x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
x_train, x_test = x_train / 255.0, x_test / 255.0


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(10),
    ])


with strategy.scope():
    model = build_model()
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
model.fit(x_train, y_train, batch_size=GLOBAL_BATCH, epochs=5)
model.save_weights("trained.weights.h5")

export_model = build_model()  # expect: MG101
export_model.load_weights("trained.weights.h5")
export_model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))  # expect: MG102
export_model.fit(x_test, y_test, batch_size=GLOBAL_BATCH, epochs=1)
export_model.export("submission_model")
