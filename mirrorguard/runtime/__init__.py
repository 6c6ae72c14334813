"""What the runtime side needs from TensorFlow and Keras beyond their public API.

Every private attribute, module or frame of TensorFlow or Keras that mirrorguard reads
lives in :mod:`mirrorguard.runtime.compat`, named for what it gives, so that a Keras or
TensorFlow release that moves one breaks one function and its test, never a guard silently.
"""
