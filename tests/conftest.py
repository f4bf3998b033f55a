"""Test configuration: the specification's pytest plugin (fixtures, markers, step library)
and the book's build (``built_book``, see book_build.py)."""

pytest_plugins = ["durak_spec.spec.plugin", "pytester", "book_build"]
