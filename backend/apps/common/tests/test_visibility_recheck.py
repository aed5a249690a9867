"""Every create and update re-checks that the written row is one the user may see, even through a view
that overrides perform_create/perform_update to write through a service: TenantScopedMixin wraps such
overrides (apps/common/api/viewsets.py). This walks every view the URLs route and fails on one that
escapes the re-check; and shows a forgetful override still refuses a supplier's write outside its vendor."""

from __future__ import annotations

import pytest
from django.urls import get_resolver

from apps.common.api.viewsets import TenantScopedMixin
from apps.common.errors import OutsideParentVendor


def _routed_view_classes():
    found = set()

    def walk(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns)
                continue
            callback = pattern.callback
            cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
            if cls is not None:
                found.add(cls)

    walk(get_resolver().url_patterns)
    return found


def test_every_routed_write_of_a_scoped_view_rechecks_visibility():
    scoped = [cls for cls in _routed_view_classes() if issubclass(cls, TenantScopedMixin)]
    assert len(scoped) > 30
    escaping = [
        f"{cls.__module__}.{cls.__qualname__}.{name}"
        for cls in scoped
        for name in ("perform_create", "perform_update")
        if hasattr(cls, name) and not getattr(getattr(cls, name), "checks_visibility", False)
    ]
    assert escaping == []


class _Row:
    pk = 7


class _Rows:
    def filter(self, **kwargs):
        return self

    def none(self):
        return self

    def exists(self):
        return False


class _Model:
    _default_manager = _Rows()


class _Request:
    class user:
        is_supplier = True
        is_warehouse = False
        is_authenticated = True
        parent_vendor_id = 1


def test_an_override_that_forgets_the_check_is_checked_anyway(monkeypatch):
    written = []

    class ForgetfulViewSet(TenantScopedMixin):
        supplier_scope = "parent_vendor"

        def perform_create(self, serializer):  # writes through a "service", no check_visible
            written.append(serializer)
            serializer.instance = type("Row", (_Model,), {"pk": 7})()

    view = ForgetfulViewSet()
    view.request = _Request()
    monkeypatch.setattr("apps.common.api.viewsets.user_type", lambda user: "supplier")
    serializer = type("Serializer", (), {"instance": None})()
    with pytest.raises(OutsideParentVendor):
        view.perform_create(serializer)
    assert written == [serializer]  # the write ran, and the re-check refused it (the request rolls back)
