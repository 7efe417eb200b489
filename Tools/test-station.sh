#!/usr/bin/env bash
# `emrtd station` in a real browser: Debian's chromium driven by chromium-driver and
# python3-selenium (Tools/test-station.py), against the chip simulator behind its own pcscd
# (Tools/simulator.sh, state in its own folder). Screenshots of every screen are kept in
# $EMRTD_STATION_OUT (default .build/test-station). Skips with a reason when something it needs
# is missing; under CI=true that is a failure. Needs root (the simulator's namespaces).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${EMRTD_STATION_OUT:-.build/test-station}"

skip() {
    if [ "${CI:-}" = true ]; then echo "test-station: FAILED: $1" >&2; exit 1; fi
    echo "test-station: skipped: $1"
    exit 0
}
command -v chromium >/dev/null || skip "chromium is not installed (Tools/setup.sh)"
command -v chromedriver >/dev/null || skip "chromedriver is not installed (chromium-driver, Tools/setup.sh)"
/usr/bin/python3 -c "import selenium" 2>/dev/null || skip "python3-selenium is not installed (Tools/setup.sh)"
[ "$(id -u)" = 0 ] || skip "needs root for Tools/simulator.sh"
[ -f /etc/reader.conf.d/vpcd ] || skip "vpcd is not installed (Tools/setup.sh)"

swift build --product emrtd >/dev/null
BIN="$(swift build --show-bin-path)/emrtd"
rm -rf "$OUT"
mkdir -p "$OUT"
STATE="$(mktemp -d /tmp/emrtd-station-simulator.XXXXXX)"
export EMRTD_SIMULATOR_STATE="$STATE" EMRTD_BIN="$BIN"
cleanup() { Tools/simulator.sh stop >/dev/null 2>&1 || true; rm -rf "$STATE"; }
trap cleanup EXIT

# The specimen's files signed inside its validity (it expires on 1994-06-23), with its CSCA and
# chip keys, served by the simulator for every read.
"$BIN" read --simulator --mrz L898902C 690806 940623 --at 1993-06-01 --out "$OUT/specimen" >/dev/null
Tools/simulator.sh start "$OUT/specimen" >/dev/null
export PCSCLITE_CSOCK_NAME="$STATE/run/pcscd.comm"
/usr/bin/python3 Tools/test-station.py --emrtd "$BIN" --specimen "$OUT/specimen" --out "$OUT"
