"""Ensemble several saved checkpoints and distill them into a student (multi-GPU)."""
import json

import tensorflow as tf
from tensorflow import keras
from tensorflow.keras.models import load_model, model_from_json

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 256 * strategy.num_replicas_in_sync

teacher_a = load_model("teachers/a.keras")  # expect: MG104
teacher_b = keras.saving.load_model("teachers/b.keras")  # expect: MG104

with open("student_arch.json") as f:
    student = model_from_json(f.read())  # expect: MG104

with open("teachers/c_config.json") as f:
    teacher_c = keras.Model.from_config(json.load(f))  # expect: MG104
teacher_c.load_weights("teachers/c.weights.h5")

baseline = keras.models.clone_model(student)  # expect: MG104

with strategy.scope():
    student.compile(optimizer="adam", loss="kl_divergence")
    baseline.compile(optimizer="adam", loss="sparse_categorical_crossentropy")

ds = tf.data.Dataset.load("distill_data").batch(GLOBAL_BATCH)
soft = ds.map(lambda x, y: (x, (teacher_a(x) + teacher_b(x) + teacher_c(x)) / 3.0))
student.fit(soft, epochs=10)
baseline.fit(ds, epochs=10)
