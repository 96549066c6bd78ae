"""Pairing and comparing trained variables (``tf_migrate.verify.state_compare``), in-process."""
import numpy as np

from tf_migrate.verify import state_compare


def compare(legacy, migrated):
    """Entries without initial values, unless given as (name, value, initial)."""
    def entries(items):
        return None if items is None else [item if len(item) == 3 else (*item, None) for item in items]

    return state_compare.compare(entries(legacy), entries(migrated))


def test_variables_pair_by_name_when_the_migration_kept_tf1_names():
    legacy = [("W1", np.zeros((2, 2))), ("W2", np.ones((2, 2)))]
    migrated = [("W2", np.ones((2, 2))), ("W1", np.zeros((2, 2)))]  # created in another order
    assert compare(legacy, migrated) == state_compare.StateVerdict("equal", "2 trained variables equal")


def test_otherwise_they_pair_in_creation_order_within_a_shape():
    legacy = [("dense/kernel", np.zeros((4, 2))), ("conv2d/kernel", np.ones((3, 3)))]
    migrated = [("kernel", np.ones((3, 3))), ("kernel", np.zeros((4, 2)))]
    assert compare(legacy, migrated).status == "equal"
    migrated[1] = ("kernel", np.full((4, 2), 0.5))
    verdict = compare(legacy, migrated)
    assert verdict.status == "different"
    assert verdict.detail == (
        "trained variable dense/kernel (migrated kernel) differs: 0.0 != 0.5 at dense/kernel[0, 0] (8 of 8 values differ)"
    )


def test_trained_values_may_drift_by_under_a_tenth_of_their_scale_or_in_under_a_tenth_of_the_values():
    legacy = [("b", np.array([1.0, 2.0, 3.0]))]
    assert compare(legacy, [("b", np.array([1.000001, 2.0, 3.0]))]).detail == "1 trained variable equal"
    verdict = compare(legacy, [("b", np.array([1.2, 2.0, 3.0]))])
    assert verdict.status == "equal"
    assert verdict.detail == "1 trained variable equal within drift (b drifted)"
    many = [("W", np.zeros(20))]
    assert compare(many, [("W", np.eye(1, 20)[0])]).status == "equal"  # 1 value of 20 moved far
    assert compare(many, [("W", np.eye(2, 20).sum(axis=0))]).status == "different"  # 2 of 20
    verdict = compare(legacy, [("b", np.array([1.0, 2.0, 3.5]))])
    assert verdict.detail == "trained variable b differs: 3.0 != 3.5 at b[2] (1 of 3 values differ)"


def test_other_counts_or_shapes_are_unmatched_not_different():
    legacy = [("W", np.zeros((2, 2))), ("b", np.zeros(2))]
    verdict = compare(legacy, [("W", np.zeros((2, 2)))])
    assert verdict.status == "unmatched"
    assert verdict.detail == "the legacy program trained 2 variables, the migrated one 1; no migrated variable of the shape of b"
    assert compare(legacy, None) is None


def test_initial_values_are_compared_before_trained_ones():
    legacy = [("W1", np.full(2, 9.0), np.zeros(2)), ("W2", np.full(2, 9.0), np.zeros(2))]
    migrated = [("W1", np.full(2, 7.0), np.zeros(2)), ("W2", np.full(2, 7.0), np.ones(2))]
    verdict = compare(legacy, migrated)
    assert verdict.detail == "initial value of W2 differs: 0.0 != 1.0 at W2[0] (2 of 2 values differ)"


def test_initial_values_of_other_shapes_are_a_difference_not_a_crash():
    # Paired by their trained shape, two variables can still have started from values of other shapes.
    legacy = [("b", np.zeros((3, 1)), np.zeros((3, 1)))]
    migrated = [("b", np.zeros((3, 1)), np.zeros((3,)))]
    verdict = compare(legacy, migrated)
    assert verdict == state_compare.StateVerdict(
        "different", "initial value of b has shape (3, 1) in the legacy run and (3,) in the migrated one")


def test_a_repeated_name_pairs_in_creation_order():
    # A program that resets its graph and creates `Variable` again: the k-th pairs with the k-th.
    legacy = [("Variable", np.zeros(1), np.zeros(1)), ("Variable", np.ones(1), np.full(1, 10.0))]
    migrated = [("Variable", np.zeros(1), np.zeros(1)), ("Variable", np.ones(1), np.full(1, 10.0))]
    assert compare(legacy, migrated).status == "equal"
    migrated[1] = ("Variable", np.ones(1), np.full(1, 11.0))
    assert compare(legacy, migrated).detail.startswith("initial value of Variable differs: 10.0 != 11.0")


def test_a_string_variable_is_left_out_of_the_trained_variables(tmp_path):
    # Probe 21: the saved state held a string variable (an object array), which numpy loads back only by
    # unpickling: verify_program raised ValueError, and the whole trial run with it.
    from tf_migrate.engine import migrate_source
    from tf_migrate.verify import verify_program
    source = ('import tensorflow as tf\nname = tf.Variable("hello")\nw = tf.Variable(2.0)\ny = w * 3.0\n'
              'with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n    print(sess.run(y))\n')
    result = migrate_source(source, "strings.py")
    verdict = verify_program(source, result.new_source, path=tmp_path / "strings.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
    assert "1 trained variable equal" in verdict.detail


def test_variables_a_second_session_reset_and_left_are_not_compared(tmp_path):
    # Probe 21 (cdlwhm1217096231's tensorflow_demo.py): a second model's session initialized the first model's
    # variables again; TF1 ended with them reset, the eager program with them trained, and nothing read them: the
    # verifier called the conversion different ("trained variable Variable differs: 0.0 != 1.06").
    from tests.test_reinitialization import SECOND_SECTION
    from tf_migrate.engine import migrate_source
    from tf_migrate.verify import verify_program
    result = migrate_source(SECOND_SECTION, "sections.py")
    assert result.outcome == "eager", result.compat_reason
    verdict = verify_program(SECOND_SECTION, result.new_source, path=tmp_path / "sections.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
    assert "the legacy program trained 1 variables, the migrated one 2" in verdict.detail  # (the reset one left out)
