"""Find and redact secrets (tokens, keys, passwords) before anything is printed or stored.

Standard library only: the hooks use it too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private-key",
        re.compile(
            r"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|\Z)"
        ),
    ),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{16,}")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_\-]{20,}")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})")),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("stripe-key", re.compile(r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{20,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
    ("bearer-token", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9_\-.=]{20,}")),
    ("url-credentials", re.compile(r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)")),
    (
        "assigned-secret",
        re.compile(
            r"(?i)\b(?P<name>[A-Za-z0-9_]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|auth[_-]?key|client[_-]?secret))"
            r"(?P<sep>\s*[:=]\s*|\s+is\s+)(?P<quote>[\"']?)(?P<value>[^\s\"',;]{4,})(?P=quote)"
        ),
    ),
]
# Every pattern above needs a telling word, a URL with credentials, or a token of 12+ characters.
_TELLING = ("://", "pass", "pwd", "secret", "token", "key", "bearer", "auth", "private")
_PLACEHOLDER = re.compile(
    r"(?i)^(?:\*+|x{3,}|\.{3}|<[^>]*>|\$\{?[A-Z_]+\}?|\[redacted[^\]]*\]|changeme|example|none|null|true|false)$"
)


@dataclass(frozen=True)
class SecretMatch:
    kind: str
    start: int
    end: int


def _may_hold_secret(text: str) -> bool:
    """A cheap test that rules out most text before the dozen patterns run."""
    lowered = text.lower()
    return any(word in lowered for word in _TELLING) or any(len(word) >= 12 for word in text.split())


def find_secrets(text: str) -> list[SecretMatch]:
    """Non-overlapping secret spans, earliest first."""
    if not _may_hold_secret(text):
        return []
    found: list[SecretMatch] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if kind == "assigned-secret":
                value = match["value"]
                if _PLACEHOLDER.match(value) or value.isalpha() and len(value) < 8:
                    continue
                start, end = match.span("value")
            found.append(SecretMatch(kind, start, end))
    found.sort(key=lambda m: (m.start, -(m.end - m.start)))
    result: list[SecretMatch] = []
    for candidate in found:
        if not result or candidate.start >= result[-1].end:
            result.append(candidate)
    return result


def redact(text: str) -> str:
    """`text` with every secret replaced by `[REDACTED:<kind>]`."""
    matches = find_secrets(text)
    if not matches:
        return text
    parts, last = [], 0
    for secret in matches:
        parts.append(text[last : secret.start])
        parts.append(f"[REDACTED:{secret.kind}]")
        last = secret.end
    parts.append(text[last:])
    return "".join(parts)


def has_secret(text: str) -> bool:
    return bool(find_secrets(text))
