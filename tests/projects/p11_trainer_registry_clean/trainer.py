import tensorflow as tf

from registry import MODELS


class Trainer:
    def __init__(self, strategy, model_name="mlp", lr=1e-3):
        self.strategy = strategy
        with strategy.scope():
            self.model = MODELS[model_name]()
            self.optimizer = tf.keras.optimizers.Adam(lr)
            self.model.compile(optimizer=self.optimizer, loss="mse")

    def fit(self, dataset, epochs=1):
        return self.model.fit(dataset, epochs=epochs, callbacks=[LowerLR()])


class LowerLR(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 2:
            with self.model.distribute_strategy.scope():
                self.model.compile(optimizer=tf.keras.optimizers.Adam(1e-4), loss="mse")
