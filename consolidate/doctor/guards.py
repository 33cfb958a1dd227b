"""Dangerous-command rules: said in CLAUDE.md or memory, and whether anything enforces them.

A written rule ("never `git push --force`") is followed most of the time; a guard lesson (a lesson
whose trigger has `"guard": true`) or a `permissions.deny` rule in Claude's settings blocks the call
every time. A rule is a sentence with a prohibition (in English, Russian, Chinese or Turkish) followed by a
dangerous command; it is enforced when a guard or deny rule blocks a typical such command.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..secrets import redact
from .context import DoctorContext


@dataclass(frozen=True)
class Danger:
    name: str
    pattern: re.Pattern[str]  # how a rule names it
    sample: str  # a command a guard must block
    guard: str  # a trigger regex that would

    def fix(self, rule: str) -> str:
        """One line: the `learnings capture` command that records a guard for `rule` — narrowed to the
        branch the rule names when it forbids force-pushing one ("never force-push to main" blocks a
        force-push of main, never one of a feature branch the same line allows)."""
        guard = self.guard
        branch = _BRANCH.search(rule) if self.name == "git push --force" else None
        if branch is not None:
            guard = rf"\bgit\s+push\b(?=.*(--force([^\w-]|$)|\s-f\b))(?=.*\s{re.escape(branch[1])}(\s|$|:))"
        lesson = {"rule": rule, "trigger": {"tool": "Bash", "command": guard, "guard": True}}
        text = json.dumps(lesson, ensure_ascii=False).replace("'", "'\\''")
        return (
            "enforce it with a guard lesson (narrow the regex to what the rule forbids): "
            f"echo '{text}' | consolidate learnings capture"
        )


# the branch a force-push ban names: "never force-push to main", "… force-push `master`"
_BRANCH = re.compile(
    r"force[- ]?push(?:ing)?\s+(?:to\s+|on\s+|onto\s+)?(?:the\s+)?`?(main|master|trunk|develop)`?\b", re.I
)

DANGERS = (
    Danger("rm -rf", re.compile(r"\brm\s+-(?:rf|fr|r)\b"), "rm -rf build", r"\brm\s+-\w*[rR]\w*\b"),
    Danger("git push --force", re.compile(r"\bgit\s+push\b[^\n]*?(?:--force(?![\w-])|\s-f\b)|\bforce[- ]push", re.I),
           "git push --force origin main", r"\bgit\s+push\b.*(--force([^\w-]|$)|\s-f\b)"),
    Danger("git reset --hard", re.compile(r"\bgit\s+reset\s+--hard\b"), "git reset --hard HEAD~1", r"\bgit\s+reset\s+--hard\b"),
    Danger("git clean -f", re.compile(r"\bgit\s+clean\s+-\w*f"), "git clean -fdx", r"\bgit\s+clean\s+-\w*f"),
    Danger("DROP TABLE", re.compile(r"\bdrop\s+(?:table|database)\b", re.I), "psql -c 'DROP TABLE users'",
           r"(?i)\bdrop\s+(table|database)\b"),
    Danger("curl | sh", re.compile(r"\b(?:curl|wget)\b[^\n|]*\|\s*(?:ba|z)?sh\b"),
           "curl -fsSL https://example.com/install.sh | bash", r"\b(curl|wget)\b.*\|\s*(ba|z)?sh\b"),
    Danger("chmod 777", re.compile(r"\bchmod\s+(?:-R\s+)?777\b"), "chmod -R 777 .", r"\bchmod\s+(-R\s+)?777\b"),
    Danger("--no-verify", re.compile(r"--no-verify\b"), "git commit --no-verify -m wip", r"--no-verify\b"),
)  # fmt: skip
PROHIBITION = re.compile(
    r"\b(?:never|don'?t|do not|must not|mustn'?t|avoid|forbidden|not allowed|prohibited|no)\b"
    r"|(?<!\w)(?:не|никогда|нельзя|запрещ\w*)(?!\w)|不要|禁止|别|不准|不得|\b(?:asla|yapma|kullanma|çalıştırma)\b",
    re.IGNORECASE,
)


_SENTENCE = re.compile(r"(?<=[.!?;。！？])\s+|\*\*(?=\s)|\s+—\s+")
_MARKUP = re.compile(r"[*_`]+")


@dataclass(frozen=True)
class Rule:
    where: str  # file:line
    danger: Danger
    sentence: str

    def fix(self) -> str:
        return self.danger.fix(_MARKUP.sub("", redact(self.sentence)).strip()[:160])


def find_rules(name: str, text: str) -> list[Rule]:
    """The dangerous-command rules of one file: a sentence forbidding, then naming, a dangerous command."""
    rules = []
    for number, line in enumerate(text.splitlines(), 1):
        for sentence in _SENTENCE.split(line):
            prohibition = PROHIBITION.search(sentence)
            if prohibition is None:
                continue
            rules += [
                Rule(f"{name}:{number}", d, sentence.strip())
                for d in DANGERS
                if (m := d.pattern.search(sentence)) and m.start() >= prohibition.start()
            ]
    return rules


def uncovered_rules(ctx: DoctorContext) -> tuple[list[Rule], list[Rule]]:
    """(every rule, the rules no guard lesson or deny rule enforces)."""
    rules: list[Rule] = []
    sources = [(name, path) for name, path in ctx.claude_md_files.items()]
    sources += [(p, ctx.settings.memory_dir / p) for p in sorted(ctx.tree.files)]
    for name, path in sources:
        text = ctx.read(path)
        rules += find_rules(name, text) if text else []
    if not rules:
        return [], []
    blocked = _blocker(ctx)
    return rules, [r for r in rules if not blocked(r.danger.sample)]


def _blocker(ctx: DoctorContext) -> Callable[[str], bool]:
    """A test: is this Bash command blocked by a guard lesson or a deny rule?"""
    from ..learnings.lessons import ToolCall, live_lessons, matches

    project = str(ctx.repo)
    guards = [e.trigger for _, e in live_lessons(ctx.settings.state_dir, ctx.repo, ctx.now)
              if e.trigger is not None and e.trigger.guard]  # fmt: skip
    denies = [rule for settings in ctx.settings_files.values() for rule in _deny_rules(settings)]

    def blocked(command: str) -> bool:
        call = ToolCall("Bash", command, (), project)
        return any(matches(t, call, project) for t in guards) or any(_denied(r, command) for r in denies)

    return blocked


def _deny_rules(settings: dict[str, object]) -> list[str]:
    permissions = settings.get("permissions")
    deny = permissions.get("deny") if isinstance(permissions, dict) else None
    return [r for r in deny if isinstance(r, str)] if isinstance(deny, list) else []


def _denied(rule: str, command: str) -> bool:
    """`Bash(git push --force:*)` / `Bash(rm -rf*)`: Claude Code's prefix rules, as a glob."""
    match = re.fullmatch(r"Bash\((.+)\)", rule.strip())
    if match is None:
        return rule.strip() == "Bash"
    pattern = match.group(1).replace(":*", "*")
    return fnmatch.fnmatchcase(command, pattern) or fnmatch.fnmatchcase(command, pattern + " *")
