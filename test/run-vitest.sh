#!/usr/bin/env bash
# Runs vitest with any arguments given, then prints the closing line "tests: N passed, N failed, N skipped".
rm -f test-artifacts/vitest.json
vitest run "$@"; code=$?
node test/summary.ts
exit $code
