"""The planters of the auditor's dev set: each adds one planted problem, or one valid entry, to the
project and memory being generated (see `audit_devset`)."""

from __future__ import annotations

import string
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from .audit_devset_text import (
    ADJECTIVES,
    CONVENTIONS,
    DAYS,
    DESCRIPTIONS,
    EXTRA,
    LOW_VALUE,
    MEMORY_DAY,
    MERGES,
    NOUNS,
    PLAIN,
    RELATIVE,
    SECTIONS,
    SWITCHES,
    module_source,
)

if TYPE_CHECKING:
    from .audit_devset import _Plan


def _label(kind: str, entry: str, expected: str = "", **extra: Any) -> Any:
    from .audit_devset import Label

    return Label(kind, "", entry if entry.startswith("- ") else f"- {entry}", expected, **extra)


def _fresh(plan: _Plan, pool: list[str]) -> str:
    used = plan.files.keys() | {e.entry for _, e in plan.entries}
    for _ in range(200):
        word = plan.rng.choice(pool) + plan.rng.choice(["", "_v2", "_core", "_sync", "_jobs", "_api"])
        if not any(word in item for item in used):
            return word
    return plan.rng.choice(pool) + "".join(plan.rng.choices(string.ascii_lowercase, k=5))


def _section(plan: _Plan) -> str:
    return plan.rng.choice(SECTIONS)


def _describe(plan: _Plan, module: str) -> str:
    return plan.rng.choice(DESCRIPTIONS).format(m=module.replace("_", " "))


# -- planted problems ---------------------------------------------------------------------------


def plant_stale_file(plan: _Plan) -> None:
    name = _fresh(plan, EXTRA)
    path = f"src/{plan.pkg}/{name}.py"
    plan.files[path] = module_source(name)
    plan.changes[path] = None
    entry = f"`{path}` {_describe(plan, name)}."
    plan.add(_section(plan), _label("stale-file", entry, "STALE", removable=True))


def _module_text(plan: _Plan, module: str) -> str:
    path = f"src/{plan.pkg}/{module}.py"
    return str(plan.changes.get(path) or plan.files[path])


def plant_stale_symbol(plan: _Plan) -> None:
    module = plan.rng.choice(plan.modules)
    name = f"legacy_{module}_{plan.rng.randrange(100, 999)}"
    path = f"src/{plan.pkg}/{module}.py"
    block = f"\n\ndef {name}(rows):\n    return [row for row in rows if row]\n"
    plan.files[path] += block
    plan.changes[path] = _module_text(plan, module).replace(block, "")
    entry = f"Call `{name}()` to drop empty {module} rows before an export."
    plan.add(_section(plan), _label("stale-symbol", entry, "STALE"))


def plant_renamed_file(plan: _Plan) -> None:
    name = _fresh(plan, EXTRA)
    old, new = f"src/{plan.pkg}/{name}.py", f"src/{plan.pkg}/{name}_handlers.py"
    plan.files[old] = module_source(name)
    plan.renames[old] = new
    entry = f"**When touching {name.replace('_', ' ')}:** `{old}` {_describe(plan, name)}."
    plan.add(_section(plan), _label("renamed-file", entry, "STALE", want=new))


def plant_renamed_symbol(plan: _Plan) -> None:
    module = plan.rng.choice(plan.modules)
    number = plan.rng.randrange(100, 999)
    old, new = f"compute_{module}_total_{number}", f"calculate_{module}_total_{number}"
    path = f"src/{plan.pkg}/{module}.py"
    block = f"\n\ndef {old}(items):\n    return sum(item.amount for item in items)\n"
    plan.files[path] += block
    plan.changes[path] = _module_text(plan, module) + block.replace(old, new)
    plan.changes[path] = str(plan.changes[path]).replace(block, "", 1)
    entry = f"Use `{old}()` for {module} totals; it already rounds to cents."
    plan.add(_section(plan), _label("renamed-symbol", entry, "STALE", want=new))


