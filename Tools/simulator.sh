#!/usr/bin/env bash
# The PC/SC test rig: a pcscd of our own with vsmartcard's vpcd driver, and the chip simulator
# (`emrtd simulate`) plugged into it, so the simulated chip appears in the PC/SC reader
# "Virtual PCD 00 00" like a card on a reader.
#
#   Tools/simulator.sh start [DIR] [emrtd simulate options]   # DIR: chip files in the dump layout;
#                                                             # none: the generated specimen
#   Tools/simulator.sh remove                                 # takes the card out (ends the simulator)
#   Tools/simulator.sh insert [DIR] [emrtd simulate options]  # puts a card in again
#   Tools/simulator.sh stop
#
# vpcd listens on 0.0.0.0:35963/35964 (hard-coded), so pcscd and the simulator run in a private
# network namespace that has only a loopback interface: nothing is reachable from outside. pcscd
# also gets a private mount namespace, with a tmpfs over /run and $STATE/run bound over /run/pcscd, so
# it never meets another pcscd (e.g. the one ../shared/peers starts); PC/SC clients reach this one with
#   export PCSCLITE_CSOCK_NAME=$STATE/run/pcscd.comm
# (`start` prints it). Processes are recorded with their start times and stopped by PID (never
# by name). Needs root (namespaces).
# Env: EMRTD_SIMULATOR_STATE (default /tmp/emrtd-simulator), EMRTD_BIN (default: built here).
set -euo pipefail
cd "$(dirname "$0")/.."
STATE="${EMRTD_SIMULATOR_STATE:-/tmp/emrtd-simulator}"
PIDFILE="$STATE/pids"

die() { echo "simulator.sh: $*" >&2; exit 1; }
# A zombie (an ended child nobody reaped yet) counts as ended.
starttime() { awk '$3 != "Z" {print $22}' "/proc/$1/stat" 2>/dev/null; }

record() {  # name pid
    local started; started="$(starttime "$2")" || true
    [ -n "$started" ] || die "$1 (pid $2) exited at once; see $STATE/$1.log"
    echo "$1 $2 $started" >> "$PIDFILE"
}

recorded_alive() {  # name -> its pid, when the recorded process still runs
    [ -f "$PIDFILE" ] || return 1
    local name pid started
    while read -r name pid started; do
        if [ "$name" = "$1" ] && [ "$(starttime "$pid")" = "$started" ]; then echo "$pid"; return 0; fi
    done < "$PIDFILE"
    return 1
}

