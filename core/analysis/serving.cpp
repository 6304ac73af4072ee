// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/serving.h"

#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <sqlite3.h>

#include <QStringList>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <unordered_map>

namespace plumb {

namespace {

template <typename T> double percentileOf(const T *a, size_t n, double p)
{
    if (n == 0)
        return kNaN;
    const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * double(n - 1);
    const size_t lo = size_t(std::floor(rank));
    const size_t hi = std::min(lo + 1, n - 1);
    const double lv = double(a[lo]);
    return lv + (double(a[hi]) - lv) * (rank - double(lo));
}

constexpr int64_t kNsPerMinute = 60'000'000'000;
constexpr int64_t kNsPerDay = 24 * 60 * kNsPerMinute;

// Durations and counts are never negative in serving_request: the query reads NULL as -1, so that
// one C API call per column reads it (about a third of the time of a type check and a read).
float msOf(sqlite3_stmt *st, int col)
{
    const int64_t ns = sqlite3_column_int64(st, col);
    return ns < 0 ? std::numeric_limits<float>::quiet_NaN() : float(double(ns) / 1e6);
}

int32_t countOf(sqlite3_stmt *st, int col)
{
    return int32_t(std::min<int64_t>(sqlite3_column_int64(st, col), INT32_MAX));
}

} // namespace

double percentileSorted(const float *sorted, size_t n, double p)
{
    return percentileOf(sorted, n, p);
}

double percentileSorted(const double *sorted, size_t n, double p)
{
    return percentileOf(sorted, n, p);
}

double percentile(std::vector<double> &values, double p)
{
    std::sort(values.begin(), values.end());
    return percentileOf(values.data(), values.size(), p);
}

Distribution distributionOf(std::vector<float> &v)
{
    Distribution d;
    d.count = int64_t(v.size());
    if (v.empty())
        return d;
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (const float x : v)
        sum += double(x);
    d.mean = sum / double(v.size());
    d.min = double(v.front());
    d.max = double(v.back());
    d.p50 = percentileOf(v.data(), v.size(), 50);
    d.p90 = percentileOf(v.data(), v.size(), 90);
    d.p95 = percentileOf(v.data(), v.size(), 95);
    d.p99 = percentileOf(v.data(), v.size(), 99);
    return d;
}

QString ServingRequests::Group::label() const
{
    if (model.isEmpty() && endpoint.isEmpty())
        return QStringLiteral("(all)");
    if (model.isEmpty() || endpoint.isEmpty())
        return model + endpoint;
    return model + QStringLiteral(" · ") + endpoint;
}

ServingRequests readServingRequests(Workspace &ws, const QList<int64_t> &runIds, bool withItl)
{
    ServingRequests r;
    SqliteDb &db = ws.db();
    std::unordered_map<int64_t, QString> labels;
    {
        SqliteStmt st(db, "SELECT id, text FROM serving_label");
        while (st.step())
            labels.emplace(st.columnInt(0), st.columnText(1));
    }
    std::map<std::pair<int64_t, int64_t>, uint16_t> groupOf;
    QList<int64_t> runs = runIds;
    if (runs.isEmpty()) {
        SqliteStmt st(db, "SELECT DISTINCT run_id FROM serving_request ORDER BY run_id");
        while (st.step())
            runs << st.columnInt(0);
    }
    const int64_t total = [&] { // requests are numbered from 0 per run: the last seq counts them
        int64_t n = 0;
        for (const int64_t run : runs) {
            SqliteStmt st(db, "SELECT coalesce(max(seq) + 1, 0) FROM serving_request WHERE run_id = ?");
            st.bind(1, run);
            st.step();
            n += st.columnInt(0);
        }
        return n;
    }();
    r.startNs.reserve(size_t(total));
    r.latencyMs.reserve(size_t(total));
    r.ttftMs.reserve(size_t(total));
    r.inputTokens.reserve(size_t(total));
    r.outputTokens.reserve(size_t(total));
    r.ok.reserve(size_t(total));
    r.group.reserve(size_t(total));
    if (withItl) {
        r.itlOffset.reserve(size_t(total) + 1);
        r.itlOffset.push_back(0);
    }
    const char *sql = withItl
        ? "SELECT start_ns, ifnull(latency_ns, -1), ifnull(ttft_ns, -1), ifnull(input_tokens, -1), "
          "ifnull(output_tokens, -1), ok, model_id, endpoint_id, itl FROM serving_request WHERE run_id = ? "
          "ORDER BY seq"
        : "SELECT start_ns, ifnull(latency_ns, -1), ifnull(ttft_ns, -1), ifnull(input_tokens, -1), "
          "ifnull(output_tokens, -1), ok, model_id, endpoint_id FROM serving_request WHERE run_id = ? ORDER "
          "BY seq";
    // The C API directly: one call per column of 10M rows, not a wrapper's type check and read.
    sqlite3_stmt *st = nullptr;
    if (const int rc = sqlite3_prepare_v2(db.handle(), sql, -1, &st, nullptr); rc != SQLITE_OK)
        throw SqlError(QStringLiteral("reading serving requests: %1")
                           .arg(QString::fromUtf8(sqlite3_errmsg(db.handle()))),
            rc);
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> finalizer(st, sqlite3_finalize);
    for (const int64_t run : runs) {
        r.runIds.push_back(run);
        sqlite3_bind_int64(st, 1, run);
        std::pair<int64_t, int64_t> lastKey { -1, -1 };
        uint16_t lastGroup = 0;
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            r.startNs.push_back(sqlite3_column_type(st, 0) == SQLITE_NULL ? ServingRequests::kUnknownStart
                                                                          : sqlite3_column_int64(st, 0));
            const bool ok = sqlite3_column_int64(st, 5) != 0;
            r.ok.push_back(ok ? 1 : 0);
            r.latencyMs.push_back(ok ? msOf(st, 1) : std::numeric_limits<float>::quiet_NaN());
            r.ttftMs.push_back(ok ? msOf(st, 2) : std::numeric_limits<float>::quiet_NaN());
            r.inputTokens.push_back(countOf(st, 3));
            r.outputTokens.push_back(countOf(st, 4));
            const std::pair<int64_t, int64_t> key { sqlite3_column_int64(st, 6),
                sqlite3_column_int64(st, 7) }; // NULL reads 0
            if (key != lastKey) {
                auto it = groupOf.find(key);
                if (it == groupOf.end()) {
                    ServingRequests::Group g;
                    g.model = labels.count(key.first) ? labels[key.first] : QString();
                    g.endpoint = labels.count(key.second) ? labels[key.second] : QString();
                    it = groupOf.emplace(key, uint16_t(std::min<size_t>(r.groups.size(), UINT16_MAX))).first;
                    if (r.groups.size() < UINT16_MAX)
                        r.groups.push_back(g);
                }
                lastKey = key;
                lastGroup = it->second;
            }
            r.group.push_back(lastGroup);
            if (withItl && ok) {
                const auto *blob = static_cast<const unsigned char *>(sqlite3_column_blob(st, 8));
                const size_t bytes = size_t(sqlite3_column_bytes(st, 8));
                for (size_t at = 0; blob && at + 8 <= bytes; at += 8) {
                    uint64_t v = 0;
                    for (int b = 7; b >= 0; --b)
                        v = (v << 8) | blob[at + size_t(b)];
                    r.itlMs.push_back(float(double(int64_t(v)) / 1e6));
                }
            }
            if (withItl)
                r.itlOffset.push_back(r.itlMs.size());
        }
        if (rc != SQLITE_DONE)
            throw SqlError(QStringLiteral("reading serving requests: %1")
                               .arg(QString::fromUtf8(sqlite3_errmsg(db.handle()))),
                rc);
        sqlite3_reset(st);
    }
    return r;
}

