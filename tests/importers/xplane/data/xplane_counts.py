#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent reading of an .xplane.pb: decodes the protobuf wire format by hand (no protobuf
module) and prints, per plane, its lines and event counts, so the importer's counts can be checked
against something that does not share its code.

    python3 xplane_counts.py FILE.xplane.pb [--stats]
    python3 xplane_counts.py FILE.xplane.pb --csv > real/NAME.lines.csv

--csv prints one row per timeline (plane, line id; XLines with the same id are one timeline) with
its event count, in the form of the importer test's query over the workspace, so the two can be
compared exactly.

Field numbers (tensorflow/tsl xplane.proto): XSpace.planes=1; XPlane id=1 name=2 lines=3
event_metadata=4 stat_metadata=5 stats=6; XLine id=1 name=2 timestamp_ns=3 events=4 display_name=11;
XEvent metadata_id=1 offset_ps=2 duration_ps=3 stats=4 num_occurrences=5; XStat metadata_id=1.
"""
import sys
from collections import Counter


def varint(buf, i):
    shift = value = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, i
        shift += 7


def fields(buf, start=0, end=None):
    """Yields (field number, wire type, value) over one message; value is an int or a memoryview."""
    i = start
    end = len(buf) if end is None else end
    while i < end:
        key, i = varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 1:
            v, i = int.from_bytes(buf[i:i + 8], "little"), i + 8
        elif wt == 5:
            v, i = int.from_bytes(buf[i:i + 4], "little"), i + 4
        elif wt == 2:
            n, i = varint(buf, i)
            v, i = buf[i:i + n], i + n
        else:
            raise ValueError("wire type %d at byte %d" % (wt, i))
        yield num, wt, v


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def main():
    path = sys.argv[1]
    show_stats = "--stats" in sys.argv
    csv_rows = {} if "--csv" in sys.argv else None
    data = memoryview(open(path, "rb").read())
    total_events = 0
    for num, _, plane in fields(data):
        if num != 1:
            continue
        name, plane_id, lines, stat_names, stats = "", 0, [], {}, Counter()
        for pn, _, pv in fields(plane):
            if pn == 1:
                plane_id = signed(pv)
            elif pn == 2:
                name = bytes(pv).decode()
            elif pn == 3:
                lname, lid, ts, events, display = "", 0, 0, 0, ""
                for ln, _, lv in fields(pv):
                    if ln == 1:
                        lid = signed(lv)
                    elif ln == 2:
                        lname = bytes(lv).decode()
                    elif ln == 3:
                        ts = signed(lv)
                    elif ln == 11:
                        display = bytes(lv).decode()
                    elif ln == 4:
                        events += 1
                        if show_stats:
                            for en, _, ev in fields(lv):
                                if en == 4:
                                    for sn, _, sv in fields(ev):
                                        if sn == 1:
                                            stats[sv] += 1
                lines.append((lid, lname, ts, events))
                if csv_rows is not None:
                    row = csv_rows.setdefault((name, lid), [display or lname, 0])
                    row[1] += events
            elif pn == 5:
                sid, sname = 0, ""
                for mn, _, mv in fields(pv):
                    if mn == 2:  # map entry value: XStatMetadata
                        for xn, _, xv in fields(mv):
                            if xn == 1:
                                sid = xv
                            elif xn == 2:
                                sname = bytes(xv).decode()
                stat_names[sid] = sname
        n = sum(l[3] for l in lines)
        total_events += n
        if csv_rows is not None:
            continue
        print("plane %d %r: %d lines, %d events" % (plane_id, name, len(lines), n))
        for lid, lname, ts, events in lines:
            print("  line %d %r timestamp_ns=%d events=%d" % (lid, lname, ts, events))
        if show_stats:
            for sid, c in stats.most_common():
                print("  stat %r: %d" % (stat_names.get(sid, sid), c))
    if csv_rows is not None:
        print("plane,line,name,events")
        for (pname, lid), (lname, events) in sorted(csv_rows.items()):
            print("%s,%d,%s,%d" % (pname, lid, '"%s"' % lname if "," in lname else lname, events))
        return
    print("total events %d" % total_events)


if __name__ == "__main__":
    main()
