#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `plumb cluster slurm` on a real one-node Slurm cluster (slurm-cluster.sh, in a temporary folder):
#   1. a generated 32-rank job (gen_rank_job: rank 5 the straggler, rank 9 input-bound) imported by
#      `plumb cluster slurm --tasks 4 --wait` (an array of 4 sharded imports, then the merge): exit 0,
#      the job names rank 5 as its straggler, and every rank's figures and verdict equal those of the
#      same folder imported in one process (`plumb doctor --job --json`, the shard and trace ids aside);
#   2. submitted again, held: one array task cancelled (scancel ARRAY_2), the rest released; the merge
#      still runs (afterany), exits 1 and reports that shard's 8 ranks missing; the task redone
#      (sbatch --array=2), `plumb merge` again: every rank is there.
# The cluster is stopped by a trap whatever happens.
#
# Usage: tests/cluster/cluster_slurm_test.sh PLUMB GEN_RANK_JOB     (as root; KEEP=1 keeps the folder)
# Exit status: 0 passed, 1 failed, 77 skipped (Slurm or MUNGE not installed, or not root).
set -u

here=$(cd "$(dirname "$0")" && pwd)
cluster=$here/slurm-cluster.sh
PATH=$PATH:/usr/sbin:/sbin
plumb=$(readlink -f "${1:?usage: cluster_slurm_test.sh PLUMB GEN_RANK_JOB}")
gen=$(readlink -f "${2:?usage: cluster_slurm_test.sh PLUMB GEN_RANK_JOB}")

say() { echo "cluster_slurm_test: $*"; }
fail() {
    echo "cluster_slurm_test: FAILED: $*" >&2
    exit 1
}
skip() {
    echo "cluster_slurm_test: SKIPPED: $*"
    exit 77
}

for b in munged slurmctld slurmd sbatch squeue scancel scontrol sinfo python3; do
    command -v "$b" >/dev/null 2>&1 || skip "$b is not installed (Debian: slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd starts the jobs)"
for v in $(env | sed -n 's/^\(\(SLURM\|SBATCH\|SALLOC\|SRUN\|SQUEUE\|SINFO\|SCANCEL\|SCONTROL\|SACCT\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$v"
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/plumb-cluster.XXXXXX") || fail "mktemp -d"
chmod 755 "$dir" # munged wants its socket folder reachable by all
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    local rc=$?
    "$cluster" stop "$dir/slurm" || {
        echo "cluster_slurm_test: FAILED: stop left processes running" >&2
        rc=1
    }
    if [ "${KEEP:-0}" = 1 ]; then say "kept $dir"; else rm -rf "$dir"; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

env=$("$cluster" start "$dir/slurm")
rc=$?
[ "$rc" -eq 77 ] && skip "slurm-cluster.sh start: not installed"
[ "$rc" -eq 0 ] || fail "slurm-cluster.sh start exited $rc"
eval "$env"
cd "$dir" || fail "cd $dir"

"$gen" -o "$dir/job" --ranks 32 --steps 8 >/dev/null || fail "gen_rank_job"
"$plumb" import --workspace "$dir/one.plumb" "$dir/job" >/dev/null || fail "the one-process import"
"$plumb" doctor --job --json --workspace "$dir/one.plumb" >"$dir/one.json" || fail "plumb doctor --job (one process)"

# 1. Sharded over 4 array tasks, merged, waited for.
mkdir -p "$dir/out" "$dir/out2"
"$plumb" cluster slurm "$dir/job" -o "$dir/out/job.plumb" --tasks 4 --wait >"$dir/wait.txt" 2>&1
rc=$?
[ "$rc" -eq 0 ] || { cat "$dir/wait.txt" >&2; fail "plumb cluster slurm --wait exited $rc"; }
grep -q "32 of 32 ranks merged from 4 of 4 shards" "$dir/wait.txt" || { cat "$dir/wait.txt" >&2; fail "the merge's summary"; }
"$plumb" doctor --job --json --workspace "$dir/out/job.plumb" >"$dir/job.json" || fail "plumb doctor --job (the job)"
python3 - "$dir/one.json" "$dir/job.json" <<'PY' || fail "the job differs from the one-process import"
import json, sys
one, job = (json.load(open(p)) for p in sys.argv[1:3])
def ranks(j):
    return [{k: v for k, v in r.items() if k not in ("trace_id", "shard")} for r in j["ranks"]]
assert len(job["ranks"]) == 32, len(job["ranks"])
assert ranks(one) == ranks(job), "per-rank figures differ"
for k in ("verdict", "straggler", "straggler_wait_ns", "steps", "world_size"):
    assert one[k] == job[k], (k, one[k], job[k])
assert job["straggler"] == 5 and "rank 5" in job["verdict"], job["verdict"]
assert job["ranks"][9]["verdict"] == "input pipeline", job["ranks"][9]
assert all(r["shard"].endswith(".plumb") for r in job["ranks"]), "a rank without its shard"
PY
say "1: 32 ranks over 4 tasks, merged: equal to the one-process import; straggler rank 5"

# 2. Held, one task cancelled, the rest released: the merge reports its ranks missing.
out=$dir/out2/job.plumb
"$plumb" cluster slurm "$dir/job" -o "$out" --tasks 4 --sbatch-arg=--hold >"$dir/submit.txt" 2>&1 \
    || { cat "$dir/submit.txt" >&2; fail "plumb cluster slurm (held)"; }
ids=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['import_job'], j['merge_job'])" \
    "$out.d/jobs.json") || { cat "$out.d/jobs.json" >&2; fail "jobs.json"; }
