"""Export a trained checkpoint for TF Serving. Training used MirroredStrategy; export needs none."""
import argparse

import tensorflow as tf


def build_model(num_classes):
    base = tf.keras.applications.MobileNetV3Small(include_top=False, weights=None, pooling="avg")
    outputs = tf.keras.layers.Dense(num_classes, activation="softmax")(base.output)
    return tf.keras.Model(base.input, outputs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--export-dir", required=True)
    args = parser.parse_args()
    model = build_model(num_classes=10)
    checkpoint = tf.train.Checkpoint(model=model)
    checkpoint.restore(args.checkpoint).expect_partial()

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def serve(jpegs):
        images = tf.map_fn(lambda j: tf.image.resize(tf.io.decode_jpeg(j, channels=3), (224, 224)),
                           jpegs, fn_output_signature=tf.float32)
        return {"scores": model(images, training=False)}

    tf.saved_model.save(model, args.export_dir, signatures={"serving_default": serve})


if __name__ == "__main__":
    main()
