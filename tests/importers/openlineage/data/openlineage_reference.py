#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Expected lineage counts for OpenLineage event files, computed with the json module alone.

Independent of the importer's code: it applies the mapping the importer documents
(importers/openlineage/openlineageimporter.h) to the parsed events and prints, per file, one line

    <file> events=N run_events=N runs=N jobs=N datasets=N input=N output=N contains=N parent=N
        states=STATE:N,... (sorted; "none" for a run only named by a parent facet)

Usage: openlineage_reference.py FILE... (the test's golden, openlineage_reference.txt, is this
script's output for the files in ../shared/data/lineage/openlineage/, names without folders).
"""
import json
import os
import sys

FINISHED = {"COMPLETE", "FAIL", "ABORT"}
STATES = {"START", "RUNNING"} | FINISHED


def events_of(path):
    text = open(path, encoding="utf-8").read()
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("["):
        return json.loads(stripped)
    try:
        return [json.loads(stripped)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in stripped.splitlines() if line.strip()]


def run_key(run_id, ns, name):
    if "{{" in run_id:  # a template's placeholder: the run is told apart by its job
        return "run/%s/%s/%s" % (ns, name, run_id)
    return "run/" + run_id


def counts(path):
    events = events_of(path)
    runs, jobs, datasets, edges = {}, set(), set(), set()
    run_events = 0
    for e in events:
        run, job = e.get("run"), e.get("job")
        if not isinstance(run, dict) or not isinstance(job, dict) or not run.get("runId") or not job.get("name"):
            continue
        run_events += 1
        ns, name = job.get("namespace", ""), job["name"]
        key = run_key(run["runId"], ns, name)
        state = e.get("eventType")
        old = runs.get(key)
        if state in STATES:
            if not (old in FINISHED and state not in FINISHED):
                runs[key] = state
        elif key not in runs:
            runs[key] = old
        jobs.add((ns, name))
        edges.add(("job/%s/%s" % (ns, name), key, "contains"))
        parent = (run.get("facets") or {}).get("parent")
        if isinstance(parent, dict):
            prun, pjob = parent.get("run") or {}, parent.get("job") or {}
            if prun.get("runId") and pjob.get("name"):
                pkey = run_key(prun["runId"], pjob.get("namespace", ""), pjob["name"])
                if pkey != key:
                    runs.setdefault(pkey, None)
                    jobs.add((pjob.get("namespace", ""), pjob["name"]))
                    edges.add(("job/%s/%s" % (pjob.get("namespace", ""), pjob["name"]), pkey, "contains"))
                    edges.add((pkey, key, "parent"))
        for d in e.get("inputs") or []:
            dkey = "dataset/%s/%s" % (d.get("namespace", ""), d["name"])
            datasets.add(dkey)
            edges.add((dkey, key, "input"))
        for d in e.get("outputs") or []:
            dkey = "dataset/%s/%s" % (d.get("namespace", ""), d["name"])
            datasets.add(dkey)
            edges.add((key, dkey, "output"))
    by_kind = {k: sum(1 for edge in edges if edge[2] == k) for k in ("input", "output", "contains", "parent")}
    states = {}
    for s in runs.values():
        states[s or "none"] = states.get(s or "none", 0) + 1
    return ("events=%d run_events=%d runs=%d jobs=%d datasets=%d input=%d output=%d contains=%d parent=%d states=%s"
            % (len(events), run_events, len(runs), len(jobs), len(datasets), by_kind["input"], by_kind["output"],
               by_kind["contains"], by_kind["parent"],
               ",".join("%s:%d" % kv for kv in sorted(states.items()))))


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(os.path.basename(p), counts(p))
