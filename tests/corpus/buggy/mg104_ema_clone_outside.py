"""Mean-teacher semi-supervised training; the EMA teacher is a clone of the student."""
import keras
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH = 64 * strategy.num_replicas_in_sync
EMA_DECAY = 0.999

with strategy.scope():
    student = keras.applications.MobileNetV3Small(weights=None, classes=10, input_shape=(96, 96, 3))
    student.compile(optimizer=keras.optimizers.SGD(0.03, momentum=0.9, nesterov=True),
                    loss="sparse_categorical_crossentropy", metrics=["accuracy"])

teacher = keras.models.clone_model(student)  # expect: MG104
teacher.set_weights(student.get_weights())


class EMACallback(keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        for t, s in zip(teacher.weights, student.weights):
            t.assign(EMA_DECAY * t + (1.0 - EMA_DECAY) * s)


labeled = tf.data.Dataset.load("stl10_labeled").shuffle(5000).batch(BATCH)
student.fit(labeled, epochs=40, callbacks=[EMACallback()])
teacher.save("teacher.keras")
