"""Run corpus scripts for real, several per process, and print what the runtime said about each.

    python tests/corpus_runtime/_runner.py [--replicas 2] [--timeout 90] FILE...

TensorFlow starts once with the CPU split into ``--replicas`` logical devices, so a
``tf.distribute.MirroredStrategy()`` made by a script mirrors over them as it would over
GPUs. Each script then runs as ``__main__`` in a fresh temporary directory, with only
these changes to its world, none of them to what TensorFlow or Keras do:

* downloads have synthetic stand-ins of the same shapes and dtypes (``keras.datasets.*``,
  ``tfds.load``, ``image_dataset_from_directory``, pretrained weights -> random weights);
* every ``fit()`` gets mirrorguard's ``AssertMirroredVariables`` and ``AssertEvenBatchSplit``
  callbacks, ``epochs=1`` and 1 step (validation: 1), and ``evaluate()`` runs 1 step, so a run
  takes seconds.

One JSON line per script goes to stdout (``MG-CORPUS {...}``), written as soon as the
script ends, so the parent (harness.py) can tell which script a crashed process was in.
The runner reports what happened (exception type and message, fits guarded, strategies
made); harness.py decides what that means.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import inspect
import io
import json
import os
import random
import runpy
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

PREFIX = "MG-CORPUS "
START = "MG-CORPUS-START "
STOPPED = "MG-CORPUS-STOPPED "

parser = argparse.ArgumentParser()
parser.add_argument("--replicas", type=int, default=2)
parser.add_argument("--timeout", type=float, default=12.0,
                    help="CPU seconds per script (CPU, not wall-clock, time: the neighbours' load does not count)")
parser.add_argument("files", nargs="+")
ARGS = parser.parse_args()

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
REAL_STDOUT = sys.stdout

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

_cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(_cpu, [tf.config.LogicalDeviceConfiguration()] * ARGS.replicas)

import keras  # noqa: E402  (the flavour TF_USE_LEGACY_KERAS picks is what tf.keras is)

from mirrorguard import MirrorGuardError  # noqa: E402

TRAIN_ROWS, TEST_ROWS = 256, 64  # even splits for every power-of-two batch a script may pick
STEPS, VALIDATION_STEPS = 1, 1  # the guards judge before and while the first step is traced


class ScriptTimeout(BaseException):
    """Raised in the script by SIGPROF; a BaseException so `except Exception` cannot swallow it."""


# What the script did -----------------------------------------------------------------

RECORD: dict = {}


def _reset_record():
    RECORD.clear()
    RECORD.update(fits=0, fits_done=0, strategies=[], replicas=[])


def _note_strategy(strategy):
    try:
        RECORD["strategies"].append(type(strategy).__name__)
        RECORD["replicas"].append(int(strategy.num_replicas_in_sync))
    except Exception:  # noqa: BLE001  (observation only; never break the script)
        pass


def _observe_strategies():
    # Observation only: the strategies a script makes (many are local to main()).
    from tensorflow.python.distribute import distribute_lib

    original = distribute_lib.StrategyBase.__init__

    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if type(self).__name__ != "_DefaultDistributionStrategy":
            _note_strategy(self)
            # The next strategy, in this script or a later one, counts its collective keys from
            # a range of its own (see _fresh_collective_keys).
            with contextlib.suppress(Exception):
                _fresh_collective_keys()

    distribute_lib.StrategyBase.__init__ = __init__


# fit() with the guards and a short epoch ---------------------------------------------------


def _guard_fit(model_class):
    if getattr(model_class.fit, "_mg_corpus_guarded", False):
        return  # tf.keras.Model is keras.Model (or tf_keras.Model): wrap once
    original = model_class.fit
    signature = inspect.signature(original)

    @functools.wraps(original)
    def fit(self, *args, **kwargs):
        from mirrorguard.callbacks import AssertEvenBatchSplit, AssertMirroredVariables

        bound = signature.bind(self, *args, **kwargs)
        arguments = dict(bound.arguments)
        arguments.pop("self", None)
        extra = arguments.pop("kwargs", {})
        arguments.update(extra)
        callbacks = arguments.get("callbacks") or []
        if not isinstance(callbacks, (list, tuple)):
            callbacks = list(getattr(callbacks, "callbacks", [callbacks]))
        arguments["callbacks"] = [*callbacks, AssertMirroredVariables(), AssertEvenBatchSplit()]
        arguments["epochs"] = 1
        arguments["initial_epoch"] = 0
        arguments["verbose"] = 0
        steps = arguments.get("steps_per_epoch")
        arguments["steps_per_epoch"] = STEPS if steps is None else min(int(steps), STEPS)
        if arguments.get("validation_data") is not None or arguments.get("validation_split"):
            steps = arguments.get("validation_steps")
            arguments["validation_steps"] = VALIDATION_STEPS if steps is None else min(int(steps), VALIDATION_STEPS)
        RECORD["fits"] += 1
        result = original(self, **arguments)
        RECORD["fits_done"] += 1
        return result

    fit._mg_corpus_guarded = True
    model_class.fit = fit


def _short_evaluate(model_class):
    # A script's own evaluate() runs one batch: it returns what it always does, and costs one step.
    if getattr(model_class.evaluate, "_mg_corpus_short", False):
        return
    original = model_class.evaluate
    signature = inspect.signature(original)

    @functools.wraps(original)
    def evaluate(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        steps = bound.arguments.get("steps")
        bound.arguments["steps"] = VALIDATION_STEPS if steps is None else min(int(steps), VALIDATION_STEPS)
        return original(*bound.args, **bound.kwargs)

    evaluate._mg_corpus_short = True
    model_class.evaluate = evaluate


# Synthetic stand-ins for downloads -----------------------------------------------------

_RNG = np.random.default_rng(0)

IMAGE_SETS = {  # name -> (image shape, classes, label shape suffix)
    "mnist": ((28, 28), 10, ()),
    "fashion_mnist": ((28, 28), 10, ()),
    "cifar10": ((32, 32, 3), 10, (1,)),
    "cifar100": ((32, 32, 3), 100, (1,)),
}


def _images(rows, shape, classes, label_suffix):
    x = _RNG.integers(0, 256, size=(rows, *shape), dtype=np.uint8)
    y = _RNG.integers(0, classes, size=(rows, *label_suffix), dtype=np.uint8)
    return x, y


def _sequences(rows, words, classes):
    x = np.empty(rows, dtype=object)
    for i in range(rows):
        x[i] = list(_RNG.integers(1, words, size=int(_RNG.integers(20, 80))))
    return x, _RNG.integers(0, classes, size=(rows,)).astype("int64")


def _load_data_for(name):
    def load_data(*args, **kwargs):
        if name in IMAGE_SETS:
            shape, classes, suffix = IMAGE_SETS[name]
            return _images(TRAIN_ROWS, shape, classes, suffix), _images(TEST_ROWS, shape, classes, suffix)
        if name in ("imdb", "reuters"):
            words = int(kwargs.get("num_words") or 10000)
            classes = 2 if name == "imdb" else 46
            return _sequences(TRAIN_ROWS, words, classes), _sequences(TEST_ROWS, words, classes)
        if name in ("boston_housing", "california_housing"):
            features = 13 if name == "boston_housing" else 8
            make = lambda rows: (_RNG.normal(size=(rows, features)), _RNG.normal(size=(rows,)))  # noqa: E731
            return make(TRAIN_ROWS), make(TEST_ROWS)
        raise RuntimeError(f"no synthetic stand-in for keras.datasets.{name}")

    return load_data


def _patch_keras_datasets(datasets_module):
    for name in ("mnist", "fashion_mnist", "cifar10", "cifar100", "imdb", "reuters", "boston_housing",
                 "california_housing"):
        sub = getattr(datasets_module, name, None)
        if sub is not None and hasattr(sub, "load_data"):
            sub.load_data = _load_data_for(name)


TFDS_IMAGES = {
    "mnist": ((28, 28, 1), 10),
    "fashion_mnist": ((28, 28, 1), 10),
    "cifar10": ((32, 32, 3), 10),
    "cifar100": ((32, 32, 3), 100),
    "tf_flowers": ((64, 64, 3), 5),
    "cassava": ((64, 64, 3), 5),
    "cats_vs_dogs": ((64, 64, 3), 2),
    "beans": ((64, 64, 3), 3),
    "oxford_flowers102": ((64, 64, 3), 102),
    "horses_or_humans": ((64, 64, 3), 2),
}


TFDS_TEXT = {"imdb_reviews", "ag_news_subset", "yelp_polarity_reviews", "sst2", "glue"}


class _Split:
    def __init__(self, rows):
        self.num_examples = rows


class _Label:
    def __init__(self, classes):
        self.num_classes = classes
        self.names = [f"class_{i}" for i in range(classes)]

    def int2str(self, i):
        return self.names[int(i)]


class _Info:
    def __init__(self, name, classes):
        self.name = name
        self.splits = {"train": _Split(TRAIN_ROWS), "test": _Split(TEST_ROWS), "validation": _Split(TEST_ROWS)}
        self.features = {"label": _Label(classes)}


def _tfds_load(name, *args, split=None, as_supervised=False, with_info=False, **kwargs):
    base = str(name).split("/")[0].split(":")[0]
    text = base in TFDS_TEXT
    # Any other image set: small RGB images, as every script resizes what it loads.
    shape, classes = (None, 2) if text else TFDS_IMAGES.get(base, ((64, 64, 3), 10))
    key = "text" if text else "image"

    def one(split_name):
        rows = TRAIN_ROWS if str(split_name).startswith("train") else TEST_ROWS
        if text:
            words = np.array(["a", "good", "bad", "film", "plot", "actor", "the", "very"])
            x = np.array([" ".join(_RNG.choice(words, size=12)) for _ in range(rows)])
        else:
            x = _RNG.integers(0, 256, size=(rows, *shape), dtype=np.uint8)
        y = _RNG.integers(0, classes, size=(rows,)).astype("int64")
        ds = tf.data.Dataset.from_tensor_slices((x, y))
        return ds if as_supervised else ds.map(lambda value, label: {key: value, "label": label})

    if split is None:
        result = {"train": one("train"), "test": one("test")}
    elif isinstance(split, (list, tuple)):
        result = [one(s) for s in split]
    else:
        result = one(split)
    return (result, _Info(base, classes)) if with_info else result


def _image_dataset_from_directory(directory=None, *args, labels="inferred", label_mode="int", class_names=None,
                                  color_mode="rgb", batch_size=32, image_size=(256, 256), validation_split=None,
                                  subset=None, **kwargs):
    classes = list(class_names or ["class_a", "class_b", "class_c"])
    channels = {"grayscale": 1, "rgb": 3, "rgba": 4}[color_mode]

    def one(rows):
        x = _RNG.uniform(0, 255, size=(rows, *image_size, channels)).astype("float32")
        y = _RNG.integers(0, len(classes), size=(rows,))
        if label_mode == "categorical":
            y = np.eye(len(classes), dtype="float32")[y]
        elif label_mode == "binary":
            y = (y % 2).astype("float32")[:, None]
        else:
            y = y.astype("int32")
        ds = tf.data.Dataset.from_tensor_slices(x if label_mode is None or labels is None else (x, y))
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds.class_names = classes  # as Keras sets it
        ds.file_paths = [f"{directory}/{i}.jpg" for i in range(rows)]
        return ds

    rows = 64
    if subset == "both":
        return one(rows), one(rows // 2)
    return one(rows // 2 if subset == "validation" else rows)


def _random_weights(function):
    # Pretrained weights are a download: the same architecture with random weights.
    @functools.wraps(function)
    def build(*args, **kwargs):
        if "weights" in kwargs:
            kwargs["weights"] = None
        return function(*args, **kwargs)

    return build


def _patch_applications(applications_module):
    for name in dir(applications_module):
        value = getattr(applications_module, name)
        if name[:1].isupper() and callable(value):
            try:
                parameters = inspect.signature(value).parameters
            except (TypeError, ValueError):
                continue
            if "weights" in parameters:
                setattr(applications_module, name, _random_weights(value))


def _install_patches():
    _observe_strategies()
    flavours = [keras]
    try:
        import tf_keras  # noqa: F401  (scripts may import it directly)

        flavours.append(tf_keras)
    except ImportError:
        pass
    if tf.keras not in flavours:
        flavours.append(tf.keras)
    for flavour in flavours:
        _guard_fit(flavour.Model)
        _short_evaluate(flavour.Model)
        _patch_keras_datasets(flavour.datasets)
        _patch_applications(flavour.applications)
        utils = flavour.utils
        if hasattr(utils, "image_dataset_from_directory"):
            utils.image_dataset_from_directory = _image_dataset_from_directory
        preprocessing = getattr(flavour, "preprocessing", None)
        if preprocessing is not None and hasattr(preprocessing, "image_dataset_from_directory"):
            preprocessing.image_dataset_from_directory = _image_dataset_from_directory
    try:
        import tensorflow_datasets as tfds

        tfds.load = _tfds_load
    except ImportError:
        pass


# Running one script ------------------------------------------------------------------


def _flag_names():
    try:
        from absl import flags

        return set(flags.FLAGS)
    except Exception:  # noqa: BLE001
        return set()


def _reset_between_scripts(flags_before):
    keras.backend.clear_session()
    with contextlib.suppress(Exception):
        keras.mixed_precision.set_global_policy("float32")
    with contextlib.suppress(Exception):
        tf.config.run_functions_eagerly(False)
    with contextlib.suppress(Exception):
        if tf.distribute.has_strategy():
            tf.distribute.experimental_set_strategy(None)
    with contextlib.suppress(Exception):
        from absl import flags

        for name in set(flags.FLAGS) - flags_before:
            delattr(flags.FLAGS, name)
        flags.FLAGS.unparse_flags()


def _fresh_collective_keys():
    """A new range of collective group keys for the next strategy made.

    TensorFlow's collective runtime remembers each (group key, instance key) it has run, with
    its tensor shape, for the life of the process, and every MirroredStrategy starts counting
    keys from the same base: a second script's all-reduce then meets the first script's shapes
    ("Shape mismatch in the collective instance 100 ... Restart your program to reset"). TF's
    own tests, which also make many strategies in one process, move the base on by 100000 for
    each strategy (tensorflow/python/distribute/strategy_combinations.py); so does this, after
    every strategy a script makes (see _observe_strategies), so that each script, and each
    strategy within one, runs as in a fresh process.
    """
    from tensorflow.python.distribute import collective_all_reduce_strategy, mirrored_strategy

    for cls in (mirrored_strategy.MirroredStrategy, mirrored_strategy.MirroredStrategyV1,
                collective_all_reduce_strategy.CollectiveAllReduceStrategy,
                collective_all_reduce_strategy.CollectiveAllReduceStrategyV1):
        cls._collective_key_base += 100000


def _message(error: BaseException) -> str:
    # Its start and its end: an error may quote a whole weight (numpy's repr) before its point.
    text = str(error)
    return text if len(text) <= 4000 else text[:2000] + "\n...\n" + text[-2000:]


_TIMER = {"fired": False}


def _on_alarm(signum, frame):
    # Remembered as well as raised: when the signal lands inside TensorFlow's C++ code, pybind11
    # replaces the ScriptTimeout with its own RuntimeError ("MISMATCH of original and normalized
    # active exception types"), and a run out of time must still read as out of time.
    _TIMER["fired"] = True
    raise ScriptTimeout()


def run_one(path: Path, flags_before, folder: Path | None = None) -> dict:
    _reset_record()
    random.seed(0)
    np.random.seed(0)
    tf.random.set_seed(0)
    out = io.StringIO()
    here = os.getcwd()
    argv = sys.argv
    started, cpu_started = time.monotonic(), time.process_time()
    outcome = {"file": str(path), "exception": None, "message": "", "traceback": ""}
    # A script's environment is its own: MG401's scripts set TF_CONFIG to a two-worker cluster,
    # and a later script's MultiWorkerMirroredStrategy would wait for those workers for ever.
    environment = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="mg-corpus-") as work:
        os.chdir(work)
        sys.argv = [str(path)]
        folder = folder or path.parent
        sys.path.insert(0, str(folder))
        _TIMER["fired"] = False
        signal.signal(signal.SIGPROF, _on_alarm)
        signal.setitimer(signal.ITIMER_PROF, ARGS.timeout)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                runpy.run_path(str(path), run_name="__main__")
        except SystemExit as stop:
            if stop.code not in (None, 0):
                outcome.update(exception="SystemExit", message=str(stop.code))
        except BaseException as error:  # noqa: BLE001  (the script's failure is the observation)
            if _TIMER["fired"]:  # a ScriptTimeout, or what TensorFlow turned it into
                outcome.update(exception="Timeout", message=f"still running after {ARGS.timeout:.0f} CPU seconds")
            else:
                outcome.update(
                    exception=type(error).__name__,
                    guard=isinstance(error, MirrorGuardError),
                    message=_message(error),
                    traceback="".join(traceback.format_exception(type(error), error, error.__traceback__))[-3000:],
                )
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            sys.argv = argv
            with contextlib.suppress(ValueError):  # unless the script took it out itself
                sys.path.remove(str(folder))
            os.chdir(here)
            os.environ.clear()
            os.environ.update(environment)
    outcome.update(RECORD, seconds=round(time.monotonic() - started, 2),
                   cpu_seconds=round(time.process_time() - cpu_started, 2), output_tail=out.getvalue()[-800:])
    with contextlib.suppress(Exception):
        _reset_between_scripts(flags_before)
    return outcome


def _judged(result: dict) -> bool:
    from tests.corpus_runtime.harness import JUDGED, classify

    return classify(result)[0] in JUDGED


_PROCESS_WIDE_STRATEGIES = frozenset({"CollectiveAllReduceStrategy", "CollectiveAllReduceStrategyV1",
                                      "ParameterServerStrategyV2", "ParameterServerStrategyV1"})


def main():
    _install_patches()
    flags_before = _flag_names()
    for entry in ARGS.files:
        # FILE, or FILE::FIXED: FIXED (mirrorguard fix's copy of FILE) runs next, in the same
        # process and with FILE's folder on sys.path, when FILE itself got a verdict.
        name, _, fixed = entry.partition("::")
        print(START + json.dumps(name), file=REAL_STDOUT, flush=True)
        result = run_one(Path(name).resolve(), flags_before)
        outcome: dict = {}
        print(PREFIX + json.dumps(result), file=REAL_STDOUT, flush=True)
        if fixed:
            print(START + json.dumps(fixed), file=REAL_STDOUT, flush=True)
            if _judged(result):
                outcome = run_one(Path(fixed).resolve(), flags_before, folder=Path(name).resolve().parent)
            else:
                outcome = {"file": str(Path(fixed).resolve()), "skipped": "the original got no verdict"}
            print(PREFIX + json.dumps(outcome), file=REAL_STDOUT, flush=True)
        made = set(result.get("strategies", ())) | set(outcome.get("strategies", ()))
        # The process ends here, and harness.py starts a fresh one for the rest, when the script
        # changed TensorFlow for every later script:
        # - a MultiWorkerMirroredStrategy (even a single-worker one) or a ParameterServerStrategy
        #   sets up the collective runtime for the whole process, and a later MirroredStrategy
        #   all-reduce stops with "Shape mismatch in the collective instance 100";
        # - graph mode for good, by the script (tf.compat.v1.disable_eager_execution) or by a
        #   time-out that stopped TensorFlow half-way into a graph ("__iter__() is only supported
        #   inside of tf.function").
        if made & _PROCESS_WIDE_STRATEGIES or not tf.executing_eagerly():
            print(STOPPED + json.dumps(entry), file=REAL_STDOUT, flush=True)
            return


if __name__ == "__main__":
    main()
