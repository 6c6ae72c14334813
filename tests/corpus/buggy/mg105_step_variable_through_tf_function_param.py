"""MG105 (invalid): a variable made outside the scope reaches `strategy.run(args=...)` through a tf.function's parameter.

Shape of google/uncertainty-baselines baselines/cifar/sngp.py (l.618-629): `step_variable =
tf.Variable(0)` is made outside the scope, assigned on the host every step and passed to the
file's `train_step(iterator, step)`, which hands `step` to `strategy.run(step_fn, args=(...,
step))`. The replicas then all see one plain variable; here the step also counts with it, so
every replica increments the same counter (measured on this program, TF 2.21, 2 CPU replicas: 8
after 4 steps).
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 4 * strategy.num_replicas_in_sync
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])


@tf.function
def train_step(iterator, step):
    def step_fn(inputs, step):
        step.assign_add(1)
        return model(inputs)

    strategy.run(step_fn, args=(next(iterator), step))


step_variable = tf.Variable(0, dtype=tf.int32)  # expect: MG105
dataset = tf.data.Dataset.from_tensor_slices(tf.zeros([32, 1])).repeat().batch(GLOBAL_BATCH)
iterator = iter(strategy.experimental_distribute_dataset(dataset))
for epoch in range(2):
    step_variable.assign(epoch)
    train_step(iterator, step_variable)
