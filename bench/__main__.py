"""`make bench`: every benchmark, each printing its figures and its ratio against a named peer."""

import importlib
import sys

BENCHES = (
    "bench.engine_bench",
    "bench.spike_bench",
    "bench.replay_bench",
    "bench.league_bench",
    "bench.pages_bench",
    "bench.tables_bench",
    "bench.tournament_bench",
    "bench.tabletop_bench",
)


def main(names: list[str]) -> None:
    import games.engine  # loads the engine, compiled or not, before saying which
    import games.native

    # The engine benchmarks measure the engine as `make install` built it; SABACC_ENGINE=python measures plain Python.
    print(f"({games.native.describe()})", flush=True)
    for name in names or BENCHES:
        module = importlib.import_module(name if name.startswith("bench.") else f"bench.{name}")
        print(f"== {module.__name__}", flush=True)
        module.main()


if __name__ == "__main__":
    main(sys.argv[1:])
