#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Seeds tests/fuzz/corpus/<target>/ from the importers' own test fixtures (tests/importers/*/data).

Each seed is named after its fixture, so running this again adds new fixtures and overwrites
nothing the fuzzer found (those are named by their SHA-1). The tabular target reads its first byte as
the dialect (0 CSV, 1 TSV, 2 JSONL, 3 log); the MLflow file-store target reads a run as its
meta.yaml, then each file of the run folder after a 0x1E byte and a line with its relative path
(see fuzztargets.cpp)."""
import glob
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "importers")
MAX_SEED = 256 * 1024


def fixtures(*patterns):
    out = []
    for p in patterns:
        out += [f for f in glob.glob(os.path.join(DATA, p), recursive=True)
                if os.path.isfile(f) and os.path.getsize(f) <= MAX_SEED]
    return sorted(set(out))


def seed(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + re.sub(r"[^A-Za-z0-9._-]", "_", name)), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def rel(path):
    return os.path.relpath(path, DATA)


SIMPLE = {
    "chrometrace": ["chrometrace/data/*.json"],
    "gzip": ["chrometrace/data/*.gz"],
    "nsys": ["nsys/data/*.sqlite"],
    "xplane": ["xplane/data/*.xplane.pb"],
    "tfevents": ["tfevents/data/**/events.out.tfevents.*"],
    "mlflow_sql": ["mlflow/data/sqlstore*/*.db"],
    "mlmd": ["mlmd/data/**/*.sqlite"],
    "openlineage": ["openlineage/data/*.json", "openlineage/data/*.ndjson"],
    "lifecycle": ["lifecycle/data/*.jsonl"],
    "vllm": ["vllm/data/*.json"],
    "hftrainer": ["hftrainer/data/out/**/trainer_state.json"],
}

for target, patterns in SIMPLE.items():
    for f in fixtures(*patterns):
        seed(target, rel(f), read(f))

DIALECT = {".csv": 0, ".tsv": 1, ".jsonl": 2, ".log": 3}
for f in fixtures("tabular/data/**/*.csv", "tabular/data/**/*.tsv", "tabular/data/**/*.jsonl",
                  "tabular/data/**/*.log", "vllm/data/requests.*"):
    ext = os.path.splitext(f)[1]
    if ext in DIALECT and "/expected/" not in f:
        seed("tabular", rel(f), bytes([DIALECT[ext]]) + read(f))

for meta in fixtures("mlflow/data/filestore*/**/meta.yaml"):
    run = os.path.dirname(meta)
    if not any(os.path.isdir(os.path.join(run, s)) for s in ("metrics", "params", "tags")):
        continue  # an experiment's meta.yaml
    data = read(meta)
    for sub in ("metrics", "params", "tags"):
        for f in sorted(glob.glob(os.path.join(run, sub, "**", "*"), recursive=True)):
            if os.path.isfile(f):
                data += b"\x1e" + os.path.relpath(f, run).encode() + b"\n" + read(f)
    exp = os.path.join(os.path.dirname(run), "meta.yaml")
    if os.path.isfile(exp):
        data += b"\x1e" + b"experiment.yaml\n" + read(exp)
    seed("mlflow_file", rel(run), data)

seed("objectives", "sample_objectives.yaml", read(os.path.join(ROOT, "resources", "samples", "sample_objectives.yaml")))
# The objectives files of the CLI test (here-documents) and of the unit tests (C string literals).
check = read(os.path.join(ROOT, "tests", "app", "check_test.sh")).decode()
for i, (_, body) in enumerate(re.findall(r"<<'?(\w+)'?\n(.*?)\n\1\n", check, re.S)):
    seed("objectives", "check_test-%d" % i, body.encode() + b"\n")
unit = read(os.path.join(ROOT, "tests", "core", "tst_serving.cpp")).decode()
for i, literal in enumerate(re.findall(r"QByteArray\(((?:\s*\"(?:[^\"\\]|\\.)*\")+)", unit)):
    text = "".join(re.findall(r"\"((?:[^\"\\]|\\.)*)\"", literal))
    seed("objectives", "tst_serving-%d" % i, text.encode().decode("unicode_escape").encode())

# Run settings files: the first byte picks the name (0 hparams.yaml, 1 config.yaml).
for f in fixtures("tabular/data/**/hparams.yaml", "tabular/data/**/config.yaml") + sorted(
        glob.glob(os.path.join(ROOT, "resources", "samples", "**", "hparams.yaml"), recursive=True)):
    seed("paramsfile", os.path.relpath(f, ROOT), bytes([0 if f.endswith("hparams.yaml") else 1]) + read(f))
# The YAML of YamlDocument's unit test (C string literals), as hparams.yaml, and nesting past its limit.
unit = read(os.path.join(ROOT, "tests", "core", "tst_yamldocument.cpp")).decode()
for i, literal in enumerate(re.findall(r"(?:parsed|QByteArray)\(((?:\s*\"(?:[^\"\\]|\\.)*\")+)", unit)):
    text = "".join(re.findall(r"\"((?:[^\"\\]|\\.)*)\"", literal))
    seed("paramsfile", "tst_yamldocument-%d" % i, b"\x00" + text.encode().decode("unicode_escape").encode("latin-1"))
seed("paramsfile", "deep-flow", b"\x00a: " + b"[" * 100000)
seed("paramsfile", "deep-block", b"\x01" + b"".join(b" " * i + b"k:\n" for i in range(300)))
