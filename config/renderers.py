"""Renderers of the API beside JSON: CSV exports answer `Accept: text/csv`."""

from typing import Any

from rest_framework.renderers import BaseRenderer, JSONRenderer


class CSVRenderer(BaseRenderer):
    """The CSV endpoints build their own text; this renderer lets content negotiation accept text/csv."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        if isinstance(data, bytes | str):
            return data.encode(self.charset) if isinstance(data, str) else data
        return JSONRenderer().render(data)


# JSON first: an error (or a forced negotiation) is JSON; `Accept: text/csv` still picks the CSV renderer.
CSV_RENDERERS = [JSONRenderer, CSVRenderer]


class JSONErrorsMixin:
    """Errors of a CSV endpoint are JSON like every other error, whatever the Accept header asked for."""

    def finalize_response(self, request, response, *args, **kwargs):
        if getattr(response, "exception", False) and isinstance(
            getattr(request, "accepted_renderer", None), CSVRenderer
        ):
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)
