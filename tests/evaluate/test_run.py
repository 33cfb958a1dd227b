"""The evaluation's second dream: an ADD that restates what the first dream added is a duplicate."""

from __future__ import annotations

from consolidate.evaluate.run import _duplicate_adds
from consolidate.plan import Proposal


def add(n: int, summary: str) -> Proposal:
    return Proposal.model_validate(
        {
            "id": f"P{n}",
            "action": "ADD",
            "summary": summary,
            "target": {"file": "MEMORY.md"},
            "changes": [{"op": "add_entry", "file": "MEMORY.md", "section": "Feedback", "text": summary}],
        }
    )


def test_an_add_in_other_words_is_a_duplicate_one_sharing_a_command_is_not() -> None:
    first = [
        add(1, "After the tests pass, deploy the build right away with `make deploy` so staging runs it")
    ]
    assert (
        _duplicate_adds(first, [add(1, "Once all the tests pass, deploy it ASAP so we try it on staging.")])
        == 1
    )
    assert _duplicate_adds(first, [add(1, "When `make deploy` times out, rerun it with `TIMEOUT=600`.")]) == 0
