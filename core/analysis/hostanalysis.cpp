// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/hostanalysis.h"

#include "util/allocatortuning.h"

#include "analysis/devicebackend.h"
#include "analysis/temporalbreakdown.h"
#include "store/sqlidlist.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace plumb {

HostActivity classifyHostName(const QString &name)
{
    if (name.startsWith(QLatin1String("enumerate(DataLoader)"))
        || name.contains(QLatin1String("DataLoaderIter.__next__")))
        return HostActivity::InputPipeline;
    // Every backend's synchronising runtime calls (analysis/devicebackend.h), and PyTorch's ops that
    // read a device value back (and so wait for it).
    if (name == QLatin1String("aten::item") || name == QLatin1String("aten::_local_scalar_dense")
        || isSyncCall(name.toStdString()))
        return HostActivity::Synchronization;
    if (name.startsWith(QLatin1String("Optimizer.step"))
        || name.startsWith(QLatin1String("Optimizer.zero_grad")))
        return HostActivity::Optimizer;
    if (name.size() > 4 && name.startsWith(QLatin1String("MPI_")) && name[4].isUpper())
        return HostActivity::Communication;
    return HostActivity::None;
}

namespace {

// A thread's key: a thread and its companion tracks (CUDA API, CPU samples) are one thread, same
// process and label.
constexpr const char *kThreadKey = "coalesce(k.process_id, 0) || ':' || coalesce(k.label, '')";

// The threads that launch GPU work (a CUDA call with a correlation id: its track has correlation
// tiles), by key: the ones whose waits hold the GPU back.
std::unordered_set<std::string> launchingThreads(SqliteDb &db, int64_t traceId)
{
    std::unordered_set<std::string> launchers;
    SqliteStmt st(db,
        std::string("SELECT DISTINCT ") + kThreadKey
            + " FROM track k "
              "WHERE k.trace_id = ? AND k.kind IN ('thread', 'cuda_api') "
              "AND EXISTS (SELECT 1 FROM slice_corr_tile c WHERE c.track_id = k.id)");
    st.bind(1, traceId);
    while (st.step())
        launchers.emplace(st.columnView(0));
    return launchers;
}

// The companion tracks of `kind` ('cpu_samples', 'on_cpu') of the launching threads (every thread's when
// none is known) that hold slices.
std::vector<int64_t> launcherTracks(
    SqliteDb &db, int64_t traceId, const char *kind, const std::unordered_set<std::string> &launchers)
{
    std::vector<int64_t> tracks;
    SqliteStmt st(db,
        std::string("SELECT k.id, ") + kThreadKey
            + " FROM track k "
              "WHERE k.trace_id = ? AND k.kind = ? AND k.slice_count > 0");
    st.bind(1, traceId).bind(2, std::string_view(kind));
    while (st.step())
        if (launchers.empty() || launchers.count(std::string(st.columnView(1))))
            tracks.push_back(st.columnInt(0));
    return tracks;
}

// The CPU samples of the launching threads (every thread's when none is known) in the GPU's idle
// stretches, by function: each thread's samples in time order (its track's key order) against the
// stretches in time order, nothing held but the counts. (The profiler's own threads, a data loader's
// workers, are not what the GPU waits for.)
void sampleIdleGpu(SqliteDb &db, int64_t traceId, const std::vector<GpuOp> &ops,
    const std::unordered_set<std::string> &launchers, HostAnalysis &r)
{
    const std::vector<int64_t> tracks = launcherTracks(db, traceId, "cpu_samples", launchers);
    if (tracks.empty())
        return;
    const std::vector<std::pair<int64_t, int64_t>> idle = gpuIdleIntervals(ops);
    std::unordered_map<int64_t, int64_t> byName;
    SqliteStmt st(db, "SELECT ts, name_id FROM slice WHERE track_id = ? ORDER BY ts");
    for (const int64_t track : tracks) {
        st.bind(1, track);
        size_t gap = 0;
        while (st.step()) {
            ++r.cpuSamples;
            const int64_t ts = st.columnInt(0);
            while (gap < idle.size() && idle[gap].second <= ts)
                ++gap;
            if (gap < idle.size() && idle[gap].first <= ts) {
                ++r.cpuSamplesInIdle;
                ++byName[st.columnInt(1)];
            }
        }
        st.reset();
    }
    std::vector<std::pair<int64_t, int64_t>> top(byName.begin(), byName.end());
    const auto n = std::min(top.size(), HostAnalysis::kSampledFunctions);
    std::partial_sort(top.begin(), top.begin() + ptrdiff_t(n), top.end(), [](const auto &a, const auto &b) {
        return std::tie(b.second, a.first) < std::tie(a.second, b.first); // most first, then by name id
    });
    SqliteStmt name(db, "SELECT str FROM string WHERE id = ?");
    for (size_t i = 0; i < n; ++i) {
        name.bind(1, top[i].first);
        r.idleSampleFunctions.emplace_back(name.step() ? name.columnText(0) : QString(), top[i].second);
        name.reset();
    }
}

// The launching threads' time off the CPU in the GPU's idle stretches (see HostAnalysis::offCpuIdleNs):
// each thread's intervals on a CPU in time order (its track's key order) against the stretches in time
// order, nothing held but sums.
void offCpuIdleGpu(SqliteDb &db, int64_t traceId, const std::vector<GpuOp> &ops,
    const std::unordered_set<std::string> &launchers, HostAnalysis &r)
{
    const std::vector<int64_t> tracks = launcherTracks(db, traceId, "on_cpu", launchers);
    if (tracks.empty())
        return;
    const std::vector<std::pair<int64_t, int64_t>> idle = gpuIdleIntervals(ops);
    auto overlap = [](int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
        return std::max<int64_t>(0, std::min(a1, b1) - std::max(a0, b0));
    };
    SqliteStmt span(db, "SELECT min(ts), max(ts + dur) FROM slice WHERE track_id = ?");
    SqliteStmt st(db, "SELECT ts, ts + dur FROM slice WHERE track_id = ? ORDER BY ts");
    for (const int64_t track : tracks) {
        span.bind(1, track);
        span.step();
        const int64_t first = span.columnInt(0), last = span.columnInt(1);
        span.reset();
        int64_t covered = 0;
        for (const auto &[a, b] : idle)
            covered += overlap(a, b, first, last);
        int64_t onCpu = 0;
        st.bind(1, track);
        size_t gap = 0;
        while (st.step()) {
            const int64_t s = st.columnInt(0), e = st.columnInt(1);
            while (gap < idle.size() && idle[gap].second <= s)
                ++gap;
            for (size_t g = gap; g < idle.size() && idle[g].first < e; ++g)
                onCpu += overlap(idle[g].first, idle[g].second, s, e);
        }
        st.reset();
        ++r.schedThreads;
        r.schedIdleNs += covered;
        r.offCpuIdleNs += std::max<int64_t>(0, covered - onCpu);
    }
}

} // namespace

