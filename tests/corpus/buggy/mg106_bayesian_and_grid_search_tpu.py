"""MG106 (invalid): `BayesianOptimization` and `GridSearch` tuners in a TPU notebook without `distribution_strategy=`.

Style: Kaggle TPU notebooks exported to scripts (`# In[n]:` markers,
`TPUClusterResolver` try/except) that tune with Keras Tuner before the final fit
under `strategy.scope()`. The final model is fine; every trial of both tuners
trains outside the strategy: MG106 at each tuner construction.
"""
import keras_tuner as kt
import tensorflow as tf

# In[2]:
try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 64 * strategy.num_replicas_in_sync


# In[3]:
def build_model(hp):
    inputs = tf.keras.Input(shape=(40,))
    x = tf.keras.layers.Dense(hp.Int("units", 64, 512, step=64), activation="relu")(inputs)
    x = tf.keras.layers.Dropout(hp.Float("dropout", 0.0, 0.5, step=0.1))(x)
    outputs = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer=tf.keras.optimizers.Adam(hp.Float("lr", 1e-4, 1e-2, sampling="log")),
                  loss="binary_crossentropy", metrics=[tf.keras.metrics.AUC(name="auc")])
    return model


# In[4]:
train = tf.data.Dataset.load("/kaggle/input/tabular/train").shuffle(100_000).batch(BATCH_SIZE)
valid = tf.data.Dataset.load("/kaggle/input/tabular/valid").batch(BATCH_SIZE)

bayes = kt.BayesianOptimization(build_model, objective=kt.Objective("val_auc", "max"), max_trials=20,  # expect: MG106
                                directory="/kaggle/working/kt", project_name="bayes")
bayes.search(train, validation_data=valid, epochs=5)

grid = kt.GridSearch(  # expect: MG106
    hypermodel=build_model,
    objective=kt.Objective("val_auc", "max"),
    directory="/kaggle/working/kt",
    project_name="grid",
)
grid.search(train, validation_data=valid, epochs=3)

# In[5]:
with strategy.scope():
    final = build_model(bayes.get_best_hyperparameters(1)[0])
final.fit(train, validation_data=valid, epochs=20)
