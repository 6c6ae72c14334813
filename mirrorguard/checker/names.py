"""What the checker knows about TensorFlow and Keras names.

The predicates are pure functions of a name, cached: the analysis asks them
about the same few hundred names over and over.

Every dotted name the analysis resolves is first *canonicalised*: the many
spellings of one API (``tf.keras``, ``tensorflow.keras``, ``tf_keras``,
``tf.compat.v2.keras``, ``tensorflow.python.keras``) become one (``keras``), so
the tables below list each API once.
"""

from __future__ import annotations

import enum
import functools
import re

# Longest prefix first: the first match wins.
_CANONICAL_PREFIXES: tuple[tuple[str, str], ...] = (
    ("tensorflow.compat.v2.keras", "keras"),
    ("tensorflow.compat.v1.keras", "keras"),
    ("tensorflow.python.keras", "keras"),
    ("tensorflow.keras", "keras"),
    # TF2's own aliases of Keras's optimizers and metrics: tf.optimizers.Adam.
    ("tensorflow.optimizers", "keras.optimizers"),
    ("tensorflow.metrics", "keras.metrics"),
    ("tensorflow.compat.v2", "tensorflow"),
    ("tensorflow.compat.v1", "tensorflow"),
    ("tf_keras", "keras"),
    ("keras.api._v2.keras", "keras"),
    ("keras.api", "keras"),
    ("keras._tf_keras.keras", "keras"),
    ("keras.src.engine.sequential", "keras.models"),
    ("keras.src.engine.training", "keras.models"),
    ("keras.src.models.sequential", "keras.models"),
    ("keras.src.models.model", "keras.models"),
    ("keras.src.models.cloning", "keras.models"),
    ("keras.src.models", "keras.models"),
    ("keras.src.saving.saving_api", "keras.saving"),
    ("keras.src.saving", "keras.saving"),
    ("keras.src.optimizers", "keras.optimizers"),
    ("keras.src.metrics", "keras.metrics"),
    ("keras.src.applications", "keras.applications"),
    ("keras.engine.sequential", "keras.models"),
    ("keras.engine.training", "keras.models"),
    ("kerastuner.tuners", "keras_tuner"),
    ("kerastuner.engine.tuner", "keras_tuner"),
    ("kerastuner", "keras_tuner"),
    ("keras_tuner.tuners", "keras_tuner"),
    ("keras_tuner.engine.tuner", "keras_tuner"),
)


# What an unimported ``tf`` or ``keras`` means in a notebook cell or a script
# that gets them from a star import: everyone spells them this way.
CONVENTIONAL_NAMES = {"tf": "tensorflow", "keras": "keras", "tf_keras": "keras"}


@functools.lru_cache(maxsize=4096)
def canonical(qualified: str) -> str:
    """Return the one spelling the tables below use for ``qualified``."""
    for prefix, replacement in _CANONICAL_PREFIXES:
        if qualified == prefix or qualified.startswith(prefix + "."):
            return replacement + qualified[len(prefix):]
    return qualified


# --- strategies -------------------------------------------------------------

STRATEGY_CLASSES = frozenset(
    {
        "MirroredStrategy",
        "MultiWorkerMirroredStrategy",
        "TPUStrategy",
        "CentralStorageStrategy",
        "ParameterServerStrategy",
        "OneDeviceStrategy",
    }
)


@functools.lru_cache(maxsize=4096)
def strategy_class(name: str) -> str | None:
    """The strategy class a canonical name constructs, or None.

    ``tensorflow.distribute.MirroredStrategy``,
    ``tensorflow.distribute.experimental.MultiWorkerMirroredStrategy`` and the
    private ``tensorflow.python.distribute.*`` spellings all count.
    """
    head, _, last = name.rpartition(".")
    if last in STRATEGY_CLASSES and head.startswith("tensorflow") and "distribute" in head:
        return last
    return None


# APIs through which an Estimator distributes (no strategy scope involved).
ESTIMATOR_DISTRIBUTION = frozenset(
    {"tensorflow.estimator.RunConfig", "keras.estimator.model_to_estimator"}
)

# Checkpointing, exporting or drawing a model neither trains it nor hands it on.
CHECKPOINTS = frozenset(
    {"tensorflow.train.Checkpoint", "tensorflow.train.CheckpointManager", "tensorflow.saved_model.save",
     "keras.utils.plot_model", "keras.models.save_model", "keras.saving.save_model"}
)


