#!/usr/bin/env bash
# Derives the built-in CSCA bundle from the signed master lists committed in masterlist/
# (masterlist/SOURCES) with `emrtd trust build`: every list and root must match its SHA-256 in
# SOURCES (else no bundle), each list is kept only when its signature and signer chain verify
# against its root, and a list that does not is left out with a WARNING on stderr. The bundle is
# written to a temporary file beside its place and renamed into place.
#
#   Tools/build-trust-bundle.sh [OUT]     (default masterlist/csca.pem; a package: share/emrtd/csca.pem)
#   EMRTD=/path/to/emrtd                  (default: swift run -q emrtd)
set -euo pipefail

repository="$(cd "$(dirname "$0")/.." && pwd)"
lists="$repository/masterlist"
out="${1:-$lists/csca.pem}"
if [ -n "${EMRTD:-}" ]; then emrtd=("$EMRTD"); else emrtd=(swift run -q --package-path "$repository" emrtd); fi
"${emrtd[@]}" trust build "$lists" --out "$out"