def plant_renamed_script(plan: _Plan) -> None:
    number = plan.rng.randrange(10, 99)
    noun = _fresh(plan, NOUNS).replace("_", "")
    old, new = f"check:{noun}{number}", f"verify:{noun}{number}"
    plan.scripts[old] = f"node scripts/check.js {number}"
    plan.script_renames[old] = new
    entry = f"Run `npm run {old}` before changing the {noun} screens of the web client."
    plan.add("Commands", _label("renamed-script", entry, "STALE", want=new))


def plant_duplicate(plan: _Plan) -> None:
    sentence = _plain(plan)
    group = f"dup-{len(plan.entries)}"
    for _ in range(2):
        plan.add(_section(plan), _label("duplicate", sentence, "REDUNDANT", removable=True, group=group))


def plant_merge(plan: _Plan) -> None:
    first, second = plan.rng.choice(MERGES)
    module = _fresh(plan, NOUNS)
    group = f"merge-{len(plan.entries)}"
    section = _section(plan)
    for template in (first, second):
        plan.add(section, _label("near-duplicate", template.format(m=module), "MERGE", group=group))


def plant_superseded(plan: _Plan) -> None:
    old, new, what = plan.rng.choice(SWITCHES)
    scope = _fresh(plan, NOUNS)
    group = f"sup-{len(plan.entries)}"
    older = f"We use {old} for {what} in the {scope} app."
    newer = f"Switched from {old} to {new} for {what} in the {scope} app; the old config is gone."
    plan.add("Decisions", _label("superseded-old", older, "SUPERSEDED", removable=True, group=group))
    plan.add("Decisions", _label("superseded-new", newer, "", group=group))


def plant_contradict_manifest(plan: _Plan) -> None:
    module = plan.rng.choice(plan.modules)
    choices = [
        (f"The {module} models are built on pydantic 1.x validators.", "pydantic 2.x"),
        (f"The {module} web client requires Node 18 for local builds.", "Node 20"),
        (f"The {module} queries rely on SQLAlchemy 1.4 style Query objects.", "SQLAlchemy 2.0"),
    ]
    entry, want = plan.rng.choice(choices)
    plan.add(_section(plan), _label("contradict-manifest", entry, "CONTRADICT", want=want))


def plant_contradict_pair(plan: _Plan) -> None:
    service = _fresh(plan, NOUNS)
    group = f"port-{len(plan.entries)}"
    section = _section(plan)
    for port in plan.rng.sample([8080, 3000, 5173, 8000, 9090], 2):
        entry = f"The {service} dev server listens on port {port} when started locally."
        plan.add(section, _label("contradict-pair", entry, "CONTRADICT", group=group))


def plant_relative_date(plan: _Plan) -> None:
    lang, template, offset = plan.rng.choice(RELATIVE)
    module = _fresh(plan, NOUNS)
    if offset == "week":
        monday = MEMORY_DAY - timedelta(days=MEMORY_DAY.weekday())
        want = (monday - timedelta(weeks=1)).isoformat()
    else:
        want = (MEMORY_DAY + timedelta(days=int(str(offset)))).isoformat()
    entry = template.format(m=module)
    plan.add(_section(plan), _label(f"relative-date-{lang}", entry, "DATE_FIX", want=want))


def plant_low_value(plan: _Plan) -> None:
    used = {e.entry for _, e in plan.entries}
    options = [s for s in LOW_VALUE if f"- {s}" not in used] or LOW_VALUE
    plan.add(_section(plan), _label("low-value", plan.rng.choice(options), "LOW-VALUE", removable=True))


def plant_secret(plan: _Plan) -> None:
    token = "".join(plan.rng.choices(string.ascii_letters + string.digits, k=36))
    service = _fresh(plan, NOUNS)
    options = [
        f"The {service} staging deploy token is ghp_{token}; CI reads it from the vault too.",
        f"Sandbox key for the {service} partner API: sk-ant-{token[:24]}.",
        f"The {service} replica password={token[:16]} works only from the VPN.",
    ]
    plan.add(_section(plan), _label("secret", plan.rng.choice(options), "SECRET"))


