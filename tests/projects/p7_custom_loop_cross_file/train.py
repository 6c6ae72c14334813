"""Custom training loop for MNIST on several GPUs."""
import tensorflow as tf

from losses import classification_loss
from models import SmallCNN
from optim import make_metrics, make_optimizer

GLOBAL_BATCH = 64 * 4
EPOCHS = 5


def main():
    strategy = tf.distribute.MirroredStrategy()
    batch = 64 * strategy.num_replicas_in_sync
    (x, y), _ = tf.keras.datasets.mnist.load_data()
    x = (x[..., None] / 255.0).astype("float32")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(60_000).batch(batch)
    dist_ds = strategy.experimental_distribute_dataset(ds)

    optimizer = make_optimizer()  # expect: MG103
    with strategy.scope():
        model = SmallCNN()
        metrics = make_metrics()

    def train_step(inputs):
        images, labels = inputs
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            loss = classification_loss(labels, logits)  # expect: MG301
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        metrics["loss"].update_state(loss)
        metrics["acc"].update_state(labels, logits)

    @tf.function
    def distributed_step(inputs):
        strategy.run(train_step, args=(inputs,))

    for epoch in range(EPOCHS):
        for batch_data in dist_ds:
            distributed_step(batch_data)
        print(epoch, metrics["loss"].result().numpy(), metrics["acc"].result().numpy())
        for metric in metrics.values():
            metric.reset_state()


if __name__ == "__main__":
    main()
