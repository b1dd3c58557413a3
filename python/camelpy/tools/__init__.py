"""The engine-builder's tools behind ``camelpy <subcommand>``: perft runner (and, to come, match manager,
tournament and EPD suites)."""
