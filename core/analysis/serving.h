// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace plumb {

class Workspace;

// LLM-serving statistics over the requests of the workspace (serving_request): latency, time to
// first token (TTFT), inter-token latency (ITL), time per output token (TPOT), throughput and error
// rate, overall, per model/endpoint and per time window; and the distribution shift between a
// baseline and a current set of requests.
//
// Percentiles are numpy.percentile's default ("linear"): over the n values sorted, p is at rank
// r = p/100 * (n - 1) and interpolated between the values at floor(r) and ceil(r). Latencies, TTFT,
// ITL and TPOT count successful requests only (failed ones have none, as vLLM's benchmark counts
// them); ITL is over every inter-token gap of every request (vLLM's itls), or a log's per-request
// ITL value; TPOT = (latency - TTFT) / (output tokens - 1) for requests with two tokens or more.

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The p-th percentile (0..100) of `sorted` (ascending) by linear interpolation; NaN when empty.
[[nodiscard]] double percentileSorted(const float *sorted, size_t n, double p);
[[nodiscard]] double percentileSorted(const double *sorted, size_t n, double p);
// Same over values in any order (sorted in place).
[[nodiscard]] double percentile(std::vector<double> &values, double p);

struct Distribution {
    int64_t count = 0;
    double mean = kNaN;
    double p50 = kNaN, p90 = kNaN, p95 = kNaN, p99 = kNaN;
    double min = kNaN, max = kNaN;
};
// Sorts `values` in place.
[[nodiscard]] Distribution distributionOf(std::vector<float> &values);

// The requests of some runs, column by column (about 27 bytes a request without ITLs).
struct ServingRequests {
    static constexpr int64_t kUnknownStart = std::numeric_limits<int64_t>::min();
    std::vector<int64_t> startNs; // epoch ns, kUnknownStart when the input did not say
    std::vector<float> latencyMs; // NaN: unknown or failed
    std::vector<float> ttftMs; // NaN: unknown or failed
    std::vector<int32_t> inputTokens; // -1: unknown
    std::vector<int32_t> outputTokens; // -1: unknown
    std::vector<uint8_t> ok;
    std::vector<uint16_t> group; // index into groups: (model, endpoint)
    std::vector<float> itlMs; // every inter-token latency, request after request
    std::vector<uint64_t> itlOffset; // request i's are [itlOffset[i], itlOffset[i + 1]); size()+1 entries,
                                     // empty when read without ITLs
    struct Group {
        QString model, endpoint;
        [[nodiscard]] QString label() const; // "model · endpoint", "(all)" when both are empty
    };
    std::vector<Group> groups;
    std::vector<int64_t> runIds;

    [[nodiscard]] size_t size() const { return ok.size(); }
    [[nodiscard]] uint64_t itlBegin(size_t i) const { return itlOffset.empty() ? 0 : itlOffset[i]; }
    [[nodiscard]] uint64_t itlEnd(size_t i) const { return itlOffset.empty() ? 0 : itlOffset[i + 1]; }
};

// The requests of `runIds` (every run when empty), in (run, seq) order; ITLs only when `withItl`.
[[nodiscard]] ServingRequests readServingRequests(
    Workspace &ws, const QList<int64_t> &runIds, bool withItl = true);

// Runs that hold serving requests, newest first (by the latest request start, else creation).
struct ServingRunInfo {
    int64_t runId = 0;
    QString name;
    int64_t requests = 0;
    int64_t firstStartNs = 0; // 0 when no start is known
    int64_t lastStartNs = 0;
};
[[nodiscard]] std::vector<ServingRunInfo> servingRuns(Workspace &ws);

// Which requests count: a model/endpoint group (empty: any), a time range and a time of day (UTC
// minutes since midnight, [fromMinute, toMinute), wrapping past midnight when from > to; -1: all day).
struct ServingFilter {
    QString model, endpoint;
    int64_t fromNs = std::numeric_limits<int64_t>::min();
    int64_t toNs = std::numeric_limits<int64_t>::max();
    int fromMinute = -1, toMinute = -1;
    [[nodiscard]] bool accepts(const ServingRequests &r, size_t i) const;
};

struct ServingStats {
    QString label; // the group, or "(all)"
    int64_t requests = 0;
    int64_t errors = 0;
    double errorRate = kNaN; // errors / requests
    int64_t firstStartNs = 0, lastEndNs = 0; // span of the requests with known starts
    double durationS = kNaN;
    double requestsPerS = kNaN; // successful requests / duration
    double outputTokensPerS = kNaN; // output tokens of successful requests / duration
    Distribution latencyMs, ttftMs, itlMs, tpotMs, inputTokens, outputTokens;
};

// Stats over the requests `indices` selects; `durationNs` > 0 overrides the span (a time window).
[[nodiscard]] ServingStats servingStats(
    const ServingRequests &r, const std::vector<uint32_t> &indices, int64_t durationNs = 0);
// Indices of the requests `f` accepts.
[[nodiscard]] std::vector<uint32_t> selectRequests(const ServingRequests &r, const ServingFilter &f);

struct ServingWindow {
    int64_t startNs = 0; // aligned to a multiple of the window's length since the epoch
    int64_t endNs = 0;
    ServingStats stats;
};
// The requests `indices` selects (known starts only) in windows of `windowNs`, empty windows left out.
[[nodiscard]] std::vector<ServingWindow> servingWindows(
    const ServingRequests &r, const std::vector<uint32_t> &indices, int64_t windowNs);
// A window length that cuts [firstNs, lastNs] into about `target` windows: 1 s, 10 s, 1, 5, 15 min, 1 h...
[[nodiscard]] int64_t niceWindowNs(int64_t spanNs, int target = 60);

// Overall, per group (largest first) and per window.
struct ServingSummary {
    ServingStats overall;
    std::vector<ServingStats> groups;
    int64_t windowNs = 0;
    std::vector<ServingWindow> windows;
};
[[nodiscard]] ServingSummary summarizeServing(const ServingRequests &r, int64_t windowNs = 0);

// Distribution shift of one quantity from a baseline sample to a current one. Bins: the baseline's
// deciles (edges at its 10th, 20th, ... 90th percentiles, equal edges merged), open at both ends, so
// each holds about a tenth of the baseline. PSI = sum over bins of (c - b) * ln(c / b) with the
// shares b, c of each sample, an empty bin's share taken as 0.0001 (a common convention; without it
// one empty bin makes PSI infinite). Jensen-Shannon distance = sqrt of the JS divergence in bits
// (log base 2, so 0..1) over the same bins, 0 * log 0 = 0, no floor. Rule of thumb for PSI: under
// 0.1 no shift, 0.1-0.25 moderate, over 0.25 large.
struct DriftBin {
    double lo = -std::numeric_limits<double>::infinity(); // [lo, hi)
    double hi = std::numeric_limits<double>::infinity();
    double baselineShare = 0;
    double currentShare = 0;
};
struct Drift {
    int64_t baselineCount = 0, currentCount = 0;
    double psi = kNaN;
    double jsDistance = kNaN;
    std::vector<DriftBin> bins;
};
constexpr double kPsiEmptyShare = 1e-4;
[[nodiscard]] Drift distributionShift(
    std::vector<double> baseline, const std::vector<double> &current, int bins = 10);
// The same over float samples (sorts `baseline` in place; the same result as over their doubles).
[[nodiscard]] Drift distributionShift(
    std::vector<float> &baseline, const std::vector<float> &current, int bins = 10);

} // namespace plumb
