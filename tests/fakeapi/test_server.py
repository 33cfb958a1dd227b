"""The fake Messages API itself: JSON and SSE replies, routing, persistent errors, delays."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.fakeapi.server import FakeMessagesAPI, error, text, tool_use


def _post(api: FakeMessagesAPI, body: dict) -> tuple[int, str]:  # type: ignore[type-arg]
    request = urllib.request.Request(
        f"{api.url}/v1/messages", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_json_reply_routed_by_body_and_popped_in_order() -> None:
    with FakeMessagesAPI() as api:
        api.script("ALPHA", [text("first"), text("second")])
        api.script("", [text("anything else")])
        assert json.loads(_post(api, {"system": "ALPHA"})[1])["content"][0]["text"] == "first"
        assert json.loads(_post(api, {"system": "BETA"})[1])["content"][0]["text"] == "anything else"
        assert json.loads(_post(api, {"system": "ALPHA"})[1])["content"][0]["text"] == "second"
        assert len(api.requests) == 3 and api.requests_with("BETA") == [{"system": "BETA"}]


def test_sse_stream_carries_tool_use_as_input_json_delta() -> None:
    with FakeMessagesAPI() as api:
        api.script("", [tool_use("Read", {"file_path": "a.txt"})])
        status, body = _post(api, {"stream": True})
    events = [json.loads(line[6:]) for line in body.splitlines() if line.startswith("data: ")]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "message_start" and kinds[-2:] == ["message_delta", "message_stop"]
    start = next(e for e in events if e["type"] == "content_block_start")
    assert start["content_block"]["input"] == {}
    delta = next(e for e in events if e["type"] == "content_block_delta")["delta"]
    assert json.loads(delta["partial_json"]) == {"file_path": "a.txt"}
    assert events[-2]["delta"]["stop_reason"] == "tool_use"


def test_error_steps_persist_and_unscripted_requests_fail() -> None:
    with FakeMessagesAPI() as api:
        api.script("X", [error(400, "FAKE_BAD_REQUEST"), text("never")])
        for _ in range(3):
            status, body = _post(api, {"system": "X"})
            assert status == 400 and "FAKE_BAD_REQUEST" in body
        status, body = _post(api, {"system": "Y"})
        assert status == 500 and "FAKE_UNSCRIPTED" in body
        assert len(api.unscripted) == 1


@pytest.mark.parametrize("stream", [False, True])
def test_usage_is_reported(stream: bool) -> None:
    with FakeMessagesAPI() as api:
        api.script("", [text("hi", input_tokens=1234, output_tokens=56)])
        _, body = _post(api, {"stream": stream})
    assert "1234" in body and "56" in body
