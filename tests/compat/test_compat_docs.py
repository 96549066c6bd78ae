"""Docstrings: Google style, first line says what is computed, and the >>> examples run."""

import doctest
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import compat


@pytest.mark.parametrize("name", compat.__all__)
def test_docstring_example_runs(name):
    fn = getattr(compat, name)
    test = doctest.DocTestParser().get_doctest(fn.__doc__, {}, name, None, 0)
    assert test.examples, f"{name} has no >>> example"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0


@pytest.mark.parametrize("name", compat.__all__)
def test_docstring_is_google_style(name):
    doc = getattr(compat, name).__doc__
    first = doc.splitlines()[0]
    assert first.startswith("Computes ") and first.endswith(".")
    assert "\n\nArgs:\n    f_or_y" in doc and "\n\nReturns:\n" in doc and "\n\nExample:\n" in doc


def test_import_works_without_tensorflow():
    code = textwrap.dedent(
        """
        import sys
        sys.modules["tensorflow"] = None  # makes `import tensorflow` fail
        import compat
        try:
            compat.jacobian(lambda x: x, 1.0)
        except ImportError as err:
            print(err)
        """
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert "compat needs TensorFlow" in out.stdout
