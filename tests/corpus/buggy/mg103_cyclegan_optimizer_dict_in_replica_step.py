"""CycleGAN-style custom distributed loop keeping its optimizers in a dict made after the scope block."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
PER_REPLICA = 1
GLOBAL_BATCH = PER_REPLICA * strategy.num_replicas_in_sync
LAMBDA = 10.0


def make_net(name):
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=(64, 64, 3)),
        tf.keras.layers.Conv2D(32, 3, padding="same", activation="relu"),
        tf.keras.layers.Conv2D(3, 3, padding="same", activation="tanh"),
    ], name=name)


with strategy.scope():
    generator_g, generator_f = make_net("G"), make_net("F")
    loss_obj = tf.keras.losses.MeanAbsoluteError(reduction=tf.keras.losses.Reduction.NONE)

optimizers = {
    "generator_g": tf.keras.optimizers.Adam(2e-4, beta_1=0.5),  # expect: MG103
    "generator_f": tf.keras.optimizers.Adam(2e-4, beta_1=0.5),  # expect: MG103
}


def replica_step(real_x, real_y):
    with tf.GradientTape(persistent=True) as tape:
        fake_y = generator_g(real_x, training=True)
        cycled_x = generator_f(fake_y, training=True)
        per_example = tf.reduce_mean(loss_obj(real_x, cycled_x), axis=[1, 2])
        total_cycle_loss = LAMBDA * tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
    for name, net in (("generator_g", generator_g), ("generator_f", generator_f)):
        grads = tape.gradient(total_cycle_loss, net.trainable_variables)
        optimizers[name].apply_gradients(zip(grads, net.trainable_variables))
    return total_cycle_loss


@tf.function
def train_step(real_x, real_y):
    return strategy.reduce("SUM", strategy.run(replica_step, args=(real_x, real_y)), axis=None)


images = tf.random.uniform((64, 64, 64, 3), -1.0, 1.0)
dataset = tf.data.Dataset.from_tensor_slices((images, images)).batch(GLOBAL_BATCH)
for epoch in range(2):
    for real_x, real_y in strategy.experimental_distribute_dataset(dataset):
        train_step(real_x, real_y)
