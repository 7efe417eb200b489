#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser a chip or a file can reach (libFuzzer + ASan).
#
#   Tools/fuzz.sh [--seconds N] [--runs R] [TARGET...]
#                                               build, then run each TARGET (all when none) N s,
#                                               or until it has executed R inputs if that is sooner
#   Tools/fuzz.sh --minimize TARGET FILE        shrink a crasher to FILE.min
#   Tools/fuzz.sh --list                        the targets
#   Tools/fuzz.sh --report                      per target: the run that counts, totals, open crashers
#
# Targets are declared in Fuzz/targets (seeds, dictionaries, input size) and written in
# Fuzz/Sources. Corpora, logs and crashers live under $FUZZ_DIR (default /tmp/emrtd-fuzz),
# never in the repository: corpus/<target> grows across runs, crashers/<target> keeps every
# input that crashed, hung or ran out of memory, history.tsv one line per run (for totals; its
# last column is the commit the targets were built from, "+changes" when the tree differed).
# Exits 1 when any target found one. Scripts fuzzing different targets may run side by side
# (one per core); a target already being fuzzed waits for that run to end.
# CPU-polite runs: `nice -n 19 Tools/fuzz.sh ...`.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzz_dir="${FUZZ_DIR:-/tmp/emrtd-fuzz}"
shared_data="../shared/data"
binary=".build/fuzz/release/emrtd-fuzz"
# libFuzzer's limits per input (the issue's): 10 s, 2 GB resident; one allocation above
# 256 MB is a length taken from the input without a cap. No leak detection: LeakSanitizer
# cannot see Swift references kept in enum payload spare bits, so it reports the lazily built
# global tables (e.g. Arithmetic's domain parameters) as leaked at exit.
limits=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 -detect_leaks=0)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# The Swift backtracer would keep the pipe open after a crash; libFuzzer reports instead.
export SWIFT_BACKTRACE=enable=no

