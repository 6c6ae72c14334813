"""Flax training with a tf.data input pipeline; sharding via jax, no tf.distribute."""
import jax
import numpy as np
import optax
import tensorflow as tf
from flax import linen as nn
from jax.sharding import Mesh, NamedSharding, PartitionSpec

strategy = "fsdp" if jax.device_count() >= 8 else "dp"
BATCH_SIZE = 256

tf.config.set_visible_devices([], "GPU")
ds = tf.data.Dataset.from_tensor_slices((np.random.rand(4096, 784).astype("float32"),
                                         np.random.randint(0, 10, 4096)))
ds = ds.shuffle(4096).batch(BATCH_SIZE, drop_remainder=True).prefetch(2)


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(10)(nn.relu(nn.Dense(512)(x)))


mesh = Mesh(np.array(jax.devices()), ("data",))
sharding = NamedSharding(mesh, PartitionSpec("data"))
model = MLP()
params = model.init(jax.random.PRNGKey(0), np.zeros((1, 784)))
tx = optax.adamw(1e-3)
opt_state = tx.init(params)
for x, y in ds.as_numpy_iterator():
    x = jax.device_put(x, sharding)
