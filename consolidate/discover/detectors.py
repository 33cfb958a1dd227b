"""Find signals in the active records of one transcript, in a single pass that only looks back.

What the user says in a turn is judged once the assistant has answered it (see `turns`): the reply's
opening, its first action and what the user did before all count. Each signal is emitted at the record
that completes it (the answer, the successful retry, the end of the records) and points at the record
that holds the words, so a transcript read in pieces - old records as context, new ones to search -
yields each signal once (a later, fuller reading of the same turn supersedes an earlier one).
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache

from ..lazyre import lazy
from ..secrets import redact
from ..transcripts.markers import find_markers
from ..transcripts.records import PLAN_TOOL, Record, ToolResult, ToolUse, human_text, tool_command
from ..transcripts.session import TranscriptFile
from . import lexicon
from .acks import read_reply
from .echoes import ECHO_KIND, is_echo_text
from .episodes import EPISODE_KIND
from .errorfix import FailedCall, find_fix
from .phrasing import decision_principle, directive_principle, marker_principle, remember_principle
from .planedits import edited_plan, plan_rules
from .quality import rejection_reason
from .restate import points_at_practice
from .signals import QUOTE_LIMIT, Signal, make_signal, quote_around
from .text import clip, language, mask_code, overlap
from .triggers import action_trigger, derive_trigger, program_of
from .turns import (
    THRESHOLD,
    Turn,
    asked_as_question,
    features,
    is_accusation,
    is_memory_request,
    judge,
    ordered_correction,
    rule_sentence,
    unrequested,
)

REASON_WINDOW = 4  # records between a bare rejection and the user's typed reason
LONG_MESSAGE = 600  # beyond this, only a correction at the very start counts
CLASSIFY_LIMIT = 4000  # a remember request or decision is said early, not at the end of a pasted log
SOFT_LIMIT = 1500  # a plain sentence counts only in a message that is not a pasted log
EARLIER_TURNS = 3  # the user's turns kept beyond the last one, for a request that points past it
TERSE_LIMIT = 300  # a remark with no rule words, which only a reply that concedes and says a rule can carry
_EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
MARKER_TURNS = 2  # user turns that may still contradict a marker before it stands
_CONTRADICTS = lazy(
    r"^\W*(?:no\b|nope\b|not (?:quite|really|correct|right|true)|that(?:'s| is)n'?t (?:correct|right|true)|"
    r"that(?:'s| is) (?:not|wrong)|wrong\b|actually\b|i lied\b|incorrect\b|нет\b|неверно|неправильно|"
    r"不对|不是|错了|hayır|yanlış|öyle değil)",
    re.IGNORECASE,
)


# The user asks what the assistant should do or already knows ("do you know what to remind me of after a
# commit?", "how should you install it?"): a test whose answer, the reply, says the lesson.
_QUIZ = lazy(
    r"\b(?:do you (?:know|remember)|how (?:should|do|would) you|what (?:should|do|must) you|"
    r"what did i (?:say|tell you)|did you forget|have you forgotten)\b|"
    r"ты (?:знаешь|помнишь)|как (?:ты )?(?:должен|надо|нужно)|что (?:ты )?должен|ты (?:забыл|не забыл)|"
    r"你(?:知道|记得)|你应该(?:怎么|如何|做什么)|你(?:是不是)?忘了|"
    r"\b(?:biliyor musun|hatırlıyor musun|unuttun mu|ne yapman gerek\w*|nasıl \w+(?:man|men) gerek\w*)",
    re.IGNORECASE,
    prefilter=True,
)
QUIZ_LIMIT = 300  # a test question is short, and so is the part of the answer that says the lesson


@dataclass
class _Context:
    file: TranscriptFile
    start: int = 0
    echoes: bool = False
    uses: dict[str, ToolUse] = field(default_factory=dict)
    last_use: ToolUse | None = None
    last_text: str = ""
    failed: deque[FailedCall] = field(default_factory=lambda: deque(maxlen=8))
    pending_rejection: tuple[int, ToolUse | None] | None = None
    turn: Turn | None = None
    answered: bool = False  # the pending turn's answer has started acting
    interrupted: bool = False
    stopped: bool = False  # the user rejected the assistant's last action and it has not acted since
    last_user_text: str = ""
    last_user_base: dict[str, str] = field(default_factory=dict)
    earlier_users: deque[tuple[str, dict[str, str]]] = field(
        default_factory=lambda: deque(maxlen=EARLIER_TURNS)
    )
    programs: set[str] = field(default_factory=set)  # what the session ran, as far as `_programs` looked
    programs_seen: int = 0
    markers: list[tuple[Signal, int]] = field(default_factory=list)  # waiting out a contradiction
    found: list[Signal] = field(default_factory=list)
    quiz: tuple[str, dict[str, str]] | None = None  # a test question waiting for its answer
    quiz_answer: list[str] = field(default_factory=list)
    episode: int = 0  # counts the typed requests: the task the next turns belong to (see `episodes`)
    session: str = ""  # the last session id and the file's name, shared by the signals of the file
    file_name: str = ""


def detect_signals(
    records: list[Record], file: TranscriptFile, start: int = 0, *, echoes: bool = False
) -> list[Signal]:
    """Signals completed at `records[start:]`; the records before `start` only give context. With
    `echoes`, short turns that may repeat a lesson come too (kind `echo`, see `echoes`)."""
    context = _Context(file, start, echoes=echoes)
    for index, record in enumerate(records):
        if record.type == "assistant":
            _assistant(record, index, context)
        elif record.type == "user":
            _user(record, index, context)
    _finish_turn(context, len(records))
    _finish_quiz(context, len(records))
    for signal, _ in context.markers:
        _emit(context, signal, len(records))
    return context.found


def _emit(context: _Context, signal: Signal | None, position: int) -> None:
    if signal is not None and position >= context.start:
        context.found.append(signal)


def _base(record: Record, context: _Context) -> dict[str, str]:
    session = record.session or context.file.session_id
    if session == context.session:
        session = context.session  # one string per transcript, not one per signal
    else:
        context.session = session
    if not context.file_name:
        context.file_name = str(context.file.path)
    return {"session": session, "uuid": record.uuid, "timestamp": record.timestamp, "file": context.file_name}


def _assistant(record: Record, index: int, context: _Context) -> None:
    turn = context.turn
    if turn is not None and (not turn.reply_text or not context.answered):
        first_text = "" if turn.reply_text else next((t for t in record.texts if t.strip()), "")
        if first_text and not turn.reply_text:
            turn.reply_text, turn.reply = first_text, read_reply(first_text)
        if record.tool_uses and turn.redo is None and not context.answered:
            turn.redo = record.tool_uses[0]
            context.answered = True
    if record.tool_uses or any(t.strip() for t in record.texts):
        context.stopped = False
    for use in record.tool_uses:
        context.uses[use.id] = use
        context.last_use = use
        if use.name in _EDIT_TOOLS:
            for call in context.failed:
                call.code_changed = True
    if context.quiz is not None and sum(map(len, context.quiz_answer)) < QUIZ_LIMIT:
        context.quiz_answer += [t.strip() for t in record.texts if t.strip()]
    for text in record.texts:
        context.last_text = text
        for marker in find_markers(text):
            if marker.channel in ("learning", "lesson"):
                signal = _marker_signal(marker.payload, dict(marker.fields), record, context)
                context.markers.append((signal, MARKER_TURNS))


def _marker_signal(payload: str, fields: dict[str, str], record: Record, context: _Context) -> Signal:
    rule = (
        fields.get("lesson") or fields.get("rule") or fields.get("correction") or fields.get("fix") or payload
    )
    principle, detail = marker_principle(rule)
    trigger = fields.get("trigger") or fields.get("when") or derive_trigger(payload, context.last_use)
    return make_signal(
        "marker",
        principle,
        quote=payload,
        trigger=trigger,
        detail=detail,
        language=language(payload),
        **_base(record, context),
    )


def _user(record: Record, index: int, context: _Context) -> None:
    for result in record.tool_results:
        if context.answered and context.turn is not None and not context.turn.memory:
            _finish_turn(context, index)  # a request to write memory waits for the reply that confirms it
        _tool_result(result, record, index, context)
    if record.is_interrupt:
        _finish_turn(context, index)
        context.interrupted = True
        return
    if context.file.is_subagent:
        return
    text = human_text(record)
    if not text:
        return
    _finish_turn(context, index)
    _finish_quiz(context, index)
    _weigh_markers(context, text, index)
    _echo(text, record, index, context)
    if (
        context.echoes
        and len(text) <= QUIZ_LIMIT
        and ("?" in text or "？" in text)
        and _QUIZ.search(mask_code(text))
    ):
        context.quiz = (text, _base(record, context))
    pending = context.pending_rejection
    intervenes = (
        context.interrupted
        or context.stopped
        or (pending is not None and index - pending[0] <= REASON_WINDOW)
    )
    if not intervenes:
        context.episode += 1  # a new request: a new task
    context.turn = _human(text, record, index, context)
    if context.turn is not None:
        context.turn.intervenes = intervenes
    elif intervenes:
        base = _base(record, context)
        _member(text, None, base, f"{base['session']}#{context.episode}", index, context)
    if context.last_user_text:
        context.earlier_users.append((context.last_user_text, context.last_user_base))
    context.last_user_text, context.last_user_base = text, _base(record, context)
    context.interrupted = context.stopped = False
    context.failed.clear()
    context.last_use, context.last_text = None, ""


def _echo(text: str, record: Record, index: int, context: _Context) -> None:
    """A short turn kept in case it repeats a lesson said elsewhere (see `echoes`)."""
    if context.echoes and is_echo_text(text):
        _emit(
            context,
            make_signal(ECHO_KIND, clip(text, QUOTE_LIMIT), quote=text, **_base(record, context)),
            index,
        )


def _finish_quiz(context: _Context, index: int) -> None:
    """A test question, as an echo of what its answer says (the question is the moment cited)."""
    quiz, answer = context.quiz, " ".join(context.quiz_answer)
    context.quiz, context.quiz_answer = None, []
    if quiz is not None and answer:
        text, base = quiz
        _emit(context, make_signal(ECHO_KIND, clip(answer, QUIZ_LIMIT), quote=text, **base), index)


def _member(
    text: str, use: ToolUse | None, base: dict[str, str], episode: str, index: int, context: _Context
) -> None:
    """A turn that intervened in a task, kept in case it taught what the task's candidate says."""
    if context.echoes:
        command = tool_command(use) if use else ""
        context_text = f"running `{command}`" if command else action_trigger(use) if use else ""
        signal = make_signal(EPISODE_KIND, clip(text, QUOTE_LIMIT), quote=text, context=context_text, **base)
        signal.episode = episode
        _emit(context, signal, index)


