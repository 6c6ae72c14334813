"""Shape of tensorflow/models research/object_detection/model_lib_v2.py (train_loop) with the
temporary folders "simplified" away: only the worker whose strategy says should_checkpoint saves,
but reading the variables to save them needs every worker (tensorflow/models' train_lib says so)."""
import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
model_dir = "gs://bucket/detection"


def train_loop(train_steps, checkpoint_every_n=1000):
    with strategy.scope():
        detection_model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        optimizer = tf.keras.optimizers.SGD(0.01)
        global_step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")
        ckpt = tf.train.Checkpoint(step=global_step, model=detection_model, optimizer=optimizer)
    manager = tf.train.CheckpointManager(ckpt, model_dir, max_to_keep=7)

    for step in range(train_steps):
        global_step.assign_add(1)
        if step % checkpoint_every_n == 0 and strategy.extended.should_checkpoint:
            manager.save()  # expect: MG402


train_loop(10000)
