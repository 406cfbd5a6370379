#!/usr/bin/env bash
# `dtb serve`: option errors (exit 2), a table directory that cannot be read
# or an address in use (exit 1), loopback by default, and a clean exit (0)
# on SIGTERM (a background job ignores SIGINT: tests/serve/test_http_api.py
# sends that one). The HTTP API and the page: tests/serve/.
set -uo pipefail
dtb=$1
tables=${DTB_TEST_TABLES:?DTB_TEST_TABLES must name the 2-4 piece tables}
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT

expect_usage() {  # stderr-substring, arguments...
  local want=$1; shift
  local err; err=$("$dtb" serve "$@" 2>&1 >/dev/null); local rc=$?
  [ $rc -eq 2 ] || fail "serve $*: exit $rc, want 2"
  [[ "$err" == *"$want"* ]] || fail "serve $*: stderr '$err' lacks '$want'"
}
expect_usage "unknown option" --bogus 1
expect_usage "--port needs" --port 70000
expect_usage "--port needs" --port x
expect_usage "--threads needs" --threads 0
expect_usage "--cache needs" --cache 0
expect_usage "--cache needs" --cache 12Q
expect_usage "--timeout needs" --timeout 0
expect_usage "needs a value" --tables
expect_usage "unexpected argument" somewhere

err=$("$dtb" serve --tables /nonexistent/tables --port 0 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && [[ "$err" == *"cannot read table directory"* ]] || fail "missing directory: $rc $err"

# Start a server on a free port; its first line names the address.
start() {  # name, arguments...
  local name=$1; shift
  "$dtb" serve --tables "$tables" --port 0 "$@" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
  for _ in $(seq 100); do grep -q "listening" "$work/$name.out" && return 0; sleep 0.1; done
  fail "$name did not start: $(cat "$work/$name.err")"
}
start a --cache 16M --threads 2
line=$(head -1 "$work/a.out")
[[ "$line" == "dtb serve: listening on http://127.0.0.1:"*"/ (tables $tables, 2 threads)" ]] || fail "address: $line"
port=$(sed -E 's|.*127\.0\.0\.1:([0-9]+)/.*|\1|' <<<"$line")
err=$("$dtb" serve --tables "$tables" --port "$port" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && [[ "$err" == *"cannot listen on 127.0.0.1:$port"* ]] || fail "port in use: $rc $err"

kill -TERM "${pids[0]}"; wait "${pids[0]}"; rc=$?
[ $rc -eq 0 ] || fail "SIGTERM: exit $rc"
start b --cache 1G --timeout 2
kill -TERM "${pids[1]}"; wait "${pids[1]}"; rc=$?
[ $rc -eq 0 ] || fail "SIGTERM: exit $rc"
grep -q "serve" <<< "$("$dtb" help)" || fail "help lists serve"  # not a pipe: see rules_commands.sh
echo "dtb serve: all checks passed"
