#!/usr/bin/env bash
# Builds the API reference of the public packages into .build/docs with the toolchain's own
# `docc` (no plugin): symbol graphs from a build of their own (`-emit-symbol-graph`, in
# .build/docs-build so the main build is not touched), then `docc convert` per package with its
# catalog (`Packages/<Name>/Sources/<Name>.docc`: a landing page and task articles). Any warning
# fails: a broken symbol link, a parameter documented under the wrong name.
#
#   Tools/docs.sh            builds every package's reference and prints how to open it
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(Emrtd MRZ CMS LDS Seals Validation Connector)
scratch=.build/docs-build
graphs=$PWD/.build/docs-symbols
out=.build/docs

rm -rf "$graphs" "$out"
mkdir -p "$graphs" "$out"
# Validation reaches Emrtd, LDS, CMS, MRZ and Connector; Seals is the one package it does not.
# One target per call: given several, SwiftPM builds only the last.
for target in Validation Seals; do
    swift build --target "$target" --scratch-path "$scratch" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >&2
done

index="<!doctype html><meta charset=utf-8><title>emrtd API reference</title><h1>emrtd API reference</h1><ul>"
for module in "${modules[@]}"; do
    catalog=Packages/$module/Sources/$module.docc
    [ -d "$catalog" ] || { echo "docs: no catalog $catalog" >&2; exit 1; }
    own=$(mktemp -d)
    cp "$graphs/$module.symbols.json" "$own/"
    compgen -G "$graphs/$module@*.symbols.json" >/dev/null && cp "$graphs/$module"@*.symbols.json "$own/"
    lower=$(echo "$module" | tr '[:upper:]' '[:lower:]')
    docc convert "$catalog" --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$module" --fallback-bundle-identifier "dev.emrtd.$module" \
        --output-path "$out/$module" --transform-for-static-hosting --hosting-base-path "$module" \
        --warnings-as-errors >&2
    rm -rf "$own"
    index+="<li><a href=\"$module/documentation/$lower/\">$module</a></li>"
done
echo "$index</ul>" >"$out/index.html"
echo "docs: $out (open with: python3 -m http.server -d $out 8000, then http://127.0.0.1:8000/)" >&2
