"""A queryset's SQL compiled once per process and run again with other values: the reads a table's streams make
for every change (its row, its seats, the hand's log) are the same three queries each time, and Django compiling
them again cost more CPU than PostgreSQL answering them (`bench/streams_cpu.py`).

`Prepared(build)` takes a function that builds the queryset from its varying values; it is called once per
database with marker values, the SQL and the places of the markers among its parameters are kept, and each
`fetch(...)` runs that SQL with the real values and turns the rows into model instances (with their
`select_related` rows) as Django's own iterator does. Only for querysets whose SQL does not depend on the values
(plain equality filters).
"""

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections, router
from django.db.models import QuerySet
from django.db.models.query import get_related_populators

# Values no key or hand number takes, each standing for one argument while the SQL is compiled (within every
# integer field's range: a value out of it compiles to no query at all).
_MARKERS = (2_147_480_011, 2_147_480_013, 2_147_480_017)


class Prepared:
    def __init__(self, model: type, build: Callable[..., QuerySet], arguments: int = 1) -> None:
        self.model = model
        self.build = build
        self.arguments = arguments
        self._compiled: dict[str, tuple] = {}
        self._lock = threading.Lock()

    def _compile(self, db: str) -> tuple:
        with self._lock:
            found = self._compiled.get(db)
            if found is None:
                markers = _MARKERS[: self.arguments]
                queryset = self.build(*markers)
                compiler = queryset.query.get_compiler(using=db)
                sql, params = compiler.as_sql()
                slots = [params.index(marker) for marker in markers]
                if sorted(params.count(marker) for marker in markers) != [1] * len(markers):
                    raise ValueError("each argument must appear once among the query's parameters")
                klass_info, select = compiler.klass_info, compiler.select
                start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
                init_list = [column[0].target.attname for column in select[start:end]]
                populators = get_related_populators(klass_info, select, db)
                model = klass_info["model"]
                found = (sql, list(params), slots, compiler, model, init_list, start, end, populators)
                self._compiled[db] = found
            return found

    def fetch(self, *values: Any) -> list:
        """The model instances the queryset built from `values` gives."""
        db = router.db_for_read(self.model)
        sql, params, slots, compiler, model, init_list, start, end, populators = self._compile(db)
        params = list(params)
        for slot, value in zip(slots, values, strict=True):
            params[slot] = value
        with connections[db].cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        found = []
        for row in compiler.results_iter([rows]):
            instance = model.from_db(db, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            found.append(instance)
        return found
