import tensorflow as tf
from pkg2.impl import *

strategy = tf.distribute.MirroredStrategy()
model = make()  # expect: MG101
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
