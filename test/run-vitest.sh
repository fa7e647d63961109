#!/usr/bin/env bash
# Runs vitest with any arguments given — without arguments also the Knative Eventing scenarios (test/run-knative.sh) —
# then prints the closing line "tests: N passed, N failed, N skipped".
rm -f test-artifacts/vitest.json test-artifacts/vitest-knative.json
if [ "$#" -gt 0 ]; then
  vitest run "$@"; code=$?
  node test/summary.ts test-artifacts/vitest.json
  exit $code
fi
vitest run --project unit --project integration; code=$?
bash test/run-knative.sh; knative=$?
node test/summary.ts test-artifacts/vitest.json test-artifacts/vitest-knative.json
[ "$code" -eq 0 ] && exit "$knative"
exit $code
