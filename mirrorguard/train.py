"""Reference: train a small ResNet on every replica you have, the way tf.distribute wants it.

Run it with ``mirrorguard train`` or ``python -m mirrorguard.train``; on a machine
without GPUs, ``--replicas 2`` splits the CPU in two to rehearse the multi-GPU path.

The pattern to copy is :func:`run`, top to bottom:

1. create the strategy first, before any other TensorFlow op;
2. build the model, its optimizer and ``compile()`` inside ``strategy.scope()``;
3. batch with the *global* batch size, per-replica batch x ``num_replicas_in_sync``;
4. ``fit`` with mirrorguard's guards and ``BackupAndRestore``, so a killed run resumes.

``--loop custom`` trains the same model on the same data with a custom loop
instead of ``fit``: :func:`train_with_custom_loop` is that pattern (``strategy.run``
on a distributed dataset, the loss averaged over the global batch, metrics and
checkpoint made inside the scope, ``mirrorguard.assert_mirrored`` before the
first step).

TensorFlow is imported inside the functions so that ``--help`` and argument errors
answer at once.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
import tempfile
import time

from mirrorguard.training import datasets, report, resume
from mirrorguard.training.backup import check_backup_dir
from mirrorguard.training.devices import SetupError, configure_devices, worker_count, worker_task
from mirrorguard.training.report import plural
from mirrorguard.training.tensorflow_import import import_tensorflow

MODELS = ("small-resnet", "resnet50")
# Input side each model gets when --image-size is not given: 16 keeps the digits
# run fast on CPU; 32 is the smallest ResNet50 accepts.
DEFAULT_IMAGE_SIZE = {"small-resnet": 16, "resnet50": 32}


def run(args: argparse.Namespace, extra_callbacks=()) -> float:
    """Train as ``args`` say and return the final validation accuracy.

    ``extra_callbacks`` are added to ``fit``'s (``--loop fit`` only). Raises
    :class:`~mirrorguard.training.report.TrainingDiverged` when the loss stops being a number.
    """
    import tensorflow as tf

    record = report.Record()

    # 1. The strategy comes first: devices can only be split, and a multi-worker
    #    cluster joined, before TensorFlow's runtime starts.
    if args.strategy == "multiworker" and args.loop == "fit" and tf.keras.Model.__module__.startswith("keras."):
        raise SetupError(
            "Keras 3 cannot fit() under MultiWorkerMirroredStrategy (keras-team/keras#20585); "
            "run the workers with TF_USE_LEGACY_KERAS=1 and tf-keras installed "
            "(pip install 'mirrorguard[legacy]'), or use --loop custom"
        )
    devices = configure_devices(tf, args.gpus, args.replicas)
    strategy = make_strategy(args.strategy, devices)
    replicas = strategy.num_replicas_in_sync
    tf.keras.utils.set_random_seed(args.seed)

    # 3. The batch the dataset yields is the global one; each replica gets an equal share.
    global_batch = args.per_replica_batch * replicas
    data = datasets.load(tf, args.dataset, args.validation_split, args.seed, args.data_dir)
    if data.train_size < global_batch:
        raise SetupError(
            f"the global batch ({args.per_replica_batch} x {replicas} replicas = {global_batch}) "
            f"is larger than the {data.train_size} training examples; lower --per-replica-batch"
        )
    image_size = args.image_size or DEFAULT_IMAGE_SIZE[args.model]
    input_shape = (image_size, image_size, data.channels)
    train_data = make_pipeline(data.train, data, image_size, global_batch, shuffle=True, seed=args.seed)
    val_data = make_pipeline(data.validation, data, image_size, global_batch)
    print(
        f"Training {args.model} on {plural(replicas, 'replica')} with {type(strategy).__name__}; "
        f"global batch {global_batch} = {args.per_replica_batch} per replica x {replicas}",
        flush=True,
    )

    if args.loop == "custom":
        model, accuracy = train_with_custom_loop(
            strategy, args, train_data, val_data, input_shape, data.num_classes, global_batch, record
        )
    else:
        model, accuracy = train_with_fit(
            strategy, args, train_data, val_data, input_shape, data.num_classes, record, extra_callbacks
        )
    print(f"Final validation accuracy: {accuracy:.4f}", flush=True)
    if args.output:
        save_model(model, args)
    if args.plot and this_worker_is_chief(args):
        title = f"{args.model}, {plural(replicas, 'replica')}, {args.loop} loop"
        report.plot(record, args.plot, title)
        print(f"Saved the curves to {args.plot}", flush=True)
    workers = worker_count() if args.strategy == "multiworker" else 1
    steps_per_epoch = data.train_size // global_batch  # whole batches only
    print(report.summary(record, steps_per_epoch=steps_per_epoch, global_batch=global_batch,
                         strategy=strategy, workers=workers), flush=True)
    return accuracy


def train_with_fit(strategy, args, train_data, val_data, input_shape, num_classes, record, extra_callbacks=()):
    """Steps 2 and 4 with ``model.fit``; return the model and its validation accuracy."""
    import tensorflow as tf

    from mirrorguard.callbacks import AssertEvenBatchSplit, AssertMirroredVariables

    # 2. Everything that creates variables is created inside the scope: the model,
    #    the optimizer (its slots mirror the weights) and the metrics in compile().
    with strategy.scope():
        model = build_model(args.model, input_shape, num_classes)
        model.compile(
            optimizer=tf.keras.optimizers.Adam(learning_rate=args.learning_rate),
            loss=tf.keras.losses.SparseCategoricalCrossentropy(),
            metrics=["accuracy"],
        )

    # 4. The guards fail fast if a variable escaped the scope or a batch splits
    #    unevenly; BackupAndRestore checkpoints each epoch and resumes a killed run.
    #    Every worker gets the same --backup-dir: the chief writes its "chief" folder,
    #    the others a temporary one they delete, and all of them restore from "chief".
    callbacks = [
        AssertMirroredVariables(strategy=strategy),
        AssertEvenBatchSplit(partial_batch="warn"),
        # Before the backup: an epoch whose loss is NaN stops the run and is not backed up.
        *report.fit_callbacks(tf, record, args.learning_rate),
        tf.keras.callbacks.BackupAndRestore(backup_dir=args.backup_dir),
        resume.announce_callback(tf),  # after BackupAndRestore: says which epoch it restored
        *extra_callbacks,
    ]
    if args.tensorboard:
        # Under MultiWorkerMirroredStrategy tf-keras writes the chief's logs there, others' to a temporary folder.
        callbacks.append(tf.keras.callbacks.TensorBoard(log_dir=args.tensorboard))
    model.fit(
        train_data,
        validation_data=val_data,
        epochs=args.epochs,
        callbacks=callbacks,
        # The dataset shuffles itself; fit's own shuffling applies to arrays only.
        shuffle=False,
        # One line per epoch when the output goes to a file or a pipe, not a progress bar.
        verbose=1 if sys.stdout.isatty() else 2,
    )
    # Evaluated rather than read from the history: a resumed run that had already
    # finished every epoch has no history, but still has a model to report on.
    accuracy = model.evaluate(val_data, verbose=0, return_dict=True)["accuracy"]
    remove_backup(args)
    return model, float(accuracy)


def make_train_step(strategy, model, optimizer, loss_object, train_loss, train_accuracy, global_batch: int):
    """The custom loop's distributed step: a ``tf.function`` around ``strategy.run``.

    Top-level so that the replica oracle (``mirrorguard.testkit.reference``) checks this very
    step on 1 and on N replicas, not a copy of it.
    """
    import tensorflow as tf

    def train_step(images, labels):
        # Runs on every replica, each with its share of the global batch.
        with tf.GradientTape() as tape:
            predictions = model(images, training=True)
            per_example_loss = loss_object(labels, predictions)
            # Divide by the GLOBAL batch, not this replica's: the replicas' gradients
            # are summed, so a plain mean here would make them num_replicas too large.
            loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch)
            if model.losses:  # weight regularisers, scaled the same way
                loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        train_loss.update_state(per_example_loss)
        train_accuracy.update_state(labels, predictions)

    @tf.function
    def distributed_train_step(images, labels):
        strategy.run(train_step, args=(images, labels))

    return distributed_train_step


def train_with_custom_loop(strategy, args, train_data, val_data, input_shape, num_classes, global_batch, record):
    """Steps 2 and 4 as a custom loop; return the model and its validation accuracy.

    What ``fit`` does for you, spelled out: per-example losses averaged over the
    *global* batch, one ``strategy.run`` per step on a distributed dataset, and
    a checkpoint per epoch to resume from.
    """
    import tensorflow as tf

    import mirrorguard

    # 2. Everything that creates variables is created inside the scope: here that
    #    is also the optimizer's slots, the metrics and the checkpointed epoch counter.
    with strategy.scope():
        model = build_model(args.model, input_shape, num_classes)
        optimizer = tf.keras.optimizers.Adam(learning_rate=args.learning_rate)
        optimizer.build(model.trainable_variables)  # slots now: checked below, restorable
        # reduction="none": one loss per example, averaged over the global batch below.
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction="none")
        train_loss = tf.keras.metrics.Mean(name="loss")
        train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="accuracy")
        val_loss = tf.keras.metrics.Mean(name="val_loss")
        val_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="val_accuracy")
        epochs_done = tf.Variable(0, dtype=tf.int64, trainable=False)
        checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epochs_done=epochs_done)
    metrics = [train_loss, train_accuracy, val_loss, val_accuracy]

    # Fails now, naming the variable, if anything above escaped the scope.
    mirrorguard.assert_mirrored(strategy, model, optimizer, checkpoint, metrics)

    def val_step(images, labels):
        predictions = model(images, training=False)
        val_loss.update_state(loss_object(labels, predictions))
        val_accuracy.update_state(labels, predictions)

    distributed_train_step = make_train_step(strategy, model, optimizer, loss_object, train_loss, train_accuracy,
                                             global_batch)

    @tf.function(reduce_retracing=True)  # the last validation batch is shorter
    def distributed_val_step(images, labels):
        strategy.run(val_step, args=(images, labels))

    def validate():
        for metric in (val_loss, val_accuracy):
            metric.reset_state()
        for images, labels in val_dist:
            distributed_val_step(images, labels)
        # Reading a metric reduces it across replicas (and workers): every worker calls this.
        return float(val_accuracy.result())

    # The datasets yield global batches; the distributed ones hand each replica its share.
    train_dist = strategy.experimental_distribute_dataset(train_data)
    val_dist = strategy.experimental_distribute_dataset(val_data)

    # 4. A checkpoint per epoch, so that a killed run resumes where it stopped. Every
    #    worker saves (the values are read collectively) and restores the chief's
    #    checkpoint from --backup-dir, which they share; only the chief writes there,
    #    the others write to a temporary folder inside it and delete it again.
    write_dir = backup_write_dir(args)
    manager = tf.train.CheckpointManager(checkpoint, write_dir, max_to_keep=1)
    latest = tf.train.latest_checkpoint(args.backup_dir)
    if latest:
        try:
            checkpoint.restore(latest).assert_existing_objects_matched()
        except (AssertionError, ValueError, tf.errors.OpError) as error:
            # The half-done restore would log each value it could not place at exit.
            tf.get_logger().setLevel("ERROR")
            raise SetupError(resume.mismatch_message(args.backup_dir, error)) from None
        resume.announce(int(epochs_done.numpy()))
    summaries = report.EpochSummaries(tf, args.tensorboard) if args.tensorboard and this_worker_is_chief(args) else None

    for epoch in range(int(epochs_done.numpy()), args.epochs):
        print(f"Epoch {epoch + 1}/{args.epochs}", flush=True)
        started = time.monotonic()
        for metric in (train_loss, train_accuracy):
            metric.reset_state()
        steps = 0
        for images, labels in train_dist:
            distributed_train_step(images, labels)
            steps += 1
        float(train_loss.result())  # waits for the last step, so the time below is the steps'
        train_seconds = time.monotonic() - started
        validate()
        logs = {metric.name: float(metric.result()) for metric in metrics}
        record.add_epoch(epoch, logs, args.learning_rate, train_seconds)  # raises on a NaN loss, before the save
        epochs_done.assign(epoch + 1)
        manager.save()
        if write_dir != args.backup_dir:
            shutil.rmtree(write_dir, ignore_errors=True)
        if summaries:
            summaries.write(epoch, logs)
        line = " - ".join(f"{name}: {value:.4f}" for name, value in logs.items())
        print(f"{steps}/{steps} - {time.monotonic() - started:.0f}s - {line}", flush=True)

    if summaries:
        summaries.close()
    accuracy = validate()  # collective: every worker has saved its last epoch by now
    # Finished: the next run starts afresh, as with fit's BackupAndRestore.
    remove_backup(args)
    return model, accuracy


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


def backup_write_dir(args: argparse.Namespace) -> str:
    """Where this worker writes its checkpoints: the chief in --backup-dir, the others in a
    ``workertemp_N`` folder inside it (tf-keras's BackupAndRestore uses the same names)."""
    if this_worker_is_chief(args):
        return args.backup_dir
    return os.path.join(args.backup_dir, f"workertemp_{worker_task()[1]}")


def remove_backup(args: argparse.Namespace) -> None:
    """After a finished run the backup goes, so the next run starts afresh (the chief's job)."""
    if this_worker_is_chief(args):
        shutil.rmtree(args.backup_dir, ignore_errors=True)


def this_worker_is_chief(args: argparse.Namespace) -> bool:
    return args.strategy != "multiworker" or is_chief(*worker_task())


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
        description="Train a small ResNet with tf.distribute, guarded by mirrorguard's runtime checks.",
        # A typo such as --strateg must be an error, not a prefix of --strategy.
        allow_abbrev=False,
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
    training.add_argument("--loop", choices=("fit", "custom"), default="fit",
                          help="fit: model.fit with mirrorguard's callbacks (default); custom: the same "
                               "training as a custom loop (strategy.run, mirrorguard.assert_mirrored)")
    training.add_argument("--model", choices=MODELS, default="small-resnet",
                          help="small-resnet (default) or keras.applications.ResNet50 with weights=None")
    training.add_argument("--epochs", type=_at_least(1), default=5, metavar="N", help="default: 5")
    training.add_argument("--per-replica-batch", type=_at_least(1), default=32, metavar="N",
                          help="examples per replica per step; the global batch is N x replicas (default: 32)")
    training.add_argument("--learning-rate", type=_positive_number, default=1e-3, metavar="LR",
                          help="Adam's (default: 0.001)")
    training.add_argument("--seed", type=int, default=0, metavar="N", help="default: 0")
    training.add_argument("--backup-dir", default="mirrorguard-backup", metavar="DIR",
                          help="where the last epoch is backed up so that a killed run resumes; "
                               "removed when training finishes, so it must be new, empty or a backup "
                               "(default: ./mirrorguard-backup)")
    training.add_argument("--output", metavar="PATH.keras", help="save the trained model here")

    reporting = parser.add_argument_group("reporting")
    reporting.add_argument("--tensorboard", metavar="DIR",
                           help="write TensorBoard logs here (DIR/train, DIR/validation; per epoch)")
    reporting.add_argument("--plot", metavar="FILE.png",
                           help="draw the loss and accuracy curves of training and validation to this PNG "
                                "(needs matplotlib, part of the tf extra)")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.output and not args.output.endswith((".keras", ".h5")):
        parser.error(f"--output must end in .keras or .h5, got {args.output!r}")
    if args.plot and not args.plot.lower().endswith(".png"):
        parser.error(f"--plot must end in .png, got {args.plot!r}")
    if args.strategy != "mirrored" and (args.replicas or 1) > 1:
        parser.error(f"--replicas {args.replicas} needs --strategy mirrored "
                     f"({args.strategy} uses one device per process)")
    if args.model == "resnet50" and args.image_size is not None and args.image_size < 32:
        parser.error(f"--model resnet50 needs --image-size of at least 32, got {args.image_size}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: 0 trained, 1 the training diverged, 2 a usage or set-up error."""
    args = parse_args(argv)
    try:
        # Checked before TensorFlow starts, so a missing data set fails in a blink.
        datasets.check_available(args.dataset, args.data_dir)
        if args.strategy == "multiworker":
            worker_task()
        if args.plot:
            report.check_available("--plot", "matplotlib")
        if args.tensorboard:
            # Without it tf.summary.scalar raises in the first epoch.
            report.check_available("--tensorboard", "tensorboard")
        check_backup_dir(args.backup_dir)
        import_tensorflow()
        run(args)
    except SetupError as error:
        print(f"mirrorguard train: error: {error}", file=sys.stderr)
        return 2
    except report.TrainingDiverged as error:
        print(f"mirrorguard train: error: {error}", file=sys.stderr)
        return 1
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


def _positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    # float() accepts "nan" and "inf": a NaN rate trains to loss nan, an infinite one overflows.
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text!r}")
    return value


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
