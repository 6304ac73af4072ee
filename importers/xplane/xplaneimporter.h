// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// XPlane profiles (`.xplane.pb`) as the TensorFlow and JAX profilers write them (TSL profiler).
//
// Maps one XSpace to one trace. Each XPlane becomes a process named after the plane: `/host:CPU`
// a CPU process whose XLines are its threads; `/device:GPU:n` a GPU process (device n) whose
// `Stream #N(...)` lines are GPU stream tracks (kernels, memcpy, memset) and whose derived lines
// (`Steps`, `XLA Modules`, `XLA Ops`, `TensorFlow Ops`, name scopes...) are tracks of their own;
// any other plane a process of kind "other". XLines with the same id in a plane share a track.
// Events get their names from the plane's event metadata (display name, else name) and their args
// from their stats plus the metadata's constant stats; `ref_value` stats resolve to the name of the
// stat metadata they point at; `kernel_details` / `memcpy_details` ("regs:32 grid:1,1,1 ...") become
// JSON objects; `correlation_id` is promoted to slice.corr, and a host event carrying one is a CUDA
// API call, kept on its thread's CUDA API track. Plane stats of a device are its properties.
//
// Time: an event starts at line.timestamp_ns + offset_ps / 1000 (floored, integer maths; the sum is
// never formed in picoseconds, which would overflow for epoch timestamps). Writers usually, but
// not always, use the UNIX epoch: base_time_ns is set (to 0) only when the values look like it.
//
// Memory: the XSpace is read field by field from the input stream, one XPlane in memory at a time,
// decoded in place without building message objects. A plane is read twice (its event metadata
// follows its lines on the wire), so peak memory is about the largest plane.
//
// A cut-short file, a protobuf of another message type, or bytes that are not protobuf at all
// stop the import with an ImportError that names the file and the byte offset.
class XPlaneImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("xplane"); }
    [[nodiscard]] QString displayName() const override
    {
        return QStringLiteral("XPlane (TensorFlow / JAX profiler)");
    }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] bool writesOneTrace() const override { return true; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
};

} // namespace plumb
