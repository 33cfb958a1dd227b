"""Error → fix: a tool call that failed, then a changed call of the same tool that worked.

A failure that says the call itself was wrong (unknown option, command not found, no such file …)
counts whatever changed; any other failure (a compile error, a link error) counts when nothing but the
call's options changed and no file was edited in between — then the options are what fixed it. A
failing test run followed by the same run after a code change teaches nothing about the command. For
shell calls the lesson is the command that worked against the one that failed.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from ..lazyre import lazy
from ..transcripts.records import ToolUse, tool_command
from .phrasing import error_fix_principle, error_gist
from .text import clip
from .triggers import command_head, shell_words

# What a failing call says when the call itself was wrong, not the code it ran.
USAGE_ERROR = lazy(
    r"command not found|not found|unknown (?:option|command|argument|flag|subcommand)|unrecognized|"
    r"unexpected argument|invalid (?:option|argument|value|choice)|no such (?:file|option|command|table)|"
    r"usage:|did you mean|is not recognized|not a git repository|permission denied|does not exist|"
    r"cannot find|could not find|no module named|modulenotfounderror|not installed|requires? (?:a|an|the) |"
    r"missing (?:required )?argument|unsupported|not supported|no matching|not allowed|is required|"
    r"expected one of|wasn't found|unable to (?:find|locate|open)|not recognized|missing script|"
    r"no rule to make target|can't open file|cannot open|unknown target|no such subcommand",
    re.IGNORECASE,
    prefilter=True,
)
_NOISE_SUFFIX = lazy(
    r"\s*(?:2>&1|2>/dev/null|>/dev/null|\|\s*(?:head|tail|grep|less|more|wc|cat|sort|uniq|tee)\b[^|;&]*|"
    r";\s*echo\b[^|;&]*|\|\|\s*true)\s*",
)
_CD_PREFIX = lazy(r"^\s*cd\s+\S+\s*&&\s*")
_SKIPPED_ERRORS = ("Sibling tool call errored", "Interrupted by user", "[Request interrupted")
_SHELL_TOOLS = frozenset({"Bash", "BashOutput", "PowerShell"})
# Looking around (a file that is not there, a pattern with no match) is exploration, not a lesson.
_EXPLORATION = frozenset(
    {"cat", "ls", "grep", "rg", "ugrep", "find", "fd", "head", "tail", "less", "more", "wc", "file", "stat",
     "echo", "which", "type", "pwd", "tree", "du", "df", "diff", "sed", "awk", "test", "[", "true", "sleep"}
)  # fmt: skip
_WINDOW = 6


@dataclass
class FailedCall:
    use: ToolUse
    error: str
    fixed: bool = False
    code_changed: bool = False  # a file was edited after the failure: a retry may work because of it
    usage: bool | None = None  # the failure says the call itself was wrong (worked out once, see `_usage`)


@dataclass(frozen=True)
class Fix:
    principle: str
    detail: str
    trigger: str
    quote: str
    failed_command: str


@lru_cache(maxsize=4096)
def normalize_command(command: str) -> str:
    """The command without output plumbing (`2>&1 | tail -5`) or a leading `cd dir &&`."""
    command = _CD_PREFIX.sub("", command.strip())
    previous = None
    while previous != command:
        previous = command
        command = _NOISE_SUFFIX.sub(" ", command).strip()
    return " ".join(command.split())


def _tokens(command: str) -> set[str]:
    return set(command.split())


def find_fix(use: ToolUse, failed: deque[FailedCall]) -> Fix | None:
    """The lesson when `use` (which succeeded) fixes one of the recent failed calls, else None."""
    if not failed or use.name not in _SHELL_TOOLS:
        return None
    command = normalize_command(tool_command(use))
    if not command:
        return None
    for call in reversed(list(failed)[-_WINDOW:]):
        if call.fixed or call.use.name != use.name or call.error.startswith(_SKIPPED_ERRORS):
            continue
        before = normalize_command(tool_command(call.use))
        if not before or before == command or not _related(before, command):
            continue
        if command_head(before).split()[0] in _EXPLORATION:
            continue
        usage = _usage(call)
        if not usage and (call.code_changed or not options_only(before, command)):
            continue
        call.fixed = True
        head = command_head(before) or command_head(command)
        principle = fix_principle(head, before, command, call.error)
        if not principle:
            return None
        return Fix(
            principle=principle,
            detail=fix_detail(head, before, command, call.error),
            trigger=f"running `{head}`" if head else "running shell commands",
            quote=_quote(head, before, error_gist(call.error), command),
            failed_command=before,
        )
    return None


def _usage(call: FailedCall) -> bool:
    """Whether the failure says the call itself was wrong; each later call of the turn asks again."""
    if call.usage is None:
        call.usage = bool(USAGE_ERROR.search(error_gist(call.error) + "\n" + call.error[:400]))
    return call.usage


def fix_principle(head: str, before: str, after: str, error: str) -> str:
    r"""What changed, as a rule: `For \`x y\`, pass \`--flag value\`.` / `omit …` / `use … instead of …`
    — the changed words whole (an option with its value), one sentence; what the failed call said is
    the rule's detail (`fix_detail`), not its tail."""
    removed, added = _difference(before, after)
    if not added and len(removed) > 2:
        return ""  # the retry gave up part of the call: nothing learned about how to make it
    if removed and not any(word.strip("'\"") in error for word in removed):
        return ""  # the error does not name what was dropped: the change may not be what fixed it
    removed_text, added_text = " ".join(removed), " ".join(added)
    if added and removed and len(removed_text) + len(added_text) <= 80:
        return f"For `{head}`, use `{added_text}` instead of `{removed_text}`."
    if added and not removed and len(added_text) <= 60:
        return f"For `{head}`, pass `{added_text}`."
    if removed and not added and len(removed_text) <= 60:
        return f"For `{head}`, omit `{removed_text}`."
    return error_fix_principle(before, after, error)


