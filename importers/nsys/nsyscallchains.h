// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <atomic>
#include <cstdint>
#include <future>
#include <tuple>
#include <utility>
#include <vector>

namespace plumb::nsys {

class NsysSchema;

// The backtraces of one callchain table (SAMPLING_CALLCHAINS of the CPU samples, OSRT_CALLCHAINS and
// CUDA_CALLCHAINS of OS runtime and CUDA calls), read on a connection of their own while the phases
// before their events' are merged: each distinct stack once (leaf first, at most kMaxFrames frames of
// StringIds symbol and module, and whether the symbol is unresolved, an address), and per callchain id
// its stack's index: 4 bytes an id while the ids are dense, as nsys numbers them (a long capture holds
// tens of millions), else (id, index) pairs.
class NsysCallchains {
public:
    using Frame = std::tuple<int64_t, int64_t, bool>;
    static constexpr uint32_t kNone = UINT32_MAX;
    static constexpr size_t kMaxFrames = 16;

    // Whether the export has the backtrace table `table` in a layout read() reads.
    [[nodiscard]] static bool exists(NsysSchema &schema, const char *table);
    // Reads `table` on a thread and connection of its own when the export has it and its events'
    // table `events`; an invalid future otherwise. Setting `stop` abandons the read (an empty result).
    [[nodiscard]] static std::future<NsysCallchains> start(NsysSchema &schema, const QString &path,
        const char *table, const char *events, std::atomic<bool> &stop);

    void add(int64_t id, uint32_t stack);
    // The stack index of a callchain id; kNone when it has no backtrace.
    [[nodiscard]] uint32_t find(int64_t id) const;

    std::vector<std::vector<Frame>> stacks;

private:
    int64_t m_firstId = 0;
    std::vector<uint32_t> m_byId; // index id - m_firstId; kNone: no backtrace
    std::vector<std::pair<int64_t, uint32_t>> m_sparse; // when the ids are not dense, ascending
};

} // namespace plumb::nsys
