import tensorflow as tf
import pkg2
from pkg2 import make

strategy = tf.distribute.MirroredStrategy()
x = make()  # expect: MG101
y = pkg2.make()  # expect: MG101
with strategy.scope():
    x.compile(optimizer="adam", loss="mse")
    y.compile(optimizer="adam", loss="mse")
