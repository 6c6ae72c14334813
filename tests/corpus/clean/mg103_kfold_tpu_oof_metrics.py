"""Melanoma-style k-fold EfficientNet on TPU (Kaggle notebook as a script); OOF scoring with Keras metrics on the host."""
import numpy as np
import tensorflow as tf
from sklearn.model_selection import KFold

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver.connect()
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.get_strategy()
REPLICAS = strategy.num_replicas_in_sync
print("REPLICAS:", REPLICAS)

FOLDS = 5
IMG_SIZE = 256
EPOCHS = 12
BATCH_SIZE = 32 * REPLICAS
files = np.array(tf.io.gfile.glob("gs://melanoma/tfrecords/train*.tfrec"))


def parse(example):
    feats = tf.io.parse_single_example(example, {
        "image": tf.io.FixedLenFeature([], tf.string),
        "target": tf.io.FixedLenFeature([], tf.int64),
    })
    image = tf.image.decode_jpeg(feats["image"], channels=3)
    image = tf.image.resize(image, [IMG_SIZE, IMG_SIZE]) / 255.0
    return image, tf.cast(feats["target"], tf.float32)


def get_dataset(paths, augment=False, repeat=False, shuffle=False):
    ds = tf.data.TFRecordDataset(paths, num_parallel_reads=tf.data.AUTOTUNE).map(parse)
    if augment:
        ds = ds.map(lambda img, y: (tf.image.random_flip_left_right(img), y))
    if repeat:
        ds = ds.repeat()
    if shuffle:
        ds = ds.shuffle(1024)
    return ds.batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)


def build_model():
    inp = tf.keras.layers.Input(shape=(IMG_SIZE, IMG_SIZE, 3))
    base = tf.keras.applications.EfficientNetB0(include_top=False, weights="imagenet", input_tensor=inp)
    x = tf.keras.layers.GlobalAveragePooling2D()(base.output)
    out = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    model = tf.keras.Model(inp, out)
    model.compile(
        optimizer=tf.keras.optimizers.Adam(1e-3),
        loss=tf.keras.losses.BinaryCrossentropy(label_smoothing=0.05),
        metrics=[tf.keras.metrics.AUC(name="auc")],
    )
    return model


oof_pred, oof_true = [], []
for fold, (idx_tr, idx_va) in enumerate(KFold(FOLDS, shuffle=True, random_state=42).split(files)):
    print(f"##### FOLD {fold}")
    if isinstance(strategy, tf.distribute.TPUStrategy):
        tf.tpu.experimental.initialize_tpu_system(tpu)
    tf.keras.backend.clear_session()
    with strategy.scope():
        model = build_model()
    ckpt = tf.keras.callbacks.ModelCheckpoint(f"fold-{fold}.weights.h5", monitor="val_auc", mode="max",
                                              save_best_only=True, save_weights_only=True)
    model.fit(
        get_dataset(files[idx_tr], augment=True, repeat=True, shuffle=True),
        steps_per_epoch=2000 // BATCH_SIZE,
        epochs=EPOCHS,
        validation_data=get_dataset(files[idx_va]),
        callbacks=[ckpt],
        verbose=2,
    )
    model.load_weights(f"fold-{fold}.weights.h5")
    val_ds = get_dataset(files[idx_va])
    oof_pred.append(model.predict(val_ds.map(lambda img, y: img), verbose=0).ravel())
    oof_true.append(np.concatenate([y.numpy() for _, y in val_ds]))

# Out-of-fold score computed on the host with a stand-alone metric object.
auc = tf.keras.metrics.AUC()
auc.update_state(np.concatenate(oof_true), np.concatenate(oof_pred))
print("OOF AUC:", float(auc.result()))
