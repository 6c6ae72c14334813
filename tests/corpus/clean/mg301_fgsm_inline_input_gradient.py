"""Adversarial training written in one replica function (public "adversarial training TF2" repos): the
first tape takes the gradient of a mean loss with respect to the *inputs* only, to get the FGSM sign; the
weight update uses compute_average_loss."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 128 * strategy.num_replicas_in_sync
EPS = 8.0 / 255.0

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((32, 32, 3)), tf.keras.layers.Conv2D(64, 3, activation="relu"),
                                 tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(0.05, momentum=0.9)
    xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    robust_acc = tf.keras.metrics.SparseCategoricalAccuracy()


def adversarial_step(images, labels):
    with tf.GradientTape() as input_tape:
        input_tape.watch(images)
        attack_loss = tf.reduce_mean(xent(labels, model(images, training=False)))
    perturbation = EPS * tf.sign(input_tape.gradient(attack_loss, images))
    adv_images = tf.clip_by_value(images + perturbation, 0.0, 1.0)
    with tf.GradientTape() as tape:
        logits = model(adv_images, training=True)
        loss = tf.nn.compute_average_loss(xent(labels, logits), global_batch_size=GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    robust_acc.update_state(labels, logits)
    return loss


@tf.function
def train_step(images, labels):
    return strategy.reduce("SUM", strategy.run(adversarial_step, args=(images, labels)), axis=None)


(x, y), _ = tf.keras.datasets.cifar10.load_data()
ds = tf.data.Dataset.from_tensor_slices((x.astype("float32") / 255.0, y[:, 0])).shuffle(50000).batch(GLOBAL_BATCH)
for epoch in range(10):
    for images, labels in strategy.experimental_distribute_dataset(ds):
        train_step(images, labels)
    print(epoch, robust_acc.result().numpy())
    robust_acc.reset_state()
