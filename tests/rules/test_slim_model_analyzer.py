"""slim-model-analyzer: slim.model_analyzer.analyze_vars -> a helper that prints slim's table, in compat output."""
import subprocess
import sys

import pytest

from tf_migrate.engine import migrate_source
from tests.twins import run_compat

PROGRAM = '''import tensorflow as tf
{imports}

def show_all_variables():
    model_vars = tf.trainable_variables()
    {slim}.model_analyzer.analyze_vars(model_vars, print_info=True)


w = tf.get_variable("w", [5, 3, 2])
b = tf.Variable(tf.zeros([4], tf.int32), name="b")
show_all_variables()
print({slim}.model_analyzer.analyze_vars([w]))
'''
# What slim printed under TF1 (contrib/slim/python/slim/model_analyzer.py): a header, one line per variable
# (ref variables' dtypes end in _ref), the totals.
TABLE = """---------
Variables: name (type shape) [size]
---------
w:0 (float32_ref 5x3x2) [30, bytes: 120]
b:0 (int32_ref 4) [4, bytes: 16]
Total size of variables: 34
Total bytes of variables: 136
(30, 120)
"""


@pytest.mark.parametrize("imports, slim", [
    ("import tensorflow.contrib.slim as slim", "slim"),
    ("from tensorflow.contrib import slim as tf_slim", "tf_slim"),
    ("", "tf.contrib.slim"),
])
def test_table_printed_as_slim_did(imports, slim):
    result = migrate_source(PROGRAM.format(imports=imports, slim=slim), "case.py", mode="compat")
    assert "contrib" not in result.new_source.replace("(TF2 has no tf.contrib.slim)", "")
    assert "    analyze_vars(model_vars, print_info=True)\n" in result.new_source
    assert "def analyze_vars(variables, print_info=False):" in result.new_source
    assert not [f for f in result.findings if f.severity == "error"]
    # The compat run shares this process (tests.twins.run_compat): its variables are resource variables, whose
    # dtypes lack _ref, unless a test this worker ran before turned TF1's ref variables on. The table is the same.
    assert run_compat(result.new_source).replace("_ref", "") == TABLE.replace("_ref", "")


def test_table_in_its_own_process_has_ref_dtypes(tmp_path):
    result = migrate_source(PROGRAM.format(imports="import tensorflow.contrib.slim as slim", slim="slim"), "case.py",
                            mode="compat")
    program = tmp_path / "program.py"
    program.write_text(result.new_source)
    run = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, timeout=120)
    assert run.stdout == TABLE, run.stderr[-2000:]


@pytest.mark.parametrize("extra", [
    pytest.param("net = slim.fully_connected(x, 3)\n", id="another slim call keeps the import"),
    pytest.param("tools = slim\n", id="slim passed as a value"),
])
def test_left_alone(extra):
    source = ("import tensorflow as tf\nimport tensorflow.contrib.slim as slim\nx = tf.placeholder(tf.float32, [1, 2])\n"
              + extra + "slim.model_analyzer.analyze_vars(tf.trainable_variables(), print_info=True)\n")
    result = migrate_source(source, "case.py", mode="compat")
    assert "import tensorflow.contrib.slim as slim" in result.new_source
    assert "def analyze_vars" not in result.new_source
    assert any(f.severity == "error" for f in result.findings)


def test_helper_name_is_fresh():
    source = ("import tensorflow as tf\nimport tensorflow.contrib.slim as slim\nanalyze_vars = None\n"
              "slim.model_analyzer.analyze_vars(tf.trainable_variables())\n")
    result = migrate_source(source, "case.py", mode="compat")
    assert "def analyze_vars_2(variables" in result.new_source
    assert "\nanalyze_vars_2(tf.trainable_variables())\n" in result.new_source
