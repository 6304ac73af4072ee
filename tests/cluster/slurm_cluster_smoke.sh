#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Smoke test of a real one-node Slurm cluster (tests/cluster/slurm-cluster.sh) in a temporary folder,
# proving what `plumb cluster slurm` relies on:
#   (a) an array job (sbatch --parsable, a script with #SBATCH lines, --array=0-3) runs 4 tasks, each
#       seeing SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT and writing a file named after its id;
#       which of TMPDIR / SLURM_TMPDIR a task has is reported;
#   (b) a merge job submitted with --dependency=afterany:ARRAYID starts only after every task ended,
#   (c) even when one task is cancelled (scancel ARRAYID_2, while it runs) and one fails (exit 3);
#   (d) waiting without accounting: `squeue -h -j ID -o %i` until it prints nothing, then the final
#       state from `scontrol -o show job ID` (JobState=, ExitCode=), kept for MinJobAge (300 s);
#   and that a job with --dependency=afterok on the array (which had a cancelled task) never runs.
# The cluster is stopped by a trap whatever happens, and nothing of it is left running.
#
# Usage: tests/cluster/slurm_cluster_smoke.sh          (as root; KEEP=1 keeps the temporary folder)
# Exit status: 0 passed, 1 failed, 77 skipped (Slurm or MUNGE not installed, or not root).
set -u

here=$(cd "$(dirname "$0")" && pwd)
cluster=$here/slurm-cluster.sh
PATH=$PATH:/usr/sbin:/sbin

say() { echo "slurm_cluster_smoke: $*"; }
fail() {
    echo "slurm_cluster_smoke: FAILED: $*" >&2
    exit 1
}
skip() {
    echo "slurm_cluster_smoke: SKIPPED: $*"
    exit 77
}

for b in munged slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
    command -v "$b" >/dev/null 2>&1 || skip "$b is not installed (Debian: slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd starts the jobs and munged/slurmctld run as the caller)"

# Slurm's input variables from the environment (a run inside a job of a real cluster) would steer
# sbatch and squeue here: SBATCH_PARTITION, SLURM_JOB_ID, SQUEUE_FORMAT...
for v in $(env | sed -n 's/^\(\(SLURM\|SBATCH\|SALLOC\|SRUN\|SQUEUE\|SINFO\|SCANCEL\|SCONTROL\|SACCT\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$v"
done

t0=$(date +%s.%N)
elapsed() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}'; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/plumb-slurm.XXXXXX") || fail "mktemp -d"
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    local rc=$?
    "$cluster" stop "$dir" || {
        echo "slurm_cluster_smoke: FAILED: stop left processes running" >&2
        rc=1
    }
    if [ "${KEEP:-0}" = 1 ]; then
        say "kept $dir"
    else
        rm -rf "$dir"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

env=$("$cluster" start "$dir")
rc=$?
[ "$rc" -eq 77 ] && skip "slurm-cluster.sh start: not installed"
[ "$rc" -eq 0 ] || fail "slurm-cluster.sh start exited $rc"
eval "$env"
say "cluster up after $(elapsed)s ($SLURM_CONF)"
work=$dir/work
mkdir -p "$work"
cd "$work" || fail "cd $work"

# The final state of a job or array task (scontrol keeps finished jobs for MinJobAge seconds).
job_field() { # JOBID FIELD
    scontrol -o show job "$1" 2>/dev/null | head -n 1 | tr ' ' '\n' | sed -n "s/^$2=//p"
}
# Wait until squeue no longer lists the job (pending, running or completing), at most SECONDS.
wait_gone() { # JOBID SECONDS
    local _
    for _ in $(seq 1 $(($2 * 5))); do
        [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    return 1
}
# Wait until the array task is running, at most SECONDS.
wait_running() { # JOBID_TASK SECONDS
    local _
    for _ in $(seq 1 $(($2 * 5))); do
        [ "$(squeue -h -j "$1" -o %t 2>/dev/null)" = R ] && return 0
        sleep 0.2
    done
    return 1
}
now() { date +%s.%N; }
later() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a >= b)}'; } # A >= B

