"""The API refuses query parameters it does not know: `?league=` on a list that filters by `league__slug` is a
400 naming it and the names allowed, never a silently unfiltered page.

What a view accepts is derived from what it declares (its filterset, ordering and search fields, its paginator,
its renderers' formats), as the OpenAPI schema derives its parameters, plus `read_query_params`: the names an
action reads itself (`season` on the standings). Read requests only (GET and HEAD); a write's query string is
left alone, as its body is checked by its input serializer.
"""

from collections.abc import Iterable

from django_filters.rest_framework import DjangoFilterBackend
from django_filters.widgets import SuffixedMultiWidget
from rest_framework.filters import OrderingFilter, SearchFilter
from rest_framework.renderers import BrowsableAPIRenderer
from rest_framework.request import Request
from rest_framework.settings import api_settings

from config.errors import ApplicationError

READ_METHODS = ("GET", "HEAD")


def filter_backends_in_use(view) -> list[type]:
    """The filter backends that act on a view's list: a search only where `search_fields` says what it searches."""
    return [
        backend
        for backend in getattr(view, "filter_backends", None) or []
        if not (issubclass(backend, SearchFilter) and not getattr(view, "search_fields", None))
    ]


def _filter_names(backend, view) -> Iterable[str]:
    if isinstance(backend, DjangoFilterBackend):
        filterset_class = backend.get_filterset_class(view, view.get_queryset())
        for name, declared in (filterset_class.base_filters if filterset_class else {}).items():
            widget = declared.field.widget
            if isinstance(widget, SuffixedMultiWidget):  # a range: ?x_min= and ?x_max=
                yield from (f"{name}_{suffix}" if suffix else name for suffix in widget.suffixes)
            else:
                yield name
    else:
        yield from (parameter["name"] for parameter in backend.get_schema_operation_parameters(view))


def format_param(view, *, documented: bool) -> set[str]:
    """`format` where more than one format answers: among the renderers the schema documents (`documented`), or
    among all of them, the browsable API's too (development only: it links to `?format=`)."""
    renderers = [r for r in view.get_renderers() if not (documented and isinstance(r, BrowsableAPIRenderer))]
    name = api_settings.URL_FORMAT_OVERRIDE
    return {name} if name and len({renderer.format for renderer in renderers}) > 1 else set()


def _handler(view) -> str:
    handler = getattr(view, "action", None) or view.request.method.lower()
    return "get" if handler == "head" else handler


def declared_query_params(view) -> set[str]:
    """The query parameters the schema documents for the view's current action: filters, ordering, search and
    pages on a list, `format` where more than one format answers, and what the action reads itself."""
    handler = _handler(view)
    names = set(getattr(view, "read_query_params", {}).get(handler, ())) | format_param(view, documented=True)
    if handler == "list":  # filters and pages apply to the list actions only (config.schema says the same)
        for backend in filter_backends_in_use(view):
            names.update(_filter_names(backend(), view))
        paginator = getattr(view, "paginator", None)
        if paginator is not None:
            names.update(parameter["name"] for parameter in paginator.get_schema_operation_parameters(view))
    return names


def allowed_query_params(view) -> set[str]:
    """The declared names, and `format` wherever the browsable API (development only) offers its format links."""
    return declared_query_params(view) | format_param(view, documented=False)


class StrictQueryParams:
    """Mixed into every API view: a read with a query parameter the view does not know is refused with a 400 (the
    API's error shape, `code` "unknown_parameter", `extra.unknown` and `extra.allowed`), before the handler runs.

    `read_query_params` names the parameters an action (or, on a plain view, the `get` method) reads itself,
    e.g. `{"standings": ["season"]}`; the schema's `@extend_schema(parameters=...)` documents the same names."""

    read_query_params: dict[str, list[str]] = {}

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        # An address that does not answer a read (a POST-only endpoint) keeps its 405.
        if request.method in READ_METHODS and hasattr(self, request.method.lower()):
            refuse_unknown_query_params(self, request)
            refuse_unknown_ordering(self, request)


def refuse_unknown_query_params(view, request: Request) -> None:
    unknown = sorted(set(request.query_params) - (allowed := allowed_query_params(view)))
    if not unknown:
        return
    allowed_list = sorted(allowed)
    named = ", ".join(f"'{name}'" for name in unknown)
    takes = f"takes {', '.join(allowed_list)}" if allowed_list else "takes no query parameters"
    raise ApplicationError(
        f"Unknown query parameter{'s' if len(unknown) > 1 else ''} {named}: this address {takes}.",
        code="unknown_parameter",
        extra={"unknown": unknown, "allowed": allowed_list},
    )


def ordering_fields(view, backend: OrderingFilter) -> list[str]:
    """The fields a list sorts by on `?ordering=` (its `ordering_fields`, as DRF's `OrderingFilter` reads them)."""
    return [name for name, _ in backend.get_valid_fields(view.get_queryset(), view, {"request": view.request})]


def refuse_unknown_ordering(view, request: Request) -> None:
    """`?ordering=` on a list names only the fields it sorts by (DRF would drop an unknown one and answer in its
    default order): a 400, `code` "unknown_ordering", naming the unknown fields and those allowed."""
    if _handler(view) != "list":
        return
    for backend in filter_backends_in_use(view):
        if not issubclass(backend, OrderingFilter):
            continue
        ordering = backend()
        raw = request.query_params.get(ordering.ordering_param)
        if not raw:
            return
        fields = ordering_fields(view, ordering)
        unknown = [term for term in (term.strip() for term in raw.split(",")) if term.removeprefix("-") not in fields]
        if unknown:
            named = ", ".join(f"'{term}'" for term in unknown)
            raise ApplicationError(
                f"Unknown ordering {named}: '{ordering.ordering_param}' takes {', '.join(fields)}, separated by "
                "commas, each with a leading '-' for the reverse order.",
                code="unknown_ordering",
                extra={"unknown": unknown, "allowed": fields},
            )
