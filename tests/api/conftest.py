from tests.league.conftest import eager_tasks, private_world, world  # noqa: F401 (fixtures)
