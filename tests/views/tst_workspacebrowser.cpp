// SPDX-License-Identifier: GPL-3.0-or-later
// WorkspaceBrowser on a small imported workspace (a job folder of two ranks, one run of two traces, and
// a lone trace, a run of one), read as the window reads it (WorkspaceSnapshot): the tree shows the runs
// and their traces, maps rows to ids, labels traces, and selects (from code and from clicks) with the
// selection model's signals and the "baseline first, current last" order of selectedTraceIds().
#include "importhelpers.h"
#include "session/workspacesnapshot.h"
#include "workspacebrowser.h"
#include "workspacemodel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace plumb;

namespace {

QByteArray rankTrace(int rank)
{
    return QStringLiteral(
        "{\"distributedInfo\": {\"rank\": %1, \"world_size\": 2}, \"traceEvents\": [\n"
        "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
        "\"ts\":0,\"dur\":200},\n"
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
        "\"ts\":1,\"dur\":2,\"args\":{\"correlation\":1}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":50,"
        "\"args\":{\"correlation\":1,\"stream\":7}}\n"
        "]}\n")
        .arg(rank)
        .toUtf8();
}

} // namespace

class TestWorkspaceBrowser : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    WorkspaceSnapshot m_snapshot;
    std::unique_ptr<WorkspaceModel> m_model;
    std::unique_ptr<WorkspaceBrowser> m_browser;
    std::unique_ptr<QAbstractItemModelTester> m_tester;

    // The view's row of a trace id, column 0.
    QModelIndex rowOf(int64_t traceId) const
    {
        const QAbstractItemModel *m = m_browser->model();
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex run = m->index(r, 0);
            for (int t = 0; t < m->rowCount(run); ++t) {
                const QModelIndex i = m->index(t, 0, run);
                if (const TraceInfo *info = m_browser->traceAt(i); info && info->id == traceId) {
                    return i;
                }
            }
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString job = m_dir.filePath(QStringLiteral("pretrain"));
        QVERIFY(QDir().mkpath(job));
        for (int rank : { 0, 1 }) {
            QVERIFY(writeTestFile(QStringLiteral("%1/rank-%2.json").arg(job).arg(rank), rankTrace(rank)));
        }
        const QString lone = m_dir.filePath(QStringLiteral("lone.json"));
        QVERIFY(writeTestFile(lone, rankTrace(0).replace("\"rank\": 0, \"world_size\": 2", "\"rank\": 0")));
        const QString ws = m_dir.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(ws, { job, lone });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        m_snapshot = WorkspaceSnapshot::load(ws, WorkspaceSnapshot::Mode::OpenExisting);
        QVERIFY2(m_snapshot.ok(), qPrintable(m_snapshot.error));
        // The ranks' run is named after their folder, the lone trace's after its file.
        QCOMPARE(m_snapshot.runs.size(), 2);
    }

    void init()
    {
        m_model = std::make_unique<WorkspaceModel>();
        m_browser = std::make_unique<WorkspaceBrowser>(m_model.get());
        m_tester = std::make_unique<QAbstractItemModelTester>(
            m_browser->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        m_model->setRuns(m_snapshot.runs);
        m_browser->resize(800, 400);
        m_browser->fitColumns(300);
    }

    void cleanup()
    {
        m_tester.reset();
        m_browser.reset();
        m_model.reset();
    }

    void showsRunsAndTraces()
    {
        const QAbstractItemModel *m = m_browser->model();
        QCOMPARE(m->rowCount(), 2);
        int traces = 0;
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex run = m->index(r, 0);
            QVERIFY(m_browser->runAt(run));
            QVERIFY(!m_browser->traceAt(run));
            QVERIFY(m_browser->isExpanded(run)); // fitColumns() expands every run
            traces += m->rowCount(run);
        }
        QCOMPARE(traces, 3);
        const QList<int64_t> ids = m_browser->traceIds();
        QCOMPARE(ids.size(), 3);
        // Tree order: the view's rows, runs sorted by name.
        QList<int64_t> rows;
        for (int r = 0; r < m->rowCount(); ++r) {
            for (int t = 0; t < m->rowCount(m->index(r, 0)); ++t) {
                rows << m_browser->traceAt(m->index(t, WorkspaceModel::EventsColumn, m->index(r, 0)))->id;
            }
        }
        QCOMPARE(ids, rows);
        QCOMPARE(m->index(0, 0).data().toString(), QStringLiteral("lone"));
        QCOMPARE(m->index(1, 0).data().toString(), QStringLiteral("pretrain"));
        QCOMPARE(m_browser->traceLabel(ids.at(0)), QStringLiteral("lone.json (run lone)"));
        QCOMPARE(m_browser->traceLabel(ids.at(2)), QStringLiteral("rank-1.json (run pretrain)"));

        for (const RunInfo &r : m_snapshot.runs) {
            QCOMPARE(m_browser->runById(r.id)->name, r.name);
            for (const TraceInfo &t : r.traces) {
                QVERIFY(rowOf(t.id).isValid());
                const QString label = m_browser->traceLabel(t.id);
                QCOMPARE(
                    label, r.name != t.name ? QStringLiteral("%1 (run %2)").arg(t.name, r.name) : t.name);
            }
        }
        QVERIFY(!m_browser->runById(9999));
        QCOMPARE(m_browser->traceLabel(9999), QString());
    }

    void selectTraceFromCode()
    {
        QItemSelectionModel *sel = m_browser->selectionModel();
        QSignalSpy current(sel, &QItemSelectionModel::currentChanged);
        QSignalSpy selection(sel, &QItemSelectionModel::selectionChanged);
        QCOMPARE(m_browser->currentTraceId(), -1);
        QVERIFY(m_browser->selectedTraceIds().isEmpty());

        const QList<int64_t> ids = m_browser->traceIds();
        QVERIFY(m_browser->selectTrace(ids.at(1)));
        QCOMPARE(current.count(), 1);
        QCOMPARE(selection.count(), 1);
        QCOMPARE(m_browser->currentTraceId(), ids.at(1));
        QCOMPARE(m_browser->selectedTraceIds(), QList<int64_t>({ ids.at(1) }));
        QCOMPARE(sel->selectedRows().size(), 1); // whole rows

        QVERIFY(m_browser->selectTrace(ids.at(2))); // replaces the selection
        QCOMPARE(m_browser->selectedTraceIds(), QList<int64_t>({ ids.at(2) }));

        QVERIFY(!m_browser->selectTrace(9999));
        QCOMPARE(m_browser->currentTraceId(), -1);
    }

    void clicksSelectTracesBaselineFirst()
    {
        m_browser->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_browser.get()));
        QSignalSpy current(m_browser->selectionModel(), &QItemSelectionModel::currentChanged);
        const QList<int64_t> ids = m_browser->traceIds();
        auto click = [this](int64_t id, Qt::KeyboardModifiers mods) {
            const QRect rect = m_browser->visualRect(rowOf(id));
            QVERIFY(rect.isValid());
            QTest::mouseClick(m_browser->viewport(), Qt::LeftButton, mods, rect.center());
        };
        click(ids.at(2), Qt::NoModifier);
        QCOMPARE(current.count(), 1);
        QCOMPARE(m_browser->currentTraceId(), ids.at(2));
        // Ctrl-click an earlier trace: it becomes current, so it is the one compared with the first.
        click(ids.at(0), Qt::ControlModifier);
        QCOMPARE(current.count(), 2);
        QCOMPARE(m_browser->currentTraceId(), ids.at(0));
        QCOMPARE(m_browser->selectedTraceIds(), QList<int64_t>({ ids.at(2), ids.at(0) }));
    }

    void runOfOneTraceCountsAsItsTrace()
    {
        const QAbstractItemModel *m = m_browser->model();
        QModelIndex single, pair;
        for (int r = 0; r < m->rowCount(); ++r) {
            (m->rowCount(m->index(r, 0)) == 1 ? single : pair) = m->index(r, 0);
        }
        QVERIFY(single.isValid() && pair.isValid());
        QItemSelectionModel *sel = m_browser->selectionModel();
        sel->setCurrentIndex(single, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(m_browser->currentTraceId(), -1); // the current row is a run
        QCOMPARE(m_browser->selectedTraceIds(),
            QList<int64_t>({ m_browser->traceAt(m->index(0, 0, single))->id }));
        // A run of two is no one trace.
        sel->setCurrentIndex(pair, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(m_browser->selectedTraceIds().isEmpty());
    }
};

QTEST_MAIN(TestWorkspaceBrowser)
#include "tst_workspacebrowser.moc"
