"""schedule install/remove against a temporary HOME and a fake crontab / systemctl on PATH."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from consolidate.cli import main
from consolidate.periodic.schedule import BEGIN, END, parse_every
from tests.helpers.memory import snapshot_bytes

FAKE_CRONTAB = """#!/bin/sh
# keeps the table in $FAKE_CRONTAB, logs every call to $FAKE_CRONTAB.calls
echo "crontab $*" >> "$FAKE_CRONTAB.calls"
case "$1" in
  -l) [ -f "$FAKE_CRONTAB" ] || { echo "no crontab for tester" >&2; exit 1; }; cat "$FAKE_CRONTAB";;
  -r) rm -f "$FAKE_CRONTAB";;
  *) cp "$1" "$FAKE_CRONTAB";;
esac
"""
FAKE_SYSTEMCTL = """#!/bin/sh
echo "systemctl $*" >> "$FAKE_SYSTEMCTL_CALLS"
"""


@pytest.fixture
def fake_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("crontab", FAKE_CRONTAB), ("systemctl", FAKE_SYSTEMCTL)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_CRONTAB", str(tmp_path / "crontab"))
    monkeypatch.setenv("FAKE_SYSTEMCTL_CALLS", str(tmp_path / "systemctl.calls"))
    return tmp_path


def schedule(capsys, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(["schedule", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("before", [None, 'MAILTO=""\n0 1 * * * backup.sh\n'])
def test_cron_install_then_remove_is_byte_identical(fake_bin, git_repo, capsys, before) -> None:  # type: ignore[no-untyped-def]
    table = fake_bin / "crontab"
    if before is not None:
        table.write_text(before)
    code, out, _ = schedule(capsys, "install", "--with", "cron", str(git_repo.path), "--every", "12h")
    assert code == 0
    text = table.read_text()
    assert text.startswith(before or BEGIN) and END in text
    line = next(x for x in text.splitlines() if "dream --prepare --background" in x)
    assert line.startswith("7 */12 * * * PYTHONPATH=") and line.endswith(f"{git_repo.path} >/dev/null 2>&1")
    assert out.index(line) < out.index("installed in the crontab")  # printed before it is written
    code, out, _ = schedule(capsys, "install", "--with", "cron", str(git_repo.path), "--every", "12h")
    assert "already holds this schedule: nothing changed" in out and table.read_text() == text
    code, out, _ = schedule(capsys, "remove", "--with", "cron")
    assert code == 0 and "removed from the crontab" in out
    assert (table.read_bytes() if table.exists() else None) == (before.encode() if before else None)
    backups = sorted((Path(os.environ["CONSOLIDATE_STATE_DIR"]) / "schedule").glob("crontab.backup-*"))
    assert backups and backups[-1].read_text() == text  # the crontab as it was before remove


def test_cron_dry_run_writes_nothing(fake_bin, git_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = schedule(capsys, "install", "--with", "cron", str(git_repo.path), "--dry-run")
    assert code == 0 and BEGIN in out and "dry run: the crontab was not changed" in out
    assert not (fake_bin / "crontab").exists()
    assert (
        "crontab -l" in (fake_bin / "crontab.calls").read_text()
        and "crontab /" not in (fake_bin / "crontab.calls").read_text()
    )


def test_systemd_install_then_remove_is_byte_identical(fake_bin, git_repo, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    home = Path(os.environ["HOME"])
    (home / ".config" / "systemd" / "user").mkdir(parents=True)
    (home / ".config" / "systemd" / "user" / "other.service").write_text("[Service]\nExecStart=/bin/true\n")
    before = snapshot_bytes(home / ".config")
    code, out, _ = schedule(capsys, "install", "--with", "systemd", str(git_repo.path), "--every", "1d")
    assert code == 0
    units = home / ".config" / "systemd" / "user"
    service = (units / "consolidate-dream.service").read_text()
    timer = (units / "consolidate-dream.timer").read_text()
    assert "dream --prepare --background --claude-home" in service and str(git_repo.path) in service
    assert "OnUnitActiveSec=24h" in timer and "Persistent=true" in timer
    assert out.index("OnUnitActiveSec=24h") < out.index("installed and started")
    calls = (tmp_path / "systemctl.calls").read_text().splitlines()
    assert calls == [
        "systemctl --user daemon-reload",
        "systemctl --user enable --now consolidate-dream.timer",
    ]
    code, out, _ = schedule(capsys, "install", "--with", "systemd", str(git_repo.path), "--every", "1d")
    assert "nothing changed" in out and len((tmp_path / "systemctl.calls").read_text().splitlines()) == 2
    code, out, _ = schedule(capsys, "remove", "--with", "systemd")
    assert code == 0 and snapshot_bytes(home / ".config") == before
    assert (tmp_path / "systemctl.calls").read_text().splitlines()[2:] == [
        "systemctl --user disable --now consolidate-dream.timer",
        "systemctl --user daemon-reload",
    ]


def test_bad_every_and_missing_project_are_usage_errors(fake_bin, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert schedule(capsys, "install", "--with", "cron", "--every", "5m")[0] == 2
    code, _, err = schedule(capsys, "install", "--with", "cron", str(tmp_path / "nope"))
    assert code == 2 and "no such project directory" in err
    assert parse_every("2d") == 48 and parse_every("1w") == 168


def test_remove_when_nothing_is_installed_changes_nothing(fake_bin, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = schedule(capsys, "remove", "--with", "cron")
    assert code == 0 and "holds no consolidate schedule" in out and not (fake_bin / "crontab").exists()


def test_cron_lines_space_projects_apart_and_escape_percent(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from consolidate.periodic.schedule import Job, cron_block

    block = cron_block(Job((tmp_path / "a", tmp_path / "b%c"), 48, tmp_path / "home"))
    lines = block.splitlines()
    assert lines[0] == BEGIN and lines[-1] == END
    assert lines[1].startswith("7 12 */2 * * ") and lines[2].startswith("17 12 */2 * * ")
    assert lines[2].endswith(f"{tmp_path}/b\\%c >/dev/null 2>&1")