# (a) The array job: a script with #SBATCH lines, as plumb writes it. Task 2 sleeps so it can be
# cancelled while running, task 3 exits 3; every task first writes its file.
cat >"$work/shard.sbatch" <<EOF
#!/bin/sh
#SBATCH --job-name=plumb-shard
#SBATCH --array=0-3
#SBATCH --output=$work/shard-%A_%a.log
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
f=$work/shard-\$SLURM_ARRAY_TASK_ID.txt
tmpdir_ok=no
[ -n "\${TMPDIR:-}" ] && [ -d "\$TMPDIR" ] && [ -w "\$TMPDIR" ] && tmpdir_ok=yes
{
    echo "id=\$SLURM_ARRAY_TASK_ID"
    echo "count=\${SLURM_ARRAY_TASK_COUNT:-}"
    echo "array=\${SLURM_ARRAY_JOB_ID:-}"
    echo "min=\${SLURM_ARRAY_TASK_MIN:-} max=\${SLURM_ARRAY_TASK_MAX:-}"
    echo "TMPDIR=\${TMPDIR-<unset>} usable=\$tmpdir_ok"
    echo "SLURM_TMPDIR=\${SLURM_TMPDIR-<unset>}"
    echo "SLURM_JOB_TMPDIR=\${SLURM_JOB_TMPDIR-<unset>}"
    echo "cwd=\$(pwd)"
} >"\$f.part"
mv "\$f.part" "\$f"
# A cancel signals the task's processes one at a time (proctrack/linuxproc, from a list made before):
# in a loaded minute the shell can see the sleep die and fork the next command before its own
# SIGTERM, and that command is on no list. So the sleep's death ends the script, as plumb's import
# task ends with the plumb it execs.
if [ "\$SLURM_ARRAY_TASK_ID" = 2 ]; then sleep 120 || exit \$?; fi
date +%s.%N >"$work/shard-\$SLURM_ARRAY_TASK_ID.end"
# Task 3 fails (exit status 3), as a shard whose import failed would.
[ "\$SLURM_ARRAY_TASK_ID" = 3 ] && exit 3
exit 0
EOF
array=$(sbatch --parsable "$work/shard.sbatch") || fail "sbatch of the array job failed"
array=${array%%;*} # --parsable prints ID or ID;CLUSTER
[ -n "$array" ] || fail "sbatch --parsable printed no job id"
say "array job $array submitted"

# (b) The merge job, submitted at once, depending on the whole array with afterany.
merge=$(sbatch --parsable --job-name=plumb-merge --dependency="afterany:$array" --output="$work/merge.log" \
    --wrap "date +%s.%N >$work/merge.start; ls $work > $work/merge.ls") || fail "sbatch of the merge job failed"
merge=${merge%%;*}
# And one with afterok, which must never run since a task gets cancelled.
never=$(sbatch --parsable --job-name=plumb-never --dependency="afterok:$array" --output="$work/never.log" \
    --wrap "touch $work/never.ran") || fail "sbatch of the afterok job failed"
never=${never%%;*}
say "merge job $merge (afterany:$array), afterok job $never"
# Pending, with reason Dependency (None for the moment before slurmctld first looks at it).
reason=$(squeue -h -j "$merge" -o '%t %r')
case "$reason" in "PD Dependency" | "PD None") ;; *) fail "merge job $merge is '$reason', not pending on its dependency" ;; esac

# (c) Cancel task 2 while it runs (it sleeps); the others finish on their own.
wait_running "${array}_2" 30 || fail "task ${array}_2 did not start within 30 s: $(squeue -h -j "$array" -o '%i %t %r' | tr '\n' ';')"
[ -s "$work/shard-2.txt" ] || sleep 1
cancelled_at=$(now)
scancel "${array}_2" || fail "scancel ${array}_2 failed"
say "cancelled ${array}_2 while running, after $(elapsed)s"

# (d) Waiting without accounting: squeue lists pending/running/completing jobs only.
wait_gone "$array" 40 || fail "array $array still listed by squeue after 40 s: $(squeue -h -j "$array" -o '%i %t %r' | tr '\n' ';')"
wait_gone "$merge" 30 || fail "merge job $merge still listed after 30 s: $(squeue -h -j "$merge" -o '%i %t %r')"
say "array and merge job gone from squeue after $(elapsed)s"

