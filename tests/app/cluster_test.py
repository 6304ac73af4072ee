#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""plumb cluster slurm (issue 36) without a cluster. --dry-run: both scripts, their #SBATCH lines read the way
sbatch reads them (its older and its newer parser), their commands run by sh with a stand-in plumb, for a JOBDIR
and an output folder whose names have spaces, quotes, # and %; nothing submitted. Submission and --wait against
stand-ins for sbatch and squeue that log their arguments: the dependency, the ids printed, jobs.json, the exit
status from merge.status and the merge's log, a merge that leaves the queue without a status, sbatch failing,
Ctrl+C while waiting. A PATH without sbatch (or without squeue for --wait), and the usage errors.

usage: cluster_test.py PLUMB
"""
import json
import os
import shlex
import signal
import stat
import subprocess
import sys
import tempfile

plumb = os.path.realpath(sys.argv[1])  # what the scripts name: the binary's own absolute path
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args, path, env=None, timeout=120):
    e = dict(os.environ, PATH=path, **(env or {}))
    return subprocess.run([plumb, *args], capture_output=True, text=True, env=e, timeout=timeout)


def write(path, text, executable=False):
    with open(path, "w") as f:
        f.write(text)
    if executable:
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def sbatch_words(text, old):
    """The options of a script's #SBATCH lines, split as sbatch's _get_argument does: the newer one (Slurm 17.11
    and later) knows both quotes, the older one only double quotes; both take a backslash as an escape and an
    unquoted # as the start of a comment. sbatch stops reading them at the script's first command."""
    words, commands_seen = [], False
    for line in text.split("\n")[1:]:
        if not line.startswith("#"):
            commands_seen = commands_seen or bool(line.strip())
            continue
        if not line.startswith("#SBATCH"):
            continue
        check(not commands_seen, f"#SBATCH line after the first command: {line!r}")
        rest, i = line[len("#SBATCH"):], 0
        while True:
            while i < len(rest) and rest[i].isspace():
                i += 1
            if i >= len(rest):
                break
            word, quote, escape, comment = "", None, False, False
            while i < len(rest) and (quote or not rest[i].isspace()):
                c = rest[i]
                i += 1
                if escape:
                    escape = False
                elif c == "\\":
                    escape = True
                    continue
                elif old and c == '"':  # the older parser: a double quote toggles, # is a comment even in quotes
                    quote = None if quote else c
                    continue
                elif old and c == "#":
                    comment = True
                    break
                elif not old and quote:
                    if c == quote:
                        quote = None
                        continue
                elif not old and c in "\"'":
                    quote = c
                    continue
                elif not old and c == "#":
                    comment = True
                    break
                word += c
            check(old or quote is None, f"unmatched {quote} on {line!r}")
            if word:
                words.append(word)
            if comment:
                break
    return words


def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


