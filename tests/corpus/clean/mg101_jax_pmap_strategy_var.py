"""JAX data parallel training; `strategy` here is a string from the config."""
import functools

import jax
import jax.numpy as jnp
import optax

strategy = "pmap" if jax.device_count() > 1 else "jit"
BATCH_SIZE = 128


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(optax.softmax_cross_entropy_with_integer_labels(logits, y))


@functools.partial(jax.pmap, axis_name="batch")
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    grads = jax.lax.pmean(grads, axis_name="batch")
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


optimizer = optax.adam(1e-3)
params = {"w": jnp.zeros((784, 10)), "b": jnp.zeros(10)}
opt_state = optimizer.init(params)
if strategy == "pmap":
    params = jax.device_put_replicated(params, jax.local_devices())
    opt_state = jax.device_put_replicated(opt_state, jax.local_devices())