def _weigh_markers(context: _Context, text: str, index: int) -> None:
    """A marker the user contradicts right away is dropped (the correction speaks for itself)."""
    contradicts = bool(_CONTRADICTS.match(mask_code(text)))
    kept = []
    for signal, turns in context.markers:
        if contradicts and overlap(signal.principle, text)[2] >= 2:
            continue
        if turns <= 1:
            _emit(context, signal, index)
        else:
            kept.append((signal, turns - 1))
    context.markers = kept


def _tool_result(result: ToolResult, record: Record, index: int, context: _Context) -> None:
    use = context.uses.get(result.tool_use_id)
    if result.rejected:
        context.stopped = True
        reason = result.rejection_reason
        if reason and not reason.startswith("The user wants to clarify"):
            _finish_turn(context, index)
            _echo(reason, record, index, context)
            context.turn = _rejection_turn(reason, use, record, index, context)
            context.turn.intervenes = True
            return
        context.pending_rejection = (index, use)
        return
    if use is None:
        return
    if result.is_error:
        context.failed.append(FailedCall(use, result.text))
        return
    if use.name == PLAN_TOOL:
        _plan_edits(use, result, record, index, context)
        return
    fix = find_fix(use, context.failed)
    if fix is not None:
        signal = make_signal(
            "error-fix",
            fix.principle,
            quote=fix.quote,
            detail=fix.detail,
            trigger=fix.trigger,
            context=fix.failed_command,
            language="en",
            **_base(record, context),
        )
        _emit(context, signal, index)


