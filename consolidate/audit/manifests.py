"""What the project's manifests say: dependency and runtime versions, scripts and make targets.

Read from pyproject.toml, requirements*.txt, package.json, Cargo.toml, go.mod, .nvmrc,
.node-version, .python-version, Makefiles and justfiles. A file that does not parse is skipped.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from .claims import package_key
from .versions import Range, parse_spec

MAX_MANIFEST_BYTES = 2_000_000
_REQUIREMENT = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?P<spec>[^;#]*)")


@dataclass
class Manifests:
    versions: dict[str, Range] = field(default_factory=dict)  # package or runtime key → allowed range
    where: dict[str, str] = field(default_factory=dict)  # key → the manifest that says so
    scripts: dict[str, set[str]] = field(default_factory=dict)  # "npm" | "make" | "just" → names
    script_files: dict[str, list[str]] = field(default_factory=dict)  # kind → manifests read
    opaque: set[str] = field(default_factory=set)  # kinds whose list may be incomplete (make include)

    def add_version(self, name: str, spec: str, source: str, *, bare: str = "exact") -> None:
        key = package_key(name)
        allowed = parse_spec(spec, bare=bare)
        if key in self.versions and self.versions[key].lower is not None:
            return  # the first (root) manifest wins
        self.versions[key] = allowed
        self.where[key] = source

    def add_scripts(self, kind: str, names: Iterable[str], source: str) -> None:
        self.scripts.setdefault(kind, set()).update(names)
        self.script_files.setdefault(kind, []).append(source)


def read_manifests(root: Path, tracked: Iterable[str]) -> Manifests:
    """Every manifest among the tracked files (root ones first)."""
    manifests = Manifests()
    paths = sorted(
        (p for p in tracked if PurePosixPath(p).name in _READERS or _is_requirements(p)), key=_depth
    )
    for relative in paths[:200]:
        name = PurePosixPath(relative).name
        reader = _READERS.get(name, _read_requirements)
        text = _read(root / relative)
        if text is not None:
            try:
                reader(manifests, text, relative)
            except (ValueError, TypeError, AttributeError, KeyError, RecursionError):
                continue
    return manifests


def _depth(path: str) -> tuple[int, str]:
    return path.count("/"), path


def _is_requirements(path: str) -> bool:
    return bool(re.fullmatch(r"requirements[\w.-]*\.(?:txt|in)", PurePosixPath(path).name))


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_MANIFEST_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _read_pyproject(m: Manifests, text: str, source: str) -> None:
    data = tomllib.loads(text)
    project = data.get("project", {})
    if project.get("requires-python"):
        m.add_version("python", project["requires-python"], source, bare="minimum")
    groups = [project.get("dependencies", [])] + list(project.get("optional-dependencies", {}).values())
    groups += list(data.get("dependency-groups", {}).values())
    for group in groups:
        for requirement in group:
            if isinstance(requirement, str):
                _add_requirement(m, requirement, source)
    poetry = data.get("tool", {}).get("poetry", {})
    for table in (poetry.get("dependencies", {}), poetry.get("dev-dependencies", {})):
        for name, spec in table.items():
            version = spec.get("version", "") if isinstance(spec, dict) else str(spec)
            m.add_version(name, version, source, bare="caret")
    scripts = list(project.get("scripts", {})) + list(poetry.get("scripts", {}))
    if scripts:
        m.add_scripts("console", scripts, source)


def _add_requirement(m: Manifests, line: str, source: str) -> None:
    match = _REQUIREMENT.match(line)
    if match and not line.lstrip().startswith(("-", "#")):
        m.add_version(match["name"], match["spec"].strip(), source)


def _read_requirements(m: Manifests, text: str, source: str) -> None:
    for line in text.splitlines():
        _add_requirement(m, line, source)


def _read_package_json(m: Manifests, text: str, source: str) -> None:
    data: dict[str, Any] = json.loads(text)
    for table in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
        for name, spec in (data.get(table) or {}).items():
            m.add_version(name, str(spec), source)
    engines = data.get("engines") or {}
    for runtime in ("node", "npm", "pnpm", "yarn", "bun"):
        if engines.get(runtime):
            m.add_version(runtime, str(engines[runtime]), source, bare="minimum")
    m.add_scripts("npm", list((data.get("scripts") or {}).keys()), source)


def _read_cargo(m: Manifests, text: str, source: str) -> None:
    data = tomllib.loads(text)
    package = data.get("package", {})
    if isinstance(package.get("rust-version"), str):
        m.add_version("rust", package["rust-version"], source, bare="minimum")
    for table in ("dependencies", "dev-dependencies", "build-dependencies"):
        for name, spec in data.get(table, {}).items():
            version = spec.get("version", "") if isinstance(spec, dict) else str(spec)
            m.add_version(name, version, source, bare="caret")


def _read_go_mod(m: Manifests, text: str, source: str) -> None:
    go = re.search(r"(?m)^go\s+(\d+(?:\.\d+)*)", text)
    if go:
        m.add_version("go", go.group(1), source, bare="minimum")
    for module, version in re.findall(r"(?m)^\s*(?:require\s+)?([\w./-]+\.[\w./-]+)\s+v(\d[\w.+-]*)", text):
        m.add_version(module.rsplit("/", 1)[-1], version, source, bare="minimum")


def _read_runtime_pin(runtime: str) -> Any:
    def read(m: Manifests, text: str, source: str) -> None:
        first = text.strip().splitlines()[0].strip() if text.strip() else ""
        if re.match(r"^v?\d", first):
            m.add_version(runtime, first.lstrip("v"), source, bare="exact")

    return read


def _read_makefile(m: Manifests, text: str, source: str) -> None:
    targets = re.findall(r"(?m)^([A-Za-z0-9_][\w.%/-]*(?:\s+[A-Za-z0-9_][\w.%/-]*)*)\s*::?(?!=)", text)
    names = {name for group in targets for name in group.split()}
    m.add_scripts("make", names, source)
    if re.search(r"(?m)^-?include\s", text):
        m.opaque.add("make")


def _read_justfile(m: Manifests, text: str, source: str) -> None:
    recipes = re.findall(r"(?m)^@?([A-Za-z_][\w-]*)(?:\s+[^:=\n]*)?:(?!=)", text)
    m.add_scripts("just", recipes, source)
    if re.search(r"(?m)^(?:import|mod)\s", text):
        m.opaque.add("just")


_READERS = {
    "pyproject.toml": _read_pyproject,
    "package.json": _read_package_json,
    "Cargo.toml": _read_cargo,
    "go.mod": _read_go_mod,
    ".nvmrc": _read_runtime_pin("node"),
    ".node-version": _read_runtime_pin("node"),
    ".python-version": _read_runtime_pin("python"),
    "Makefile": _read_makefile,
    "GNUmakefile": _read_makefile,
    "makefile": _read_makefile,
    "justfile": _read_justfile,
    "Justfile": _read_justfile,
}
