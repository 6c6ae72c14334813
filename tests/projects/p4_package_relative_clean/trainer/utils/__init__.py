from .distribution import get_strategy, global_batch_size

__all__ = ["get_strategy", "global_batch_size"]
