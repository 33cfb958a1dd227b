"""A scripted fake of the Anthropic Messages API on 127.0.0.1, for driving the real clients offline.

It speaks what the Claude Code CLI and the `anthropic` client send: `POST /v1/messages` (JSON, or SSE
when the request says `stream: true`, which the CLI always does), `HEAD /api/hello`, and a token count.
Replies are scripted per route: a route matches requests by a substring of the request body (the
system prompt names the agent) and pops one step per request. Error steps stay at the head of their
route, because the CLI retries a 400 several times with fewer beta headers.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Step:
    """One scripted reply: content blocks, or an HTTP error, optionally after a delay."""

    blocks: list[dict[str, Any]] = field(default_factory=list)
    stop_reason: str = "end_turn"
    status: int = 200
    message: str = ""
    delay: float = 0.0
    input_tokens: int = 100
    output_tokens: int = 20
    cache_read: int = 0
    cache_write: int = 0
    once: bool = False  # an error step that is not repeated (for testing the client's own retries)

    @property
    def persistent(self) -> bool:
        return self.status != 200 and not self.once


def text(value: str, **kw: Any) -> Step:
    return Step([{"type": "text", "text": value}], **kw)


def tool_use(name: str, tool_input: dict[str, Any], **kw: Any) -> Step:
    block = {"type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:20]}", "name": name, "input": tool_input}
    return Step([block], stop_reason="tool_use", **kw)


def tool_uses(*calls: tuple[str, dict[str, Any]], **kw: Any) -> Step:
    steps = [tool_use(name, args) for name, args in calls]
    return Step([b for s in steps for b in s.blocks], stop_reason="tool_use", **kw)


def error(status: int, message: str = "FAKE_ERROR", *, once: bool = False) -> Step:
    return Step(status=status, message=message, once=once)


def after_last_assistant(body: dict[str, Any]) -> str:
    """The text of everything sent after the model's last turn (tool results, reminders) as JSON."""
    messages = body.get("messages", [])
    last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
    return json.dumps(messages[last + 1 :])


def truncated(value: str) -> Step:
    return text(value, stop_reason="max_tokens")


Reply = Step | Callable[[dict[str, Any]], Step]  # a fixed step, or one computed from the request


@dataclass
class Route:
    needle: str  # matched against the raw request body; "" matches everything
    steps: deque[Reply]


class FakeMessagesAPI:
    """Start with `with FakeMessagesAPI() as api:`; script with `api.script(needle, steps)`."""

    def __init__(self, model: str = "claude-sonnet-5-5") -> None:
        self.model = model
        self.routes: list[Route] = []
        self.requests: list[dict[str, Any]] = []
        self.unscripted: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> FakeMessagesAPI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def script(self, needle: str, steps: Iterable[Reply]) -> None:
        """Requests whose body contains `needle` get `steps`, one per request, in order."""
        self.routes.append(Route(needle, deque(steps)))

    def next_step(self, body: dict[str, Any], raw: str) -> Step:
        with self._lock:
            self.requests.append(body)
            for route in self.routes:
                if route.needle in raw and route.steps:
                    head = route.steps[0]
                    step = head if isinstance(head, Step) else head(body)
                    if not step.persistent:
                        route.steps.popleft()
                    return step
            self.unscripted.append(body)
        return error(500, "FAKE_UNSCRIPTED: no scripted reply for this request")

    def requests_with(self, needle: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if needle in json.dumps(r)]


def cli_env(api: FakeMessagesAPI, home: str) -> dict[str, str]:
    """The environment that keeps the Claude Code CLI offline and pointed at `api`."""
    return {
        "ANTHROPIC_BASE_URL": api.url,
        "ANTHROPIC_API_KEY": "dummy",
        "HOME": home,
        "CLAUDE_CONFIG_DIR": f"{home}/.claude",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_MAX_RETRIES": "0",
        "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK": "1",
    }


def _handler_for(api: FakeMessagesAPI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

        def do_HEAD(self) -> None:
            self._reply(200, b"", "text/plain")

        def do_GET(self) -> None:
            self._reply(200, b"{}", "application/json")

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0)).decode("utf-8", "replace")
            if "count_tokens" in self.path:
                self._reply(200, b'{"input_tokens": 100}', "application/json")
                return
            if not self.path.startswith("/v1/messages"):
                self._reply(404, b'{"type":"error","error":{"type":"not_found_error","message":"?"}}')
                return
            body = json.loads(raw or "{}")
            step = api.next_step(body, raw)
            if step.delay:
                time.sleep(step.delay)
            if step.status != 200:
                retry = {} if step.once else {"x-should-retry": "false"}
                self._reply(step.status, _error_body(step), extra=retry)
            elif body.get("stream"):
                self._stream(step, body.get("model") or api.model)
            else:
                message = _message(step, body.get("model") or api.model)
                self._reply(200, json.dumps(message).encode())

        def _reply(
            self,
            status: int,
            payload: bytes,
            content_type: str = "application/json",
            extra: dict[str, str] | None = None,
        ) -> None:
            try:
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(payload)))
                self.send_header("request-id", f"req_{uuid.uuid4().hex[:12]}")
                for key, value in (extra or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def _stream(self, step: Step, model: str) -> None:
            payload = "".join(_sse(event) for event in _events(step, model)).encode()
            self._reply(200, payload, "text/event-stream")

    return Handler


def _error_body(step: Step) -> bytes:
    kind = "invalid_request_error" if step.status < 500 else "api_error"
    return json.dumps({"type": "error", "error": {"type": kind, "message": step.message}}).encode()


def _usage(step: Step) -> dict[str, int]:
    return {
        "input_tokens": step.input_tokens,
        "output_tokens": step.output_tokens,
        "cache_read_input_tokens": step.cache_read,
        "cache_creation_input_tokens": step.cache_write,
    }


def _message(step: Step, model: str) -> dict[str, Any]:
    return {
        "id": f"msg_{uuid.uuid4().hex[:20]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": step.blocks,
        "stop_reason": step.stop_reason,
        "stop_sequence": None,
        "usage": _usage(step),
    }


def _events(step: Step, model: str) -> Iterable[dict[str, Any]]:
    start = {**_message(step, model), "content": [], "stop_reason": None}
    start["usage"] = {**_usage(step), "output_tokens": 1}
    yield {"type": "message_start", "message": start}
    for index, block in enumerate(step.blocks):
        if block["type"] == "tool_use":
            yield {"type": "content_block_start", "index": index, "content_block": {**block, "input": {}}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            yield {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            }
            delta = {"type": "text_delta", "text": block["text"]}
        yield {"type": "content_block_delta", "index": index, "delta": delta}
        yield {"type": "content_block_stop", "index": index}
    yield {
        "type": "message_delta",
        "delta": {"stop_reason": step.stop_reason, "stop_sequence": None},
        "usage": {"output_tokens": step.output_tokens},
    }
    yield {"type": "message_stop"}


def _sse(event: dict[str, Any]) -> str:
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"
