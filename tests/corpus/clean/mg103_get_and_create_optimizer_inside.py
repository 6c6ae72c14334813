"""MG103 widened (valid): the same spellings created inside the scope; schedules and strings outside.

Style: huggingface/transformers examples/tensorflow/language-modeling-tpu/run_mlm.py
(`with strategy.scope(): ... optimizer, schedule = create_optimizer(...);
model.compile(optimizer=optimizer)`), mixed-precision wrapping inside the scope, and a
learning-rate schedule plus string identifiers defined at module level.
"""
import tensorflow as tf
from tensorflow import keras
from transformers import TFAutoModelForMaskedLM, AutoConfig, create_optimizer

strategy = tf.distribute.MirroredStrategy()
batch_size = 64 * strategy.num_replicas_in_sync
total_steps = 50_000
schedule = keras.optimizers.schedules.CosineDecay(1e-3, decay_steps=total_steps)
OPTIMIZER_NAME = "adam"
config = AutoConfig.from_pretrained("roberta-base")

with strategy.scope():
    mlm = TFAutoModelForMaskedLM.from_config(config)
    optimizer, lr = create_optimizer(init_lr=1e-4, num_train_steps=total_steps, num_warmup_steps=total_steps // 20,
                                     weight_decay_rate=0.01)
    mlm.compile(optimizer=optimizer, metrics=["accuracy"])

    base = keras.optimizers.get(OPTIMIZER_NAME)
    base.learning_rate = schedule
    regressor = keras.Sequential([keras.layers.Dense(32, activation="relu"), keras.layers.Dense(1)])
    regressor.compile(optimizer=keras.mixed_precision.LossScaleOptimizer(base), loss="mse",
                      metrics=[keras.metrics.get("mae")])

mlm.fit(tf.data.Dataset.load("mlm_shards").batch(batch_size, drop_remainder=True), epochs=1)
regressor.fit(tf.data.Dataset.load("regression").batch(batch_size), epochs=5)
