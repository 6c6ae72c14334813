import numpy as np
import tensorflow as tf

from data import make_ds
from models import augmentation, classifier, host_metrics


def main():
    strategy = tf.distribute.MirroredStrategy()
    x = np.random.rand(512, 32, 32, 3).astype("float32")
    y = np.random.randint(0, 10, 512)
    aug = augmentation()
    train_ds = make_ds(x, y, batch_size=16 * strategy.num_replicas_in_sync)
    train_ds = train_ds.map(lambda a, b: (aug(a, training=True), b))
    with strategy.scope():
        model = classifier()
        model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(train_ds, epochs=1)
    model.save_weights("w.weights.h5")

    # unreplicated copy for export: restored and saved, never trained
    export_copy = classifier()
    export_copy.load_weights("w.weights.h5")
    export_copy.export("exported")

    auc, precision = host_metrics()
    probs = tf.nn.softmax(model.predict(x, batch_size=16 * strategy.num_replicas_in_sync))
    auc.update_state(tf.one_hot(y, 10), probs)
    precision.update_state(tf.one_hot(y, 10), probs)
    print(auc.result().numpy(), precision.result().numpy())


if __name__ == "__main__":
    main()
