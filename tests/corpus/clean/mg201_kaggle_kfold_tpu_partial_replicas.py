"""Kaggle melanoma k-fold TPU kernel: REPLICAS alias, per-fold batch list, partial factory built per fold."""
import functools

import numpy as np
import tensorflow as tf
from sklearn.model_selection import KFold

DEVICE = "TPU"
if DEVICE == "TPU":
    try:
        tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    except ValueError:
        tpu, DEVICE = None, "GPU"
if DEVICE == "TPU":
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.experimental.TPUStrategy(tpu)
else:
    strategy = tf.distribute.MirroredStrategy()
REPLICAS = strategy.num_replicas_in_sync
AUTO = tf.data.experimental.AUTOTUNE

FOLDS = 5
IMG_SIZES = [384] * FOLDS
BATCH_SIZES = [32] * FOLDS
EPOCHS = [12] * FOLDS


def get_dataset(files, batch_size, shuffle=True):
    ds = tf.data.TFRecordDataset(files, num_parallel_reads=AUTO)
    ds = ds.map(lambda r: (tf.zeros([384, 384, 3]), 0.0), num_parallel_calls=AUTO)
    if shuffle:
        ds = ds.repeat().shuffle(1024 * 8)
    return ds.batch(batch_size * REPLICAS).prefetch(AUTO)


def build_model(dim=256, ef=0):
    inp = tf.keras.layers.Input(shape=(dim, dim, 3))
    base = tf.keras.applications.EfficientNetB0(input_shape=(dim, dim, 3), weights="imagenet", include_top=False)
    x = tf.keras.layers.GlobalAveragePooling2D()(base(inp))
    x = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    model = tf.keras.Model(inputs=inp, outputs=x)
    opt = tf.keras.optimizers.Adam(learning_rate=0.001)
    loss = tf.keras.losses.BinaryCrossentropy(label_smoothing=0.05)
    model.compile(optimizer=opt, loss=loss, metrics=["AUC"])
    return model


files = np.array(sorted(tf.io.gfile.glob("gs://melanoma/train*.tfrec")))
skf = KFold(n_splits=FOLDS, shuffle=True, random_state=42)
oof = []
for fold, (idx_t, idx_v) in enumerate(skf.split(np.arange(len(files)))):
    if DEVICE == "TPU":
        tf.tpu.experimental.initialize_tpu_system(tpu)
    tf.keras.backend.clear_session()
    model_fn = functools.partial(build_model, dim=IMG_SIZES[fold], ef=0)
    with strategy.scope():
        model = model_fn()
    sv = tf.keras.callbacks.ModelCheckpoint(f"fold-{fold}.h5", monitor="val_loss", save_best_only=True)
    model.fit(get_dataset(files[idx_t], BATCH_SIZES[fold]), epochs=EPOCHS[fold], callbacks=[sv],
              steps_per_epoch=100, validation_data=get_dataset(files[idx_v], BATCH_SIZES[fold], shuffle=False))
    model.load_weights(f"fold-{fold}.h5")
    oof.append(model.predict(get_dataset(files[idx_v], BATCH_SIZES[fold] * 4, shuffle=False)))