main() {
    local seconds=60 runs=-1 minimize="" crasher="" targets=()
    while (($#)); do
        case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --minimize) minimize="$2"; crasher="$3"; shift 3 ;;
        --list) known_targets; exit 0 ;;
        --report) report; exit 0 ;;
        -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
        esac
    done
    build
    if [[ -n "$minimize" ]]; then
        minimize_crasher "$minimize" "$crasher" "$seconds"
        exit 0
    fi
    ((${#targets[@]})) || mapfile -t targets < <(known_targets)
    local target failed=() summary=()
    for target in "${targets[@]}"; do manifest_line "$target" >/dev/null; done
    mkdir -p "$fuzz_dir/locks"
    seed_index >"$fuzz_dir/seed-index.$$"
    mv "$fuzz_dir/seed-index.$$" "$fuzz_dir/seed-index"
    for target in "${targets[@]}"; do
        if run_target "$target" "$seconds" "$runs"; then
            summary+=("$(printf '%-13s ok      %s' "$target" "$(final_figures "$target")")")
        else
            summary+=("$(printf '%-13s FAILED  %s' "$target" "$(final_figures "$target")")")
            failed+=("$target")
        fi
    done
    echo "== summary (${seconds} s each$( ((runs < 0)) || echo " or $runs executions"); crashers in $fuzz_dir/crashers)"
    printf '%s\n' "${summary[@]}"
    if ((${#failed[@]})); then
        echo "!! failing targets: ${failed[*]} (minimise with: Tools/fuzz.sh --minimize TARGET FILE)"
        exit 1
    fi
}

build() {
    echo "== building the fuzz targets (release, -sanitize=fuzzer,address) into .build/fuzz"
    # `--sanitize fuzzer` makes SwiftPM link libFuzzer's main; the sanitizers themselves go in one
    # -sanitize= flag after SwiftPM's own, because swiftc keeps only the last -sanitize= it is given.
    swift build -c release --scratch-path .build/fuzz --sanitize fuzzer \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product emrtd-fuzz 2>&1 |
        grep -v -e "Cannot export local symbol '__asan_extra_spill_area'" -e "^\[" || true
    [[ -x "$binary" ]] || { echo "fuzz build failed" >&2; exit 2; }
    built_from="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    git diff --quiet HEAD -- . 2>/dev/null || built_from+="+changes"
    objdump -h "$binary" | grep -c __sancov_cntrs >/dev/null && nm "$binary" | grep -c __asan_report_load >/dev/null ||
        { echo "$binary lacks coverage counters or AddressSanitizer" >&2; exit 2; }
}

minimize_crasher() {
    local target="$1" crasher="$2" seconds="$3"
    FUZZ_TARGET="$target" "$binary" "${limits[@]}" -minimize_crash=1 -max_total_time="$seconds" \
        -exact_artifact_path="$crasher.min" "$crasher" || true
    echo "== minimised: $crasher.min ($(wc -c <"$crasher.min") bytes)"
    od -Ax -tx1z -v -N 640 "$crasher.min" # the first 40 lines
}

# From history.tsv, per target: the run that counts, that is the latest clean run (exit 0) that met
# the acceptance bar (10 million executions or an hour), else the clean run with the most
# executions; every run's executions summed; and the crashers not yet dealt with (timeouts set
# aside as .unreproduced are not counted). A later run on newer code replaces an earlier one.
report() {
    local history="$fuzz_dir/history.tsv" target open
    [[ -f "$history" ]] || { echo "no runs recorded in $history" >&2; exit 1; }
    printf '%-13s %12s %6s %6s %6s  %-9s %-20s %-4s %13s %5s  %s\n' target executions limit cov ft commit ended \
        bar "all runs" runs "open crashers"
    for target in $(known_targets); do
        open=$(find "$fuzz_dir/crashers/$target" -type f ! -name '*.unreproduced' 2>/dev/null | wc -l)
        awk -F'\t' -v name="$target" -v open="$open" '
            function keep(line_execs) {
                execs_kept = line_execs; seconds = $3; ended = $1; commit = ($6 == "" ? "?" : $6)
                cov = ft = "?"
                if (match($5, /cov: [0-9]+/)) cov = substr($5, RSTART + 5, RLENGTH - 5)
                if (match($5, /ft: [0-9]+/)) ft = substr($5, RSTART + 4, RLENGTH - 4)
            }
            $2 == name {
                match($5, /execs [0-9]+/); execs = substr($5, RSTART + 6, RLENGTH - 6) + 0
                runs++; total += execs
                if ($4 != 0) next
                met = execs >= 10000000 || $3 >= 3600
                if (met) { counted = 1; keep(execs) }
                else if (!counted && execs >= execs_kept) keep(execs)
            }
            END {
                if (runs == 0) { printf "%-13s %12s\n", name, "never run"; exit }
                printf "%-13s %12d %6s %6s %6s  %-9s %-20s %-4s %13d %5d  %d\n", name, execs_kept, seconds, cov, ft, \
                    commit, ended, (counted ? "yes" : "no"), total, runs, open
            }' "$history"
    done
}

known_targets() { grep -v '^#' Fuzz/targets | awk 'NF { print $1 }'; }

# The manifest line of TARGET, or an error naming the known targets.
manifest_line() {
    awk -v name="$1" '!/^#/ && $1 == name' Fuzz/targets | grep . ||
        { echo "unknown target $1; known: $(known_targets | tr '\n' ' ')" >&2; exit 2; }
}

# Every candidate seed file as "first-byte-in-hex size path", for the first=XX seed rules.
seed_index() {
    local roots=(Tests) file
    [[ -d "$shared_data" ]] && roots+=("$shared_data")
    find "${roots[@]}" -type f ! -name '*.swift' ! -name '*.md' -print0 |
        while IFS= read -r -d '' file; do
            echo "$(head -c1 "$file" | od -An -tx1 | tr -d ' \n' | tr a-f A-F) $(stat -c %s "$file") $file"
        done
}

# Fills $fuzz_dir/seeds/TARGET with Fuzz/Seeds/TARGET and the files each rule selects (up to
# MAX_LEN bytes): "first=XX" is every file whose first byte is XX (an LDS file's tag), anything
# else a `find -ipath` pattern. Prints how many seeds there are.
collect_seeds() {
    local target="$1" max_len="$2"
    shift 2
    local seeds="$fuzz_dir/seeds/$target" rule file
    rm -rf "$seeds"
    mkdir -p "$seeds"
    if [[ -d "Fuzz/Seeds/$target" ]]; then cp "Fuzz/Seeds/$target"/* "$seeds/"; fi
    for rule in "$@"; do
        if [[ "$rule" == first=* ]]; then
            awk -v byte="${rule#first=}" -v max="$max_len" \
                '$1 == byte && $2 <= max { $1 = $2 = ""; print substr($0, 3) }' "$fuzz_dir/seed-index"
        else
            awk -v max="$max_len" '$2 <= max { $1 = $2 = ""; print substr($0, 3) }' "$fuzz_dir/seed-index" |
                while IFS= read -r file; do if [[ "${file,,}" == ${rule,,} ]]; then echo "$file"; fi; done
        fi
    done | while IFS= read -r file; do cp "$file" "$seeds/$(sha1sum "$file" | cut -c1-40)"; done
    ls "$seeds" | wc -l
}

# Runs TARGET for SECONDS or RUNS executions (-1: no limit); fails when it crashed, hung or ran
# out of memory.
run_target() {
    local target="$1" seconds="$2" runs="$3" line max_len dictionaries patterns name status=0 artifact new_artifacts=0
    line=$(manifest_line "$target")
    read -r _ max_len dictionaries patterns <<<"$line"
    read -ra patterns <<<"$patterns"
    local corpus="$fuzz_dir/corpus/$target" crashers="$fuzz_dir/crashers/$target"
    local log="$fuzz_dir/logs/$target.log" dictionary="$fuzz_dir/dictionaries/$target.dict"
    mkdir -p "$corpus" "$crashers" "$(dirname "$log")" "$(dirname "$dictionary")"
    # Two runs of one target would overwrite each other's seeds, log and crasher checks.
    exec 9>"$fuzz_dir/locks/$target"
    if ! flock -n 9; then
        echo "== waiting for the other run of $target in $fuzz_dir (or set FUZZ_DIR)"
        flock 9
    fi
    local seed_count
    seed_count=$(collect_seeds "$target" "$max_len" "${patterns[@]}")
    for name in ${dictionaries//+/ }; do cat "Fuzz/Dictionaries/$name.dict"; done >"$dictionary"
    local run_start="$fuzz_dir/locks/$target.start"
    touch "$run_start"

    echo "== $target: ${seconds} s$( ((runs < 0)) || echo " or $runs executions"), $seed_count seeds, corpus $(ls "$corpus" | wc -l) units, dictionary $dictionaries"
    FUZZ_TARGET="$target" "$binary" "${limits[@]}" -max_total_time="$seconds" -runs="$runs" -max_len="$max_len" \
        -dict="$dictionary" -artifact_prefix="$crashers/" -print_final_stats=1 \
        "$corpus" "$fuzz_dir/seeds/$target" >"$log" 2>&1 || status=$?
    echo "   $(final_figures "$target")"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$seconds" "$status" \
        "$(final_figures "$target")" "$built_from" >>"$fuzz_dir/history.tsv"

    # A timeout, and a slow unit (libFuzzer's report of one input that took 10 s or more, which it
    # writes without stopping), is wall-clock time: on a loaded machine, or when the process is
    # descheduled, a fast input can reach it. Each one is run again alone under the same limits;
    # one that then finishes is set aside (.unreproduced), not a failure.
    while IFS= read -r artifact; do
        if [[ "$(basename "$artifact")" == @(timeout|slow-unit)-* ]] &&
            FUZZ_TARGET="$target" "$binary" "${limits[@]}" "$artifact" >>"$log.rerun" 2>&1; then
            mv "$artifact" "$artifact.unreproduced"
            echo "   $(basename "$artifact") finished when run again alone: set aside as .unreproduced"
        else
            new_artifacts=$((new_artifacts + 1))
        fi
    done < <(find "$crashers" -type f -newer "$run_start" ! -name '*.unreproduced')
    if ((status == 70 && new_artifacts == 0)); then status=0; fi
    exec 9>&-
    if ((status != 0 || new_artifacts > 0)); then
        echo "!! $target FAILED (exit $status); log: $log"
        grep -a -E -A12 '^==[0-9]+==ERROR|deadly signal|Fatal error|fuzz property|ERROR: libFuzzer' "$log" | head -40 || true
        grep -a -E 'Test unit written to' "$log" || true
        return 1
    fi
}

# libFuzzer's figures for TARGET's last run: executions, rate, coverage (edges, features),
# corpus, peak memory.
final_figures() {
    local log="$fuzz_dir/logs/$1.log"
    local status_line runs rate rss
    status_line=$(grep -a -E '^#[0-9]+' "$log" | tail -1 || true)
    runs=$(grep -a -m1 '^stat::number_of_executed_units' "$log" | awk '{ print $2 }' || true)
    rate=$(grep -a -m1 '^stat::average_exec_per_sec' "$log" | awk '{ print $2 }' || true)
    rss=$(grep -a -m1 '^stat::peak_rss_mb' "$log" | awk '{ print $2 }' || true)
    printf 'execs %s (%s/s)  %s  corp %s  rss %s MB' "${runs:-?}" "${rate:-?}" \
        "$(grep -oE 'cov: [0-9]+ ft: [0-9]+' <<<"$status_line" || echo 'cov: ? ft: ?')" \
        "$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' <<<"$status_line" | cut -d' ' -f2 || echo '?')" "${rss:-?}"
}

main "$@"
exit
