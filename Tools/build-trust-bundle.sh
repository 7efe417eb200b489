#!/usr/bin/env bash
# Derives the built-in CSCA bundle from the signed master lists committed in masterlist/
# (masterlist/SOURCES): each list's and root's SHA-256 checked, then each list imported by
# `emrtd masterlist import`, which refuses a list whose signature or signer chain does not
# verify against its root. A list that fails is left out, said on stderr; no list verifying is
# an error. The bundle is written beside its place and renamed into place when complete.
#
#   Tools/build-trust-bundle.sh [OUT]     (default masterlist/csca.pem)
#   EMRTD=/path/to/emrtd                  (default: swift run -q emrtd)
set -euo pipefail

repository="$(cd "$(dirname "$0")/.." && pwd)"
lists="$repository/masterlist"
out="${1:-$lists/csca.pem}"
if [ -n "${EMRTD:-}" ]; then emrtd=("$EMRTD"); else emrtd=(swift run -q --package-path "$repository" emrtd); fi

if ! (cd "$lists" && grep -E '^[0-9a-f]{64}  ' SOURCES | sha256sum --check --quiet --strict); then
    echo "build-trust-bundle: a master list or root in $lists differs from masterlist/SOURCES, no bundle built" >&2
    exit 1
fi

partial="$out.partial"
rm -f "$partial"
mode=--replace
included=0
while read -r _ file root signed; do
    if [[ "$root" == sha256:* ]]; then anchor=(--ml-root-sha256 "${root#sha256:}"); else anchor=(--ml-root "$lists/$root"); fi
    if "${emrtd[@]}" masterlist import "$lists/$file" "${anchor[@]}" --at "$signed" --out "$partial" "$mode"; then
        mode=--append
        included=$((included + 1))
    else
        echo "build-trust-bundle: WARNING: $file does not verify against $root, LEFT OUT of the bundle" >&2
    fi
done < <(grep -E '^list  ' "$lists/SOURCES")

if ((included == 0)); then
    rm -f "$partial"
    echo "build-trust-bundle: no master list verified, no bundle built" >&2
    exit 1
fi
mv -f "$partial" "$out"
echo "build-trust-bundle: $out from $included master lists" >&2
