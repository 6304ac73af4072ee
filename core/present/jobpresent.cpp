// SPDX-License-Identifier: GPL-3.0-or-later
#include "present/jobpresent.h"

#include <QJsonArray>

#include <algorithm>
#include <map>
#include <tuple>

namespace plumb {

namespace {

QString ms(double ns)
{
    return QString::number(ns / 1e6, 'f', 3);
}

} // namespace

QString jobText(const JobView &v, int shown)
{
    if (v.runId == 0)
        return QStringLiteral("no multi-rank job in this workspace\n");
    const int64_t merged = v.mergedRanks();
    QString t = QStringLiteral("job %1: %2 of %3 ranks, %4 steps, %5 collectives matched\n")
                    .arg(v.name)
                    .arg(merged)
                    .arg(v.ranks.size())
                    .arg(v.stepNames.size())
                    .arg(v.collectives);
    t += QStringLiteral("  verdict: %1\n").arg(v.verdict);
    if (v.straggler >= 0)
        t += QStringLiteral("  collectives waited for rank %1 most: last at %2 of them, %3 ms of the others' "
                            "time in all\n")
                 .arg(v.straggler)
                 .arg(std::find_if(v.ranks.begin(), v.ranks.end(),
                     [&](const JobRank &r) {
                         return r.rank == v.straggler;
                     })->lastArrivals)
                 .arg(ms(double(v.stragglerWaitNs)));
    std::vector<const JobRank *> rows;
    for (const JobRank &r : v.ranks)
        if (r.traceId > 0)
            rows.push_back(&r);
    // The telling ranks first: a verdict unlike most ranks', the others' waiting caused, step time.
    std::map<QString, int> verdicts;
    for (const JobRank *r : rows)
        ++verdicts[r->verdict];
    const QString usual = verdicts.empty()
        ? QString()
        : std::max_element(verdicts.begin(), verdicts.end(), [](auto &a, auto &b) {
              return a.second < b.second;
          })->first;
    std::stable_sort(rows.begin(), rows.end(), [&](const JobRank *a, const JobRank *b) {
        return std::tuple(a->verdict != usual, a->causedWaitNs, a->stepNs)
            > std::tuple(b->verdict != usual, b->causedWaitNs, b->stepNs);
    });
    if (rows.size() > size_t(shown))
        rows.resize(size_t(shown));
    for (const JobRank &r : v.ranks)
        if (r.traceId <= 0)
            rows.push_back(&r);
    std::stable_sort(
        rows.begin(), rows.end(), [](const JobRank *a, const JobRank *b) { return a->rank < b->rank; });
    t += QStringLiteral("  %1 %2 %3 %4 %5 %6  %7\n")
             .arg(QStringLiteral("rank"), -6)
             .arg(QStringLiteral("step ms"), 10)
             .arg(QStringLiteral("spread ms"), 10)
             .arg(QStringLiteral("exp.comm"), 10)
             .arg(QStringLiteral("input"), 10)
             .arg(QStringLiteral("last at"), 8)
             .arg(QStringLiteral("verdict"));
    for (const JobRank *r : rows) {
        if (r->traceId <= 0) {
            t += QStringLiteral("  %1 %2: %3\n").arg(r->rank, -6).arg(r->status, r->message);
            continue;
        }
        t += QStringLiteral("  %1 %2 %3 %4 %5 %6  %7\n")
                 .arg(r->rank, -6)
                 .arg(ms(r->stepNs), 10)
                 .arg(ms(r->maxStepNs - r->minStepNs), 10)
                 .arg(ms(r->exposedCommNs), 10)
                 .arg(ms(r->inputNs), 10)
                 .arg(r->lastArrivals, 8)
                 .arg(r->verdict);
    }
    if (merged > shown)
        t += QStringLiteral("  (%1 of %2 ranks; plumb merge --json or plumb query \"SELECT * FROM job_rank\" "
                            "list them all)\n")
                 .arg(shown)
                 .arg(merged);
    return t;
}

QJsonObject jobJson(const JobView &v)
{
    QJsonArray ranks;
    for (const JobRank &r : v.ranks) {
        QJsonObject o { { QStringLiteral("rank"), qint64(r.rank) }, { QStringLiteral("status"), r.status } };
        if (r.traceId > 0) {
            o.insert(QStringLiteral("trace_id"), qint64(r.traceId));
            o.insert(QStringLiteral("steps"), r.steps);
            o.insert(QStringLiteral("step_ns"), qint64(r.stepNs));
            o.insert(QStringLiteral("step_spread_ns"), qint64(r.maxStepNs - r.minStepNs));
            o.insert(QStringLiteral("exposed_comm_ns"), qint64(r.exposedCommNs));
            o.insert(QStringLiteral("input_pipeline_ns"), qint64(r.inputNs));
            o.insert(QStringLiteral("last_arrivals"), r.lastArrivals);
            o.insert(QStringLiteral("caused_wait_ns"), qint64(r.causedWaitNs));
            o.insert(QStringLiteral("verdict"), r.verdict);
            o.insert(QStringLiteral("headline"), r.headline);
        } else {
            o.insert(QStringLiteral("message"), r.message);
        }
        if (!r.shardPath.isEmpty())
            o.insert(QStringLiteral("shard"), r.shardPath);
        ranks.append(o);
    }
    QJsonArray steps;
    for (size_t i = 0; i < v.stepNames.size(); ++i)
        steps.append(QJsonObject { { QStringLiteral("name"), v.stepNames[i] },
            { QStringLiteral("straggler"),
                qint64(i < v.stepStragglers.size() ? v.stepStragglers[i].rank : -1) },
            { QStringLiteral("wait_ns"),
                qint64(i < v.stepStragglers.size() ? v.stepStragglers[i].waitNs : 0) } });
    return QJsonObject { { QStringLiteral("run_id"), qint64(v.runId) }, { QStringLiteral("name"), v.name },
        { QStringLiteral("world_size"), qint64(v.worldSize) }, { QStringLiteral("verdict"), v.verdict },
        { QStringLiteral("straggler"), qint64(v.straggler) },
        { QStringLiteral("straggler_wait_ns"), qint64(v.stragglerWaitNs) },
        { QStringLiteral("collectives"), qint64(v.collectives) }, { QStringLiteral("steps"), steps },
        { QStringLiteral("ranks"), ranks } };
}

} // namespace plumb
