#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Crash safety per importer family: `plumb import` of one input killed with SIGKILL at N random points
# (default 50) into a workspace that already holds one import. After each kill the workspace must
# pass PRAGMA integrity_check, open with `plumb ls` (every fifth kill), and hold either exactly what it held before (row
# counts of every table) or the whole input (committed); once the same input is imported again to the
# end it must hold exactly what a workspace that was never interrupted holds: nothing of the killed
# import stayed, nothing is missing.
#
# A kill "lands while the import is writing" when, at the moment of the kill, the import had written
# pages into the workspace and had not committed: the workspace starts checkpointed (its write-ahead
# log empty), so its -wal file is non-empty right before the kill only once the import's transaction
# spilled pages there (SQLite's page cache holds 2 MB of them, then each further page goes to the
# log), and the source count after the kill tells whether the commit happened. At least a third of
# the kills of each family must land there: most kills come once the log holds a random number of
# bytes, up to what the uninterrupted reference import had written there before its commit; about a
# third at a random time over the whole import and a little beyond (kills before any write, after the
# commit, while the log is copied into the file at the end); one in ten as soon as the commit is seen,
# where what an import writes after its file's transaction (lineage links, trace summaries) is done.
#
# A kill that left the workspace logically as it was (its .dump equal to the one before) is imported
# again to the end on every third kill only: that import is then the reference import's twin. Kills after
# the commit and kills that left anything else are always imported again.
#
# The test stops early, after at least 20 kills, once it has run for KILL_TEST_BUDGET seconds (default
# 240; its CTest timeout is 600), and says how many of the planned kills it made.
#
# usage: kill_families_test.sh PLUMB GENERATOR IMPORTER_TESTS FAMILY [KILLS]
#   GENERATOR: what writes the family's input (gen_kineto_trace for traces, bench_import_nsys for
#              nsys, bench_import_xplane for xplane, bench_tfevents for tfevents, bench_import_mlmd
#              for mlmd); "-" for the families generated here with awk or sqlite3
#   IMPORTER_TESTS: tests/importers (the workspace's first import, chrometrace/data/basic.json, and
#              the MLflow SQL store fixture come from there)
#   FAMILY: traces (a Kineto trace), nsys (an Nsight Systems SQLite export), xplane (an XPlane
#           profile), tfevents (a TensorBoard event file), mlflow_file (a run folder of an MLflow file
#           store), mlflow_sql (an MLflow SQL store), mlmd (an ML Metadata store), logs (a CSV metric
#           log), jsonl (a JSON lines metric log), lifecycle (a job's lifecycle log), lineage
#           (OpenLineage events), serving (an LLM request log), vllm (vLLM benchmark results)
set -eu
plumb=$1
gen=$2
fixtures=$3
family=$4
kills=${5:-50}
budget=${KILL_TEST_BUDGET:-240}
# Under AddressSanitizer: a 16 MB quarantine for freed memory instead of 256 MB. With the default every
# allocation of an import touches fresh pages, which doubles each run here (these runs test crash
# safety; the other tests keep the default). Ignored by a build without it.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
    echo "FAIL ($family): $*"
    exit 1
}

case $family in
traces) input=$dir/trace.json && "$gen" -n 100k --seed 7 -o "$input" > /dev/null 2>&1 ;;
nsys) input=$dir/profile.sqlite && "$gen" --rows 150k --output "$input" > /dev/null ;;
xplane) input=$dir/profile.xplane.pb && "$gen" --events 120k --seed 7 --output "$input" > /dev/null ;;
tfevents)
    "$gen" --runs 1 --tags 8 --steps 30k --seed 7 --output "$dir/logdir" > /dev/null 2>&1
    input=$(find "$dir/logdir" -name 'events.out.tfevents.*')
    ;;
mlflow_file)
    exp=$dir/mlruns/1
    input=$exp/0123456789abcdef0123456789abcdef
    mkdir -p "$input/metrics" "$input/params" "$input/tags"
    printf "artifact_location: file://%s\ncreation_time: 1700000000000\nexperiment_id: '1'\nlast_update_time: 1700000000000\nlifecycle_stage: active\nname: kill-test\n" \
        "$exp" > "$exp/meta.yaml"
    printf "artifact_uri: file://%s/artifacts\nend_time: 1700003600000\nexperiment_id: '1'\nlifecycle_stage: active\nrun_name: killed\nrun_id: 0123456789abcdef0123456789abcdef\nrun_uuid: 0123456789abcdef0123456789abcdef\nsource_type: 4\nstart_time: 1700000000000\nstatus: 3\ntags: []\nuser_id: tester\n" \
        "$input" > "$input/meta.yaml"
    printf 0.001 > "$input/params/lr"
    printf killed > "$input/tags/mlflow.runName"
    for m in loss acc lr grad_norm throughput val_loss val_acc tokens_per_s; do
        awk -v m=$m 'BEGIN { for (i = 0; i < 40000; ++i) printf "%d %.6g %d\n", 1700000000000 + i * 100, (length(m) + 1) / (i + 1), i }' \
            > "$input/metrics/$m"
    done
    ;;
