#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes an MLflow file store (mlruns/) of a small learning-rate search whose runs log each metric
once, as a tuning script calling mlflow.log_metric() at the end does: the Scalars page's bars and
scatter (docs/guide.md, resources/screenshots/scalars*.png). Eight runs, lr from 1e-4 to 2e-1
(log-spaced), batch size 32 or 64; val_loss is lowest near lr = 3e-3 and val_accuracy highest there.
Standard library only; the values are a fixed function of lr, so the output is the same every run.
Usage: gen_mlflow_tuning.py OUTPUT-FOLDER
"""
import math
import os
import sys


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(out):
    exp = os.path.join(out, "mlruns", "1")
    write(os.path.join(exp, "meta.yaml"),
          "artifact_location: file:///tmp/mlruns/1\ncreation_time: 1700000000000\nexperiment_id: '1'\n"
          "last_update_time: 1700000000000\nlifecycle_stage: active\nname: lr-search\n")
    for i in range(8):
        lr = 1e-4 * (2000 ** (i / 7))
        batch = 32 if i % 2 == 0 else 64
        distance = abs(math.log10(lr) - math.log10(3e-3))
        val_loss = 0.42 + 0.18 * distance ** 2 + (0.02 if batch == 32 else 0.0)
        val_accuracy = 0.91 - 0.05 * distance ** 2 - (0.01 if batch == 32 else 0.0)
        run_id = "%032x" % (0xa000 + i)
        run = os.path.join(exp, run_id)
        name = "lr-%.0e-bs%d" % (lr, batch)
        write(os.path.join(run, "meta.yaml"),
              "artifact_uri: file:///tmp/a\nend_time: %d\nentry_point_name: ''\nexperiment_id: '1'\n"
              "lifecycle_stage: active\nrun_name: %s\nrun_id: %s\nrun_uuid: %s\nsource_name: ''\n"
              "source_type: 4\nsource_version: ''\nstart_time: %d\nstatus: 3\ntags: []\nuser_id: tuner\n"
              % (1700000600000 + i * 700000, name, run_id, run_id, 1700000000000 + i * 700000))
        write(os.path.join(run, "params", "lr"), repr(lr))
        write(os.path.join(run, "params", "batch_size"), str(batch))
        write(os.path.join(run, "params", "optimizer"), "adamw")
        write(os.path.join(run, "tags", "mlflow.runName"), name)
        t = 1700000600000 + i * 700000
        write(os.path.join(run, "metrics", "val_loss"), "%d %r 0\n" % (t, round(val_loss, 4)))
        write(os.path.join(run, "metrics", "val_accuracy"), "%d %r 0\n" % (t, round(val_accuracy, 4)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
