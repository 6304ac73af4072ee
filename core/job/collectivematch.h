// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QString>

#include <algorithm>

#include <cstdint>
#include <utility>
#include <vector>

namespace plumb {

// One collective call matched across the ranks that made it. The rank that arrived last waited for
// nobody: its kernel is the shortest, and each other rank's kernel is longer by the time it waited for
// that rank. Kernel durations, unlike start times, need no clock shared by the ranks' hosts.
struct MatchedCollective {
    QString matchKey; // the process group; "op:" + collective when the trace names none
    int64_t seq = 0; // the call's place among each rank's calls of that key
    QString collective;
    int64_t step = -1; // the step of the call on the last rank to arrive
    int64_t ranks = 0;
    int64_t lastRank = -1;
    int64_t waitNs = 0; // the others' mean wait for the last rank
    int64_t maxWaitNs = 0;
};

// Matches the collective calls of a job's ranks, fed one rank at a time (memory: one entry per call of
// a rank, whatever the number of ranks). Calls with a process group match by (group, seq); calls
// without one by (collective, order among the rank's calls of that collective).
class CollectiveMatcher {
public:
    // A rank's call, in the order of its `seq` within its process group (collective_call's order).
    void add(int64_t rank, const QString &processGroup, const QString &collective, int64_t seq, int64_t step,
        int64_t durNs)
    {
        add(rank, key(processGroup, collective), collective, seq, step, durNs);
    }
    // The same, its match key looked up once by key() for the calls that share it (millions in a job).
    [[nodiscard]] int key(const QString &processGroup, const QString &collective);
    void add(int64_t rank, int key, const QString &collective, int64_t seq, int64_t step, int64_t durNs);
    // Whether the key's calls match by their order (no process group): add() needs them in `seq` order.
    [[nodiscard]] bool byOrder(int key) const { return m_keyUnnamed[size_t(key)]; }
    // Call after the last add() of a rank, before the next rank's.
    void endRank() { std::fill(m_unnamed.begin(), m_unnamed.end(), 0); }
    [[nodiscard]] std::vector<MatchedCollective> matched() const;

private:
    struct Acc {
        QString collective;
        int64_t ranks = 0, sumNs = 0, minNs = INT64_MAX, maxNs = INT64_MIN, minRank = -1, minStep = -1;
    };
    QHash<QString, int> m_keyIndex; // match key -> index in m_keys
    std::vector<QString> m_keys;
    std::vector<bool> m_keyUnnamed; // by key: a collective without a process group ("op:" + collective)
    std::vector<std::vector<Acc>> m_calls; // by key, by seq (from 0 in each key, as collective_call's)
    std::vector<int64_t> m_unnamed; // by key: this rank's next seq of a collective without a group
};

} // namespace plumb
