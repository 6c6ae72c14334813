"""A tiny training library: everything is built through the caller's factories inside the scope."""
import tensorflow as tf


def train(strategy, model_fn, optimizer_fn, dataset_fn, epochs=1, steps_per_epoch=100):
    with strategy.scope():
        model = model_fn()
        optimizer = optimizer_fn()
        model.compile(optimizer=optimizer, loss="mse")
    dataset = strategy.distribute_datasets_from_function(dataset_fn)
    model.fit(dataset, epochs=epochs, steps_per_epoch=steps_per_epoch)
    return model


def make_dataset_fn(features, labels, global_batch_size):
    def dataset_fn(ctx):
        per_replica = ctx.get_per_replica_batch_size(global_batch_size)
        ds = tf.data.Dataset.from_tensor_slices((features, labels)).repeat()
        return ds.shard(ctx.num_input_pipelines, ctx.input_pipeline_id).batch(per_replica)
    return dataset_fn
