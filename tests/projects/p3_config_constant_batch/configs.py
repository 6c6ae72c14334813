"""Experiment settings, as a plain dict and module constants."""
BATCH_SIZE = 128
SEQ_LEN = 200
VOCAB_SIZE = 20_000

CONFIG = {
    "embed_dim": 128,
    "num_heads": 4,
    "ff_dim": 256,
    "epochs": 3,
    "val_batch_size": 256,
}


class DataConfig:
    batch_size = 64
    shuffle_buffer = 10_000
