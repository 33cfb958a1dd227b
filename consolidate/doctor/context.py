"""Everything the checks look at, read once: the memory tree, both CLAUDE.md files and what they
import, the capture config, Claude's settings files."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from memory_layout import Defect, MemoryTree, ProjectLayout, check_tree, load_memory_tree

from ..capture.config import Config, load_config
from ..capture.places import repo_root
from ..fsutil import parse_json_object
from ..recall.memoryfiles import read_text
from ..settings import Settings
from .imports import Import, find_imports


@dataclass
class DoctorContext:
    settings: Settings
    now: datetime
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))

    @property
    def layout(self) -> ProjectLayout:
        return self.settings.layout

    @cached_property
    def repo(self) -> Path:
        """The main checkout (the key of the queue bucket, the lessons and the handoff)."""
        return repo_root(self.layout.project)

    @cached_property
    def tree(self) -> MemoryTree:
        return load_memory_tree(self.settings.memory_dir)

    @cached_property
    def defects(self) -> list[Defect]:
        return check_tree(self.tree)

    @cached_property
    def config(self) -> Config:
        return load_config(self.settings.state_dir, self.repo)

    @cached_property
    def claude_md_files(self) -> dict[str, Path]:
        """Both CLAUDE.md files by how the report names them (absent ones included)."""
        return {"~/.claude/CLAUDE.md": self.layout.user_claude_md, "CLAUDE.md": self.layout.project_claude_md}

    @cached_property
    def imports(self) -> list[Import]:
        """Every `@path` import of both CLAUDE.md files, followed as Claude Code does (5 hops)."""
        found: list[Import] = []
        for path in self.claude_md_files.values():
            found += find_imports(path, home=Path(self.env.get("HOME") or Path.home()))
        return found

    def read(self, path: Path) -> str | None:
        """A text file's content, or None when absent, too big, binary or unreadable."""
        return read_text(path)

    @cached_property
    def settings_files(self) -> dict[str, dict[str, Any]]:
        """Claude Code's settings that can wire hooks: user, project and local (absent or broken → {})."""
        return {name: parse_json_object(self.read(path)) for name, path in self.settings_paths.items()}

    @property
    def settings_paths(self) -> dict[str, Path]:
        """Where each settings file of `settings_files` lives, by the same name."""
        project = self.layout.git_root or self.layout.project
        return {
            "~/.claude/settings.json": self.layout.claude_home / "settings.json",
            ".claude/settings.json": project / ".claude" / "settings.json",
            ".claude/settings.local.json": project / ".claude" / "settings.local.json",
        }
