"""Trigger conditions ("When <trigger>: …"): the task situation in which a lesson should load.

Derived from what the lesson talks about (a command, a file, a topic such as commits or tests), or
from what the assistant was doing (the tool call a correction answered) when the lesson is about that
call — never from whatever tool happened to run last.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from functools import lru_cache

from ..lazyre import lazy
from ..transcripts.records import ToolUse, tool_command

_ENV_ASSIGN = lazy(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")
_WRAPPERS = frozenset({"sudo", "time", "nice", "env", "exec", "command", "nohup"})
_THREE_WORD = frozenset({"run", "exec", "x", "-m"})
_BACKTICK = lazy(r"`([^`\n]{2,80})`")
_FILE = lazy(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.(?:md|py|rs|toml|json|ya?ml|ts|tsx|js|jsx|go|java|rb|sh|"
    r"txt|cfg|ini|lock|c|h|cpp|hpp|sql|html|css))\b"
)
_TOPICS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (lazy(pattern, re.IGNORECASE), trigger)
    for pattern, trigger in (
        (r"\b(?:answer|respond|reply|tone|emoji)|отвеча|ответ|回答|回复|cevap|yanıt", "answering the user"),
        (r"\bmerg|\brebase\b|слиян|合并|birleştir", "merging a branch"),
        (r"\bcommit|коммит|提交", "writing a commit"),
        (r"\bbranch|ветк|分支|\bdal\b", "creating a branch"),
        (r"\bversion|\bbump|верси|版本|sürüm", "bumping the version"),
        (r"\b(?:test|tests|testing)\b|тест|测试|\btest", "running tests"),
        (r"\bmarkdown\b|\breference links?\b", "writing Markdown"),
        (r"\b(?:readme|docs?|documentation)\b|документ|文档|doküman|belge", "editing docs"),
        (r"\b(?:plan|plans|planning)\b|план|计划|plan", "planning a change"),
        (r"\b(?:install|installing)\b|установ|安装|kur", "installing"),
        (r"\b(?:deploy|release)\b|релиз|发布|yayın", "releasing"),
        (r"\b(?:refactor|rename)\b|рефактор|重构", "refactoring"),
    )
)
DEFAULT_TRIGGER = ""  # nothing better than "working in this project": no trigger, an always-on rule


_SHELL_BLANKS = lazy(r"[ \t\r\n]+")  # the whitespace `shlex` splits on


def shell_words(command: str) -> list[str]:
    """The words `shlex.split` gives (the plain words of a command it cannot split). A command without a
    quote or a backslash has them split on its whitespace alone: the same words, without shlex's
    lexer going character by character."""
    if "'" not in command and '"' not in command and "\\" not in command:
        return [word for word in _SHELL_BLANKS.split(command) if word]
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


@lru_cache(maxsize=4096)
def command_head(command: str) -> str:
    """The program and its subcommand: `cd x && FOO=1 cargo test -p y | tail` -> `cargo test`."""
    first = re.split(r"\s*(?:&&|\|\||;|\|)\s*", command.strip())
    parts = [p for p in first if p and not p.startswith("cd ")] or first
    words = shell_words(parts[0]) if parts else []
    while words and (words[0] in _WRAPPERS or _ENV_ASSIGN.match(words[0])):
        words = words[1:]
    if not words:
        return ""
    head = [posixpath.basename(words[0])]
    for word in words[1:3]:
        if word.startswith("-") and word != "-m" or "/" in word or "=" in word or len(head) >= 3:
            break
        head.append(word)
        if len(head) == 2 and word not in _THREE_WORD:
            break
    return " ".join(head)


def program_of(command: str) -> str:
    """The program a shell command runs, cheaply (no shell parsing): `cd x && FOO=1 cargo test` -> `cargo`."""
    words = command.split(None, 8)
    while words and (
        words[0] == "cd" or words[0] in _WRAPPERS or "=" in words[0] and _ENV_ASSIGN.match(words[0])
    ):
        if words[0] == "cd":
            rest = command.split("&&", 1)
            if len(rest) < 2:
                return ""
            command, words = rest[1], rest[1].split(None, 8)
            continue
        words = words[1:]
    return posixpath.basename(words[0].strip("'\"()")) if words else ""


def action_trigger(use: ToolUse | None) -> str:
    """The situation a tool call stands for: `running \\`cargo test\\``, `editing \\`setup.py\\``."""
    if use is None:
        return ""
    command = tool_command(use)
    if command:
        head = command_head(command)
        return f"running `{head}`" if head else "running shell commands"
    path = use.input.get("file_path") or use.input.get("notebook_path") or use.input.get("path")
    name = use.name
    if name in ("Edit", "Write", "MultiEdit", "NotebookEdit") and isinstance(path, str):
        return f"editing `{posixpath.basename(path)}`"
    if name == "Read" and isinstance(path, str):
        return f"reading `{posixpath.basename(path)}`"
    return _TOOL_TRIGGERS.get(name, f"using {name}" if name else "")


_TOOL_TRIGGERS = {
    "Grep": "searching the codebase",
    "Glob": "searching the codebase",
    "Agent": "delegating to a subagent",
    "Task": "delegating to a subagent",
    "WebFetch": "researching on the web",
    "WebSearch": "researching on the web",
    "ExitPlanMode": "presenting a plan",
    "EnterPlanMode": "planning a change",
    "AskUserQuestion": "asking the user a question",
    "TodoWrite": "planning a change",
}


_PLACEHOLDER = lazy(r"^(?:x{2,}|\.{2,}|…|<[^>]*>|\*)$")


def topic_trigger(text: str, programs: frozenset[str] | None = None) -> str:
    """A trigger from what the text talks about: a topic word, a command in backticks, a file name.
    With `programs` (those the session ran), a backticked word counts as a command only if it is one."""
    for pattern, trigger in _TOPICS[:1]:
        if pattern.search(text):
            return trigger
    for match in _BACKTICK.finditer(text):
        candidate = match.group(1).strip()
        if _FILE.fullmatch(candidate):
            return f"editing `{posixpath.basename(candidate)}`"
        head = " ".join(w for w in command_head(candidate).split() if not _PLACEHOLDER.match(w))
        if not head or not re.match(r"^[a-z][\w.-]*(?: [a-z][\w:.-]*)*$", head):
            continue
        if programs is not None and head.split()[0] not in programs:
            continue
        return f"running `{head}`" if " " in head else f"running `{head}` commands"
    topic = _only_topic(text)
    if topic is not None:
        return topic
    file = _FILE.search(text)
    if file:
        return f"editing `{posixpath.basename(file.group(1))}`"
    return ""


# what a rule about writing a commit names: its message, its subject line
_COMMIT_TEXT = lazy(r"\b(?:commit (?:message|subject|title|body)s?|subject lines?)\b", re.IGNORECASE)


_PLAN_STEP = lazy(r"\b(?:as|in|at) (?:the )?(?:step \d+|first step|step (?:one|zero))\b", re.IGNORECASE)


def _only_topic(text: str) -> str | None:
    """The trigger of the one topic the text talks about; "" when it names several (a rule that stops
    "after all commits so the user can review … and run the tests" is about none of them alone: when
    unsure, no trigger), None when it names none. A commit's message or subject line is about
    writing a commit, whatever else it names; a rule that says which step of a plan it is, about
    planning a change."""
    if _COMMIT_TEXT.search(text):
        return "writing a commit"
    if _PLAN_STEP.search(text):  # where in a plan it goes ("mention it as step 0"): about planning
        return "planning a change"
    found = [trigger for pattern, trigger in _TOPICS[1:] if pattern.search(text)]
    if not found:
        return None
    return found[0] if len(found) == 1 else ""


_REASON = lazy(r"\b(?:so that|so we|so the|so it|because|since|in order to)\b", re.IGNORECASE)
_DOING = lazy(r"^(?P<verb>[a-z]+?)(?:ing)\b")
_RULE_HEAD = lazy(r"^\W*always\s+(?P<verb>[a-z]+)\b", re.IGNORECASE)


def _circular(principle: str, topic: str) -> bool:
    """A rule that says always to do what its trigger names ("Always bump the version" when bumping
    the version): the trigger says nothing of when it applies. How to do it ("Merge with `--no-ff`"
    when merging a branch) keeps its trigger."""
    doing, head = _DOING.match(topic), _RULE_HEAD.match(principle)
    if doing is None or head is None:
        return False
    verb, stem = head["verb"].lower(), doing["verb"]
    return verb in (stem, stem + "e") or len(stem) > 3 and stem[-1] == stem[-2] and verb == stem[:-1]


def about_action(principle: str, use: ToolUse | None) -> bool:
    """The lesson names the call it answered: its program, a path it touched, or an option of a command
    — in the rule itself, not in the reason it gives ("install it once the tests pass, so that we
    test `tspec` for real" is about installing, not about the `tspec` call it answered)."""
    if use is None:
        return False
    principle = _REASON.split(principle, maxsplit=1)[0]
    lowered = principle.lower()
    command = tool_command(use)
    if command:
        words = command.split()
        program = program_of(command)
        if program and re.search(rf"(?<![\w-]){re.escape(program.lower())}(?![\w-])", lowered):
            return True
        paths = [w for w in words if "/" in w or "." in w.strip("./")]
        options = {o.lower() for o in re.findall(r"(?<![\w-])-{1,2}[\w][\w-]*", principle)}
        return any(p.lower().strip("'\"") in lowered for p in paths) or bool(
            options & {w.lower() for w in words}
        )
    path = use.input.get("file_path") or use.input.get("notebook_path") or use.input.get("path")
    return isinstance(path, str) and posixpath.basename(path).lower() in lowered


def _action_for(principle: str, use: ToolUse) -> str:
    """The call's trigger, or running `cargo` commands when the lesson names the program, not the subcommand."""
    trigger = action_trigger(use)
    head = command_head(tool_command(use))
    if " " in head:
        program, sub = head.split(" ", 1)
        lowered = principle.lower()
        if program.lower() in lowered and sub.split()[0].lower() not in lowered:
            return f"running `{program}` commands"
    return trigger


def derive_trigger(
    principle: str,
    use: ToolUse | None = None,
    prefer_action: bool = False,
    programs: frozenset[str] | None = None,
) -> str:
    """The trigger for a lesson: the call it answered when it is about that call (`prefer_action`),
    else what it talks about, else none (`DEFAULT_TRIGGER`: a rule for every task says no "When …")."""
    topic = topic_trigger(principle, programs)
    if _circular(principle, topic):
        topic = ""
    if topic == "answering the user":
        return topic
    if use is not None and prefer_action and about_action(principle, use):
        return _action_for(principle, use)
    return topic or DEFAULT_TRIGGER