std::vector<ServingRunInfo> servingRuns(Workspace &ws)
{
    std::vector<ServingRunInfo> runs;
    SqliteStmt st(ws.db(),
        "SELECT s.run_id, run.name, s.n, s.first, s.last FROM (SELECT run_id, count(*) AS n, min(start_ns) "
        "AS first, "
        "max(start_ns) AS last FROM serving_request GROUP BY run_id) s JOIN run ON run.id = s.run_id "
        "ORDER BY coalesce(s.last, run.created_at_ns) DESC, s.run_id DESC");
    while (st.step()) {
        ServingRunInfo i;
        i.runId = st.columnInt(0);
        i.name = st.columnText(1);
        i.requests = st.columnInt(2);
        i.firstStartNs = st.columnInt(3);
        i.lastStartNs = st.columnInt(4);
        runs.push_back(i);
    }
    return runs;
}

bool ServingFilter::accepts(const ServingRequests &r, size_t i) const
{
    const int64_t start = r.startNs[i];
    const bool timed = fromNs != std::numeric_limits<int64_t>::min()
        || toNs != std::numeric_limits<int64_t>::max() || fromMinute >= 0;
    if (timed) { // a request without a start is in no time range
        if (start == ServingRequests::kUnknownStart || start < fromNs || start >= toNs)
            return false;
        if (fromMinute >= 0) {
            const int minute = int((((start % kNsPerDay) + kNsPerDay) % kNsPerDay) / kNsPerMinute);
            const bool in = fromMinute <= toMinute ? minute >= fromMinute && minute < toMinute
                                                   : minute >= fromMinute || minute < toMinute;
            if (!in)
                return false;
        }
    }
    if (!model.isEmpty() || !endpoint.isEmpty()) {
        const auto &g = r.groups[r.group[i]];
        if ((!model.isEmpty() && g.model != model) || (!endpoint.isEmpty() && g.endpoint != endpoint))
            return false;
    }
    return true;
}

