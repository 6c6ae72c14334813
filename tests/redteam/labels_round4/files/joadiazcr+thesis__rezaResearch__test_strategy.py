# red-team round 4 labelled copy of github.com/joadiazcr/thesis `rezaResearch/test_strategy.py` at commit 20672eaf4d62b125d57f5e769d183445959d628b (verbatim below)
# Labels count lines of this copy: original line + 2.
import tensorflow as tf

mirrored_strategy = tf.distribute.MirroredStrategy()
with mirrored_strategy.scope():
  model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
  model.compile(loss='mse', optimizer='sgd')

print mirrored_strategy.num_replicas_in_sync

dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(10)
model.fit(dataset, epochs=2)
print model.evaluate(dataset)
