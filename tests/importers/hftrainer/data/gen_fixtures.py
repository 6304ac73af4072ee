#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the Hugging Face Trainer fixtures of tst_hftrainerimporter and what the importer must store.

out/bert-sst2/   an output folder as the Trainer leaves it: checkpoint-20/ and checkpoint-40/ each with
                 the trainer_state.json of that moment (the history so far), and the final one beside
                 them after save_state() (the history, then the training summary entry). Written as
                 TrainerState.save_to_json does: json.dumps(asdict(state), indent=2, sort_keys=True), so
                 an fp16 overflow's grad_norm is the bare word NaN, a blow-up Infinity.
out/hpo-trial-3/ an HPO trial's state: trial_name and trial_params.

bert-sst2.points.csv / hpo-trial-3.points.csv (run,key,step,value) and *.params.csv (run,key,value)
are derived here from the values written, each logged value once, keys as the Trainer's TensorBoard
callback names them (eval_loss -> eval/loss, loss -> train/loss). Run it in this folder; the output
is committed.
"""
import json
import math
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))


def fmt(v):
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return "%.9g" % v


def series_key(k):
    if k.startswith("eval_"):
        return "eval/" + k[5:]
    if k.startswith("test_"):
        return "test/" + k[5:]
    return "train/" + k


def state(history, step, max_steps, **extra):
    s = {"best_metric": None, "best_model_checkpoint": None, "epoch": history[-1]["epoch"] if history else 0,
         "eval_steps": 20, "global_step": step, "is_hyper_param_search": False, "is_local_process_zero": True,
         "is_world_process_zero": True, "log_history": history, "logging_steps": 5, "max_steps": max_steps,
         "num_input_tokens_seen": 0, "num_train_epochs": 3, "save_steps": 20,
         "stateful_callbacks": {"TrainerControl": {"args": {"should_save": True}, "attributes": {}}},
         "total_flos": 0, "train_batch_size": 16, "trial_name": None, "trial_params": None}
    s.update(extra)
    return s


def write_state(path, s):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(s, indent=2, sort_keys=True) + "\n")


def history(max_steps, nan_at=None, inf_at=None):
    h = []
    for step in range(5, max_steps + 1, 5):
        grad = 1.0 / step
        if step == nan_at:
            grad = float("nan")
        if step == inf_at:
            grad = float("inf")
        h.append({"epoch": round(step / 20, 4), "grad_norm": grad, "learning_rate": 5e-5 * (1 - step / max_steps),
                  "loss": round(0.7 - step * 0.005, 6), "step": step})
        if step % 20 == 0:
            h.append({"epoch": round(step / 20, 4), "eval_accuracy": 0.8 + step / 1000, "eval_loss": 0.5 - step / 1000,
                      "eval_runtime": 1.25, "eval_samples_per_second": 697.6, "eval_steps_per_second": 43.6,
                      "step": step})
    return h


def expected(name, run, entries, params):
    with open(os.path.join(HERE, name + ".points.csv"), "w", newline="\n") as f:
        f.write("run,key,step,value\n")
        rows = sorted("%s,%s,%d,%s" % (run, series_key(k), e["step"], fmt(v))
                      for e in entries for k, v in e.items() if k != "step" and isinstance(v, (int, float)))
        f.write("".join(r + "\n" for r in rows))
    with open(os.path.join(HERE, name + ".params.csv"), "w", newline="\n") as f:
        f.write("run,key,value\n")
        f.write("".join("%s,%s,%s\n" % (run, k, v) for k, v in sorted(params.items())))


def params_of(s):
    out = {}
    for k, v in s.items():
        if k in ("log_history", "stateful_callbacks") or v is None:
            continue
        if k == "trial_params":
            out.update({tk: fmt(tv) if isinstance(tv, float) else str(tv) for tk, tv in v.items()})
        elif isinstance(v, bool):
            out["trainer/" + k] = "true" if v else "false"
        elif isinstance(v, (int, float)):
            out["trainer/" + k] = fmt(float(v))
        else:
            out["trainer/" + k] = v
    return out


def main():
    shutil.rmtree(os.path.join(HERE, "out"), ignore_errors=True)
    full = history(60, nan_at=15, inf_at=50)
    root = os.path.join(HERE, "out", "bert-sst2")
    for ckpt in (20, 40):
        upto = [e for e in full if e["step"] <= ckpt]
        write_state(os.path.join(root, "checkpoint-%d" % ckpt, "trainer_state.json"), state(upto, ckpt, 60))
    summary = {"epoch": 3.0, "step": 60, "total_flos": 123456789.0, "train_loss": 0.5375, "train_runtime": 42.5,
               "train_samples_per_second": 22.59, "train_steps_per_second": 1.412}
    final = state(full + [summary], 60, 60, best_metric=0.86, best_model_checkpoint=root + "/checkpoint-60",
                  total_flos=123456789.0)
    final["best_model_checkpoint"] = "out/bert-sst2/checkpoint-40"
    write_state(os.path.join(root, "trainer_state.json"), final)
    expected("bert-sst2", "out/bert-sst2", full + [summary], params_of(final))

    trial = state(history(20), 20, 20, is_hyper_param_search=True, trial_name="trial-3",
                  trial_params={"learning_rate": 3e-05, "seed": 7, "warmup": "linear"})
    write_state(os.path.join(HERE, "out", "hpo-trial-3", "trainer_state.json"), trial)
    expected("hpo-trial-3", "out/hpo-trial-3", history(20), params_of(trial))


if __name__ == "__main__":
    main()