def _plan_edits(use: ToolUse, result: ToolResult, record: Record, index: int, context: _Context) -> None:
    """The standing rules the user wrote into a plan before approving it (see `planedits`)."""
    approved, proposed = edited_plan(result.text), use.input.get("plan")
    if not approved or not isinstance(proposed, str) or context.file.is_subagent:
        return
    for line, principle in plan_rules(proposed, approved):
        signal = make_signal(
            "preference",
            principle,
            quote=line,
            context="approving a plan the user edited",
            language=language(line),
            strength=_strength(mask_code(line).lower()),
            standing=True,
            **_base(record, context),
        )
        if not rejection_reason(signal):
            signal.trigger = redact(derive_trigger(signal.principle, None, programs=_programs(context)))
        _emit(context, signal, index)


def _rejection_turn(reason: str, use: ToolUse | None, record: Record, index: int, context: _Context) -> Turn:
    turn = _turn("rejection", reason, record, index, context, use)
    turn.memory = is_memory_request(reason)
    said = directive_principle(reason)
    if turn.memory or is_accusation(reason) or not said or said.endswith("…"):
        said = rule_sentence(reason)
    turn.principle = said
    turn.score = THRESHOLD + context.interrupted + turn.memory
    return turn


def _turn(kind: str, text: str, record: Record, index: int, context: _Context, use: ToolUse | None) -> Turn:
    context.answered = False
    return Turn(
        kind=kind,
        text=text,
        index=index,
        base=_base(record, context),
        use=use,
        before=[context.last_text, context.last_user_text],
        before_base=context.last_user_base,
        earlier=list(context.earlier_users),
        episode=f"{record.session or context.file.session_id}#{context.episode}",
    )


