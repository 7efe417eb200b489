#!/usr/bin/env bash
# Builds the Debian package (Tools/package-deb.sh) and checks it as a user gets it: lintian,
# dpkg -i (apt-get -f install for its Depends), `emrtd --version` and a verify from /usr/bin
# (a dump of the simulator's specimen, and a real EF.SOD chaining to the installed trust bundle
# with no --csca), the manual rendered, the completions, the systemd unit (systemd-analyze
# verify, and its command line run), then dpkg --purge and nothing left behind. Whatever
# happens, the package is purged on exit: the machine is left as it was found.
#
# Needs root (or sudo) for dpkg. Refuses to run when emrtd is already installed. Real documents
# come from ../shared (skipped with a reason outside CI, a failure when CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD

say() { echo "test-package: $*" >&2; }
fail() {
    say "FAILED: $*"
    exit 1
}
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
apt_get() { DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 -y -qq --no-install-recommends "$@"; }
prerequisite() {
    if [ "${CI:-}" = true ]; then fail "$1 is missing"; fi
    say "skipped: $1 is missing"
}

deb=$(Tools/package-deb.sh)
version=$(dpkg-deb --field "$deb" Version)
say "checking $deb"

# lintian (Debian's): errors fail, warnings are printed. zsh parses the zsh completion.
for tool in lintian zsh; do
    command -v "$tool" >/dev/null || apt_get install "$tool" >/dev/null || true
done
if command -v lintian >/dev/null; then
    lintian --fail-on error --display-info "$deb" >&2 || fail "lintian reports errors (above)"
else
    prerequisite "lintian (Debian package lintian)"
fi

if [[ $(dpkg-query -W -f='${Status}' emrtd 2>/dev/null) == *installed* ]]; then
    fail "emrtd is installed on this machine already; this script installs and purges its own"
