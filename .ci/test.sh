#!/usr/bin/env bash
# Runs the tests, streams their output, then prints "N passed, N failed[, N skipped]" last and
# exits non-zero when anything failed.
#   bash .ci/test.sh            every test on SQLite, then the suites built on the test store
#                               (app, routes, cli, ingest) again on PostgreSQL, test files in
#                               parallel (as many at a time as the machine has cores)
#   bash .ci/test.sh ARGS…      one `deno test ARGS…` run
log=$(mktemp)
pg_dir=""
cleanup() {
  rm -f "$log"
  [[ -n $pg_dir ]] && deno run -A tests/support/postgres.ts stop "$pg_dir"
}
trap cleanup EXIT

# One throwaway PostgreSQL cluster for a whole run, shared by every test file through
# STATUSD_TEST_DATABASE_URL (each file would otherwise initdb and start one of its own, ~3 s of
# CPU each). When it cannot start, the files start their own and report why.
if (($# == 0)) && [[ -z ${STATUSD_TEST_DATABASE_URL:-} ]] \
  && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if read -r pg_url pg_dir < <(NO_COLOR=1 deno run -A tests/support/postgres.ts start) \
    && [[ -n $pg_url ]]; then
    export STATUSD_TEST_DATABASE_URL=$pg_url
  else
    pg_dir=""
    echo "Could not start one PostgreSQL cluster for the run: each test file starts its own"
  fi
fi
total_passed=0 total_failed=0 total_ignored=0 status=0

pass() {
  : >"$log"
  NO_COLOR=1 RUST_BACKTRACE=0 deno test "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local sum
  sum=$(grep -E '^(ok|FAILED) \| ' "$log" | tail -n 1)
  num() { sed -nE "s/.*\| ([0-9]+) $1.*/\1/p" <<<"$sum"; }
  local passed failed ignored
  passed=$(num passed) failed=$(num failed) ignored=$(num ignored)
  if [[ -z $passed || -z $failed ]]; then
    passed=0 failed=1
  elif ((rc != 0 && failed == 0)); then
    failed=1
  fi
  ((rc != 0 || failed > 0)) && status=1
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  total_ignored=$((total_ignored + ${ignored:-0}))
}

if (($# > 0)); then
  pass "$@"
else
  # Three test files at a time on the 2-core CI machines: most files wait on servers, browsers
  # and subprocesses, so a third overlaps their waits (measured: 460 s for the whole run at four
  # at a time, against about 500 s at two).
  export DENO_JOBS=${DENO_JOBS:-3}
  pass -A --parallel tests/
  if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || [[ -n ${STATUSD_TEST_DATABASE_URL:-} ]]; then
    echo "--- the same suites on PostgreSQL (STATUSD_TEST_ENGINE=postgres) ---"
    STATUSD_TEST_ENGINE=postgres pass -A --parallel tests/app tests/routes tests/cli tests/ingest tests/outbound
  elif [[ -n ${CI:-} ]]; then
    echo "No PostgreSQL in CI: install Debian's postgresql (.ci/run does) or set STATUSD_TEST_DATABASE_URL"
    total_failed=$((total_failed + 1)) status=1
  else
    echo "PostgreSQL is not installed (Debian's postgresql): the PostgreSQL pass is skipped"
  fi
fi
skipped=""
((total_ignored > 0)) && skipped=", ${total_ignored} skipped"
echo "${total_passed} passed, ${total_failed} failed${skipped}"
exit "$status"
