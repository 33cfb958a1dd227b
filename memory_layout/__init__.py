"""Pure library for Claude Code memory files: paths and project keys, parse and render, health."""

from .document import Block, Document, DocumentError, Entry, Section, decode_document, parse_document
from .frontmatter import Frontmatter, render_frontmatter
from .health import BUDGET_BYTES, BUDGET_LINES, Defect, IndexBudget, check_tree, measure_index
from .paths import ProjectLayout, claude_home, find_git_root, project_key, resolve_layout
from .pointers import EntryKind, Link, Pointer, always_on_pointer, classify, trigger_pointer
from .tree import CLUSTER_DIR, INDEX, MemoryFile, MemoryTree, load_memory_tree, read_memory_file

__all__ = [
    "BUDGET_BYTES",
    "BUDGET_LINES",
    "CLUSTER_DIR",
    "INDEX",
    "Block",
    "Defect",
    "Document",
    "DocumentError",
    "Entry",
    "EntryKind",
    "Frontmatter",
    "IndexBudget",
    "Link",
    "MemoryFile",
    "MemoryTree",
    "Pointer",
    "ProjectLayout",
    "Section",
    "always_on_pointer",
    "check_tree",
    "claude_home",
    "classify",
    "decode_document",
    "find_git_root",
    "load_memory_tree",
    "measure_index",
    "parse_document",
    "project_key",
    "read_memory_file",
    "render_frontmatter",
    "resolve_layout",
    "trigger_pointer",
]
