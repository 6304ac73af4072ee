// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/launchstats.h"

#include <algorithm>
#include <climits>
#include <deque>
#include <optional>
#include <unordered_map>

namespace plumb {

namespace {

int64_t enterNs(const GpuOp &op)
{
    return op.launchNs >= 0 ? std::min(op.launchNs, op.startNs) : op.startNs;
}

int64_t exitNs(const GpuOp &op)
{
    return std::max(op.endNs, enterNs(op));
}

// Collects the queue's changes into a step series, exact or reduced to per-bucket maxima. Changes
// come in time order; of several at the same time only the last counts (an op can leave and
// another enter at one instant).
class SeriesBuilder {
public:
    SeriesBuilder(StreamQueue &q, int maxPoints)
        : m_q(q)
    {
        const int64_t span = std::max<int64_t>(1, q.lastNs - q.firstNs);
        m_q.reduced = maxPoints > 0 && 2 * q.ops > maxPoints;
        if (m_q.reduced)
            m_bucketNs = (span + maxPoints - 1) / maxPoints;
    }

    void change(int64_t timeNs, int32_t queued)
    {
        if (timeNs != m_atNs && m_atNs != INT64_MIN)
            commit(m_atNs, m_atValue);
        m_atNs = timeNs;
        m_atValue = queued;
    }

    void finish()
    {
        if (m_atNs != INT64_MIN)
            commit(m_atNs, m_atValue);
        if (m_q.reduced && m_bucket >= 0) {
            push(bucketStart(m_bucket), m_bucketMax);
            push(m_q.lastNs, 0);
        }
        const int64_t span = m_q.lastNs - m_q.firstNs;
        m_q.meanQueued = span > 0 ? m_area / double(span) : 0.0;
    }

private:
    void commit(int64_t timeNs, int32_t queued)
    {
        m_area += double(m_value) * double(timeNs - m_lastNs);
        m_lastNs = timeNs;
        m_value = queued;
        m_q.maxQueued = std::max(m_q.maxQueued, queued);
        if (!m_q.reduced) {
            push(timeNs, queued);
            return;
        }
        const int64_t bucket = (timeNs - m_q.firstNs) / m_bucketNs;
        if (bucket != m_bucket) {
            if (m_bucket >= 0) {
                push(bucketStart(m_bucket), m_bucketMax);
                if (bucket > m_bucket + 1) // buckets with no change hold the value carried into them
                    push(bucketStart(m_bucket + 1), m_carried);
            }
            m_bucket = bucket;
            // The value carried in counts only when it held for part of this bucket.
            m_bucketMax = timeNs > bucketStart(bucket) ? m_carried : queued;
        }
        m_bucketMax = std::max(m_bucketMax, queued);
        m_carried = queued;
    }

    [[nodiscard]] int64_t bucketStart(int64_t bucket) const { return m_q.firstNs + bucket * m_bucketNs; }
    void push(int64_t timeNs, int32_t queued)
    {
        auto &s = m_q.series;
        if (!s.empty() && s.back().timeNs == timeNs) {
            s.back().queued = m_q.reduced ? std::max(s.back().queued, queued) : queued;
            if (s.size() >= 2 && s[s.size() - 2].queued == s.back().queued)
                s.pop_back();
            return;
        }
        if (!s.empty() && s.back().queued == queued)
            return;
        s.push_back({ timeNs, queued });
    }

    StreamQueue &m_q;
    int64_t m_bucketNs = 1;
    int64_t m_bucket = -1;
    int32_t m_bucketMax = 0;
    int32_t m_carried = 0;
    int32_t m_value = 0;
    int64_t m_lastNs = 0;
    double m_area = 0; // queue x ns
    int64_t m_atNs = INT64_MIN; // the latest change, not committed until time moves on
    int32_t m_atValue = 0;
};

// One stream during the sweep. When its ops' entries and exits are both in order among the ops (a
// CUDA stream runs its ops in launch order, and readGpuOps returns start order) it is swept in the
// one pass over every op, its ops in the queue held as their exit times; else from sorted copies.
struct StreamSweep {
    StreamQueue q;
    bool entersSorted = true;
    bool exitsSorted = true;
    int64_t lastEnterNs = INT64_MIN;
    int64_t lastExitNs = INT64_MIN;
    std::deque<int64_t> exits; // of the ops in the queue, in order
    int32_t queued = 0;
    std::optional<SeriesBuilder> series;

