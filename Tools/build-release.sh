#!/usr/bin/env bash
# The one release build that the Python wheel, the Debian package and emrtd-bench share: the
# shipped products (the `emrtd` CLI, the `libemrtd` C library, `emrtd-bench`) optimized, with the
# Swift runtime linked statically so that nothing it leaves in .build/release needs a Swift
# toolchain to run. SwiftPM rebuilds only what changed, so every script that needs a release
# artefact calls this first rather than building its own.
#
#   Tools/build-release.sh                                 every shipped product
#   Tools/build-release.sh --product emrtd --product EmrtdC  those products
#
# One `swift build` per product: given several `--product` flags, SwiftPM builds only the last.
# A product that an earlier plain `swift build -c release` linked against the shared Swift runtime
# is removed first, so that it is linked again, statically (SwiftPM does not relink it for the
# changed flag alone).
set -euo pipefail
cd "$(dirname "$0")/.."

products=()
while [ $# -gt 0 ]; do
    case $1 in
        --product)
            [ $# -ge 2 ] || { echo "build-release.sh: --product needs a name" >&2; exit 2; }
            products+=("$2")
            shift 2
            ;;
        *)
            echo "build-release.sh: unknown argument '$1' (only --product NAME, repeatable)" >&2
            exit 2
            ;;
    esac
done
[ ${#products[@]} -gt 0 ] || products=(emrtd EmrtdC emrtd-bench)

bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
artefact() {
    case $1 in
        EmrtdC) echo "$bin/libEmrtdC.so" ;;
        *) echo "$bin/$1" ;;
    esac
}
for product in "${products[@]}"; do
    file=$(artefact "$product")
    if [ -f "$file" ] && ldd "$file" 2>/dev/null | grep -qE 'lib(swiftCore|Foundation|dispatch)'; then
        rm -f "$file"
    fi
    swift build -c release --static-swift-stdlib --product "$product"
done