mlflow_sql)
    input=$dir/mlflow.db
    cp "$fixtures/mlflow/data/sqlstore/mlflow.db" "$input"
    chmod u+w "$input"
    sqlite3 "$input" "WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 19999)
        INSERT OR IGNORE INTO metrics (key, value, timestamp, run_uuid, step, is_nan)
        SELECT 'kill_' || k.n, 1.0 / (i + 1 + k.n), 1700000000000 + i * 100, r.run_uuid, i, 0
        FROM s, (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) k, runs r"
    ;;
mlmd) input=$dir/metadata.sqlite && "$gen" --artifacts 6k --output "$input" > /dev/null ;;
logs)
    input=$dir/metrics.csv
    awk 'BEGIN { print "step,loss,accuracy,lr"; for (i = 0; i < 100000; ++i) printf "%d,%.6f,%.5f,%.6g\n", i, 2 / (i + 1), i / 100000, 0.001 * (1 - i / 100000) }' > "$input"
    ;;
jsonl)
    input=$dir/metrics.jsonl
    awk 'BEGIN { for (i = 0; i < 120000; ++i) printf "{\"step\": %d, \"loss\": %.6f, \"accuracy\": %.5f, \"lr\": %.6g}\n", i, 2 / (i + 1), i / 120000, 0.001 * (1 - i / 120000) }' > "$input"
    ;;
lifecycle) # as bench_goodput writes it: steps, a data-loader stall every 300, a checkpoint every 1,000
    input=$dir/lifecycle.jsonl
    awk 'BEGIN { now = 1712192400; printf "{\"job_name\":\"kill\",\"job_start_time\":%.6f}\n", now
        for (step = 0; step < 80000; ++step) {
            printf "{\"job_name\":\"kill\",\"step_count\":%d,\"step_start_time\":%.6f}\n", step, now
            len = 1.5 + 0.001 * (step % 17)
            if (step % 300 == 0) {
                printf "{\"job_name\":\"kill\",\"data_loading_start_time\":%.6f}\n", now
                printf "{\"job_name\":\"kill\",\"data_loading_end_time\":%.6f}\n", now + 2
                len += 2
            }
            now += len
            if ((step + 1) % 1000 == 0) {
                printf "{\"event\":\"checkpoint_save\",\"job\":\"kill\",\"start_time\":%.6f,\"duration_s\":8,\"step\":%d}\n", now, step + 1
                now += 8
            }
        }
        printf "{\"job_name\":\"kill\",\"job_end_time\":%.6f}\n", now }' > "$input"
    ;;
lineage) # some jobs named as basic.json's run: linked to it after the commit
    input=$dir/events.ndjson
    awk 'BEGIN { for (i = 0; i < 8000; ++i) for (s = 0; s < 2; ++s)
        printf "{\"eventType\": \"%s\", \"eventTime\": \"2024-01-01T%02d:%02d:%02dZ\", \"run\": {\"runId\": \"run-%d\"}, \"job\": {\"namespace\": \"kill\", \"name\": \"%s\"}, \"inputs\": [{\"namespace\": \"kill\", \"name\": \"table%d\"}], \"outputs\": [{\"namespace\": \"kill\", \"name\": \"table%d\"}], \"producer\": \"kill_test\"}\n",
            s ? "COMPLETE" : "START", (i / 3600) % 24, (i / 60) % 60, i % 60, i, i % 97 ? "job" i % 97 : "basic", i % 500, (i + 1) % 500 }' > "$input"
    ;;
serving)
    input=$dir/requests.csv
    awk 'BEGIN { print "timestamp,model,endpoint,latency_ms,ttft_ms,prompt_tokens,completion_tokens,status";
        for (i = 0; i < 250000; ++i) printf "2024-05-17T%02d:%02d:%02dZ,llama-8b,/v1/%s,%d,%d,%d,%d,%d\n",
            9 + int(i / 3600) % 8, int(i / 60) % 60, i % 60, i % 3 ? "chat" : "completions", 50 + (i * 37) % 400, 10 + (i * 13) % 90,
            20 + i % 500, 5 + i % 200, i % 101 ? 200 : 500 }' > "$input"
    ;;
