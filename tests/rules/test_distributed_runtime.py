"""distributed-runtime: TF1 servers and session targets keep a file in compat mode, with the reason."""
import pytest

from tf_migrate.engine import migrate_source

RUN = "x = tf.constant(1.0)\nwith {session} as sess:\n    print(sess.run(x))\n"


@pytest.mark.parametrize("head, session, line", [
    ("cluster = tf.train.ClusterSpec({'local': ['localhost:2222']})\n"
     "server = tf.train.Server(cluster, job_name='local', task_index=0)\n", "tf.Session()", 3),
    ("", "tf.Session('grpc://localhost:2222')", 3),
    ("", "tf.Session(target=address)", 3),
])
def test_cluster_programs_stay_compat_with_the_reason_at_the_line(head, session, line):
    source = "import tensorflow as tf\n" + head + RUN.format(session=session)
    result = migrate_source(source, "case.py")
    assert result.outcome == "compat"
    assert any(f.rule == "eager-blocker" and "compat mode" in f.message and f.line == line
               for f in result.findings), result.findings


def test_a_local_session_goes_eager():
    source = "import tensorflow as tf\n" + RUN.format(session="tf.Session('', config=None)")
    assert migrate_source(source, "case.py").outcome == "eager"
