"""Object-detection style replica step (keras-cv/tensorflow models habits): the file's loss helper returns
(total_loss, logs), the total built from plain means of the per-anchor losses."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 8 * strategy.num_replicas_in_sync
NUM_CLASSES = 20

with strategy.scope():
    backbone = tf.keras.applications.ResNet50(include_top=False, weights=None, input_shape=(256, 256, 3))
    features = tf.keras.layers.GlobalAveragePooling2D()(backbone.output)
    cls_out = tf.keras.layers.Dense(NUM_CLASSES, name="cls")(features)
    box_out = tf.keras.layers.Dense(4, name="box")(features)
    detector = tf.keras.Model(backbone.input, [cls_out, box_out])
    optimizer = tf.keras.optimizers.SGD(0.01, momentum=0.9)
    focal = tf.keras.losses.CategoricalFocalCrossentropy(from_logits=True, reduction="none")
    huber = tf.keras.losses.Huber(reduction="none")


def detection_loss(cls_true, box_true, cls_pred, box_pred):
    cls_loss = tf.reduce_mean(focal(cls_true, cls_pred))  # expect: MG301
    box_loss = tf.reduce_mean(huber(box_true, box_pred))  # expect: MG301
    total = cls_loss + 50.0 * box_loss
    return total, {"cls_loss": cls_loss, "box_loss": box_loss}


def replica_step(images, cls_true, box_true):
    with tf.GradientTape() as tape:
        cls_pred, box_pred = detector(images, training=True)
        loss, logs = detection_loss(cls_true, box_true, cls_pred, box_pred)
    grads = tape.gradient(loss, detector.trainable_variables)
    optimizer.apply_gradients(zip(grads, detector.trainable_variables))
    return logs


@tf.function
def train_step(images, cls_true, box_true):
    logs = strategy.run(replica_step, args=(images, cls_true, box_true))
    return {k: strategy.reduce("MEAN", v, axis=None) for k, v in logs.items()}


images = tf.random.uniform([64, 256, 256, 3])
cls_true = tf.one_hot(tf.random.uniform([64], maxval=NUM_CLASSES, dtype=tf.int32), NUM_CLASSES)
box_true = tf.random.uniform([64, 4])
ds = tf.data.Dataset.from_tensor_slices((images, cls_true, box_true)).batch(GLOBAL_BATCH)
for batch in strategy.experimental_distribute_dataset(ds):
    print(train_step(*batch))