with tempfile.TemporaryDirectory(prefix="plumb-cluster-") as tmp:
    jobdir = os.path.join(tmp, "it's a \"job\" dir")
    os.makedirs(os.path.join(jobdir, "sub"))
    for i in range(12):
        write(os.path.join(jobdir, f"rank{i}.pt.trace.json"), "{}")
    write(os.path.join(jobdir, ".hidden"), "")  # neither counts: hidden, and a folder
    outdir = os.path.join(tmp, "o'dd out #1 %x")
    os.makedirs(outdir)
    output = os.path.join(outdir, "JOB.plumb")
    folder = output + ".d"
    logfile = os.path.join(tmp, "calls.log")

    # Stand-ins: sbatch prints 4242 for the import and 4243;cluster for the merge (FAKE_SBATCH_FAIL=import or
    # merge: that one fails as sbatch does); squeue lists the import's tasks twice, the merge as PENDING twice and
    # RUNNING once, then writes FAKE_MERGE_STATUS and a log as the merge job would and lists nothing
    # (FAKE_FOREVER: RUNNING for ever).
    fakebin = os.path.join(tmp, "bin")
    os.makedirs(fakebin)
    write(os.path.join(fakebin, "sbatch"), """#!/bin/sh
PATH=/usr/bin:/bin
printf 'sbatch %s\\n' "$*" >>"$FAKE_LOG"
for last; do :; done
case "$last" in
*/import.sbatch) what=import id=4242 ;;
*/merge.sbatch) what=merge id='4243;cluster' ;;
*) echo "sbatch: error: no script" >&2; exit 1 ;;
esac
if [ "${FAKE_SBATCH_FAIL:-}" = "$what" ]; then
    echo "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" >&2
    exit 1
fi
echo "$id"
""", executable=True)
    squeue = """#!/bin/sh
PATH=/usr/bin:/bin
printf 'squeue %s\\n' "$*" >>"$FAKE_LOG"
count() { n=$(cat "$FAKE_STATE/$1" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$FAKE_STATE/$1"; }
case " $* " in
*" 4242 "*) count import
    if [ -n "${FAKE_FOREVER:-}" ] || [ $n -le 1 ]; then printf 'RUNNING\\nRUNNING\\nPENDING\\n'
    elif [ $n -le 2 ]; then echo RUNNING; fi ;;
*" 4243 "*) count merge
    echo "CLUSTER: cluster"
    if [ -n "${FAKE_FOREVER:-}" ]; then echo RUNNING
    elif [ $n -le 2 ]; then echo PENDING
    elif [ $n -le 3 ]; then echo RUNNING
    elif [ -n "${FAKE_MERGE_STATUS:-}" ]; then
        printf 'merged 10 of 12 ranks\\nmissing ranks: 3, 7\\n' >"$FAKE_FOLDER/logs/merge-4243.out"
        echo "$FAKE_MERGE_STATUS" >"$FAKE_FOLDER/merge.status"
    fi ;;
esac
"""
    write(os.path.join(fakebin, "squeue"), squeue, executable=True)
    sbatch_only = os.path.join(tmp, "sbatch-only")
    os.makedirs(sbatch_only)
    os.symlink(os.path.join(fakebin, "sbatch"), os.path.join(sbatch_only, "sbatch"))
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)

    def fake_env(**extra):
        state = tempfile.mkdtemp(dir=tmp)
        return dict(FAKE_LOG=logfile, FAKE_STATE=state, FAKE_FOLDER=folder, **extra)

    def calls():
        try:
            with open(logfile) as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            lines = []
        if os.path.exists(logfile):
            os.unlink(logfile)
        return lines

    options = ["--partition", "gpu debug", "--account=acct", "--time", "1:00:00", "--sbatch-arg=--mem=16G",
               "--sbatch-arg", '--comment="a b"']

    # --dry-run: the scripts and the commands, nothing submitted (though sbatch is there).
    r = run("cluster", "slurm", jobdir, "-o", output, *options, "--dry-run", path=fakebin, env=fake_env())
    check(r.returncode == 0, f"--dry-run exits 0 ({r.returncode}: {r.stderr})")
    check(calls() == [], "--dry-run submits nothing")
    check(f"  sbatch --parsable {shq(folder + '/import.sbatch')}\n" in r.stdout
          and f"  sbatch --parsable --dependency=afterany:<import job id> {shq(folder + '/merge.sbatch')}\n" in r.stdout,
          f"--dry-run prints the commands it would run: {r.stdout!r}")
    check("an array of 2 tasks for the 12 trace files" in r.stdout,
          f"12 trace files (not the hidden one, not the folder) make 2 tasks: {r.stdout!r}")
    for d in ("shards", "logs"):
        check(os.path.isdir(os.path.join(folder, d)), f"{d}/ is made in {folder}")
    with open(os.path.join(folder, "import.sbatch")) as f:
        import_script = f.read()
    with open(os.path.join(folder, "merge.sbatch")) as f:
        merge_script = f.read()
    logs = folder.replace("%", "%%") + "/logs/"
    common = ["--partition=gpu debug", "--account=acct", "--time=1:00:00", "--mem=16G", "--comment=a b"]
    for old in (False, True):
        check(sbatch_words(import_script, old) == ["--job-name=plumb-import", "--array=0-1",
                                                   f"--output={logs}import-%A_%a.out"] + common,
              f"import.sbatch's #SBATCH options (old parser: {old}): {sbatch_words(import_script, old)}")
        check(sbatch_words(merge_script, old) == ["--job-name=plumb-merge", f"--output={logs}merge-%j.out"] + common,
              f"merge.sbatch's #SBATCH options (old parser: {old}): {sbatch_words(merge_script, old)}")
    check(import_script.startswith("#!/bin/sh\n") and "sbatch --array=K import.sbatch" in import_script,
          "import.sbatch says how to redo one task")
    check(f"exec {shq(plumb)} import {shq(jobdir)} --shard \"$SLURM_ARRAY_TASK_ID/2\" --workspace "
          f"{shq(folder + '/shards/shard-')}\"$SLURM_ARRAY_TASK_ID\"'-of-2.plumb'\n" in import_script,
          f"import.sbatch's command, quoted: {import_script!r}")

    # The scripts' commands, run by sh with a stand-in plumb that records its arguments.
    argv_file = os.path.join(tmp, "argv")
    stand_in = os.path.join(tmp, "stand-in plumb")
    write(stand_in, f"#!/bin/sh\nfor a; do printf '%s\\0' \"$a\"; done >{shq(argv_file)}\nexit ${{FAKE_EXIT:-0}}\n",
          executable=True)

    def run_script(text, **env):
        script = os.path.join(tmp, "script.sh")
        check(shq(plumb) in text, "the script names this plumb")
        write(script, text.replace(shq(plumb), shq(stand_in)))
        if os.path.exists(argv_file):
            os.unlink(argv_file)
        p = subprocess.run(["sh", script], capture_output=True, text=True, env=dict(os.environ, **env), timeout=60)
        try:
            with open(argv_file) as f:
                argv = f.read().split("\0")[:-1]
        except FileNotFoundError:
            argv = None
        return p, argv

    p, argv = run_script(import_script, SLURM_ARRAY_TASK_ID="1")
    check(p.returncode == 0 and argv == ["import", jobdir, "--shard", "1/2", "--workspace",
                                         folder + "/shards/shard-1-of-2.plumb"],
          f"task 1 of import.sbatch runs plumb import on its shard ({p.returncode} {p.stderr}: {argv})")
    p, argv = run_script(import_script)
    check(p.returncode != 0 and argv is None and "sbatch --array=K" in p.stderr,
          f"import.sbatch outside an array job runs nothing ({p.returncode}: {p.stderr})")
    status_file = os.path.join(folder, "merge.status")
    for code in ("1", "0"):
        p, argv = run_script(merge_script, FAKE_EXIT=code)
        with open(status_file) as f:
            written = f.read()
        check(p.returncode == int(code) and argv == ["merge", folder + "/shards", "-o", output] and written == code + "\n",
              f"merge.sbatch runs plumb merge and writes its status {code} ({p.returncode} {p.stderr}: {argv}, {written!r})")
    check(sorted(os.listdir(folder)) == ["import.sbatch", "logs", "merge.sbatch", "merge.status", "shards"],
          f"merge.sbatch leaves no temporary file: {sorted(os.listdir(folder))}")

    # --tasks: the array and the shards' names follow it.
    r = run("cluster", "slurm", jobdir, "-o", output, "--tasks", "12", "--dry-run", path=fakebin, env=fake_env())
    with open(os.path.join(folder, "import.sbatch")) as f:
        text = f.read()
    check(r.returncode == 0 and "#SBATCH --array=0-11\n" in text and "--shard \"$SLURM_ARRAY_TASK_ID/12\"" in text
          and "'-of-12.plumb'" in text and "#SBATCH --partition" not in text,
          f"--tasks 12 writes an array of 12 tasks, no partition line ({r.returncode}: {r.stderr})")

    # No sbatch on PATH (none here either: PATH is an empty folder): exit 1, pointing at --dry-run; nothing written.
    other = os.path.join(tmp, "other.plumb")
    r = run("cluster", "slurm", jobdir, "-o", other, path=empty)
    check(r.returncode == 1 and "sbatch was not found on PATH" in r.stderr and "--dry-run" in r.stderr
          and not os.path.exists(other + ".d"),
          f"without sbatch: exit 1 naming --dry-run, nothing written ({r.returncode}: {r.stderr})")
    r = run("cluster", "slurm", jobdir, "-o", other, "--wait", path=sbatch_only, env=fake_env())
    check(r.returncode == 1 and "squeue was not found on PATH" in r.stderr and calls() == [],
          f"--wait without squeue: exit 1 before submitting ({r.returncode}: {r.stderr})")

    # Submission: the merge after the import's array, the ids, jobs.json; an earlier submission's leftovers go.
    write(os.path.join(folder, "shards", "shard-0-of-4.plumb"), "old")
    write(status_file, "0\n")
    r = run("cluster", "slurm", jobdir, "-o", output, path=fakebin, env=fake_env())
    submitted = calls()
    check(r.returncode == 0, f"submission exits 0 ({r.returncode}: {r.stderr})")
    check(submitted == [f"sbatch --parsable {folder}/import.sbatch",
                        f"sbatch --parsable --dependency=afterany:4242 {folder}/merge.sbatch"],
          f"sbatch submits the import, then the merge after it: {submitted}")
    check("job 4242" in r.stdout and "job 4243" in r.stdout and "squeue -j 4242,4243" in r.stdout
          and folder + "/shards/" in r.stdout, f"the ids, the shards and how to follow them: {r.stdout!r}")
    check(not os.path.exists(status_file) and os.listdir(os.path.join(folder, "shards")) == [],
          "a stale merge.status and shards are removed before submitting")
    with open(os.path.join(folder, "jobs.json")) as f:
        jobs = json.load(f)
    check(jobs.get("import_job") == 4242 and jobs.get("merge_job") == 4243 and jobs.get("merge_cluster") == "cluster"
          and jobs.get("tasks") == 2 and jobs.get("output") == output and jobs.get("job_dir") == jobdir
          and jobs.get("shards") == folder + "/shards" and jobs.get("submitted", "").endswith("Z"),
          f"jobs.json: {jobs}")

    # --wait: squeue until the merge leaves the queue, then its log and its status.
    for code in ("1", "0"):
        r = run("cluster", "slurm", jobdir, "-o", output, "--wait", path=fakebin, env=fake_env(FAKE_MERGE_STATUS=code))
        polls = [c for c in calls() if c.startswith("squeue")]
        check(r.returncode == int(code), f"--wait exits with merge.status's {code} ({r.returncode}: {r.stderr})")
        check("missing ranks: 3, 7\n" in r.stdout and "merge-4243.out" in r.stdout,
              f"--wait prints the merge's log: {r.stdout!r}")
        check("merge: PENDING" in r.stdout and "merge: RUNNING" in r.stdout and "import: 2 RUNNING, 1 PENDING" in r.stdout,
              f"--wait says when the jobs' states change: {r.stdout!r}")
        check(f"squeue -h -j 4243 -o %T --clusters=cluster" in polls and "squeue -h -j 4242 -o %T -r" in polls,
              f"squeue asked about the merge (on its cluster) and the import's tasks: {polls}")
        check((code == "1") == ("ranks are missing or failed" in r.stderr), f"status {code}: {r.stderr!r}")

    # A merge job that leaves the queue without a status (cancelled, out of time): exit 1 naming its log.
    r = run("cluster", "slurm", jobdir, "-o", output, "--wait", path=fakebin,
            env=fake_env(PLUMB_CLUSTER_STATUS_GRACE_S="1"))
    calls()
    check(r.returncode == 1 and "without writing" in r.stderr and folder + "/logs/merge-4243.out" in r.stderr,
          f"a merge without a status: exit 1 naming its log ({r.returncode}: {r.stderr})")

    # sbatch refusing the import, then the merge: exit 1 with sbatch's message.
    r = run("cluster", "slurm", jobdir, "-o", output, path=fakebin, env=fake_env(FAKE_SBATCH_FAIL="import"))
    check(r.returncode == 1 and "Invalid account" in r.stderr and len(calls()) == 1,
          f"a refused import: exit 1 with sbatch's message, no merge submitted ({r.returncode}: {r.stderr})")
    r = run("cluster", "slurm", jobdir, "-o", output, path=fakebin, env=fake_env(FAKE_SBATCH_FAIL="merge"))
    calls()
    check(r.returncode == 1 and "Invalid account" in r.stderr and "scancel 4242" in r.stderr,
          f"a refused merge: exit 1, and how to cancel the import ({r.returncode}: {r.stderr})")

    # Ctrl+C while waiting: the waiting stops, the jobs are said to keep running.
    p = subprocess.Popen([plumb, "cluster", "slurm", jobdir, "-o", output, "--wait"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=dict(os.environ, PATH=fakebin, **fake_env(FAKE_FOREVER="1")))
    seen = ""  # signalled once it waits (its handler is in place then), not at a guessed time
    while "merge: RUNNING" not in seen and p.poll() is None:
        seen += p.stdout.readline()
    p.send_signal(signal.SIGINT)
    try:
        stdout, stderr = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        stdout, stderr = p.communicate()
    stdout = seen + stdout
    calls()
    check(p.returncode == -signal.SIGINT and "the jobs keep running" in stderr and "merge: RUNNING" in stdout,
          f"Ctrl+C stops --wait, the jobs keep running ({p.returncode}: {stderr!r})")

    # Usage errors: exit 2, saying what is wrong.
    usage = [
        (["cluster", "pbs", jobdir, "-o", output], "the cluster backend is slurm"),
        (["cluster"], "cluster needs a backend, slurm"),
        (["cluster", "slurm", jobdir, "-o", output, "--tasks", "0"], "--tasks needs a number"),
        (["cluster", "slurm", jobdir, "-o", output, "--tasks", "13"], "--tasks 13 is more than the 12 trace file(s)"),
        (["cluster", "slurm", jobdir, "-o", output, "--dry-run", "--wait"], "--dry-run submits none"),
        (["cluster", "slurm", jobdir], "needs -o JOB.plumb"),
        (["cluster", "slurm", "-o", output], "needs JOBDIR"),
        (["cluster", "slurm", jobdir, "-o", output, "--sbatch-arg", "mem=16G"], "--sbatch-arg takes an sbatch option"),
        (["cluster", "slurm", jobdir, "-o", output, "--time", "1:00\n2"], "--time needs a value on one line"),
    ]
    for args, says in usage:
        r = run(*args, path=fakebin, env=fake_env())
        check(r.returncode == 2 and says in r.stderr and "Usage: plumb cluster slurm" in r.stderr,
              f"`plumb {shlex.join(args[:2])} ...` is a usage error saying {says!r} ({r.returncode}: {r.stderr[:300]!r})")
    check(calls() == [], "usage errors submit nothing")
    r = run("cluster", "slurm", os.path.join(tmp, "none"), "-o", output, path=fakebin)
    check(r.returncode == 1 and "is not a folder" in r.stderr, f"a JOBDIR that is not there: exit 1 ({r.stderr})")
    r = run("cluster", "slurm", empty, "-o", output, path=fakebin)
    check(r.returncode == 1 and "has no trace files" in r.stderr, f"an empty JOBDIR: exit 1 ({r.stderr})")

    # The help: plumb --help lists it, plumb cluster --help and plumb help cluster print its options.
    r = run("--help", path=empty)
    check(r.returncode == 0 and "\n  plumb cluster slurm JOBDIR -o JOB.plumb" in r.stdout, "plumb --help lists cluster")
    for args in (["cluster", "--help"], ["help", "cluster"]):
        r = run(*args, path=empty)
        check(r.returncode == 0 and r.stdout.startswith("Usage: plumb cluster slurm JOBDIR") and "--sbatch-arg ARG" in r.stdout,
              f"`plumb {' '.join(args)}` prints the usage ({r.returncode})")

print(f"{len(failures)} failure(s)" if failures else "cluster test passed")
sys.exit(1 if failures else 0)
