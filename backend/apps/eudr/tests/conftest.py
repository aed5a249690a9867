import pytest

from . import factories


@pytest.fixture
def eudr_world(tenant3, tenant2, in_tenant, make_user):
    return factories.world(tenant3, tenant2, in_tenant, make_user)


@pytest.fixture(autouse=True)
def _local_fakes_allowed(settings):
    """The local servers that answer as the EU information system listen on 127.0.0.1 over plain http: the
    outbound policy lets them through only because the tests allow them, as an operator would."""
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.OUTBOUND_ALLOW_HTTP = True


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
