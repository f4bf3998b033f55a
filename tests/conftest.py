"""Test configuration: the specification's pytest plugin (fixtures, markers, step library),
the book's build (``built_book``, see book_build.py) and the hypothesis profiles.

Under CI (``CI`` set, as ``.ci/run`` runs) the ``ci`` profile makes every property and
fuzz test derandomized and keeps no example database, so a run is the same every time;
elsewhere the ``dev`` profile explores new examples on each run and remembers failures.
``HYPOTHESIS_PROFILE`` chooses one by name.

The order of the run (:func:`pytest_collection_modifyitems`) is chosen for the two cores of
``-n auto --dist worksteal``; it changes when a test runs, never what it checks.
"""

import os

import hypothesis
import pytest

pytest_plugins = ["durak_spec.spec.plugin", "pytester", "book_build"]

hypothesis.settings.register_profile("ci", derandomize=True, database=None,
                                     print_blob=True)
hypothesis.settings.register_profile("dev")
hypothesis.settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


SLOW_FIRST = (
    "test_docs.py::test_the_readme_first_command_installs_and_checks",
    "test_perft_whole_game.py::test_an_impossible_outcome_is_caught_by_the_audit",
    "test_dependencies.py::test_a_sample_recomputed_on_the_reference_matches_the_shipped_file",
    "test_docs.py::test_shown_commands_print_what_is_shown",
    "test_requests_ahead.py::test_lockstep_finds_the_same_with_requests_ahead",
    "test_perft_claims.py::",
    "test_vectors_js.py::",
    "test_fuzz.py::test_the_server_answers_mutated_requests",
    "test_hostile_cli.py::test_an_output_option_is_refused_up_front",
    "test_check.py::test_an_engine_that_hangs_is_given_up_on_after_three_time_outs",
    "test_scenario_causes.py::test_a_take_that_ends_the_bout_at_once_is_named_take_3",
)
"""The tests that take 10 s or more outside the book (``--durations`` on two busy cores),
by the start of their node ID after ``tests/``. They run right after the book's, so that
the last minute of a run is made of short tests that both workers share out; a name that
goes stale only moves a test back to its place."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that read the built book run first, so that its build starts at once on
    one worker while the other goes on with the rest; then the slow tests of
    :data:`SLOW_FIRST`; then the others in their order. ``--dist worksteal`` gives each
    worker half of this list and, when one runs out, moves tests over from the end of the
    other's, so that long tests at the end would leave one core idle."""
    def rank(item: pytest.Item) -> int:
        if "built_book" in getattr(item, "fixturenames", ()):
            return 0
        where = item.nodeid.removeprefix("tests/")
        return 1 if where.startswith(SLOW_FIRST) else 2

    items.sort(key=rank)
