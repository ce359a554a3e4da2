"""The OpenAPI schema tells the truth about errors: every operation documents the error answers it can give.

Every error body is JSON in one shape (`config.errors`): a `detail` sentence, a `code` and `extra`; a refusal of the
input names each wrong field in `detail` and lists them in `extra.fields` (`{"name": ["This field is required."]}`).
"""

import inspect

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import get_doc
from rest_framework import serializers
from rest_framework.filters import OrderingFilter

from config.query_params import filter_backends_in_use, ordering_fields


class ErrorOutput(serializers.Serializer):
    """An error: `detail` says what is wrong and what is allowed, `code` what kind of refusal it is, `extra` the
    particulars (for any refusal that names fields, wrong input or a service's, `extra.field` the first wrong field
    and `extra.fields` each one's messages)."""

    detail = serializers.CharField(help_text="What is wrong and what is allowed, naming each wrong field.")
    code = serializers.CharField(
        help_text="The kind of refusal: `invalid` for wrong input, `not_found`, `not_authenticated`, "
        "`permission_denied`, `conflict`, `throttled`, `busy`, or a more specific one a refusal names."
    )
    extra = serializers.DictField(
        help_text="Particulars: `field` (the first wrong field, a path such as `seats[1].final_credits`) and "
        "`fields` (each wrong field's messages, nested as the input is) for any refusal that names fields, wrong "
        "input or a service's; what a refusal allows."
    )


READ_ERRORS = {
    "400": "Invalid query parameters (an unknown name, an unknown ordering field, a season not of the league, a "
    "filter's or a page's value, a NUL character).",
    "401": "The credentials sent are invalid.",
    "404": "No such object, or one you may not see (the two answers are the same).",
    "406": "The Accept header asks for a format this operation does not give.",
}
WRITE_ERRORS = {
    "400": "Invalid input: the message says what is wrong and what is allowed; nothing was saved.",
    "401": "Not signed in (send `Authorization: Token <key>` or a session cookie).",
    "403": "Signed in, but not allowed to do this.",
    "409": "The request clashes with the current state (a name or slug taken, the last organiser).",
    "415": "The body's content type is not JSON or a form.",
    "503": "The database stayed busy after retries; nothing was saved. Retry after the Retry-After seconds.",
}


# The apps whose classes speak for an endpoint. config's shared bases (the query-parameter check, the CSV
# renderers) document how the API works inside: drf-spectacular's fallback to a base's docstring showed those
# as the description of every view without one of its own (the token endpoint read "Mixed into every API view").
ENDPOINT_APPS = ("league", "games", "tournaments", "accounts")


def view_description(view_class: type) -> str:
    """The docstring of the view class, or else of the nearest base an app defines; never a shared base's."""
    for klass in view_class.__mro__:
        if klass.__doc__ and (klass is view_class or klass.__module__.partition(".")[0] in ENDPOINT_APPS):
            return "\n".join(line.rstrip() for line in inspect.cleandoc(klass.__doc__).rstrip().split("\n"))
    return ""


class AutoSchema(SpectacularAutoSchema):
    def get_description(self) -> str:  # type: ignore[override]
        action = getattr(self.view, getattr(self.view, "action", self.method.lower()), None)
        return get_doc(action) or view_description(self.view.__class__)

    def _get_response_bodies(self, direction: str = "response"):
        responses = super()._get_response_bodies(direction)
        errors = dict(READ_ERRORS)
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            errors.update(WRITE_ERRORS)
        error = self.resolve_serializer(ErrorOutput, "response").ref
        for status, description in errors.items():
            responses.setdefault(
                status, {"description": description, "content": {"application/json": {"schema": error}}}
            )
        return responses

    def get_filter_backends(self):
        # Filters, search and ordering apply to the list actions only, and a search only where the view names
        # its `search_fields`: the same backends config.query_params lets a request name.
        if getattr(self.view, "action", None) != "list":
            return []
        return filter_backends_in_use(self.view)

    def _get_filter_parameters(self):
        # `ordering` names the fields it takes (config.query_params refuses any other), with one as its example.
        parameters = super()._get_filter_parameters()
        for backend in self.get_filter_backends():
            if issubclass(backend, OrderingFilter):
                ordering = backend()
                fields = ordering_fields(self.view, ordering)
                for parameter in parameters:
                    if parameter["name"] == ordering.ordering_param:
                        parameter["description"] = (
                            f"The fields to sort by, separated by commas, each with a leading '-' for the reverse "
                            f"order: {', '.join(fields)}."
                        )
                        parameter["example"] = f"-{fields[0]}"
        return parameters

    def _get_paginator(self):
        # Only the list actions page their results; other list-shaped answers (a game's corrections) do not.
        if getattr(self.view, "action", None) != "list":
            return None
        return super()._get_paginator()
