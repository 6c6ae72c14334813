"""Tabular 5-fold ensemble on GPUs (Kaggle "playground series" notebook turned into a script)."""
import numpy as np
import pandas as pd
import tensorflow as tf
from sklearn.model_selection import StratifiedKFold
from sklearn.metrics import roc_auc_score

SEED = 42
N_FOLDS = 5
EPOCHS = 40

gpus = tf.config.list_logical_devices("GPU")
strategy = tf.distribute.MirroredStrategy() if len(gpus) > 1 else tf.distribute.get_strategy()
REPLICAS = strategy.num_replicas_in_sync
BATCH_SIZE = 512 * REPLICAS
print(f"REPLICAS: {REPLICAS}, BATCH_SIZE: {BATCH_SIZE}")

train = pd.read_csv("train.csv")
test = pd.read_csv("test.csv")
FEATURES = [c for c in train.columns if c not in ("id", "target")]


def build_model(n_features, seed):
    tf.keras.utils.set_random_seed(seed)
    inp = tf.keras.Input(shape=(n_features,))
    x = tf.keras.layers.BatchNormalization()(inp)
    for units in (256, 128, 64):
        x = tf.keras.layers.Dense(units, activation="swish")(x)
        x = tf.keras.layers.Dropout(0.3)(x)
    out = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    return tf.keras.Model(inp, out)


def make_ds(x, y=None, shuffle=False):
    ds = tf.data.Dataset.from_tensor_slices((x, y) if y is not None else x)
    if shuffle:
        ds = ds.shuffle(len(x), seed=SEED)
    return ds.batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)


# One model per fold, all built up front under the strategy.
with strategy.scope():
    fold_models = [build_model(len(FEATURES), SEED + k) for k in range(N_FOLDS)]

for m in fold_models:
    m.compile(  # expect: MG102
        optimizer=tf.keras.optimizers.Adam(1e-3),
        loss="binary_crossentropy",
        metrics=[tf.keras.metrics.AUC(name="auc")],
    )

oof = np.zeros(len(train))
test_pred = np.zeros(len(test))
skf = StratifiedKFold(n_splits=N_FOLDS, shuffle=True, random_state=SEED)
for fold, (tr_idx, va_idx) in enumerate(skf.split(train[FEATURES], train["target"])):
    x_tr, y_tr = train.loc[tr_idx, FEATURES].values, train.loc[tr_idx, "target"].values
    x_va, y_va = train.loc[va_idx, FEATURES].values, train.loc[va_idx, "target"].values
    model = fold_models[fold]
    model.fit(
        make_ds(x_tr, y_tr, shuffle=True),
        validation_data=make_ds(x_va, y_va),
        epochs=EPOCHS,
        callbacks=[
            tf.keras.callbacks.ReduceLROnPlateau(patience=3, factor=0.5),
            tf.keras.callbacks.EarlyStopping(patience=6, restore_best_weights=True),
        ],
        verbose=0,
    )
    oof[va_idx] = model.predict(make_ds(x_va), verbose=0).ravel()
    test_pred += model.predict(make_ds(test[FEATURES].values), verbose=0).ravel() / N_FOLDS
    print(f"fold {fold}: AUC {roc_auc_score(y_va, oof[va_idx]):.5f}")

print(f"CV AUC: {roc_auc_score(train['target'], oof):.5f}")
pd.DataFrame({"id": test["id"], "target": test_pred}).to_csv("submission.csv", index=False)
