"""keras-io keras_hub GPT-2 / Gemma fine-tuning guides on several GPUs: sampler, preprocessor and schedule
are made outside (no variables), the CausalLM and its optimizer inside the scope."""
import keras
import keras_hub
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH = 4 * strategy.num_replicas_in_sync
PRESET = "gpt2_base_en"

preprocessor = keras_hub.models.GPT2CausalLMPreprocessor.from_preset(PRESET, sequence_length=128)
sampler = keras_hub.samplers.TopKSampler(k=5, temperature=0.7)
schedule = keras.optimizers.schedules.PolynomialDecay(5e-5, decay_steps=2000, end_learning_rate=0.0)

texts = tf.data.TextLineDataset("reddit_tifu.txt")
train_ds = texts.batch(BATCH).cache().prefetch(tf.data.AUTOTUNE)

with strategy.scope():
    gpt2_lm = keras_hub.models.GPT2CausalLM.from_preset(PRESET, preprocessor=preprocessor)
    gpt2_lm.backbone.enable_lora(rank=4)
    gpt2_lm.compile(
        optimizer=keras.optimizers.Adam(schedule),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        weighted_metrics=["accuracy"],
        sampler=sampler,
    )

gpt2_lm.fit(train_ds, epochs=1)
print(gpt2_lm.generate("I like basketball", max_length=200))
