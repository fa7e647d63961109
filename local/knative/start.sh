#!/usr/bin/env bash
# `./dev start:knative`: builds Knative Eventing's parts once (build.sh), then runs local/knative/start.ts inside a
# network and mount namespace of its own (cluster-network.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$(bash local/knative/build.sh | tail -1)
exec bash local/knative/cluster-network.sh bash -c 'exec node local/knative/start.ts "$0" "$KNATIVE_HOSTS_FILE"' "$dir"
