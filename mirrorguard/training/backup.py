"""Refuse a --backup-dir that holds anything but a backup.

The backup folder is deleted when training finishes (Keras's ``BackupAndRestore``
does it for ``fit``, the custom loop does the same), so ``--backup-dir .`` or a
folder of the user's own files would be wiped. A folder that does not exist, is
empty, or holds only what the script's backups write is fine.
"""

from __future__ import annotations

import os
import re

from mirrorguard.training.devices import SetupError

# What a backup writes at the top of its folder: Keras 3's BackupAndRestore,
# tf-keras's (a "chief" checkpoint folder, "workertemp_N" on other workers) and the
# custom loop's tf.train.CheckpointManager (including a save cut short by a kill).
_BACKUP_ENTRY = re.compile(
    r"(?:latest\.weights\.h5|training_metadata\.json)(?:\.bkp)?"
    r"|chief|workertemp_\d+"
    r"|checkpoint|ckpt-\d+(?:\.index|\.data-\d+-of-\d+|_temp\S*)"
)


def check_backup_dir(path: str) -> None:
    """Raise SetupError when ``path`` exists and holds something a backup did not write."""
    if not os.path.exists(path):
        return
    if not os.path.isdir(path):
        raise SetupError(f"--backup-dir {path} is a file, not a folder; name a new or empty folder")
    foreign = sorted(name for name in os.listdir(path) if not _BACKUP_ENTRY.fullmatch(name))
    if foreign:
        shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise SetupError(
            f"--backup-dir {path} holds files that are not a training backup ({shown}); it is "
            "deleted when training finishes, so name a new or empty folder"
        )
