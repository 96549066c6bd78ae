"""Test-session order: the few multi-minute tests first.

xdist hands tests to its workers in collection order, so a long test collected last (the samples'
one verify run, ~3-4 minutes) runs alone at the end while the other worker idles. Started first, it
runs beside the rest of the suite.
"""

LONG_FIRST = ("tests/test_samples_verify.py::test_every_sample_gets_the_verdict_the_readme_promises",)


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))
