#!/usr/bin/env bash
# The bindings end to end, as a host sees them: the wheel built (Tools/build-python.sh, over the
# one release build) and installed into a fresh virtual environment, its pytest suite run against
# `emrtd simulate` and the simulator behind a pcscd of its own (Tools/simulator.sh), the C example
# (Bindings/c) compiled with gcc against include/emrtd.h and libemrtd and run on the same
# simulator, and the stress program's ABI calls under AddressSanitizer (10,000) and Valgrind
# (100, 20 of them reads: it runs the library 50 times slower): no leak, no invalid access.
#   Tools/test-bindings.sh [--skip-build]   # STRESS_CALLS (10000), STRESS_READS (100), VALGRIND_CALLS (100),
#                                           # VALGRIND_READS (20)
# Needs Tools/setup.sh's packages (python3-venv, python3-pytest, python3-pyscard, gcc, valgrind,
# the PC/SC rig) and root for the simulator's namespaces; makes everything else it uses.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d /tmp/emrtd-bindings.XXXXXX)
export EMRTD_SIMULATOR_STATE=$work/simulator
cleanup() { Tools/simulator.sh stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

wheel=$(Tools/build-python.sh "$@" | tail -1)
if [ "${1:-}" != "--skip-build" ]; then Tools/build-release.sh --product emrtd; fi
export EMRTD_BIN=${EMRTD_BIN:-$root/.build/release/emrtd}
echo "== wheel: $wheel"

# A fresh environment from Debian's Python; its site packages give pyscard and pytest, the
# wheel comes from the file alone (no index).
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --no-deps "$wheel"

Tools/simulator.sh start --csca-out "$work/csca.pem" >/dev/null
export PCSCLITE_CSOCK_NAME=$EMRTD_SIMULATOR_STATE/run/pcscd.comm
export EMRTD_TEST_PCSC_READER="Virtual PCD 00 00" EMRTD_TEST_PCSC_CSCA=$work/csca.pem

echo "== pytest (the installed wheel)"
(cd "$work" && "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$root/Bindings/python/tests")

# The library exports the C ABI alone (Packages/EmrtdC/emrtd.map): every function the header
# declares, and no other global or weak symbol but the version node LIBEMRTD_0 (an absolute
# symbol the linker defines for symbol versioning). The .dynsym also holds LOCAL entries: Swift
# metadata the code reaches through the GOT (R_X86_64_GLOB_DAT) and Dispatch's thread-local
# __dispatch_tsd (R_X86_64_DTPMOD64), kept there for those dynamic relocations and made LOCAL by
# the version script: the dynamic linker binds no other object to a LOCAL symbol.
echo "== libemrtd's exports"
readelf --dyn-syms --wide "$root/.build/release/libEmrtdC.so" >"$work/dynsym.txt"
awk '$1 ~ /^[0-9]+:$/ && $5 != "LOCAL" && $7 != "UND" && $8 != "" { sub(/@.*/, "", $8); print $8 }' "$work/dynsym.txt" \
    | sort -u >"$work/exported.txt"
grep -o '\bemrtd_[a-z_]*(' include/emrtd.h | tr -d '(' | sort -u >"$work/declared.txt"
printf 'LIBEMRTD_0\n' | sort - "$work/declared.txt" >"$work/allowed.txt"
if ! diff "$work/allowed.txt" "$work/exported.txt" >"$work/exports.diff"; then
    cat "$work/exports.diff" >&2
    echo "test-bindings.sh: libemrtd's exports are not the header's functions alone ('>': exported, not declared)" >&2
    exit 1
fi
echo "libemrtd exports the header's $(grep -c . "$work/declared.txt") functions and nothing else"

echo "== C example"
make -s -C Bindings/c OUT="$work/c" LIBDIR="$root/.build/release"
"$EMRTD_BIN" read --reader "$EMRTD_TEST_PCSC_READER" --mrz L898902C 690806 940623 --no-builtin \
    --csca "$work/csca.pem" --no-render --out "$work/dump" >/dev/null
"$work/c/read-simulator" "$EMRTD_TEST_PCSC_READER" L898902C 690806 940623 "$work/csca.pem" "$work/dump" \
    > "$work/c-example.txt" 2>"$work/c-events.txt" \
    || { status=$?; cat "$work/c-example.txt" "$work/c-events.txt"; echo "test-bindings.sh: the C example exited $status" >&2; exit 1; }
grep -q '"status": "authenticated"' "$work/c-example.txt" \
    || { cat "$work/c-example.txt"; echo "test-bindings.sh: the C example's read is not authenticated" >&2; exit 1; }
grep -c '"type":"progress"' "$work/c-events.txt" | sed 's/^/C example: progress events: /'

stress() {  # calls reads [runner...]
    local calls=$1 reads=$2; shift 2
    "$@" "$calls" "$reads" "$EMRTD_TEST_PCSC_READER" L898902C 690806 940623 "$work/csca.pem" "$work/dump"
}
echo "== ${STRESS_CALLS:-10000} ABI calls under AddressSanitizer and LeakSanitizer"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 LSAN_OPTIONS=suppressions=$root/Bindings/c/lsan.supp \
    stress "${STRESS_CALLS:-10000}" "${STRESS_READS:-100}" "$work/c/stress-asan"
# Valgrind with --expensive-definedness-checks=yes, reads included (half of them cancelled
# before their first APDU). Memcheck's default approximates add and sub, hence cmp, by letting an
# undefined low bit taint every bit above it; the optimized library tests a multi-payload enum's
# case with `cmpq $0x0,0x40(%r13); js` (KeyAgreementDomain.publicKey(of:): the case is the sign
# bit of the word at offset 0x40, a spare bit of .group's generator pointer). For .curve, whose
# payload ends at 0x38, ChipAuthenticationMappingVerifier.verify writes that word as stale stack
# ANDed with 0x00fffffffffffff8: the sign bit is a defined 0 and the rest of the word is unused,
# but the default check called the jump undefined on every PACE-CAM read. The exact check
# (4% more CPU time here) sees the sign bit alone, so nothing is suppressed. Valgrind's CPU time:
# 4 s to start, 4 s to translate the read path once, then 0.15 s a read and 0.02 s another call;
# 100 calls with reads take about what 300 without did (11.5 s against 10.2 s).
echo "== ${VALGRIND_CALLS:-100} ABI calls, ${VALGRIND_READS:-20} of them reads, under Valgrind (the library's own accesses checked too)"
stress "${VALGRIND_CALLS:-100}" "${VALGRIND_READS:-20}" valgrind --quiet --expensive-definedness-checks=yes \
    --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --suppressions=Bindings/c/swift.supp --error-exitcode=1 "$work/c/stress"
echo "test-bindings.sh: all passed"