fi
work=$(mktemp -d)
files="$work/installed-files"
installed=false
cleanup() {
    status=$?
    if $installed; then
        $sudo dpkg --purge emrtd >/dev/null 2>&1 || say "could not purge emrtd: dpkg --purge emrtd by hand"
    fi
    rm -rf "$work"
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

installed=true
# Other jobs on the machine may hold dpkg's lock for a while (apt-get waits for it, dpkg does not).
for attempt in $(seq 60); do
    if $sudo dpkg -i "$deb" >"$work/dpkg.log" 2>&1; then
        cat "$work/dpkg.log" >&2
        break
    fi
    if grep -q 'lock' "$work/dpkg.log" && [ "$attempt" -lt 60 ]; then
        sleep 5
        continue
    fi
    cat "$work/dpkg.log" >&2
    say "installing emrtd's Depends"
    apt_get -f install >&2
    break
done
[ "$(dpkg-query -W -f='${Status}' emrtd)" = "install ok installed" ] || fail "emrtd is not installed"
dpkg -L emrtd >"$files"

# As a user runs it: from /usr/bin, outside any checkout, nothing in the environment to find a
# bundle elsewhere, so the trust bundle is the one the package installed under /usr/share.
home="$work/home"
mkdir -p "$home"
run() { (cd "$home" && env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 "$@"); }
[ "$(command -v emrtd)" = /usr/bin/emrtd ] || fail "emrtd is not /usr/bin/emrtd but $(command -v emrtd)"
[ "$(run emrtd --version)" = "emrtd $version" ] || fail "emrtd --version is not 'emrtd $version'"
if ldd /usr/bin/emrtd | grep -E 'not found|libswift|libFoundation|libdispatch'; then
    fail "/usr/bin/emrtd needs a library Debian does not install or the Swift runtime (above)"
fi
# The C ABI as a C host finds it: the header and pkg-config file installed, libemrtd.so.0 loaded
# by the dynamic linker from the package's place, its version the package's.
cat >"$work/abi.c" <<'EOF'
#include <emrtd.h>
#include <stdio.h>
int main(void) { puts(emrtd_version()); return 0; }
EOF
# shellcheck disable=SC2046
gcc -o "$work/abi" "$work/abi.c" $(pkg-config --cflags --libs emrtd) || fail "a C host does not build against libemrtd"
[ "$(run "$work/abi")" = "$version" ] || fail "libemrtd's emrtd_version() is not $version"
say "ok: a C program builds with pkg-config emrtd and loads libemrtd.so.0"
[ -e /usr/local/share/emrtd/csca.pem ] && say "note: /usr/local/share/emrtd/csca.pem comes before /usr/share's"

json() { python3 -c "import json, sys; value = json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }

# A dump of the simulator's specimen, made by the installed emrtd, verified by it with its CSCA.
run emrtd read --simulator --mrz L898902C 690806 940623 --out "$home/dump" >/dev/null ||
    fail "emrtd read --simulator --out did not write a dump"
verdict=$(run emrtd verify --dir "$home/dump" --csca "$home/dump/CSCA.der") ||
    fail "emrtd verify of the specimen's dump: exit $?"
[ "$(json 'value["status"]' <<<"$verdict")" = authenticated ] ||
    fail "the specimen's dump is not authenticated: $verdict"
say "ok: a dump of the specimen verifies from /usr/bin"

# A real EF.SOD (Austria's, gmrtd's sample) chains to a CSCA of the installed bundle, with no
# --csca, checked a day into its DSC's validity; with --no-builtin it does not.
samples="$repository/../shared/data/gmrtd/sod_samples"
if [ -f "$samples/AT_EF_SOD.bin" ]; then
    mkdir -p "$home/AT"
    cp "$samples"/AT_EF_SOD.bin "$home/AT/SOD.bin"
    look=$(run emrtd verify --sod "$home/AT/SOD.bin" --no-builtin) || true
    start=$(json 'value["documentSignerCertificate"]["notBefore"]' <<<"$look") ||
        fail "emrtd verify --sod printed no DSC: $look"
    at=$(date -u -d "@$(($(date -u -d "$start" +%s) + 86400))" +%Y-%m-%dT%H:%M:%SZ)
    verdict=$(run emrtd verify --sod "$home/AT/SOD.bin" --at "$at") || true
    [ "$(json 'value["certificateChainValid"]' <<<"$verdict")" = True ] ||
        fail "Austria's EF.SOD does not chain to the installed bundle: $verdict"
    verdict=$(run emrtd verify --sod "$home/AT/SOD.bin" --at "$at" --no-builtin) || true
    [ "$(json 'value["certificateChainValid"]' <<<"$verdict")" = False ] ||
        fail "Austria's EF.SOD chains with --no-builtin: the bundle came from elsewhere"
    say "ok: a real EF.SOD chains to /usr/share/emrtd/csca.pem with no --csca"
else
    prerequisite "../shared/data/gmrtd/sod_samples (a real EF.SOD)"
fi

# The manual: every page renders without a warning from groff.
for page in $(grep -E '^/usr/share/man/man1/.*\.1\.gz$' "$files"); do
    name=$(basename "$page" .1.gz)
    warnings=$(run env MANWIDTH=80 man --warnings=all "$name" 2>&1 >/dev/null) || fail "man $name: exit $?"
    [ -z "$warnings" ] || fail "man $name: $warnings"
done
[[ $(run env MANWIDTH=80 man emrtd-verify) == *--no-builtin* ]] || fail "man emrtd-verify does not describe --no-builtin"
say "ok: man emrtd and $(grep -c '/man1/emrtd-' "$files") command pages render"

# Completion, as bash runs it: the commands, then a command's options and their values.
complete_words() {
    run bash -c 'source /usr/share/bash-completion/completions/emrtd; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _emrtd; printf "%s\n" "${COMPREPLY[@]}"' completion "$@"
}
[ "$(complete_words emrtd ver)" = verify ] || fail "bash: 'emrtd ver' does not complete to verify"
[ "$(complete_words emrtd verify --c | sort | paste -sd' ')" = "--challenge --crl --csca" ] ||
    fail "bash: 'emrtd verify --c' does not complete to --challenge --crl --csca"
[ "$(complete_words emrtd read --access p)" = pace ] || fail "bash: 'emrtd read --access p' does not complete to pace"
if command -v zsh >/dev/null; then
    zsh -n /usr/share/zsh/vendor-completions/_emrtd || fail "zsh cannot parse _emrtd"
else
    prerequisite "zsh (Debian package zsh)"
fi
say "ok: bash completion"

# The unit: systemd's own check, then its command line as the service runs it, with the
# packaged serve.conf, until the server listens.
unit=/lib/systemd/system/emrtd-serve.service
if command -v systemd-analyze >/dev/null; then
    analysis=$(systemd-analyze verify "$unit" 2>&1) || fail "systemd-analyze verify $unit: $analysis"
    [ -z "$analysis" ] || say "systemd-analyze verify: $analysis"
    say "ok: systemd-analyze verify $unit"
else
    prerequisite "systemd-analyze (Debian package systemd)"
fi
credentials="$work/credentials"
mkdir -p "$credentials"
secret=$(head -c 32 /dev/urandom | base64)
echo "{\"tenants\": {\"t\": {\"resultURL\": \"http://127.0.0.1:9/\", \"secret\": \"$secret\"}}}" >"$credentials/tenants.json"
command=$(sed -n 's/^ExecStart=//p' "$unit")
command=${command//%d/$credentials}
command=${command//%S/$work/state}
# shellcheck disable=SC1091 # the installed conffile
listen=$(. /etc/emrtd/serve.conf && echo "$EMRTD_LISTEN")
command=${command//\$\{EMRTD_LISTEN\}/127.0.0.1:0}
command=${command//\$EMRTD_SERVE_OPTIONS/}
[ -n "$listen" ] || fail "/etc/emrtd/serve.conf sets no EMRTD_LISTEN"
log="$work/serve.log"
# shellcheck disable=SC2086 # the unit's command line, split into words as systemd splits it
(cd "$home" && exec env -i PATH=/usr/bin:/bin HOME="$home" $command) 2>"$log" &
server=$!
for _ in $(seq 100); do
    grep -q '"listening"' "$log" && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
grep -q '"listening"' "$log" || {
    kill "$server" 2>/dev/null || true
    fail "the unit's command line did not start a server: $(cat "$log")"
}
kill -TERM "$server"
wait "$server" || fail "emrtd serve did not stop cleanly on SIGTERM: $(cat "$log")"
[ -d "$work/state/emrtd/outbox" ] || fail "emrtd serve made no outbox under the state directory"
say "ok: the unit's command line serves on $listen's form and stops on SIGTERM"

# Purge: nothing of the package is left, its conffile and /etc/emrtd included.
$sudo dpkg --purge emrtd >&2
installed=false
[ -n "$(dpkg-query -W emrtd 2>/dev/null)" ] && fail "dpkg still knows emrtd after the purge"
left=$(while read -r path; do
    [ "$path" = /. ] && continue
    [ -e "$path" ] || [ -L "$path" ] || continue
    [ -d "$path" ] && [ -n "$(dpkg -S "$path" 2>/dev/null)" ] && continue # a directory of other packages
    echo "$path"
done <"$files")
[ -z "$left" ] || fail "left after the purge: $left"
[ ! -e /etc/emrtd ] || fail "/etc/emrtd is left after the purge"
say "ok: purged, nothing left"
say "passed: $deb"
