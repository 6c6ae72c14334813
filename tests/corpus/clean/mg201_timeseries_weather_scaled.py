"""keras-io timeseries/timeseries_weather_forecasting on GPUs: window sizes beside a scaled batch."""
import pandas as pd
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
split_fraction = 0.715
step = 6
past = 720
future = 72
learning_rate = 0.001
batch_size = 256 * strategy.num_replicas_in_sync
epochs = 10

df = pd.read_csv("jena_climate_2009_2016.csv")
features = df[["p (mbar)", "T (degC)", "VPmax (mbar)", "VPdef (mbar)", "sh (g/kg)", "rho (g/m**3)", "wv (m/s)"]]
features = (features - features.mean()) / features.std()
train_split = int(split_fraction * int(df.shape[0]))
train_data = features.loc[0: train_split - 1]
val_data = features.loc[train_split:]
sequence_length = int(past / step)

start = past + future
x_train = train_data.values
y_train = features.iloc[start: start + train_split][["T (degC)"]]
dataset_train = keras.preprocessing.timeseries_dataset_from_array(
    x_train, y_train, sequence_length=sequence_length, sampling_rate=step, batch_size=batch_size,
)
x_val = val_data.iloc[: -(past + future)].values
y_val = features.iloc[train_split + past + future:][["T (degC)"]]
dataset_val = keras.preprocessing.timeseries_dataset_from_array(
    x_val, y_val, sequence_length=sequence_length, sampling_rate=step, batch_size=batch_size,
)

with strategy.scope():
    inputs = keras.layers.Input(shape=(sequence_length, x_train.shape[1]))
    lstm_out = keras.layers.LSTM(32)(inputs)
    outputs = keras.layers.Dense(1)(lstm_out)
    model = keras.Model(inputs=inputs, outputs=outputs)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=learning_rate), loss="mse")

es_callback = keras.callbacks.EarlyStopping(monitor="val_loss", min_delta=0, patience=5)
history = model.fit(dataset_train, epochs=epochs, validation_data=dataset_val, callbacks=[es_callback])
