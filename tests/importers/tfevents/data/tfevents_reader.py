#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent reading of TensorBoard event files: TFRecord framing with its CRC-32C checked, the
protobuf wire format decoded by hand (no protobuf or tensorboard module), so the importer's figures
can be checked against code that shares nothing with it.

    python3 tfevents_reader.py LOGDIR --series   > real/NAME.series.csv
    python3 tfevents_reader.py LOGDIR --params   > real/NAME.params.csv
    python3 tfevents_reader.py LOGDIR --histograms > real/NAME.histograms.csv
    python3 tfevents_reader.py LOGDIR --files    > real/NAME.files.csv

A run is a folder holding event files, named "<parent>/<folder>"; its files are read in name order.
Each (run, tag, kind) is a series; a step lower than the series' last one starts a new segment (a
restart), a repeated step gets the next dup. Rows are printed in the form of the importer test's
queries, so the two can be compared exactly:

--series      run,tag,kind,segments,points,first_step,last_step,min,max,sum: numbers %.9g (float32
              values round-trip), the sum over points in (segment, step, dup) order as %.6f
--params      run,key,value,kind for hparams session starts, with status and group as run,'#status',..
--histograms  run,tag,segment,step,dup,bucket_count,buckets (left:right:count;... at %.9g)
--files       run,file,records,summaries,values,scalars,histograms,skipped (file: its number in the
              run's name order; the names themselves carry the writers' host names)

