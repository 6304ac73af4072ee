// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace plumb {

class Workspace;

// What the host did: the CPU work of a trace's threads as a call tree, as hotspot shows perf data.
//
// Built from one of two sources:
//  - Slices: the nested duration slices of the CPU threads (aten ops, `python_function` frames from
//    `with_stack=True`, NVTX ranges, user annotations) and of their CUDA API companion tracks (a
//    launch nests in the op that made it). Nesting is recomputed from start and end (a slice is the
//    child of the innermost open slice that holds all of it), so a thread and its companions form one
//    stack, and a slice that starts inside a call and outlives it (Kineto's ProfilerStep ranges start
//    inside the Python frame of profiler.step()) belongs to the caller that holds it. A slice partly
//    inside the range counts its part inside.
//  - Samples: Nsight Systems' CPU samples (`--sample`: the 'cpu_samples' tracks, each sample's
//    backtrace in its args), a sample being one path from the outermost frame to the leaf. A sample
//    stands for the thread's sampling period (the median gap between its consecutive samples), so
//    times are estimates; count is the number of samples.
//
// The top-down tree's root is the whole selection; its children are the outermost functions. Nodes
// are merged by name along the path (same name under the same parent: one node), and threads are
// merged (choose a thread to see one).
enum class CallTreeSource { Slices, Samples };

// A thread of a trace as the call tree can select it: its own track and its companion tracks.
struct CallTreeThread {
    QString key; // "process id:thread label", stable for the trace
    QString label; // "python (123) / thread 456 MainThread" for people
    std::vector<int64_t> sliceTracks; // 'thread' and 'cuda_api' tracks
    std::vector<int64_t> sampleTracks; // 'cpu_samples' tracks
    int64_t sliceCount = 0; // slices on sliceTracks
    int64_t sampleCount = 0; // samples on sampleTracks
};
// The CPU threads of a trace (processes of kind 'cpu'), most slices first.
[[nodiscard]] std::vector<CallTreeThread> callTreeThreads(Workspace &ws, int64_t traceId);

struct CallTreeQuery {
    int64_t traceId = -1;
    QString threadKey; // one thread (CallTreeThread::key); empty: every CPU thread
    int64_t fromNs = INT64_MIN; // trace time, [fromNs, toNs)
    int64_t toNs = INT64_MAX;
    CallTreeSource source = CallTreeSource::Slices;
};

struct CallTreeNode {
    int32_t parent = -1; // -1 for the root
    int32_t name = -1; // index into CallTree::names; -1 for the root
    int64_t totalNs = 0; // inside the range; the root's: the selection's work
    int64_t selfNs = 0; // totalNs less the children's time inside this node
    int64_t count = 0; // calls (slices overlapping the range) or samples
    std::vector<int32_t> children; // most total first (bottom-up: most self first)
};

struct CallTree {
    CallTreeSource source = CallTreeSource::Slices;
    bool bottomUp = false;
    std::vector<QString> names;
    std::vector<CallTreeNode> nodes; // [0] the root
    int64_t fromNs = 0; // the range actually covered (trace time): the query's, clipped to the work read
    int64_t toNs = 0;
    int64_t items = 0; // slices or samples read
    int64_t samplePeriodNs = 0; // Samples: the time one sample stands for

    [[nodiscard]] int64_t rangeNs() const { return toNs > fromNs ? toNs - fromNs : 0; }
    [[nodiscard]] const QString &nameOf(int32_t node) const;
    // The names from the root's child down to the node, without the root: outermost first (top-down),
    // or the function then its callers (bottom-up).
    [[nodiscard]] std::vector<int32_t> path(int32_t node) const;
};

// The top-down call tree of `query`, read in one read transaction.
[[nodiscard]] CallTree callTree(Workspace &ws, const CallTreeQuery &query);

// The bottom-up tree of a top-down tree: each function at the top (merged by name) with its self time
// everywhere and its total time with recursion counted once (an occurrence inside another of the same
// function adds nothing), and under it its callers, their callers, and so on; a node's figures are the
// function's along that chain of callers.
[[nodiscard]] CallTree bottomUpTree(const CallTree &topDown);

// The top-down nodes behind a node of `tree` (`topDown` itself, or the tree bottomUpTree() made from
// it): a top-down node itself; for a bottom-up node, every top-down node of its function with that
// chain of callers.
[[nodiscard]] std::vector<int32_t> topDownNodesOf(
    const CallTree &topDown, const CallTree &tree, int32_t node);

// A slice (or sample) aggregated in a call tree node, with its key in the slice table.
struct CallTreeSlice {
    int64_t trackId = 0;
    int64_t tsNs = 0; // slice.ts (trace time)
    int64_t id = 0;
    int64_t durNs = 0;
    int depth = 0; // slice.depth
};
// The slices that the top-down nodes `nodes` of callTree(ws, query) aggregate (samples: those whose
// stack passes through one of them), by track then start; at most `limit` of them.
[[nodiscard]] std::vector<CallTreeSlice> callTreeSlices(
    Workspace &ws, const CallTreeQuery &query, const std::vector<int32_t> &nodes, size_t limit = 1'000'000);

// The CPU range of a trace's step named `step` ("ProfilerStep#6", or its number), trace time.
[[nodiscard]] std::optional<std::pair<int64_t, int64_t>> callTreeStepRange(
    Workspace &ws, int64_t traceId, const QString &step);

} // namespace plumb
