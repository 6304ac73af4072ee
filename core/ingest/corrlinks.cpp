// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/corrlinks.h"

#include <algorithm>

namespace plumb {

namespace {
// Low parts up to 2^27 in a table (16 MB at most, touched only up to the largest key seen).
constexpr uint64_t kTableBits = uint64_t(1) << 27;

uint64_t lowOf(int64_t key)
{
    return uint64_t(key) & 0xffffffffu;
}
uint32_t highOf(int64_t key)
{
    return uint32_t(uint64_t(key) >> 32);
}
} // namespace

std::vector<uint64_t> *CorrLinkCounter::bitsFor(int64_t key)
{
    const uint32_t high = highOf(key);
    if (!m_last || high != m_lastHigh) {
        m_lastHigh = high;
        m_last = &m_bits[high];
    }
    return m_last;
}

void CorrLinkCounter::addLaunch(int64_t key)
{
    const uint64_t low = lowOf(key);
    if (low >= kTableBits) {
        m_sparseLaunches.push_back(key);
        return;
    }
    std::vector<uint64_t> &bits = *bitsFor(key);
    if (low / 64 >= bits.size())
        bits.resize(low / 64 + 1); // the vector's own growth keeps this amortised
    bits[low / 64] |= uint64_t(1) << (low % 64);
}

bool CorrLinkCounter::launched(int64_t key) const
{
    const uint64_t low = lowOf(key);
    if (low >= kTableBits)
        return std::binary_search(m_sparseLaunches.begin(), m_sparseLaunches.end(), key);
    const auto it = m_bits.find(highOf(key));
    return it != m_bits.end() && low / 64 < it->second.size()
        && (it->second[low / 64] >> (low % 64) & 1) != 0;
}

void CorrLinkCounter::addOp(int64_t key)
{
    const uint64_t low = lowOf(key);
    if (low < kTableBits) {
        const std::vector<uint64_t> &bits = *bitsFor(key);
        if (low / 64 < bits.size() && (bits[low / 64] >> (low % 64) & 1) != 0) {
            ++m_links;
            return;
        }
    }
    m_pendingOps.push_back(key);
}

int64_t CorrLinkCounter::links()
{
    std::sort(m_sparseLaunches.begin(), m_sparseLaunches.end());
    for (const int64_t key : m_pendingOps)
        m_links += launched(key) ? 1 : 0;
    m_pendingOps.clear();
    return m_links;
}

} // namespace plumb
