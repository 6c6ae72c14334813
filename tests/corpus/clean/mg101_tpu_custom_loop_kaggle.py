# TPU custom training loop, Kaggle style, tpu_strategy naming.
import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="local")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
tpu_strategy = tf.distribute.TPUStrategy(resolver)

PER_CORE_BATCH = 128
GLOBAL_BATCH = PER_CORE_BATCH * tpu_strategy.num_replicas_in_sync
STEPS = 2000

ds = tf.data.Dataset.load("gs://my-bucket/cached_features").repeat().shuffle(8192)
ds = ds.batch(GLOBAL_BATCH, drop_remainder=True).prefetch(tf.data.AUTOTUNE)
dist_ds = tpu_strategy.experimental_distribute_dataset(ds)

with tpu_strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(512, activation="relu"), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    training_loss = tf.keras.metrics.Mean("training_loss", dtype=tf.float32)
    training_accuracy = tf.keras.metrics.SparseCategoricalAccuracy("training_accuracy", dtype=tf.float32)


@tf.function
def train_step(iterator):
    def step_fn(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            logits = model(features, training=True)
            loss = tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
            loss = tf.nn.compute_average_loss(loss, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(list(zip(grads, model.trainable_variables)))
        training_loss.update_state(loss * tpu_strategy.num_replicas_in_sync)
        training_accuracy.update_state(labels, logits)

    tpu_strategy.run(step_fn, args=(next(iterator),))


it = iter(dist_ds)
for step in range(STEPS):
    train_step(it)
    if step % 200 == 0:
        print(step, training_loss.result().numpy(), training_accuracy.result().numpy())
        training_loss.reset_state()
        training_accuracy.reset_state()
