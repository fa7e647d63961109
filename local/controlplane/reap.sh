#!/usr/bin/env bash
# Stops every process recorded in the given control-plane run directories (pids/*.pid, each the leader of
# its own process group): SIGTERM, up to 10 s grace, then SIGKILL; then removes the directories.
# Used by the watchdog when the owning process dies, by the harness for stale runs, and by .ci/run's trap.
# With --if-owner-dead first, a directory whose owner.pid is still alive is left alone.
set -u
only_dead=0; [ "${1:-}" = --if-owner-dead ] && { only_dead=1; shift; }
for run in "$@"; do
  [ -d "$run" ] || continue
  if [ "$only_dead" = 1 ] && kill -0 "$(cat "$run/owner.pid" 2>/dev/null || echo 0)" 2>/dev/null; then continue; fi
  [ -d "$run/pids" ] || { rm -rf "$run"; continue; }
  pids=()
  for f in "$run"/pids/*.pid; do [ -f "$f" ] && pids+=("$(cat "$f")"); done
  for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; done
  for _ in $(seq 1 40); do
    alive=0; for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break; sleep 0.25
  done
  for p in "${pids[@]}"; do kill -KILL -- "-$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
  rm -rf "$run"
done
exit 0
