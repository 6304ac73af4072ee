#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent reading of the real traces in ../shared/data/traces/kineto (Python's json module, no
Plumb code), printing the counts tst_chrometraceimporter checks. The .csv goldens beside this script
were compared with its output; run it to re-check them:  python3 make_expected.py [--check]"""
import collections
import glob
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "../../../../../../shared/data/traces/kineto"))
GPU = {"kernel": "kernel", "Kernel": "kernel", "gpu_memcpy": "memcpy", "Memcpy": "memcpy",
       "gpu_memset": "memset", "Memset": "memset", "gpu_user_annotation": "annotation"}
FLOW_CAT = {"async_cpu_to_gpu": "ac2g"}


def expected(path):
    doc = json.load(gzip.open(path))
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    c = collections.Counter()
    streams = set()
    pending = {}
    flows = paired = 0
    for e in events:
        ph, cat = e.get("ph"), e.get("cat", "")
        if ph in ("X", "i", "I"):
            c["slices"] += 1
        kind = GPU.get(cat)
        if ph == "X" and kind:
            streams.add((str(e["pid"]), str(e["tid"])))
            if kind != "annotation":
                c["gpu_ops"] += 1
            if kind == "kernel":
                c["kernels"] += 1
                if e["name"].startswith("ncclKernel"):
                    c["nccl"] += 1
        if ph == "i" and e.get("name") == "[memory]" and "Total Allocated" in e.get("args", {}):
            c["counters"] += 1
        if ph in ("s", "f"):
            key = (FLOW_CAT.get(cat, cat), e["id"])
            if key not in pending:
                pending[key] = ph
            elif pending[key] != ph:  # the other end: one flow
                flows += 1
                paired += 1
                del pending[key]
            else:  # same end again: the earlier one dangles
                flows += 1
    flows += len(pending)
    info = doc.get("distributedInfo", {}) if isinstance(doc, dict) else {}
    devices = len(doc.get("deviceProperties", [])) if isinstance(doc, dict) else 0
    return ("events,slices,kernels,gpu_ops,flows,paired_flows,counters,rank,world_size,nccl_kernels,"
            "gpu_streams,devices,bad\n"
            f"{len(events)},{c['slices']},{c['kernels']},{c['gpu_ops']},{flows},{paired},{c['counters']},"
            f"{info.get('rank', '')},{info.get('world_size', '')},{c['nccl']},{len(streams)},{devices},0\n")


def main():
    ok = True
    for path in sorted(glob.glob(os.path.join(SHARED, "*.json.gz"))):
        name = os.path.basename(path)[: -len(".json.gz")]
        exp = expected(path)
        golden = os.path.join(HERE, name + ".csv")
        have = open(golden).read() if os.path.exists(golden) else None
        same = have == exp
        ok &= same
        print(("same   " if same else "DIFFERS ") + name)
        if not same and "--check" not in sys.argv:
            print(exp)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
