"""tensorflow/docs guide/checkpoint "training loop" example moved to MirroredStrategy: step counter made inline."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 2 * strategy.num_replicas_in_sync


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.l1 = tf.keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


def toy_dataset():
    inputs = tf.range(10.0)[:, None]
    labels = inputs * 5.0 + tf.range(5.0)[None, :]
    return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(GLOBAL_BATCH)


with strategy.scope():
    net = Net()
    opt = tf.keras.optimizers.Adam(0.1)

ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=None)  # expect: MG105
manager = tf.train.CheckpointManager(ckpt, "./tf_ckpts", max_to_keep=3)


def replica_step(example):
    with tf.GradientTape() as tape:
        per_example = tf.reduce_sum(tf.abs(net(example["x"]) - example["y"]), axis=-1)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
    opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
    return loss


@tf.function
def train_step(example):
    return strategy.reduce("SUM", strategy.run(replica_step, args=(example,)), axis=None)


ckpt.restore(manager.latest_checkpoint)
print("Restored from {}".format(manager.latest_checkpoint) if manager.latest_checkpoint else "Initializing from scratch.")
for example in strategy.experimental_distribute_dataset(toy_dataset().take(50)):
    loss = train_step(example)
    ckpt.step.assign_add(1)
    if int(ckpt.step) % 10 == 0:
        print("Saved checkpoint for step {}: {}".format(int(ckpt.step), manager.save()))
        print("loss {:1.2f}".format(loss.numpy()))
