#!/usr/bin/env bash
# Runs `deno test` with the given args, streams its output, then prints
# "N passed, N failed[, N skipped]" last and exits with deno's own exit code.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
NO_COLOR=1 RUST_BACKTRACE=0 deno test "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
sum=$(grep -E '^(ok|FAILED) \| ' "$log" | tail -n 1)
num() { sed -nE "s/.*\| ([0-9]+) $1.*/\1/p" <<<"$sum"; }
passed=$(num passed) failed=$(num failed) ignored=$(num ignored)
if [[ -z $passed || -z $failed ]]; then
  passed=0 failed=1
elif ((rc != 0 && failed == 0)); then
  failed=1
fi
((rc == 0 && failed > 0)) && rc=1
echo "${passed} passed, ${failed} failed${ignored:+, ${ignored} skipped}"
exit "$rc"
