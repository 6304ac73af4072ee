// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/corrlinks.h"
#include "ingest/rangeprojection.h"
#include "nsys/nsysargs.h"
#include "nsys/nsyscpusamples.h"
#include "nsys/nsyscuda.h"
#include "nsys/nsysgpumetrics.h"
#include "nsys/nsyshostcalls.h"
#include "nsys/nsysmemoryusage.h"
#include "nsys/nsysnvtx.h"
#include "nsys/nsysscheduling.h"
#include "nsys/nsysschema.h"
#include "nsys/nsysstrings.h"
#include "nsys/nsystracks.h"

#include <atomic>
#include <memory>
#include <vector>

namespace plumb {
class ImportContext;
} // namespace plumb

namespace plumb::nsys {

struct NsysCursor;

// Reads one Nsight Systems export into the import's trace sink. The export's event tables (see
// tableSpecs()) are read phase by phase, each table ordered by track and start time (sorted in memory
// up to a budget, in spilled runs beyond it, see SortedTableReader) on loader threads while the
// previous phase is written, and the tables of a phase merged, so every track receives its slices in
// time order. Each row goes to its table family: CUDA (NsysCuda), NVTX (NsysNvtx), OS runtime and
// library calls (NsysHostCalls), CPU samples (NsysCpuSamples), thread scheduling (NsysScheduling), GPU
// metrics (NsysGpuMetrics) and GPU memory usage (NsysMemoryUsage); they share the export's schema and
// strings, its processes and tracks, and one args buffer.
class NsysReader {
public:
    explicit NsysReader(ImportContext &ctx);
    ~NsysReader();

    void run();

private:
    void openCursors();
    void handle(NsysCursor &c);
    void progress();

    ImportContext &m_ctx;
    TraceSink &m_sink;
    DiagnosticLog &m_diag;
    NsysSchema m_schema; // first: a file that is not an export throws before anything is written
    NsysStrings m_strings;
    NsysTracks m_tracks;
    NsysArgs m_args;
    RangeProjection m_projection; // NVTX ranges onto the GPU ops their CUDA calls launched
    CorrLinkCounter m_links; // the trace's launch -> GPU op links, its flows
    // The table families, in the order their categories were always interned.
    NsysCuda m_cuda;
    NsysNvtx m_nvtx;
    NsysHostCalls m_hostCalls;
    NsysCpuSamples m_cpuSamples;
    NsysScheduling m_scheduling;
    NsysGpuMetrics m_gpuMetrics;
    NsysMemoryUsage m_memoryUsage;

    std::vector<std::unique_ptr<NsysCursor>> m_cursors;
    int64_t m_rows = 0;
    int64_t m_totalRows = 0;
    std::atomic<bool> m_stopLoading { false }; // abandons the loader threads' tables (see run())
    std::vector<char> m_readAhead;
};

} // namespace plumb::nsys