Field numbers (tensorflow/tensorboard compat/proto and plugins/hparams): Event wall_time=1 step=2
file_version=3 summary=5; Summary.value=1; Value tag=1 simple_value=2 histo=5 tensor=8 metadata=9
image=4 audio=6; SummaryMetadata plugin_data=1 (plugin_name=1 content=2) data_class=4;
HistogramProto min=1 max=2 num=3 sum=4 sum_squares=5 bucket_limit=6 bucket=7; TensorProto dtype=1
tensor_shape=2 (dim=2 (size=1)) tensor_content=4 float_val=5 double_val=6 int_val=7 int64_val=10
bool_val=11 half_val=13; HParamsPluginData experiment=2 session_start_info=3 session_end_info=4;
SessionStartInfo hparams=1 (map entry key=1 value=2) group_name=4; SessionEndInfo status=1;
google.protobuf.Value null=1 number=2 string=3 bool=4 struct=5 list=6.
"""
import os
import struct
import sys


def _crc_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = (c >> 8) ^ _TABLE[(c ^ b) & 0xFF]
    return c ^ 0xFFFFFFFF


def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def records(path):
    """Yields (offset, data) for intact records, (offset, None) for one whose data CRC fails."""
    buf = open(path, "rb").read()
    i = 0
    while i + 12 <= len(buf):
        (length,) = struct.unpack_from("<Q", buf, i)
        (lcrc,) = struct.unpack_from("<I", buf, i + 8)
        if masked(crc32c(buf[i:i + 8])) != lcrc:
            return  # framing lost
        if i + 12 + length + 4 > len(buf):
            return  # truncated tail
        data = buf[i + 12:i + 12 + length]
        (dcrc,) = struct.unpack_from("<I", buf, i + 12 + length)
        yield i, (data if masked(crc32c(data)) == dcrc else None)
        i += 12 + length + 4


def varint(buf, i):
    shift = value = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, i
        shift += 7


def fields(buf):
    """(field, wire type, value) of one message: ints for varints, bytes otherwise."""
    i = 0
    out = []
    while i < len(buf):
        key, i = varint(buf, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 1:
            v = buf[i:i + 8]
            i += 8
        elif wt == 5:
            v = buf[i:i + 4]
            i += 4
        elif wt == 2:
            n, i = varint(buf, i)
            v = buf[i:i + n]
            i += n
        else:
            raise ValueError("wire type %d" % wt)
        out.append((f, wt, v))
    return out


def as_int64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def half(h):
    e = (h >> 10) & 0x1F
    m = h & 0x3FF
    if e == 0:
        v = m * 2.0 ** -24
    elif e == 31:
        v = float("nan") if m else float("inf")
    else:
        v = (m + 1024) * 2.0 ** (e - 25)
    return -v if h & 0x8000 else v


def bfloat16(h):
    return struct.unpack("<f", struct.pack("<I", (h & 0xFFFF) << 16))[0]


CONTENT = {1: ("<f", 4), 2: ("<d", 8), 3: ("<i", 4), 4: ("<B", 1), 5: ("<h", 2), 6: ("<b", 1),
           9: ("<q", 8), 10: ("<?", 1), 17: ("<H", 2), 22: ("<I", 4), 23: ("<Q", 8)}


def tensor(buf):
    """(dtype, dims, values) of a numeric TensorProto."""
    dtype, dims, values, content, halfs = 0, [], [], None, False
    for f, wt, v in fields(buf):
        if f == 1:
            dtype = v
        elif f == 2:
            for sf, _, sv in fields(v):
                if sf == 2:
                    dims.append(dict((df, dv) for df, _, dv in fields(sv)).get(1, 0))
        elif f == 4:
            content = v
        elif f == 5:
            values += [x for (x,) in struct.iter_unpack("<f", v)]
        elif f == 6:
            values += [x for (x,) in struct.iter_unpack("<d", v)]
        elif f in (7, 10, 11, 13, 16, 17):
            items = [v] if wt == 0 else []
            j = 0
            while wt == 2 and j < len(v):
                x, j = varint(v, j)
                items.append(x)
            for x in items:
                if f == 7:
                    x = struct.unpack("<i", struct.pack("<I", x & 0xFFFFFFFF))[0]
                elif f == 10:
                    x = as_int64(x)
                elif f == 11:
                    x = 1 if x else 0
                values.append(float(x))
            halfs = halfs or f == 13
    count = 1
    for d in dims:
        count *= d
    if content:
        if dtype in (14, 19):
            raw = [x for (x,) in struct.iter_unpack("<H", content)]
            values = [bfloat16(x) if dtype == 14 else half(x) for x in raw]
        else:
            fmt, _ = CONTENT[dtype]
            values = [float(x) for (x,) in struct.iter_unpack(fmt, content)]
    elif halfs:
        values = [bfloat16(int(x)) if dtype == 14 else half(int(x)) for x in values]
    if len(values) == 1 and count > 1:
        values = values * count
    return dtype, dims, values


def legacy_histogram(buf):
    """TensorBoard's conversion: empty end buckets dropped, min and max as the outer edges."""
    d = {"limits": [], "counts": []}
    for f, wt, v in fields(buf):
        if f in (1, 2, 3, 4, 5):
            d[f] = struct.unpack("<d", v)[0]
        elif f in (6, 7):
            xs = [x for (x,) in struct.iter_unpack("<d", v)] if wt == 2 else [struct.unpack("<d", v)[0]]
            d["limits" if f == 6 else "counts"] += xs
    lo, hi = d.get(1, 0.0), d.get(2, 0.0)
    limits, counts = d["limits"], d["counts"]
    nz = [i for i, c in enumerate(counts) if c > 0]
    if not nz:
        return []
    start, end = nz[0], nz[-1]
    out = []
    for i in range(start, end + 1):
        left = lo if i == start else limits[i - 1]
        right = hi if i == end else limits[i]
        out.append((left, right, counts[i]))
    return out


