#!/usr/bin/env bash
# The README's engine example, compiled against the INSTALLED package through
# pkg-config and run on the 2-4 piece tables with MTC: it must print the
# value, MTC and best move the README shows, and fail cleanly on a directory
# without tables.
set -euo pipefail
source_dir=${DTB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build_dir=${DTB_BUILD_DIR:-$(dirname "$1")/..}
tables=${DTB_TEST_MTC_TABLES:?DTB_TEST_MTC_TABLES must name the 2-4 piece tables with .mtc}
source "$source_dir/tests/support/readme_example.sh"
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
extract_readme_example "$source_dir/README.md" "$work/prog.c"
export PKG_CONFIG_PATH=$(echo "$work"/prefix/lib*/pkgconfig)
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -o "$work/prog" "$work/prog.c" $(pkg-config --cflags --libs dtb) \
  || fail "the README's example does not compile against the installed package"

out=$("$work/prog" "$tables") || fail "the example failed on the tables: $out"
expected=$(grep -oE '\./a\.out tables +# .*' "$source_dir/README.md" | head -1 | sed -E 's/.*# //')
[ "$out" = "$expected" ] || fail "the example printed '$out', the README says '$expected'"

mkdir "$work/empty"
if "$work/prog" "$work/empty" >"$work/err" 2>&1; then fail "the example succeeded without tables"; fi
grep -q . "$work/err" || fail "the example failed without a message"
echo "README engine example: $out"
