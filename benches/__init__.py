"""pytest-benchmark suites (a package so that modules can import ``benches.conftest``)."""
