#!/usr/bin/env bash
# Sets up this machine and runs every test: unit, differential, real data and
# the PC/SC integration tests. Tests that need ../shared or a Debian package
# skip with a printed reason, and fail instead when CI=true.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/setup.sh
swift build --build-tests
swift test --skip-build "$@"
