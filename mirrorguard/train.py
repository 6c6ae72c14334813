"""Reference: train a small ResNet on every replica you have, the way tf.distribute wants it.

Run it with ``mirrorguard train`` or ``python -m mirrorguard.train``; on a machine
without GPUs, ``--replicas 2`` splits the CPU in two to rehearse the multi-GPU path.

The pattern to copy is :func:`run`, top to bottom:

1. create the strategy first, before any other TensorFlow op;
2. build the model, its optimizer and ``compile()`` inside ``strategy.scope()``;
3. batch with the *global* batch size, per-replica batch x ``num_replicas_in_sync``;
4. ``fit`` with mirrorguard's guards and ``BackupAndRestore``, so a killed run resumes.

TensorFlow is imported inside the functions so that ``--help`` and argument errors
answer at once.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

from mirrorguard.training import datasets
from mirrorguard.training.devices import SetupError, configure_devices, worker_task

MODELS = ("small-resnet", "resnet50")
# Input side each model gets when --image-size is not given: 16 keeps the digits
# run fast on CPU; 32 is the smallest ResNet50 accepts.
DEFAULT_IMAGE_SIZE = {"small-resnet": 16, "resnet50": 32}


def run(args: argparse.Namespace, extra_callbacks=()) -> float:
    """Train as ``args`` say and return the final validation accuracy."""
    import tensorflow as tf

    # 1. The strategy comes first: devices can only be split, and a multi-worker
    #    cluster joined, before TensorFlow's runtime starts.
    if args.strategy == "multiworker" and tf.keras.Model.__module__.startswith("keras."):
        raise SetupError(
            "Keras 3 cannot fit() under MultiWorkerMirroredStrategy (keras-team/keras#20585); "
            "run the workers with TF_USE_LEGACY_KERAS=1 and tf-keras installed "
            "(pip install 'mirrorguard[legacy]')"
        )
    devices = configure_devices(tf, args.gpus, args.replicas)
    strategy = make_strategy(args.strategy, devices)
    replicas = strategy.num_replicas_in_sync
    tf.keras.utils.set_random_seed(args.seed)

    # 3. The batch handed to fit() is the global one; each replica gets an equal share.
    global_batch = args.per_replica_batch * replicas
    data = datasets.load(tf, args.dataset, args.validation_split, args.seed, args.data_dir)
    if data.train_size < global_batch:
        raise SetupError(
            f"the global batch ({args.per_replica_batch} x {replicas} replicas = {global_batch}) "
            f"is larger than the {data.train_size} training examples; lower --per-replica-batch"
        )
    image_size = args.image_size or DEFAULT_IMAGE_SIZE[args.model]
    train_data = make_pipeline(data.train, data, image_size, global_batch, shuffle=True, seed=args.seed)
    val_data = make_pipeline(data.validation, data, image_size, global_batch)
    print(
        f"Training {args.model} on {replicas} replica(s) with {type(strategy).__name__}; "
        f"global batch {global_batch} = {args.per_replica_batch} per replica x {replicas}",
        flush=True,
    )

    # 2. Everything that creates variables is created inside the scope: the model,
    #    the optimizer (its slots mirror the weights) and the metrics in compile().
    with strategy.scope():
        model = build_model(args.model, (image_size, image_size, data.channels), data.num_classes)
        model.compile(
            optimizer=tf.keras.optimizers.Adam(learning_rate=args.learning_rate),
            loss=tf.keras.losses.SparseCategoricalCrossentropy(),
            metrics=["accuracy"],
        )

    # 4. The guards fail fast if a variable escaped the scope or a batch splits
    #    unevenly; BackupAndRestore checkpoints each epoch and resumes a killed run.
    from mirrorguard.callbacks import AssertEvenBatchSplit, AssertMirroredVariables

    callbacks = [
        AssertMirroredVariables(strategy=strategy),
        AssertEvenBatchSplit(partial_batch="warn"),
        tf.keras.callbacks.BackupAndRestore(backup_dir=backup_dir_for_this_worker(args)),
        *extra_callbacks,
    ]
    model.fit(train_data, validation_data=val_data, epochs=args.epochs, callbacks=callbacks, verbose=1)

    # Evaluated rather than read from the history: a resumed run that had already
    # finished every epoch has no history, but still has a model to report on.
    accuracy = model.evaluate(val_data, verbose=0, return_dict=True)["accuracy"]
    print(f"Final validation accuracy: {accuracy:.4f}", flush=True)
    if args.output:
        save_model(model, args)
    return float(accuracy)


def make_strategy(kind: str, devices: list[str]):
    """Return the tf.distribute strategy named on the command line."""
    import tensorflow as tf

    if kind == "multiworker":
        # Reads TF_CONFIG; every worker runs this same script.
        return tf.distribute.MultiWorkerMirroredStrategy()
    if kind == "onedevice":
        return tf.distribute.OneDeviceStrategy(devices[0])
    # Devices are listed explicitly: with no argument MirroredStrategy takes the
    # GPUs, or a single CPU, and would ignore logical CPU devices.
    return tf.distribute.MirroredStrategy(devices)


def make_pipeline(dataset, data, image_size: int, global_batch: int, shuffle: bool = False, seed: int = 0):
    """Preprocess, (shuffle,) batch by the global batch and prefetch."""
    import tensorflow as tf

    def preprocess(image, label):
        image = tf.cast(image, tf.float32) / data.max_value
        return tf.image.resize(image, (image_size, image_size)), label

    dataset = dataset.map(preprocess, num_parallel_calls=tf.data.AUTOTUNE)
    if shuffle:
        dataset = dataset.shuffle(min(data.train_size, 10_000), seed=seed)
        # Whole batches only: a short last batch would split unevenly across replicas.
        dataset = dataset.batch(global_batch, drop_remainder=True)
    else:
        dataset = dataset.batch(global_batch)
    options = tf.data.Options()
    # In-memory data has no files to shard by; split by examples across workers.
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    return dataset.with_options(options).prefetch(tf.data.AUTOTUNE)


def build_model(name: str, input_shape: tuple[int, int, int], num_classes: int):
    """Return the (uncompiled) model; call it inside ``strategy.scope()``."""
    import tensorflow as tf

    if name == "resnet50":
        # weights=None: nothing is downloaded, and any input size >= 32 is accepted.
        return tf.keras.applications.ResNet50(weights=None, input_shape=input_shape, classes=num_classes)

    layers = tf.keras.layers

    def conv_bn(x, filters, strides=1, kernel=3):
        x = layers.Conv2D(filters, kernel, strides=strides, padding="same", use_bias=False)(x)
        # A faster-moving average than the default 0.99: a few hundred steps on a
        # small data set would otherwise leave validation on stale statistics.
        return layers.BatchNormalization(momentum=0.9)(x)

    def residual_block(x, filters, strides):
        shortcut = x
        if strides != 1 or x.shape[-1] != filters:
            shortcut = conv_bn(x, filters, strides, kernel=1)
        x = layers.ReLU()(conv_bn(x, filters, strides))
        x = conv_bn(x, filters)
        return layers.ReLU()(layers.Add()([x, shortcut]))

    inputs = tf.keras.Input(shape=input_shape)
    x = layers.ReLU()(conv_bn(inputs, 32))
    x = residual_block(x, 32, strides=1)
    x = residual_block(x, 64, strides=2)
    x = layers.GlobalAveragePooling2D()(x)
    outputs = layers.Dense(num_classes, activation="softmax")(x)
    return tf.keras.Model(inputs, outputs, name="small_resnet")


def backup_dir_for_this_worker(args: argparse.Namespace) -> str:
    """The chief backs up to --backup-dir; other workers each use their own folder."""
    if args.strategy == "multiworker":
        kind, index = worker_task()
        if not is_chief(kind, index):
            return f"{args.backup_dir}-{kind}{index}"
    return args.backup_dir


def save_model(model, args: argparse.Namespace) -> None:
    """Save to --output; non-chief workers save too (saving is collective), to a scratch dir."""
    if args.strategy == "multiworker" and not is_chief(*worker_task()):
        scratch = tempfile.mkdtemp(prefix="mirrorguard-worker-")
        model.save(os.path.join(scratch, os.path.basename(args.output)))
        shutil.rmtree(scratch, ignore_errors=True)
        return
    model.save(args.output)
    print(f"Saved the model to {args.output}", flush=True)


def is_chief(kind: str, index: int) -> bool:
    # Without an explicit "chief" task, worker 0 plays the chief.
    return kind == "chief" or (kind == "worker" and index == 0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mirrorguard train",
        description="Train a small ResNet with tf.distribute, guarded by mirrorguard's callbacks.",
    )
    data = parser.add_argument_group("data")
    data.add_argument("--dataset", choices=("digits", "cassava", "synthetic"), default="digits",
                      help="digits: scikit-learn's 1,797 handwritten digits, no download (default); "
                           "cassava: TensorFlow Datasets' cassava, read from --data-dir; "
                           "synthetic: tiny random images for smoke tests")
    data.add_argument("--data-dir", metavar="DIR", help="TensorFlow Datasets folder holding 'cassava'")
    data.add_argument("--validation-split", type=_fraction, default=0.2, metavar="FRACTION",
                      help="share of digits/synthetic held out for validation (default: 0.2)")
    data.add_argument("--image-size", type=_at_least(8), metavar="PIXELS",
                      help="side the images are resized to (default: 16, or 32 for resnet50)")

    devices = parser.add_argument_group("devices")
    devices.add_argument("--strategy", choices=("mirrored", "multiworker", "onedevice"), default="mirrored",
                         help="mirrored: all local devices (default); multiworker: several machines "
                              "or processes described by TF_CONFIG; onedevice: first device only")
    devices.add_argument("--gpus", type=_gpu_list, metavar="0,1,...",
                         help="GPU indices to train on (default: all GPUs)")
    devices.add_argument("--replicas", type=_at_least(1), metavar="N",
                         help="CPU-only machines: split the CPU into N logical devices (default: 1)")

    training = parser.add_argument_group("training")
    training.add_argument("--model", choices=MODELS, default="small-resnet",
                          help="small-resnet (default) or keras.applications.ResNet50 with weights=None")
    training.add_argument("--epochs", type=_at_least(1), default=5, metavar="N", help="default: 5")
    training.add_argument("--per-replica-batch", type=_at_least(1), default=32, metavar="N",
                          help="examples per replica per step; the global batch is N x replicas (default: 32)")
    training.add_argument("--learning-rate", type=float, default=1e-3, metavar="LR", help="Adam's (default: 0.001)")
    training.add_argument("--seed", type=int, default=0, metavar="N", help="default: 0")
    training.add_argument("--backup-dir", default="mirrorguard-backup", metavar="DIR",
                          help="where BackupAndRestore keeps the last epoch so that a killed run "
                               "resumes; removed when training finishes (default: ./mirrorguard-backup)")
    training.add_argument("--output", metavar="PATH.keras", help="save the trained model here")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.output and not args.output.endswith((".keras", ".h5")):
        parser.error(f"--output must end in .keras or .h5, got {args.output!r}")
    if args.strategy != "mirrored" and (args.replicas or 1) > 1:
        parser.error(f"--replicas {args.replicas} needs --strategy mirrored "
                     f"({args.strategy} uses one device per process)")
    if args.model == "resnet50" and args.image_size is not None and args.image_size < 32:
        parser.error(f"--model resnet50 needs --image-size of at least 32, got {args.image_size}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; argument errors exit with status 2 (argparse)."""
    args = parse_args(argv)
    try:
        # Checked before TensorFlow starts, so a missing data set fails in a blink.
        datasets.check_available(args.dataset, args.data_dir)
        if args.strategy == "multiworker":
            worker_task()
        run(args)
    except SetupError as error:
        print(f"mirrorguard train: error: {error}", file=sys.stderr)
        return 2
    return 0


def _at_least(low: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def _gpu_list(text: str) -> list[int]:
    try:
        indices = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected GPU indices like 0,1, got {text!r}") from None
    if any(i < 0 for i in indices) or len(set(indices)) != len(indices):
        raise argparse.ArgumentTypeError(f"expected distinct GPU indices like 0,1, got {text!r}")
    return indices


if __name__ == "__main__":
    sys.exit(main())
