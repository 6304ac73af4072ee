// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

namespace plumb {

// Nsight Systems SQLite export (`nsys export --type sqlite`), 2021.x to 2024.x layouts.
//
// Maps one export onto one trace: each host process (pid = bits 24-47 of globalTid/globalPid) ->
// process, each thread (tid = bits 0-23) -> thread track; CUDA runtime/driver calls -> the thread's
// CudaApi companion track (names without their `_v7000`-style version suffix); NVTX ranges and marks
// and OS runtime calls -> the thread track; kernels, memcpy, memset -> one GPU stream track per
// (device, stream) in a per-device GPU process; CUDA synchronisation -> a track per (device, stream)
// beside them. Categories are the Chrome importer's (kernel, gpu_memcpy, gpu_memset, cuda_runtime,
// cuda_driver, cuda_sync) plus nvtx and osrt. A launch and its GPU op share slice.corr: the
// correlation id, made unique per process (pid << 32 | id) when several processes made CUDA calls.
//
// The schema is discovered, never assumed: tables exist only for what was captured, and columns
// differ between versions, so each table is read through the columns it has. Tables are read
// ordered by track and start time (sorted in memory up to a budget, by SQLite beyond it, see
// SortedTableReader) and merged, so every track receives its slices in time order. Strings are
// resolved through StringIds on demand and cached per id.
//
// The file is opened read-only and immutable; it is never written.
class NsysImporter final : public Importer {
public:
    [[nodiscard]] QString id() const override { return QStringLiteral("nsys"); }
    [[nodiscard]] QString displayName() const override
    {
        return QStringLiteral("Nsight Systems SQLite export");
    }
    [[nodiscard]] int version() const override { return 1; }
    [[nodiscard]] bool writesOneTrace() const override { return true; }
    [[nodiscard]] int sniff(QByteArrayView head, const QString &fileName) const override;
    void read(ImportContext &ctx) const override;
};

} // namespace plumb