stop_recorded() {  # name: SIGTERM, then SIGKILL after 5 s, only if the PID is still ours
    [ -f "$PIDFILE" ] || return 0
    local name pid started i
    while read -r name pid started; do
        [ "$name" = "$1" ] || continue
        [ "$(starttime "$pid")" = "$started" ] || continue
        kill -TERM "$pid" 2>/dev/null || true
        for i in $(seq 1 50); do [ "$(starttime "$pid")" = "$started" ] || break; sleep 0.1; done
        if [ "$(starttime "$pid")" = "$started" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
        echo "stopped $name (pid $pid)"
    done < "$PIDFILE"
}

# The reader's event counter: pcscd adds one each time it sees a card arrive or leave (the high
# 16 bits of SCardGetStatusChange's dwEventState), taken before a card is plugged.
reader_events() {
    PCSCLITE_CSOCK_NAME="$STATE/run/pcscd.comm" /usr/bin/python3 - <<'EOF'
import sys
from smartcard.scard import (SCARD_S_SUCCESS, SCARD_SCOPE_USER, SCARD_STATE_UNAWARE,
                             SCardEstablishContext, SCardGetStatusChange, SCardReleaseContext)
code, context = SCardEstablishContext(SCARD_SCOPE_USER)
if code != SCARD_S_SUCCESS:
    sys.exit(1)
code, states = SCardGetStatusChange(context, 0, [("Virtual PCD 00 00", SCARD_STATE_UNAWARE)])
SCardReleaseContext(context)
if code != SCARD_S_SUCCESS:
    sys.exit(1)
print(states[0][1] >> 16)
EOF
}

# The plugged card is in when a connection to it works, or is refused because another program
# holds it (a kiosk that took it exclusively the moment it arrived), or when pcscd counted it
# arriving and leaving again (a --leave-mid-read card a kiosk read before we looked: there is
# nothing left to connect to). The counter alone is not enough: a card removed and plugged in
# again between two of vpcd's presence polls changes nothing pcscd sees (no event, the card is
# still "present", just unpowered), and only a connection powers it up again.
wait_for_card() {  # seconds events-before
    PCSCLITE_CSOCK_NAME="$STATE/run/pcscd.comm" /usr/bin/python3 - "$1" "$2" <<'EOF'
import sys, time
from smartcard.scard import (SCARD_E_SHARING_VIOLATION, SCARD_LEAVE_CARD, SCARD_PROTOCOL_T0,
                             SCARD_PROTOCOL_T1, SCARD_S_SUCCESS, SCARD_SCOPE_USER, SCARD_SHARE_SHARED,
                             SCARD_STATE_UNAWARE, SCardConnect, SCardDisconnect, SCardEstablishContext,
                             SCardGetStatusChange, SCardReleaseContext)
reader = "Virtual PCD 00 00"
deadline = time.time() + float(sys.argv[1])
before = int(sys.argv[2])

def card_in(context):
    code, states = SCardGetStatusChange(context, 0, [(reader, SCARD_STATE_UNAWARE)])
    if code == SCARD_S_SUCCESS and (states[0][1] >> 16) - before >= 2:
        return True
    code, card, _ = SCardConnect(context, reader, SCARD_SHARE_SHARED, SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1)
    if code == SCARD_S_SUCCESS:
        SCardDisconnect(card, SCARD_LEAVE_CARD)
        return True
    return code == SCARD_E_SHARING_VIOLATION

while time.time() < deadline:
    code, context = SCardEstablishContext(SCARD_SCOPE_USER)
    if code == SCARD_S_SUCCESS:
        found = card_in(context)
        SCardReleaseContext(context)
        if found:
            sys.exit(0)
    time.sleep(0.2)
sys.exit(1)
EOF
}

start() {
    [ "$(id -u)" = 0 ] || die "needs root (a private network namespace and pcscd's socket)"
    [ -f /etc/reader.conf.d/vpcd ] || die "vpcd is not installed (Tools/setup.sh installs vsmartcard-vpcd)"
    mkdir -p "$STATE"
    if recorded_alive pcscd >/dev/null; then die "already running; run $0 stop first"; fi
    local binary="${EMRTD_BIN:-}"
    if [ -z "$binary" ]; then
        swift build --product emrtd >/dev/null
        binary="$(swift build --show-bin-path)/emrtd"
    fi
    rm -f "$PIDFILE"
    rm -rf "$STATE/run"
    mkdir -p "$STATE/run"
    # A tmpfs over /run in pcscd's own mount namespace: /run/pcscd need not exist on this
    # machine (it does not until some pcscd has run), and nothing is created outside $STATE.
    unshare --net --mount sh -c 'mount -t tmpfs -o mode=0755 tmpfs /run && mkdir /run/pcscd &&
        mount --bind "$1" /run/pcscd && ip link set lo up && exec pcscd --foreground --apdu --debug' \
        sh "$STATE/run" > "$STATE/pcscd.log" 2>&1 < /dev/null &
    local pcscd=$!
    sleep 0.3
    record pcscd "$pcscd"
    local i
    for i in $(seq 1 50); do
        grep -q "daemon ready" "$STATE/pcscd.log" 2>/dev/null && break
        kill -0 "$pcscd" 2>/dev/null || die "pcscd exited; see $STATE/pcscd.log"
        sleep 0.1
    done
    echo "$binary" > "$STATE/binary"
    plug "$pcscd" "$@"
    echo "simulator ready in \"Virtual PCD 00 00\" (pcscd $pcscd; logs in $STATE)"
    echo "export PCSCLITE_CSOCK_NAME=$STATE/run/pcscd.comm"
}

plug() {  # pcscd-pid [simulate options]: the simulator connects to vpcd, the card is inserted
    local pcscd="$1"; shift
    local events; events="$(reader_events)" || die "pcscd does not answer; see $STATE/pcscd.log"
    nsenter -t "$pcscd" -n "$(cat "$STATE/binary")" simulate "$@" >> "$STATE/simulator.log" 2>&1 < /dev/null &
    local simulator=$!
    sleep 0.2
    record simulator "$simulator"
    if ! wait_for_card 20 "$events"; then
        tail -5 "$STATE/simulator.log" >&2
        stop
        die "no card in \"Virtual PCD 00 00\" after 20 s"
    fi
}

insert() {
    local pcscd; pcscd="$(recorded_alive pcscd)" || die "not running; run $0 start first"
    # A card that just left (a simulator ending after --leave-mid-read) gets a few seconds to go.
    local tries=0
    while recorded_alive simulator >/dev/null && ((tries < 50)); do sleep 0.1; tries=$((tries + 1)); done
    if recorded_alive simulator >/dev/null; then die "a card is already in; run $0 remove first"; fi
    plug "$pcscd" "$@"
    echo "card inserted"
}

remove() {  # the simulator ends, vpcd's socket closes: pcscd sees the card leave
    recorded_alive pcscd >/dev/null || die "not running; run $0 start first"
    stop_recorded simulator
}

stop() {
    stop_recorded simulator
    stop_recorded pcscd
    rm -f "$PIDFILE"
}

case "${1:-}" in
start) shift; start "$@" ;;
insert) shift; insert "$@" ;;
remove) remove ;;
stop) stop ;;
*) die "usage: $0 start [DIR] [emrtd simulate options] | insert [DIR] [options] | remove | stop" ;;
esac
