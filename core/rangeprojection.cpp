#include "rangeprojection.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

namespace plumb {

namespace {
constexpr uint32_t kNone = UINT32_MAX;
}

RangeProjection::RangeProjection(int64_t expectedCalls)
    : m_tableLimit(std::max<int64_t>(expectedCalls, 0) * 4 + 1024)
{
}

void RangeProjection::resetSweep()
{
    m_sweeping = false;
    m_open.clear();
}

int64_t RangeProjection::openAt(int64_t thread, int64_t ts)
{
    if (!m_sweeping || thread != m_sweepThread) {
        m_sweeping = true;
        m_sweepThread = thread;
        m_open.clear();
        const auto it = m_byThread.find(thread);
        m_next = it == m_byThread.end() ? 0 : it->second.first;
        m_end = it == m_byThread.end() ? 0 : it->second.second;
    }
    for (; m_next < m_end && m_ranges[m_next].start <= ts; ++m_next) {
        while (!m_open.empty() && m_ranges[size_t(m_open.back())].end <= m_ranges[m_next].start)
            m_open.pop_back();
        m_open.push_back(int64_t(m_next));
    }
    while (!m_open.empty() && m_ranges[size_t(m_open.back())].end <= ts)
        m_open.pop_back();
    return m_open.empty() ? -1 : m_open.back();
}

int64_t RangeProjection::addRange(int64_t thread, int64_t start, int64_t end)
{
    if (end <= start || m_ranges.size() >= kNone)
        return -1;
    if (!m_sweeping || thread != m_sweepThread) {
        if (m_byThread.count(thread))
            return -1;
        m_byThread[thread] = { m_ranges.size(), m_ranges.size() };
    }
    // Its parent: the innermost range open as it starts (it is not open yet itself).
    const int64_t parent = openAt(thread, start);
    m_ranges.push_back({ start, end, parent });
    m_end = ++m_byThread[thread].second;
    return int64_t(m_ranges.size() - 1);
}

void RangeProjection::addLaunch(int64_t key, int64_t thread, int64_t ts)
{
    if (m_ranges.empty())
        return;
    if (!m_launching) {
        m_launching = true; // a new sweep, over the calls
        resetSweep();
    }
    const int64_t range = openAt(thread, ts);
    if (range < 0)
        return;
    if (key >= 0 && key < m_tableLimit) {
        if (size_t(key) >= m_table.size())
            m_table.resize(size_t(key) + 1, kNone); // the vector's own growth keeps this amortised
        m_table[size_t(key)] = uint32_t(range);
    } else {
        m_sparse.emplace_back(key, uint32_t(range));
        m_sparseSorted = false;
    }
}

int64_t RangeProjection::rangeOfCall(int64_t key)
{
    if (key >= 0 && size_t(key) < m_table.size() && m_table[size_t(key)] != kNone)
        return int64_t(m_table[size_t(key)]);
    if (m_sparse.empty())
        return -1;
    if (!m_sparseSorted) {
        m_sparseSorted = true;
        std::sort(m_sparse.begin(), m_sparse.end());
    }
    const auto it = std::lower_bound(m_sparse.begin(), m_sparse.end(), std::pair(key, uint32_t(0)));
    return it != m_sparse.end() && it->first == key ? int64_t(it->second) : -1;
}

void RangeProjection::addOp(int64_t key, int64_t lane, int64_t start, int64_t end)
{
    const int64_t range = rangeOfCall(key);
    if (range < 0)
        return;
    const std::pair k { range, lane };
    if (k != m_lastKey || !m_last) {
        m_lastKey = k;
        m_last = &m_extents.try_emplace(k, Extent { start, end, 0 }).first->second;
    }
    m_last->start = std::min(m_last->start, start);
    m_last->end = std::max(m_last->end, end);
    ++m_last->ops;
}

std::vector<RangeProjection::Span> RangeProjection::spans()
{
    // Enclosed ranges first (a range comes after its parent in pass 1), each folded into its parent.
    std::map<std::pair<int64_t, int64_t>, Extent, std::greater<>> all(m_extents.begin(), m_extents.end());
    m_extents.clear();
    m_last = nullptr;
    for (auto &[key, e] : all) {
        const int64_t parent = m_ranges[size_t(key.first)].parent;
        if (parent < 0)
            continue;
        auto [p, added] = all.try_emplace({ parent, key.second }, Extent { e.start, e.end, 0 });
        p->second.start = std::min(p->second.start, e.start);
        p->second.end = std::max(p->second.end, e.end);
        p->second.ops += e.ops;
    }
    std::vector<Span> out;
    out.reserve(all.size());
    for (const auto &[key, e] : all)
        out.push_back({ key.second, e.start, e.end, key.first, e.ops });
    std::sort(out.begin(), out.end(), [](const Span &a, const Span &b) {
        return std::tie(a.lane, a.start, b.end, a.range) < std::tie(b.lane, b.start, a.end, b.range);
    });
    return out;
}

} // namespace plumb
