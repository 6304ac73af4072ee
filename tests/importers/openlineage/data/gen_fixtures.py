#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small OpenLineage fixtures of tst_openlineageimporter beside this script.

Each fixture exercises one rule of the importer (see importers/openlineage/openlineageimporter.h);
the test states what it expects of each. Run again to regenerate: the output is deterministic.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PRODUCER = "https://github.com/OpenLineage/OpenLineage/tree/1.0.0/client/python"
SCHEMA = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent"


def event(kind, time, run_id, job, inputs=(), outputs=(), run_facets=None, job_facets=None, ns="fixtures"):
    return {
        "eventType": kind,
        "eventTime": time,
        "run": {"runId": run_id, "facets": run_facets or {}},
        "job": {"namespace": ns, "name": job, "facets": job_facets or {}},
        "inputs": [{"namespace": "warehouse", "name": d} for d in inputs],
        "outputs": [{"namespace": "warehouse", "name": d} for d in outputs],
        "producer": PRODUCER,
        "schemaURL": SCHEMA,
    }


def write(name, text):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def ndjson(events):
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)


# JSON lines, line 3 cut short: lines 1, 2, 4 and 5 import (three runs), line 3 is skipped.
lines = ndjson([
    event("START", "2024-01-01T10:00:00Z", "11111111-0000-0000-0000-000000000001", "load", outputs=["raw"]),
    event("COMPLETE", "2024-01-01T10:01:00Z", "11111111-0000-0000-0000-000000000001", "load", outputs=["raw"]),
]).splitlines(keepends=True)
broken = json.dumps(event("START", "2024-01-01T10:02:00Z", "22222222-0000-0000-0000-000000000002", "clean",
                          inputs=["raw"], outputs=["clean"]), separators=(",", ":"))
