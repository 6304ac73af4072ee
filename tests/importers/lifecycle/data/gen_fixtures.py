#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the job lifecycle fixtures of tst_lifecycleimporter beside this script.

ml_goodput_example.jsonl: the example timeline of ml-goodput-measurement's own tests
(goodput_test.py), as its GoodputRecorder writes it (one key per entry besides job_name, POSIX
seconds as Python floats): job start at 2024-01-01 01:00 UTC; accelerator (TPU) init 1 s, training
prep 2 s and data loading 2 s fill the 5 s before the first step; 5 steps of 3 s; job end.
Goodput by hand: 5 x 3 s of steps in 20 s = 75%.

preemptions.jsonl: Plumb's own event form (and one Orbax checkpoint entry): provisioning, a
checkpoint, two preemptions and two restores; the timeline of tst_goodput's
twoPreemptionsAndRestores, so the imported job must give the same figures.

broken.jsonl: one problem per line (see the test). no_usable_entry.jsonl: lifecycle events that all
lack their time, so the file is refused.

Standard library only; the output is byte-identical on every run.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1704070800.0  # 2024-01-01T01:00:00Z, _TEST_JOB_START_TIME of goodput_test.py


def write(name, entries):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
        for e in entries:
            f.write(e if isinstance(e, str) else json.dumps(e))
            f.write("\n")


def ml_goodput_example():
    job = "test-run"
    startup, tpu_init, prep, data, steps, step_time = 5.0, 1.0, 2.0, 2.0, 5, 3.0
    out = [{"job_name": job, "job_start_time": T0}]
    t = T0
    for start_key, end_key, length in (("tpu_init_start_time", "tpu_init_end_time", tpu_init),
                                       ("training_prep_start_time", "training_prep_end_time", prep),
                                       ("data_loading_start_time", "data_loading_end_time", data)):
        out.append({"job_name": job, start_key: t})
        t += length
        out.append({"job_name": job, end_key: t})
    assert t == T0 + startup
    for step in range(steps):
        out.append({"job_name": job, "step_count": step, "step_start_time": T0 + startup + step * step_time})
    out.append({"job_name": job, "job_end_time": T0 + startup + steps * step_time})
    write("ml_goodput_example.jsonl", out)


def preemptions():
    job = {"job": "preempted-run"}

    def ev(name, **kw):
        return {"event": name, **job, **kw}

    out = [
        ev("job_info", flops_per_step=1e12, peak_flops_per_second=1e12),
        ev("provisioning_requested", time=T0),
        ev("provisioning_ready", time=T0 + 10),
        ev("job_start", time=T0 + 10),
    ]
    out += [ev("step", step=s, time=T0 + 10 + 2 * s) for s in range(6)]
    # Orbax's checkpoint logger: the blocking part of the save of step 3 (holding steps 0..2).
    out.append({"job_name": "preempted-run", "event_type": "save", "step": 3,
                "checkpoint_manager_blocking_start_time": T0 + 16, "checkpoint_manager_blocking_duration_secs": 1.0})
    out += [
        ev("preemption", time=T0 + 21, reason="spot reclaimed"),
        ev("provisioning", start_time=T0 + 25, end_time=T0 + 30),
        ev("restart", time=T0 + 32),
        ev("checkpoint_restore_start", time=T0 + 32, step=3),
        ev("checkpoint_restore_end", time=T0 + 34),
    ]
    out += [ev("step", step=s, time=T0 + 34 + 2 * (s - 3)) for s in range(3, 7)]
    out += [
        ev("interruption", time="2024-01-01T01:00:41Z", reason="node failure"),
        ev("restart", time=T0 + 45),
        ev("checkpoint_restore", start_time=T0 + 45, duration_s=1, step=6),
        ev("step", step=6, time=T0 + 46),
        ev("step", step=7, time=T0 + 48),
        ev("job_end", time=T0 + 50),
    ]
    write("preemptions.jsonl", out)


def broken():
    job = {"job_name": "broken-run"}
    write("broken.jsonl", [
        {**job, "job_start_time": T0},                              # 1 ok
        {**job, "step_count": 0, "step_start_time": T0 + 1},        # 2 ok
        '{"job_name": "broken-run", "step_count": 1, "step_sta',    # 3 cut short
        {**job, "learning_rate": 0.1},                              # 4 nothing known
        {**job, "tpu_init_end_time": T0 + 2},                       # 5 an end without its start
        {**job, "step_count": 2, "step_start_time": "yesterday"},   # 6 no time
        {**job, "data_loading_start_time": T0 + 3},                 # 7 never ends
        {**job, "step_count": 3, "step_start_time": T0 + 4},        # 8 ok
        {**job, "job_end_time": T0 + 5},                            # 9 ok
    ])


def no_usable_entry():
    write("no_usable_entry.jsonl", [{"event": "job_start", "job": "x"}, {"event": "restart", "job": "x"}])


ml_goodput_example()
preemptions()
broken()
no_usable_entry()
