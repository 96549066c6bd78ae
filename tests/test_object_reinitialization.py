"""Objects built on one session, each ``__init__`` initializing every variable: TF1's second run gave the first
object's variables new values. Where that shows (a seeded program, or the first object ran before), the file stays
compat with the reason at the second construction; an unseeded redraw converts."""
from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program
from tests.twins import assert_same_output, run_compat, run_legacy

# ljpzzz's actor_critic.py shape: an actor and a critic, each initializing the session they share.
ACTOR_CRITIC = '''import numpy as np
import tensorflow as tf
SEED


class Actor:
    def __init__(self, sess):
        self.sess = sess
        self.x = tf.placeholder(tf.float32, [None, 3])
        self.w = tf.Variable(tf.random_normal([3, 2]))
        self.out = tf.matmul(self.x, self.w)
        self.sess.run(tf.global_variables_initializer())

    def act(self, x):
        return self.sess.run(self.out, {self.x: x})


class Critic:
    def __init__(self, sess):
        self.sess = sess
        self.x = tf.placeholder(tf.float32, [None, 3])
        self.v = tf.Variable(tf.random_normal([3, 1]))
        self.out = tf.matmul(self.x, self.v)
        INIT

    def value(self, x):
        return self.sess.run(self.out, {self.x: x})


sess = tf.InteractiveSession()
actor = Actor(sess)
critic = Critic(sess)
data = np.ones([1, 3], np.float32)
print(actor.act(data), critic.value(data))
'''


def _program(seed: str = "", init: str = "self.sess.run(tf.global_variables_initializer())") -> str:
    return ACTOR_CRITIC.replace("SEED", seed).replace("INIT", init)


def test_a_seeded_program_whose_second_object_initializes_the_shared_session_stays_compat():
    source = _program(seed="tf.set_random_seed(1)")
    result = migrate_source(source, "ac.py")
    assert result.outcome == "compat"
    assert "`Critic(...)` initializes every variable of the session it shares with the `Actor` object" \
        in result.compat_reason
    assert_same_output(run_legacy(source), run_compat(result.new_source))  # (compat: TF1's redraw kept)


def test_an_op_seed_or_a_run_before_the_second_object_shows_too():
    op_seeded = _program().replace("tf.random_normal([3, 2])", "tf.random_normal([3, 2], seed=3)")
    assert migrate_source(op_seeded, "ac.py").outcome == "compat"
    trained_first = _program().replace("critic = Critic(sess)", "print(actor.act(np.ones([1, 3])).shape)\n"
                                       "critic = Critic(sess)")
    assert migrate_source(trained_first, "ac.py").outcome == "compat"


def test_an_unseeded_redraw_or_a_constructor_that_initializes_only_its_own_converts(tmp_path):
    unseeded = _program()
    result = migrate_source(unseeded, "ac.py")
    assert result.outcome == "eager", result.findings
    assert verify_program(unseeded, result.new_source, path=tmp_path / "ac.py", timeout=240).status \
        in ("equivalent", "not-comparable")
    own_only = _program(seed="tf.set_random_seed(1)", init="self.sess.run(tf.variables_initializer([self.v]))")
    result = migrate_source(own_only, "ac.py")
    assert result.outcome == "eager", result.findings
    verdict = verify_program(own_only, result.new_source, path=tmp_path / "own.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail  # (verify gives both programs TF1's draws)
