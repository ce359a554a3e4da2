from tests.league.conftest import eager_tasks, world  # noqa: F401 (fixtures)
