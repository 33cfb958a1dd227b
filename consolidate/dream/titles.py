"""The index line's takeaway: the agent's `title`, or one written offline that fits without cutting.

An offline title is the principle's first sentence when it fits, else its longest run of whole
clauses (split at `;`, ` — `, `, `, ` because `… outside code spans and brackets) that fits, with
parentheticals and examples left out if needed. A title is never a sentence cut mid-clause: when not
even the first clause fits, the first clause is the title, however long. The whole principle is
always written elsewhere (the topic file, or the CLAUDE.md rule), so a title only has to lead to it.
"""

from __future__ import annotations

import re

from memory_layout.wellformed import code_spans, escape_unmatched, line_problems, unmatched_backticks

from ..models import Candidate

MAX_TITLE = 90
_LIMITS = (MAX_TITLE, 120)  # the target, then a little more before falling back to the first clause
_AGENT_SLACK = 110  # an agent's title a little over the target is kept as written
_SENTENCE_END = re.compile(r"(?<=\S[.!?])\s+(?=\S)")  # a lone "." is an argument (`--path .`), no end
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|no)\.|\b[A-Z]\.)$", re.IGNORECASE)
_CLAUSE = re.compile(r";\s+|\s+—\s+|\s+–\s+|:\s+|,\s+|\s+(?=(?:because|so that|since|unless)\b)")
# A comma piece that starts like this begins a new clause, not the next item of a list.
_CLAUSE_START = re.compile(
    r"^(?:not|never|and|but|or|so|then|because|since|unless|which|instead|otherwise|even|except|"
    r"rather|while|whereas|as|though|although|so that)\b",
    re.IGNORECASE,
)
# A clause that needs the main clause after it ("when set, …", "if so, …").
_SUBORDINATE = re.compile(
    r"^(?:when|whenever|if|before|after|while|once|unless|until|as soon as)\b", re.IGNORECASE
)
# A piece that only qualifies the subject ("including X", "X included"): the verb is still to come.
_ASIDE_PIECE = re.compile(
    r"^(?:including|excluding|especially|even|except|such as|like|not only)\b|\b(?:included|excluded|aside)$",
    re.IGNORECASE,
)
_ASIDE = re.compile(r"\s*\((?:[^()`]|`[^`]*`)*\)|,?\s*\b(?:e\.g\.|i\.e\.|for example|such as)\s[^;,]*")
_DANGLING_END = re.compile(
    r"(?:\s|^)(?:and|or|but|the|a|an|to|of|with|for|in|on|by|from|that|which|when|if|so|as|via|than|not)$",
    re.IGNORECASE,
)


def flat(text: str) -> str:
    return " ".join(text.split())


def mend(text: str) -> str:
    """Agent text made safe to write, saying the same: on each line (outside code blocks) a backtick,
    bracket or parenthesis without a partner is escaped (it reads as itself: "works :)"), and a
    trailing ellipsis ends the sentence."""
    lines, fence = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            lines.append(line)
            continue
        if not fence:
            for start, end in reversed(unmatched_backticks(line)):  # shown as the backticks they are
                line = line[:start] + "".join("\\`" for _ in range(end - start)) + line[end:]
            line = re.sub(r",(?:\s*(?:…|\.\.\.))+$", ", and so on.", escape_unmatched(line))
            line = re.sub(r"(?:\s*(?:…|\.\.\.))+$", ".", line)
        lines.append(line)
    return "\n".join(lines).strip()


def title_of(candidate: Candidate, limit: int = MAX_TITLE) -> str:
    """The takeaway for the candidate's index line: its own title when that is whole and short enough,
    else one written from the principle within `limit` when it can be."""
    given = _without_stop(flat(mend(candidate.title)))
    if "→" in given or not any(c.isalnum() for c in given):
        given = ""  # an arrow reads as the index line's link; a title of marks alone says nothing
    if given and len(given) <= _AGENT_SLACK and not line_problems(given, entry=True):
        return given
    if given and len(given) > _AGENT_SLACK:
        shortened = write_title(given, limit)
        if not line_problems(shortened, entry=True):
            return shortened
    return write_title(mend(candidate.principle), limit)


def write_title(text: str, limit: int = MAX_TITLE) -> str:
    """A complete phrase from `text`, short when one exists (see the module)."""
    sentence = _without_stop(first_sentence(flat(text)))
    if len(sentence) <= limit:
        return sentence
    for room in (limit, *_LIMITS[1:]):
        for version in (sentence, _without_asides(sentence)):
            if len(version) <= room and not line_problems(version, entry=True):
                return version
            head = _whole_clauses(version, room)
            if head:
                return head
    return _shortest_clauses(sentence) or sentence


