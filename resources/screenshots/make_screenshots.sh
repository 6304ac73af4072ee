#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screenshots of every main view in the light and dark palettes, for the README and the user guide:
# NAME.png (light) and NAME-dark.png, taken with the app's own --screenshot under Xvfb, then reduced to a
# 256-colour PNG when ImageMagick's convert is there.
#
# usage: resources/screenshots/make_screenshots.sh [BUILD_DIR]      (default: build/ in the checkout)
#
# The sample workspace gives the window, timeline, doctor, goodput, SLO and query shots, the project's
# TFX-shaped ML Metadata fixture the lineage one, gen_mlflow_tuning.py's store the scalars one; the diff,
# call tree, experiments and memory shots need ../shared/data beside the checkout and are skipped, with a
# message, without it.
# The Histograms page and the report page are not taken here (no option opens them; reports are always
# printed light).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${1:-$repo/build}
plumb=$build/app/plumb
shared=$repo/../shared/data
[ -x "$plumb" ] || { echo "make_screenshots.sh: no $plumb: build it first (ninja -C build plumb)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "make_screenshots.sh: needs xvfb-run (package xvfb)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Fresh settings and data folders: no remembered theme, layout or workspace.
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"

# shot NAME ARGS...: NAME.png and NAME-dark.png of `plumb ARGS...`
shot() {
    name=$1
    shift
    for theme in light dark; do
        suffix=""
        [ "$theme" = dark ] && suffix="-dark"
        raw="$tmp/$name$suffix.png"
        xvfb-run -a -s "-screen 0 1600x1000x24" "$plumb" --theme "$theme" "$@" --screenshot "$raw"
        if command -v convert >/dev/null; then
            convert "$raw" -strip -colors 256 "PNG8:$here/$name$suffix.png"
        else
            cp "$raw" "$here/$name$suffix.png"
        fi
        echo "$here/$name$suffix.png"
    done
}

samples="$repo/resources/samples"
ws="$tmp/sample.plumb"
"$plumb" import "$samples"/sample_training_step.pt.trace.json.gz "$samples"/sample_pipeline.openlineage.json \
    "$samples"/sample_training_job.lifecycle.jsonl.gz "$samples"/sample_serving.vllm.json.gz --workspace "$ws" >/dev/null

shot screenshot --workspace "$ws"
shot timeline-kineto --workspace "$ws" --timeline
shot doctor --workspace "$ws" --doctor
"$plumb" import "$repo/tests/importers/mlmd/data/tfx_store/metadata.sqlite" --workspace "$tmp/lineage.plumb" >/dev/null
shot lineage --workspace "$tmp/lineage.plumb" --lineage
shot goodput --workspace "$ws" --goodput
shot slo --workspace "$ws" --slo
shot query --workspace "$ws" --query
# The Scalars page on runs that log each metric once (an MLflow learning-rate search): bars and scatters.
python3 "$here/gen_mlflow_tuning.py" "$tmp/tuning"
"$plumb" import "$tmp/tuning" --workspace "$tmp/tuning.plumb" >/dev/null
shot scalars --workspace "$tmp/tuning.plumb" --experiments

if [ -d "$shared/traces/kineto" ]; then
    kineto="$shared/traces/kineto"
    "$plumb" import "$kineto/hta_trace_diff_control.json.gz" "$kineto/hta_trace_diff_test.json.gz" \
        --workspace "$tmp/diff.plumb" >/dev/null
    shot diff --workspace "$tmp/diff.plumb" --diff
    # The Call Tree tab on a trace recorded with_stack=True (Python frames over the ops).
    "$plumb" import "$kineto/tracelens_h100_qwen.json.gz" --workspace "$tmp/calltree.plumb" >/dev/null
    shot calltree --workspace "$tmp/calltree.plumb" --call-tree
    shot calltree-bottomup --workspace "$tmp/calltree.plumb" --call-tree --bottom-up
else
    echo "make_screenshots.sh: $shared absent: diff.png and calltree.png not taken" >&2
fi
if [ -d "$shared/tfevents/shapeaxi_lightning_hparams" ]; then
    "$plumb" import "$shared/tfevents/shapeaxi_lightning_hparams" --workspace "$tmp/experiments.plumb" >/dev/null
    shot experiments --workspace "$tmp/experiments.plumb" --experiments
else
    echo "make_screenshots.sh: $shared absent: experiments.png not taken" >&2
fi
if [ -f "$shared/traces/kineto/tracelens_h100_qwen.json.gz" ]; then
    "$plumb" import "$shared/traces/kineto/tracelens_h100_qwen.json.gz" --workspace "$tmp/memory.plumb" >/dev/null
    shot memory --workspace "$tmp/memory.plumb" --memory
else
    echo "make_screenshots.sh: $shared absent: memory.png not taken" >&2
fi
