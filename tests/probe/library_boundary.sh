#!/usr/bin/env bash
# The installed library includes nothing above it: every quoted include of
# rules/, index/, compress/ and probe/ names one of those folders (or the
# public header dtb/), and the public headers include only each other and
# the C/C++ standard library.
set -euo pipefail
cd "${DTB_SOURCE_DIR:-$(dirname "$0")/../..}"
status=0
while IFS=: read -r file line include; do
  target=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$include")
  case "$target" in
    rules/*|index/*|compress/*|probe/*|dtb/*) ;;
    */*) echo "FAIL: $file:$line includes $target, outside the probe library"; status=1 ;;
  esac
done < <(grep -n '#include "' rules/*.h rules/*.cpp index/*.h index/*.cpp compress/*.h compress/*.cpp \
                               probe/*.h probe/*.cpp probe/include/dtb/*)
if grep -n '#include "' probe/include/dtb/* | grep -v '"dtb/dtb.h"'; then
  echo "FAIL: a public header includes a project header other than dtb/dtb.h"; status=1
fi
[ "$status" -eq 0 ] && echo "probe library: every include stays inside rules/, index/, compress/, probe/"
exit "$status"
