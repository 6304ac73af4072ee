#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes sample_training_job.lifecycle.jsonl.gz: the lifecycle log of a training job, for goodput.

The job "train_mlp" on 8 GPUs, 2024-04-04 from 01:00 UTC, as a job that uses ml-goodput-measurement's
GoodputRecorder (job start/end, step starts, accelerator init, training prep, data loading, custom
badput for evaluation) and Plumb's own events for what that library does not record (provisioning,
checkpoint save/restore, preemption, restart, job_info with FLOPs per step and the peak):

- 4 min waiting for nodes, 1 min device init, 1.5 min training prep, 30 s of data loading;
- steps of about 1.8 s (the first compiles for 40 s), a blocking 25 s checkpoint every 500 steps,
  a 45 s evaluation every 1,000 steps, a 6 s data-loader stall every 300 steps;
- preempted at step 1,320 (the last checkpoint held 1,000 steps): 5 min to get nodes back, a 70 s
  restore, steps 1,000.. done again; a node failure at step 2,650 (checkpoint at 2,500): restarted
  2 min later without new nodes; the job ends at step 4,000.

Standard library only; a fixed random seed and gzip mtime make the output byte-identical every run.
Usage: gen_sample_lifecycle.py [OUTPUT]
"""

import gzip
import json
import os
import random
import sys
from datetime import datetime, timezone

JOB = "train_mlp"
T0 = datetime(2024, 4, 4, 1, 0, 0, tzinfo=timezone.utc).timestamp()
STEP_S = 1.8
CHECKPOINT_EVERY, SAVE_S = 500, 25.0
EVAL_EVERY, EVAL_S = 1000, 45.0
STALL_EVERY, STALL_S = 300, 6.0
LAST_STEP = 4000


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "sample_training_job.lifecycle.jsonl.gz")
    rng = random.Random(20240404)
    lines = []

    def lib(**kw):
        lines.append({"job_name": JOB, **{k: round(v, 6) if isinstance(v, float) else v for k, v in kw.items()}})

    def ev(name, **kw):
        lines.append({"event": name, "job": JOB, **{k: round(v, 6) if isinstance(v, float) else v for k, v in kw.items()}})

    ev("job_info", flops_per_step=3.3e15, peak_flops_per_second=8 * 989e12)
    t = T0
    ev("provisioning_requested", time=t)
    t += 240
    ev("provisioning_ready", time=t)

    def attempt(t, first_step, stop_at, restore_s, init_s, prep_s, load_s):
        """Runs from `first_step` until `stop_at` (a step to be interrupted in) or the end; returns (t, step)."""
        lib(job_start_time=t)
        lib(tpu_init_start_time=t)
        t += init_s
        lib(tpu_init_end_time=t)
        lib(training_prep_start_time=t)
        if restore_s:
            ev("checkpoint_restore_start", time=t + 5, step=first_step)
            ev("checkpoint_restore_end", time=t + 5 + restore_s)
        t += prep_s + restore_s
        lib(training_prep_end_time=t)
        lib(data_loading_start_time=t)
        t += load_s
        lib(data_loading_end_time=t)
        step = first_step
        while step <= LAST_STEP:
            lib(step_count=step, step_start_time=t)
            if stop_at is not None and step == stop_at:
                return t + STEP_S * 0.6, step
            length = STEP_S * rng.uniform(0.95, 1.06)
            if step == first_step:
                length += 40  # compilation
            if step % STALL_EVERY == 0 and step != first_step:
                lib(data_loading_start_time=t)
                lib(data_loading_end_time=t + STALL_S)
                length += STALL_S
            t += length
            if step % EVAL_EVERY == 0 and step != first_step:
                lib(custom_badput_event_type="eval", custom_badput_event_start_time=t)
                t += EVAL_S
                lib(custom_badput_event_type="eval", custom_badput_event_end_time=t)
            if (step + 1) % CHECKPOINT_EVERY == 0:
                ev("checkpoint_save", start_time=t, duration_s=SAVE_S, step=step + 1)
                t += SAVE_S
            step += 1
        lib(job_end_time=t)
        return t, step

    t, _ = attempt(t, 0, 1320, 0, 60, 90, 30)
    ev("preemption", time=t, reason="spot capacity reclaimed")
    t += 20
    ev("provisioning_requested", time=t)
    t += 300
    ev("provisioning_ready", time=t)
    t += 15
    ev("restart", time=t)
    t, _ = attempt(t, 1000, 2650, 70, 50, 60, 20)
    ev("interruption", time=t, reason="node failure (Xid 79)")
    t += 120
    ev("restart", time=t)
    attempt(t, 2500, None, 70, 50, 60, 20)

    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    with open(out_path, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=9) as gz:
            gz.write(text.encode("utf-8"))


if __name__ == "__main__":
    main()
