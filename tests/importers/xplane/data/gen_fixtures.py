#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the generated XPlane fixtures beside this script, encoding the protobuf wire format by hand
(no protobuf module), so the importer is tested against bytes it did not write itself.

    python3 gen_fixtures.py

basic.xplane.pb      host + GPU + metadata planes, epoch timestamps: every XStat value type
                     (double, uint64, int64, str, bytes, ref_value), kernel_details by reference and
                     inline, memcpy_details, constant stats on event metadata, display names, two
                     XLines with one id, sub-ns offsets, an aggregated event, unknown metadata ids,
                     XSpace errors/warnings/hostnames. XPlane has no compressed string form: long
                     shared strings are stored once as a stat metadata name and referenced by ref_value.
jax_order.xplane.pb  the device plane before the host plane, small (non-epoch) timestamps, a negative
                     offset, JAX-style derived lines (XLA Modules / XLA Ops / Framework Name Scope).
truncated.xplane.pb  basic.xplane.pb cut in the middle of its first plane.
stepstats.xplane.pb  a TensorFlow StepStats message (another message type) under an XPlane name.
garbage.xplane.pb    a plausible first key and length, then random bytes.
noplanes.xplane.pb   well-formed protobuf whose planes have neither names nor events.
random.bin           random bytes.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def varint(v):
    v &= (1 << 64) - 1  # int64 as two's complement, the way protobuf writes negative int64
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wt):
    return varint(field << 3 | wt)


def f_varint(field, v):
    return key(field, 0) + varint(v)


def f_bytes(field, b):
    if isinstance(b, str):
        b = b.encode()
    return key(field, 2) + varint(len(b)) + b


def f_double(field, d):
    return key(field, 1) + struct.pack("<d", d)


# XStat: metadata_id=1, double=2, uint64=3, int64=4, str=5, bytes=6, ref=7
def stat(mid, kind, value):
    body = f_varint(1, mid)
    if kind == "double":
        body += f_double(2, value)
    elif kind == "uint64":
        body += f_varint(3, value)
    elif kind == "int64":
        body += f_varint(4, value)
    elif kind == "str":
        body += f_bytes(5, value)
    elif kind == "bytes":
        body += f_bytes(6, value)
    elif kind == "ref":
        body += f_varint(7, value)
    return body


# XEvent: metadata_id=1, offset_ps=2, duration_ps=3, stats=4, num_occurrences=5
def event(mid, offset_ps=None, dur_ps=0, stats=(), occurrences=None):
    body = f_varint(1, mid)
    if offset_ps is not None:
        body += f_varint(2, offset_ps)
    if occurrences is not None:
        body += f_varint(5, occurrences)
    if dur_ps:
        body += f_varint(3, dur_ps)
    for s in stats:
        body += f_bytes(4, s)
    return body


# XLine: id=1, name=2, timestamp_ns=3, events=4, display_name=11
def line(lid, name, ts_ns, events, display_name=None):
    body = f_varint(1, lid) + f_bytes(2, name) + f_varint(3, ts_ns)
    for e in events:
        body += f_bytes(4, e)
    if display_name:
        body += f_bytes(11, display_name)
    return body


# XPlane: id=1, name=2, lines=3, event_metadata=4 (map entry key=1 value=2), stat_metadata=5, stats=6
def plane(pid, name, lines=(), event_meta=(), stat_meta=(), stats=()):
    body = f_varint(1, pid) + f_bytes(2, name)
    for l in lines:
        body += f_bytes(3, l)
    for mid, mname, display, mstats in event_meta:
        # XEventMetadata: id=1, name=2, display_name=4, stats=5
        value = f_varint(1, mid) + f_bytes(2, mname)
        if display:
            value += f_bytes(4, display)
        for s in mstats:
            value += f_bytes(5, s)
        body += f_bytes(4, f_varint(1, mid) + f_bytes(2, value))
    for sid, sname in stat_meta:
        # XStatMetadata: id=1, name=2
        body += f_bytes(5, f_varint(1, sid) + f_bytes(2, f_varint(1, sid) + f_bytes(2, sname)))
    for s in stats:
        body += f_bytes(6, s)
    return body


