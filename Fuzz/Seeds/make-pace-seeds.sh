#!/bin/sh
# Writes Fuzz/Seeds/pace/: seeds for the `pace` target (Fuzz/Sources/PACETarget.swift). The target
# records the reader opening the simulated chip over PACE (both sides on fixed random streams) and
# replays it with one answer replaced; each seed is a control byte (scenario << 4 | answer index)
# and that answer unchanged (a whole successful run), plus mutual authentication answered 6300.
# Run from the repo root: sh Fuzz/Seeds/make-pace-seeds.sh
set -eu
swift build --product emrtd-fuzz 2>&1 | grep -E 'error|warning' || true
rm -rf Fuzz/Seeds/pace && mkdir -p Fuzz/Seeds/pace
.build/debug/emrtd-fuzz --write-pace-seeds Fuzz/Seeds/pace
