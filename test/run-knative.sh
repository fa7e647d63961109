#!/usr/bin/env bash
# The e2e scenarios on Knative Eventing's own parts (issue 24): builds them from knative.dev/eventing (once, into the
# test-binary cache), then runs vitest's `knative` project inside a private network and mount namespace
# (local/knative/cluster-network.sh). Arguments go to vitest. Report: test-artifacts/vitest-knative.json.
set -euo pipefail
cd "$(dirname "$0")/.."
KNATIVE_EVENTING_DIR=$(bash local/knative/build.sh | tail -1)
export KNATIVE_EVENTING_DIR
mkdir -p test-artifacts; rm -f test-artifacts/vitest-knative.json
exec bash local/knative/cluster-network.sh vitest run --project knative --outputFile.json=test-artifacts/vitest-knative.json "$@"