def space(planes, errors=(), warnings=(), hostnames=()):
    body = b"".join(f_bytes(1, p) for p in planes)
    body += b"".join(f_bytes(2, e) for e in errors)
    body += b"".join(f_bytes(3, w) for w in warnings)
    body += b"".join(f_bytes(4, h) for h in hostnames)
    return body


KERNEL_DETAILS = "regs:32 static_shared:0 dynamic_shared:1024 grid:128,1,1 block:256,1,1 occ_pct:50.0"
T0 = 1700000000000000000  # ns since the epoch (2023-11-14)


def basic():
    host_stats = [(1, "correlation_id"), (2, "tf_op"), (3, "group_id"), (4, "fragmentation"), (5, "bytes_allocated"),
                  (6, "_c"), (7, "payload"), (10, "annotation"), (11, "model/dense/MatMul"), (14, "is_eager"),
                  (15, 'quote"name')]
    host_events = [(1, "model/dense/MatMul:MatMul", "MatMul", []),
                   (2, "cudaLaunchKernel", None, []),
                   (3, "$train.py:12 train_step", None, []),
                   (4, "MemoryAllocation", None, [stat(2, "str", "Adam")]),
                   (5, "cuLaunchKernel", None, []),
                   (6, "ExecutorState::Process", None, [])]
    python3 = line(100, "python3", T0, [
        event(6, 0, 10_000_000, [stat(3, "int64", 0)]),
        # 1000.5 ns .. 6001.499 ns: start floors to 1000, end to 6001
        event(1, 1_000_500, 5_000_999, [stat(2, "str", "MatMul"), stat(4, "double", 0.25), stat(7, "bytes", b"\x00\x01\x02"),
                                        stat(6, "uint64", (1 << 63) + 5), stat(14, "int64", -1),
                                        stat(15, "str", 'tab\there "q" caf\xc3\xa9 bad\xff'.encode("latin-1"))]),
        event(2, 2_000_000, 1_000_000, [stat(1, "uint64", 7), stat(10, "ref", 11)]),
        event(4, 3_000_000, 0, [stat(5, "uint64", 4096)]),
        event(99, 4_000_000, 1000),
        event(1, None, 0, occurrences=5),
        event(3, 9_000_000, 500_000),
    ])
    # The same timeline continued in a second XLine with the same id.
    python3_more = line(100, "python3", T0 + 20_000, [
        event(6, 0, 1_000_000),
        event(5, 100_000, 200_000, [stat(1, "int64", 9)]),
    ])
    compute = line(200, "tf_Compute/200", T0, [
        event(6, 500, 999),  # 0.5 ns .. 1.499 ns: ts 0, dur 1
        event(1, 2_000_000, 1_000_000, [stat(77, "str", "x")]),
        event(1, 4_000_000, 1_000_000, [stat(10, "ref", 555)]),
    ], display_name="tf_Compute")
    host = plane(0, "/host:CPU", [python3, python3_more, compute], host_events, host_stats)

    gpu_stats = [(1, "correlation_id"), (2, "kernel_details"), (3, KERNEL_DETAILS), (4, "memcpy_details"),
                 (5, "clock_rate"), (6, "core_count"), (7, "memory_size"), (8, "compute_cap_major"),
                 (9, "device_vendor"), (10, "Nvidia"), (11, "peak_flops"), (12, "step_name"), (13, "hlo_category"),
                 (14, "group_id")]
    gpu_events = [(1, "volta_sgemm_128x64_nn", None, []),
                  (2, "MemcpyH2D", None, []),
                  (3, "Memset (Device)", None, []),
                  (4, "1", None, []),
                  (5, "%fusion.1 = f32[8]{0} fusion(f32[8]{0} %p0), kind=kLoop", "fusion.1",
                   [stat(13, "str", "loop fusion")]),
                  (6, "jit_train_step", None, [])]
    gpu = plane(1, "/device:GPU:0", [
        line(7, "Stream #7(Compute)", T0, [
            event(1, 2_500_000, 3_000_000, [stat(1, "uint64", 7), stat(2, "ref", 3)]),
            event(3, 6_000_000, 100_000),
            event(1, 20_400_000, 400_000, [stat(1, "int64", 9), stat(2, "str", "regs:16 grid:1,1,1 block:32,1,1")]),
        ]),
        line(8, "Stream #8(MemcpyH2D)", T0, [
            event(2, 1_500_000, 700_000, [stat(1, "uint64", 8), stat(4, "str", "kind:HtoD size:4096 dest:0 async:1")]),
        ]),
        line(-559038737, "Steps", T0, [event(4, 0, 30_000_000, [stat(12, "str", "1"), stat(14, "int64", 1)])]),
        line(-559038736, "XLA Ops", T0, [event(5, 2_500_000, 3_000_000)]),
        line(-559038735, "XLA Modules", T0, [event(6, 2_000_000, 20_000_000)]),
        line(42, "Custom line", T0, [event(6, 0, 1_000)]),
    ], gpu_events, gpu_stats, [
        stat(5, "int64", 1530000), stat(6, "int64", 80), stat(7, "uint64", 16945512448), stat(8, "int64", 7),
        stat(9, "ref", 10), stat(11, "double", 1.5e13)])

    meta = plane(2, "/host:metadata", [], [], [(1, "hlo_proto")], [stat(1, "bytes", b"\x0a\x03abc")])
    return space([host, gpu, meta], errors=["CUPTI: 3 records dropped"], warnings=["No step marker observed"],
                 hostnames=["worker-0"])


