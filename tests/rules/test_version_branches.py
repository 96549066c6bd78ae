"""version-branches: if-tests on tf.__version__ that every TF 1.x and 2.x release answers alike -> that branch."""
import libcst as cst
import pytest

from tests.twins import assert_same_output, run_legacy, run_migrated
from tf_migrate.engine import migrate_source
from tf_migrate.rules.version_branches import branch_taken

_OLD_TF = "int((tf.__version__).split('.')[1]) < 12 and int((tf.__version__).split('.')[0]) < 1"


@pytest.mark.parametrize("test, taken", [
    pytest.param(_OLD_TF, False, id="MorvanZhou's TF < 0.12 test"),
    pytest.param("int(tf.__version__.split('.')[0]) >= 1", True, id="at least 1.0"),
    pytest.param("tf.__version__ < '0.12'", False, id="string comparison"),
    pytest.param("tf.__version__.startswith('2')", None, id="TF1 and TF2 answer differently"),
    pytest.param("int(tf.__version__.split('.')[1]) < 12", None, id="minor releases answer differently"),
    pytest.param("LooseVersion(tf.__version__) < LooseVersion('1.0')", None, id="a function it does not know"),
    pytest.param("tf.__version__ < other", None, id="another name"),
    pytest.param("tf.executing_eagerly()", None, id="not the version"),
    pytest.param("tf.__version__[100] == '1'", None, id="fails for a release"),
])
def test_branch_taken(test, taken):
    assert branch_taken(cst.parse_expression(test), ["tf"]) is taken


_WRITER = f'''import tensorflow as tf

x = tf.constant([1.0, 2.0])
y = x * 2.0
sess = tf.Session()
if {_OLD_TF}:  # tensorflow version < 0.12
    writer = tf.train.SummaryWriter('logs/', sess.graph)
else:  # tensorflow version >= 0.12
    writer = tf.summary.FileWriter('logs/', sess.graph)
if {_OLD_TF}:
    init = tf.initialize_all_variables()
elif int(tf.__version__.split('.')[0]) >= 1:
    init = tf.global_variables_initializer()
else:
    init = None
sess.run(init)
print(sess.run(y))
writer.close()
'''


def test_the_branch_every_release_takes_is_kept_and_the_program_goes_eager(tmp_path, monkeypatch):
    # MorvanZhou tf14: the dead TF < 0.12 branch passed `sess.graph` to tf.train.SummaryWriter, which kept
    # the file in compat mode.
    monkeypatch.chdir(tmp_path)
    result = migrate_source(_WRITER, "case.py")
    assert result.outcome == "eager", result.compat_reason
    code = result.new_source
    assert "__version__" not in code and "SummaryWriter" not in code
    assert "writer = tf.summary.create_file_writer('logs/')" in code
    assert sum("version-branches" == f.rule for f in result.findings) == 3  # the if, its elif, the other if
    assert_same_output(run_legacy(_WRITER), run_migrated(code))


def test_undecided_tests_and_their_branches_are_left_alone():
    source = ("import tensorflow as tf\n\n\ndef setup():\n    if tf.__version__.startswith('2'):\n"
              "        tf.compat.v1.disable_eager_execution()\n")
    assert migrate_source(source, "case.py", select={"version-branches"}).new_source == source


def test_a_block_left_empty_gets_pass():
    source = f"import tensorflow as tf\n\n\ndef setup():\n    if {_OLD_TF}:\n        print('old')\n"
    after = migrate_source(source, "case.py", select={"version-branches"}).new_source
    assert after == "import tensorflow as tf\n\n\ndef setup():\n    pass\n"
