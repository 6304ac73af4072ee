#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""plumb.hta.TraceAnalysis on a generated Kineto trace: the load (the import into its cache workspace) plus
HTA's four breakdowns, wall time and peak RSS; then the same again with the cache workspace reused.

  bench_python_hta.py [--events 4M] [--gen build/tests/benchmarks/gen_kineto_trace] [--plumb build/app/plumb]
                      [--keep DIR] [--trace FILE]

The trace is generated (not timed) by gen_kineto_trace into a temporary folder (--keep: that folder, kept).
Each measured run is a child Python process so that its peak RSS is its own: the Python side's (the package,
pandas and the frames) and the plumb commands' (the largest child: the import, then the doctor). Printed: one
line a run and one JSON line a run. Not run by CTest: the figures move with the machine's load.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from plumb.hta import TraceAnalysis
a = TraceAnalysis(trace_dir=sys.argv[1])
t1 = time.perf_counter()
a.get_temporal_breakdown(visualize=False)
a.get_idle_time_breakdown(visualize=False)
a.get_gpu_kernel_breakdown(visualize=False)
a.get_comm_comp_overlap(visualize=False)
t2 = time.perf_counter()
print(json.dumps({"load_s": t1 - t0, "breakdowns_s": t2 - t1, "total_s": t2 - t0,
                  "python_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "plumb_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def count(text):
    text = text.strip().lower()
    mult = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("km")) * mult)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--events", default="4M", help="events to generate (default 4M: about 1.1 GB of JSON)")
    p.add_argument("--gen", default=os.path.join(REPO, "build", "tests", "benchmarks", "gen_kineto_trace"))
    p.add_argument("--plumb", default=os.environ.get("PLUMB") or os.path.join(REPO, "build", "app", "plumb"))
    p.add_argument("--keep", help="generate into (and keep) this folder")
    p.add_argument("--trace", help="a trace of your own instead of a generated one")
    args = p.parse_args()

    tmp = None
    folder = args.keep or (tmp := tempfile.mkdtemp(prefix="bench-python-hta-"))
    os.makedirs(folder, exist_ok=True)
    if args.trace:
        trace = os.path.join(folder, os.path.basename(args.trace))
        if not os.path.exists(trace):
            os.symlink(os.path.abspath(args.trace), trace)
    else:
        trace = os.path.join(folder, f"rank0_{args.events}.json")
        if not os.path.exists(trace):
            subprocess.run([args.gen, "-n", str(count(args.events)), "-o", trace], check=True,
                           stdout=subprocess.DEVNULL)
    size_mb = os.path.getsize(os.path.realpath(trace)) / 1e6
    env = dict(os.environ, PLUMB=args.plumb, PYTHONPATH=os.path.join(REPO, "python"))
    try:
        for run in ("first (import)", "again (cached)"):
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", CHILD, folder], check=True, capture_output=True, text=True,
                                 env=env).stdout
            r = json.loads(out.strip().splitlines()[-1])
            r.update(run=run, trace_mb=round(size_mb, 1), wall_s=time.perf_counter() - start)
            print(f"{run:15} {size_mb:,.0f} MB: load {r['load_s']:.2f} s, four breakdowns {r['breakdowns_s']:.2f} s, "
                  f"total {r['total_s']:.2f} s; peak RSS python {r['python_peak_rss_mb']:.0f} MB, "
                  f"plumb {r['plumb_peak_rss_mb']:.0f} MB")
            print(json.dumps(r))
    finally:
        if tmp:
            subprocess.run(["rm", "-rf", tmp])
    return 0


if __name__ == "__main__":
    sys.exit(main())
