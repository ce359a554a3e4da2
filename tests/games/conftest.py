from tests.league.conftest import eager_tasks, friday_freezeout, private_world, world  # noqa: F401 (fixtures)
