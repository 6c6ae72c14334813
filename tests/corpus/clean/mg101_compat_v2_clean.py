import tensorflow.compat.v2 as tf

tf.enable_v2_behavior()

strategy = tf.compat.v2.distribute.MirroredStrategy()
PER_REPLICA_BATCH = 128
batch_size = PER_REPLICA_BATCH * strategy.num_replicas_in_sync

train = tf.data.Dataset.load("/data/svhn_train").shuffle(4096).batch(batch_size)

with strategy.scope():
    net = tf.keras.Sequential()
    net.add(tf.keras.layers.Conv2D(48, 5, padding="same", activation="relu"))
    net.add(tf.keras.layers.MaxPool2D())
    net.add(tf.keras.layers.GlobalAveragePooling2D())
    net.add(tf.keras.layers.Dense(10))
    net.compile(optimizer=tf.keras.optimizers.SGD(0.01, momentum=0.9),
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=["accuracy"])

net.fit(train, epochs=8)
