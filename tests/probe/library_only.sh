#!/usr/bin/env bash
# The probe library stands alone: configured with -DDTB_LIBRARY_ONLY=ON while
# every optional package is made unfindable, it builds and installs with only
# a C++ compiler, CMake, zstd and xxHash. The README's engine example then
# compiles through `pkg-config --cflags --libs dtb` against the static
# archives and against the shared libdtb (versioned soname, only the C API
# exported), and answers like the full build.
set -euo pipefail
source_dir=${DTB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tables=${DTB_TEST_MTC_TABLES:?DTB_TEST_MTC_TABLES must name the 2-4 piece tables with .mtc}
source "$source_dir/tests/support/readme_example.sh"
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extract_readme_example "$source_dir/README.md" "$work/prog.c"
expected=$(grep -oE '\./a\.out tables +# .*' "$source_dir/README.md" | head -1 | sed -E 's/.*# //')

unfindable=()
for p in OpenMP Catch2 benchmark pybind11 Python MPI; do unfindable+=("-DCMAKE_DISABLE_FIND_PACKAGE_$p=ON"); done

for kind in static shared; do
  shared=OFF; [ "$kind" = shared ] && shared=ON
  build=$work/build-$kind prefix=$work/prefix-$kind
  # Unoptimised: the point is what it needs and exports, and it builds faster.
  cmake -S "$source_dir" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DDTB_LIBRARY_ONLY=ON \
    -DBUILD_SHARED_LIBS=$shared "${unfindable[@]}" > "$work/configure.log" 2>&1 \
    || { cat "$work/configure.log"; fail "$kind: the library-only build does not configure"; }
  # CMake names each CMAKE_DISABLE_FIND_PACKAGE_X that no find_package(X) read:
  # all of them, so none was even looked for; nor was cpp-httplib (pkg-config).
  for p in OpenMP Catch2 benchmark pybind11 Python MPI; do
    grep -q "^ *CMAKE_DISABLE_FIND_PACKAGE_$p\$" "$work/configure.log" \
      || fail "$kind: the library-only build looked for $p"
  done
  ! grep -q '^HTTPLIB_' "$build/CMakeCache.txt" || fail "$kind: the library-only build looked for cpp-httplib"
  target=all; [ "$kind" = shared ] && target=dtb_shared  # the static archives are the tool's
  cmake --build "$build" -j"$(nproc)" --target $target >/dev/null || fail "$kind: the library does not build"
  cmake --install "$build" --prefix "$prefix" >/dev/null
  [ ! -e "$prefix/bin/dtb" ] || fail "$kind: the library-only build installed the dtb tool"
  pc=$(echo "$prefix"/lib*/pkgconfig)
  # shellcheck disable=SC2046
  cc -std=c11 -Wall -Werror -o "$work/prog-$kind" "$work/prog.c" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs dtb) \
    || fail "$kind: the example does not link through pkg-config"
  out=$(LD_LIBRARY_PATH=$(echo "$prefix"/lib*) "$work/prog-$kind" "$tables") || fail "$kind: the example failed: $out"
  [ "$out" = "$expected" ] || fail "$kind: the example printed '$out', expected '$expected'"
  echo "$kind: $out"
done

lib=$(ls "$work"/prefix-shared/lib*/libdtb.so.* | head -1)
soname=$(objdump -p "$lib" | awk '/SONAME/ {print $2}')
major=$(grep -oE '^project\(draughts_tb VERSION [0-9]+' "$source_dir/CMakeLists.txt" | grep -oE '[0-9]+$')
[ "$soname" = "libdtb.so.$major" ] \
  || fail "libdtb's soname is '$soname'"
others=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBR]/ {print $3}' | grep -v '^dtb_' || true)
[ -z "$others" ] || fail "libdtb exports more than the C API: $(echo "$others" | head -5 | tr '\n' ' ')"
echo "shared: $soname exports $(nm -D --defined-only "$lib" | grep -c ' T dtb_') dtb_ functions and nothing else"
ldd "$work/prog-static" | grep -q libdtb && fail "the static example links libdtb.so"
echo "library-only build: static and shared pass"