class CallRole(enum.Enum):
    """What calling a qualified name means to the strategy analysis."""

    STRATEGY = "strategy"  # constructs a strategy
    GET_STRATEGY = "get_strategy"  # the current strategy, whatever scope the caller entered
    SET_STRATEGY = "set_strategy"  # experimental_set_strategy: what follows runs as in its scope
    ESTIMATOR = "estimator"  # an Estimator distributes (RunConfig(train_distribute=...))
    CHECKPOINT = "checkpoint"  # checkpoints, exports or draws a model: its arguments are not trained
    APP_RUN = "app_run"  # absl's app.run(main): the program's entry


@functools.lru_cache(maxsize=4096)
def call_role(qualified: tuple[str, ...]) -> CallRole | None:
    """The role of a call of one of ``qualified``, if it has one."""
    for name in qualified:
        if strategy_class(name):
            return CallRole.STRATEGY
        if name in GET_STRATEGY:
            return CallRole.GET_STRATEGY
        if name in SET_STRATEGY:
            return CallRole.SET_STRATEGY
        if name in ESTIMATOR_DISTRIBUTION or name.startswith("tensorflow.contrib.distribute"):
            return CallRole.ESTIMATOR
        if name in CHECKPOINTS:
            return CallRole.CHECKPOINT
        if name.endswith("app.run"):
            return CallRole.APP_RUN
    return None


GET_STRATEGY = frozenset({"tensorflow.distribute.get_strategy"})
SET_STRATEGY = frozenset(
    {"tensorflow.distribute.experimental_set_strategy", "tensorflow.distribute.set_strategy"}
)

# Names that say "this is a strategy": strategy, mirrored_strategy, strat,
# distribution_strategy, tpuStrategy, strategy2, dist_strat.
_STRATEGY_NAME = re.compile(r"(?i)^_*(?:\w*strategy|strat|\w+_strat)\d*$")


@functools.lru_cache(maxsize=4096)
def says_strategy(identifier: str) -> bool:
    return bool(_STRATEGY_NAME.match(identifier))


# A call whose function name says it hands back a strategy scope, such as
# tensorflow_ranking's ``strategy_utils.strategy_scope(strategy)``.
@functools.lru_cache(maxsize=4096)
def says_strategy_scope(identifier: str) -> bool:
    return identifier.lower().endswith("strategy_scope")


# --- models -----------------------------------------------------------------

MODEL_CLASSES = frozenset(
    {
        "keras.Sequential",
        "keras.Model",
        "keras.models.Sequential",
        "keras.models.Model",
        "keras.Functional",
        "keras.models.Functional",
    }
)

# Subclassing one of these makes a class a Keras model.
MODEL_BASES = MODEL_CLASSES
CALLBACK_BASES = frozenset({"keras.callbacks.Callback"})

_PRESET_PACKAGES = ("keras_hub.models.", "keras_nlp.models.", "keras_cv.models.")


@functools.lru_cache(maxsize=4096)
def builds_model(name: str) -> bool:
    """True when calling ``name`` constructs a Keras model with fresh variables."""
    if name in MODEL_CLASSES:
        return True
    head, _, last = name.rpartition(".")
    # Hugging Face's TF models (TFAutoModel*, TFBertModel...): from_pretrained
    # and from_config construct a Keras model; it is no reload of one.
    if last in ("from_pretrained", "from_config") and head.startswith("transformers.TF"):
        return True
    if name.startswith("keras.applications."):
        # Classes and constructors are capitalised (ResNet50, EfficientNetB0);
        # the lower-case helpers (preprocess_input, decode_predictions) hold
        # no variables.
        return name.rpartition(".")[2][:1].isupper()
    if name.startswith(_PRESET_PACKAGES):
        head, _, last = name.rpartition(".")
        owner = head.rpartition(".")[2] if last == "from_preset" else last
        # Tokenizers and preprocessors hold no trainable model.
        if owner.endswith(("Tokenizer", "Preprocessor", "Converter", "Packer")):
            return False
        return last == "from_preset" or last[:1].isupper()
    return False


