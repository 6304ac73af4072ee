// SPDX-License-Identifier: GPL-3.0-or-later
// Counter samples of a trace import (core/ingest/trace/countertracker.h): ids in arrival order, the
// trace's time range, batches handed over when full.
#include "ingest/trace/countertracker.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

class TestCounterTracker : public QObject {
    Q_OBJECT

private slots:
    void samples()
    {
        QTemporaryDir dir;
        Workspace ws(dir.filePath(QStringLiteral("c.plumb")), Workspace::Role::Writer);
        TraceStats stats;
        {
            TraceWriter writer(ws.db(), 1);
            CounterTracker counters(writer, stats, 1000);
            counters.addCounter(3, 50, 1.5);
            counters.addCounter(3, -20, 2.5);
            counters.addCounter(4, 10, -1.0);
            QCOMPARE(counters.nextCounterId(), int64_t(1003));
            QCOMPARE(stats.counters, int64_t(3));
            QCOMPARE(stats.startNs, int64_t(-20));
            QCOMPARE(stats.endNs, int64_t(50));
            const auto &rows = writer.batch().counters;
            QCOMPARE(rows.size(), size_t(3));
            QCOMPARE(rows[1].id, int64_t(1001));
            QCOMPARE(rows[1].ts, int64_t(-20));
            QCOMPARE(rows[1].value, 2.5);
            for (size_t i = 3; i < TraceWriter::kBatchRows; ++i) {
                counters.addCounter(5, int64_t(i), 0.0);
            }
            QVERIFY(writer.batch().empty()); // the full batch went to the writer
            writer.finish();
        }
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM counter"), int64_t(TraceWriter::kBatchRows));
        QCOMPARE(ws.db().queryInt("SELECT id FROM counter WHERE track_id = 4"), int64_t(1002));
    }
};

QTEST_GUILESS_MAIN(TestCounterTracker)
#include "tst_countertracker.moc"