lines.append(broken[: len(broken) // 2] + "\n")
lines += ndjson([
    event("START", "2024-01-01T10:03:00Z", "33333333-0000-0000-0000-000000000003", "train", inputs=["raw"],
          outputs=["model"]),
    event("FAIL", "2024-01-01T10:04:00Z", "44444444-0000-0000-0000-000000000004", "report", inputs=["model"],
          run_facets={"errorMessage": {"message": "out of memory", "programmingLanguage": "python"}}),
]).splitlines(keepends=True)
write("broken_line.ndjson", "".join(lines))

# One run's events out of order, in an array: COMPLETE (12:00:30+02:00 = 10:00:30Z) first, then its
# START (10:00:00Z), then a late RUNNING (10:00:10Z): one node, COMPLETE, 10:00:00Z .. 10:00:30Z.
run = "55555555-0000-0000-0000-000000000005"
write("out_of_order.json", json.dumps([
    event("COMPLETE", "2024-01-01T12:00:30.250+02:00", run, "etl", inputs=["src"], outputs=["dst"]),
    event("START", "2024-01-01T10:00:00Z", run, "etl", inputs=["src"]),
    event("RUNNING", "2024-01-01T10:00:10.5Z", run, "etl"),
], indent=2) + "\n")

# A child run with a parent facet; the parent's own START comes after the child.
parent_run = "66666666-0000-0000-0000-000000000006"
child_run = "77777777-0000-0000-0000-000000000007"
write("parent.ndjson", ndjson([
    event("START", "2024-01-01T09:00:05Z", child_run, "dag.task", run_facets={
        "parent": {"_producer": PRODUCER, "run": {"runId": parent_run},
                   "job": {"namespace": "fixtures", "name": "dag"}}}),
    event("START", "2024-01-01T09:00:00Z", parent_run, "dag"),
    event("COMPLETE", "2024-01-01T09:00:09Z", child_run, "dag.task"),
]))

# Facets nobody knows, on the run, the job, a dataset and an input: kept as they are.
write("unknown_facets.json", json.dumps(event(
    "COMPLETE", "2024-01-01T08:00:00Z", "88888888-0000-0000-0000-000000000008", "custom",
    inputs=[], outputs=[],
    run_facets={"acme_gpu": {"_producer": "acme", "gpus": 8, "kind": "H100"}},
    job_facets={"acme_owner": {"team": "ml-infra"}, "sql": {"query": "SELECT 1"}}) | {
    "inputs": [{"namespace": "warehouse", "name": "features", "facets": {"acme_freshness": {"hours": 3}},
                "inputFacets": {"acme_sampling": {"rate": 0.5}}}],
    "outputs": [{"namespace": "warehouse", "name": "scores", "facets": {"columnLineage": {"fields": {
        "score": {"inputFields": [{"namespace": "warehouse", "name": "features", "field": "x"}]}}}},
        "outputFacets": {"outputStatistics": {"rowCount": 42}}}],
}, indent=2) + "\n")

# A cycle through datasets: job a reads d1 and writes d2, job b reads d2 and writes d1.
write("cycle.ndjson", ndjson([
    event("COMPLETE", "2024-01-01T07:00:00Z", "99999999-0000-0000-0000-00000000000a", "a", inputs=["d1"],
          outputs=["d2"]),
    event("COMPLETE", "2024-01-01T07:01:00Z", "99999999-0000-0000-0000-00000000000b", "b", inputs=["d2"],
          outputs=["d1"]),
]))

# An array whose element 1 is no run event (no run), between two good ones.
write("bad_element.json", json.dumps([
    event("START", "2024-01-01T06:00:00Z", "aaaaaaaa-0000-0000-0000-000000000001", "x"),
    {"eventType": "START", "eventTime": "2024-01-01T06:00:01Z", "job": {"namespace": "fixtures", "name": "y"}},
    event("COMPLETE", "2024-01-01T06:00:02Z", "aaaaaaaa-0000-0000-0000-000000000001", "x"),
], indent=2) + "\n")

# Static lineage: a JobEvent (no eventType, no run) and a DatasetEvent.
write("static_events.ndjson", "\n".join(json.dumps(e) for e in [
    {"eventTime": "2024-01-01T08:00:00Z", "job": {"namespace": "fixtures", "name": "nightly_etl"},
     "inputs": [{"namespace": "fixtures", "name": "raw.events"}],
     "outputs": [{"namespace": "fixtures", "name": "clean.events"}],
     "producer": PRODUCER, "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/definitions/JobEvent"},
    {"eventTime": "2024-01-01T08:00:00Z",
     "dataset": {"namespace": "s3://bucket", "name": "lonely",
                 "facets": {"schema": {"fields": [{"name": "a", "type": "int"}]}}},
     "producer": PRODUCER, "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/definitions/DatasetEvent"},
]) + "\n")

# A template with an unquoted placeholder where the time goes (not JSON as it stands).
template = json.dumps(event("START", "@TIME@", "bbbbbbbb-0000-0000-0000-000000000001", "templated"), indent=2)
write("unquoted_placeholder.json", template.replace('"@TIME@"', "{{RUN_START_TIME}}") + "\n")

# JSON that is no OpenLineage at all.
write("not_openlineage.json", json.dumps([{"name": "resnet", "values": [1, 2, 3]}, {"name": "vit"}], indent=2) + "\n")

# An array whose element 1 is broken JSON (a missing comma between members) but balanced: elements
# 0 and 2 import.
good = [event("START", "2024-01-01T05:00:00Z", "cccccccc-0000-0000-0000-000000000001", "p"),
        event("START", "2024-01-01T05:00:01Z", "cccccccc-0000-0000-0000-000000000002", "q"),
        event("COMPLETE", "2024-01-01T05:00:02Z", "cccccccc-0000-0000-0000-000000000001", "p")]
text = json.dumps(good, indent=2)
second = text.index('"eventTime": "2024-01-01T05:00:01Z",')
write("broken_element.json", text[:second] + text[second:].replace('Z",', 'Z"', 1) + "\n")

# An array cut short inside its second element (a writer that died): the first imports.
text = json.dumps(good[:2], indent=2)
write("truncated_array.json", text[: text.index('"eventTime": "2024-01-01T05:00:01Z"')])