# Layers that own no variables (measured in FACTS.md: a Sequential of these
# made outside the scope and used inside trains on both Keras flavours).
# Normalization, TextVectorization and other adapt()-ed layers hold state: not here.
WEIGHTLESS_LAYERS = frozenset(
    {
        "RandomFlip", "RandomRotation", "RandomZoom", "RandomTranslation", "RandomContrast",
        "RandomBrightness", "RandomCrop", "RandomHeight", "RandomWidth", "RandomGrayscale",
        "RandomHue", "RandomSaturation", "RandomSharpness", "RandomShear", "RandomColorJitter",
        "RandomErasing", "RandomGaussianBlur", "RandomInvert", "RandomPerspective",
        "RandomPosterization", "RandomColorDegeneration", "RandomElasticTransform", "Solarization",
        "AutoContrast", "Equalization", "MixUp", "CutMix", "AugMix", "RandAugment",
        "Rescaling", "Resizing", "CenterCrop", "GaussianNoise", "GaussianDropout", "Dropout",
        "Flatten", "Reshape", "Permute", "Activation", "InputLayer",
        # keras_cv's box-aware augmentation layers.
        "JitteredResize", "Mosaic", "GridMask", "ChannelShuffle", "Grayscale", "Posterization",
        "FourierMix", "RandomAugmentationPipeline", "RandomChoice",
        # Pooling, merging, padding, cropping and activation layers own no variables either.
        "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D", "AveragePooling2D",
        "AveragePooling3D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D",
        "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalAveragePooling3D", "MaxPool2D",
        "AvgPool2D", "Concatenate", "Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Dot",
        "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D", "Cropping1D", "Cropping2D", "Cropping3D",
        "UpSampling1D", "UpSampling2D", "UpSampling3D", "RepeatVector", "Masking", "SpatialDropout1D",
        "SpatialDropout2D", "SpatialDropout3D", "AlphaDropout", "ActivityRegularization", "ReLU", "Softmax",
        "LeakyReLU", "ELU", "ThresholdedReLU", "Identity",
    }
)


@functools.lru_cache(maxsize=4096)
def weightless_layer(name: str) -> bool:
    """``keras.layers.RandomFlip`` (or its ``experimental.preprocessing`` spelling)."""
    head, _, last = name.rpartition(".")
    return last in WEIGHTLESS_LAYERS and head.startswith(("keras.layers", "keras_cv.layers", "keras_hub.layers"))


LOADERS = frozenset(
    {
        "keras.models.load_model",
        "keras.saving.load_model",
        "keras.models.clone_model",
        "keras.models.model_from_json",
        "keras.models.model_from_config",
        "keras.models.model_from_yaml",
        "keras.saving.model_from_json",
        "keras.Model.from_config",
        "keras.models.Model.from_config",
        "keras.Sequential.from_config",
        "keras.models.Sequential.from_config",
    }
)


@functools.lru_cache(maxsize=4096)
def loads_model(name: str) -> bool:
    """True when calling ``name`` loads, clones or deserialises a Keras model."""
    if name in LOADERS:
        return True
    return False


# --- optimizers and metrics -------------------------------------------------

@functools.lru_cache(maxsize=4096)
def creates_optimizer(name: str) -> bool:
    """True for optimizer constructors (they create slot and iteration variables)."""
    head, _, last = name.rpartition(".")
    if name.startswith("keras.optimizers.schedules."):
        return False  # learning-rate schedules hold no variables
    if name in {"keras.optimizers.get", "keras.optimizers.deserialize"}:
        return True
    if name.startswith("keras.mixed_precision."):
        return last.endswith("Optimizer")  # not Policy
    if name.startswith(("keras.optimizers.", "tensorflow_addons.optimizers.")):
        return last[:1].isupper()
    return name in {"transformers.AdamWeightDecay", "transformers.create_optimizer"}


@functools.lru_cache(maxsize=4096)
def creates_metric(name: str) -> bool:
    """True for metric classes; the lower-case metric functions are stateless."""
    if name in ("keras.metrics.get", "keras.metrics.deserialize"):
        return True  # returns a metric object for a class name or a config
    if name.startswith(("keras.metrics.", "tensorflow_addons.metrics.")):
        return name.rpartition(".")[2][:1].isupper()
    return False


# --- batches ----------------------------------------------------------------

