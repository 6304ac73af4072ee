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
    m_calls.emplace_back();
    return m_keyIndex[name] = int(m_keys.size() - 1);
}

void CollectiveMatcher::add(
    int64_t rank, int key, const QString &collective, int64_t seq, int64_t step, int64_t durNs)
{
    if (m_keyUnnamed[size_t(key)])
        seq = m_unnamed[size_t(key)]++;
    if (seq < 0)
        return; // not a call's place in its group
    std::vector<Acc> &calls = m_calls[size_t(key)];
    if (size_t(seq) >= calls.size())
        calls.resize(size_t(seq) + 1);
    Acc &a = calls[size_t(seq)];
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
    // In the order of the keys' names, then of seq.
    std::vector<size_t> keys(m_keys.size());
    for (size_t k = 0; k < keys.size(); ++k)
        keys[k] = k;
    std::sort(keys.begin(), keys.end(), [this](size_t a, size_t b) { return m_keys[a] < m_keys[b]; });
    for (size_t k : keys)
        for (size_t seq = 0; seq < m_calls[k].size(); ++seq) {
            const Acc &a = m_calls[k][seq];
            if (a.ranks == 0)
                continue; // no rank made a call of that place
            MatchedCollective m;
            m.matchKey = m_keys[k];
            m.seq = int64_t(seq);
            m.collective = a.collective;
            m.step = a.minStep;
            m.ranks = a.ranks;
            m.lastRank = a.minRank;
            m.waitNs = a.ranks > 1 ? (a.sumNs - a.minNs) / (a.ranks - 1) - a.minNs : 0;
            m.maxWaitNs = a.maxNs - a.minNs;
            out.push_back(m);
        }
    return out;
}

} // namespace plumb