def fix_detail(head: str, before: str, after: str, error: str) -> str:
    """What the failed call said, whole: "`x` with `--bad` failed: error: unexpected argument." (nothing
    when its telling line is too long to quote whole)."""
    gist = error_gist(error).strip().rstrip(".")
    if not gist or len(gist) > 160 or not head or gist.endswith(":"):  # a line cut before what it names
        return ""
    removed, added = _difference(before, after)
    if removed:
        return f"`{head}` with `{' '.join(removed)}` failed: {gist}."
    return f"`{head}` without `{' '.join(added)}` failed: {gist}." if added else ""


def _quote(head: str, before: str, gist: str, after: str, limit: int = 200) -> str:
    """`failed → error → fixed` within `limit`; calls too long for it are shown as their program and
    the words that changed (`vc-x1 push … -R .`), so the change is never what is cut."""
    text = f"{before} → {gist} → {after}"
    if len(text) <= limit:
        return text
    removed, added = _difference(before, after)
    side = max(40, (limit - len(gist) - 6) // 2)
    shown = [
        f"{head} … {' '.join(words)}" if head and words else clip(call, side)
        for call, words in ((before, removed), (after, added))
    ]
    return clip(f"{shown[0]} → {gist} → {shown[1]}", limit)


def options_only(before: str, after: str) -> bool:
    """The two calls differ only in options (`--flag`, `-x value`, `+toolchain`, `KEY=value`), not in what
    they run."""
    removed, added = _difference(before, after)
    return bool(removed or added) and _options(removed) and _options(added)


def _options(run: list[str]) -> bool:
    """Every word an option, or a name given as the value right after one (`-p tspec`; a file such as
    `-t other.toml` names what this one call was about)."""
    return all(
        _is_option(word) or i > 0 and _is_option(run[i - 1]) and _NAME_VALUE.fullmatch(word) is not None
        for i, word in enumerate(run)
    )


_NAME_VALUE = lazy(r"[A-Za-z_][\w-]*")


def _is_option(word: str) -> bool:
    return word.startswith(("-", "+")) or "=" in word


def _difference(before: str, after: str) -> tuple[list[str], list[str]]:
    """Words of the failed call the fix dropped, and words it added, in order — by position, so an
    option keeps its value even when that word occurs elsewhere in the call (`-p tspec` in `tspec test`)."""
    old, new = shell_words(before), shell_words(after)
    removed: list[str] = []
    added: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag in ("delete", "replace"):
            removed += old[i1:i2]
        if tag in ("insert", "replace"):
            added += new[j1:j2]
    return removed, added


def _related(before: str, after: str) -> bool:
    """The same program and subcommand, or mostly the same words (`docker-compose up` → `docker compose up`)."""
    head_before, head_after = command_head(before), command_head(after)
    if head_before and head_before == head_after:
        return True
    a, b = _tokens(before), _tokens(after)
    same_program = bool(head_before) and head_before.split()[0] == (head_after.split() or [""])[0]
    return len(a & b) / max(1, len(a | b)) >= (0.3 if same_program else 0.4)