def _human(text: str, record: Record, index: int, context: _Context) -> Turn | None:
    pending, context.pending_rejection = context.pending_rejection, None
    if pending is not None and index - pending[0] <= REASON_WINDOW:
        turn = _rejection_turn(text, pending[1], record, index, context)
        return turn
    masked = mask_code(text).lower()
    kind = classify_message(masked)
    if (
        not kind
        and len(text) <= LONG_MESSAGE
        and ordered_correction(masked, text, context.last_use)
        and _LGENERALIZER.search(masked)
    ):
        kind = "correction"
    memory = is_memory_request(text)
    turn = _turn(kind or "preference", text, record, index, context, None)
    if kind == "remember":
        turn.principle, turn.score = remember_principle(text), THRESHOLD + 1
    elif kind == "decision":
        turn.principle, turn.score = decision_principle(unrequested(text) if memory else text), THRESHOLD + 1
    elif memory:  # asked to be written down: the rule is what the turn (or the one it points at) states
        turn.kind, turn.memory, turn.use = "remember", True, context.last_use
        turn.score = THRESHOLD - 1 if asked_as_question(text) else THRESHOLD + 1  # a question needs a yes
    elif kind == "correction":
        turn.use = context.last_use
        turn.principle = directive_principle(text)
        turn.score = THRESHOLD + context.interrupted
    elif len(text) <= SOFT_LIMIT and (features(text) or context.interrupted):
        turn.use = context.last_use
        turn.kind = "correction" if context.interrupted else "preference"
        turn.soft = True  # its wording is looked for only once the reply has carried it (see `judge`)
        turn.score = features(text) + context.interrupted
    elif len(text) <= TERSE_LIMIT or len(text) <= SOFT_LIMIT and points_at_practice(text):
        # no rule words, or a hedge or a question: only a reply that says the rule carries it
        turn.use, turn.kind, turn.soft, turn.terse = context.last_use, "correction", True, True
    else:
        return None
    if memory and kind in ("remember", "decision") and not turn.principle:
        turn.memory = True
    return turn


def _finish_turn(context: _Context, position: int) -> None:
    """Judge the pending turn with what followed it, and emit its signal when the evidence holds."""
    turn, context.turn = context.turn, None
    context.answered = False
    if turn is None:
        return
    if turn.intervenes:  # cited with the task's candidate if it is no candidate of its own
        _member(turn.text, turn.use, turn.base, turn.episode, position, context)
    principle, score = judge(turn)
    if not principle or score < THRESHOLD:
        return
    signal = make_signal(
        turn.kind,
        principle,
        quote=turn.text,
        context=action_trigger(turn.use) if turn.use else (turn.before[0][:160] if turn.before else ""),
        language=language(turn.text),
        strength=_strength(mask_code(turn.text).lower()) + 0.05 * max(0, score - THRESHOLD),
        standing=turn.reply.commitment
        or turn.terse  # the reply's rule was kept only when it holds beyond the moment
        or bool(_LGENERALIZER.search(mask_code(turn.text).lower())),
        reply=turn.reply_text,
        **turn.base,
    )
    signal.episode = turn.episode
    if not rejection_reason(signal):  # a signal the content rules will drop needs no trigger
        signal.trigger = redact(_trigger(turn, principle, context))
    if turn.points_back and turn.before_base.get("uuid") and len(turn.before) > 1 and turn.before[1]:
        signal.also.append(
            {
                "uuid": turn.before_base["uuid"],
                "timestamp": turn.before_base.get("timestamp", ""),
                "quote": quote_around(redact(turn.before[1]), principle),
            }
        )
        named = _names_example(turn.earlier, principle, turn.before[1])
        if named is not None:
            signal.also.append(named)
    _emit(context, signal, position)


