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
by the start of their node ID after ``tests/``. They start each worker's share of the run,
so that the last minute of a run is made of short tests that the workers share out; a name
that goes stale only moves a test back to its place."""

BOOK_WEIGHTS = (
    ("test_book.py::test_screenshots", 24.0),
    ("test_browser.py::test_no_chapter_is_longer_than_ten_screens", 36.0),
    ("test_browser.py::test_a_visitor_starts_a_game", 25.0),
    ("test_browser.py::test_a_visitor_reviews", 16.0),
    ("test_book.py::test_every_id_of_the_rule_index", 12.0),
    ("test_browser.py::test_a_whole_game", 7.0),
    ("test_browser.py::test_live_boards", 6.0),
    ("test_browser.py::", 4.0),
)
"""About how many seconds the slower tests that read the built book take (by the start of
their node ID after ``tests/``, the first that matches; 1 s for any other), so that every
worker gets an even share of them."""


def book_weight(item: pytest.Item) -> float:
    where = item.nodeid.removeprefix("tests/")
    return next((weight for start, weight in BOOK_WEIGHTS if where.startswith(start)), 1.0)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Share the run out so that every worker of ``-n auto --dist worksteal`` starts with
    its share of the slow tests (:data:`SLOW_FIRST`), then some of the other tests while
    the book builds (it starts at the run's first test, see ``book_build.py``), then its
    share of the tests that read the built book, then the rest.

    ``--dist worksteal`` gives the workers consecutive parts of this list, the first
    ``n // workers`` tests to one, of the rest ``n // (workers - 1)`` to the next, and so
    on; a worker that runs out moves tests over from the end of another's part, so each
    part ends with short tests. The order changes when a test runs, never what it
    checks."""
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    book: list[pytest.Item] = []
    slow: list[pytest.Item] = []
    rest: list[pytest.Item] = []
    for item in items:
        if "built_book" in getattr(item, "fixturenames", ()):
            book.append(item)
        elif item.nodeid.removeprefix("tests/").startswith(SLOW_FIRST):
            slow.append(item)
        else:
            rest.append(item)
    book_shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for item in sorted(book, key=book_weight, reverse=True):  # the heaviest first
        lightest = loads.index(min(loads))
        book_shares[lightest].append(item)
        loads[lightest] += book_weight(item)
    order: list[pytest.Item] = []
    left, taken = len(items), 0
    for worker in range(workers):
        size = left // (workers - worker)
        left -= size
        first = slow[worker::workers]
        fill = max(0, size - len(first) - len(book_shares[worker]))
        others = rest[taken:taken + fill]
        taken += fill
        cut = len(others) * 2 // 3  # about a minute of tests or more: the book builds
        order += first + others[:cut] + book_shares[worker] + others[cut:]
    order += rest[taken:]
    assert sorted(map(id, order)) == sorted(map(id, items))  # every test, once
    items[:] = order
