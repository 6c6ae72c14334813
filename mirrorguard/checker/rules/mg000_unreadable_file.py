"""MG000 unreadable-file: a file that cannot be decoded or parsed."""

from mirrorguard.checker.rules.base import Rule

RULE = Rule(
    code="MG000",
    name="unreadable-file",
    summary="A file that cannot be decoded or parsed",
    docs="""
    ## What it does
    Reports a file that does not parse: a syntax error or a NUL byte, as flake8's
    `E999` does. The message says which, and where. The run goes on with the
    other files. Bytes that do not decode in the file's declared encoding (PEP 263:
    BOM, then `# -*- coding: ... -*-`, else UTF-8) are not MG000 for
    `mirrorguard check`: like flake8, it reads such a file as latin-1, checks it
    and warns naming the first bad byte (`fix` leaves such a file alone).

    ## Why is this bad?
    Nothing in the file can be checked, so a scope mistake in it would pass
    unseen. Under flake8 the same file is reported by flake8 itself as `E999`
    and the plugin is not run on it.

    ## Example
    ```python
    with strategy.scope()
        model = build_model()
    ```

    ## Use instead
    ```python
    with strategy.scope():
        model = build_model()
    ```
    """,
)
