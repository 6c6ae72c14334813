"""Shape 9.10 (valid): unreplicated copies kept on purpose for predicting, exporting and stateful sampling.

Style: tensorflow/docs site/en/r1/tutorials/sequences/text_generation.ipynb (rebuild the model
with `batch_size=1` and `stateful=True`, restore the latest checkpoint, then
`reset_states()` and predict one step at a time), and serving export code that
rebuilds the model outside the scope, loads weights and calls
`tf.saved_model.save` / `model.export`. The trained model is built in the scope.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 64 * strategy.num_replicas_in_sync
VOCAB, EMBED, UNITS = 65, 256, 1024


def build_model(batch_size, stateful=False):
    return tf.keras.Sequential([
        tf.keras.layers.Input(batch_shape=(batch_size, None)),
        tf.keras.layers.Embedding(VOCAB, EMBED),
        tf.keras.layers.GRU(UNITS, return_sequences=True, stateful=stateful),
        tf.keras.layers.Dense(VOCAB),
    ])


dataset = tf.data.Dataset.load("char_sequences").shuffle(10_000).batch(BATCH_SIZE, drop_remainder=True)

with strategy.scope():
    model = build_model(BATCH_SIZE)
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(dataset, epochs=10, callbacks=[tf.keras.callbacks.ModelCheckpoint("ckpt/w.weights.h5",
                                                                            save_weights_only=True)])

# Sampling copy: batch of one, stateful, restored from the checkpoint, never trained.
sampler = build_model(1, stateful=True)
sampler.load_weights("ckpt/w.weights.h5")
sampler.layers[1].reset_states()
next_ids = sampler.predict(tf.constant([[12, 40, 7]]))

# Serving copy: restored from a checkpoint and exported.
server = build_model(None)
tf.train.Checkpoint(model=server).restore(tf.train.latest_checkpoint("ckpt_tf")).expect_partial()
serve_fn = tf.function(lambda ids: server(ids), input_signature=[tf.TensorSpec([None, None], tf.int32)])
tf.saved_model.save(server, "export/text_gen", signatures={"serving_default": serve_fn})
