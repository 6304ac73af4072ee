// SPDX-License-Identifier: GPL-3.0-or-later
#include "job/collectivematch.h"

#include <algorithm>

namespace plumb {

int CollectiveMatcher::key(const QString &processGroup, const QString &collective)
{
    const bool unnamed = processGroup.isEmpty();
    const QString name = unnamed ? QStringLiteral("op:") + collective : processGroup;
    const auto it = m_keyIndex.constFind(name);
    if (it != m_keyIndex.constEnd())
        return *it;
    m_keys.push_back(name);
    m_keyUnnamed.push_back(unnamed);
    m_unnamed.push_back(0);
    return m_keyIndex[name] = int(m_keys.size() - 1);
}

void CollectiveMatcher::add(
    int64_t rank, int key, const QString &collective, int64_t seq, int64_t step, int64_t durNs)
{
    if (m_keyUnnamed[size_t(key)])
        seq = m_unnamed[size_t(key)]++;
    Acc &a = m_calls[{ key, seq }];
    if (a.collective.isEmpty())
        a.collective = collective;
    ++a.ranks;
    a.sumNs += durNs;
    a.maxNs = std::max(a.maxNs, durNs);
    // Ties go to the lower rank: the result does not depend on the order ranks are fed in.
    if (durNs < a.minNs || (durNs == a.minNs && rank < a.minRank)) {
        a.minNs = durNs;
        a.minRank = rank;
        a.minStep = step;
    }
}

std::vector<MatchedCollective> CollectiveMatcher::matched() const
{
    std::vector<MatchedCollective> out;
    out.reserve(m_calls.size());
    for (const auto &[key, a] : m_calls) {
        MatchedCollective m;
        m.matchKey = m_keys[size_t(key.first)];
        m.seq = key.second;
        m.collective = a.collective;
        m.step = a.minStep;
        m.ranks = a.ranks;
        m.lastRank = a.minRank;
        m.waitNs = a.ranks > 1 ? (a.sumNs - a.minNs) / (a.ranks - 1) - a.minNs : 0;
        m.maxWaitNs = a.maxNs - a.minNs;
        out.push_back(m);
    }
    // In the order of the keys' names, then of seq.
    std::stable_sort(out.begin(), out.end(),
        [](const MatchedCollective &x, const MatchedCollective &y) { return x.matchKey < y.matchKey; });
    return out;
}

} // namespace plumb
