"""A run that fetches a string placeholder it feeds (analysis/fed_strings): TF1 gave the fed str back, the run
function gives bytes, so the file stays compat; other string fetches convert."""
import pytest

from tf_migrate.engine import migrate_source
from tf_migrate.verify import verify_program

SOURCE = """import tensorflow as tf
name = tf.placeholder(dtype=tf.string)
{alias}
hello = tf.constant('Welcome ')
welcome = tf.add(hello, name)
with tf.Session() as sess:
    print(sess.run({fetch}, feed_dict={{name: "Fabien"}}))
"""


@pytest.mark.parametrize("alias, fetch", [
    pytest.param("", "name", id="the placeholder"),
    pytest.param("my_string = name", "my_string", id="a name bound to it"),
    pytest.param("my_string = name", "[welcome, my_string]", id="in a list"),
])
def test_a_fed_string_placeholder_fetched_keeps_the_file_compat(alias, fetch, tmp_path):
    source = SOURCE.format(alias=alias, fetch=fetch)
    result = migrate_source(source, "hello.py")
    assert result.outcome == "compat"
    assert "the run fetches the string placeholder `name` it feeds" in result.compat_reason
    verdict = verify_program(source, result.new_source, path=tmp_path / "hello.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail


def test_a_string_computed_from_the_feed_converts(tmp_path):
    source = SOURCE.format(alias="", fetch="welcome")
    result = migrate_source(source, "hello.py")
    assert result.outcome == "eager", result.compat_reason
    verdict = verify_program(source, result.new_source, path=tmp_path / "hello.py", timeout=240)
    assert verdict.status == "equivalent", verdict.detail
