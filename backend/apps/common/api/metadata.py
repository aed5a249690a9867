"""OPTIONS answers (DRF's metadata) that never fail.

DRF's `SimpleMetadata` asks a view for its object before it describes a PUT (`view.get_object()`) and
only expects DRF's own exceptions: a single-record view that refuses with a domain error (no TRACES account
yet: `/api/eudr/traces-account/`, whose URL has no lookup for `get_object`) made OPTIONS a 500. Here any refusal simply leaves the write
description out, and a serializer that cannot be described without a request body leaves it out too.
`apps/common/tests/test_options.py` sends OPTIONS to every path of the schema.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import clone_request

from apps.common.exceptions import DomainError


class SafeMetadata(SimpleMetadata):
    def determine_actions(self, request, view):
        actions = {}
        for method in {"PUT", "POST"} & set(view.allowed_methods):
            view.request = clone_request(request, method)
            try:
                if hasattr(view, "check_permissions"):
                    view.check_permissions(view.request)
                lookup = getattr(view, "lookup_url_kwarg", None) or getattr(view, "lookup_field", "pk")
                if method == "PUT" and hasattr(view, "get_object") and lookup in (view.kwargs or {}):
                    # A single-record view without a lookup in its URL (the tenant's one record) has no
                    # object to look up here: DRF's get_object would fail with an AssertionError.
                    view.get_object()
                if not hasattr(view, "get_serializer"):
                    continue
                actions[method] = self.get_serializer_info(view.get_serializer())
            except (exceptions.APIException, PermissionDenied, Http404, DomainError):
                continue
            finally:
                view.request = request
        return actions
