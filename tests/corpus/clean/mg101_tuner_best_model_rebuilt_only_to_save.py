"""Clean (MG101, issue 17 deliberate copies): a tuner's best model rebuilt only to be saved.

Shape of ageron/handson-ml3 19_training_and_deploying_at_scale.ipynb (the %%writefile
my_keras_tuner_search.py cell): a Hyperband search given
`distribution_strategy=tf.distribute.MirroredStrategy()` builds every trial's model in the
strategy's scope; afterwards the chief rebuilds the best model with
`tuner.hypermodel.build(best_hp)` only to save it, and the export step does the same in one
chain (`tuner.hypermodel.build(hp).save(path)`). The saved copies are never trained.
"""
import keras_tuner as kt
import tensorflow as tf


def build_model(hp):
    n_hidden = hp.Int("n_hidden", min_value=0, max_value=3, default=2)
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,))])
    for _ in range(n_hidden):
        model.add(tf.keras.layers.Dense(hp.Int("n_neurons", 8, 64), activation="relu"))
    model.add(tf.keras.layers.Dense(1))
    model.compile(optimizer=tf.keras.optimizers.SGD(hp.Float("learning_rate", 1e-4, 1e-2, sampling="log")),
                  loss="mse")
    return model


x = tf.random.normal([64, 8])
y = tf.random.normal([64, 1])

tuner = kt.Hyperband(build_model, objective="val_loss", max_epochs=2, overwrite=True,
                     directory="/tmp/my_hyperband", project_name="hp",
                     distribution_strategy=tf.distribute.MirroredStrategy())
tuner.search(x, y, epochs=1, validation_split=0.25)

best_hp = tuner.get_best_hyperparameters()[0]
best_model = tuner.hypermodel.build(best_hp)
best_model.save("/tmp/my_best_model.keras")

tuner.hypermodel.build(best_hp).save("/tmp/my_best_model_again.keras")
