"""Rewrite what was said as a one-line, reusable principle (offline, so by careful trimming)."""

from __future__ import annotations

import re
from functools import lru_cache

from ..lazyre import lazy
from . import lexicon
from .rewrite import from_directive, strip_fillers
from .text import capitalised, clip, sentences

PRINCIPLE_LIMIT = 160
_FENCE = lazy(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_QUOTED = lazy(r"^\s*>.*$", re.MULTILINE)
_LEAD = lazy(
    r"^\s*(?:(?:no|nope|nah|wrong|hmm+|well|actually|ok(?:ay)?|so|but|sorry|нет|неправильно|неверно|не так|"
    r"не то|ну|не надо так|不对|不是|错了|不行|嗯|hayır|yanlış|olmaz|öyle değil|böyle değil)\b\s*[,.!:;—-]*\s*)+",
    re.IGNORECASE,
)
_ZH_LEAD = lazy(r"^\s*(?:不对|不是这样|错了|不行)[，,。！!：:\s]*")
_POLITE = lazy(
    r"^\s*(?:please|pls|пожалуйста|请|lütfen)\b[,\s]*|[,\s]*\b(?:please|thanks|thank you|пожалуйста|спасибо|"
    r"谢谢|lütfen|teşekkürler)\b[.!\s]*$",
    re.IGNORECASE,
)
_LETS = lazy(r"^\s*let'?s\s+", re.IGNORECASE)
# The words that announce a decision rather than state it: "final call:", "就这么定了：".
_DECISION_LEAD = lazy(
    r"^\s*(?:(?:ok(?:ay)?|so|right)[,\s]+)?(?:(?:final (?:call|answer|decision)|decision|решено|就这么定了|就定了)"
    r"\s*[:：,，—-]\s*|(?:i'?d rather|i prefer|we prefer)\s+(?:we\s+|to\s+)?(?=use|stick|go with|keep))",
    re.IGNORECASE,
)
_has_directive, _has_correction_cue = map(lexicon.finder, (lexicon.DIRECTIVE, lexicon.CORRECTION_CUE))


def _body(text: str) -> str:
    return _QUOTED.sub(" ", _FENCE.sub(" ", text)).strip()


def _finish(text: str, limit: int = PRINCIPLE_LIMIT) -> str:
    text = strip_fillers(text)
    text = _POLITE.sub("", _POLITE.sub("", text.strip(" ,;:—-，。：；、"))).strip(" ,;:—-，。：；、")
    text = clip(text, limit)
    return capitalised(text)


@lru_cache(maxsize=1024)  # the same turn comes back in every session resumed from it
def directive_principle(text: str) -> str:
    """The part of a correction (or a rejection reason) that says what to do instead."""
    chosen: list[str] = []
    for index, sentence in enumerate(sentences(_body(text))):
        if index == 0:
            sentence = _ZH_LEAD.sub("", _LEAD.sub("", sentence))
        if not sentence or sentence.endswith(("?", "？")) and not chosen:
            continue
        lowered = sentence.lower()
        if _has_directive(lowered) or _has_correction_cue(lowered):
            chosen.append(sentence)
        elif chosen:
            break
        if len(" ".join(chosen)) > PRINCIPLE_LIMIT * 0.6 or len(chosen) == 2:
            break
    return _finish(from_directive(" ".join(chosen)))


def remember_principle(text: str) -> str:
    """The thing to remember, without the "remember that" around it."""
    body = _body(text)
    match = lexicon.REMEMBER.search(body)
    if match and match.start() > 0:
        body = body[match.start() :] if not _is_tail_cue(body, match) else body
    stripped = lexicon.REMEMBER_STRIP.sub("", body, count=1)
    stripped = lexicon.REMEMBER_STRIP.sub("", stripped, count=1)
    parts = sentences(stripped)
    return _finish(" ".join(parts[:2]) if parts and len(parts[0]) < 60 else (parts[0] if parts else ""))


def _is_tail_cue(body: str, match: re.Match[str]) -> bool:
    """A Turkish request ends with its cue ("…, unutma"): keep what precedes it."""
    return body[match.end() :].strip(" .!") == ""


def decision_principle(text: str) -> str:
    """The sentence that states the decision and its reason, as an instruction."""
    parts = sentences(_body(text))
    for index, sentence in enumerate(parts):
        if not lexicon.DECISION.search(sentence):
            continue
        if (
            not lexicon.REASON.search(sentence)
            and index + 1 < len(parts)
            and lexicon.REASON.search(parts[index + 1])
        ):
            sentence = f"{sentence} {parts[index + 1]}"
        sentence = _LETS.sub("", _ZH_LEAD.sub("", _LEAD.sub("", _DECISION_LEAD.sub("", sentence))))
        return _finish(sentence, 200)
    return ""


def marker_principle(payload: str) -> tuple[str, str]:
    """(one-line principle, longer detail or "") from a marker's payload."""
    text = " ".join(payload.split())
    if len(text) <= PRINCIPLE_LIMIT:
        return _finish(text), ""
    first = sentences(payload)[0] if sentences(payload) else text
    return _finish(first), payload.strip()


def error_fix_principle(failed: str, fixed: str, error: str) -> str:
    """`Use \\`fixed\\` (\\`failed\\` fails: error)`."""
    gist = clip(error_gist(error), 70)
    fixed_text = clip(fixed, 80)
    failed_text = clip(failed, 60)
    reason = f": {gist}" if gist else ""
    return f"Use `{fixed_text}` — `{failed_text}` fails{reason}"


_EXIT_LINE = lazy(r"^\s*exit code \d+\s*$", re.IGNORECASE)
_TAG = lazy(r"</?[a-z_]+>")


_TELLING = lazy(
    r"\berror\b|undefined reference|cannot|can't|not found|fatal|unexpected|unknown|invalid", re.I
)


def error_gist(error: str) -> str:
    """The most telling line of a tool error (the first that says what went wrong), quote marks plain."""
    lines = [line.strip() for line in _TAG.sub("", error).splitlines()[:12]]
    lines = [line for line in lines if line and not _EXIT_LINE.match(line)]
    chosen = next((line for line in lines if _TELLING.search(line)), lines[0] if lines else "")
    return chosen.replace("`", "'")
