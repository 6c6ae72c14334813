"""Estimator era: RunConfig(train_distribute=...) distributes without a scope."""
import tensorflow as tf

BATCH_SIZE = 64


def input_fn(mode, input_context=None):
    ds = tf.data.Dataset.from_tensor_slices(({"x": tf.random.normal((1024, 8))}, tf.zeros(1024, tf.int32)))
    if input_context:
        ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return ds.repeat().batch(BATCH_SIZE)


def model_fn(features, labels, mode):
    layer = tf.keras.layers.Dense(2)
    logits = layer(features["x"])
    loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
    optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
    train_op = optimizer.minimize(loss, tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


strategy = tf.distribute.MirroredStrategy()
config = tf.estimator.RunConfig(train_distribute=strategy, eval_distribute=strategy)
estimator = tf.estimator.Estimator(model_fn=model_fn, config=config)
estimator.train(lambda: input_fn(tf.estimator.ModeKeys.TRAIN), steps=100)
