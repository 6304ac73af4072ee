#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes sample_sweep/: a small hyperparameter sweep as PyTorch Lightning's CSVLogger leaves it.

Six trials of an MLP, one folder each (version_0 .. version_5), each with the hparams.yaml and
metrics.csv that CSVLogger writes: 10 epochs of 50 steps, train_loss every 10 steps, val_loss and
val_acc at each epoch's end (the rows of one kind leave the other's columns empty, as Lightning does).
The learning rate matters most (too low converges slowly, 3e-3 diverges late and ends worse), the
batch size a little (noisier curves at 32), dropout 0.3 narrows the gap between train and validation
loss: what the Experiments tab's charts, parallel coordinates and importance should show.

Standard library only; a fixed random seed makes the output byte-identical every run.
Usage: gen_sample_sweep.py [OUTPUT-FOLDER]
"""

import math
import os
import random
import sys

EPOCHS, STEPS_PER_EPOCH, LOG_EVERY = 10, 50, 10
TRIALS = [  # lr, batch size, dropout
    (1e-4, 64, 0.1),
    (3e-4, 64, 0.1),
    (1e-3, 64, 0.1),
    (3e-3, 64, 0.1),
    (1e-3, 32, 0.1),
    (1e-3, 64, 0.3),
]


def hparams(lr, batch, dropout):
    return (f"batch_size: {batch}\n"
            f"dropout: {dropout}\n"
            f"hidden_dim: 512\n"
            f"lr: {lr}\n"
            f"max_epochs: {EPOCHS}\n"
            f"optimizer: adamw\n")


def curves(rng, lr, batch, dropout):
    """Rows of (epoch, step, train_loss, val_loss, val_acc), None where Lightning leaves a cell empty."""
    rate = 0.008 * lr / 1e-3  # how fast the loss falls, per step
    floor = 0.32 + 0.5 * abs(math.log10(lr / 1e-3)) ** 2  # best loss this learning rate reaches
    noise = 0.02 * math.sqrt(64 / batch)
    gap = 0.12 * (0.1 / dropout) ** 0.5  # train/validation gap at the end
    rows = []
    for epoch in range(EPOCHS):
        for s in range(STEPS_PER_EPOCH):
            step = epoch * STEPS_PER_EPOCH + s
            loss = floor + (2.3 - floor) * math.exp(-rate * step)
            if lr >= 3e-3 and epoch >= 7:  # too high: the loss climbs back
                loss += 0.08 * (step - 7 * STEPS_PER_EPOCH) / STEPS_PER_EPOCH
            if (s + 1) % LOG_EVERY == 0:
                rows.append((epoch, step, loss * (1 + rng.gauss(0, noise)), None, None))
        val = loss + gap * (epoch + 1) / EPOCHS + rng.gauss(0, 0.01)
        acc = min(0.99, max(0.1, 1.0 - val / 2.6 + rng.gauss(0, 0.004)))
        rows.append((epoch, step, None, val, acc))
    return rows


def cell(value):
    return "" if value is None else f"{value:.6g}"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                             "sample_sweep")
    rng = random.Random(20240404)
    for version, (lr, batch, dropout) in enumerate(TRIALS):
        folder = os.path.join(out, f"version_{version}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "hparams.yaml"), "w", encoding="utf-8") as f:
            f.write(hparams(lr, batch, dropout))
        with open(os.path.join(folder, "metrics.csv"), "w", encoding="utf-8", newline="\n") as f:
            f.write("epoch,step,train_loss,val_loss,val_acc\n")
            for epoch, step, train, val, acc in curves(rng, lr, batch, dropout):
                f.write(f"{epoch},{step},{cell(train)},{cell(val)},{cell(acc)}\n")


if __name__ == "__main__":
    main()
