import tensorflow as tf

from common.models import plain


def make_pair():
    return plain(10), plain(10)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    student, teacher = make_pair()
    student.compile(optimizer="adam", loss="mse")
    teacher.compile(optimizer="adam", loss="mse")
