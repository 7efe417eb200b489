#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser a chip or a file can reach (libFuzzer + ASan).
#
#   Tools/fuzz.sh [--seconds N] [TARGET...]     build, then run each TARGET (all when none) N s
#   Tools/fuzz.sh --minimize TARGET FILE        shrink a crasher to FILE.min
#   Tools/fuzz.sh --list                        the targets
#
# Targets are declared in Fuzz/targets (seeds, dictionaries, input size) and written in
# Fuzz/Sources. Corpora, logs and crashers live under $FUZZ_DIR (default /tmp/emrtd-fuzz),
# never in the repository: corpus/<target> grows across runs, crashers/<target> keeps every
# input that crashed, hung or ran out of memory. Exits 1 when any target found one.
# CPU-polite runs: `nice -n 19 Tools/fuzz.sh ...`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
minimize=""
targets=()
while (($#)); do
    case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --minimize) minimize="$2"; crasher="$3"; shift 3 ;;
    --list) grep -v '^#' Fuzz/targets | awk 'NF { print $1 }'; exit 0 ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done

fuzz_dir="${FUZZ_DIR:-/tmp/emrtd-fuzz}"
shared_data="../shared/data"
# libFuzzer's limits per input (the issue's): 10 s, 2 GB resident; one allocation above
# 256 MB is a length taken from the input without a cap.
limits=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256)
# The Swift backtracer would keep the pipe open after a crash; libFuzzer reports instead.
export SWIFT_BACKTRACE=enable=no

echo "== building the fuzz targets (release, -sanitize=fuzzer,address) into .build/fuzz"
# `--sanitize fuzzer` makes SwiftPM link libFuzzer's main; the sanitizers themselves go in one
# -sanitize= flag after SwiftPM's own, because swiftc keeps only the last -sanitize= it is given.
swift build -c release --scratch-path .build/fuzz --sanitize fuzzer \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product emrtd-fuzz 2>&1 |
    grep -v "Cannot export local symbol '__asan_extra_spill_area'" || true
binary=".build/fuzz/release/emrtd-fuzz"
[[ -x "$binary" ]] || { echo "fuzz build failed" >&2; exit 2; }
objdump -h "$binary" | grep -c __sancov_cntrs >/dev/null && nm "$binary" | grep -c __asan_report_load >/dev/null ||
    { echo "$binary lacks coverage counters or AddressSanitizer" >&2; exit 2; }

if [[ -n "$minimize" ]]; then
    FUZZ_TARGET="$minimize" "$binary" "${limits[@]}" -minimize_crash=1 -max_total_time="$seconds" \
        -exact_artifact_path="$crasher.min" "$crasher" || true
    echo "== minimised: $crasher.min ($(wc -c <"$crasher.min") bytes)"
    xxd "$crasher.min" | head -40
    exit 0
fi

# The manifest line of TARGET, or an error naming the known targets.
manifest_line() {
    awk -v name="$1" '!/^#/ && $1 == name' Fuzz/targets | grep . ||
        { echo "unknown target $1; known: $(grep -v '^#' Fuzz/targets | awk 'NF { printf "%s ", $1 }')" >&2; exit 2; }
}

# Every candidate seed file as "first-byte-in-hex size path", for the first=XX seed rules.
seed_index() {
    local roots=(Tests) file
    [[ -d "$shared_data" ]] && roots+=("$shared_data")
    find "${roots[@]}" -type f ! -name '*.swift' ! -name '*.md' -print0 |
        while IFS= read -r -d '' file; do
            echo "$(head -c1 "$file" | xxd -p -u) $(stat -c %s "$file") $file"
        done
}

# Fills $fuzz_dir/seeds/TARGET with Fuzz/Seeds/TARGET and the files each rule selects (up to
# MAX_LEN bytes): "first=XX" is every file whose first byte is XX (an LDS file's tag), anything
# else a `find -ipath` pattern.
collect_seeds() {
    local target="$1" max_len="$2"
    shift 2
    local seeds="$fuzz_dir/seeds/$target" rule file
    rm -rf "$seeds"
    mkdir -p "$seeds"
    [[ -d "Fuzz/Seeds/$target" ]] && cp "Fuzz/Seeds/$target"/* "$seeds/"
    for rule in "$@"; do
        if [[ "$rule" == first=* ]]; then
            awk -v byte="${rule#first=}" -v max="$max_len" '$1 == byte && $2 <= max { $1 = $2 = ""; print substr($0, 3) }' \
                "$fuzz_dir/seed-index"
        else
            awk -v max="$max_len" '$2 <= max { $1 = $2 = ""; print substr($0, 3) }' "$fuzz_dir/seed-index" |
                while IFS= read -r file; do [[ "${file,,}" == ${rule,,} ]] && echo "$file"; done
        fi
    done | while IFS= read -r file; do cp "$file" "$seeds/$(sha1sum "$file" | cut -c1-40)"; done
    ls "$seeds" | wc -l
}

if ((${#targets[@]} == 0)); then
    mapfile -t targets < <(grep -v '^#' Fuzz/targets | awk 'NF { print $1 }')
fi

mkdir -p "$fuzz_dir"
seed_index >"$fuzz_dir/seed-index"
failed=()
for target in "${targets[@]}"; do
    line=$(manifest_line "$target") || exit 2
    read -r _ max_len dictionaries patterns <<<"$line"
    read -ra patterns <<<"$patterns"
    corpus="$fuzz_dir/corpus/$target"
    crashers="$fuzz_dir/crashers/$target"
    log="$fuzz_dir/logs/$target.log"
    dictionary="$fuzz_dir/dictionaries/$target.dict"
    mkdir -p "$corpus" "$crashers" "$(dirname "$log")" "$(dirname "$dictionary")"
    seed_count=$(collect_seeds "$target" "$max_len" "${patterns[@]}")
    for name in ${dictionaries//+/ }; do cat "Fuzz/Dictionaries/$name.dict"; done >"$dictionary"
    before=$(ls "$crashers" | wc -l)

    echo "== $target: ${seconds} s, $seed_count seeds, corpus $(ls "$corpus" | wc -l) units, dictionary $dictionaries"
    status=0
    FUZZ_TARGET="$target" "$binary" "${limits[@]}" -max_total_time="$seconds" -max_len="$max_len" \
        -dict="$dictionary" -artifact_prefix="$crashers/" -print_final_stats=1 \
        "$corpus" "$fuzz_dir/seeds/$target" >"$log" 2>&1 || status=$?

    # libFuzzer's last status line ("#runs DONE cov: … ft: … corp: …") and final statistics.
    grep -E '^#[0-9]+' "$log" | tail -1 || true
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" |
        tr '\n' ' ' && echo
    if ((status != 0)) || (($(ls "$crashers" | wc -l) > before)); then
        echo "!! $target FAILED (exit $status); log: $log"
        grep -E -A12 '^==[0-9]+==ERROR|deadly signal|Fatal error|fuzz property|ERROR: libFuzzer' "$log" | head -40 || true
        grep -E 'Test unit written to' "$log" || true
        failed+=("$target")
    fi
done

echo "== crashers: $fuzz_dir/crashers"
if ((${#failed[@]})); then
    echo "!! failing targets: ${failed[*]} (minimise with: Tools/fuzz.sh --minimize TARGET FILE)"
    exit 1
fi
echo "== no crash, hang or out-of-memory in: ${targets[*]}"
