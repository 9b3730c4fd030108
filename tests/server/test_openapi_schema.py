"""What /openapi.json says about the limits and the answers, read directly (fast); the
schemathesis test checks the same schema against the running server."""

from __future__ import annotations

import json

from frontdesk.server.app import create_app
from frontdesk.server.schemas import MAX_MESSAGE_CHARS


def _body_schema(spec, path):
    return spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]


def test_every_reference_resolves_inside_the_document(settings, factory_for, service):
    spec = create_app(settings, service_factory=factory_for(service)).openapi()
    text = json.dumps(spec)
    assert "#/$defs/" not in text and "$defs" not in text
    for ref in {part.split('"')[0] for part in text.split('"$ref": "')[1:]}:
        assert ref.startswith("#/components/schemas/")
        assert ref.removeprefix("#/components/schemas/") in spec["components"]["schemas"]
    analyst = _body_schema(spec, "/internal/chat/stream")
    assert analyst["properties"]["input"]["properties"]["message"]["maxLength"] == MAX_MESSAGE_CHARS


def test_message_limits_are_in_the_schema_of_every_turn_route(settings, factory_for, service):
    spec = create_app(settings, service_factory=factory_for(service)).openapi()
    messages = [
        _body_schema(spec, "/chat")["properties"]["message"],
        _body_schema(spec, "/telecom/chat")["properties"]["message"],
        _body_schema(spec, "/internal/chat/stream")["properties"]["input"]["properties"]["message"],
    ]
    for message in messages:
        assert message["minLength"] == 1 and message["maxLength"] == MAX_MESSAGE_CHARS
        assert message["pattern"].startswith("[^")  # not blank: one character not white space


def test_every_error_a_route_gives_is_documented_with_its_body(settings, factory_for, service):
    spec = create_app(settings, service_factory=factory_for(service)).openapi()
    expected = {
        ("post", "/chat"): {"401", "403", "404", "413", "422", "429", "503"},
        ("get", "/conversations/{assistant}/{thread_id}"): {"401", "403", "404", "503"},
        ("post", "/feedback"): {"401", "403", "404", "413", "422"},
        ("post", "/chat/cancel"): {"401", "403", "404", "413", "422"},
        ("post", "/session/sign-in"): {"403", "404", "413", "422"},
        ("get", "/health/ready"): {"503"},
        ("get", "/property"): {"404", "422", "503"},
    }
    for (method, path), codes in expected.items():
        responses = spec["paths"][path][method]["responses"]
        assert codes <= set(responses), (path, sorted(responses))
        for code in codes:
            schema = responses[code]["content"]["application/json"]["schema"]["$ref"]
            wanted = "ValidationErrorBody" if code == "422" else "ErrorBody"
            assert schema == f"#/components/schemas/{wanted}", (path, code)
    assert "HTTPValidationError" not in spec["components"]["schemas"]
