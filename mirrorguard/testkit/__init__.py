"""mirrorguard test kit: run the multi-replica path in CI without GPUs."""
