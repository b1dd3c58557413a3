"""pytest's set-up for the whole repository (``tests/``, ``benches/``, the README's doctests): the
``--no-system-packages`` option and the ``needs_*`` markers' checks, in :mod:`tests.system_packages`."""

pytest_plugins = ["tests.system_packages"]
