"""scoped-variable-names: variables named by a scope, and names read by the program, keep compat mode."""
from tf_migrate.engine import migrate_source

GAN = ("import tensorflow as tf\nwith tf.variable_scope('generator'):\n    G = tf.Variable(1.0)\n"
       "with tf.variable_scope('discriminator'):\n    D = tf.Variable(2.0)\n"
       "loss = G * D\ntvar = tf.trainable_variables()\ngvar = [v for v in tvar if 'generator' in v.name]\n"
       "step = tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=gvar)\n"
       "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
       "    sess.run(step)\n    print(sess.run([G, D]))\n")


def test_selection_by_variable_name_keeps_the_file_in_compat_mode_with_the_reason_at_the_scope():
    # A test that reads more than the name: variable-name-filters cannot evaluate it, so the scopes stay.
    result = migrate_source(GAN.replace("'generator' in v.name]", "'generator' in v.name and v.trainable]"), "gan.py")
    assert result.outcome == "compat"
    assert any(f.rule == "eager-blocker" and f.line == 2 and "rename them" in f.message for f in result.findings)


def test_a_selection_the_names_decide_becomes_the_list():
    result = migrate_source(GAN, "gan.py")
    assert result.outcome == "eager", result.compat_reason
    assert "gvar = [G]" in result.new_source


def test_scopes_without_name_reads_do_not_block():
    source = GAN.replace("[v for v in tvar if 'generator' in v.name]", "[G]")
    assert migrate_source(source, "gan.py").outcome == "eager"
