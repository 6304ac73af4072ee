#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# plumb hands the window over to plumb-ui: `plumb`, `plumb open PATH...` and the window options run it
# with the same arguments (exec: its exit status is plumb's) when there is a display, and say what to do
# when there is none or no plumb-ui; `plumb report` runs `plumb-ui --report ...` on the offscreen platform.
# A stand-in plumb-ui on PATH records what it was given; plumb is copied away from the real plumb-ui.
# usage: launcher_test.sh PLUMB TRACE (a trace to import: plumb report checks its workspace before handing over)
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/alone" "$dir/path"
cp "$1" "$dir/alone/plumb"
plumb="$dir/alone/plumb"
fail() { echo "FAIL: $*"; exit 1; }
"$plumb" import "$2" --workspace "$dir/w.plumb" > /dev/null || fail "the trace did not import"

cat > "$dir/path/plumb-ui" <<EOS
#!/bin/sh
printf '%s\n' "\$@" > "$dir/args"
echo "platform=\${QT_QPA_PLATFORM:-} count=\$#" > "$dir/env"
exit \${STANDIN_EXIT:-0}
EOS
chmod +x "$dir/path/plumb-ui"
with_ui() { env PATH="$dir/path:$PATH" "$@"; }
args() { tr '\n' ' ' < "$dir/args"; }

# The window options and paths, as given.
rm -f "$dir/args"
with_ui env DISPLAY=:99 "$plumb" --sample --no-tour "a file.json" || fail "plumb --sample exited $?"
[ "$(args)" = "--sample --no-tour a file.json " ] || fail "plumb-ui got [$(args)]"
with_ui env DISPLAY=:99 "$plumb" open x.json y.sqlite || fail "plumb open exited $?"
[ "$(args)" = "x.json y.sqlite " ] || fail "plumb open: plumb-ui got [$(args)]"
with_ui env DISPLAY= WAYLAND_DISPLAY=wayland-0 "$plumb" || fail "plumb alone exited $?"
grep -q "count=0" "$dir/env" || fail "plumb alone: plumb-ui got [$(args)]"
# exec: plumb-ui's exit status is plumb's.
with_ui env DISPLAY=:99 STANDIN_EXIT=7 "$plumb" --timeline
[ $? -eq 7 ] || fail "plumb-ui's exit status 7 was not passed on"

# No display: a message, exit 1, plumb-ui not started.
rm -f "$dir/args"
out=$(with_ui env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$plumb" --sample 2>&1)
[ $? -eq 1 ] || fail "no display: exit status not 1"
echo "$out" | grep -q "no display to open the window on" || fail "no display: [$out]"
[ ! -e "$dir/args" ] || fail "no display: plumb-ui was started"

# plumb report: checked by plumb, drawn by plumb-ui --report on the offscreen platform, display or not.
with_ui env DISPLAY=:99 "$plumb" report --workspace="$dir/w.plumb" --dpi 40 -o "$dir/review.png" || fail "report exited $?"
[ "$(args)" = "--report --workspace=$dir/w.plumb --dpi 40 -o $dir/review.png " ] || fail "report: plumb-ui got [$(args)]"
grep -q "platform=offscreen" "$dir/env" || fail "report: not on the offscreen platform ($(cat "$dir/env"))"
rm -f "$dir/args"
out=$(with_ui "$plumb" report -o review.docx 2>&1)
[ $? -eq 2 ] || fail "report with a bad -o: exit status not 2"
echo "$out" | grep -q "not review.docx" || fail "report with a bad -o: [$out]"
[ ! -e "$dir/args" ] || fail "report with a bad -o: plumb-ui was started"

# No plumb-ui anywhere: say how to get it.
out=$(env PATH=/usr/bin:/bin DISPLAY=:99 "$plumb" --sample 2>&1)
[ $? -eq 1 ] || fail "no plumb-ui: exit status not 1"
echo "$out" | grep -q "needs plumb-ui, which is not installed" || fail "no plumb-ui: [$out]"
out=$(env PATH=/usr/bin:/bin "$plumb" report --workspace "$dir/w.plumb" -o "$dir/r.pdf" 2>&1)
[ $? -eq 1 ] || fail "report without plumb-ui: exit status not 1"
echo "$out" | grep -q "plumb report (charts are drawn by the window's code) needs plumb-ui" || fail "report without plumb-ui: [$out]"

# A word that is neither a command nor a path is a usage error, not a window.
out=$(with_ui env DISPLAY=:99 "$plumb" improt x.json 2>&1)
[ $? -eq 2 ] || fail "a misspelt command: exit status not 2"
echo "$out" | grep -q "improt is neither a command nor a file" || fail "a misspelt command: [$out]"
echo "launcher test passed"
