"""Speech-commands keyword spotting on several GPUs; hyper-parameters declared up front."""
import pathlib

import tensorflow as tf

DATA_DIR = pathlib.Path("data/mini_speech_commands")
SAMPLE_RATE, CLIP_SECONDS = 16_000, 1
EPOCHS, BATCH_SIZE = 30, 64
EVAL_BATCH = 2 ** 8

strategy = tf.distribute.MirroredStrategy()
print("replicas:", strategy.num_replicas_in_sync)

train_ds, val_ds = tf.keras.utils.audio_dataset_from_directory(
    directory=DATA_DIR,
    batch_size=None,
    validation_split=0.2,
    seed=0,
    output_sequence_length=SAMPLE_RATE * CLIP_SECONDS,
    subset="both",
)
label_names = train_ds.class_names


def squeeze(audio, labels):
    return tf.squeeze(audio, axis=-1), labels


def get_spectrogram(waveform):
    spectrogram = tf.signal.stft(waveform, frame_length=255, frame_step=128)
    return tf.abs(spectrogram)[..., tf.newaxis]


def to_spec(audio, label):
    return get_spectrogram(audio), label


train_spec = train_ds.map(squeeze).map(to_spec, num_parallel_calls=tf.data.AUTOTUNE)
val_spec = val_ds.map(squeeze).map(to_spec, num_parallel_calls=tf.data.AUTOTUNE)

train_spec = train_spec.cache().shuffle(10_000).batch(BATCH_SIZE)  # expect: MG201
val_spec = val_spec.cache().batch(EVAL_BATCH)  # expect: MG201

for example_spectrograms, _ in train_spec.take(1):
    input_shape = example_spectrograms.shape[1:]

with strategy.scope():
    norm_layer = tf.keras.layers.Normalization()
    norm_layer.adapt(data=train_spec.map(lambda spec, label: spec))
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=input_shape),
        tf.keras.layers.Resizing(32, 32),
        norm_layer,
        tf.keras.layers.Conv2D(32, 3, activation="relu"),
        tf.keras.layers.Conv2D(64, 3, activation="relu"),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Dropout(0.25),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dropout(0.5),
        tf.keras.layers.Dense(len(label_names)),
    ])
    model.compile(
        optimizer=tf.keras.optimizers.Adam(),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

history = model.fit(
    train_spec,
    validation_data=val_spec,
    epochs=EPOCHS,
    callbacks=tf.keras.callbacks.EarlyStopping(verbose=1, patience=2),
)
model.evaluate(val_spec, return_dict=True)
