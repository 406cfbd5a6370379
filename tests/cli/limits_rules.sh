#!/usr/bin/env bash
# dtb rules: exit codes and messages on bad input (building the tables takes
# a minute and is covered by test_limits and scripts/check-limits).
set -uo pipefail
dtb=$1
fail() { echo "FAIL: $*"; exit 1; }
expect_fail() {  # stderr-substring, command...
  local want=$1; shift
  local err; err=$("$@" 2>&1 >/dev/null); local rc=$?
  [ $rc -ne 0 ] || fail "$* should fail"
  [[ "$err" == *"$want"* ]] || fail "$*: stderr '$err' lacks '$want'"
}
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
expect_fail "KvK.rule" "$dtb" rules "$empty"
expect_fail "dtb rules --build" "$dtb" rules --json "$empty"
expect_fail "unknown option" "$dtb" rules --bogus
expect_fail "at most one directory" "$dtb" rules a b
expect_fail "only makes sense with --build" "$dtb" rules --dtw-up-to 4 "$empty"
expect_fail "piece count from 4 to 7" "$dtb" rules --build --dtw-up-to 9 "$empty"
# A damaged rule table is reported, not trusted.
printf 'not a table' > "$empty/KvK.rule"
expect_fail "KvK.rule" "$dtb" rules "$empty"
echo ok
