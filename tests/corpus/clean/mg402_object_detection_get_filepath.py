"""Shape of tensorflow/models research/object_detection/model_lib_v2.py (train_loop): every worker
keeps a CheckpointManager and saves; get_filepath() gives non-chief workers a temporary folder
(strategy.extended.should_checkpoint), removed after each save."""
import os

import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
model_dir = "gs://bucket/detection"


def get_filepath(strategy, filepath):
    if strategy.extended.should_checkpoint:
        return filepath
    task_id = strategy.extended._task_id
    return os.path.join(filepath, "temp_worker_{:03d}".format(task_id))


def clean_temporary_directories(strategy, filepath):
    if not strategy.extended.should_checkpoint:
        if tf.io.gfile.exists(filepath) and tf.io.gfile.isdir(filepath):
            tf.io.gfile.rmtree(filepath)


def train_loop(train_steps, checkpoint_every_n=1000, checkpoint_max_to_keep=7):
    with strategy.scope():
        detection_model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        optimizer = tf.keras.optimizers.SGD(0.01)
        global_step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")
        ckpt = tf.train.Checkpoint(step=global_step, model=detection_model, optimizer=optimizer)

    manager_dir = get_filepath(strategy, model_dir)
    if not strategy.extended.should_checkpoint:
        checkpoint_max_to_keep = 1
    manager = tf.train.CheckpointManager(ckpt, manager_dir, max_to_keep=checkpoint_max_to_keep)

    for step in range(train_steps):
        global_step.assign_add(1)
        if step % checkpoint_every_n == 0:
            manager.save()
            clean_temporary_directories(strategy, manager_dir)


train_loop(10000)
