#!/usr/bin/env bash
# Reaps a control-plane run directory once its owning process is gone (even if it died by SIGKILL).
owner="$1"; run="$2"
while kill -0 "$owner" 2>/dev/null && [ -d "$run" ]; do sleep 1; done
exec bash "$(dirname "$0")/reap.sh" "$run"
