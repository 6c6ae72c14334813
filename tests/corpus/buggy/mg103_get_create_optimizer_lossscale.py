"""MG103 widened (invalid): optimizer/metric objects from `get(...)`, Hugging Face `create_optimizer`, `LossScaleOptimizer`.

Style: huggingface/transformers TF examples (`optimizer, lr_schedule =
create_optimizer(init_lr=..., num_train_steps=..., num_warmup_steps=...)`, run_glue.py),
mixed-precision guides (`keras.mixed_precision.LossScaleOptimizer(opt)`) and config
driven code (`keras.optimizers.get(cfg["optimizer"])`, `keras.metrics.get("AUC")`),
all made before `with strategy.scope():` and used by compile inside it.
"""
import tensorflow as tf
from tensorflow import keras
from transformers import TFAutoModelForSequenceClassification, create_optimizer

cfg = {"optimizer": "adam", "metric": "AUC", "epochs": 3, "lr": 2e-5}
strategy = tf.distribute.MirroredStrategy()
batch_size = 32 * strategy.num_replicas_in_sync
steps = 10_000 // batch_size * cfg["epochs"]

keras.mixed_precision.set_global_policy("mixed_float16")
optimizer, lr_schedule = create_optimizer(init_lr=cfg["lr"], num_train_steps=steps, num_warmup_steps=steps // 10)  # expect: MG103
base_opt = keras.optimizers.get(cfg["optimizer"])  # expect: MG103
scaled_opt = keras.mixed_precision.LossScaleOptimizer(base_opt)  # expect: MG103
auc = keras.metrics.get(cfg["metric"])  # expect: MG103

with strategy.scope():
    bert = TFAutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
    bert.compile(optimizer=optimizer, metrics=["accuracy"])
    tabular = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1, activation="sigmoid")])
    tabular.compile(optimizer=scaled_opt, loss="binary_crossentropy", metrics=[auc])

bert.fit(tf.data.Dataset.load("glue_sst2_tf").batch(batch_size), epochs=cfg["epochs"])
tabular.fit(tf.data.Dataset.load("tabular").batch(batch_size), epochs=cfg["epochs"])
