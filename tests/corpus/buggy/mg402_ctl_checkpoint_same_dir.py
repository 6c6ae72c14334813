"""Shape of tensorflow/docs multi_worker_with_ctl main.py (seen copied in CremadesA's checkpoint
helpers) with write_checkpoint_dir dropped: every worker's CheckpointManager writes one directory."""
import argparse
import json
import os

import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--model_dir", default="/tmp/model")
args = parser.parse_args()

tf_config = json.loads(os.environ["TF_CONFIG"])
num_workers = len(tf_config["cluster"]["worker"])
strategy = tf.distribute.MultiWorkerMirroredStrategy()
global_batch_size = 64 * num_workers
checkpoint_dir = os.path.join(args.model_dir, "ckpt")


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(global_batch_size)
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train.astype("int64")))
    ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return ds.shuffle(60000).repeat().batch(batch_size)


with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28)), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.001)
    epoch = tf.Variable(0, dtype=tf.int64, name="epoch")
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epoch=epoch)
    dataset = strategy.distribute_datasets_from_function(dataset_fn)

manager = tf.train.CheckpointManager(checkpoint, directory=checkpoint_dir, max_to_keep=1)


@tf.function
def train_step(iterator):
    def step_fn(inputs):
        x, y = inputs
        with tf.GradientTape() as tape:
            per_example = tf.keras.losses.sparse_categorical_crossentropy(y, model(x, training=True),
                                                                          from_logits=True)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch_size)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return strategy.run(step_fn, args=(next(iterator),))


iterator = iter(dataset)
while epoch.numpy() < 3:
    for _ in range(70):
        train_step(iterator)
    manager.save()  # expect: MG402
    epoch.assign_add(1)