std::vector<uint32_t> selectRequests(const ServingRequests &r, const ServingFilter &f)
{
    std::vector<uint32_t> out;
    const bool all = f.model.isEmpty() && f.endpoint.isEmpty() && f.fromMinute < 0
        && f.fromNs == std::numeric_limits<int64_t>::min() && f.toNs == std::numeric_limits<int64_t>::max();
    out.reserve(all ? r.size() : r.size() / 4);
    if (all) {
        out.resize(r.size());
        std::iota(out.begin(), out.end(), 0u);
        return out;
    }
    // Group membership once per group, not per request.
    std::vector<uint8_t> groupOk(r.groups.size(), 1);
    for (size_t g = 0; g < r.groups.size(); ++g)
        groupOk[g] = (f.model.isEmpty() || r.groups[g].model == f.model)
            && (f.endpoint.isEmpty() || r.groups[g].endpoint == f.endpoint);
    ServingFilter timeOnly = f;
    timeOnly.model.clear();
    timeOnly.endpoint.clear();
    for (size_t i = 0; i < r.size(); ++i)
        if (groupOk[r.group[i]] && timeOnly.accepts(r, i))
            out.push_back(uint32_t(i));
    return out;
}

ServingStats servingStats(const ServingRequests &r, const std::vector<uint32_t> &indices, int64_t durationNs)
{
    ServingStats s;
    std::vector<float> latency, ttft, itl, tpot, in, out;
    latency.reserve(indices.size());
    ttft.reserve(indices.size());
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    double outputTokens = 0;
    int64_t succeeded = 0;
    for (const uint32_t i : indices) {
        ++s.requests;
        if (r.inputTokens[i] >= 0)
            in.push_back(float(r.inputTokens[i]));
        const int64_t start = r.startNs[i];
        const float lat = r.latencyMs[i];
        if (start != ServingRequests::kUnknownStart) {
            first = std::min(first, start);
            last = std::max(last, start + (std::isnan(lat) ? 0 : int64_t(double(lat) * 1e6)));
        }
        if (!r.ok[i]) {
            ++s.errors;
            continue;
        }
        ++succeeded;
        if (r.outputTokens[i] >= 0) {
            out.push_back(float(r.outputTokens[i]));
            outputTokens += r.outputTokens[i];
        }
        if (!std::isnan(lat))
            latency.push_back(lat);
        const float t = r.ttftMs[i];
        if (!std::isnan(t))
            ttft.push_back(t);
        if (!std::isnan(lat) && !std::isnan(t) && r.outputTokens[i] >= 2)
            tpot.push_back((lat - t) / float(r.outputTokens[i] - 1));
        for (uint64_t k = r.itlBegin(i); k < r.itlEnd(i); ++k)
            itl.push_back(r.itlMs[k]);
    }
    if (s.requests > 0)
        s.errorRate = double(s.errors) / double(s.requests);
    if (first <= last) {
        s.firstStartNs = first;
        s.lastEndNs = last;
    }
    const int64_t span = durationNs > 0 ? durationNs : (first < last ? last - first : 0);
    if (span > 0) {
        s.durationS = double(span) / 1e9;
        s.requestsPerS = double(succeeded) / s.durationS;
        s.outputTokensPerS = outputTokens / s.durationS;
    }
    s.latencyMs = distributionOf(latency);
    s.ttftMs = distributionOf(ttft);
    s.itlMs = distributionOf(itl);
    s.tpotMs = distributionOf(tpot);
    s.inputTokens = distributionOf(in);
    s.outputTokens = distributionOf(out);
    return s;
}

