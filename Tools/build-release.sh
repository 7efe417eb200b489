#!/usr/bin/env bash
# The one release build that the Python wheel, the Debian package and emrtd-bench share: every
# product (the `emrtd` CLI, `emrtd-bench`, the `libemrtd` C library) optimized, with the Swift
# runtime linked statically so that nothing it leaves in .build/release needs a Swift toolchain
# to run. SwiftPM rebuilds only what changed, so every script that needs a release artefact calls
# this first rather than building its own.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib "$@"
