#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Crash safety: `plumb import` killed with SIGKILL at random points, one file at a time and with
# traces read in parallel, leaves a workspace that opens, passes PRAGMA integrity_check, holds
# everything imported before and nothing of the killed import, and takes the same import again. A
# scratch folder a killed parallel import left beside the workspace is removed by the next import.
# usage: kill_test.sh PLUMB GEN_KINETO_TRACE FIXTURES_DIR
set -eu
plumb=$1
gen=$2
fixtures=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ws="$dir/ws.plumb"
fail() { echo "FAIL: $*"; exit 1; }

"$gen" -n 400k --seed 1 -o "$dir/big.json" > /dev/null 2>&1
mkdir "$dir/job"
"$gen" -n 150k --seed 2 -o "$dir/job/trainer_rank-0.json" > /dev/null 2>&1
"$gen" -n 150k --seed 3 -o "$dir/job/trainer_rank-1.json" > /dev/null 2>&1
# An empty workspace (what the window creates) takes its first import through a rollback journal instead
# of the write-ahead log: killed, it is rolled back on the next open, whole and empty (or, killed after
# the commit, holding the whole trace), and it is back in WAL mode once an import ends.
empty="$dir/empty.plumb"
: > "$dir/nothing.txt"
"$plumb" import "$dir/nothing.txt" --workspace "$empty" > /dev/null 2>&1 || true # creates it, empty
for delay in 0.15 0.5; do
    "$plumb" import "$dir/big.json" --workspace "$empty" > /dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    [ "$(sqlite3 "$empty" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check of the empty workspace after a kill at $delay s"
    case "$(sqlite3 "$empty" 'SELECT count(*) FROM source'):$(sqlite3 "$empty" 'SELECT count(*) FROM trace t WHERE slice_count = (SELECT count(*) FROM slice s JOIN track k ON k.id = s.track_id WHERE k.trace_id = t.id)')" in
    0:0 | 1:1) ;;
    *) fail "the empty workspace holds part of an import after a kill at $delay s" ;;
    esac
done
"$plumb" import "$dir/big.json" --workspace "$empty" > /dev/null || fail "import into the empty workspace after the kills"
[ "$(sqlite3 "$empty" 'PRAGMA journal_mode')" = wal ] || fail "the first import left the workspace out of WAL mode"

"$plumb" import "$fixtures/basic.json" --workspace "$ws" > /dev/null
before=$(sqlite3 "$ws" "SELECT group_concat(name) FROM source")

check() { # after a kill: intact, the earlier import there, every trace whole
    [ "$(sqlite3 "$ws" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after a kill at $1 s"
    "$plumb" ls --workspace "$ws" --json > /dev/null || fail "plumb ls cannot read the workspace after a kill at $1 s"
    sqlite3 "$ws" "SELECT group_concat(name) FROM source" | grep -q "^$before" || fail "basic.json lost after a kill at $1 s"
    [ "$(sqlite3 "$ws" 'SELECT count(*) FROM source s LEFT JOIN trace t ON t.source_id = s.id WHERE t.id IS NULL')" = 0 ] \
        || fail "a source without its trace after a kill at $1 s"
    [ "$(sqlite3 "$ws" 'SELECT count(*) FROM trace t WHERE slice_count <> (SELECT count(*) FROM slice s JOIN track k ON k.id = s.track_id WHERE k.trace_id = t.id)')" = 0 ] \
        || fail "a trace with missing slices after a kill at $1 s"
    [ "$(sqlite3 "$ws" 'SELECT count(*) FROM slice s LEFT JOIN track k ON k.id = s.track_id WHERE k.id IS NULL')" = 0 ] \
        || fail "slices of no trace after a kill at $1 s"
}

seed=${KILL_TEST_SEED:-$$}
echo "kill delays from seed $seed (KILL_TEST_SEED=$seed to repeat)"
delays=$(awk -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < 6; ++i) printf "%.2f ", 0.05 + rand() * 1.5 }')
for delay in $delays; do
    printf ' ' >> "$dir/big.json" # other bytes each time: a new source, never "already imported"
    "$plumb" import "$dir/big.json" --workspace "$ws" > /dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    check "$delay"
done
for delay in 0.3 0.9; do
    "$plumb" import "$dir/job" --jobs 2 --workspace "$ws" > /dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    check "$delay (parallel)"
done

# The same imports again, to the end: imported (or already there from a kill after the commit).
"$plumb" import "$dir/big.json" "$dir/job" --jobs 2 --workspace "$ws" > "$dir/out" 2>&1 || { cat "$dir/out"; fail "import after the kills"; }
grep -q "failed\|cancelled" "$dir/out" && { cat "$dir/out"; fail "import after the kills"; }
[ "$(find "$dir" -maxdepth 1 -name '.plumb-import-*' | wc -l)" = 0 ] || fail "a killed import's scratch folder was left"
"$plumb" import "$dir/big.json" --workspace "$ws" | grep -q "already imported" || fail "re-import is not a no-op"
check end
echo "ok: $(sqlite3 "$ws" 'SELECT count(*) FROM source') sources, $(sqlite3 "$ws" 'SELECT count(*) FROM trace') traces"
