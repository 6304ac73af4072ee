// SPDX-License-Identifier: GPL-3.0-or-later
// The browser's models on hand-made data: structure (QAbstractItemModelTester), numeric sorting
// through SortRole, run totals, lookups, and the diagnostics source filter.
#include "diagnosticsmodel.h"
#include "sourcefilterproxy.h"
#include "sourcesmodel.h"
#include "workspacemodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace plumb;

namespace {

TraceInfo makeTrace(int64_t id, int64_t runId, int64_t sourceId, const QString &name, int64_t events)
{
    TraceInfo t;
    t.id = id;
    t.runId = runId;
    t.sourceId = sourceId;
    t.name = name;
    t.format = QStringLiteral("chrometrace");
    t.rank = id - 1;
    t.worldSize = 3;
    t.startNs = 1000;
    t.endNs = 1000 + id * 1'000'000;
    t.events = events;
    t.slices = events / 2;
    t.kernels = events / 4;
    return t;
}

QList<RunInfo> makeRuns()
{
    RunInfo a;
    a.id = 1;
    a.name = QStringLiteral("run-a");
    a.traces = { makeTrace(1, 1, 10, QStringLiteral("rank0.json"), 9),
        makeTrace(2, 1, 11, QStringLiteral("rank1.json"), 100),
        makeTrace(3, 1, 12, QStringLiteral("rank2.json"), 10) };
    RunInfo b;
    b.id = 2;
    b.name = QStringLiteral("run-b");
    return { a, b };
}

} // namespace

class TestWorkspaceModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void structure()
    {
        WorkspaceModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns(makeRuns());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(WorkspaceModel::ColumnCount));
        const QModelIndex runA = model.index(0, 0);
        QCOMPARE(model.rowCount(runA), 3);
        QCOMPARE(model.rowCount(model.index(1, 0)), 0);
        QCOMPARE(model.traceCount(), 3);
        const QModelIndex trace = model.index(1, WorkspaceModel::EventsColumn, runA);
        QCOMPARE(trace.parent(), runA);
        QCOMPARE(trace.data(WorkspaceModel::SortRole).toLongLong(), 100);
        QCOMPARE(trace.data(WorkspaceModel::TraceIdRole).toLongLong(), 2);
        QCOMPARE(trace.data(WorkspaceModel::SourceIdRole).toLongLong(), 11);
        QCOMPARE(model.index(1, 0, runA).siblingAtColumn(WorkspaceModel::RankColumn).data().toString(),
            QStringLiteral("1 / 3"));
        QVERIFY(model.traceAt(trace.siblingAtColumn(0)));
        QVERIFY(!model.traceAt(runA));
        QCOMPARE(model.runAt(trace)->name, QStringLiteral("run-a"));

        // A run row sums its traces and spans from the earliest start to the latest end.
        QCOMPARE(
            model.index(0, WorkspaceModel::EventsColumn).data(WorkspaceModel::SortRole).toLongLong(), 119);
        QCOMPARE(model.index(0, WorkspaceModel::DurationColumn).data(WorkspaceModel::SortRole).toLongLong(),
            3'000'000);
        QCOMPARE(model.index(0, WorkspaceModel::DurationColumn).data().toString(),
            QLocale().toString(3.0, 'f', 3));

        // A run without traces (an experiment's, a serving benchmark's) leaves the trace columns empty
        // instead of showing 0 events over 0.000 ms.
        for (int c = WorkspaceModel::NameColumn + 1; c < WorkspaceModel::ColumnCount; ++c)
            QCOMPARE(model.index(1, c).data().toString(), QString());
        QCOMPARE(model.index(1, WorkspaceModel::NameColumn).data().toString(), QStringLiteral("run-b"));

        QCOMPARE(model.indexForTrace(3).row(), 2);
        QCOMPARE(model.indexForSource(11).data().toString(), QStringLiteral("rank1.json"));
        QVERIFY(!model.indexForTrace(99).isValid());

        model.setRuns({});
        QCOMPARE(model.rowCount(), 0);
    }

    void sortsNumbersNotStrings()
    {
        WorkspaceModel model;
        model.setRuns(makeRuns());
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setSortRole(WorkspaceModel::SortRole);
        proxy.sort(WorkspaceModel::EventsColumn, Qt::AscendingOrder);
        // Run rows sort too (run-b, with no events, comes first); look at run-a's traces.
        const QModelIndex runA = proxy.index(1, 0);
        QCOMPARE(runA.data().toString(), QStringLiteral("run-a"));
        QStringList order;
        for (int r = 0; r < proxy.rowCount(runA); ++r)
            order << proxy.index(r, 0, runA).data().toString();
        // As strings "10" < "100" < "9"; as numbers 9 < 10 < 100.
        QCOMPARE(order,
            QStringList({ QStringLiteral("rank0.json"), QStringLiteral("rank2.json"),
                QStringLiteral("rank1.json") }));
    }

    void sourcesModel()
    {
        SourcesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        SourceInfo s;
        s.id = 7;
        s.name = QStringLiteral("a.json.gz");
        s.path = QStringLiteral("/tmp/a.json.gz");
        s.sizeBytes = 2048;
        s.events = 1234;
        model.setSources({ s });
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, SourcesModel::SizeColumn).data(SourcesModel::SortRole).toLongLong(), 2048);
        QCOMPARE(model.index(0, SourcesModel::NameColumn).data(Qt::ToolTipRole).toString(), s.path);
        QCOMPARE(model.sourceById(7)->name, s.name);
        QVERIFY(!model.sourceById(8));
        QCOMPARE(model.indexForSource(7).row(), 0);
    }

    void diagnosticsFilter()
    {
        DiagnosticsModel model;
        SourceFilterProxy proxy(DiagnosticsModel::SourceIdRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        QList<DiagnosticRow> rows;
        for (int i = 0; i < 5; ++i) {
            DiagnosticRow d;
            d.id = i + 1;
            d.sourceId = i % 2 ? 2 : 1;
            d.severity = i == 3 ? QStringLiteral("error") : QStringLiteral("warning");
            d.code = QStringLiteral("code-%1").arg(i);
            d.count = i + 1;
            rows << d;
        }
        model.setDiagnostics(rows);
        QCOMPARE(proxy.rowCount(), 5);
        proxy.setSourceId(2);
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setSourceId(1);
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setSourceId(-1);
        QCOMPARE(proxy.rowCount(), 5);

        // Severity sorts by rank: the error comes first.
        proxy.setSortRole(DiagnosticsModel::SortRole);
        proxy.sort(DiagnosticsModel::SeverityColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, DiagnosticsModel::CodeColumn).data().toString(), QStringLiteral("code-3"));
    }
};

QTEST_MAIN(TestWorkspaceModel)
#include "tst_workspacemodel.moc"
