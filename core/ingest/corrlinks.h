// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Counts the GPU ops that a CUDA call of the same trace launched, for formats whose launch -> GPU op
// links are the correlation key on both slices (slice.corr) and not flow events: Nsight Systems'
// exports and XPlane. What such a trace reports as its flows, as a Kineto trace reports its ac2g flows.
//
// Calls and ops come in any order. A call's key is a bit in a table per upper 32 bits of the key
// (CUPTI numbers calls from 1, so the tables stay dense; the Nsight importer widens keys with the
// process id); a key past that, and an op seen before its call, wait in a list resolved by links().

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace plumb {

class CorrLinkCounter {
public:
    void addLaunch(int64_t key);
    void addOp(int64_t key);
    // The ops whose key is a call's. Call after the last add.
    [[nodiscard]] int64_t links();

private:
    [[nodiscard]] bool launched(int64_t key) const;
    [[nodiscard]] std::vector<uint64_t> *bitsFor(int64_t key);

    std::unordered_map<uint32_t, std::vector<uint64_t>> m_bits; // key >> 32 -> bit (key & low mask)
    uint32_t m_lastHigh = 0;
    std::vector<uint64_t> *m_last = nullptr; // m_bits[m_lastHigh]: consecutive keys share it
    std::vector<int64_t> m_sparseLaunches; // keys whose low part is past the tables' limit
    std::vector<int64_t> m_pendingOps; // ops not yet known to be linked
    int64_t m_links = 0;
};

} // namespace plumb
