"""Say when a run resumes from a backup instead of starting afresh.

``BackupAndRestore`` and ``tf.train.CheckpointManager`` restore silently; a user
who restarted a killed run, or who forgot an old backup folder, should see it.
"""

from __future__ import annotations


def announce(epochs_done: int) -> None:
    """Print which epoch (1-based, as Keras counts them) training resumes from."""
    if epochs_done > 0:
        print(f"Resuming from epoch {epochs_done + 1}", flush=True)


def announce_callback(tf):
    """A Keras callback that announces the epoch ``fit`` starts from, when it is not the first.

    Put it after ``BackupAndRestore`` in the callbacks list: by then the backup,
    if any, has been restored and ``fit`` begins with the interrupted epoch.
    """
    first_epoch = []

    def on_epoch_begin(epoch, logs=None):
        if not first_epoch:
            first_epoch.append(epoch)
            announce(epoch)

    return tf.keras.callbacks.LambdaCallback(on_epoch_begin=on_epoch_begin)


def mismatch_message(backup_dir: str, error: BaseException) -> str:
    """The error for a backup that does not fit the model being trained."""
    first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if len(first_line) > 160:  # TensorFlow's messages can quote whole tensors
        first_line = first_line[:157] + "..."
    return (
        f"the backup in {backup_dir} does not match this model ({first_line}); it is from another "
        "run: delete it or pass another --backup-dir"
    )
