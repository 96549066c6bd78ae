"""scoped-variable-names: variables named by a scope, and names read by the program, keep compat mode."""
from tf_migrate.engine import migrate_source
from tf_migrate.verify import EQUIVALENT, verify_program

GAN = ("import tensorflow as tf\nwith tf.variable_scope('generator'):\n    G = tf.Variable(1.0)\n"
       "with tf.variable_scope('discriminator'):\n    D = tf.Variable(2.0)\n"
       "loss = G * D\ntvar = tf.trainable_variables()\ngvar = [v for v in tvar if 'generator' in v.name]\n"
       "step = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=gvar)\n"
       "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
       "    sess.run(step)\n    print(sess.run([G, D]))\n")


def test_selection_by_variable_name_keeps_the_file_in_compat_mode_with_the_reason_at_the_scope():
    # A test that reads more than the name (variable-name-filters cannot evaluate it), and scopes in a function
    # (tf1-variable-names cannot name its variables): the scopes stay.
    source = GAN.replace("'generator' in v.name]", "'generator' in v.name and v.trainable]").replace(
        "with tf.variable_scope('generator'):\n    G = tf.Variable(1.0)\n",
        "def generator():\n    with tf.variable_scope('generator'):\n        return tf.Variable(1.0)\n\n\nG = generator()\n")
    result = migrate_source(source, "gan.py")
    assert result.outcome == "compat"
    assert any(f.rule == "eager-blocker" and f.line == 3 and "rename them" in f.message for f in result.findings)


def test_scoped_variables_of_the_module_keep_their_tf1_names(tmp_path):
    # tf1-variable-names gives each the name TF1 gave it, scope included (`name="generator/Variable"`): the session
    # rewrite unwraps the scope blocks, and the selection reads the names TF1's did.
    source = GAN.replace("'generator' in v.name]", "'generator' in v.name and v.trainable]")
    result = migrate_source(source, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    assert 'G = tf.Variable(1.0, name="generator/Variable")' in result.new_source
    assert 'D = tf.Variable(2.0, name="discriminator/Variable")' in result.new_source
    verdict = verify_program(source, result.new_source, path=tmp_path / "gan.py", timeout=240)
    assert verdict.status == EQUIVALENT, verdict.detail


def test_a_selection_the_names_decide_becomes_the_list():
    result = migrate_source(GAN, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    assert "gvar = [G]" in result.new_source


def test_scopes_without_name_reads_do_not_block():
    source = GAN.replace("[v for v in tvar if 'generator' in v.name]", "[G]")
    assert migrate_source(source, "gan.py").outcome == "eager"
