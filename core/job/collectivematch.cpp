// SPDX-License-Identifier: GPL-3.0-or-later
#include "job/collectivematch.h"

namespace plumb {

void CollectiveMatcher::add(int64_t rank, const QString &processGroup, const QString &collective, int64_t seq,
    int64_t step, int64_t durNs)
{
    QString key = processGroup;
    if (key.isEmpty()) {
        key = QStringLiteral("op:") + collective;
        seq = m_unnamed[collective]++;
    }
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
        m.matchKey = key.first;
        m.seq = key.second;
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
