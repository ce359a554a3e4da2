"""The API's JSON parser: refuses what PostgreSQL or Python's parser would turn into a 500."""

import json

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from config.inputs import MAX_JSON_DEPTH, has_nul, raw_json_depth


class StrictJSONParser(JSONParser):
    """JSON without NUL characters and nested at most MAX_JSON_DEPTH levels; otherwise a 400 that says so."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
        except UnicodeDecodeError as exc:
            raise ParseError(f"The request body is not valid {encoding} text.") from exc
        if raw_json_depth(text) > MAX_JSON_DEPTH:
            raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels is refused.")
        try:
            data = json.loads(text, parse_constant=self._refuse_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
        if has_nul(data):
            raise ParseError("Text in the request holds a NUL character (\\u0000), which is not allowed anywhere.")
        return data

    @staticmethod
    def _refuse_constant(name: str):
        raise ValueError(f"{name} is not a JSON number")
