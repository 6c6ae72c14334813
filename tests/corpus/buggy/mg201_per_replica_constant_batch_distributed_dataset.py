"""Custom loop from a blog post: per-replica constant batched directly, global batch only used for the loss."""
import tensorflow as tf
import tensorflow_datasets as tfds

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE_PER_REPLICA = 128
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync


def preprocess(image, label):
    return tf.image.resize(tf.cast(image, tf.float32) / 255.0, (96, 96)), label


train_ds = tfds.load("cats_vs_dogs", split="train[:80%]", as_supervised=True).map(preprocess)
train_ds = train_ds.shuffle(2000).batch(BATCH_SIZE_PER_REPLICA)  # expect: MG201
dist_train = strategy.experimental_distribute_dataset(train_ds)

with strategy.scope():
    base = tf.keras.applications.MobileNetV2(input_shape=(96, 96, 3), include_top=False, weights="imagenet")
    base.trainable = False
    model = tf.keras.Sequential([base, tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(1e-4)
    loss_object = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)
    train_auc = tf.keras.metrics.AUC(from_logits=True)


def step(images, labels):
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        per_example = loss_object(tf.cast(labels[:, None], tf.float32), logits)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_auc.update_state(labels, logits)
    return loss


@tf.function
def distributed_step(images, labels):
    losses = strategy.run(step, args=(images, labels))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


for epoch in range(5):
    for images, labels in dist_train:
        distributed_step(images, labels)
    print(epoch, train_auc.result().numpy())
    train_auc.reset_state()
