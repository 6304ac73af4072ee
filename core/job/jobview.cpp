// SPDX-License-Identifier: GPL-3.0-or-later
#include "job/jobview.h"

#include "analysis/doctorreport.h"
#include "job/collectivematch.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "timeline/timescale.h"

#include <algorithm>
#include <map>

namespace plumb {

int64_t JobView::mergedRanks() const
{
    return std::count_if(ranks.begin(), ranks.end(), [](const JobRank &r) { return r.traceId > 0; });
}

namespace {

int64_t chooseRun(SqliteDb &db, bool merged)
{
    if (merged)
        return db.queryInt(
            "SELECT coalesce((SELECT t.run_id FROM job_rank j JOIN trace t ON t.id = j.trace_id "
            "ORDER BY j.rank LIMIT 1), 0)");
    return db.queryInt("SELECT coalesce((SELECT run_id FROM trace GROUP BY run_id HAVING count(*) > 1 "
                       "ORDER BY count(*) DESC, run_id LIMIT 1), 0)");
}

void readRanks(SqliteDb &db, JobView &v)
{
    if (v.merged) {
        SqliteStmt st(db,
            "SELECT j.rank, j.status, coalesce(j.trace_id, 0), coalesce(t.name, ''), coalesce(j.shard_path, "
            "''), "
            "coalesce(j.shard_trace_id, 0), coalesce(j.message, ''), coalesce(j.verdict, ''), "
            "coalesce(j.headline, ''), coalesce(t.world_size, -1) FROM job_rank j LEFT JOIN trace t ON t.id "
            "= "
            "j.trace_id ORDER BY j.rank");
        while (st.step()) {
            JobRank r;
            r.rank = st.columnInt(0);
            r.status = st.columnText(1);
            r.traceId = st.columnInt(2);
            r.traceName = st.columnText(3);
            r.shardPath = st.columnText(4);
            r.shardTraceId = st.columnInt(5);
            r.message = st.columnText(6);
            r.verdict = st.columnText(7);
            r.headline = st.columnText(8);
            v.worldSize = std::max(v.worldSize, st.columnInt(9));
            v.ranks.push_back(r);
        }
        return;
    }
    SqliteStmt st(db,
        "SELECT coalesce(rank, -1), id, name, coalesce(world_size, -1) FROM trace WHERE run_id = ? "
        "ORDER BY coalesce(rank, -1), id");
    st.bind(1, v.runId);
    std::map<int64_t, JobRank> byRank;
    while (st.step()) {
        JobRank r;
        r.rank = st.columnInt(0);
        r.traceId = st.columnInt(1);
        r.traceName = st.columnText(2);
        v.worldSize = std::max(v.worldSize, st.columnInt(3));
        byRank.emplace(r.rank, r);
    }
    for (int64_t rank = 0; rank < v.worldSize; ++rank)
        if (!byRank.count(rank)) {
            JobRank r;
            r.rank = rank;
            r.status = QStringLiteral("missing");
            r.message = QStringLiteral("no trace of this rank was imported");
            byRank.emplace(rank, r);
        }
    for (auto &[rank, r] : byRank)
        v.ranks.push_back(std::move(r));
}

// The rank x step maps (the window's heat map): every step row of the run.
void readMaps(SqliteDb &db, JobView &v)
{
    std::map<int64_t, size_t> indexOf; // trace id -> ranks index
    for (size_t i = 0; i < v.ranks.size(); ++i)
        if (v.ranks[i].traceId > 0)
            indexOf[v.ranks[i].traceId] = i;
    v.stepTime.assign(v.ranks.size(), {});
    v.exposedComm.assign(v.ranks.size(), {});
    v.input.assign(v.ranks.size(), {});
    SqliteStmt st(db,
        "SELECT s.trace_id, s.step, s.end_ns - s.start_ns, s.st_exposed_comm_ns, s.st_input_pipeline_ns "
        "FROM step_summary s JOIN trace t ON t.id = s.trace_id WHERE t.run_id = ? AND s.step >= 0");
    st.bind(1, v.runId);
    while (st.step()) {
        const auto it = indexOf.find(st.columnInt(0));
        if (it == indexOf.end())
            continue;
        const size_t i = it->second, step = size_t(st.columnInt(1));
        for (auto *map : { &v.stepTime, &v.exposedComm, &v.input })
            if ((*map)[i].size() <= step)
                (*map)[i].resize(step + 1, -1);
        v.stepTime[i][step] = st.columnInt(2);
        v.exposedComm[i][step] = st.columnInt(3);
        v.input[i][step] = st.columnInt(4);
        if (v.stepNames.size() <= step)
            v.stepNames.resize(step + 1); // a rank with more steps than the first: unnamed columns
    }
}

// Each rank's figures (per step, or the whole trace's when it has no steps), summed by SQLite, and the steps'
// names from the first rank.
void readStepTotals(SqliteDb &db, JobView &v)
{
    std::map<int64_t, size_t> indexOf; // trace id -> ranks index
    for (size_t i = 0; i < v.ranks.size(); ++i)
        if (v.ranks[i].traceId > 0)
            indexOf[v.ranks[i].traceId] = i;
    // The whole trace's row (step -1), then the steps' rows summed over them: simple aggregates over the
    // rows in the table's order (a GROUP BY that sorts, or an expression per row and figure, cost seconds
    // over a job's millions of step rows).
    const std::string traces = "trace_id IN (SELECT id FROM trace WHERE run_id = ?)";
    SqliteStmt whole(db,
        "SELECT trace_id, end_ns - start_ns, st_exposed_comm_ns, st_input_pipeline_ns, st_compute_ns FROM "
        "step_summary WHERE "
            + traces + " AND step = -1");
    whole.bind(1, v.runId);
    while (whole.step()) {
        const auto it = indexOf.find(whole.columnInt(0));
        if (it == indexOf.end())
            continue;
        JobRank &r = v.ranks[it->second];
        r.steps = 0;
        r.stepNs = r.minStepNs = r.maxStepNs = double(whole.columnInt(1));
        r.exposedCommNs = double(whole.columnInt(2));
        r.inputNs = double(whole.columnInt(3));
        r.computeNs = double(whole.columnInt(4));
    }
    SqliteStmt st(db,
        "SELECT trace_id, count(*), sum(end_ns - start_ns), min(end_ns - start_ns), max(end_ns - start_ns), "
        "sum(st_exposed_comm_ns), sum(st_input_pipeline_ns), sum(st_compute_ns) FROM step_summary WHERE "
            + traces + " AND step >= 0 GROUP BY trace_id");
    st.bind(1, v.runId);
    while (st.step()) {
        const auto it = indexOf.find(st.columnInt(0));
        if (it == indexOf.end())
            continue;
        JobRank &r = v.ranks[it->second];
        r.steps = int(st.columnInt(1));
        const double n = r.steps;
        r.stepNs = double(st.columnInt(2)) / n;
        r.minStepNs = double(st.columnInt(3));
        r.maxStepNs = double(st.columnInt(4));
        r.exposedCommNs = double(st.columnInt(5)) / n;
        r.inputNs = double(st.columnInt(6)) / n;
        r.computeNs = double(st.columnInt(7)) / n;
    }
    const auto first
        = std::find_if(v.ranks.begin(), v.ranks.end(), [](const JobRank &r) { return r.traceId > 0; });
    if (first == v.ranks.end())
        return;
    SqliteStmt names(db,
        "SELECT step, coalesce(name, '') FROM step_summary WHERE trace_id = ? AND step >= 0 ORDER BY step");
    names.bind(1, first->traceId);
    while (names.step()) {
        const size_t step = size_t(names.columnInt(0));
        if (v.stepNames.size() <= step)
            v.stepNames.resize(step + 1);
        v.stepNames[step] = names.columnText(1);
    }
}

std::vector<MatchedCollective> matchedCollectives(SqliteDb &db, const JobView &v)
{
    std::vector<MatchedCollective> out;
    if (v.merged) {
        SqliteStmt st(db, "SELECT step, last_rank, wait_ns FROM job_collective");
        while (st.step()) {
            MatchedCollective c;
            c.step = st.columnInt(0);
            c.lastRank = st.columnInt(1);
            c.waitNs = st.columnInt(2);
            out.push_back(c);
        }
        return out;
    }
    CollectiveMatcher matcher;
    SqliteStmt st(db,
        "SELECT coalesce(process_group, ''), collective, seq, step, end_ns - start_ns FROM collective_call "
        "WHERE trace_id = ? ORDER BY coalesce(process_group, ''), seq");
    for (const JobRank &r : v.ranks) {
        if (r.traceId <= 0)
            continue;
        st.bind(1, r.traceId);
        while (st.step())
            matcher.add(r.rank, st.columnText(0), st.columnText(1), st.columnInt(2), st.columnInt(3),
                st.columnInt(4));
        st.reset();
        matcher.endRank();
    }
    return matcher.matched();
}

QString jobVerdict(const JobView &v)
{
    const auto rankOf = [&](int64_t rank) {
        return std::find_if(v.ranks.begin(), v.ranks.end(), [&](const JobRank &r) { return r.rank == rank; });
    };
    int64_t straggler = -1;
    if (v.comparison.straggler >= 0)
        straggler = v.comparison.ranks[size_t(v.comparison.straggler)].rank;
    else
        straggler = v.straggler;
    QString text;
    if (straggler >= 0 && rankOf(straggler) != v.ranks.end()) {
        const JobRank &s = *rankOf(straggler);
        const int steps = std::max<int>(1, int(v.stepNames.size()));
        text = QStringLiteral("Limited by a straggler: rank %1, which is limited by %2; the others wait %3 a "
                              "step for it in collectives.")
                   .arg(straggler)
                   .arg(s.verdict.isEmpty() ? QStringLiteral("an unknown component") : s.verdict)
                   .arg(formatDuration(v.straggler == straggler ? v.stragglerWaitNs / steps
                                                                : int64_t(v.comparison.othersWaitNs)));
    } else {
        std::map<QString, int> count;
        for (const JobRank &r : v.ranks)
            if (!r.verdict.isEmpty())
                ++count[r.verdict];
        if (!count.empty()) {
            const auto top = std::max_element(
                count.begin(), count.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
            const int64_t merged = v.mergedRanks();
            text = top->second == merged ? QStringLiteral("Every rank is limited by %1.").arg(top->first)
                                         : QStringLiteral("%1 of %2 ranks are limited by %3.")
                                               .arg(top->second)
                                               .arg(merged)
                                               .arg(top->first);
        }
    }
    const int64_t absent = int64_t(v.ranks.size()) - v.mergedRanks();
    if (absent > 0)
        text += QStringLiteral(" %1 of %2 ranks are missing.").arg(absent).arg(v.ranks.size());
    return text.trimmed();
}

} // namespace

JobView jobView(Workspace &ws, int64_t runId, bool maps, const RankComparison *comparison)
{
    JobView v;
    SqliteDb &db = ws.db();
    const SqliteReadTransaction snapshot(db);
    v.merged = db.queryInt("SELECT EXISTS (SELECT 1 FROM job_rank)") != 0;
    v.runId = runId ? runId : chooseRun(db, v.merged);
    if (v.runId == 0)
        return {};
    {
        SqliteStmt name(db, "SELECT name FROM run WHERE id = ?");
        name.bind(1, v.runId);
        if (name.step())
            v.name = name.columnText(0);
    }
    readRanks(db, v);
    readStepTotals(db, v);
    if (maps)
        readMaps(db, v);

    // The collectives: who arrived last, per step and over the job.
    std::map<int64_t, size_t> indexOfRank;
    for (size_t i = 0; i < v.ranks.size(); ++i)
        indexOfRank[v.ranks[i].rank] = i;
    std::map<int64_t, std::map<int64_t, int64_t>> waitByStep; // step -> rank -> wait
    for (const MatchedCollective &c : matchedCollectives(db, v)) {
        ++v.collectives;
        const auto it = indexOfRank.find(c.lastRank);
        if (it == indexOfRank.end() || c.waitNs <= 0)
            continue;
        JobRank &r = v.ranks[it->second];
        ++r.lastArrivals;
        r.causedWaitNs += c.waitNs;
        if (c.step >= 0)
            waitByStep[c.step][c.lastRank] += c.waitNs;
    }
    v.stepStragglers.assign(v.stepNames.size(), {});
    for (const auto &[step, byRank] : waitByStep) {
        if (step >= int64_t(v.stepStragglers.size()))
            continue;
        const auto top = std::max_element(
            byRank.begin(), byRank.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
        v.stepStragglers[size_t(step)] = { top->first, top->second };
    }
    // Over the job: the rank the others waited for most, when that is more than kStragglerMargin of a
    // step's time in all its steps.
    const auto top = std::max_element(v.ranks.begin(), v.ranks.end(),
        [](const JobRank &a, const JobRank &b) { return a.causedWaitNs < b.causedWaitNs; });
    if (top != v.ranks.end() && top->causedWaitNs > 0) {
        std::vector<double> steps;
        for (const JobRank &r : v.ranks)
            if (r.traceId > 0)
                steps.push_back(r.stepNs * std::max(1, r.steps));
        std::nth_element(steps.begin(), steps.begin() + ptrdiff_t(steps.size() / 2), steps.end());
        if (!steps.empty() && double(top->causedWaitNs) > kStragglerMargin * steps[steps.size() / 2]) {
            v.straggler = top->rank;
            v.stragglerWaitNs = top->causedWaitNs;
        }
    }

    v.comparison = comparison ? *comparison : compareRanks(ws, v.runId, GpuOpMode::EveryOp);
    if (!v.merged)
        for (JobRank &r : v.ranks)
            if (r.traceId > 0) {
                const Verdict verdict
                    = doctorReport(ws, r.traceId, GpuOpMode::EveryOp, &v.comparison).verdict;
                r.verdict = componentName(verdict.component);
                r.headline = verdict.headline;
            }
    v.verdict = jobVerdict(v);
    return v;
}

} // namespace plumb
