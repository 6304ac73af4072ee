#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the generated TensorBoard event-file fixtures beside this script, encoding TFRecord framing
(CRC-32C computed here) and the protobuf wire format by hand (no protobuf module), so the importer
is tested against bytes it did not write itself. Beside each fixture folder it writes what the
importer must store, from what was written (not from reading it back):

    NAME.points.csv      run,tag,segment,step,dup,wall_time_ns,value   (value %.9g, NaN empty)
    NAME.histograms.csv  run,tag,segment,step,dup,bucket_count,buckets,min,max,num,sum,sum_squares

    python3 gen_fixtures.py

tf2/        TF2-style: every scalar a rank-0 tensor of the "scalars" plugin, the plugin named on the
            tag's first value only; float_val, double_val, int64_val, half_val, bfloat16 and float32
            tensor_content; histograms as [k,3] tensors of the "histograms" plugin (tensor_content
            and double_val, one empty [0,3]); NaN and infinity; a tag that never names its plugin;
            images, text, a graph and a session log, which are not imported.
legacy/     PyTorch/TF1-style: simple_value scalars, HistogramProto histograms with empty buckets at
            both ends, one with no non-empty bucket, one whose limits and counts differ in number.
restart/    two files of one run: steps 0..9, back to 7..12 in the same file (a restart), then the
            second file from step 3 (a restart across files, imported separately) with step 5 twice.
corrupt/    a record whose data CRC is wrong in the middle, and a last record cut short.
badheader/  a record header whose length CRC is wrong after three good records.
hparams/    a trial folder with the hparams experiment, session start (numbers, strings, bools, a
            list, a null) and end (success), hp_metric; and train/ validation/ folders beneath it.
notevents/  events.out.tfevents.*.txt: CSV text under an event file name; events.out.tfevents.*.tfrecord:
            TFRecord framing around records that are not Events; dataset.tfrecord: the same
            bytes under another name; events.out.tfevents.*.short: 6 bytes.
