"""camelpy test-suite (a package so that modules can import ``tests.conftest``)."""
