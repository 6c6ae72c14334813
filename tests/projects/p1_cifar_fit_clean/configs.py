"""Hyper-parameters for the CIFAR-10 run."""
from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    per_replica_batch_size: int = 64
    epochs: int = 10
    learning_rate: float = 1e-3
    image_size: int = 32
    num_classes: int = 10
    augment: bool = True
    layers: list = field(default_factory=lambda: [32, 64, 128])


EVAL_BATCH_SIZE = 256