def plant_redundant_claude(plan: _Plan) -> None:
    module = _fresh(plan, NOUNS)
    sentence = plan.rng.choice(CONVENTIONS).format(m=module)
    plan.claude.append(sentence)
    plan.add(_section(plan), _label("claude-redundant", sentence, "REDUNDANT", removable=True))


def plant_bare_pointer(plan: _Plan) -> None:
    topic = f"reference_{_fresh(plan, EXTRA)}.md"
    subject = topic[10:-3].replace("_", " ")
    plan.topics[topic] = (
        f"---\nname: {subject} runbook\ndescription: When restarting the {subject} workers: drain the queue first\n"
        f"type: reference\n---\n\n# {subject} runbook\n\nDrain the queue, then restart the workers one by one.\n"
    )
    plan.add("Reference", _label("bare-pointer", f"[{topic}]({topic})", "HYGIENE", want="**When"))


def plant_dangling_pointer(plan: _Plan) -> None:
    subject = _fresh(plan, EXTRA)
    entry = (
        f"**When rotating {subject} credentials:** revoke the old pair first. → [detail](ops_{subject}.md)"
    )
    plan.add("Reference", _label("dangling-pointer", entry, "HYGIENE"))


def plant_topic_merge(plan: _Plan) -> None:
    subject = _fresh(plan, NOUNS)
    shared = (
        f"The {subject} exporter writes one CSV per tenant and uploads it to the shared bucket.\n\n"
        f"Large {subject} exports are split into chunks of ten thousand rows to stay under the upload limit.\n"
    )
    group = f"topic-{len(plan.entries)}"
    for name, extra in (
        ("", f"Retry failed {subject} uploads with the same chunk number."),
        ("_notes", f"Exports for the {subject} archive skip soft-deleted rows."),
    ):
        topic = f"feedback_{subject}_export{name}.md"
        plan.topics[topic] = f"# {subject} export{name}\n\n{shared}\n{extra}\n"
        entry = f"**When changing the {subject} export{name.replace('_', ' ')}:** chunk uploads per tenant. → [detail]({topic})"
        plan.add("Feedback", _label("topic-merge", entry, "MERGE", group=group))


PLANTERS: list[Callable[[_Plan], None]] = [
    plant_stale_file,
    plant_stale_symbol,
    plant_renamed_file,
    plant_renamed_symbol,
    plant_renamed_script,
    plant_duplicate,
    plant_merge,
    plant_superseded,
    plant_contradict_manifest,
    plant_contradict_pair,
    plant_relative_date,
    plant_low_value,
    plant_secret,
    plant_redundant_claude,
    plant_bare_pointer,
    plant_dangling_pointer,
    plant_topic_merge,
]


# -- valid entries ------------------------------------------------------------------------------


def _plain(plan: _Plan) -> str:
    used = {e.entry for _, e in plan.entries}
    for _ in range(500):
        sentence = plan.rng.choice(PLAIN).format(
            m=plan.rng.choice(NOUNS), a=plan.rng.choice(ADJECTIVES), d=plan.rng.choice(DAYS)
        )
        if f"- {sentence}" not in used:
            return sentence
    return sentence


def valid_path(plan: _Plan) -> None:
    module = plan.rng.choice(plan.modules)
    entry = f"`src/{plan.pkg}/{module}.py` {_describe(plan, module)}."
    if any(entry[:-1] in e.entry for _, e in plan.entries):
        return
    if plan.rng.random() < 0.4:
        entry = f"**When editing {module} code:** {entry}"
    plan.add(_section(plan), _label("valid-path", entry))


def valid_symbol(plan: _Plan) -> None:
    module = plan.rng.choice(plan.modules)
    options = [
        f"`{module.capitalize()}Service.refresh` reloads every {module} from the cache in one query.",
        f"Call `load_{module}()` before `save_{module}()` so the optimistic lock version is current.",
    ]
    plan.add(_section(plan), _label("valid-symbol", plan.rng.choice(options)))


