import tensorflow as tf

from common.dist import maybe_scope, scope_of, strategy
from common.models import build, build_default, plain

PER_REPLICA = 32
global_batch = PER_REPLICA * strategy.num_replicas_in_sync
ds = tf.data.Dataset.from_tensor_slices((tf.zeros((256, 32)), tf.zeros(256, tf.int32))).batch(global_batch)

model_a = build(10, strategy)
model_b = build_default(10)
with maybe_scope(strategy):
    model_c = plain(10)
    model_c.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
with scope_of(strategy):
    model_d = plain(10)
    model_d.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
for m in (model_a, model_b, model_c, model_d):
    m.fit(ds, epochs=1)
