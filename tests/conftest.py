"""Test configuration: the specification's pytest plugin (fixtures, markers, step library)."""

pytest_plugins = ["durak_spec.spec.plugin", "pytester"]
