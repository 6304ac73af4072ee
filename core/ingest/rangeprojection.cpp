// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/rangeprojection.h"

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace plumb {

namespace {
constexpr uint32_t kNone = UINT32_MAX;
}

RangeProjection::RangeProjection(int64_t expectedCalls)
    : m_tableLimit(std::max<int64_t>(expectedCalls, 0) * 4 + 1024)
{
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
        m_launching = true;
        m_sweeping = false; // a new sweep, over the calls
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

size_t RangeProjection::extentOf(int64_t range, int64_t lane, int64_t start, int64_t end)
{
    const auto [it, added] = m_extentIndex.try_emplace({ range, lane }, m_extents.size());
    if (added)
        m_extents.push_back({ lane, start, end, range, 0 });
    return it->second;
}

void RangeProjection::addOp(int64_t key, int64_t lane, int64_t start, int64_t end)
{
    const int64_t range = rangeOfCall(key);
    if (range < 0)
        return;
    const std::pair k { range, lane };
    if (k != m_lastKey) {
        m_lastKey = k;
        m_last = extentOf(range, lane, start, end);
    }
    Span &e = m_extents[m_last];
    e.start = std::min(e.start, start);
    e.end = std::max(e.end, end);
    ++e.ops;
}

std::vector<RangeProjection::Span> RangeProjection::spans()
{
    // Each extent folded into its range's parent on the same lane, the ranges taken from the last to
    // the first: a parent comes before what it encloses in pass 1, so it is folded after all of them.
    constexpr size_t kEnd = SIZE_MAX;
    std::vector<size_t> first(m_ranges.size(), kEnd), next;
    auto link = [&](size_t e) {
        next.resize(m_extents.size(), kEnd);
        next[e] = first[size_t(m_extents[e].range)];
        first[size_t(m_extents[e].range)] = e;
    };
    for (size_t e = 0; e < m_extents.size(); ++e)
        link(e);
    for (size_t r = m_ranges.size(); r-- > 0;) {
        const int64_t parent = m_ranges[r].parent;
        if (parent < 0)
            continue;
        for (size_t e = first[r]; e != kEnd; e = next[e]) {
            const Span child = m_extents[e];
            const size_t before = m_extents.size();
            const size_t p = extentOf(parent, child.lane, child.start, child.end);
            if (m_extents.size() != before)
                link(p);
            Span &q = m_extents[p];
            q.start = std::min(q.start, child.start);
            q.end = std::max(q.end, child.end);
            q.ops += child.ops;
        }
    }
    std::vector<Span> out = std::move(m_extents);
    m_extents.clear();
    m_extentIndex.clear();
    m_lastKey = { -1, -1 };
    std::sort(out.begin(), out.end(), [](const Span &a, const Span &b) {
        return std::tie(a.lane, a.start, b.end, a.range) < std::tie(b.lane, b.start, a.end, b.range);
    });
    return out;
}

} // namespace plumb