def valid_version(plan: _Plan) -> None:
    module = plan.rng.choice(plan.modules)
    options = [
        f"The {module} schemas use pydantic 2.x `model_validate`, not the v1 parse helpers.",
        f"The {module} web client needs Node 20 or newer for the local build.",
        f"The {module} service targets Python 3.11 features such as `TaskGroup`.",
        f"The {module} screens are React 18 function components with hooks.",
    ]
    plan.add(_section(plan), _label("valid-version", plan.rng.choice(options)))


def valid_command(plan: _Plan) -> None:
    module = plan.rng.choice(plan.modules)
    options = [
        f"Run `make lint` before pushing changes to the {module} module.",
        f"`npm run build` produces the production bundle that embeds the {module} widgets.",
        f"`make test` runs the whole suite including the slow {module} checks.",
        f"`npm run dev` serves the web client with hot reload for {module} screens.",
    ]
    plan.add("Commands", _label("valid-command", plan.rng.choice(options)))


def valid_plain(plan: _Plan) -> None:
    plan.add(_section(plan), _label("valid-plain", _plain(plan)))


def valid_historical(plan: _Plan) -> None:
    name = _fresh(plan, EXTRA)
    path = f"src/{plan.pkg}/{name}.py"
    plan.files[path] = module_source(name)
    plan.changes[path] = None
    taken = {e.entry for _, e in plan.entries if e.kind == "valid-historical"}
    free = [m for m in plan.modules if not any(f"/{m}.py" in entry for entry in taken)]
    module = plan.rng.choice(free or plan.modules)
    options = [
        f"`{path}` was removed in the spring cleanup; `src/{plan.pkg}/{module}.py` took over its job.",
        f"Never re-add `{path}`: it duplicated `src/{plan.pkg}/{module}.py` and caused double billing.",
    ]
    plan.add(_section(plan), _label("valid-historical", plan.rng.choice(options)))


def valid_reference(plan: _Plan) -> None:
    module = plan.rng.choice(plan.modules)
    options = [
        f"The {module} design notes live at https://wiki.example.com/{plan.pkg}/{module}-design.",
        f"Since 2026-02-10 the nightly job exports {module} reports for the finance team.",
        f"Tests for the {module} module follow `tests/test_*.py` naming and use the shared fixtures.",
    ]
    plan.files.setdefault(f"tests/test_{module}.py", f"def test_{module}():\n    assert True\n")
    plan.add(_section(plan), _label("valid-reference", plan.rng.choice(options)))


def valid_pointer(plan: _Plan) -> None:
    free = [m for m in plan.modules if f"project_{m}_flow.md" not in plan.topics]
    module = plan.rng.choice(free or plan.modules)
    topic = f"project_{module}_flow.md"
    plan.topics[topic] = (
        f"---\nname: {module} flow\ndescription: how a {module} moves through the system\ntype: project\n---\n\n"
        f"# {module} flow\n\nThe entry point is `src/{plan.pkg}/{module}.py`; `load_{module}()` fetches the record.\n"
        f"{plan.rng.choice(DESCRIPTIONS).format(m=module).capitalize()}.\n"
    )
    entry = f"**When debugging the {module} flow:** start at `load_{module}()`. → [detail]({topic})"
    plan.add(_section(plan), _label("valid-pointer", entry))


VALID: list[Callable[[_Plan], None]] = [
    valid_path,
    valid_symbol,
    valid_version,
    valid_command,
    valid_plain,
    valid_historical,
    valid_reference,
    valid_pointer,
    valid_plain,
]


def order_pairs(entries: list[tuple[str, Any]]) -> None:
    """Put the older member of each superseded pair first (position is the only date they differ by)."""
    positions: dict[str, list[int]] = {}
    for index, (_, label) in enumerate(entries):
        if label.kind.startswith("superseded"):
            positions.setdefault(label.group, []).append(index)
    for indexes in positions.values():
        members = sorted((entries[i] for i in indexes), key=lambda e: e[1].kind != "superseded-old")
        for index, member in zip(indexes, members, strict=True):
            entries[index] = member
