"""Serve the trained model on one device: no strategy here."""
import tensorflow as tf

from configs import GLOBAL_BATCH_SIZE_FOR_EVAL, NUM_FEATURES
from models import make_model

model = tf.keras.models.load_model("/tmp/trainer/model.keras")
fresh = make_model()
fresh.set_weights(model.get_weights())
fresh.compile(optimizer=tf.keras.optimizers.Adam(1e-4), loss="mse")

requests = tf.data.Dataset.from_tensor_slices(tf.random.normal((2048, NUM_FEATURES)))
for batch in requests.batch(GLOBAL_BATCH_SIZE_FOR_EVAL):
    print(tf.argmax(model(batch), axis=-1).numpy()[:5])
print(fresh.predict(tf.random.normal((8, NUM_FEATURES)), batch_size=8))
