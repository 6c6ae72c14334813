import tensorflow as tf
import pkg2.impl as impl
from pkg2.impl import make as make_net

strategy = tf.distribute.MirroredStrategy()
a = impl.make()  # expect: MG101
b = make_net()  # expect: MG101
with strategy.scope():
    a.compile(optimizer="adam", loss="mse")
    b.compile(optimizer="adam", loss="mse")
