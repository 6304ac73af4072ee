// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Host annotation ranges (NVTX ranges, PyTorch's record_function) projected onto the GPU, as Nsight
// Systems draws NVTX ranges under each CUDA stream and PyTorch's profiler writes gpu_user_annotation
// events: on each GPU lane (a stream), a range spans the GPU ops launched by the CUDA calls made
// inside it, from the first op's start to the last op's end; every range around such a call is
// projected, so the host's nesting carries over. A range whose calls launched nothing, and an op
// whose call was made outside every range, project nothing.
//
// Plain C++ (no Qt), shared by the Nsight importer and the CUPTI collector's trace writer. Fed in
// three passes, each in its order:
//
//   1. addRange(): each thread's ranges by start, an enclosing range before what it encloses (for the
//      same start, the longer first), one thread after another;
//   2. addLaunch(): each thread's CUDA calls by start, one thread after another;
//   3. addOp(): the GPU ops, in any order (fastest when an op follows another of its lane and range).
//
// Calls and ops are matched on a correlation key (CUPTI's correlation id, or one widened with the
// process id when processes number their calls alike).

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace plumb {

class RangeProjection {
public:
    // `expectedCalls`: about how many CUDA calls pass 2 brings (keys below a few times that are kept
    // in a table, CUPTI's correlation ids counting from 1; others in a sorted list).
    explicit RangeProjection(int64_t expectedCalls = 0);

    // Pass 1. The range's index (0, 1, ... in the order given), or -1 when it is not kept: empty, or
    // its thread's ranges came earlier in another run (not in the order above).
    int64_t addRange(int64_t thread, int64_t start, int64_t end);
    // Pass 2: the CUDA call `key` on `thread` at `ts` (inside whichever ranges are open then).
    void addLaunch(int64_t key, int64_t thread, int64_t ts);
    // Pass 3: a GPU op of `lane` in [start, end), launched by the call `key`.
    void addOp(int64_t key, int64_t lane, int64_t start, int64_t end);

    [[nodiscard]] bool hasRanges() const { return !m_ranges.empty(); }
    [[nodiscard]] bool hasLaunches() const { return !m_table.empty() || !m_sparse.empty(); }

    struct Span {
        int64_t lane = 0;
        int64_t start = 0;
        int64_t end = 0;
        int64_t range = 0; // addRange()'s index
        int64_t ops = 0; // GPU ops inside, those of enclosed ranges included
    };
    // The projections, by lane, then start, an enclosing one first (the longer, or the outer range of
    // two with the same span). Call once, after pass 3.
    [[nodiscard]] std::vector<Span> spans();

private:
    struct Range {
        int64_t start = 0;
        int64_t end = 0;
        int64_t parent = -1; // the innermost range of its thread open when it starts
    };
    struct PairHash {
        size_t operator()(const std::pair<int64_t, int64_t> &k) const noexcept
        {
            return size_t((uint64_t(k.first) * 0x9e3779b97f4a7c15ull) ^ uint64_t(k.second));
        }
    };

    // The innermost of `thread`'s ranges open at `ts` (-1: none), asked in time order per thread.
    int64_t openAt(int64_t thread, int64_t ts);
    [[nodiscard]] int64_t rangeOfCall(int64_t key);
    // The extent of (range, lane), made empty if new.
    size_t extentOf(int64_t range, int64_t lane, int64_t start, int64_t end);

    int64_t m_tableLimit;
    std::vector<Range> m_ranges;
    std::unordered_map<int64_t, std::pair<size_t, size_t>> m_byThread; // thread -> [first, last)
    // The sweep over one thread's ranges: those open at the last time asked, innermost last, and the
    // next one not yet opened.
    int64_t m_sweepThread = 0;
    bool m_sweeping = false;
    bool m_launching = false;
    std::vector<int64_t> m_open;
    size_t m_next = 0, m_end = 0;
    // Call key -> innermost range around the call.
    std::vector<uint32_t> m_table;
    std::vector<std::pair<int64_t, uint32_t>> m_sparse;
    bool m_sparseSorted = false;
    // One extent per (range, lane), found through the map; the last one extended, as the next op of a
    // lane usually extends it too.
    std::vector<Span> m_extents;
    std::unordered_map<std::pair<int64_t, int64_t>, size_t, PairHash> m_extentIndex;
    std::pair<int64_t, int64_t> m_lastKey { -1, -1 };
    size_t m_last = 0;
};

} // namespace plumb
