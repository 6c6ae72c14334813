"""Unit tests for a custom layer under several strategies (tf.test style)."""
import tensorflow as tf


class ScaleLayer(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones")

    def call(self, x):
        return x * self.scale


class ScaleLayerTest(tf.test.TestCase):
    def setUp(self):
        super().setUp()
        cpus = tf.config.list_physical_devices("CPU")
        tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
        self.strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    def test_weight_is_mirrored(self):
        with self.strategy.scope():
            layer = ScaleLayer()
            layer.build((None, 3))
        self.assertIsInstance(layer.scale.value, tf.distribute.DistributedValues)

    def test_forward_per_replica(self):
        with self.strategy.scope():
            layer = ScaleLayer()
        inputs = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        ds = tf.data.Dataset.from_tensor_slices(inputs).batch(2 * self.strategy.num_replicas_in_sync)
        for batch in self.strategy.experimental_distribute_dataset(ds):
            out = self.strategy.run(layer, args=(batch,))
            self.assertLen(self.strategy.experimental_local_results(out), 2)


if __name__ == "__main__":
    tf.test.main()
