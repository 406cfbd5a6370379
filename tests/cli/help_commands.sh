#!/usr/bin/env bash
# `dtb help`: every command's help answers the ways people ask for it
# (dtb help CMD, dtb CMD --help, dtb CMD -h) alike, on stdout, within 80
# columns; the version is the CMake project's; an unknown option names itself
# and the help; and the option names shared across commands (--tables,
# --cache, the deprecated --cache-mb and --rule62) are accepted.
set -uo pipefail
dtb=$1
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Output captured first, never piped: with pipefail a reader quitting early
# can kill dtb by SIGPIPE (rules_commands.sh).
within_80() {  # label, text
  local long; long=$(awk 'length > 80' <<<"$2")
  [ -z "$long" ] || fail "$1: lines longer than 80 columns: $long"
}

for form in help --help -h; do
  out=$("$dtb" $form) || fail "dtb $form: exit $?"
  [[ "$out" == *"commands:"* ]] || fail "dtb $form lists no commands: $out"
  within_80 "dtb $form" "$out"
done
list=$("$dtb" help)
commands=$(sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z0-9-]*\)  .*/\1/p' <<<"$list")
[ "$(wc -w <<<"$commands")" -ge 11 ] || fail "too few commands in dtb help: $commands"
for c in gen verify stats probe play plan info rules serve perft moves; do
  grep -qx "$c" <<<"$commands" || fail "dtb help does not list $c"
done

