"""Pure library for Claude Code memory files: paths and project keys, parse and render, health.

Names are loaded on first use, so `memory_layout.paths` (standard library only) can serve the hooks
without importing the Markdown and YAML parsers the rest of the package needs.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`: the hooks import `memory_layout.paths`, and so this package

_EXPORTS = {
    "document": [
        "Block",
        "Document",
        "DocumentError",
        "Entry",
        "Section",
        "decode_document",
        "parse_document",
    ],
    "frontmatter": ["Frontmatter", "render_frontmatter"],
    "health": ["BUDGET_BYTES", "BUDGET_LINES", "Defect", "IndexBudget", "check_tree", "measure_index"],
    "paths": [
        "TEAM_DIR",
        "ProjectLayout",
        "claude_home",
        "find_git_root",
        "main_checkout",
        "project_key",
        "resolve_layout",
    ],
    "pointers": ["EntryKind", "Link", "Pointer", "always_on_pointer", "classify", "trigger_pointer"],
    "tree": ["CLUSTER_DIR", "INDEX", "MemoryFile", "MemoryTree", "load_memory_tree", "read_memory_file"],
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_MODULE_OF)

if TYPE_CHECKING:
    from typing import Any

    from .document import Block, Document, DocumentError, Entry, Section, decode_document, parse_document
    from .frontmatter import Frontmatter, render_frontmatter
    from .health import BUDGET_BYTES, BUDGET_LINES, Defect, IndexBudget, check_tree, measure_index
    from .paths import (
        TEAM_DIR,
        ProjectLayout,
        claude_home,
        find_git_root,
        main_checkout,
        project_key,
        resolve_layout,
    )
    from .pointers import EntryKind, Link, Pointer, always_on_pointer, classify, trigger_pointer
    from .tree import CLUSTER_DIR, INDEX, MemoryFile, MemoryTree, load_memory_tree, read_memory_file


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'memory_layout' has no attribute {name!r}")
    import importlib  # here: `memory_layout.paths` alone, as the hooks use it, needs no importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