std::vector<ServingWindow> servingWindows(
    const ServingRequests &r, const std::vector<uint32_t> &indices, int64_t windowNs)
{
    std::vector<ServingWindow> windows;
    if (windowNs <= 0)
        return windows;
    std::map<int64_t, std::vector<uint32_t>> byWindow;
    for (const uint32_t i : indices) {
        const int64_t start = r.startNs[i];
        if (start == ServingRequests::kUnknownStart)
            continue;
        const int64_t w = start >= 0 ? start / windowNs : -((-start + windowNs - 1) / windowNs);
        byWindow[w].push_back(i);
    }
    for (auto &[w, members] : byWindow) {
        ServingWindow win;
        win.startNs = w * windowNs;
        win.endNs = win.startNs + windowNs;
        win.stats = servingStats(r, members, windowNs);
        windows.push_back(std::move(win));
    }
    return windows;
}

int64_t niceWindowNs(int64_t spanNs, int target)
{
    static constexpr int64_t kS = 1'000'000'000;
    for (const int64_t w : { kS, 5 * kS, 10 * kS, 30 * kS, 60 * kS, 300 * kS, 900 * kS, 3600 * kS,
             6 * 3600 * kS, 24 * 3600 * kS })
        if (spanNs / w <= target)
            return w;
    return 7 * 24 * 3600 * kS;
}

ServingSummary summarizeServing(const ServingRequests &r, int64_t windowNs)
{
    ServingSummary s;
    std::vector<uint32_t> all(r.size());
    std::iota(all.begin(), all.end(), 0u);
    s.overall = servingStats(r, all);
    s.overall.label = QStringLiteral("(all)");
    std::vector<std::vector<uint32_t>> byGroup(r.groups.size());
    for (size_t i = 0; i < r.size(); ++i)
        byGroup[r.group[i]].push_back(uint32_t(i));
    if (r.groups.size() > 1)
        for (size_t g = 0; g < r.groups.size(); ++g) {
            ServingStats gs = servingStats(r, byGroup[g]);
            gs.label = r.groups[g].label();
            s.groups.push_back(std::move(gs));
        }
    std::sort(s.groups.begin(), s.groups.end(),
        [](const ServingStats &a, const ServingStats &b) { return a.requests > b.requests; });
    s.windowNs = windowNs > 0 ? windowNs : niceWindowNs(s.overall.lastEndNs - s.overall.firstStartNs);
    s.windows = servingWindows(r, all, s.windowNs);
    return s;
}

namespace {

template <typename T> Drift shiftOf(std::vector<T> &baseline, const std::vector<T> &current, int bins)
{
    Drift d;
    d.baselineCount = int64_t(baseline.size());
    d.currentCount = int64_t(current.size());
    if (baseline.empty() || current.empty() || bins < 1)
        return d;
    std::sort(baseline.begin(), baseline.end());
    std::vector<double> edges;
    for (int k = 1; k < bins; ++k) {
        const double e = percentileOf(baseline.data(), baseline.size(), 100.0 * k / bins);
        if (edges.empty() || e > edges.back())
            edges.push_back(e);
    }
    d.bins.resize(edges.size() + 1);
    for (size_t b = 0; b < d.bins.size(); ++b) {
        if (b > 0)
            d.bins[b].lo = edges[b - 1];
        if (b < edges.size())
            d.bins[b].hi = edges[b];
    }
    const auto binOf
        = [&](T v) { return size_t(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin()); };
    for (const T v : baseline)
        d.bins[binOf(v)].baselineShare += 1;
    for (const T v : current)
        d.bins[binOf(v)].currentShare += 1;
    double psi = 0, js = 0;
    for (auto &b : d.bins) {
        b.baselineShare /= double(baseline.size());
        b.currentShare /= double(current.size());
        const double pb = std::max(b.baselineShare, kPsiEmptyShare),
                     pc = std::max(b.currentShare, kPsiEmptyShare);
        psi += (pc - pb) * std::log(pc / pb);
        const double m = (b.baselineShare + b.currentShare) / 2;
        if (b.baselineShare > 0)
            js += 0.5 * b.baselineShare * std::log2(b.baselineShare / m);
        if (b.currentShare > 0)
            js += 0.5 * b.currentShare * std::log2(b.currentShare / m);
    }
    d.psi = psi;
    d.jsDistance = std::sqrt(std::max(0.0, js));
    return d;
}

} // namespace

Drift distributionShift(std::vector<double> baseline, const std::vector<double> &current, int bins)
{
    return shiftOf(baseline, current, bins);
}

Drift distributionShift(std::vector<float> &baseline, const std::vector<float> &current, int bins)
{
    return shiftOf(baseline, current, bins);
}

} // namespace plumb
