"""Mean-teacher semi-supervised loop: the EMA teacher is cloned inside the scope; lookup table outside."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 128 * strategy.num_replicas_in_sync
EMA_DECAY = 0.999
class_table = tf.lookup.StaticHashTable(
    tf.lookup.KeyValueTensorInitializer(tf.constant(["cat", "dog"]), tf.constant([0, 1], dtype=tf.int64)), -1)

with strategy.scope():
    student = tf.keras.applications.ResNet50V2(weights=None, classes=2, input_shape=(96, 96, 3))
    teacher = tf.keras.models.clone_model(student)
    teacher.set_weights(student.get_weights())
    optimizer = tf.keras.optimizers.Adam(1e-3)
    xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)


def replica_step(images, label_names):
    labels = class_table.lookup(label_names)
    with tf.GradientTape() as tape:
        logits = student(images, training=True)
        consistency = tf.reduce_mean(tf.square(tf.nn.softmax(logits) - tf.nn.softmax(teacher(images))), axis=-1)
        per_example = xent(labels, logits) + consistency
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss, student.trainable_variables), student.trainable_variables))
    for t, s in zip(teacher.weights, student.weights):
        t.assign(EMA_DECAY * t + (1.0 - EMA_DECAY) * s)
    return loss


@tf.function
def train_step(images, label_names):
    return strategy.reduce("SUM", strategy.run(replica_step, args=(images, label_names)), axis=None)


images = tf.random.uniform((1024, 96, 96, 3))
names = tf.constant(["cat", "dog"] * 512)
dataset = tf.data.Dataset.from_tensor_slices((images, names)).shuffle(1024).batch(GLOBAL_BATCH)
for epoch in range(3):
    for batch_images, batch_names in strategy.experimental_distribute_dataset(dataset):
        train_step(batch_images, batch_names)
