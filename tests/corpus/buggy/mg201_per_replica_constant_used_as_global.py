import tensorflow as tf

BATCH_SIZE_PER_REPLICA = 64
EPOCHS = 20

strategy = tf.distribute.MirroredStrategy()
print(f"{strategy.num_replicas_in_sync} replicas")

(x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar100.load_data()
x_train = x_train.astype("float32") / 255.0
x_test = x_test.astype("float32") / 255.0

train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(10_000)
train_ds = train_ds.batch(BATCH_SIZE_PER_REPLICA).prefetch(tf.data.AUTOTUNE)  # expect: MG201

with strategy.scope():
    base = tf.keras.applications.ResNet50V2(weights=None, input_shape=(32, 32, 3), classes=100)
    base.compile(optimizer=tf.keras.optimizers.SGD(0.05, momentum=0.9),
                 loss="sparse_categorical_crossentropy", metrics=["accuracy"])

base.fit(train_ds, epochs=EPOCHS)
base.evaluate(x_test, y_test, batch_size=BATCH_SIZE_PER_REPLICA)  # expect: MG201
