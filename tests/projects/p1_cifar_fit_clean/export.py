"""Export the trained model as a SavedModel with a serving signature."""
import tensorflow as tf

from models import build_model
from configs import TrainConfig


def export(weights_path, out_dir):
    cfg = TrainConfig()
    model = build_model(cfg)
    model.load_weights(weights_path)

    @tf.function(input_signature=[tf.TensorSpec([None, 32, 32, 3], tf.uint8)])
    def serve(images):
        logits = model(tf.cast(images, tf.float32) / 255.0, training=False)
        return {"probabilities": tf.nn.softmax(logits)}

    tf.saved_model.save(model, out_dir, signatures={"serving_default": serve})


if __name__ == "__main__":
    export("/tmp/cifar/final.weights.h5", "/tmp/cifar/export")
