// SPDX-License-Identifier: GPL-3.0-or-later
// The workspace side of goodput.h: a run's lifecycle events (or step records from its experiment
// log), its FLOPs and peak from params or a trace, and the runs goodput can be computed for.
#include "analysis/goodput.h"

#include "analysis/flops.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <algorithm>
#include <string>

namespace plumb {

std::vector<LifecycleEvent> lifecycleEvents(Workspace &ws, int64_t runId, QString *basis)
{
    std::vector<LifecycleEvent> out;
    SqliteDb &db = ws.db();
    {
        SqliteStmt st(db,
            "SELECT kind, start_ns, end_ns, step, label FROM lifecycle_event WHERE run_id = ? "
            "ORDER BY start_ns");
        st.bind(1, runId);
        while (st.step()) {
            const std::optional<LifecycleKind> kind = lifecycleKindFromName(st.columnText(0));
            if (!kind)
                continue;
            LifecycleEvent e;
            e.kind = *kind;
            e.startNs = st.columnInt(1);
            e.endNs = st.columnIsNull(2) ? e.startNs : st.columnInt(2);
            e.step = st.columnIsNull(3) ? -1 : st.columnInt(3);
            e.label = st.columnText(4);
            out.push_back(e);
        }
    }
    if (!out.empty()) {
        if (basis)
            *basis = QStringLiteral("lifecycle log");
        return out;
    }

    // No lifecycle log: the run's longest scalar series, one step record per logged step.
    int64_t keyId = -1;
    QString key;
    {
        SqliteStmt st(db,
            "SELECT s.key_id, g.str FROM metric_series s JOIN string g ON g.id = s.key_id "
            "WHERE s.run_id = ? AND s.kind = 'scalar' GROUP BY s.key_id "
            "ORDER BY sum(s.points) DESC, s.key_id LIMIT 1");
        st.bind(1, runId);
        if (st.step()) {
            keyId = st.columnInt(0);
            key = st.columnText(1);
        }
    }
    if (keyId < 0)
        return out;
    SqliteStmt st(db,
        "SELECT segment, step, min(wall_time_ns) FROM metric WHERE run_id = ? AND key_id = ? "
        "GROUP BY segment, step ORDER BY segment, step");
    st.bind(1, runId).bind(2, keyId);
    int64_t segment = -1, lastWall = INT64_MIN;
    while (st.step()) {
        const int64_t seg = st.columnInt(0), wall = st.columnInt(2);
        if (wall <= 0)
            continue;
        if (seg != segment) {
            LifecycleEvent start;
            start.kind = segment < 0 ? LifecycleKind::JobStart : LifecycleKind::Restart;
            start.startNs = start.endNs = wall;
            out.push_back(start);
            segment = seg;
        }
        LifecycleEvent s;
        s.kind = LifecycleKind::Step;
        s.startNs = s.endNs = wall;
        s.step = st.columnInt(1);
        out.push_back(s);
        lastWall = std::max(lastWall, wall);
    }
    if (!out.empty()) {
        LifecycleEvent end;
        end.kind = LifecycleKind::JobEnd;
        end.startNs = end.endNs = lastWall;
        out.push_back(end);
        if (basis)
            *basis = QStringLiteral("experiment log: wall time of each logged step of %1").arg(key);
    }
    return out;
}

GoodputReport computeGoodput(Workspace &ws, int64_t runId, const GoodputOptions &options)
{
    SqliteDb &db = ws.db();
    GoodputOptions opts = options;
    auto param = [&](const char *key) {
        SqliteStmt st(db, "SELECT value FROM param WHERE run_id = ? AND key = ?");
        st.bind(1, runId).bind(2, std::string_view(key));
        return st.step() ? st.columnText(0).toDouble() : 0.0;
    };
    if (opts.flopsPerStep <= 0)
        opts.flopsPerStep = param("flops_per_step");
    if (opts.peakFlopsPerSecond <= 0)
        opts.peakFlopsPerSecond = param("peak_flops_per_second");

    QString basis;
    GoodputReport r = analyzeGoodput(lifecycleEvents(ws, runId, &basis), opts);
    r.runId = runId;
    r.basis = basis;
    {
        SqliteStmt st(db, "SELECT name FROM run WHERE id = ?");
        st.bind(1, runId);
        if (st.step())
            r.runName = st.columnText(0);
        else
            r.problem = QStringLiteral("no run %1 in the workspace").arg(runId);
    }
    if (r.valid() && !r.programGoodput) {
        const int64_t trace = db.queryInt(
            ("SELECT id FROM trace WHERE run_id = " + std::to_string(runId) + " ORDER BY id LIMIT 1").c_str(),
            -1);
        if (trace >= 0) {
            const FlopsSummary f = flopsSummary(ws, trace);
            if (f.peakShare() > 0 && !f.abovePeak()) { // above the peak: the estimate is off, no goodput
                r.programGoodput = f.peakShare();
                r.programBasis
                    = QStringLiteral("trace %1: %2 of %3 TFLOP/s peak (%4) over its matrix and attention "
                                     "kernels")
                          .arg(trace)
                          .arg(f.achievedTflops(), 0, 'f', 1)
                          .arg(f.peakTflops, 0, 'f', 0)
                          .arg(f.device);
            }
        }
    }
    return r;
}

std::vector<GoodputRun> goodputRuns(Workspace &ws)
{
    std::vector<GoodputRun> out;
    SqliteDb &db = ws.db();
    {
        SqliteStmt st(db,
            "SELECT r.id, r.name, count(*) FROM lifecycle_event e JOIN run r ON r.id = e.run_id "
            "GROUP BY r.id ORDER BY r.id DESC");
        while (st.step())
            out.push_back({ st.columnInt(0), st.columnText(1), true, st.columnInt(2) });
    }
    SqliteStmt st(db,
        "SELECT r.id, r.name, max(p) FROM (SELECT run_id, key_id, sum(points) AS p FROM metric_series "
        "WHERE kind = 'scalar' GROUP BY run_id, key_id) s JOIN run r ON r.id = s.run_id "
        "WHERE r.id NOT IN (SELECT run_id FROM lifecycle_event) GROUP BY r.id HAVING max(p) > 1 "
        "ORDER BY r.id DESC");
    while (st.step())
        out.push_back({ st.columnInt(0), st.columnText(1), false, st.columnInt(2) });
    return out;
}

} // namespace plumb
