#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes sample_pipeline.openlineage.json: the OpenLineage RunEvents of a small training pipeline.

The pipeline that produced the sample trace's model, as an orchestrator with the OpenLineage
integration would record it: ingest raw clicks, build features (with a user table), train the MLP
(a first attempt fails, the retry completes), evaluate it. Each run has a START and a COMPLETE (or
FAIL) event; datasets carry schema facets, the training job a documentation facet naming the trace.

Standard library only; fixed run ids (uuid5) and times make the output byte-identical on every run.
Usage: gen_sample_lineage.py [OUTPUT]
"""

import json
import os
import sys
import uuid
from datetime import datetime, timedelta, timezone

PRODUCER = "https://example.invalid/plumb-sample-orchestrator/1.0"
SCHEMA = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/definitions/RunEvent"
NAMESPACE = "plumb-sample"
START = datetime(2024, 4, 4, 1, 0, 0, tzinfo=timezone.utc)


def dataset(namespace, name, fields):
    return {
        "namespace": namespace,
        "name": name,
        "facets": {
            "schema": {
                "_producer": PRODUCER,
                "_schemaURL": "https://openlineage.io/spec/facets/1-0-0/SchemaDatasetFacet.json",
                "fields": [{"name": f, "type": t} for f, t in fields],
            }
        },
    }


RAW = dataset("s3://plumb-sample", "raw/clicks", [("user_id", "bigint"), ("item_id", "bigint"), ("ts", "timestamp")])
USERS = dataset("postgres://warehouse:5432", "public.users", [("user_id", "bigint"), ("country", "text")])
CLEAN = dataset("postgres://warehouse:5432", "public.clicks_clean", [("user_id", "bigint"), ("item_id", "bigint"), ("ts", "timestamp")])
FEATURES = dataset("s3://plumb-sample", "features/train", [("x", "float[1024]"), ("y", "int")])
HOLDOUT = dataset("s3://plumb-sample", "features/holdout", [("x", "float[1024]"), ("y", "int")])
MODEL = dataset("file", "/models/mlp-15x4096", [])
REPORT = dataset("s3://plumb-sample", "reports/mlp-eval", [("metric", "text"), ("value", "double")])

# (job, attempt, state, minutes after START, duration minutes, inputs, outputs, documentation)
RUNS = [
    ("ingest_clicks", 1, "COMPLETE", 0, 12, [RAW], [CLEAN], "Copies the day's raw clicks into the warehouse."),
    ("build_features", 1, "COMPLETE", 15, 20, [CLEAN, USERS], [FEATURES, HOLDOUT], "Joins clicks with users into feature vectors."),
    ("train_mlp", 1, "FAIL", 40, 3, [FEATURES], [], "Trains the 15-layer MLP profiled in sample_training_step.pt.trace.json.gz."),
    ("train_mlp", 2, "COMPLETE", 45, 95, [FEATURES], [MODEL], "Trains the 15-layer MLP profiled in sample_training_step.pt.trace.json.gz."),
    ("evaluate_mlp", 1, "COMPLETE", 142, 8, [MODEL, HOLDOUT], [REPORT], "Scores the model on the holdout set."),
]


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def events():
    out = []
    for job, attempt, state, start, minutes, inputs, outputs, doc in RUNS:
        run_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{NAMESPACE}/{job}/{attempt}"))
        job_facets = {"documentation": {"_producer": PRODUCER,
                                        "_schemaURL": "https://openlineage.io/spec/facets/1-0-0/DocumentationJobFacet.json",
                                        "description": doc}}
        begin = START + timedelta(minutes=start)
        for kind, when in (("START", begin), (state, begin + timedelta(minutes=minutes))):
            run = {"runId": run_id, "facets": {}}
            if kind == "FAIL":
                run["facets"]["errorMessage"] = {
                    "_producer": PRODUCER,
                    "_schemaURL": "https://openlineage.io/spec/facets/1-0-0/ErrorMessageRunFacet.json",
                    "message": "CUDA out of memory. Tried to allocate 2.00 GiB",
                    "programmingLanguage": "python"}
            out.append({
                "eventType": kind,
                "eventTime": iso(when),
                "run": run,
                "job": {"namespace": NAMESPACE, "name": job, "facets": job_facets},
                "inputs": inputs,
                "outputs": outputs if kind != "START" else [],
                "producer": PRODUCER,
                "schemaURL": SCHEMA,
            })
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "sample_pipeline.openlineage.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(events(), f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
