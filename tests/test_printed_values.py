"""Tensors formatted into text outside any run (analysis/printed_values): TF1 wrote their graph description, an eager
tensor formats as its value alone, so the file stays compat; printed or made a string they write their description
with the value, which the verifier pairs with TF1's."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

BASICS = """import tensorflow as tf
node1 = tf.constant(3.0, dtype=tf.float32)
node2 = tf.constant(4.0)
node3 = tf.add(node1, node2)
{line}
sess = tf.Session()
print(sess.run(node3))
"""


@pytest.mark.parametrize("line", [
    pytest.param('print("node1: {}, node2: {}".format(node1, node2))', id="str.format"),
    pytest.param('print(f"node3: {node3}")', id="an f-string"),
    pytest.param('print(format(node1))', id="format()"),
])
def test_a_tensor_formatted_outside_a_run_keeps_the_file_compat(line, tmp_path):
    source = BASICS.format(line=line)
    result = migrate_source(source, "basics.py")
    assert result.outcome == "compat"
    assert "a tensor, is formatted outside sess.run" in result.compat_reason
    verdict = verify_program(source, result.new_source, path=tmp_path / "basics.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


@pytest.mark.parametrize("line", [
    pytest.param("print(node1, node2)", id="printed"),
    pytest.param('print("node3: %s" % node3)', id="%s"),
    pytest.param('print(f"node3: {node3!s}")', id="an f-string with !s"),
])
def test_a_tensor_printed_or_made_a_string_converts(line, tmp_path):
    source = BASICS.format(line=line)
    result = migrate_source(source, "basics.py")
    assert result.outcome == "eager", result.compat_reason
    verdict = verify_program(source, result.new_source, path=tmp_path / "basics.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
