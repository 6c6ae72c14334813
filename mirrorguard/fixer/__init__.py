"""``mirrorguard fix``: move model construction, optimizers and compile into the strategy scope."""
