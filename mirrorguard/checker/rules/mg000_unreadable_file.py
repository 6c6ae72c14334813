"""MG000 unreadable-file: a file that cannot be decoded or parsed."""

from mirrorguard.checker.rules.base import Rule

RULE = Rule(
    code="MG000",
    name="unreadable-file",
    summary="A file that cannot be decoded or parsed",
    docs="""
    ## What it does
    Reports a file that Python itself would refuse: bytes that do not decode in
    the file's declared encoding (PEP 263: BOM, then `# -*- coding: ... -*-`,
    else UTF-8), a NUL byte, or a syntax error. The message says which, and
    where. The run goes on with the other files.

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
