"""Hand-written loss scaling seen in research repos: reduce_sum of the per-example losses divided by the
global batch size (not a mean), with a `compute_loss` method on a trainer."""
import tensorflow as tf

FLAGS_PER_REPLICA_BATCH = 16


class SimCLRTrainer:
    def __init__(self, strategy):
        self.strategy = strategy
        self.global_batch_size = FLAGS_PER_REPLICA_BATCH * strategy.num_replicas_in_sync
        with strategy.scope():
            self.encoder = tf.keras.applications.ResNet50(include_top=False, weights=None, pooling="avg")
            self.projector = tf.keras.Sequential([tf.keras.layers.Dense(128)])
            self.optimizer = tf.keras.optimizers.SGD(0.3, momentum=0.9)

    def compute_loss(self, z1, z2, temperature=0.1):
        z1, z2 = tf.math.l2_normalize(z1, -1), tf.math.l2_normalize(z2, -1)
        logits = tf.matmul(z1, z2, transpose_b=True) / temperature
        labels = tf.range(tf.shape(z1)[0])
        per_example = tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
        return tf.reduce_sum(per_example) / self.global_batch_size

    def replica_step(self, view1, view2):
        variables = self.encoder.trainable_variables + self.projector.trainable_variables
        with tf.GradientTape() as tape:
            loss = self.compute_loss(self.projector(self.encoder(view1, training=True)),
                                     self.projector(self.encoder(view2, training=True)))
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss

    @tf.function
    def step(self, view1, view2):
        return self.strategy.reduce("SUM", self.strategy.run(self.replica_step, args=(view1, view2)), axis=None)


strategy = tf.distribute.MirroredStrategy()
trainer = SimCLRTrainer(strategy)
images = tf.random.uniform([256, 64, 64, 3])
ds = tf.data.Dataset.from_tensor_slices(images).map(lambda im: (tf.image.flip_left_right(im), im))
for v1, v2 in strategy.experimental_distribute_dataset(ds.batch(trainer.global_batch_size)):
    print(trainer.step(v1, v2).numpy())
