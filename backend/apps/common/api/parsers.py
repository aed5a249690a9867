"""Request body parsing that answers hostile input with a 400 envelope, never a 5xx.

- JSON nested deeper than `MAX_JSON_DEPTH` (a body of 50,000 `[`) is refused: Python's decoder would
  raise RecursionError, and a moderately deep body would still recurse through validation.
- A JSON body must be an object unless the view says otherwise (`json_body_types = (list,)` for a view
  that takes an array): `[null, null]` on a create is a 400, not an AttributeError in a view.
- Form bodies: Django's own limits (`DATA_UPLOAD_MAX_NUMBER_FIELDS`, `DATA_UPLOAD_MAX_MEMORY_SIZE`,
  `DATA_UPLOAD_MAX_NUMBER_FILES`) raise SuspiciousOperation subclasses; the exception handler
  (`envelope.exception_handler`) turns them into 400/413 envelopes.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json as drf_json

MAX_JSON_DEPTH = 32


def json_depth_exceeds(value, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when `value` nests lists/objects deeper than `limit` (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding") or "utf-8"
        try:
            decoded = codecs.getreader(encoding)(stream)
            parse_constant = drf_json.strict_constant if self.strict else None
            data = json.load(decoded, parse_constant=parse_constant)
        except RecursionError:
            raise ParseError(
                _("The JSON body is nested too deeply (at most %(limit)s levels).")
                % {"limit": MAX_JSON_DEPTH}
            ) from None
        except (ValueError, UnicodeDecodeError, LookupError) as exc:
            raise ParseError(_("The body is not valid JSON: %(reason)s") % {"reason": str(exc)}) from None
        if json_depth_exceeds(data):
            raise ParseError(
                _("The JSON body is nested too deeply (at most %(limit)s levels).")
                % {"limit": MAX_JSON_DEPTH}
            )
        view = parser_context.get("view")
        allowed = getattr(view, "json_body_types", (dict,))
        if not isinstance(data, allowed):
            raise ParseError(_("The JSON body must be an object ({...})."))
        return data
