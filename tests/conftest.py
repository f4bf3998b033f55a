"""Test configuration: the specification's pytest plugin (fixtures, markers, step library),
the book's build (``built_book``, see book_build.py) and the hypothesis profiles.

Under CI (``CI`` set, as ``.ci/run`` runs) the ``ci`` profile makes every property and
fuzz test derandomized and keeps no example database, so a run is the same every time;
elsewhere the ``dev`` profile explores new examples on each run and remembers failures.
``HYPOTHESIS_PROFILE`` chooses one by name.
"""

import os

import hypothesis

pytest_plugins = ["durak_spec.spec.plugin", "pytester", "book_build"]

hypothesis.settings.register_profile("ci", derandomize=True, database=None,
                                     print_blob=True)
hypothesis.settings.register_profile("dev")
hypothesis.settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))
