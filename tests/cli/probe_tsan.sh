#!/usr/bin/env bash
# The probe's concurrency test under ThreadSanitizer: configures a separate
# build (kept next to the main one, so later runs are incremental), builds
# only the probe's [concurrency] tests (test_probe_concurrency) with
# -fsanitize=thread and runs them. Any data race reported fails the test.
set -euo pipefail
source_dir=${DTB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build_dir=${DTB_BUILD_DIR:-$(dirname "$1")/..}/tsan-probe
cmake -S "$source_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDTB_SANITIZE_THREAD=ON \
  -DDTB_BUILD_BENCH=OFF -DDTB_BUILD_PYTHON=OFF -DDTB_BUILD_SERVER=OFF -DDTB_MPI=OFF >/dev/null
cmake --build "$build_dir" -j"$(nproc)" --target test_probe_concurrency >/dev/null
# DTB_BINARY: the (uninstrumented) tool that builds the .dtw tables some of the tests need.
DTB_BINARY=${DTB_BINARY:-$1} TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$build_dir/tests/test_probe_concurrency" "[concurrency]"
echo "probe concurrency test: no data race under ThreadSanitizer"
