// SPDX-License-Identifier: GPL-3.0-or-later
// The trace row and the run a trace joins (core/ingest/trace/tracerecord.h).
#include "ingest/diagnosticlog.h"
#include "ingest/trace/tracerecord.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestTraceRecord : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    void runNames()
    {
        QCOMPARE(traceRunName(QStringLiteral("host_1.pt.trace.json.gz")), QStringLiteral("host_1"));
        QCOMPARE(traceRunName(QStringLiteral("a.xplane.pb")), QStringLiteral("a"));
        QCOMPARE(traceRunName(QStringLiteral("report.sqlite")), QStringLiteral("report"));
        QCOMPARE(traceRunName(QStringLiteral("notes.txt")), QStringLiteral("notes.txt"));
    }

    // The trace row carries the facts and counts; a device given twice is the second one.
    void traceRow()
    {
        Workspace ws(m_dir.filePath(QStringLiteral("t.plumb")), Workspace::Role::Writer);
        DiagnosticLog diag;
        TraceRecord record(3, QStringLiteral("/x/run.json"), QStringLiteral("chrome"));
        record.setBaseTimeNs(99);
        record.setMetadataJson(R"({"k":1})");
        record.addDevice(0, QStringLiteral("A100"), "{}");
        record.addDevice(0, QStringLiteral("H100"), "{}");
        record.addDevice(1, QStringLiteral("H100"), "{}");
        TraceStats stats;
        stats.slices = 12;
        stats.flows = 4;
        stats.corrFlows = 2;
        record.write(ws.db(), diag, 7, stats);
        SqliteDb &db = ws.db();
        QCOMPARE(db.queryInt(
                     "SELECT count(*) FROM trace WHERE id = 7 AND source_id = 3 AND name = 'run.json' AND "
                     "format = 'chrome' AND base_time_ns = 99 AND slice_count = 12 AND flow_count = 4 AND "
                     "corr_flow_count = 2 AND start_ns IS NULL AND rank IS NULL AND metadata = '{\"k\":1}'"),
            int64_t(1));
        QCOMPARE(db.queryInt("SELECT count(*) FROM device WHERE trace_id = 7"), int64_t(2));
        QCOMPARE(db.queryInt("SELECT count(*) FROM device WHERE trace_id = 7 AND name = 'A100'"), int64_t(0));
        QCOMPARE(
            db.queryInt("SELECT count(*) FROM run r JOIN trace t ON t.run_id = r.id WHERE r.name = 'run' AND "
                        "r.key = 'source:3'"),
            int64_t(1));
        QVERIFY(diag.all().empty());
    }

    // Ranks of one job share a run; a rank the run has already is another job; a rank in the file
    // name is taken with a warning; a job key names the run.
    void runs()
    {
        Workspace ws(m_dir.filePath(QStringLiteral("r.plumb")), Workspace::Role::Writer);
        SqliteDb &db = ws.db();
        DiagnosticLog diag;
        auto write = [&](int64_t trace, const QString &file, int64_t rank, int64_t world) {
            TraceRecord record(trace, m_dir.filePath(file), QStringLiteral("chrome"));
            if (rank != kNoValue) {
                record.setRank(rank, world);
            }
            record.write(db, diag, trace, TraceStats {});
            return db.queryInt(("SELECT run_id FROM trace WHERE id = " + std::to_string(trace)).c_str());
        };
        const int64_t r0 = write(1, QStringLiteral("rank-0.json"), 0, 2);
        QCOMPARE(write(2, QStringLiteral("rank-1.json"), 1, 2), r0);
        QVERIFY(write(3, QStringLiteral("rank-3.json"), 1, 2) != r0); // rank 1 again
        QVERIFY(diag.all().empty());
        QCOMPARE(write(4, QStringLiteral("worker_rank7.json"), kNoValue, kNoValue),
            write(5, QStringLiteral("worker_rank8.json"), kNoValue, kNoValue));
        QVERIFY(diag.has(QStringLiteral("rank-from-file-name")));
        QCOMPARE(db.queryInt("SELECT rank FROM trace WHERE id = 5"), int64_t(8));

        TraceRecord hostA(6, m_dir.filePath(QStringLiteral("hostA.json")), QStringLiteral("chrome"));
        hostA.setJob(QStringLiteral("job-1"), QStringLiteral("myjob.json"));
        hostA.write(db, diag, 6, TraceStats {});
        TraceRecord hostB(7, m_dir.filePath(QStringLiteral("hostB.json")), QStringLiteral("chrome"));
        hostB.setJob(QStringLiteral("job-1"), QStringLiteral("other"));
        hostB.write(db, diag, 7, TraceStats {});
        QCOMPARE(db.queryInt("SELECT count(DISTINCT run_id) FROM trace WHERE id IN (6, 7)"), int64_t(1));
        QCOMPARE(db.queryInt("SELECT count(*) FROM run WHERE key = 'trace-job:job-1' AND name = 'myjob'"),
            int64_t(1));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestTraceRecord)
#include "tst_tracerecord.moc"
