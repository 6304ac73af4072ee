#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A full disk during `plumb import`: the import fails with a message that says so, the workspace
# stays whole (integrity_check, the earlier imports there, nothing of the file that failed), and the same
# import succeeds once there is room. Two ways to fill the disk:
#  - a file size limit (ulimit -f, with SIGXFSZ ignored so that writes fail with EFBIG) at sizes
#    from a few KB to past where the import fits, one file at a time and with ranks in parallel;
#  - a real full file system: a 3 MB tmpfs, when this machine lets the test mount one (root).
# usage: diskfull_test.sh PLUMB GEN_KINETO_TRACE FIXTURES_DIR
set -eu
plumb=$1
gen=$2
fixtures=$3
dir=$(mktemp -d)
mnt=""
cleanup() {
    [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$dir/out" 2>/dev/null; exit 1; }

"$gen" -n 60k --seed 1 -o "$dir/big.json" > /dev/null 2>&1
mkdir "$dir/job"
"$gen" -n 30k --seed 2 -o "$dir/job/trainer_rank-0.json" > /dev/null 2>&1
"$gen" -n 30k --seed 3 -o "$dir/job/trainer_rank-1.json" > /dev/null 2>&1

fresh() { # a workspace holding basic.json only
    rm -f "$1" "$1-wal" "$1-shm"
    "$plumb" import "$fixtures/basic.json" --workspace "$1" > /dev/null || fail "cannot import basic.json"
}
whole() { # $1 workspace, $2 expected source count, $3 what happened
    [ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after $3"
    [ "$(sqlite3 "$1" 'SELECT count(*) FROM source')" = "$2" ] || fail "$2 sources expected after $3"
    sqlite3 "$1" "SELECT name FROM source WHERE id = 1" | grep -q basic.json || fail "basic.json lost after $3"
    "$plumb" ls --workspace "$1" > /dev/null || fail "plumb ls cannot read the workspace after $3"
}

ws="$dir/ws.plumb"
failures=0
for limit in 40 200 1000 3000 6000 12000 24000 100000; do
    for mode in one parallel; do
        fresh "$ws"
        if [ $mode = one ]; then set -- "$dir/big.json"; else set -- "$dir/job" --jobs 2; fi
        status=0
        sh -c 'trap "" XFSZ; ulimit -f "$0"; exec "$@"' "$limit" "$plumb" import "$@" --workspace "$ws" > "$dir/out" 2>&1 \
            || status=$?
        if [ $status -ne 0 ]; then
            grep -q -E "the disk is full|the disk may be full" "$dir/out" \
                || fail "no clear message at a file size limit of $limit blocks ($mode)"
            # each file is its own transaction: the files imported before the disk filled stay
            kept=$((1 + $(grep -c ": imported (" "$dir/out" || true)))
            whole "$ws" $kept "a file size limit of $limit blocks ($mode)"
            failures=$((failures + 1))
            "$plumb" import "$@" --workspace "$ws" > "$dir/out" 2>&1 || fail "the same import failed again with room ($mode)"
        fi
        [ $mode = one ] && n=2 || n=3
        whole "$ws" $n "the import again with room ($mode)"
    done
done
[ $failures -ge 8 ] || fail "only $failures imports hit the limit: the inputs are too small for this test"
echo "file size limits: $failures imports stopped by the limit, each with a clear message and a whole workspace"

mkdir "$dir/tmpfs"
if mount -t tmpfs -o size=3m tmpfs "$dir/tmpfs" 2>/dev/null; then
    mnt="$dir/tmpfs"
    ws="$mnt/ws.plumb"
    fresh "$ws"
    "$plumb" import "$dir/big.json" --workspace "$ws" > "$dir/out" 2>&1 && fail "a 3 MB disk held the whole import"
    grep -q "the disk is full" "$dir/out" || fail "no clear message on a full disk"
    whole "$ws" 1 "a full disk"
    echo "full tmpfs: the import stopped with a clear message, the workspace whole"
else
    echo "full tmpfs: skipped (this machine does not let the test mount a tmpfs)"
fi
echo "ok: nothing lost"
