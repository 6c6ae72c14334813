import tensorflow as tf
from . import models
from .models import Net, Zoo, build_nested

strategy = tf.distribute.MirroredStrategy()
a = models.build_mlp()  # expect: MG101
b = build_nested()  # expect: MG101
c = Net()  # expect: MG101, MG102
d = Zoo.create()  # expect: MG101
with strategy.scope():
    for m in (a, b, d):
        m.compile(optimizer="adam", loss="mse")


def main():
    from pkg.models import build_mlp
    e = build_mlp()  # expect: MG101
    with strategy.scope():
        e.compile(optimizer="adam", loss="mse")
    e.fit(ds)