vllm) # vLLM's benchmark_serving.py --save-detailed: the summary, then one array per request field
    input=$dir/vllm-bench.json
    awk 'function open(name) { printf ",\n  \"%s\": [", name }
        BEGIN { n = 120000
            printf "{\n  \"date\": \"20240517-101500\",\n  \"backend\": \"vllm\",\n  \"model_id\": \"meta-llama/Llama-3.1-8B-Instruct\",\n  \"num_prompts\": %d,\n  \"request_rate\": \"inf\",\n  \"duration\": %.2f,\n  \"completed\": %d,\n  \"request_throughput\": 100.0", n, n * 0.01, n
            open("input_lens"); for (i = 0; i < n; ++i) printf "%s%d", i ? ", " : "", 64 + (i * 37) % 2000; printf "]"
            open("output_lens"); for (i = 0; i < n; ++i) printf "%s%d", i ? ", " : "", 8 + i % 9; printf "]"
            open("ttfts"); for (i = 0; i < n; ++i) printf "%s%.4f", i ? ", " : "", 0.05 + (i % 97) / 1000; printf "]"
            open("itls"); for (i = 0; i < n; ++i) { printf "%s[", i ? ", " : ""
                for (k = 0; k < 7 + i % 9; ++k) printf "%s%.4f", k ? ", " : "", 0.01 + ((i + k) % 13) / 1000; printf "]" }
            printf "]"
            open("latencies"); for (i = 0; i < n; ++i) printf "%s%.4f", i ? ", " : "", 0.2 + (i % 89) / 100; printf "]"
            open("start_times"); for (i = 0; i < n; ++i) printf "%s%.3f", i ? ", " : "", 1000 + i * 0.01; printf "]"
            open("generated_texts"); for (i = 0; i < n; ++i) printf "%s\"text %d\"", i ? ", " : "", i; printf "]"
            open("errors"); for (i = 0; i < n; ++i) printf "%s\"%s\"", i ? ", " : "", i % 211 ? "" : "Bad Request"; printf "]"
            printf "\n}\n" }' > "$input"
    ;;
*) fail "no family $family" ;;
esac

counts() { # row counts of every table, on one line (one query)
    q=$(sqlite3 "$1" "SELECT group_concat('SELECT ''' || name || '='' || count(*) FROM \"' || name || '\"', ' UNION ALL ') FROM sqlite_master WHERE type = 'table'")
    sqlite3 "$1" "$q" | sort | tr '\n' ' '
}
now() { date +%s.%N; }
since() { echo "$1 $(now)" | awk '{ printf "%.3f", $2 - $1 }'; }
walbytes() { { wc -c < "$1-wal"; } 2> /dev/null || echo 0; } # 0 when there is none (or it just went)

base=$dir/base.plumb
"$plumb" import "$fixtures/chrometrace/data/basic.json" --workspace "$base" > /dev/null || fail "cannot import basic.json"
sqlite3 "$base" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
rm -f "$base-wal" "$base-shm"
held=$(counts "$base")
held_dump=$(sqlite3 "$base" .dump | cksum)

running() { # $1 is alive and not a zombie (dash may leave exited children unreaped until `wait`)
    { read -r st < "/proc/$1/stat"; } 2> /dev/null || return 1
    case ${st##*) } in Z* | X*) return 1 ;; esac
}

# The reference: the whole import, uninterrupted, watching its write-ahead log grow and the source
# it adds appear (the commit). Measured again (three times at most) when no reading saw the log before
# the commit: on a busy machine a short import's writing can fall between two readings, and kill points
# "once the log holds n bytes" would then all come before any write.
reference=$dir/reference.plumb
for attempt in 1 2 3; do
    rm -f "$reference" "$reference-wal" "$reference-shm"
    cp "$base" "$reference"
    start=$(now)
    "$plumb" import "$input" --workspace "$reference" > "$dir/out" 2>&1 &
    pid=$!
    # `logged` is the log's size one reading before the last one seen without the commit: that last one
    # may have come while the commit itself wrote its pages (a reader sees the commit only once it is whole).
    writes='' committed='' logged=0 last=0
    while running $pid; do
        wal=$(walbytes "$reference")
        [ -z "$writes" ] && [ "$wal" -gt 0 ] && writes=$(since "$start")
        if [ -z "$committed" ] && [ "$wal" -gt 0 ]; then
            case $(sqlite3 "$reference" 'SELECT count(*) FROM source' 2> /dev/null || true) in
            2) committed=$(since "$start") ;;
            1) logged=$last last=$wal ;;
            esac # nothing read (the writer held the file a moment): no reading
        fi
        sleep 0.002
    done
    wait $pid || { cat "$dir/out"; fail "the import itself failed"; }
    took=$(since "$start")
    [ "$last" -gt 0 ] && break