"""
import math
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1700000000.0  # wall time, s since the epoch


# --- CRC-32C and TFRecord framing ---

def _table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    return t


TABLE = _table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = (c >> 8) ^ TABLE[(c ^ b) & 0xFF]
    return c ^ 0xFFFFFFFF


def masked(c):
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def record(data, bad_data_crc=False, bad_length_crc=False):
    head = struct.pack("<Q", len(data))
    lcrc = masked(crc32c(head)) ^ (1 if bad_length_crc else 0)
    dcrc = masked(crc32c(data)) ^ (1 if bad_data_crc else 0)
    return head + struct.pack("<I", lcrc) + data + struct.pack("<I", dcrc)


# --- protobuf wire format ---

def varint(v):
    v &= (1 << 64) - 1
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


def f_float(field, f):
    return key(field, 5) + struct.pack("<f", f)


def packed_doubles(field, xs):
    return f_bytes(field, b"".join(struct.pack("<d", x) for x in xs))


def packed_varints(field, xs):
    return f_bytes(field, b"".join(varint(x) for x in xs))


# Event: wall_time=1 step=2 file_version=3 graph_def=4 summary=5 session_log=7
def event(wall, step=0, summary=None, file_version=None, graph=None, session_log=None):
    body = f_double(1, wall)
    if step:
        body += f_varint(2, step)
    if file_version is not None:
        body += f_bytes(3, file_version)
    if graph is not None:
        body += f_bytes(4, graph)
    if summary is not None:
        body += f_bytes(5, summary)
    if session_log is not None:
        body += f_bytes(7, f_varint(1, session_log))
    return body


def summary(*values):
    return b"".join(f_bytes(1, v) for v in values)


# SummaryMetadata: plugin_data=1 (plugin_name=1, content=2), display_name=2, data_class=4
def metadata(plugin, content=b"", data_class=0):
    body = f_bytes(1, f_bytes(1, plugin) + (f_bytes(2, content) if content else b""))
    if data_class:
        body += f_varint(4, data_class)
    return body


# Summary.Value: tag=1 simple_value=2 image=4 histo=5 tensor=8 metadata=9
def value(tag, simple=None, tensor=None, histo=None, image=None, meta=None):
    body = f_bytes(1, tag)
    if meta is not None:
        body += f_bytes(9, meta)
    if simple is not None:
        body += f_float(2, simple)
    if tensor is not None:
        body += f_bytes(8, tensor)
    if histo is not None:
        body += f_bytes(5, histo)
    if image is not None:
        body += f_bytes(4, image)
    return body


# TensorProto: dtype=1 tensor_shape=2 (dim=2 (size=1)) tensor_content=4 float_val=5 double_val=6
# int64_val=10 half_val=13 string_val=8
def tensor(dtype, dims=(), content=None, float_val=None, double_val=None, int64_val=None, half_val=None,
           string_val=None):
    body = f_varint(1, dtype)
    shape = b"".join(f_bytes(2, f_varint(1, d)) for d in dims)
    body += f_bytes(2, shape)
    if content is not None:
        body += f_bytes(4, content)
    if float_val is not None:
        body += f_bytes(5, b"".join(struct.pack("<f", x) for x in float_val))
    if double_val is not None:
        body += packed_doubles(6, double_val)
    if int64_val is not None:
        body += packed_varints(10, int64_val)
    if half_val is not None:
        body += packed_varints(13, half_val)
    if string_val is not None:
        body += b"".join(f_bytes(8, s) for s in string_val)
    return body


# HistogramProto: min=1 max=2 num=3 sum=4 sum_squares=5 bucket_limit=6 bucket=7
def histo(lo, hi, num, total, squares, limits, counts):
    return (f_double(1, lo) + f_double(2, hi) + f_double(3, num) + f_double(4, total) + f_double(5, squares)
            + packed_doubles(6, limits) + packed_doubles(7, counts))


DT_FLOAT, DT_DOUBLE, DT_STRING, DT_INT64, DT_BFLOAT16, DT_HALF = 1, 2, 7, 9, 14, 19


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def half_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def bf16_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0] >> 16


# --- expectations ---

class Expect:
    """Rows the importer must store, with the segment/dup rule applied per (run, tag, kind)."""

    def __init__(self):
        self.points = []
        self.histograms = []
        self.last = {}

    def place(self, run, tag, kind, step):
        k = (run, tag, kind)
        if k not in self.last:
            seg, dup = 0, 0
        else:
            seg, last, dup = self.last[k]
            if step < last:
                seg, dup = seg + 1, 0
            elif step == last:
                dup += 1
            else:
                dup = 0
        self.last[k] = (seg, step, dup)
        return seg, dup

    def scalar(self, run, tag, step, wall, v):
        seg, dup = self.place(run, tag, "scalar", step)
        self.points.append((run, tag, seg, step, dup, round(wall * 1e9), v))

    def histogram(self, run, tag, step, wall, buckets, stats=None):
        seg, dup = self.place(run, tag, "histogram", step)
        self.histograms.append((run, tag, seg, step, dup, buckets, stats))

    def write(self, name):
        def g9(x):
            return "" if x != x else ("inf" if x == math.inf else "-inf" if x == -math.inf else "%.9g" % x)

        with open(os.path.join(HERE, name + ".points.csv"), "w") as out:
            out.write("run,tag,segment,step,dup,wall_time_ns,value\n")
            for r in sorted(self.points, key=lambda p: p[:5]):
                out.write("%s,%s,%d,%d,%d,%d,%s\n" % (r[0], r[1], r[2], r[3], r[4], r[5], g9(r[6])))
        with open(os.path.join(HERE, name + ".histograms.csv"), "w") as out:
            out.write("run,tag,segment,step,dup,bucket_count,buckets,min,max,num,sum,sum_squares\n")
            for r in sorted(self.histograms, key=lambda p: p[:5]):
                text = ";".join("%s:%s:%s" % (g9(a), g9(b), g9(c)) for a, b, c in r[5])
                stats = ",".join(g9(x) for x in r[6]) if r[6] else ",,,,"
                out.write("%s,%s,%d,%d,%d,%d,%s,%s\n" % (r[0], r[1], r[2], r[3], r[4], len(r[5]), text, stats))


def write_file(folder, name, records):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    with open(os.path.join(HERE, folder, name), "wb") as out:
        out.write(b"".join(records))


def first():
    return record(event(T0, file_version="brain.Event:2"))


# --- fixtures ---

def tf2():
    run = "data/tf2"
    x = Expect()
    recs = [first()]
    scal = metadata("scalars", data_class=1)
    hist = metadata("histograms")
    for step in range(4):
        wall = T0 + step * 0.25
        loss = f32(1.0 / (step + 1))
        lr = 0.001 * (step + 1)
        acc = [0.5, 0.625, 0.75, 0.875][step]
        bf = [1.5, 2.0, 2.5, 3.0][step]
        vals = [
            value("loss", tensor=tensor(DT_FLOAT, float_val=[loss]), meta=scal if step == 0 else None),
            value("lr", tensor=tensor(DT_DOUBLE, content=struct.pack("<d", lr)), meta=scal if step == 0 else None),
            value("tokens", tensor=tensor(DT_INT64, int64_val=[1000 * step - 1]), meta=scal if step == 0 else None),
            value("acc", tensor=tensor(DT_HALF, half_val=[half_bits(acc)]), meta=scal if step == 0 else None),
            value("bf", tensor=tensor(DT_BFLOAT16, content=struct.pack("<H", bf16_bits(bf))),
                  meta=scal if step == 0 else None),
            value("f32", tensor=tensor(DT_FLOAT, content=struct.pack("<f", 0.5 + step)),
                  meta=scal if step == 0 else None),
        ]
        for tag, v in (("loss", loss), ("lr", lr), ("tokens", 1000 * step - 1), ("acc", acc), ("bf", bf),
                       ("f32", 0.5 + step)):
            x.scalar(run, tag, step, wall, float(v))
        # [k,3] histograms: packed float64 content, then double_val
        buckets = [(0.0 + step, 1.0 + step, 3.0), (1.0 + step, 2.0 + step, 5.0), (2.0 + step, 3.0 + step, 0.0)]
        flat = [c for b in buckets for c in b]
        vals.append(value("weights", tensor=tensor(DT_DOUBLE, dims=(3, 3), content=struct.pack("<9d", *flat)),
                          meta=hist if step == 0 else None))
        x.histogram(run, "weights", step, wall, buckets)
        if step < 2:
            vals.append(value("bias", tensor=tensor(DT_DOUBLE, dims=(1, 3), double_val=[-1.0, 1.0, 4.0]),
                              meta=hist if step == 0 else None))
            x.histogram(run, "bias", step, wall, [(-1.0, 1.0, 4.0)])
        recs.append(record(event(wall, step, summary=summary(*vals))))
    wall = T0 + 2
    # an empty histogram, NaN and infinity, a tag that never names its plugin
    recs.append(record(event(wall, 10, summary=summary(
        value("empty", tensor=tensor(DT_DOUBLE, dims=(0, 3)), meta=hist),
        value("loss", tensor=tensor(DT_FLOAT, float_val=[math.nan])),
        value("lr", tensor=tensor(DT_DOUBLE, double_val=[math.inf])),
        value("orphan", tensor=tensor(DT_FLOAT, float_val=[2.5])),
    ))))
    x.histogram(run, "empty", 10, wall, [])
    x.scalar(run, "loss", 10, wall, math.nan)
    x.scalar(run, "lr", 10, wall, math.inf)
    x.scalar(run, "orphan", 10, wall, 2.5)
    # not imported: images, text, a graph, a session log
    recs.append(record(event(wall, 11, summary=summary(
        value("sample", tensor=tensor(DT_STRING, dims=(3,), string_val=[b"2", b"2", b"\x89PNG"]),
              meta=metadata("images")),
        value("notes", tensor=tensor(DT_STRING, string_val=[b"hello"]), meta=metadata("text")),
    ))))
    recs.append(record(event(wall, 0, graph=b"\x0a\x03abc")))
    recs.append(record(event(wall, 0, session_log=1)))
    write_file("tf2", "events.out.tfevents.1700000000.gen.1", recs)
    x.write("tf2")


def legacy():
    run = "data/legacy"
    x = Expect()
    recs = [first()]
    for step in range(0, 30, 10):
        wall = T0 + step
        v = f32(0.1 * step + 0.3)
        lo, hi = -0.5 - step, 2.5 + step
        limits = [-1.0, 0.0, 1.0, 2.0, 1.7976931348623157e308]
        counts = [0.0, 2.0, 0.0, 6.0, 0.0]
        h = histo(lo, hi, 8.0, 10.0, 30.0, limits, counts)
        recs.append(record(event(wall, step, summary=summary(value("train/loss", simple=v), value("w", histo=h)))))
        x.scalar(run, "train/loss", step, wall, v)
        # empty end buckets dropped; min and max as the outer edges
        x.histogram(run, "w", step, wall, [(lo, 0.0, 2.0), (0.0, 1.0, 0.0), (1.0, hi, 6.0)],
                    (lo, hi, 8.0, 10.0, 30.0))
    wall = T0 + 40
    recs.append(record(event(wall, 40, summary=summary(
        value("w", histo=histo(1.7976931348623157e308, -1.7976931348623157e308, 0.0, 0.0, 0.0,
                               [1.0, 2.0], [0.0, 0.0])),
        value("bad", histo=histo(0.0, 1.0, 1.0, 1.0, 1.0, [1.0, 2.0], [1.0])),
    ))))
    x.histogram(run, "w", 40, wall, [], (1.7976931348623157e308, -1.7976931348623157e308, 0.0, 0.0, 0.0))
    write_file("legacy", "events.out.tfevents.1700000000.gen.1", recs)
    x.write("legacy")


def restart():
    run = "data/restart"
    x = Expect()
    recs = [first()]
    steps = list(range(10)) + list(range(7, 13))
    for i, step in enumerate(steps):
        wall = T0 + i
        recs.append(record(event(wall, step, summary=summary(value("loss", simple=float(i)),
                                                             value("acc", simple=float(step) / 16)))))
        x.scalar(run, "loss", step, wall, float(i))
        x.scalar(run, "acc", step, wall, float(step) / 16)
    write_file("restart", "events.out.tfevents.1700000000.gen.1", recs)
    recs = [record(event(T0 + 100, file_version="brain.Event:2"))]
    for i, step in enumerate([3, 4, 5, 5, 6]):
        wall = T0 + 100 + i
        recs.append(record(event(wall, step, summary=summary(value("loss", simple=100.0 + i)))))
        x.scalar(run, "loss", step, wall, 100.0 + i)
    write_file("restart", "events.out.tfevents.1700000100.gen.2", recs)
    x.write("restart")


def corrupt():
    run = "data/corrupt"
    x = Expect()
    recs = [first()]
    for step in range(6):
        wall = T0 + step
        data = event(wall, step, summary=summary(value("loss", simple=float(step))))
        recs.append(record(data, bad_data_crc=(step == 2)))
        if step != 2:
            x.scalar(run, "loss", step, wall, float(step))
    tail = record(event(T0 + 9, 9, summary=summary(value("loss", simple=9.0))))
    recs.append(tail[:len(tail) - 7])
    write_file("corrupt", "events.out.tfevents.1700000000.gen.1", recs)
    x.write("corrupt")


def badheader():
    run = "data/badheader"
    x = Expect()
    recs = [first()]
    for step in range(6):
        wall = T0 + step
        recs.append(record(event(wall, step, summary=summary(value("loss", simple=float(step)))),
                           bad_length_crc=(step == 3)))
        if step < 3:
            x.scalar(run, "loss", step, wall, float(step))
    write_file("badheader", "events.out.tfevents.1700000000.gen.1", recs)
    x.write("badheader")


# google.protobuf.Value: null=1 number=2 string=3 bool=4 struct=5 list=6
def jv(v):
    if v is None:
        return f_varint(1, 0)
    if isinstance(v, bool):
        return f_varint(4, 1 if v else 0)
    if isinstance(v, (int, float)):
        return f_double(2, float(v))
    if isinstance(v, str):
        return f_bytes(3, v)
    if isinstance(v, list):
        return f_bytes(6, b"".join(f_bytes(1, jv(i)) for i in v))
    raise TypeError(v)


def hparams():
    x = Expect()
    # HParamsPluginData: version=1 experiment=2 session_start_info=3 session_end_info=4
    # Experiment: name=6 description=1 time_created_secs=3 hparam_infos=4 metric_infos=5
    # HParamInfo: name=1 type=4 domain_discrete=5 domain_interval=6 (min=1 max=2)
    # MetricInfo: name=1 (group=1 tag=2) dataset_type=5
    experiment = (f_bytes(6, "search") + f_bytes(1, "a small search") + f_double(3, T0)
                  + f_bytes(4, f_bytes(1, "lr") + f_varint(4, 3) + f_bytes(6, f_double(1, 1e-5) + f_double(2, 0.1)))
                  + f_bytes(4, f_bytes(1, "optimizer") + f_varint(4, 1)
                            + f_bytes(5, b"".join(f_bytes(1, jv(s)) for s in ("adam", "sgd"))))
                  + f_bytes(5, f_bytes(1, f_bytes(1, "validation") + f_bytes(2, "epoch_accuracy")) + f_varint(5, 2)))
    hp = {"lr": 3e-05, "layers": 4, "optimizer": "adam", "amsgrad": True, "dropout": 0.25, "schedule": [1, 2],
          "seed": None, "momentum": 0.9}
    start = b"".join(f_bytes(1, f_bytes(1, k) + f_bytes(2, jv(v))) for k, v in hp.items())
    start += f_bytes(4, "group-7") + f_double(5, T0 - 10)
    end = f_varint(1, 1) + f_double(2, T0 + 60)
    data = lambda field, body: f_varint(1, 0) + f_bytes(field, body)  # noqa: E731
    recs = [first(), record(event(T0, summary=summary(
        value("_hparams_/experiment", meta=metadata("hparams", data(2, experiment))),
        value("_hparams_/session_start_info", meta=metadata("hparams", data(3, start))),
    )))]
    recs.append(record(event(T0 + 50, 3, summary=summary(value("hp_metric", simple=0.75)))))
    x.scalar("hparams/trial_a", "hp_metric", 3, T0 + 50, 0.75)
    recs.append(record(event(T0 + 60, summary=summary(
        value("_hparams_/session_end_info", meta=metadata("hparams", data(4, end)))))))
    write_file("hparams/trial_a", "events.out.tfevents.1700000000.gen.1", recs)
    for sub, base in (("train", 0.5), ("validation", 0.6)):
        recs = [first()]
        for epoch in range(3):
            recs.append(record(event(T0 + epoch, epoch, summary=summary(
                value("epoch_accuracy", simple=base + epoch / 8)))))
            x.scalar("trial_a/" + sub, "epoch_accuracy", epoch, T0 + epoch, f32(base + epoch / 8))
        write_file("hparams/trial_a/" + sub, "events.out.tfevents.1700000000.gen.1", recs)
    x.write("hparams")


def notevents():
    os.makedirs(os.path.join(HERE, "notevents"), exist_ok=True)
    with open(os.path.join(HERE, "notevents", "events.out.tfevents.1700000000.gen.txt"), "w") as out:
        # a training script's console log, saved under an event file's name
        out.write("Epoch 1/2 - loss: 1.5000 - accuracy: 0.5200\nEpoch 2/2 - loss: 1.2500 - accuracy: 0.6100\n")
    # tf.Example-like records: Example.features (1) holding a feature map
    examples = b"".join(record(f_bytes(1, f_bytes(1, f_bytes(1, "x") + f_bytes(2, f_bytes(3, packed_varints(1, [i]))))))
                        for i in range(3))
    for name in ("events.out.tfevents.1700000000.gen.tfrecord", "dataset.tfrecord"):
        with open(os.path.join(HERE, "notevents", name), "wb") as out:
            out.write(examples)
    with open(os.path.join(HERE, "notevents", "events.out.tfevents.1700000000.gen.short"), "wb") as out:
        out.write(first()[:6])


def main():
    for folder in ("tf2", "legacy", "restart", "corrupt", "badheader", "hparams", "notevents"):
        shutil.rmtree(os.path.join(HERE, folder), ignore_errors=True)
    tf2()
    legacy()
    restart()
    corrupt()
    badheader()
    hparams()
    notevents()


if __name__ == "__main__":
    main()
