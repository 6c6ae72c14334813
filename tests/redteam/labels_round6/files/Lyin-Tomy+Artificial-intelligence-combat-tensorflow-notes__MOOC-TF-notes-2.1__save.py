# red-team round 6 labelled copy of github.com/Lyin-Tomy/Artificial-intelligence-combat-tensorflow-notes `中国大学MOOCTF笔记2.1共享给所有学习者/save.py` at commit e5e1af1387ae504791f6e9f1bc1c90ab44619ba5 (verbatim below; the folder name is shortened in this file's name)
# Labels count lines of this copy: original line + 2.
import tensorflow_datasets as tfds

import tensorflow as tf

mirrored_strategy = tf.distribute.MirroredStrategy()

def get_data():
  datasets = tfds.load(name='mnist', as_supervised=True)
  mnist_train, mnist_test = datasets['train'], datasets['test']

  BUFFER_SIZE = 10000

  BATCH_SIZE_PER_REPLICA = 64
  BATCH_SIZE = BATCH_SIZE_PER_REPLICA * mirrored_strategy.num_replicas_in_sync

  def scale(image, label):
    image = tf.cast(image, tf.float32)
    image /= 255

    return image, label

  train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
  eval_dataset = mnist_test.map(scale).batch(BATCH_SIZE)

  return train_dataset, eval_dataset

def get_model():
  with mirrored_strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, 3, activation='relu', input_shape=(28, 28, 1)),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(64, activation='relu'),
        tf.keras.layers.Dense(10)
    ])

    model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.Adam(),
                  metrics=[tf.metrics.SparseCategoricalAccuracy()])
    return model

model = get_model()
train_dataset, eval_dataset = get_data()
model.fit(train_dataset, epochs=2)
model.summary()
keras_model_path = './save'
model.save(keras_model_path)