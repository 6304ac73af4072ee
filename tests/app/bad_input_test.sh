#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Bad input on the command line: a clear message naming what was wrong, the documented exit status, and
# every file as it was (the workspace, and a file given as the workspace that is not one).
#   unknown trace id           doctor, diff: exit 1, "no trace 99 in WS"
#   unwritable output          report -o, check --junit: exit 1 (check: 2), "cannot write ..."
#   not a workspace            a text file, another program's SQLite file: exit 1 (check: 2), "is not a
#                              Plumb workspace", for readers (ls, doctor, report) and for import alike
# usage: bad_input_test.sh PLUMB TRACE NSYS_FIXTURES_DIR
set -u
plumb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ws="$dir/ws.plumb"
"$plumb" import "$2" --workspace "$ws" > /dev/null || fail "the trace did not import"
sum() { cat "$@" | sha256sum; }
before=$(sum "$ws")

# expect STATUS PATTERN COMMAND...: runs plumb COMMAND..., checks its exit status and that stderr matches.
expect() {
    status=$1 pattern=$2
    shift 2
    out=$("$plumb" "$@" 2>&1 >/dev/null)
    got=$?
    [ "$got" -eq "$status" ] || fail "plumb $*: exit status $got, not $status ($out)"
    echo "$out" | grep -q -- "$pattern" || fail "plumb $*: [$out] does not say [$pattern]"
    echo "ok: plumb $* -> $status: $out" | head -1
}

expect 1 "no trace 99 in $ws (plumb ls lists them)" doctor 99 --workspace "$ws"
expect 1 "no trace 99 in $ws" diff 1 99 --workspace "$ws"
expect 1 "no trace x1 in $ws" doctor 1 x1 --json --workspace "$ws"
expect 1 "cannot write $dir/none/r.pdf: there is no folder $dir/none" report -o "$dir/none/r.pdf" --workspace "$ws"
cat > "$dir/objectives.yaml" <<'Y'
objectives:
  - p99(ttft_ms) < 300
Y
expect 2 "cannot write the JUnit file $dir/none/j.xml" check --objectives "$dir/objectives.yaml" --allow-missing \
    --junit "$dir/none/j.xml" --workspace "$ws"
[ "$(sum "$ws")" = "$before" ] || fail "the workspace changed"

# Files that are not workspaces: refused, and left byte for byte as they were.
printf 'a shopping list, not a workspace\n' > "$dir/notes.txt"
cp "$3/host_calls.sqlite" "$dir/export.sqlite"
chmod u+w "$dir/export.sqlite"
for f in "$dir/notes.txt" "$dir/export.sqlite"; do
    kept=$(sum "$f")
    case $f in *.txt) kind="not an SQLite file" ;; *) kind="another program's SQLite file" ;; esac
    expect 1 "$f is not a Plumb workspace ($kind); it was left as it was" ls --workspace "$f"
    expect 1 "$f is not a Plumb workspace" doctor --json --workspace "$f"
    expect 1 "$f is not a Plumb workspace" import "$2" --workspace "$f"
    expect 1 "$f is not a Plumb workspace" report -o "$dir/r.pdf" --workspace "$f"
    expect 2 "$f is not a Plumb workspace" check --objectives "$dir/objectives.yaml" --workspace "$f"
    [ "$(sum "$f")" = "$kept" ] || fail "$f changed"
    [ ! -e "$f-wal" ] || fail "$f got a WAL file"
done
echo "bad input test passed"
