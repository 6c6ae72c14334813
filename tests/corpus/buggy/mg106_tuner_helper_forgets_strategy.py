"""HPO helper module: make_tuner() is handed the strategy but never passes it to the tuner."""
import keras_tuner as kt
import tensorflow as tf


def build_hypermodel(hp):
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(64,)),
        tf.keras.layers.Dense(hp.Int("units", 32, 256, step=32), activation="relu"),
        tf.keras.layers.Dropout(hp.Float("dropout", 0.0, 0.5)),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(hp.Choice("lr", [1e-3, 3e-4])), loss="binary_crossentropy",
                  metrics=[tf.keras.metrics.AUC(name="auc")])
    return model


def make_tuner(strategy, project):
    print("tuning on", strategy.num_replicas_in_sync, "replicas")
    return kt.RandomSearch(  # expect: MG106
        build_hypermodel,
        objective=kt.Objective("val_auc", direction="max"),
        max_trials=30,
        directory="hpo",
        project_name=project,
    )


def run(strategy, train_ds, val_ds):
    tuner = make_tuner(strategy, "tabular")
    tuner.search(train_ds, validation_data=val_ds, epochs=10)
    return tuner.get_best_hyperparameters(1)[0]


if __name__ == "__main__":
    strategy = tf.distribute.MirroredStrategy()
    batch = 256 * strategy.num_replicas_in_sync
    x = tf.random.normal((10_000, 64))
    y = tf.cast(tf.reduce_sum(x, axis=1) > 0, tf.float32)
    train = tf.data.Dataset.from_tensor_slices((x[:8000], y[:8000])).batch(batch)
    val = tf.data.Dataset.from_tensor_slices((x[8000:], y[8000:])).batch(batch)
    print(run(strategy, train, val).values)