HostActivityNames hostActivityNames(SqliteDb &db)
{
    HostActivityNames kinds;
    SqliteStmt st(db,
        "SELECT id, str FROM string WHERE str LIKE '%DataLoader%' OR str IN (" + sqlSyncCallList()
            + ") OR str IN ('aten::item', 'aten::_local_scalar_dense') OR str LIKE 'Optimizer.%' "
              "OR str GLOB 'MPI_[A-Z]*'");
    while (st.step()) {
        const HostActivity k = classifyHostName(st.columnText(1));
        if (k != HostActivity::None)
            kinds.emplace(st.columnInt(0), k);
    }
    return kinds;
}

HostAnalysis hostAnalysis(Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops)
{
    HostSliceTap tap;
    tap.names = hostActivityNames(ws.db());
    return hostAnalysis(ws, traceId, ops, tap);
}

HostAnalysis hostAnalysis(
    Workspace &ws, int64_t traceId, const std::vector<GpuOp> &ops, const HostSliceTap &tap)
{
    HostAnalysis r;
    SqliteDb &db = ws.db();
    const std::unordered_set<std::string> launchers = launchingThreads(db, traceId);
    const HostActivityNames &kinds = tap.names;
    if (!kinds.empty()) {
        // The matching slices by thread, each thread's in time order.
        struct Row {
            std::string thread;
            int64_t ts, end, nameId;
        };
        std::vector<Row> rows;
        if (tap.read) {
            std::unordered_map<int64_t, std::string> threadOf;
            SqliteStmt st(db,
                std::string("SELECT k.id, ") + kThreadKey
                    + " FROM track k WHERE k.trace_id = ? AND k.kind IN ('thread', 'cuda_api')");
            st.bind(1, traceId);
            while (st.step())
                threadOf.emplace(st.columnInt(0), std::string(st.columnView(1)));
            rows.reserve(tap.slices.size());
            for (const HostSliceTap::Slice &s : tap.slices)
                rows.push_back(Row { threadOf[s.trackId], s.tsNs, s.tsNs + s.durNs, s.nameId });
            std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
                return std::tie(a.thread, a.ts) < std::tie(b.thread, b.ts);
            });
        } else {
            std::vector<int64_t> ids;
            ids.reserve(kinds.size());
            for (const auto &[id, kind] : kinds)
                ids.push_back(id);
            SqliteStmt st(db,
                std::string("SELECT ") + kThreadKey
                    + ", s.ts, s.dur, s.name_id "
                      "FROM slice s JOIN track k ON k.id = s.track_id "
                      "WHERE k.trace_id = ? AND k.kind IN ('thread', 'cuda_api') AND s.name_id IN ("
                    + sqlIdList(ids)
                    + ") "
                      "ORDER BY 1, s.ts");
            st.bind(1, traceId);
            while (st.step())
                rows.push_back(Row { std::string(st.columnView(0)), st.columnInt(1),
                    st.columnInt(1) + st.columnInt(2), st.columnInt(3) });
        }
        // MPI calls count only on the launching threads: a thread that waits in MPI while it would
        // launch holds the GPU back, a progress or helper thread sitting in MPI_Wait all along does not.
        // (No such thread known, no launches linked: every thread's.)
        // Per (activity, thread): the end of the last counted interval, so nested matches count once.
        std::unordered_map<std::string, int64_t> covered[4];
        for (const Row &row : rows) {
            const HostActivity kind = kinds.at(row.nameId);
            if (kind == HostActivity::Communication && !launchers.empty() && !launchers.count(row.thread))
                continue;
            HostAnalysis::Activity &a = kind == HostActivity::InputPipeline ? r.inputPipeline
                : kind == HostActivity::Synchronization                     ? r.synchronization
                : kind == HostActivity::Optimizer                           ? r.optimizer
                                                                            : r.communication;
            int64_t &until = covered[int(kind) - 1].try_emplace(row.thread, INT64_MIN).first->second;
            ++a.count;
            a.ranges.emplace_back(row.ts, row.end);
            if (row.end > until) {
                a.timeNs += row.end - std::max(row.ts, until);
                until = row.end;
            }
        }
    }
    for (HostAnalysis::Activity *a : { &r.inputPipeline, &r.synchronization, &r.optimizer, &r.communication })
        std::sort(a->ranges.begin(), a->ranges.end());
    sampleIdleGpu(db, traceId, ops, launchers, r);
    offCpuIdleGpu(db, traceId, ops, launchers, r);
    std::vector<int64_t> delays;
    delays.reserve(ops.size());
    adviseHugePages(delays);
    for (const GpuOp &op : ops) {
        if (op.launchNs < 0)
            continue;
        delays.push_back(op.startNs - op.launchNs);
        if (op.endNs - op.startNs < op.launchDurNs) {
            ++r.shortOps;
            r.shortOpsGpuNs += op.endNs - op.startNs;
        }
    }
    r.launchedOps = int64_t(delays.size());
    if (!delays.empty()) {
        // Nearest-rank percentiles, each found in linear time (the p90 among what is above the p50).
        const auto index
            = [&](double p) { return size_t(std::max(1.0, std::ceil(p * double(delays.size())))) - 1; };
        const size_t i50 = index(0.5), i90 = index(0.9);
        std::nth_element(delays.begin(), delays.begin() + ptrdiff_t(i50), delays.end());
        r.launchDelayP50Ns = delays[i50];
        std::nth_element(delays.begin() + ptrdiff_t(i50), delays.begin() + ptrdiff_t(i90), delays.end());
        r.launchDelayP90Ns = delays[i90];
    }
    return r;
}

} // namespace plumb
