#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small edge-case traces beside this script (deterministic; rerun after editing).

Each case isolates one thing the Chrome Trace Event / PyTorch profiler importer must survive.
The expected results are the .csv files beside them (checked by tst_chrometraceimporter)."""
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, data, mode="w"):
    with open(os.path.join(HERE, name), mode) as f:
        f.write(data)


def ev(**kw):
    return json.dumps(kw)


def kineto(events, **top):
    doc = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "Test GPU", "numSms": 80}]}
    doc.update(top)
    body = ",\n".join(json.dumps(e) for e in events)
    head = json.dumps(doc)[:-1]
    return head + ', "traceEvents": [\n' + body + "\n]}\n"


BASIC = [
    {"ph": "M", "name": "process_name", "pid": 10, "tid": 0, "args": {"name": "python3"}},
    {"ph": "M", "name": "thread_name", "pid": 10, "tid": 11, "args": {"name": "main"}},
    {"ph": "M", "name": "process_labels", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 10, "tid": 11,
     "ts": 1000.000, "dur": 100.000, "args": {"External id": 1}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 11, "ts": 1010.5, "dur": 20.25,
     "args": {"External id": 2, "Sequence number": 7, "Input Dims": [[4, 4], [4, 4]]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 1015.001,
     "dur": 5.0, "args": {"External id": 2, "cbid": 211, "correlation": 100}},
    {"ph": "s", "id": 100, "pid": 10, "tid": 11, "ts": 1015.001, "cat": "ac2g", "name": "ac2g"},
    {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 1030.123, "dur": 40.0,
     "args": {"External id": 2, "device": 0, "stream": 7, "correlation": 100, "grid": [1, 2, 3]}},
    {"ph": "f", "id": 100, "pid": 0, "tid": 7, "ts": 1030.123, "cat": "ac2g", "name": "ac2g", "bp": "e"},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7,
     "ts": 1080.0, "dur": 2.5, "args": {"device": 0, "stream": 7, "correlation": 101, "bytes": 4096}},
    {"ph": "C", "name": "Memory", "pid": 10, "ts": 1000.0, "args": {"allocated": 1024, "reserved": 2048}},
    {"ph": "i", "s": "g", "name": "Iteration Start", "pid": "Traces", "tid": "x", "ts": 1000.0},
]


def main():
    write("basic.json", kineto(BASIC, distributedInfo={"rank": 0, "world_size": 1},
                               baseTimeNanoseconds=1700000000000000000))
    # Array form, no closing bracket (allowed for streaming writers), trailing comma.
    write("array_form.json", "[\n" + ",\n".join(json.dumps(e) for e in BASIC[3:6]) + ",\n")
    # Cut in the middle of the 6th event.
    full = kineto(BASIC)
    cut = full.index('"gemm_kernel"')
    write("truncated.json", full[:cut])
    # The same, gzip: the compressed stream itself is cut.
    gz = gzip.compress(full.encode(), mtime=0)
    write("truncated.json.gz", gz[: len(gz) * 2 // 3], "wb")
    # Two gzip members concatenated (as `cat a.gz b.gz` makes): one document split across them.
    data = full.encode()
    write("multi_member.json.gz", gzip.compress(data[:500], mtime=0) + gzip.compress(data[500:], mtime=0), "wb")
    # 2021/2022 spellings: Operator/Runtime/Kernel/Memcpy categories and async_cpu_to_gpu flows
    # whose end comes before their start in the file.
    legacy = [
        {"ph": "X", "cat": "Operator", "name": "aten::add", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
         "args": {"Profiler Event Index": 3}},
        {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 11, "dur": 2,
         "args": {"correlation": 5, "external id": 3}},
        {"ph": "f", "id": 5, "pid": 0, "tid": 7, "ts": 20, "cat": "async_cpu_to_gpu", "name": "async_gpu",
         "bp": "e"},
        {"ph": "s", "id": 5, "pid": 1, "tid": 1, "ts": 11, "cat": "async_cpu_to_gpu", "name": "async_gpu"},
        {"ph": "X", "cat": "Kernel", "name": "add_kernel", "pid": 0, "tid": "stream 7", "ts": 20, "dur": 3,
         "args": {"correlation": 5, "device": 0, "stream": 7}},
        {"ph": "X", "cat": "Memcpy", "name": "Memcpy DtoH", "pid": 0, "tid": "stream 7", "ts": 30, "dur": 1,
         "args": {"correlation": 6}},
    ]
    write("legacy_names.json", json.dumps({"traceEvents": legacy}, indent=1))
    # B/E nesting with string pids/tids, an E with no B, and a B never closed.
    be = [
        {"ph": "B", "name": "outer", "pid": "host", "tid": "worker", "ts": 0},
        {"ph": "B", "name": "inner", "pid": "host", "tid": "worker", "ts": 1},
        {"ph": "E", "pid": "host", "tid": "worker", "ts": 3, "args": {"result": "ok"}},
        {"ph": "X", "name": "sibling", "pid": "host", "tid": "worker", "ts": 4, "dur": 1},
        {"ph": "E", "pid": "host", "tid": "worker", "ts": 10},
        {"ph": "E", "pid": "host", "tid": "worker", "ts": 11},
        {"ph": "B", "name": "never_closed", "pid": "host", "tid": "worker", "ts": 12},
        {"ph": "X", "name": "last", "pid": "host", "tid": "other", "ts": 20, "dur": 5},
    ]
    write("be_nesting.json", json.dumps({"traceEvents": be}))
    # Unsorted: children before parents, threads interleaved; overlapping kernels on one stream.
    unsorted = [
        {"ph": "X", "name": "child2", "pid": 1, "tid": 1, "ts": 6, "dur": 2},
        {"ph": "X", "name": "child1", "pid": 1, "tid": 1, "ts": 1, "dur": 3},
        {"ph": "X", "name": "parent", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
        {"ph": "X", "name": "grandchild", "pid": 1, "tid": 1, "ts": 2, "dur": 1},
        {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 0, "dur": 10},
        {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 8, "dur": 10},
    ]
    write("unsorted.json", json.dumps({"traceEvents": unsorted}))
    # Invalid UTF-8 inside a name, and a malformed event between two good ones.
    bad = (b'{"traceEvents": [\n'
           b'{"ph": "X", "name": "good1", "pid": 1, "tid": 1, "ts": 1, "dur": 1},\n'
           b'{"ph": "X", "name": "bad\xff\xfename", "pid": 1, "tid": 1, "ts": 2, "dur": 1},\n'
           b'{"ph": "X", "name": "broken", "pid": 1, "tid": 1, "ts": , "dur": 1},\n'
           b'{"ph": "X", "name": "no_ts", "pid": 1, "tid": 1, "dur": 1},\n'
           b'{"ph": "Q", "name": "odd_phase", "pid": 1, "tid": 1, "ts": 4},\n'
           b'{"ph": "X", "name": "good2", "pid": 1, "tid": 1, "ts": 5, "dur": 1}\n'
           b']}\n')
    write("bad_events.json", bad, "wb")
    # Nanosecond precision on absolute microsecond timestamps, exponent forms, string numbers.
    precise = [
        {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "1712195495506161.2", "dur": 1.28},
        {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 1712195495506162.999, "dur": 0.0015},
        {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 1.5e3, "dur": 1e0},
    ]
    write("precision.json", json.dumps({"traceEvents": precise}))
    # Two ranks of one job that do not say their rank (older profilers): taken from the file names.
    os.makedirs(os.path.join(HERE, "ranks_by_name"), exist_ok=True)
    for rank in (0, 1):
        step = {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 10, "tid": 11,
                "ts": 1200.0 + rank, "dur": 50.0}
        write(f"ranks_by_name/trace_rank{rank}.json", kineto(BASIC + [step]))
    write("empty.json", "")
    write("not_a_trace.json", json.dumps({"name": "a config file", "values": [1, 2, 3]}))
    write("no_events.json", json.dumps({"schemaVersion": 1, "deviceProperties": [], "traceName": "x"}))


if __name__ == "__main__":
    main()
