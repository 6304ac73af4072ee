#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Who may write a workspace, and when (issue 38), with real processes:
#  - two `plumb import` processes writing one workspace at once, and a third after them: every file lands
#    whole, and the workspace equals one the same files were imported into one after another;
#  - another program holding the write lock (the sqlite3 shell): `plumb import --wait 1` fails naming it
#    and leaves the workspace as it was; `--wait 30` says it is waiting, then imports once the lock is free;
#  - a workspace this user may not write (another user's file and folder; as root the checks run as
#    nobody): `plumb ls` and `plumb doctor` read it, `plumb import` refuses it saying why, nothing changes,
#    and the Python package reads it.
# usage: workspace_access_test.sh PLUMB GEN_KINETO_TRACE FIXTURES_DIR [PYTHON_PACKAGE_DIR]
set -eu
plumb=$1
gen=$2
fixtures=$3
pydir=${4:-}
dir=$(mktemp -d)
holder=""
cleanup() {
    [ -n "$holder" ] && kill "$holder" 2> /dev/null
    chmod -R u+w "$dir" 2> /dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
counts() { # row counts of every table, on one line
    q=$(sqlite3 "$1" "SELECT group_concat('SELECT ''' || name || '='' || count(*) FROM \"' || name || '\"', ' UNION ALL ') FROM sqlite_master WHERE type = 'table'")
    sqlite3 "$1" "$q" | sort | tr '\n' ' '
}

for i in 1 2 3; do "$gen" -n 150k --seed "$i" -o "$dir/t$i.json" > /dev/null 2>&1; done

# Two writers at once, then a third; against the same files imported one after another.
ws=$dir/ws.plumb
"$plumb" import "$fixtures/basic.json" --workspace "$ws" > /dev/null || fail "cannot import basic.json"
"$plumb" import "$dir/t1.json" --workspace "$ws" > "$dir/a.out" 2>&1 &
a=$!
"$plumb" import "$dir/t2.json" --workspace "$ws" > "$dir/b.out" 2>&1 &
b=$!
wait $a || { cat "$dir/a.out"; fail "the first of two writers at once failed"; }
wait $b || { cat "$dir/b.out"; fail "the second of two writers at once failed"; }
"$plumb" import "$dir/t3.json" --workspace "$ws" > /dev/null 2>&1 || fail "the third writer failed"
[ "$(sqlite3 "$ws" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after concurrent writers"
ref=$dir/ref.plumb
for f in "$fixtures/basic.json" "$dir/t1.json" "$dir/t2.json" "$dir/t3.json"; do
    "$plumb" import "$f" --workspace "$ref" > /dev/null 2>&1 || fail "reference import of $f"
done
[ "$(counts "$ws")" = "$(counts "$ref")" ] || fail "concurrent writers lost or doubled rows:
  got      $(counts "$ws")
  expected $(counts "$ref")"
echo "two writers at once: $(sqlite3 "$ws" 'SELECT count(*) FROM source') sources, equal to one after another"

# Another program holds the write lock.
fifo=$dir/fifo
mkfifo "$fifo"
sqlite3 "$ws" < "$fifo" > /dev/null 2>&1 &
holder=$!
exec 3> "$fifo"
echo "BEGIN IMMEDIATE;" >&3
tries=0
until grep -q "WRITE $holder " /proc/locks 2> /dev/null; do
    tries=$((tries + 1))
    [ $tries -lt 100 ] || fail "the sqlite3 shell never took the write lock"
    sleep 0.1
done
sources=$(sqlite3 "$ws" 'SELECT count(*) FROM source')
if "$plumb" import "$fixtures/../../lifecycle/data/preemptions.jsonl" --workspace "$ws" --wait 1 > "$dir/c.out" 2>&1; then
    cat "$dir/c.out"
    fail "an import went through while another program held the write lock"
fi
grep -q "is being written by process $holder (sqlite3" "$dir/c.out" || { cat "$dir/c.out"; fail "the failure does not name the writer"; }
grep -q "nothing from this file was kept" "$dir/c.out" || { cat "$dir/c.out"; fail "the failure does not say nothing was kept"; }
[ "$(sqlite3 "$ws" 'SELECT count(*) FROM source')" = "$sources" ] || fail "the failed import changed the workspace"
"$plumb" import "$fixtures/../../lifecycle/data/preemptions.jsonl" --workspace "$ws" --wait 30 > "$dir/d.out" 2>&1 &
waiting=$!
sleep 2.5
echo "COMMIT;" >&3
exec 3>&-
wait "$holder" || true
holder=""
wait $waiting || { cat "$dir/d.out"; fail "the import that waited failed"; }
grep -q "waiting for process [0-9]* (sqlite3 .*) to finish writing" "$dir/d.out" || { cat "$dir/d.out"; fail "the wait was not said"; }
[ "$(sqlite3 "$ws" 'SELECT count(*) FROM source')" = $((sources + 1)) ] || fail "the import that waited is missing"
echo "a held write lock: refused after --wait 1 naming the sqlite3 shell; imported after waiting with --wait 30"

# A workspace of another user, in that user's folder.
ro=$dir/ro
mkdir "$ro"
cp "$ref" "$ro/shared.plumb"
chmod 755 "$dir" "$ro"
chmod 644 "$ro/shared.plumb"
as=""
if [ "$(id -u)" = 0 ]; then
    as="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
    chmod 555 "$ro"
    chmod 444 "$ro/shared.plumb"
fi
before=$(sha256sum < "$ro/shared.plumb")
$as env HOME="$ro" "$plumb" ls --workspace "$ro/shared.plumb" > "$dir/e.out" 2>&1 || { cat "$dir/e.out"; fail "plumb ls cannot read a read-only workspace"; }
grep -q "t2.json" "$dir/e.out" || { cat "$dir/e.out"; fail "plumb ls of a read-only workspace misses a trace"; }
$as env HOME="$ro" "$plumb" doctor --json --workspace "$ro/shared.plumb" > "$dir/f.out" 2>&1 || { cat "$dir/f.out"; fail "plumb doctor cannot read a read-only workspace"; }
if $as env HOME="$ro" "$plumb" import "$dir/t1.json" --workspace "$ro/shared.plumb" > "$dir/g.out" 2>&1; then
    fail "plumb import wrote into a read-only workspace"
fi
grep -q "is read-only (no write permission on" "$dir/g.out" || { cat "$dir/g.out"; fail "the refusal does not say why"; }
[ "$(sha256sum < "$ro/shared.plumb")" = "$before" ] || fail "reading a read-only workspace changed it"
ls "$ro" | grep -q -- "-wal\|-shm" && fail "reading a read-only workspace left files beside it"
if [ -n "$pydir" ] && python3 -c "import sqlite3" 2> /dev/null; then
    n=$($as env HOME="$ro" PYTHONPATH="$pydir" python3 -c "import plumb; print(len(plumb.Workspace('$ro/shared.plumb').query('SELECT * FROM source')))") \
        || fail "the Python package cannot read a read-only workspace"
    [ "$n" = 4 ] || fail "the Python package read $n sources of a read-only workspace, not 4"
fi
echo "ok: one writer at a time, waits said, read-only workspaces read and refused for writing"
