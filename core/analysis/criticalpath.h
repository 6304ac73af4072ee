// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <array>
#include <cstdint>
#include <vector>

namespace plumb {

class Workspace;

// Critical path analysis as Holistic Trace Analysis defines it (its critical_path_analysis), over
// one step or a range of steps of one trace. The trace becomes a DAG of points in time: the start
// and end of every CPU op and runtime call that starts in the window, and of every device op they
// launched. Edges, with weights in ns:
//   - nesting and order on each CPU thread (start -> first child's start -> ... -> end); consecutive
//     outermost ops are joined by a weightless edge (the thread may be idle between them);
//   - an op's own duration (start -> end) on the device;
//   - what a device op waited for: its launch (launch call start -> op start: launch overhead),
//     the previous op on its stream (end -> start: kernel-to-kernel overhead), or another stream's
//     op it waits on (cudaStreamWaitEvent, with the cuda_sync/cuda_event records of the trace);
//   - synchronisation: a sync call ends after the device work it waits for (op end -> call end;
//     the call's own wait weighs nothing).
// The longest path (topological order, linear in nodes + edges) is the critical path; each weighted
// edge on it is bound by the CPU (or data loading), device compute, communication, memory, kernel-to-
// kernel overhead or launch overhead.
//
// Two modes (docs/guide.md, "Critical path"):
//   Hta    HTA's model: CPU ops are cpu_op and runtime/driver calls; a device op waits for its launch
//          when its stream's queue (HTA's launch calls only) was empty at the launch and at its start,
//          else for the previous op on its stream if that was still running at the launch, else for
//          nothing; one device op per launch call (of a CUDA graph launch's kernels, one); syncs only
//          from the profiler's cuda_sync records; HTA's blocking calls (including cudaMemcpy and
//          cudaMemcpyAsync) weigh nothing; memcpy/memset on the path count as compute; times in whole
//          microseconds as HTA reads them.
//   Plumb  every slice of a CPU thread is a node (annotations and Python frames too, so the time of a
//          thread inside an enclosing range counts), up to the window's end; a device op waits for
//          whichever of its launch, its stream predecessor and its recorded cross-stream wait came
//          last; an op queued behind work launched before the window starts a path of its own; one
//          that starts long after all of those (kImplicitWaitNs) with no wait recorded waits on the
//          op of another stream that ended last before it; without cuda_sync records a sync call (any
//          backend's, and a copy call whose op ends inside it) is joined to the latest device op that
//          ended inside it; copies and sets count as memory; CPU work under an input-pipeline range
//          (DataLoader) counts as data loading; nanosecond times.
enum class CriticalPathMode { Plumb, Hta };

// "plumb" or "hta".
[[nodiscard]] QString criticalPathModeName(CriticalPathMode mode);

// What bounds an edge of the path; the keys are HTA's summary's (plus gpu_memory_bound, Plumb's mode).
enum class CriticalPathBound {
    Cpu,
    DataLoading,
    GpuCompute,
    GpuCommunication,
    GpuMemory,
    KernelKernel,
    Launch,
    None, // weightless ordering and synchronisation edges
};
inline constexpr int kCriticalPathBoundCount = 7; // the bounds before None

// "cpu_bound", "data_loading", "gpu_compute_bound", ... (JSON keys).
[[nodiscard]] QString criticalPathBoundKey(CriticalPathBound bound);
// "CPU", "data loading", "device compute", ... (for sentences; `device` is "GPU" or "device").
[[nodiscard]] QString criticalPathBoundName(
    CriticalPathBound bound, const QString &device = QStringLiteral("GPU"));

// The graph, for the algorithm alone (tests build it by hand). Nodes are indexes; an edge's weight is
// in ns (negative weights count as zero).
struct CriticalPathGraph {
    struct Edge {
        int32_t from = 0;
        int32_t to = 0;
        int64_t weightNs = 0;
        CriticalPathBound bound = CriticalPathBound::None;
    };
    int32_t nodeCount = 0;
    std::vector<Edge> edges;
};

// The longest path of a DAG: the edges on it (indexes into graph.edges, in path order), empty when the
// graph has no edge; `ok` false when the graph has a cycle. Kahn's topological order then one pass:
// O(nodes + edges). Among equally long paths the first edge added wins.
struct LongestPath {
    bool ok = true;
    int64_t lengthNs = 0;
    std::vector<int32_t> edges;
};
[[nodiscard]] LongestPath longestPath(const CriticalPathGraph &graph);

struct CriticalPathOptions {
    CriticalPathMode mode = CriticalPathMode::Plumb;
    QString step; // a step's name (ProfilerStep#7); empty: the second step, or the only one
    QString lastStep; // with `step`: a range of steps, both included
};

// A slice on the critical path (for the timeline's overlay): its track and start (trace time).
struct CriticalPathSlice {
    int64_t trackId = 0;
    int64_t startNs = 0; // slice.ts
    int64_t endNs = 0; // slice.ts + slice.dur
    int depth = 0; // slice.depth
};

struct CriticalPath {
    bool ok = false;
    QString note; // why there is none (no steps, no such step, a cycle), for people
    CriticalPathMode mode = CriticalPathMode::Plumb;
    QString step; // the step's name ("ProfilerStep#6", "ProfilerStep#6..ProfilerStep#8")
    int64_t fromNs = 0; // the window (trace time)
    int64_t toNs = 0;
    int64_t lengthNs = 0; // the path's length: the sum of its weights
    std::array<int64_t, kCriticalPathBoundCount> boundNs {}; // by CriticalPathBound
    int64_t nodeCount = 0;
    int64_t edgeCount = 0;
    std::vector<CriticalPathSlice> slices; // on the path, by track then start

    // The share of the path a bound takes, in % (0 when the path is empty).
    [[nodiscard]] double pct(CriticalPathBound bound) const
    {
        return lengthNs > 0 ? 100.0 * double(boundNs[size_t(bound)]) / double(lengthNs) : 0.0;
    }
};

[[nodiscard]] CriticalPath criticalPath(
    Workspace &ws, int64_t traceId, const CriticalPathOptions &options = {});

// "critical path 42.7 ms: device compute 61%, CPU 37%, ..." (shares of at least 1%, largest first).
[[nodiscard]] QString criticalPathSentence(
    const CriticalPath &path, const QString &device = QStringLiteral("GPU"));

} // namespace plumb
