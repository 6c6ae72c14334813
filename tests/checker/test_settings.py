"""What settings change in the analysis: names configured as strategy or model factories, summaries
of other files' helpers, and a rule that is off unless selected (MG405)."""

from __future__ import annotations

import textwrap

from mirrorguard.checker import check_source
from mirrorguard.checker.core import Settings
from mirrorguard.cli import main
from tests.checker.cases.mg405 import TUTORIAL


def test_configured_strategy_factory_puts_a_strategy_in_play():
    source = textwrap.dedent("""
        import tensorflow as tf
        from infra import make_dist
        dist = make_dist()
        model = tf.keras.Sequential()
        with dist.scope():
            model.compile(optimizer="adam", loss="mse")
    """).lstrip("\n")
    assert check_source(source) == []
    found = check_source(source, settings=Settings(extra_strategy_names=("make_dist",)))
    assert [(f.line, f.code) for f in found] == [(4, "MG101")]


def test_configured_model_factory_is_a_model_constructor():
    source = textwrap.dedent("""
        import tensorflow as tf
        from zoo import create_net
        strategy = tf.distribute.MirroredStrategy()
        net = create_net("resnet")
        net.fit(ds)
    """).lstrip("\n")
    # Unknown to be a model: only that nothing uses the strategy is known (MG107).
    assert [(f.line, f.code) for f in check_source(source)] == [(3, "MG107")]
    found = check_source(source, settings=Settings(extra_model_factories=("create_net",)))
    assert [(f.line, f.code) for f in found] == [(4, "MG101")]


def test_relative_module_import_resolves_for_cross_file_summaries():
    source = textwrap.dedent("""
        import tensorflow as tf
        from . import nets
        strategy = tf.distribute.MirroredStrategy()
        model = nets.build_model()
        model.fit(ds)
    """).lstrip("\n")
    external = {".nets.build_model": frozenset({"MG101"})}
    found = check_source(source, settings=Settings(external=external))
    assert [(f.line, f.code) for f in found] == [(4, "MG101")]


def test_bare_configured_factory_without_import():
    source = "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\nnet = create_net()\nnet.fit(ds)\n"
    found = check_source(source, settings=Settings(extra_model_factories=("create_net",)))
    assert [(f.line, f.code) for f in found] == [(3, "MG101")]


def _mg4(findings):
    return [(f.line, f.code) for f in findings if f.code.startswith("MG4")]


def test_mg405_is_off_by_default_and_on_when_selected(tmp_path):
    assert ("MG405" not in {f.code for f in check_source(TUTORIAL, "main.py")})
    assert _mg4(check_source(TUTORIAL, "main.py", Settings(select=("MG405",)))) == [(19, "MG405")]
    # The command line leaves it off too, and extend-select turns it on.
    script = tmp_path / "main.py"
    script.write_text(TUTORIAL, encoding="utf-8")
    assert main(["check", "--select", "MG404", str(script)]) == 1  # the fit itself, on Keras 3
    assert main(["check", "--select", "MG405", str(script)]) == 1
    (tmp_path / "pyproject.toml").write_text('[tool.mirrorguard]\nignore = ["MG404"]\n', encoding="utf-8")
    assert main(["check", str(script)]) == 0