def jax_order():
    gpu = plane(7, "/device:GPU:1", [
        line(1, "Stream #1(Compute)", 5_000, [
            event(1, 1_000_000, 2_000_000, [stat(1, "uint64", 1)]),
            event(1, 4_000_000, 1_000_000, [stat(1, "uint64", 2)]),
        ]),
        line(-1, "XLA Modules", 5_000, [event(2, 500_000, 6_000_000)]),
        line(-2, "XLA Ops", 5_000, [event(3, 1_000_000, 2_000_000), event(3, 4_000_000, 1_000_000)]),
        line(-3, "Framework Name Scope", 5_000, [event(4, 900_000, 4_200_000)]),
    ], [(1, "loop_fusion_kernel", None, []), (2, "jit_step(123)", None, []), (3, "fusion", None, []),
        (4, "train/dense", None, [])], [(1, "correlation_id")])
    host = plane(0, "/host:CPU", [
        line(11, "main", 4_999, [
            event(1, -1500, 800_000),  # starts 1.5 ns before the line: 4997.5 ns, floored to 4997
            event(2, 900_000, 10_000, [stat(1, "uint64", 1)]),
            event(2, 3_900_000, 10_000, [stat(1, "uint64", 2)]),
        ]),
    ], [(1, "$main.py:3 step", None, []), (2, "cuLaunchKernel", None, [])], [(1, "correlation_id")])
    return space([gpu, host], hostnames=["tpu-vm-0"])


def stepstats():
    # tensorflow.StepStats { dev_stats: DeviceStepStats { device, node_stats: NodeExecStats {...} } }
    node = f_bytes(1, "dense/MatMul") + f_varint(2, 1234567)
    dev = f_bytes(1, "/job:localhost/replica:0/task:0/device:GPU:0") + f_bytes(2, node)
    return f_bytes(1, dev)


def main():
    def write(name, data):
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)

    b = basic()
    write("basic.xplane.pb", b)
    write("jax_order.xplane.pb", jax_order())
    write("truncated.xplane.pb", b[: len(b) // 2])
    write("stepstats.xplane.pb", stepstats())
    rng = random.Random(20240611)
    noise = bytes(rng.randrange(256) for _ in range(4096))
    write("garbage.xplane.pb", b"\x0a\x90\x01\x12\xff\xff\x03" + noise)
    write("noplanes.xplane.pb", f_bytes(1, f_varint(1, 1)) + f_bytes(1, f_varint(1, 2)))
    write("random.bin", b"\x7f" + noise[1:])


if __name__ == "__main__":
    main()
