"""EfficientNet fine-tuning with mixed precision on whatever hardware is there (TPU / multi-GPU / CPU)."""
import argparse

import tensorflow as tf


def select_strategy():
    try:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        return tf.distribute.TPUStrategy(resolver), "mixed_bfloat16"
    except ValueError:
        pass
    if len(tf.config.list_physical_devices("GPU")) > 1:
        return tf.distribute.MirroredStrategy(), "mixed_float16"
    return tf.distribute.OneDeviceStrategy("/cpu:0"), "float32"


def build_classifier(num_classes, image_size):
    base = tf.keras.applications.EfficientNetB0(
        include_top=False, weights="imagenet", input_shape=(image_size, image_size, 3))
    base.trainable = False
    inputs = tf.keras.Input(shape=(image_size, image_size, 3))
    x = base(inputs, training=False)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    x = tf.keras.layers.Dropout(0.2)(x)
    # Keep the softmax in float32 for numerical stability under mixed precision.
    outputs = tf.keras.layers.Dense(num_classes, activation="softmax", dtype="float32")(x)
    return tf.keras.Model(inputs, outputs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--image-size", type=int, default=224)
    parser.add_argument("--epochs", type=int, default=8)
    args = parser.parse_args()

    strategy, policy = select_strategy()
    tf.keras.mixed_precision.set_global_policy(policy)

    train_ds = tf.keras.utils.image_dataset_from_directory(
        args.data_dir,
        validation_split=0.2,
        subset="training",
        seed=123,
        image_size=(args.image_size, args.image_size),
        batch_size=64,  # expect: MG201
    )
    num_classes = len(train_ds.class_names)
    train_ds = train_ds.prefetch(tf.data.AUTOTUNE)

    base_optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)  # expect: MG103
    if policy == "mixed_float16":
        optimizer = tf.keras.mixed_precision.LossScaleOptimizer(base_optimizer)  # expect: MG103
    else:
        optimizer = base_optimizer

    with strategy.scope():
        model = build_classifier(num_classes, args.image_size)
        model.compile(
            optimizer=optimizer,
            loss="sparse_categorical_crossentropy",
            metrics=["accuracy"],
        )
    model.fit(train_ds, epochs=args.epochs)

    # Export for serving.
    tf.saved_model.save(model, "export/efficientnet")


if __name__ == "__main__":
    main()