    [[nodiscard]] bool inOrder() const { return entersSorted && exitsSorted; }
    // Takes out the ops that left by `timeNs`.
    void advance(int64_t timeNs)
    {
        while (!exits.empty() && exits.front() <= timeNs) {
            series->change(exits.front(), --queued);
            exits.pop_front();
        }
    }
    // Puts in an op entering at inNs (after those leaving by then) that leaves at outNs.
    void enter(int64_t inNs, int64_t outNs)
    {
        advance(inNs);
        series->change(inNs, ++queued);
        exits.push_back(outNs);
    }
};

// Sweeps a stream whose ops are out of order among the ops, from sorted copies of its times.
void sweepSorted(
    const std::vector<GpuOp> &ops, StreamSweep &s, std::vector<int64_t> &enters, std::vector<int64_t> &exits)
{
    enters.clear();
    exits.clear();
    for (const GpuOp &op : ops)
        if (op.streamTrackId == s.q.streamTrackId) {
            enters.push_back(enterNs(op));
            exits.push_back(exitNs(op));
        }
    std::sort(enters.begin(), enters.end());
    std::sort(exits.begin(), exits.end());
    size_t left = 0;
    for (int64_t in : enters) {
        while (left < exits.size() && exits[left] <= in)
            s.series->change(exits[left++], --s.queued);
        s.series->change(in, ++s.queued);
    }
    while (left < exits.size())
        s.series->change(exits[left++], --s.queued);
}

} // namespace

LaunchStats launchStats(const std::vector<GpuOp> &ops, int maxPointsPerStream)
{
    LaunchStats r;
    // First pass: each stream's span and whether its ops are in order.
    std::deque<StreamSweep> streams; // stable addresses: each SeriesBuilder refers to its StreamQueue
    std::unordered_map<int64_t, StreamSweep *> byTrack;
    int64_t lastTrack = INT64_MIN;
    StreamSweep *last = nullptr;
    auto sweepOf = [&](int64_t track) {
        if (track != lastTrack) {
            lastTrack = track;
            last = byTrack[track];
        }
        return last;
    };
    for (const GpuOp &op : ops) {
        StreamSweep *s = sweepOf(op.streamTrackId);
        if (!s) {
            s = byTrack[op.streamTrackId] = last = &streams.emplace_back();
            s->q.streamTrackId = op.streamTrackId;
            s->q.firstNs = INT64_MAX;
            s->q.lastNs = INT64_MIN;
        }
        const int64_t in = enterNs(op), out = exitNs(op);
        ++s->q.ops;
        s->entersSorted = s->entersSorted && in >= s->lastEnterNs;
        s->exitsSorted = s->exitsSorted && out >= s->lastExitNs;
        s->lastEnterNs = in;
        s->lastExitNs = out;
        s->q.firstNs = std::min(s->q.firstNs, in);
        s->q.lastNs = std::max(s->q.lastNs, out);
    }
    bool anyInOrder = false;
    for (StreamSweep &s : streams) {
        s.series.emplace(s.q, maxPointsPerStream);
        anyInOrder = anyInOrder || s.inOrder();
    }
    // Second pass: every stream in order at once.
    if (anyInOrder) {
        lastTrack = INT64_MIN;
        for (const GpuOp &op : ops)
            if (StreamSweep *s = sweepOf(op.streamTrackId); s->inOrder())
                s->enter(enterNs(op), exitNs(op));
    }
    std::vector<int64_t> enters, exits; // reused by the streams out of order
    for (StreamSweep &s : streams) {
        if (s.inOrder())
            s.advance(INT64_MAX);
        else
            sweepSorted(ops, s, enters, exits);
        s.series->finish();
    }
    for (StreamSweep &s : streams)
        r.queues.push_back(std::move(s.q));
    std::sort(r.queues.begin(), r.queues.end(),
        [](const StreamQueue &a, const StreamQueue &b) { return a.streamTrackId < b.streamTrackId; });

    r.minDelayNs = INT64_MAX;
    r.maxDelayNs = INT64_MIN;
    for (const GpuOp &op : ops) {
        if (op.launchNs < 0)
            continue;
        ++r.launchedOps;
        r.minDelayNs = std::min(r.minDelayNs, op.startNs - op.launchNs);
        r.maxDelayNs = std::max(r.maxDelayNs, op.startNs - op.launchNs);
    }
    if (r.launchedOps == 0) {
        r.minDelayNs = r.maxDelayNs = 0;
    } else {
        r.launchDelay = Histogram::forRange(r.minDelayNs, r.maxDelayNs, r.launchedOps);
        for (const GpuOp &op : ops)
            if (op.launchNs >= 0)
                r.launchDelay.add(op.startNs - op.launchNs);
    }
    return r;
}

} // namespace plumb
