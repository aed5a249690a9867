import pytest

from apps.eudr.tests import factories


@pytest.fixture
def eudr_world(tenant3, tenant2, in_tenant, make_user):
    return factories.world(tenant3, tenant2, in_tenant, make_user)


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
