"""Adversarial training with FGSM (tensorflow/docs generative/adversarial_fgsm) inside a distributed custom
loop: the mean loss is differentiated only with respect to the *input images* to get the sign of the
perturbation; the weights are trained on compute_average_loss."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 64 * strategy.num_replicas_in_sync
EPSILON = 0.01

with strategy.scope():
    model = tf.keras.applications.MobileNetV2(weights=None, input_shape=(96, 96, 3), classes=10)
    optimizer = tf.keras.optimizers.Adam(1e-3)
    loss_object = tf.keras.losses.CategoricalCrossentropy(reduction=tf.keras.losses.Reduction.NONE)


def create_adversarial_pattern(images, labels):
    with tf.GradientTape() as tape:
        tape.watch(images)
        prediction = model(images, training=False)
        loss = tf.reduce_mean(loss_object(labels, prediction))
    gradient = tape.gradient(loss, images)
    return tf.sign(gradient)


def replica_step(images, labels):
    adv_images = tf.clip_by_value(images + EPSILON * create_adversarial_pattern(images, labels), 0.0, 1.0)
    inputs = tf.concat([images, adv_images], axis=0)
    targets = tf.concat([labels, labels], axis=0)
    with tf.GradientTape() as tape:
        per_example = loss_object(targets, model(inputs, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=2 * GLOBAL_BATCH)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def train_step(images, labels):
    return strategy.reduce("SUM", strategy.run(replica_step, args=(images, labels)), axis=None)


images = tf.random.uniform([256, 96, 96, 3])
labels = tf.one_hot(tf.random.uniform([256], maxval=10, dtype=tf.int32), 10)
ds = tf.data.Dataset.from_tensor_slices((images, labels)).batch(GLOBAL_BATCH)
for epoch in range(2):
    for x, y in strategy.experimental_distribute_dataset(ds):
        print(epoch, train_step(x, y).numpy())
