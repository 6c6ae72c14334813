"""tensorflow/docs distribute/parameter_server_training custom loop, with the tutorial's inline
evaluation on the coordinator (small literal eval batch, host-side loop)."""
import tensorflow as tf

cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.ParameterServerStrategy(cluster_resolver)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
global_batch_size = 64

feature_vocab = ["avenger", "ironman", "batman", "hulk", "spiderman", "kingkong", "wonder_woman"]
with strategy.scope():
    feature_lookup_layer = tf.keras.layers.StringLookup(vocabulary=feature_vocab, mask_token=None)
    emb = tf.keras.layers.Embedding(input_dim=len(feature_vocab) + 1, output_dim=16)
    inputs = tf.keras.Input(shape=(3,), dtype="int64")
    x = tf.keras.layers.Flatten()(emb(inputs))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, activation="sigmoid")(x))
    optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.1)
    accuracy = tf.keras.metrics.Accuracy()


def dataset_fn(_):
    raw = tf.data.Dataset.from_tensor_slices((tf.constant([["avenger", "ironman", "hulk"]] * 100),
                                              tf.constant([[1]] * 100, tf.int64)))
    ds = raw.map(lambda f, l: (feature_lookup_layer(f), l)).shuffle(200)
    return ds.batch(32).repeat()


@tf.function
def per_worker_dataset_fn():
    return strategy.distribute_datasets_from_function(dataset_fn)


per_worker_iterator = iter(coordinator.create_per_worker_dataset(per_worker_dataset_fn))


@tf.function
def step_fn(iterator):
    def replica_fn(batch_data, labels):
        with tf.GradientTape() as tape:
            pred = model(batch_data, training=True)
            per_example_loss = tf.keras.losses.BinaryCrossentropy(reduction="none")(labels, pred)
            loss = tf.nn.compute_average_loss(per_example_loss)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        accuracy.update_state(labels, tf.cast(pred > 0.5, tf.int64))
        return loss
    batch_data, labels = next(iterator)
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(replica_fn, args=(batch_data, labels)), axis=None)


for epoch in range(4):
    accuracy.reset_state()
    for _ in range(20):
        loss = coordinator.schedule(step_fn, args=(per_worker_iterator,))
    coordinator.join()
    print("epoch", epoch, accuracy.result().numpy(), loss.fetch())

eval_dataset = tf.data.Dataset.from_tensor_slices((tf.constant([["hulk", "batman", "kingkong"]] * 50),
                                                   tf.constant([[0]] * 50, tf.int64)))
eval_dataset = eval_dataset.map(lambda f, l: (feature_lookup_layer(f), l)).batch(8)
eval_accuracy = tf.keras.metrics.Accuracy()
for batch_data, labels in eval_dataset:
    pred = model(batch_data, training=False)
    eval_accuracy.update_state(labels, tf.cast(pred > 0.5, tf.int64))
print("Evaluation accuracy: %f" % eval_accuracy.result())