def first_sentence(text: str) -> str:
    """Up to the first sentence end outside code spans (an abbreviation is no end)."""
    spans, _ = code_spans(text)
    for match in _SENTENCE_END.finditer(text):
        cut = match.start()
        if any(start < cut < end for start, end in spans) or _ABBREVIATION.search(text[:cut]):
            continue
        if _depth_at(text, cut, spans) == 0:
            return text[:cut]
    return text


def _clauses(text: str) -> list[str]:
    """`text` split before each top-level clause mark; the pieces keep their marks, so joining a prefix
    of them gives back the start of `text` exactly."""
    spans, _ = code_spans(text)
    pieces, last = [], 0
    for match in _CLAUSE.finditer(text):
        if any(start < match.start() < end for start, end in spans) or _depth_at(text, match.start(), spans):
            continue
        pieces.append(text[last : match.start()])
        last = match.start()
    pieces.append(text[last:])
    return [p for p in pieces if p] or [text]


def _may_end_before(head: str, piece: str) -> bool:
    """May a title end with `head`, leaving out `piece` (the next clause) and all after it?"""
    rest = piece.lstrip(",;:—– ")
    if piece.startswith(":"):
        return len(head.split()) >= 4
    if not piece.startswith(","):
        return len(head.split()) >= 3
    # A comma: is `piece` the next item of a list, or a new clause of the sentence?
    clause = _current_clause(_clauses(head))
    core = clause[1:] if len(clause) > 1 and _SUBORDINATE.match(clause[0].lstrip(",;:—– ")) else clause
    short = [len(p.lstrip(",;:—– ").split()) <= 2 for p in core]
    in_list = len(core) > 1 and short[-1] and (short[-2] or len(core) > 2 and short[-3])
    last = core[-1].lstrip(",;:—– ") if core else ""
    return (
        len(head.split()) >= 4
        and not in_list
        and not _ASIDE_PIECE.search(last)
        and (bool(_CLAUSE_START.match(rest)) or len(rest.split()) >= 4)
    )


def _current_clause(pieces: list[str]) -> list[str]:
    """The pieces after the last strong mark (`;`, `:`, a dash): the clause the head ends in."""
    starts = [i for i, p in enumerate(pieces) if i and not p.startswith(",")]
    return pieces[starts[-1] :] if starts else pieces


def _whole_clauses(text: str, limit: int) -> str:
    """The longest prefix of whole clauses within `limit` that ends as a complete phrase."""
    best = ""
    pieces = _clauses(text)
    for count in range(1, len(pieces)):
        head = "".join(pieces[:count]).rstrip(",;:—– ").rstrip()
        if len(head) > limit:
            break
        if _ends_whole(head, pieces, count):
            best = head
    return best


def _ends_whole(head: str, pieces: list[str], count: int) -> bool:
    last = pieces[count - 1].lstrip(",;:—– ")
    return (
        _may_end_before(head, pieces[count])
        and not _SUBORDINATE.match(last)
        and not _DANGLING_END.search(head)
        and not line_problems(head, entry=True)
    )


def _shortest_clauses(text: str) -> str:
    """The shortest prefix of whole clauses that ends as a complete phrase (however long)."""
    pieces = _clauses(text)
    for count in range(1, len(pieces)):
        head = "".join(pieces[:count]).rstrip(",;:—– ").rstrip()
        if _ends_whole(head, pieces, count):
            return head
    return ""


def _without_asides(text: str) -> str:
    """`text` without parentheticals and "e.g. …" examples (the topic file keeps them); code spans
    are left whole."""
    spans, _ = code_spans(text)
    codes = [text[start:end] for start, end in spans]
    masked = text
    for number, (start, end) in reversed(list(enumerate(spans))):
        masked = masked[:start] + f"\x00{number}\x00" + masked[end:]
    stripped = _ASIDE.sub("", masked)
    if not stripped.strip():  # all of it an aside ("e.g. …" from its start): nothing left to drop it from
        return flat(text)
    return flat(re.sub(r"\x00(\d+)\x00", lambda m: codes[int(m[1])], stripped))


def _depth_at(text: str, index: int, spans: list[tuple[int, int]]) -> int:
    """How many brackets or parentheses are open at `index`, code spans ignored."""
    depth = 0
    for position, char in enumerate(text[:index]):
        if any(start <= position < end for start, end in spans):
            continue
        if char in "([":
            depth += 1
        elif char in ")]" and depth:
            depth -= 1
    return depth


def _without_stop(text: str) -> str:
    """`text` without its closing full stops; a lone `.` after a space is an argument (`-R .`, `git
    add .`), kept."""
    stripped = text.rstrip(".")
    return text if stripped != text and stripped.endswith((" ", "\t")) else stripped
