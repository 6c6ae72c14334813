"""Training entry point that takes the strategy as a parameter and builds the
model, optimizer and metrics through helpers called inside its scope."""
import tensorflow as tf
import tf_keras as keras


def make_optimizer(lr, warmup_steps, total_steps):
    schedule = keras.optimizers.schedules.PolynomialDecay(lr, total_steps - warmup_steps, end_learning_rate=0.0)
    return keras.optimizers.Adam(learning_rate=schedule, epsilon=1e-6)


def make_metrics():
    return [keras.metrics.SparseCategoricalAccuracy("acc"), keras.metrics.SparseTopKCategoricalAccuracy(5, "top5")]


def make_model(vocab_size, num_classes):
    inputs = keras.Input(shape=(256,), dtype="int32")
    x = keras.layers.Embedding(vocab_size, 256)(inputs)
    x = keras.layers.Conv1D(256, 5, activation="relu")(x)
    x = keras.layers.GlobalMaxPooling1D()(x)
    return keras.Model(inputs, keras.layers.Dense(num_classes)(x))


def train(distribution_strategy, train_ds, config):
    with distribution_strategy.scope():
        model = make_model(config["vocab_size"], config["num_classes"])
        model.compile(
            optimizer=make_optimizer(config["lr"], config["warmup"], config["steps"]),
            loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=make_metrics(),
        )
    model.fit(train_ds, epochs=config["epochs"], steps_per_epoch=config["steps"] // config["epochs"])
    return model


if __name__ == "__main__":
    strategy = tf.distribute.MirroredStrategy()
    cfg = {"vocab_size": 30000, "num_classes": 20, "lr": 5e-4, "warmup": 500, "steps": 20000, "epochs": 10,
           "batch_size": 64}
    ds = tf.data.Dataset.load("news_ids").shuffle(50_000).repeat()
    ds = ds.batch(cfg["batch_size"] * strategy.num_replicas_in_sync, drop_remainder=True)
    train(strategy, ds, cfg)
