#!/bin/sh
# consolidate's hook launcher: find a Python 3.11+ that can run the hook, and when none can, never
# fail open for a guard lesson.
#
#   consolidate-hook.sh EVENT [--python PY] [--path DIR] [--via plugin|settings]
#
# Interpreters are tried in order: $CONSOLIDATE_PYTHON, --python (the one `consolidate install`
# recorded), the one that worked last time (<state>/hook-python), python3.13, python3.12, python3.11,
# python3. Each checks its own version before it imports anything, so the first one that works is the
# only interpreter started. --path is the directory holding the `consolidate` package (the plugin's
# root, or where install found it). With no interpreter that can run the hook, PreToolUse blocks the
# call (exit 2) when a guard lesson is active for this project, SessionStart says so once per session,
# and every event logs the reason to <state>/hooks.log.

[ "$CONSOLIDATE_CHILD" = 1 ] && exit 0
event=$1
[ $# -gt 0 ] && shift
python= path= via=settings
while [ $# -gt 1 ]; do
  case $1 in
    --python) python=$2 ;;
    --path) path=$2 ;;
    --via) via=$2 ;;
  esac
  shift 2
done
state=${CONSOLIDATE_STATE_DIR:-${CLAUDE_CONFIG_DIR:-$HOME/.claude}/consolidate}
case $state in "~/"*) state=$HOME/${state#"~/"} ;; esac
cached=
[ -r "$state/hook-python" ] && read -r cached <"$state/hook-python"
[ "$cached" = "$python" ] || [ "$cached" = "$CONSOLIDATE_PYTHON" ] && cached=

# Exit 86: older than 3.11; 87: consolidate cannot be imported. Both before stdin is read.
# The session's directory is not on the path: a project's own `consolidate/` or `json.py` never loads.
# With --path the interpreter starts isolated and without site (-I -S: no site-packages scan, no .pth
# files; the hook path needs only the standard library); site-packages are added only when the package
# is not at --path after all. Once the hook has answered and its output is flushed, the interpreter
# leaves without its teardown (os._exit): every file the hook wrote is closed by then, and tearing
# down a hundred modules costs a hook process about a fifth of its time. The cycle collector is off: a
# hook lives a fraction of a second and makes no cycles worth collecting, and the collector's passes
# over what the imports create cost it 2-3 ms of CPU.
code='import gc, sys
if sys.version_info < (3, 11): sys.exit(86)
gc.disable()
if sys.path and sys.path[0] in ("", "."): del sys.path[0]
if sys.argv[2]: sys.path.insert(0, sys.argv[2])
try:
    from consolidate.hooks.launch import bootstrap_main
except Exception:
    try:
        import site
        site.main()
        from consolidate.hooks.launch import bootstrap_main
    except Exception:
        sys.exit(87)
code = bootstrap_main(sys.argv[1], via=sys.argv[3])
try:
    sys.stdout.flush()
    sys.stderr.flush()
finally:
    import os
    os._exit(code)'
flags=-E
[ -n "$path" ] && flags="-I -S"

tried=
for py in ${CONSOLIDATE_PYTHON:+"$CONSOLIDATE_PYTHON"} ${python:+"$python"} ${cached:+"$cached"} \
  python3.13 python3.12 python3.11 python3; do
  "$py" $flags -c "$code" "$event" "$path" "$via" 2>/dev/null
  rc=$?
  case $rc in
    0 | 2) exit $rc ;;
    86) tried="$tried, $py (older than 3.11)" ;;
    87) tried="$tried, $py (cannot import consolidate)" ;;
    126 | 127) tried="$tried, $py (not found)" ;;
    *) tried="$tried, $py (exit $rc)" ;;
  esac
done

# Nothing could run the hook.
cat >/dev/null 2>&1
reason=$(printf '%s' "no Python 3.11+ can run consolidate's hooks (tried: ${tried#, })" | tr -d '"\\')
fix="fix: put a Python 3.11+ on PATH or set CONSOLIDATE_PYTHON (after moving consolidate, run \`consolidate install\` again)"
mkdir -p "$state" 2>/dev/null &&
  printf '%s %s: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$event" "$reason" >>"$state/hooks.log" 2>/dev/null

guarded() {
  real=$(cd "${CLAUDE_PROJECT_DIR:-.}" 2>/dev/null && pwd -P) || real=
  main=$(git -C "${real:-.}" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) || main=
  main=${main%/.git}
  for marker in "$state"/learnings/*/guard; do
    [ -f "$marker" ] || continue
    root=
    read -r root <"$marker" || [ -n "$root" ] || continue
    [ "$root" = "*" ] && return 0
    for dir in "$real" "$main"; do
      [ -n "$dir" ] || continue
      case "$dir/" in "$root"/*) return 0 ;; esac
    done
  done
  return 1
}

case $event in
  PreToolUse)
    if guarded; then
      printf 'consolidate: %s; a guard lesson is active for this project, so this call is blocked; %s\n' \
        "$reason" "$fix" >&2
      exit 2
    fi
    ;;
  SessionStart)
    sid=$CLAUDE_CODE_SESSION_ID
    case $sid in
      "" | *[!A-Za-z0-9_-]*) first=yes ;;
      *) mkdir -p "$state/sessions/$sid" 2>/dev/null
        mkdir "$state/sessions/$sid/hooks-cannot-run" 2>/dev/null && first=yes ;;
    esac
    if [ "$first" = yes ]; then
      message="consolidate: its hooks cannot run in this session: $reason. Lessons, guards and capture are off; $fix."
      printf '{"systemMessage": "%s", "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "%s Tell the user this once."}}\n' \
        "$message" "$message"
    fi
    ;;
esac
exit 0
