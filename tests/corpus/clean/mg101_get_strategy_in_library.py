"""Model Garden-style library code: the caller's scope is current, so get_strategy() returns it."""
import tensorflow as tf


def build_model(num_classes, per_replica_batch):
    strategy = tf.distribute.get_strategy()
    if strategy.num_replicas_in_sync > 1:
        norm = tf.keras.layers.BatchNormalization(synchronized=True)
    else:
        norm = tf.keras.layers.BatchNormalization()
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(32, 3), norm, tf.keras.layers.ReLU(),
                                 tf.keras.layers.GlobalAveragePooling2D(),
                                 tf.keras.layers.Dense(num_classes)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1 * strategy.num_replicas_in_sync),
                  loss="sparse_categorical_crossentropy")
    return model


def global_batch_size(per_replica_batch):
    return per_replica_batch * tf.distribute.get_strategy().num_replicas_in_sync