read -r array merge <<<"$ids"
scancel "${array}_2" || fail "scancel ${array}_2"
scontrol release "$array" || fail "scontrol release $array"
scontrol release "$merge" || fail "scontrol release $merge"
for _ in $(seq 1 120); do
    [ -z "$(squeue -h -j "$merge" -o %i 2>/dev/null)" ] && break
    sleep 1
done
if [ -n "$(squeue -h -j "$merge" -o %i 2>/dev/null)" ] || [ ! -f "$out.d/merge.status" ]; then
    fail "the merge job did not end"
fi

[ "$(cat "$out.d/merge.status")" = 1 ] || fail "the merge's status is $(cat "$out.d/merge.status"), not 1"
missing=$("$plumb" query --csv --workspace "$out" "SELECT group_concat(rank) FROM (SELECT rank FROM job_rank WHERE status = 'missing' ORDER BY rank)" | tail -n 1 | tr -d '\r"')
[ "$missing" = "2,6,10,14,18,22,26,30" ] || fail "missing ranks: $missing"
grep -q "missing" "$out.d"/logs/merge-*.out || fail "the merge log does not name the missing ranks"
say "2: task 2 cancelled: the merge ran anyway and reports ranks $missing missing"

redo=$(sbatch --parsable --array=2 "$out.d/import.sbatch") || fail "sbatch --array=2"
redo=${redo%%;*}
scontrol release "$redo" || fail "scontrol release $redo" # the script holds its jobs (--sbatch-arg=--hold)
for _ in $(seq 1 120); do
    [ -z "$(squeue -h -j "$redo" -o %i 2>/dev/null)" ] && break
    sleep 1
done
[ -z "$(squeue -h -j "$redo" -o %i 2>/dev/null)" ] || fail "the redone task did not end"
"$plumb" merge "$out.d/shards" -o "$out" >"$dir/remerge.txt" 2>&1 || { cat "$dir/remerge.txt" >&2; fail "the merge after the redone task"; }
grep -q "32 of 32 ranks merged from 4 of 4 shards" "$dir/remerge.txt" || fail "the second merge's summary"
say "2: task 2 redone, merged again: 32 of 32 ranks"
