"""The OpenAPI schema: the project's AutoSchema and the post-processing that documents the envelope.

`TenantAutoSchema` is the default schema class (settings.REST_FRAMEWORK): every operation of a view whose
permission classes enter a tenant (`TenantMember`, which every tenant-scoped view has through
`TENANT_PERMISSION_CLASSES`) takes the `tenant_id` query parameter, declared here once. A view that reads
`tenant_id` optionally (the signed-in user's `me`) declares its own parameter of that name, which wins.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

TENANT_PARAMETER = OpenApiParameter(
    "tenant_id",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    required=True,
    description="The tenant the request works in (the user must be a member).",
)


def is_tenant_scoped(view) -> bool:
    from apps.common.api.permissions import TenantMember

    return any(
        isinstance(permission, type) and issubclass(permission, TenantMember)
        for permission in getattr(view, "permission_classes", ())
    )


class TenantAutoSchema(AutoSchema):
    def get_override_parameters(self):
        parameters = super().get_override_parameters()
        if is_tenant_scoped(self.view) and not any(
            getattr(p, "name", None) == "tenant_id" for p in parameters
        ):
            parameters = [TENANT_PARAMETER, *parameters]
        return parameters


ERROR_SCHEMA = {
    "type": "object",
    "required": ["code", "message", "error"],
    "properties": {
        "code": {"type": "integer"},
        "message": {"type": "string"},
        "error": {"type": "string"},
        "data": {"nullable": True},
    },
}


def _wrap(schema: dict, status: str) -> dict:
    return {
        "type": "object",
        "required": ["code", "message", "data"],
        "properties": {
            "code": {
                "type": "integer",
                "enum": [200],
                "description": "200 for every success (docs/specification.md 8)",
            },
            "message": {"type": "string"},
            "data": schema if schema else {"nullable": True},
        },
    }


def wrap_in_envelope(result, generator, request, public):
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["ErrorEnvelope"] = ERROR_SCHEMA
    for path, methods in result.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for operation in methods.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for status, response in list(responses.items()):
                content = response.get("content")
                if status == "204":
                    responses.pop("204")
                    responses.setdefault("200", {"description": "Done"})["content"] = {
                        "application/json": {"schema": _wrap({}, "200")}
                    }
                    continue
                if not content or "application/json" not in content:
                    continue
                if str(status).startswith("2"):
                    content["application/json"]["schema"] = _wrap(
                        content["application/json"].get("schema"), status
                    )
            for code, description in (
                ("400", "Invalid input or tenant_id missing"),
                ("401", "Not signed in"),
                ("403", "Not allowed"),
                ("404", "Not found"),
            ):
                responses.setdefault(
                    code,
                    {
                        "description": description,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}
                        },
                    },
                )
            responses.setdefault(
                "default",
                {
                    "description": "Error",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}
                    },
                },
            )
    return result


# A model EmailField with blank=True answers "" for "no address". drf-spectacular documents every
# EmailField as `format: email`, which "" violates (a schema fuzzer reports it on GET /api/users/): an
# e-mail field that may be blank is documented as "an e-mail address or the empty string".
from drf_spectacular.extensions import OpenApiSerializerFieldExtension  # noqa: E402
from drf_spectacular.plumbing import build_basic_type  # noqa: E402
from drf_spectacular.types import OpenApiTypes  # noqa: E402


class BlankableEmailFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "rest_framework.fields.EmailField"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schema = build_basic_type(OpenApiTypes.EMAIL) or {}
        if getattr(self.target, "max_length", None) is not None:
            schema["maxLength"] = self.target.max_length
        # DRF drops allow_blank from read-only fields, so an answer's e-mail may always be blank.
        if not (getattr(self.target, "allow_blank", False) or getattr(self.target, "read_only", False)):
            return schema
        return {"type": "string", "anyOf": [schema, {"type": "string", "maxLength": 0}]}


def blankable_email_without_format(result, generator, request, public):
    """drf-spectacular adds `format: email` beside the `anyOf` of BlankableEmailFieldExtension (from the
    model field's EmailValidator), which would forbid the empty string the `anyOf` allows: drop it. Not
    inside a `oneOf` that has its own blank branch (a writable blank field): there the format keeps the
    two branches exclusive."""
    blank = {"type": "string", "maxLength": 0}

    def walk(node, in_blank_one_of=False):
        if isinstance(node, dict):
            any_of = node.get("anyOf")
            if (
                not in_blank_one_of
                and node.get("format") == "email"
                and isinstance(any_of, list)
                and blank in any_of
            ):
                del node["format"]
            one_of = node.get("oneOf")
            blank_one_of = isinstance(one_of, list) and blank in one_of
            for key, value in node.items():
                walk(value, blank_one_of if key == "oneOf" else False)
        elif isinstance(node, list):
            for value in node:
                walk(value, in_blank_one_of)

    walk(result)
    return result
