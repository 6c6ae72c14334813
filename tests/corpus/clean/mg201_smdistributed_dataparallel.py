"""SageMaker distributed data parallel (Horovod-like API), no tf.distribute strategy."""
import smdistributed.dataparallel.tensorflow as sdp
import tensorflow as tf

sdp.init()
gpus = tf.config.experimental.list_physical_devices("GPU")
if gpus:
    tf.config.experimental.set_visible_devices(gpus[sdp.local_rank()], "GPU")

(images, labels), _ = tf.keras.datasets.mnist.load_data()
dataset = tf.data.Dataset.from_tensor_slices((images[..., None] / 255.0, labels)).repeat().shuffle(10000)
dataset = dataset.batch(128)
model = tf.keras.Sequential([tf.keras.layers.Conv2D(32, 3, activation="relu"), tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(10)])
loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
opt = tf.keras.optimizers.Adam(0.000125 * sdp.size())


@tf.function
def training_step(x, y, first_batch):
    with tf.GradientTape() as tape:
        loss_value = loss(y, model(x, training=True))
    tape = sdp.DistributedGradientTape(tape)
    grads = tape.gradient(loss_value, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    if first_batch:
        sdp.broadcast_variables(model.variables, root_rank=0)
        sdp.broadcast_variables(opt.variables(), root_rank=0)
    return sdp.oob_allreduce(loss_value)
