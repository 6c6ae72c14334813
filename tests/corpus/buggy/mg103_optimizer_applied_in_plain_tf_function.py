"""MG103: an optimizer made outside the scope, used only through apply_gradients in a plain tf.function.

Source: kubeflow/examples tensorflow_cuj/neural_machine_translation/distributed_nmt_with_attention.py
(define_model() builds the encoder and decoder in a MirroredStrategy scope; train() makes
`tf.keras.optimizers.Adam()` outside it and hands it to a @tf.function train_step that is called
directly, no strategy.run, no compile). Measured (Keras 3.15, 2 logical CPUs): the first step fails with
`TypeError: tuple indices must be integers or slices, not MirroredVariable`. Made in the scope, SGD trains;
Adam then fails on its first apply (its slots are built there, outside the scope: "Need to be inside
`with strategy.scope()`") unless `optimizer.build(encoder.trainable_variables + decoder.trainable_variables)`
runs in the scope too; with that it trains.
"""
import tensorflow as tf


def define_model(units):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        encoder = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(units)])
        decoder = tf.keras.Sequential([tf.keras.Input((units,)), tf.keras.layers.Dense(1)])
    return encoder, decoder


@tf.function
def train_step(inp, targ, optimizer, encoder, decoder):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(decoder(encoder(inp)) - targ))
    variables = encoder.trainable_variables + decoder.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


class Translation(object):
    def __init__(self, units=16, epochs=2):
        self.epochs = epochs
        self.encoder, self.decoder = define_model(units)
        self.batches = [(tf.zeros([16, 8]), tf.zeros([16, 1]))] * 4

    def train(self):
        optimizer = tf.keras.optimizers.Adam()  # expect: MG103
        for epoch in range(self.epochs):
            total = 0.0
            for inp, targ in self.batches:
                total += train_step(inp, targ, optimizer, self.encoder, self.decoder)
            print("epoch", epoch + 1, float(total))


if __name__ == "__main__":
    Translation().train()
