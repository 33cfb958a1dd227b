"""The eval results as tables."""

from __future__ import annotations

from typing import Any, TextIO

from ..console import print_table


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def print_report(result: dict[str, Any], out: TextIO) -> None:
    discoverer, auditor, proposals = result["discoverer"], result["auditor"], result["proposals"]
    out.write(f"{len(result['scenarios'])} scenarios in {result['seconds']} s\n\n")
    rows = [[k, _fmt(v["precision"]), _fmt(v["recall"])] for k, v in discoverer["by_kind"].items()]
    rows.append(["all", _fmt(discoverer["precision"]), _fmt(discoverer["recall"])])
    print_table(["Discoverer signal", "Precision", "Recall"], rows, out)
    out.write("\n")
    rows = [
        [
            c,
            _fmt(a["precision"]),
            _fmt(a["recall"]),
            _fmt(proposals["by_category"][c]["precision"]),
            _fmt(proposals["by_category"][c]["recall"]),
        ]
        for c, a in auditor["by_category"].items()
    ]
    rows.append(["all", _fmt(auditor["precision"]), _fmt(auditor["recall"]), "", ""])
    print_table(["Category", "Auditor P", "Auditor R", "Proposal P", "Proposal R"], rows, out)
    out.write(
        f"\nADD proposals: precision {_fmt(proposals['add_precision'])}, "
        f"recall within the cap {_fmt(proposals['add_recall_within_cap'])}\n"
    )
    out.write(
        f"false REMOVEs: {result['false_removes']}; secrets leaked: {result['secrets_leaked']}; "
        f"index within budget after apply: {result['within_budget']}; second run idempotent: "
        f"{result['idempotent']}\n"
    )
    for example in result["false_remove_examples"]:
        out.write(f"  false REMOVE: {example}\n")
    out.write("\n")
    print_table(
        ["Target", "Met"], [[name, "yes" if met else "NO"] for name, met in result["targets"].items()], out
    )
