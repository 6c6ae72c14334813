"""Shape of nand0p/nomadAI chief.py: TF_CONFIG written first, then the strategy that reads it;
custom loop (Keras 3 cannot fit() under this strategy)."""
import json
import os

import tensorflow as tf

os.environ["TF_CONFIG"] = json.dumps({
    "cluster": {"worker": ["localhost:12345", "localhost:23456"]},
    "task": {"type": "worker", "index": 0},
})

strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(0.01)


@tf.function
def train_step(iterator):
    def step_fn(batch):
        x, y = batch
        with tf.GradientTape() as tape:
            per_example = tf.keras.losses.sparse_categorical_crossentropy(y, model(x, training=True),
                                                                          from_logits=True)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return strategy.run(step_fn, args=(next(iterator),))


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
    ds = tf.data.Dataset.from_tensor_slices((features, labels)).repeat()
    return ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id).batch(batch_size)


iterator = iter(strategy.distribute_datasets_from_function(dataset_fn))
for _ in range(100):
    train_step(iterator)
