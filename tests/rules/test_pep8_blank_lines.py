"""pep8-blank-lines: two blank lines around module-level definitions of a rewritten file, never fewer lines."""
import pytest

from tf_migrate.engine import migrate_source

RULES = {"pep8-blank-lines", "random-seed"}


@pytest.mark.parametrize("before, after", [
    pytest.param("import tensorflow as tf\ntf.set_random_seed(1)\ndef f():\n    pass\nx = 1\n",
                 "import tensorflow as tf\ntf.random.set_seed(1)\n\n\ndef f():\n    pass\n\n\nx = 1\n",
                 id="def glued to its neighbours"),
    pytest.param("import tensorflow as tf\ntf.set_random_seed(1)\n# the model\nclass M:\n    pass\n",
                 "import tensorflow as tf\ntf.random.set_seed(1)\n\n\n# the model\nclass M:\n    pass\n",
                 id="comment stays on the class"),
    pytest.param("import tensorflow as tf\ntf.set_random_seed(1)\n\n\n\ndef f():\n    pass\n",
                 "import tensorflow as tf\ntf.random.set_seed(1)\n\n\n\ndef f():\n    pass\n",
                 id="three blank lines are kept"),
    pytest.param("import tensorflow as tf\ndef f():\n    pass\nx = 1\n", None, id="noop file no rule changed"),
])
def test_rewrite(before, after):
    assert migrate_source(before, "case.py", select=RULES).new_source == (after or before)
