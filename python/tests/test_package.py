"""The package as installed: the right copy, documented, typed."""
import os
import pydoc

import dtb


def test_the_installed_package_is_the_one_tested():
    # CTest runs the suite with the interpreter of a venv into which
    # `pip install ./python` installed dtb: the source tree must not shadow it.
    expected = os.environ.get("DTB_EXPECT_INSTALLED_UNDER")
    if expected:
        assert os.path.realpath(dtb.__file__).startswith(os.path.realpath(expected)), dtb.__file__


def test_help_documents_the_api():
    text = pydoc.render_doc(dtb, renderer=pydoc.plaintext)
    for name in ("open_tablebase", "probe_wdl", "probe_dtw", "probe_rule", "best_move", "probe_wdl_many",
                 "material_positions", "MissingTableError", "legal_moves", "probe_mtc", "probe_rules",
                 "best_move_rules", "probe_mtc_many", "probe_rules_many", "NotExactError"):
        assert name in text, name
    assert dtb.Tablebase.probe_wdl_many.__doc__ and dtb.Position.push.__doc__


def test_typed_and_versioned():
    package = os.path.dirname(dtb.__file__)
    assert os.path.exists(os.path.join(package, "py.typed"))
    assert os.path.exists(os.path.join(package, "_dtb.pyi"))
    assert dtb._dtb.API_VERSION == 1
    assert dtb.__version__
