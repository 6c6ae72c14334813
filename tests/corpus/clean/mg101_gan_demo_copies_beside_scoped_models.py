"""Clean (MG101, issue 17 deliberate copies): demo models drawn outside the scope beside the trained ones.

Shape of SaKi1309/ML_Notebooks GAN_distributed_training.ipynb (cells 8-10): the notebook builds a
`Generator()` and a `Discriminator()` outside the scope only to print their summaries and draw
them, and the GAN that trains builds its own pair inside `with strategy.scope():`. A third
throwaway copy is never used at all. None of the copies meets the strategy.
"""
import tensorflow as tf

LATENT = 16


def Generator():
    return tf.keras.Sequential([
        tf.keras.Input(shape=(LATENT,)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(28 * 28, activation="tanh"),
    ])


def Discriminator():
    return tf.keras.Sequential([
        tf.keras.Input(shape=(28 * 28,)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(1),
    ])


strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 8 * strategy.num_replicas_in_sync

model = Generator()
model.summary()
tf.keras.utils.plot_model(model, show_shapes=True)

model = Discriminator()
model.summary()

sketch = Generator()

with strategy.scope():
    generator = Generator()
    discriminator = Discriminator()
    g_opt = tf.keras.optimizers.Adam(1e-4)
    d_opt = tf.keras.optimizers.Adam(1e-4)


@tf.function
def train_step(real):
    def step_fn(real):
        noise = tf.random.normal([tf.shape(real)[0], LATENT])
        with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
            fake = generator(noise, training=True)
            real_logits = discriminator(real, training=True)
            fake_logits = discriminator(fake, training=True)
            d_loss = tf.nn.compute_average_loss(
                tf.nn.softplus(-real_logits) + tf.nn.softplus(fake_logits), global_batch_size=GLOBAL_BATCH)
            g_loss = tf.nn.compute_average_loss(tf.nn.softplus(-fake_logits), global_batch_size=GLOBAL_BATCH)
        g_opt.apply_gradients(zip(g_tape.gradient(g_loss, generator.trainable_variables),
                                  generator.trainable_variables))
        d_opt.apply_gradients(zip(d_tape.gradient(d_loss, discriminator.trainable_variables),
                                  discriminator.trainable_variables))

    strategy.run(step_fn, args=(real,))


images = tf.data.Dataset.from_tensor_slices(tf.random.uniform([64, 28 * 28])).batch(GLOBAL_BATCH)
for batch in strategy.experimental_distribute_dataset(images):
    train_step(batch)
