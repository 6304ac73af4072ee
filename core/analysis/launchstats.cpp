#include "launchstats.h"

#include <algorithm>
#include <climits>
#include <set>

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

// Entry or exit times of one stream's ops, in order: straight from the ops when they are already
// in order there (a CUDA stream runs its ops in launch order, and readGpuOps returns start order),
// else from a sorted copy.
class TimeSequence {
public:
    TimeSequence(const std::vector<GpuOp> &ops, int64_t track, int64_t (*time)(const GpuOp &), bool sorted,
                 std::vector<int64_t> &buffer)
        : m_ops(ops), m_track(track), m_time(time), m_sorted(sorted), m_buffer(buffer)
    {
        if (!m_sorted) {
            m_buffer.clear();
            for (const GpuOp &op : ops)
                if (op.streamTrackId == track)
                    m_buffer.push_back(time(op));
            std::sort(m_buffer.begin(), m_buffer.end());
        }
        advance();
    }
    [[nodiscard]] int64_t peek() const { return m_next; }
    void pop()
    {
        ++m_index;
        advance();
    }

private:
    void advance()
    {
        if (!m_sorted) {
            m_next = m_index < m_buffer.size() ? m_buffer[m_index] : INT64_MAX;
            return;
        }
        while (m_index < m_ops.size() && m_ops[m_index].streamTrackId != m_track)
            ++m_index;
        m_next = m_index < m_ops.size() ? m_time(m_ops[m_index]) : INT64_MAX;
    }

    const std::vector<GpuOp> &m_ops;
    int64_t m_track;
    int64_t (*m_time)(const GpuOp &);
    bool m_sorted;
    std::vector<int64_t> &m_buffer;
    size_t m_index = 0;
    int64_t m_next = INT64_MAX;
};

// Collects the queue's changes into a step series, exact or reduced to per-bucket maxima.
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

    void finish()
    {
        if (m_q.reduced && m_bucket >= 0) {
            push(bucketStart(m_bucket), m_bucketMax);
            push(m_q.lastNs, 0);
        }
        const int64_t span = m_q.lastNs - m_q.firstNs;
        m_q.meanQueued = span > 0 ? m_area / double(span) : 0.0;
    }

private:
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
};

StreamQueue streamQueue(const std::vector<GpuOp> &ops, int64_t track, int maxPoints, std::vector<int64_t> &enterBuffer,
                        std::vector<int64_t> &exitBuffer)
{
    StreamQueue q;
    q.streamTrackId = track;
    q.firstNs = INT64_MAX;
    q.lastNs = INT64_MIN;
    bool entersSorted = true, exitsSorted = true;
    int64_t lastEnter = INT64_MIN, lastExit = INT64_MIN;
    for (const GpuOp &op : ops) {
        if (op.streamTrackId != track)
            continue;
        ++q.ops;
        const int64_t in = enterNs(op), out = exitNs(op);
        entersSorted = entersSorted && in >= lastEnter;
        exitsSorted = exitsSorted && out >= lastExit;
        lastEnter = in;
        lastExit = out;
        q.firstNs = std::min(q.firstNs, in);
        q.lastNs = std::max(q.lastNs, out);
    }
    TimeSequence enters(ops, track, enterNs, entersSorted, enterBuffer);
    TimeSequence exits(ops, track, exitNs, exitsSorted, exitBuffer);
    SeriesBuilder series(q, maxPoints);
    int32_t queued = 0;
    for (;;) {
        const int64_t t = std::min(enters.peek(), exits.peek());
        if (t == INT64_MAX)
            break;
        // An op leaving at t and one entering at t: [enter, exit) is half-open.
        while (exits.peek() == t) {
            --queued;
            exits.pop();
        }
        while (enters.peek() == t) {
            ++queued;
            enters.pop();
        }
        series.change(t, queued);
    }
    series.finish();
    return q;
}

} // namespace

LaunchStats launchStats(const std::vector<GpuOp> &ops, int maxPointsPerStream)
{
    LaunchStats r;
    r.minDelayNs = INT64_MAX;
    r.maxDelayNs = INT64_MIN;
    std::set<int64_t> streams;
    int64_t lastTrack = INT64_MIN;
    for (const GpuOp &op : ops) {
        if (op.streamTrackId != lastTrack)
            streams.insert(lastTrack = op.streamTrackId);
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
    std::vector<int64_t> enterBuffer, exitBuffer; // reused across streams
    for (int64_t track : streams)
        r.queues.push_back(streamQueue(ops, track, maxPointsPerStream, enterBuffer, exitBuffer));
    return r;
}

} // namespace plumb