def fmt_number(v):
    """The importer's param text: integers bare, others shortest, positional for exponents -4..15."""
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 1e16:
        return str(int(v))
    mant, _, exp = repr(abs(v)).partition("e")  # repr: the shortest digits that round-trip
    intpart, _, frac = mant.partition(".")
    if intpart.strip("0"):
        e10 = int(exp or 0) + len(intpart.lstrip("0")) - 1
    else:
        e10 = int(exp or 0) - (len(frac) - len(frac.lstrip("0"))) - 1
    digits = (intpart + frac).strip("0") or "0"
    sign = "-" if v < 0 else ""
    if e10 < -4 or e10 >= 16:
        m = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return "%s%se%s%02d" % (sign, m, "-" if e10 < 0 else "+", abs(e10))
    if e10 < 0:
        return sign + "0." + "0" * (-e10 - 1) + digits
    if len(digits) <= e10 + 1:
        digits += "0" * (e10 + 2 - len(digits))
    return sign + digits[:e10 + 1] + "." + digits[e10 + 1:]


def json_value(buf):
    for f, wt, v in fields(buf):
        if f == 1:
            return None
        if f == 2:
            return struct.unpack("<d", v)[0]
        if f == 3:
            return v.decode()
        if f == 4:
            return bool(v)
        if f == 5:
            out = {}
            for _, _, entry in fields(v):
                kv = dict((ef, ev) for ef, _, ev in fields(entry))
                out[kv.get(1, b"").decode()] = json_value(kv.get(2, b""))
            return out
        if f == 6:
            return [json_value(x) for _, _, x in fields(v)]
    return None


def param_text(v):
    import json
    if v is None:
        return "", "null"
    if isinstance(v, bool):
        return ("true" if v else "false"), "bool"
    if isinstance(v, float):
        return fmt_number(v), "number"
    if isinstance(v, str):
        return v, "string"
    return json.dumps(v, separators=(",", ":"), sort_keys=True), "json"


STATUS = ["unknown", "success", "failure", "running"]


class Run:
    def __init__(self, name):
        self.name = name
        self.series = {}  # (tag, kind) -> list of [segment, step, dup, payload]
        self.params = {}
        self.status = None
        self.group = None


def read_run(run, files, stats):
    plugin = {}
    for path in files:
        st = dict(file="%s,%d" % (run.name, files.index(path) + 1), records=0, summaries=0, values=0, scalars=0,
                  histograms=0, skipped=0)
        stats["files"].append(st)
        for _, data in records(path):
            st["records"] += 1
            if data is None:
                continue
            ev = fields(data)
            step = 0
            summary = None
            for f, wt, v in ev:
                if f == 2:
                    step = as_int64(v)
                elif f == 5:
                    summary = v
            if summary is None:
                continue
            st["summaries"] += 1
            for _, _, vbuf in fields(summary):
                st["values"] += 1
                vf = fields(vbuf)
                tag = next((v.decode() for f, _, v in vf if f == 1), "")
                for f, _, v in vf:
                    if f == 9:
                        for mf, _, mv in fields(v):
                            if mf == 1:
                                pd = dict((pf, pv) for pf, _, pv in fields(mv))
                                name = pd.get(1, b"").decode()
                                if tag not in plugin:
                                    plugin[tag] = name
                                if name == "hparams":
                                    hparams(run, pd.get(2, b""))
                kinds = [(f, v) for f, _, v in vf if f in (2, 4, 5, 6, 8)]
                if not kinds:
                    continue
                f, v = kinds[0]
                p = plugin.get(tag)
                if f == 2:
                    add(run, tag, "scalar", step, struct.unpack("<f", v)[0])
                    st["scalars"] += 1
                elif f == 5:
                    add(run, tag, "histogram", step, legacy_histogram(v))
                    st["histograms"] += 1
                elif f == 8 and p == "scalars":
                    add(run, tag, "scalar", step, tensor(v)[2][0])
                    st["scalars"] += 1
                elif f == 8 and p == "histograms":
                    _, dims, values = tensor(v)
                    add(run, tag, "histogram", step,
                        [tuple(values[i * 3:i * 3 + 3]) for i in range(dims[0])])
                    st["histograms"] += 1
                elif f == 8 and p == "hparams":
                    pass
                else:
                    st["skipped"] += 1


