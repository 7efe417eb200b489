#!/usr/bin/env bash
# Builds the Python wheel dist/emrtd-<version>-py3-none-linux_x86_64.whl: the package in
# Bindings/python/src/emrtd with libemrtd (.build/release/libEmrtdC.so, from the one release
# build, Tools/build-release.sh) inside as emrtd/libemrtd.so.0. Prints the wheel's path last.
#   Tools/build-python.sh [--skip-build]    # --skip-build: the release build is already done
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--skip-build" ]; then
    # The library alone: a release build of every target also builds Tests/TestSupport, which
    # imports Testing, absent from release builds.
    Tools/build-release.sh --product EmrtdC >&2
fi
library=.build/release/libEmrtdC.so
[ -f "$library" ] || { echo "build-python.sh: no $library (Tools/build-release.sh builds it)" >&2; exit 1; }
# The library without its debug information (a third of its size; hosts' debuggers and Valgrind
# 3.19 cannot read Swift's DWARF 5 anyway).
stripped=$(mktemp /tmp/libemrtd.XXXXXX)
trap 'rm -f "$stripped"' EXIT
objcopy --strip-debug "$library" "$stripped"
/usr/bin/python3 Bindings/python/build_wheel.py "$stripped" dist
