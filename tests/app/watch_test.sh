#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# plumb import --watch end to end: a TensorBoard event file that grows while "training" runs is
# continued from where its last import stopped, an MLflow run whose metric file gets a line imports
# again (its meta.yaml, not the metric file alone), and Ctrl+C ends the watch cleanly.
# usage: watch_test.sh PLUMB TESTS_IMPORTERS_DIR
set -eu
plumb=$1
data=$2
dir=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
mkdir -p "$dir/logs/tb"
cp -r "$data/mlflow/data/filestore/mlruns" "$dir/logs/"
events="$data/tfevents/data/tf2/events.out.tfevents.1700000000.gen.1"
grown="$dir/logs/tb/events.out.tfevents.1700000000.gen.1"
# The event file's first three records (TFRecord: u64 length, u32 CRC, data, u32 CRC).
cut=$(python3 -c "
import struct, sys
b = open(sys.argv[1], 'rb').read(); at = 0
for _ in range(3):
    at += 16 + struct.unpack_from('<Q', b, at)[0]
print(at)" "$events")
head -c "$cut" "$events" > "$grown"

wait_for() { # PATTERN COUNT: until the output has COUNT lines matching PATTERN (60 s at most)
    i=0
    while n=$(grep -c "$1" "$dir/out" 2>/dev/null || true); [ "${n:-0}" -lt "$2" ]; do
        i=$((i + 1))
        if [ $i -gt 600 ]; then
            echo "timed out waiting for $2 x '$1'; output:"; cat "$dir/out"; exit 1
        fi
        sleep 0.1
    done
}

# The file exists before the watch starts: a background job opens its redirection in the forked
# child, and a wait that found no file would end at once (CI saw the file grow before the first look).
: > "$dir/out"
"$plumb" import --watch --interval 0.2 --json "$dir/logs" --workspace "$dir/ws.plumb" > "$dir/out" 2>&1 &
pid=$!
wait_for '"status":"imported"' 5 # the event file's first records and the four MLflow runs
wait_for 'gen.1","records":3' 1

tail -c +"$((cut + 1))" "$events" >> "$grown"
echo "1700000009000 0.05 9" >> "$dir/logs/mlruns/0/a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1/metrics/loss"
wait_for '"status":"imported"' 7
kill -INT $pid
status=0
wait $pid || status=$?
cat "$dir/out"
[ $status -eq 0 ] || { echo "FAIL: the watch ended with exit status $status on Ctrl+C"; exit 1; }
grep -q '"message":"6 records appended since source [0-9]* (read from byte '"$cut"')"' "$dir/out" ||
    { echo "FAIL: the grown event file was not continued from byte $cut"; exit 1; }

# What the watch built equals a one-shot import of the final files.
"$plumb" import "$dir/logs" --workspace "$dir/once.plumb" > /dev/null 2>&1 || true
"$plumb" ls --json --workspace "$dir/ws.plumb" > "$dir/watched.json"
"$plumb" ls --json --workspace "$dir/once.plumb" > "$dir/once.json"
python3 - "$dir/watched.json" "$dir/once.json" <<'PY'
import json, sys
def points(f):
    return {r["name"]: (r["logs"]["points"], r["logs"]["scalar_tags"], r["logs"]["histograms"])
            for r in json.load(open(f))["runs"]}
watched, once = points(sys.argv[1]), points(sys.argv[2])
print("watched:", watched)
print("one-shot:", once)
assert watched["alpha"][0] == 8, "alpha's appended metric line is missing"
assert watched == once, "the watched workspace differs from a one-shot import"
print("watch test passed")
PY
