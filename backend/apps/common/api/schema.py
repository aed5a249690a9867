"""drf-spectacular post-processing: document the envelope around every JSON response."""

from __future__ import annotations

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
            "code": {"type": "integer"},
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
