"""Clean (MG104, issue 17 deliberate copies): reloads outside the scope that are only inspected or served.

Shapes of ageron/handson-ml3 19_training_and_deploying_at_scale.ipynb (cells 65-69: train in the
scope, save, reload outside it to show with `type(model.weights[0])` that saving drops the
distribution, then reload inside the scope to go on training) and tensorflow/docs
site/en/tutorials/distribute/save_and_load.ipynb (a reloaded model's `serving_default`
signature used to predict on a batch). Neither copy outside the scope is ever trained.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(1e-2), loss="mse")

x = tf.random.normal([32, 4])
y = tf.random.normal([32, 1])
model.fit(x, y, epochs=1, batch_size=8 * strategy.num_replicas_in_sync)
type(model.weights[0])

model.save("/tmp/my_mirrored_model.keras")
model = tf.keras.models.load_model("/tmp/my_mirrored_model.keras")
type(model.weights[0])

with strategy.scope():
    model = tf.keras.models.load_model("/tmp/my_mirrored_model.keras")
model.fit(x, y, epochs=1, batch_size=8 * strategy.num_replicas_in_sync)

tf.saved_model.save(model, "/tmp/my_saved_model")
infer = tf.keras.models.load_model("/tmp/my_saved_model").signatures["serving_default"]
print(infer(tf.constant(x[:2])))