_LEADING_SPAN = lazy(r"^\s*`(?P<span>[^`\n]{2,60})`")


def _names_example(
    earlier: list[tuple[str, dict[str, str]]], principle: str, previous: str
) -> dict[str, str] | None:
    """The nearest earlier user turn that names the example a rule written down from the reply starts
    with, when the turn just before does not: where the user said which form they want."""
    lead = _LEADING_SPAN.match(principle)
    if lead is None or lead["span"] in previous:
        return None
    for text, base in reversed(earlier):
        if lead["span"] in text and base.get("uuid"):
            quote = quote_around(redact(text), lead["span"])
            return {"uuid": base["uuid"], "timestamp": base.get("timestamp", ""), "quote": quote}
    return None


def _trigger(turn: Turn, principle: str, context: _Context) -> str:
    use = turn.use if turn.kind in ("correction", "rejection") else None
    if use is not None and is_accusation(turn.text):  # "you keep forgetting X" is about what was just done
        return action_trigger(use)
    return derive_trigger(principle, use, prefer_action=use is not None, programs=_programs(context))


def _programs(context: _Context) -> frozenset[str]:
    """The programs the session ran so far (what a backticked word in a lesson may name), kept up to date."""
    uses = list(context.uses.values())
    for use in uses[context.programs_seen :]:
        program = program_of(tool_command(use))
        if program:
            context.programs.add(program)
    context.programs_seen = len(uses)
    return frozenset(context.programs)


_LREMEMBER, _LREMEMBER_NOISE, _LCORRECTION_LEAD, _LCORRECTION_NOISE = map(
    lexicon.lowered,
    (lexicon.REMEMBER, lexicon.REMEMBER_NOISE, lexicon.CORRECTION_LEAD, lexicon.CORRECTION_NOISE),
)
_LDECISION, _LREASON, _LDISCUSSION, _LGENERALIZER = map(
    lexicon.lowered, (lexicon.DECISION, lexicon.REASON, lexicon.DISCUSSION, lexicon.GENERALIZER)
)
_has_correction_cue, _has_directive = map(lexicon.finder, (lexicon.CORRECTION_CUE, lexicon.DIRECTIVE))


@lru_cache(maxsize=1024)  # the same turn comes back in every session resumed from it
def classify_message(masked: str) -> str:
    """ "remember", "decision", "correction" or "" for a lower-cased user message with code masked."""
    masked = masked[:CLASSIFY_LIMIT]
    if (
        lexicon.has_any(masked, lexicon.REMEMBER_KEYS)
        and _LREMEMBER.search(masked)
        and not _LREMEMBER_NOISE.search(masked)
    ):
        return "remember"
    head = masked[:LONG_MESSAGE]
    leads = bool(_LCORRECTION_LEAD.search(head))
    cued = len(masked) <= LONG_MESSAGE and lexicon.has_any(masked, lexicon.CORRECTION_KEYS)
    decides = not leads and lexicon.has_any(head, lexicon.DECISION_KEYS) and _LDECISION.search(head)
    if decides and _LREASON.search(head):
        return "decision"
    if not leads and not (cued and _has_correction_cue(masked)):
        return ""
    if _LCORRECTION_NOISE.search(head) or not leads and _LDISCUSSION.search(masked):
        return ""
    if _has_directive(masked) and not _only_question(masked):
        return "correction"
    return ""


def _only_question(masked: str) -> bool:
    stripped = masked.strip()
    return (
        stripped.endswith(("?", "？"))
        and stripped.count("?") + stripped.count("？") >= 1
        and "." not in stripped
    )


def _strength(text: str) -> float:
    return 0.1 if _LGENERALIZER.search(text.lower()) else 0.0