BATCH_METHODS = frozenset({"batch", "padded_batch", "ragged_batch"})
# tf.data functions applied with Dataset.apply(...) that batch: (name, position of the size).
BATCH_FUNCTIONS = {
    "tensorflow.data.experimental.dense_to_ragged_batch": 0,
    "tensorflow.data.experimental.bucket_by_sequence_length": 2,
}
# Hugging Face methods that return a batched tf.data dataset: (method, position of batch_size).
HF_BATCH_METHODS = {"prepare_tf_dataset": 1, "to_tf_dataset": None}
# Keras's default batch_size for fit/evaluate on arrays.
KERAS_DEFAULT_BATCH_SIZE = 32
# Keras methods whose batch_size is the global batch: (method, positional index
# of batch_size counting from 0 for the first argument after self).
BATCH_SIZE_POSITION = {"fit": 2, "evaluate": 2}
DATASET_FROM_DIRECTORY = frozenset(
    {
        "keras.utils.image_dataset_from_directory",
        "keras.utils.text_dataset_from_directory",
        "keras.utils.audio_dataset_from_directory",
        "keras.preprocessing.image_dataset_from_directory",
        "keras.preprocessing.text_dataset_from_directory",
        "keras.utils.timeseries_dataset_from_array",
        "keras.preprocessing.timeseries_dataset_from_array",
    }
)
# APIs that call a dataset function once per input pipeline with an
# InputContext: a batch size inside that function is per replica.
PER_REPLICA_DATASET_APIS = frozenset(
    {
        "distribute_datasets_from_function",
        "experimental_distribute_datasets_from_function",
        "distribute_values_from_function",
    }
)
# Dataset methods whose function works on one element (a window, a group):
# a batch inside it batches that element, not the dataset.
ELEMENT_FUNCTION_METHODS = frozenset({"flat_map", "interleave", "group_by_window", "window"})
# Functions handed to these run once per replica.
REPLICA_RUN_APIS = frozenset({"run", "experimental_run_v2", "call_for_each_replica"})

# The strings Keras accepts as optimizer=, for model.compile("adam", "mse").
OPTIMIZER_NAMES = frozenset(
    {"adam", "adamw", "sgd", "rmsprop", "adagrad", "adadelta", "adamax", "nadam", "ftrl", "lion", "adafactor"}
)

# Keras keywords that only model.compile takes: they tell model.compile(...)
# apart from re.compile(...) and friends when the receiver is unknown.
COMPILE_KEYWORDS = frozenset(
    {
        "optimizer",
        "loss",
        "metrics",
        "loss_weights",
        "weighted_metrics",
        "run_eagerly",
        "steps_per_execution",
        "jit_compile",
        "auto_scale_loss",
        "target_tensors",
        "sample_weight_mode",
    }
)


# --- variables, layers and tuners ---------------------------------------------

VARIABLE_CONSTRUCTORS = frozenset(
    {"tensorflow.Variable", "keras.Variable", "tensorflow.train.get_or_create_global_step"}
)

# hub.KerasLayer loads its weights when it is constructed.
LAYERS_LOADED_ON_CONSTRUCTION = frozenset({"tensorflow_hub.KerasLayer"})

# Lookup and hashing layers keep tables, not variables that need mirroring.
_STATELESS_LOOKUPS = frozenset({"Hashing", "CategoryEncoding", "HashedCrossing"})
# Layers whose adapt() creates state that must be made in the scope: Normalization's
# statistics; the lookup layers' vocabulary (tf-keras fails `fit` with "Variable
# (VocabWeightHandler) was not created in the distribution strategy scope").
LOOKUP_LAYERS = frozenset({"TextVectorization", "StringLookup", "IntegerLookup"})
ADAPTED_WITH_VARIABLES = frozenset(
    {"Normalization", "TextVectorization", "StringLookup", "IntegerLookup", "Discretization"}
)


@functools.lru_cache(maxsize=4096)
def creates_layer(name: str) -> bool:
    """A Keras layer class that owns variables once built."""
    head, _, last = name.rpartition(".")
    if not head.startswith("keras.layers") or not last[:1].isupper():
        return False
    return last not in WEIGHTLESS_LAYERS and last not in _STATELESS_LOOKUPS and last not in ("Input", "InputSpec")


TUNERS = frozenset(
    {
        "keras_tuner.RandomSearch", "keras_tuner.Hyperband", "keras_tuner.BayesianOptimization",
        "keras_tuner.GridSearch", "keras_tuner.Tuner",
    }
)
