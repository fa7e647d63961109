#!/usr/bin/env bash
# `npm run bench -- --engine knative ...` lands here (bench/run.ts): builds Knative Eventing's parts once into the
# test-binary cache (local/knative/build.sh), then runs the bench inside the private network and mount namespace its
# pods need (local/knative/cluster-network.sh), as `./dev test:knative` runs the scenarios. Arguments go to bench/run.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
KNATIVE_EVENTING_DIR=$(bash local/knative/build.sh | tail -1)
export KNATIVE_EVENTING_DIR
exec bash local/knative/cluster-network.sh node --max-old-space-size=16384 bench/run.ts "$@"
