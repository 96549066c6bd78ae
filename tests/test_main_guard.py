"""Main-guard blocks that build and run a graph are scopes of their own, when nothing else reads their names."""
import libcst as cst

from tf_migrate.analysis.main_guard import is_main_guard, main_guard_scopes
from tf_migrate.engine import migrate_source
from tf_migrate.tfnames import TFNames

SCRIPT = '''import numpy as np
import tensorflow as tf


def model(x):
    return x * 2.0


if __name__ == "__main__":
    x = tf.placeholder(tf.float32, [None])
    y = model(x)
    with tf.Session() as sess:
        print(sess.run(y, {x: np.ones(2)}))
'''


def _guards(source):
    module = cst.parse_module(source)
    names = TFNames.scan(module)
    found = main_guard_scopes(list(module.body), names)
    return [is_main_guard(node) and id(node) in found for node in module.body if isinstance(node, cst.If)]


def test_the_guard_in_either_order_and_without_else():
    assert is_main_guard(cst.parse_statement("if __name__ == '__main__':\n    pass\n"))
    assert is_main_guard(cst.parse_statement("if '__main__' == __name__:\n    pass\n"))
    assert not is_main_guard(cst.parse_statement("if __name__ == '__main__':\n    pass\nelse:\n    pass\n"))
    assert not is_main_guard(cst.parse_statement("if __name__ != '__main__':\n    pass\n"))
    assert not is_main_guard(cst.parse_statement("if name == '__main__':\n    pass\n"))


def test_a_guard_that_builds_a_graph_is_a_scope_of_its_own():
    assert _guards(SCRIPT) == [True]
    result = migrate_source(SCRIPT, "script.py")
    assert result.outcome == "eager", result.findings
    assert '\nif __name__ == "__main__":\n\n    @tf.function(' in result.new_source
    assert "Session" not in result.new_source and "placeholder" not in result.new_source


def test_a_guard_whose_names_a_function_reads_is_not():
    """`model` reads the guard's `scale` as a global: moving the guard's graph into functions would break it."""
    source = SCRIPT.replace("return x * 2.0", "return x * scale").replace(
        "    x = tf.placeholder", "    scale = tf.placeholder_with_default(2.0, [])\n    x = tf.placeholder")
    assert _guards(source) == [False]
    assert migrate_source(source, "script.py").outcome == "compat"


def test_a_guard_whose_names_later_code_reads_is_not():
    source = SCRIPT + "print(y)\n"
    assert _guards(source) == [False]


def test_a_method_parameter_is_not_a_read_of_the_guards_name():
    source = SCRIPT.replace("def model(x):\n    return x * 2.0\n",
                            "class Model:\n    def __call__(self, x):\n        return x * 2.0\n\n\nmodel = Model()\n")
    assert _guards(source) == [True]


def test_a_guard_without_graph_code_is_left_to_the_module():
    assert _guards("import tensorflow as tf\n\nif __name__ == '__main__':\n    print(tf.__version__)\n") == [False]


def test_a_guard_left_with_nothing_to_run_goes_and_the_rewrite_is_idempotent():
    # Fuzz seed 3137 (at 55fc163): a guard whose only statement is a placeholder no run uses became
    # `if __name__ == "__main__": pass`, which a second run removed.
    source = SCRIPT + '\n\nif __name__ == "__main__":\n    z = tf.placeholder(tf.float32, [None, 3])\n'
    once = migrate_source(source, "script.py")
    assert once.outcome == "eager", once.findings
    assert once.new_source.count("__main__") == 1 and "pass" not in once.new_source
    assert migrate_source(once.new_source, "script.py").new_source == once.new_source