done
grep -q ": imported" "$dir/out" || { cat "$dir/out"; fail "the input was not imported"; }
[ "$(sqlite3 "$reference" 'SELECT count(*) FROM source')" = 2 ] || fail "the input was not imported as one source"
expected=$(counts "$reference")
[ -n "$writes" ] || writes=$took
[ -n "$committed" ] || committed=$took
[ "$logged" -gt 0 ] || logged=$((last / 2)) # one reading only before the commit

seed=${KILL_TEST_SEED:-$$}
bytes=$(du -sk "$input" | awk '{ print $1 }')
echo "$family: $bytes KiB of input; a whole import takes $took s: writing into the workspace from $writes s," \
    "committed at $committed s with $logged bytes in the log before the commit"
echo "$kills kills from seed $seed (KILL_TEST_SEED=$seed to repeat)"
# Kill points: "<n>b" once the log holds n bytes, "<t>s" after t seconds, "c" once the commit is seen.
points=$(awk -v s="$seed" -v n="$kills" -v t="$took" -v l="$logged" 'BEGIN { srand(s)
    for (i = 0; i < n; ++i)
        printf "%s ", i % 10 == 5 ? "c" : i % 3 == 0 || l == 0 ? sprintf("%.3fs", rand() * t * 1.25) : sprintf("%db", 1 + int(rand() * l)) }')
ws=$dir/ws.plumb
n=0
reimported=0
loop_start=$(now)
before_commit=0
writing=0
for point in $points; do
    [ "$n" -ge 20 ] && [ "$(since "$loop_start" | cut -d. -f1)" -ge "$budget" ] && break
    n=$((n + 1))
    rm -f "$ws" "$ws-wal" "$ws-shm"
    cp "$base" "$ws"
    "$plumb" import "$input" --workspace "$ws" > /dev/null 2>&1 &
    pid=$!
    case $point in
    *s)
        sleep "${point%s}"
        at="kill $n at ${point%s} s"
        ;;
    *b)
        while running $pid && [ "$(walbytes "$ws")" -lt "${point%b}" ]; do sleep 0.001; done
        at="kill $n once the log held ${point%b} bytes"
        ;;
    c)
        while running $pid && [ "$(sqlite3 "$ws" 'SELECT count(*) FROM source' 2> /dev/null)" != 2 ]; do :; done
        at="kill $n right after the commit"
        ;;
    esac
    wal=$(walbytes "$ws")
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    # One sqlite3 for the checks: integrity, the earlier import still there, the sources.
    state=$(sqlite3 "$ws" "PRAGMA integrity_check; SELECT name FROM source WHERE id = 1; SELECT count(*) FROM source" | tr '\n' ' ')
    case $state in ok\ *basic.json\ *) ;; *) fail "after $at: integrity_check or basic.json: $state" ;; esac
    # plumb itself reads the workspace (every fifth kill: under the sanitizers a run costs a second).
    [ $((n % 5)) -ne 1 ] || "$plumb" ls --workspace "$ws" > /dev/null 2>&1 || fail "plumb ls cannot read the workspace after $at"
    sources=${state##*basic.json }
    again=yes
    case ${sources% } in
    1)
        before_commit=$((before_commit + 1))
        [ "$wal" -gt 0 ] && writing=$((writing + 1))
        [ "$(counts "$ws")" = "$held" ] || fail "after $at, before the commit, the workspace holds other rows than before:
  got      $(counts "$ws")
  expected $held"
        [ $((n % 3)) -ne 1 ] && [ "$(sqlite3 "$ws" .dump | cksum)" = "$held_dump" ] && again=''
        ;;
    2) ;;
    *) fail "after $at the workspace holds $(sqlite3 "$ws" 'SELECT count(*) FROM source') sources" ;;
    esac
    [ -n "$again" ] || continue
    reimported=$((reimported + 1))
    "$plumb" import "$input" --workspace "$ws" > "$dir/out" 2>&1 || { cat "$dir/out"; fail "the import again after $at"; }
    [ "$(counts "$ws")" = "$expected" ] || fail "after $at and the import again, the workspace differs from one never interrupted:
  got      $(counts "$ws")
  expected $expected"
done
[ $((writing * 3)) -ge "$n" ] || fail "only $writing of $n kills landed while the import was writing (at least a third must;" \
    "$before_commit before the commit)"
[ "$n" -eq "$kills" ] || echo "stopped after $n of the $kills planned kills, past the budget of $budget s (KILL_TEST_BUDGET)"
echo "ok: $n kills ($writing while writing, $before_commit before the commit; $reimported imported again), each" \
    "workspace whole, and either as it was or equal to an uninterrupted one after the import again"
