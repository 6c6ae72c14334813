"""Multi-GPU evaluation plus a host-side look at a few misclassified examples."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
EVAL_PER_REPLICA = 256

with strategy.scope():
    model = tf.keras.models.load_model("checkpoints/best.keras")
    model.compile(loss="sparse_categorical_crossentropy", metrics=["accuracy"])

_, (x_test, y_test) = tf.keras.datasets.cifar10.load_data()
test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test))
model.evaluate(test_ds.batch(EVAL_PER_REPLICA * strategy.num_replicas_in_sync))

wrong = []
for images, labels in test_ds.take(200).batch(10):
    preds = np.argmax(model(images, training=False), axis=-1)
    wrong.extend(int(i) for i in np.nonzero(preds != labels.numpy()[:, 0])[0])
print("misclassified in the first 200:", len(wrong))