for c in $commands; do
  reference=$("$dtb" help "$c") || fail "dtb help $c: exit $?"
  grep -qE "^usage: dtb $c( |$)" <<<"$reference" || fail "dtb help $c: no usage line: $reference"
  grep -q "^options:$" <<<"$reference" || fail "dtb help $c: no options"
  within_80 "dtb help $c" "$reference"
  for flag in --help -h; do
    out=$("$dtb" "$c" $flag 2>"$work/err") || fail "dtb $c $flag: exit $?"
    [ "$out" = "$reference" ] || fail "dtb $c $flag differs from dtb help $c"
    [ ! -s "$work/err" ] || fail "dtb $c $flag wrote to stderr: $(cat "$work/err")"
  done
  err=$("$dtb" "$c" --no-such-option 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || fail "dtb $c --no-such-option: exit $rc, want 2"
  [[ "$err" == *"--no-such-option"* && "$err" == *"dtb $c --help"* ]] ||
    fail "dtb $c --no-such-option: '$err' does not name the option and the help"
done
err=$("$dtb" gen --foo 2>&1 >/dev/null)
[ "$err" = "dtb gen: unknown option --foo (see dtb gen --help)" ] || fail "gen --foo: $err"
"$dtb" help no-such-command >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "dtb help no-such-command: exit $rc, want 2"
# -h is help, not a FEN; an option missing its value says so.
out=$("$dtb" probe --tables /nonexistent -h) || fail "probe -h: exit $?"
[[ "$out" == "usage: dtb probe"* ]] || fail "probe -h: $out"
err=$("$dtb" gen --max-pieces 2 --out 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [[ "$err" == *"--out needs a value"* ]] || fail "gen --out without a value: $rc $err"

# The version is the one project() sets in CMakeLists.txt.
want=$(sed -nE 's/^project\(draughts_tb VERSION ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p' "${DTB_SOURCE_DIR:?}/CMakeLists.txt")
[ -n "$want" ] || fail "no version in the project() line of CMakeLists.txt"
for form in --version version; do
  out=$("$dtb" $form) || fail "dtb $form: exit $?"
  [ "$out" = "dtb $want" ] || fail "dtb $form: '$out', want 'dtb $want'"
done

# Deprecated names are listed as such, next to the new ones.
for c in probe play; do
  out=$("$dtb" help $c)
  grep -qE '^  --cache SIZE ' <<<"$out" || fail "dtb help $c: no --cache SIZE"
  grep -qE '^  --cache-mb N .*deprecated' <<<"$out" || fail "dtb help $c: --cache-mb not marked deprecated"
done
out=$("$dtb" help gen)
grep -qE '^  --article62 ' <<<"$out" || fail "dtb help gen: no --article62"
grep -qE '^  --rule62 .*deprecated' <<<"$out" || fail "dtb help gen: --rule62 not marked deprecated"
for c in verify stats rules serve probe play; do
  grep -qE '^  --tables DIR[ \[]' <<<"$("$dtb" help $c)" || fail "dtb help $c: no --tables DIR"
done

# --cache takes a size, --cache-mb a number of MiB; neither is a usage error.
for c in probe play; do
  for bad in 0 12Q; do
    err=$("$dtb" $c --cache $bad W:WK46:BK5 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && [[ "$err" == *"--cache needs"* ]] || fail "$c --cache $bad: $rc $err"
  done
done
tables=${DTB_TEST_MTC_TABLES:-}
if [ -z "$tables" ] || [ ! -e "$tables/KvK.mtc" ]; then
  # No tables: the options must still pass, and only the missing tables fail (exit 1).
  for c in probe play; do
    for cache in "--cache 64M" "--cache 64" "--cache-mb 64"; do
      # shellcheck disable=SC2086
      "$dtb" $c --tables "$work/none" $cache W:WK46:BK5 >/dev/null 2>&1; rc=$?
      [ $rc -eq 1 ] || fail "$c $cache without tables: exit $rc, want 1"
    done
  done
  echo "help: all checks passed (no MTC tables: options not probed with tables)"
  exit 0
fi

fen="W:WK46:BK5"
for c in probe play; do
  reference=$("$dtb" $c --tables "$tables" "$fen") || fail "$c --tables: exit $?"
  for cache in "--cache 64M" "--cache 1G" "--cache 64" "--cache-mb 64"; do
    # shellcheck disable=SC2086
    out=$("$dtb" $c --tables "$tables" $cache "$fen") || fail "$c $cache: exit $?"
    [ "$out" = "$reference" ] || fail "$c $cache: '$out', want '$reference'"
  done
  out=$(DTB_TABLES=$tables "$dtb" $c --cache 64M "$fen") || fail "$c with \$DTB_TABLES: exit $?"
  [ "$out" = "$reference" ] || fail "$c with \$DTB_TABLES: $out"
done

# DIR and --tables DIR are the same; two different directories are not.
a=$("$dtb" stats --json --quiet "$tables") || fail "stats DIR"
b=$("$dtb" stats --json --quiet --tables "$tables") || fail "stats --tables DIR"
[ "$a" = "$b" ] || fail "stats --tables DIR differs from stats DIR"
a=$("$dtb" rules --article 6.2 --json "$tables") || fail "rules DIR"
b=$("$dtb" rules --article 6.2 --json --tables "$tables") || fail "rules --tables DIR"
[ "$a" = "$b" ] || fail "rules --tables DIR differs from rules DIR"
"$dtb" verify --tables "$tables" --write-checksums "$work/sums" --checksums-only >/dev/null || fail "verify --tables"
"$dtb" verify "$tables" --checksums "$work/sums" --checksums-only >/dev/null || fail "verify DIR --checksums"
for c in stats verify rules; do
  err=$("$dtb" $c "$tables" --tables "$work" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] && [[ "$err" == *"at most one table directory"* ]] || fail "$c with two directories: $rc $err"
done

# gen --article62 and its old name build the same (tables up to 3 pieces: seconds).
for name in article62 rule62; do
  out=$("$dtb" gen --max-pieces 3 --$name --out "$work/$name" --threads 2 --quiet) || fail "gen --$name: exit $?"
  [[ "$out" == *"article 6.2: "* ]] || fail "gen --$name built no article 6.2 tables: $out"
  [ -e "$work/$name/KKvK.mtc" ] || fail "gen --$name wrote no .mtc tables"
done
# A set split over two directories reads as the one directory it came from:
# verify, stats and rules take DIR:DIR like the probing commands. A file of
# one name with other contents in the second directory is refused, naming
# both files.
whole=$work/article62
mkdir "$work/split-a" "$work/split-b"
n=0
for f in "$whole"/*; do
  n=$((n + 1))
  ln -s "$(readlink -f "$f")" "$work/split-$([ $((n % 2)) -eq 0 ] && echo a || echo b)/"
done
split="$work/split-a:$work/split-b"
for c in "stats --json --quiet" "rules --article 6.2 --json"; do
  # shellcheck disable=SC2086
  [ "$("$dtb" $c "$whole")" = "$("$dtb" $c --tables "$split")" ] || fail "$c over DIR:DIR differs from DIR"
done
a=$("$dtb" verify --quiet "$whole" | sed "s|$whole|DIR|g") || fail "verify DIR"
b=$("$dtb" verify --quiet --tables "$split") || fail "verify DIR:DIR"
[[ "$b" == "verified "* && "$b" != *"/dtb-tables-"* ]] || fail "verify DIR:DIR: $b"
[ "$a" = "$b" ] || fail "verify DIR:DIR says '$b', DIR '$a'"
cp "$whole/KvK.wdl" "$work/split-b/KvK.wdl.copy" && printf 'x' >> "$work/split-b/KvK.wdl.copy"
first=$(ls "$work/split-a" | head -1)
rm -f "$work/split-b/$first" && mv "$work/split-b/KvK.wdl.copy" "$work/split-b/$first"
for c in stats verify rules; do
  err=$("$dtb" $c --tables "$split" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 1 ] && [[ "$err" == *"two different files of one name"*"$first"* ]] || fail "$c with a conflict: $rc $err"
done

echo "help: all checks passed"
