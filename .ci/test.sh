#!/usr/bin/env bash
# Runs the tests, streams their output, then prints "N passed, N failed[, N skipped]" last and
# exits non-zero when anything failed.
#   bash .ci/test.sh            every test on SQLite and, side by side, the suites built on the
#                               test store (app, API, MCP, feeds, CLI, ingest, outbound) again on
#                               PostgreSQL; two test files at a time in each
#   bash .ci/test.sh ARGS…      one `deno test ARGS…` run
log=$(mktemp)
pg_dir=""
cleanup() {
  rm -f "$log" "${pg_log:-}"
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

# `.ci/run` type-checks every file (tests included) before it runs this; the test runs need not
# check them again.
check_flag=()
[[ -n ${STATUSD_TESTS_CHECKED:-} ]] && check_flag=(--no-check)

# Runs `deno test ARGS…` with its output in $1 (and on stdout unless $2 is "quiet"); returns
# deno's exit code.
run_tests() {
  local out=$1 mode=$2
  shift 2
  : >"$out"
  if [[ $mode == quiet ]]; then
    NO_COLOR=1 RUST_BACKTRACE=0 deno test "${check_flag[@]}" "$@" >"$out" 2>&1
  else
    NO_COLOR=1 RUST_BACKTRACE=0 deno test "${check_flag[@]}" "$@" 2>&1 | tee "$out"
    return "${PIPESTATUS[0]}"
  fi
}

# Adds a finished run's counts (its output in $1, its exit code $2) to the totals.
tally() {
  local out=$1 rc=$2
  local sum
  sum=$(grep -E '^(ok|FAILED) \| ' "$out" | tail -n 1)
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

pass() {
  local rc=0
  run_tests "$log" loud "$@" || rc=$?
  tally "$log" "$rc"
}

if (($# > 0)); then
  pass "$@"
else
  # The SQLite pass and the PostgreSQL pass run side by side, two test files at a time each, on
  # the 2-core CI machines: most files wait on servers, browsers, subprocesses and the clock, so
  # their waits overlap (measured on a slow machine for all of .ci/run: one pass after the other
  # about 11 min; side by side at two files each 9 min 27 s; three SQLite files at a time saved
  # nothing and timed out more reads). The PostgreSQL pass's output is printed when both are done.
  pg_pid=""
  if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || [[ -n ${STATUSD_TEST_DATABASE_URL:-} ]]; then
    # The suites whose verbs read and write the store: every file there that opens the test
    # store (tests/support/engine_suites.ts). The HTML pages and HTTP middleware (tests/routes/web,
    # tests/routes/middleware) render and guard the same verbs the API suites run here, and the
    # store port itself has its own conformance suite on both engines (tests/store).
    # The dependency-file suites (tests/routes/api/suggestions*) read uploads on a worker, not the
    # store, and stay SQLite-only too, as do the CLI's (tests/cli): the client talks HTTP to the
    # API, whose verbs run on PostgreSQL in tests/routes/api (they were 80 s of this pass, and the
    # run is bounded by the two passes' CPU on 2 cores).
    mapfile -t engine_suites < <(deno run --allow-read tests/support/engine_suites.ts \
      tests/app tests/ingest tests/outbound tests/routes/api tests/routes/mcp \
      tests/routes/feeds tests/routes/health_test.ts tests/routes/history_rewrites_test.ts \
      tests/routes/uptime_coverage_test.ts | grep -v '^tests/routes/api/suggestions')
    pg_log=$(mktemp)
    (
      export STATUSD_TEST_ENGINE=postgres DENO_JOBS=${DENO_JOBS:-2}
      run_tests "$pg_log" quiet -A --parallel "${engine_suites[@]}"
    ) &
    pg_pid=$!
  elif [[ -n ${CI:-} ]]; then
    echo "No PostgreSQL in CI: install Debian's postgresql (.ci/run does) or set STATUSD_TEST_DATABASE_URL"
    total_failed=$((total_failed + 1)) status=1
  else
    echo "PostgreSQL is not installed (Debian's postgresql): the PostgreSQL pass is skipped"
  fi
  DENO_JOBS=${DENO_JOBS:-2} pass -A --parallel tests/
  if [[ -n $pg_pid ]]; then
    pg_rc=0
    wait "$pg_pid" || pg_rc=$?
    echo "--- the same suites on PostgreSQL (STATUSD_TEST_ENGINE=postgres) ---"
    cat "$pg_log"
    tally "$pg_log" "$pg_rc"
    rm -f "$pg_log"
  fi
fi
skipped=""
((total_ignored > 0)) && skipped=", ${total_ignored} skipped"
echo "${total_passed} passed, ${total_failed} failed${skipped}"
exit "$status"
