#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Crash safety per importer family: `plumb import` of one file killed with SIGKILL at N random points
# (default 50) spread over the time a whole import of it takes. After each kill the workspace must
# pass PRAGMA integrity_check, open with `plumb ls`, hold everything imported before, and, once the
# same file is imported again to the end, hold exactly what a workspace that was never interrupted
# holds (row counts of every table): nothing of the killed import stayed, nothing is missing.
# usage: kill_families_test.sh PLUMB GEN_KINETO_TRACE FIXTURES_DIR FAMILY [KILLS]
#   FAMILY: traces (a Kineto trace), logs (a CSV metric log), lineage (OpenLineage events),
#           serving (an LLM request log)
set -eu
plumb=$1
gen=$2
fixtures=$3
family=$4
kills=${5:-50}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL ($family): $*"; exit 1; }

case $family in
traces) input=$dir/trace.json; "$gen" -n 30k --seed 7 -o "$input" > /dev/null 2>&1 ;;
logs)
    input=$dir/metrics.csv
    awk 'BEGIN { print "step,loss,accuracy,lr"; for (i = 0; i < 60000; ++i) printf "%d,%.6f,%.5f,%.6g\n", i, 2 / (i + 1), i / 60000, 0.001 * (1 - i / 60000) }' > "$input"
    ;;
lineage)
    input=$dir/events.ndjson
    awk 'BEGIN { for (i = 0; i < 3000; ++i) for (s = 0; s < 2; ++s)
        printf "{\"eventType\": \"%s\", \"eventTime\": \"2024-01-01T%02d:%02d:%02dZ\", \"run\": {\"runId\": \"run-%d\"}, \"job\": {\"namespace\": \"kill\", \"name\": \"job%d\"}, \"inputs\": [{\"namespace\": \"kill\", \"name\": \"table%d\"}], \"outputs\": [{\"namespace\": \"kill\", \"name\": \"table%d\"}], \"producer\": \"kill_test\"}\n",
            s ? "COMPLETE" : "START", (i / 3600) % 24, (i / 60) % 60, i % 60, i, i % 97, i % 500, (i + 1) % 500 }' > "$input"
    ;;
serving)
    input=$dir/requests.csv
    awk 'BEGIN { print "timestamp,model,endpoint,latency_ms,ttft_ms,prompt_tokens,completion_tokens,status";
        for (i = 0; i < 120000; ++i) printf "2024-05-17T%02d:%02d:%02dZ,llama-8b,/v1/%s,%d,%d,%d,%d,%d\n",
            9 + int(i / 3600) % 8, int(i / 60) % 60, i % 60, i % 3 ? "chat" : "completions", 50 + (i * 37) % 400, 10 + (i * 13) % 90,
            20 + i % 500, 5 + i % 200, i % 101 ? 200 : 500 }' > "$input"
    ;;
*) fail "no family $family" ;;
esac

counts() { # row counts of every table, on one line (one query)
    q=$(sqlite3 "$1" "SELECT group_concat('SELECT ''' || name || '='' || count(*) FROM \"' || name || '\"', ' UNION ALL ') FROM sqlite_master WHERE type = 'table'")
    sqlite3 "$1" "$q" | sort | tr '\n' ' '
}

base=$dir/base.plumb
"$plumb" import "$fixtures/basic.json" --workspace "$base" > /dev/null || fail "cannot import basic.json"
sqlite3 "$base" "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null
reference=$dir/reference.plumb
cp "$base" "$reference"
start=$(date +%s.%N)
"$plumb" import "$input" --workspace "$reference" > "$dir/out" 2>&1 || { cat "$dir/out"; fail "the import itself failed"; }
took=$(echo "$start $(date +%s.%N)" | awk '{ print $2 - $1 }')
expected=$(counts "$reference")

seed=${KILL_TEST_SEED:-$$}
echo "$family: a whole import takes $took s; $kills kills at random points from seed $seed (KILL_TEST_SEED=$seed to repeat)"
delays=$(awk -v s="$seed" -v n="$kills" -v t="$took" 'BEGIN { srand(s); for (i = 0; i < n; ++i) printf "%.3f ", rand() * t * 1.1 }')
ws=$dir/ws.plumb
n=0
before_commit=0
for delay in $delays; do
    n=$((n + 1))
    rm -f "$ws" "$ws-wal" "$ws-shm"
    cp "$base" "$ws"
    "$plumb" import "$input" --workspace "$ws" > /dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    [ "$(sqlite3 "$ws" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after kill $n at $delay s"
    "$plumb" ls --workspace "$ws" > /dev/null 2>&1 || fail "plumb ls cannot read the workspace after kill $n at $delay s"
    sqlite3 "$ws" "SELECT name FROM source WHERE id = 1" | grep -q basic.json || fail "basic.json lost after kill $n at $delay s"
    sources=$(sqlite3 "$ws" 'SELECT count(*) FROM source')
    [ "$sources" = 1 ] && before_commit=$((before_commit + 1))
    "$plumb" import "$input" --workspace "$ws" > "$dir/out" 2>&1 || { cat "$dir/out"; fail "the import again after kill $n at $delay s"; }
    [ "$(counts "$ws")" = "$expected" ] || fail "after kill $n at $delay s and the import again, the workspace differs from one never interrupted:
  got      $(counts "$ws")
  expected $expected"
done
echo "ok: $n kills ($before_commit before the commit), each workspace whole and equal to an uninterrupted one after the import again"
