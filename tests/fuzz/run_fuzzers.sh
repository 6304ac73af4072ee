#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the libFuzzer targets for a bounded time each and keeps what they found.
#
#   cmake --preset fuzz && cmake --build build-fuzz      (clang, once)
#   tests/fuzz/run_fuzzers.sh [-t SECONDS] [-j PARALLEL] [TARGET...]
#
# Each target starts from its committed corpus (tests/fuzz/corpus/<target>/, seeded from the
# importers' fixtures by seed_corpus.py). Afterwards the inputs that reached new code are merged into
# that corpus, every crash, leak, timeout or out-of-memory input is copied to
# tests/fuzz/regressions/<target>/ (replayed by the normal test suite from then on: fix it, then
# commit it), and a line of figures per target goes to BUILD/fuzz-work/summary.tsv. Defaults: 600 s
# per target, one at a time, all targets. BUILD_DIR (default build-fuzz) can be set.
set -eu
cd "$(dirname "$0")/../.."
seconds=600
parallel=1
while getopts t:j: opt; do
    case $opt in
    t) seconds=$OPTARG ;;
    j) parallel=$OPTARG ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
build=${BUILD_DIR:-build-fuzz}
[ -x "$build/tests/fuzz/plumb_fuzz_replay" ] || { echo "no fuzz build in $build: cmake --preset fuzz && cmake --build $build"; exit 2; }
targets=${*:-$("$build/tests/fuzz/plumb_fuzz_replay" --list | awk '{print $1}')}
work=$build/fuzz-work
mkdir -p "$work"
summary=$work/summary.tsv
[ -f "$summary" ] || printf 'target\tseconds\texecutions\texec/s\tcoverage\tfeatures\tcorpus\tpeak_rss_mb\tfindings\n' > "$summary"

fuzz_one() {
    t=$1
    dir=$work/$t
    rm -rf "$dir"
    mkdir -p "$dir/new" "$dir/findings" "tests/fuzz/corpus/$t"
    case $t in
    nsys | mlmd | mlflow_sql) maxlen=262144 ;; # SQLite files: whole pages
    *) maxlen=65536 ;;
    esac
    start=$(date +%s)
    "$build/tests/fuzz/fuzz_$t" "$dir/new" "tests/fuzz/corpus/$t" -max_total_time="$seconds" -max_len=$maxlen \
        -timeout=30 -rss_limit_mb=2560 -artifact_prefix="$dir/findings/" -print_final_stats=1 \
        > "$dir/log" 2>&1 || true
    took=$(($(date +%s) - start))
    "$build/tests/fuzz/fuzz_$t" -merge=1 "tests/fuzz/corpus/$t" "$dir/new" > "$dir/merge.log" 2>&1 || true
    found=0
    for f in "$dir"/findings/*; do
        [ -f "$f" ] || continue
        mkdir -p "tests/fuzz/regressions/$t"
        cp "$f" "tests/fuzz/regressions/$t/"
        found=$((found + 1))
    done
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$dir/log")
    last=$(grep -E '^#[0-9]+' "$dir/log" | tail -1)
    cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corpus=$(ls "tests/fuzz/corpus/$t" | wc -l)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$took" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" \
        "$corpus" "${rss:-?}" "$found" >> "$summary"
    echo "$t: ${took} s, ${execs:-?} executions (${rate:-?}/s), coverage ${cov:-?}, corpus $corpus, findings $found"
    [ "$found" -eq 0 ] || tail -40 "$dir/log"
}

running=0
for t in $targets; do
    fuzz_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$parallel" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
echo "figures: $summary"