# (a) checked: each task's file, its variables.
for k in 0 1 2 3; do
    f=$work/shard-$k.txt
    [ -s "$f" ] || fail "task $k wrote no $f (log: $(cat "$work/shard-${array}_$k.log" 2>/dev/null))"
    grep -qx "id=$k" "$f" || fail "task $k: SLURM_ARRAY_TASK_ID wrong in $f: $(cat "$f")"
    grep -qx "count=4" "$f" || fail "task $k: SLURM_ARRAY_TASK_COUNT is not 4 in $f: $(cat "$f")"
    grep -qx "array=$array" "$f" || fail "task $k: SLURM_ARRAY_JOB_ID is not $array in $f"
done
say "task environment: $(grep -E '^(TMPDIR|SLURM_TMPDIR|SLURM_JOB_TMPDIR|cwd)=' "$work/shard-0.txt" | tr '\n' ' ')"

# The tasks' final states, from scontrol (ArrayJobId_TaskId addresses one task).
for k in 0 1; do
    st=$(job_field "${array}_$k" JobState)
    ec=$(job_field "${array}_$k" ExitCode)
    if ! { [ "$st" = COMPLETED ] && [ "$ec" = 0:0 ]; }; then fail "task ${array}_$k: JobState=$st ExitCode=$ec, not COMPLETED 0:0"; fi
done
for k in 0 1 3; do [ -f "$work/shard-$k.end" ] || fail "task $k did not reach its end"; done
st3=$(job_field "${array}_3" JobState)
ec3=$(job_field "${array}_3" ExitCode)
if ! { [ "$st3" = FAILED ] && [ "$ec3" = 3:0 ]; }; then fail "task ${array}_3 (exit 3): JobState=$st3 ExitCode=$ec3, not FAILED 3:0"; fi
st2=$(job_field "${array}_2" JobState)
ec2=$(job_field "${array}_2" ExitCode)
[ "$st2" = CANCELLED ] || fail "cancelled task ${array}_2: JobState=$st2 ExitCode=$ec2"
[ ! -f "$work/shard-2.end" ] || fail "cancelled task 2 ran to its end"
say "tasks 0 1 COMPLETED 0:0; task 3 $st3 $ec3; cancelled task 2 JobState=$st2 ExitCode=$ec2"
# The array job as a whole: one line per task record (squeue is empty now, scontrol still has them).
say "scontrol -o show job $array: $(scontrol -o show job "$array" | sed -n 's/.*ArrayTaskId=\([^ ]*\) .*JobState=\([^ ]*\) .*ExitCode=\([^ ]*\) .*/\1:\2:\3/p' | sort | tr '\n' ' ')"

# (b)+(c) checked: the merge job ran, after every task's end and after the cancel.
mst=$(job_field "$merge" JobState)
mec=$(job_field "$merge" ExitCode)
if ! { [ "$mst" = COMPLETED ] && [ "$mec" = 0:0 ]; }; then fail "merge job $merge: JobState=$mst ExitCode=$mec (log: $(cat "$work/merge.log" 2>/dev/null))"; fi
[ -s "$work/merge.start" ] || fail "merge job $merge did not run its command"
mstart=$(cat "$work/merge.start")
for k in 0 1 3; do
    later "$mstart" "$(cat "$work/shard-$k.end")" || fail "merge job started before task $k ended"
done
later "$mstart" "$cancelled_at" || fail "merge job started before task 2 was cancelled"
for k in 0 1 2 3; do grep -qx "shard-$k.txt" "$work/merge.ls" || fail "merge job did not see shard-$k.txt"; done
say "merge job $merge COMPLETED 0:0 after all 4 tasks (one cancelled, one failed)"

# The afterok job: pending for ever with DependencyNeverSatisfied (kill_invalid_depend is not set).
nst=$(job_field "$never" JobState)
nre=$(job_field "$never" Reason)
if ! { [ "$nst" = PENDING ] && [ "$nre" = DependencyNeverSatisfied ]; }; then fail "afterok job $never: JobState=$nst Reason=$nre"; fi
[ ! -f "$work/never.ran" ] || fail "afterok job $never ran"
scancel "$never"
say "afterok job $never: PENDING (DependencyNeverSatisfied), cancelled"

# What sacct says without accounting (information only).
sacct_out=$(sacct -n -j "$array" 2>&1 | head -n 2 | tr '\n' ' ')
say "sacct without accounting: ${sacct_out:-<no output>}"

say "passed in $(elapsed)s"
exit 0
