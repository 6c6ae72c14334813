"""pytest plugin: logical CPU devices and a MirroredStrategy fixture (being written)."""