def hparams(run, content):
    for f, _, v in fields(content):
        if f == 3:
            for sf, _, sv in fields(v):
                if sf == 1:
                    kv = dict((ef, ev) for ef, _, ev in fields(sv))
                    run.params[kv.get(1, b"").decode()] = param_text(json_value(kv.get(2, b"")))
                elif sf == 4 and sv:
                    run.group = sv.decode()
            if run.status is None:
                run.status = "unknown"
        elif f == 4:
            status = dict((ef, ev) for ef, _, ev in fields(v)).get(1, 0)
            run.status = STATUS[status] if status < 4 else "unknown"


def add(run, tag, kind, step, payload):
    points = run.series.setdefault((tag, kind), [])
    if not points:
        points.append([0, step, 0, payload])
        return
    seg, last, dup, _ = points[-1]
    if step < last:
        points.append([seg + 1, step, 0, payload])
    elif step == last:
        points.append([seg, step, dup + 1, payload])
    else:
        points.append([seg, step, 0, payload])


def runs_of(logdir):
    logdir = os.path.abspath(logdir)
    out = []
    for folder, dirs, files in os.walk(logdir):
        dirs.sort()
        events = sorted(f for f in files if "tfevents" in f)
        if events:
            name = os.path.basename(os.path.dirname(folder)) + "/" + os.path.basename(folder)
            out.append((name, [os.path.join(folder, f) for f in events]))
    return out


def g9(x):
    return "%.9g" % x


def csv_cell(s):
    return '"' + s.replace('"', '""') + '"' if ("," in s or '"' in s) else s


def main():
    logdir, mode = sys.argv[1], sys.argv[2]
    stats = {"root": os.path.abspath(logdir), "files": []}
    runs = []
    for name, files in runs_of(logdir):
        run = Run(name)
        read_run(run, files, stats)
        runs.append(run)
    runs.sort(key=lambda r: r.name)
    if mode == "--series":
        print("run,tag,kind,segments,points,first_step,last_step,min,max,sum")
        for run in runs:
            for (tag, kind), pts in sorted(run.series.items()):
                line = [run.name, tag, kind, str(pts[-1][0] + 1), str(len(pts)), str(min(p[1] for p in pts)),
                        str(max(p[1] for p in pts))]
                if kind == "scalar":
                    ordered = sorted(pts, key=lambda p: (p[0], p[1], p[2]))
                    finite = [p[3] for p in ordered if p[3] == p[3] and abs(p[3]) != float("inf")]
                    total = 0.0
                    for p in ordered:
                        if p[3] == p[3]:
                            total += p[3]
                    line += [g9(min(finite)), g9(max(finite)), "%.6f" % total]
                else:
                    line += ["", "", ""]
                print(",".join(csv_cell(c) for c in line))
    elif mode == "--params":
        print("run,key,value,kind")
        for run in runs:
            rows = [(k, v[0], v[1]) for k, v in run.params.items()]
            if run.status:
                rows.append(("#status", run.status, ""))
            if run.group:
                rows.append(("#group", run.group, ""))
            for k, v, kind in sorted(rows):
                print(",".join(csv_cell(c) for c in (run.name, k, v, kind)))
    elif mode == "--histograms":
        print("run,tag,segment,step,dup,bucket_count,buckets")
        for run in runs:
            for (tag, kind), pts in sorted(run.series.items()):
                if kind != "histogram":
                    continue
                for seg, step, dup, buckets in sorted(pts, key=lambda p: (p[0], p[1], p[2])):
                    text = ";".join("%s:%s:%s" % (g9(a), g9(b), g9(c)) for a, b, c in buckets)
                    print(",".join(csv_cell(c) for c in (run.name, tag, str(seg), str(step), str(dup),
                                                         str(len(buckets)), text)))
    elif mode == "--files":
        print("run,file,records,summaries,values,scalars,histograms,skipped")
        for st in sorted(stats["files"], key=lambda s: s["file"]):
            print(",".join(str(st[k]) for k in ("file", "records", "summaries", "values", "scalars", "histograms",
                                                "skipped")))
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
