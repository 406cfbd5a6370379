#!/usr/bin/env bash
# The Python package as a user gets it: `pip wheel ./python` builds a wheel
# from the sources alone (setup.py runs CMake in a fresh build directory, no
# DTB_BUILD_DIR), the wheel goes into a fresh venv, and the venv's Python
# imports dtb from it and probes a position.
#
# Offline, with Debian's packages: pip builds with --no-build-isolation
# (setuptools and wheel from the system, not downloaded) and --no-index; the
# venv sees the system's numpy (--system-site-packages), the one dependency,
# which no index can give offline. The sources are copied first, so that the
# build's in-place files (python/build/, the .egg-info) never meet another
# test's in the source tree.
#
# usage: wheel_install.sh SOURCE_DIR TABLES (2-4 piece .wdl tables)
set -euo pipefail
source_dir=$1 tables=$2
python=${DTB_PYTHON:-/usr/bin/python3}
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir "$work/src"
shopt -s nullglob
for entry in "$source_dir"/* "$source_dir"/.[!.]*; do
  case "$(basename "$entry")" in build* | tables | .git | .cache) continue ;; esac
  cp -r "$entry" "$work/src/"
done

# ccache, where there is one, makes a second run quick; CMake reads it from
# the environment. The copy's path changes every run: ccache hashes paths
# relative to it.
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=$work CCACHE_NOHASHDIR=1
fi
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} PIP_NO_CACHE_DIR=1
unset DTB_BUILD_DIR
"$python" -m pip wheel --quiet --no-build-isolation --no-index --no-deps -w "$work/wheels" "$work/src/python" \
  >"$work/pip.log" 2>&1 || { tail -30 "$work/pip.log"; fail "pip wheel ./python"; }
wheels=("$work"/wheels/draughts_tb-*.whl)
[ ${#wheels[@]} -eq 1 ] && [ -f "${wheels[0]}" ] || fail "no single draughts_tb wheel: $(ls "$work/wheels")"
contents=$("$python" -m zipfile -l "${wheels[0]}")
for file in dtb/__init__.py dtb/py.typed dtb/_dtb.pyi "dtb/_dtb.cpython-"; do
  grep -q "$file" <<<"$contents" || fail "the wheel lacks $file"
done

"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --no-deps "${wheels[0]}" || fail "pip install the wheel"
cd "$work"  # no dtb/ in the working directory to shadow the installed one
"$work/venv/bin/python" - "$work/venv" "$tables" <<'PY' || fail "import and probe"
import sys
import dtb
venv, tables = sys.argv[1:]
assert dtb.__file__.startswith(venv), dtb.__file__  # the wheel's, not a build tree's
with dtb.open_tablebase(tables) as tb:
    assert tb.probe_wdl("W:WK2,6:BK50") == dtb.Wdl.WIN
    assert [str(m.move) for m in tb.probe_root("W:W28,K46:B23")][0] == "28x19"
PY
echo "pip wheel ./python: $(basename "${wheels[0]}") installs into a fresh venv, imports and probes"
