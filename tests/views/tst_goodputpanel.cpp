// SPDX-License-Identifier: GPL-3.0-or-later
// The Goodput tab on a job written straight into lifecycle_event (tst_goodput's two preemptions, whose
// figures are computed by hand there): the newest job chosen, the figures, the breakdown table (rows,
// numeric sort, CSV records), the advice, the timeline's bands and markers, PNG/PDF export, Cancel
// and Compute again, an empty workspace; and the timeline's folding of short stretches against hand-made
// segments.

#include "charts/goodputtimelinechart.h"
#include "goodput/goodputbreakdownmodel.h"
#include "goodput/goodputpanel.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

constexpr int64_t kT0 = 1'704'070'800'000'000'000;
constexpr int64_t kS = 1'000'000'000;

void addEvent(SqliteDb &db, const char *kind, double start, double end = -1, int64_t step = -1)
{
    SqliteStmt st(db,
        "INSERT INTO lifecycle_event(run_id, source_id, kind, start_ns, end_ns, step, line) "
        "VALUES (1, 1, ?, ?, ?, ?, 0)");
    st.bind(1, std::string_view(kind)).bind(2, kT0 + int64_t(start * 1e9));
    if (end >= 0)
        st.bind(3, kT0 + int64_t(end * 1e9));
    else
        st.bindNull(3);
    if (step >= 0)
        st.bind(4, step);
    else
        st.bindNull(4);
    st.run();
}

} // namespace

class TestGoodputPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_ws;

private Q_SLOTS:
    void initTestCase()
    {
        m_ws = m_tmp.filePath(QStringLiteral("goodput.plumb"));
        Workspace ws(m_ws, Workspace::Role::Writer);
        SqliteDb &db = ws.db();
        db.exec("INSERT INTO run(id, key, name, created_at_ns) VALUES (1, 'lifecycle:job', 'job', 0)");
        addEvent(db, "provisioning", 0, 10);
        addEvent(db, "job_start", 10);
        for (int s = 0; s < 6; ++s)
            addEvent(db, "step", 10 + 2 * s, -1, s);
        addEvent(db, "checkpoint_save", 16, 17, 3);
        addEvent(db, "interruption", 21);
        addEvent(db, "provisioning", 25, 30);
        addEvent(db, "restart", 32);
        addEvent(db, "checkpoint_restore", 32, 34, 3);
        for (int s = 3; s < 7; ++s)
            addEvent(db, "step", 34 + 2 * (s - 3), -1, s);
        addEvent(db, "interruption", 41);
        addEvent(db, "restart", 45);
        addEvent(db, "checkpoint_restore", 45, 46, 6);
        addEvent(db, "step", 46, -1, 6);
        addEvent(db, "step", 48, -1, 7);
        addEvent(db, "job_end", 50);
    }

    void showsTheJob()
    {
        GoodputPanel panel;
        panel.resize(1200, 800);
        panel.show();
        QSignalSpy loaded(&panel, &GoodputPanel::loaded);
        panel.setWorkspace(m_ws);
        QVERIFY(loaded.wait(10000));
        const GoodputReport &r = panel.report();
        QVERIFY2(r.valid(), qPrintable(r.problem));
        QCOMPARE(panel.runs().size(), size_t(1));
        QCOMPARE(r.runId, 1);
        QCOMPARE(r.elapsedNs, 50 * kS);
        QCOMPARE(r.goodput, 16.0 / 50.0);
        QVERIFY(panel.adviceText().startsWith(
            QStringLiteral("Provisioning is the largest badput: 30.0% of the job")));

        auto *table = panel.findChild<QTableView *>();
        QVERIFY(table);
        auto *model = qobject_cast<GoodputBreakdownModel *>(
            qobject_cast<QSortFilterProxyModel *>(table->model())->sourceModel());
        QVERIFY(model);
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Productive, provisioning, checkpoint save, restore, wasted progress, disruption recovery.
        QCOMPARE(model->rowCount(), 6);
        const QList<QStringList> records = model->records({ 0, 1 });
        QCOMPARE(records[1],
            (QStringList { QStringLiteral("productive"), QStringLiteral("16"), QStringLiteral("0.32") }));
        QCOMPARE(records[2],
            (QStringList { QStringLiteral("provisioning"), QStringLiteral("15"), QStringLiteral("0.3") }));
        table->sortByColumn(GoodputBreakdownModel::TimeColumn, Qt::DescendingOrder);
        QCOMPARE(table->model()->index(0, 0).data().toString(), QStringLiteral("Productive training"));
        QCOMPARE(table->model()->index(1, 0).data().toString(), QStringLiteral("Provisioning"));
        QCOMPARE(table->model()->index(2, 0).data().toString(), QStringLiteral("Disruption recovery"));

        auto *timeline = panel.findChild<GoodputTimelineChart *>();
        QVERIFY(timeline);
        QCOMPARE(timeline->drawnSegments(), int(r.segments.size())); // nothing short enough to fold

        for (const char *suffix : { ".png", ".pdf" }) {
            const QString file = m_tmp.filePath(QStringLiteral("goodput") + QLatin1String(suffix));
            QVERIFY(panel.exportTo(file));
            QVERIFY(QFileInfo(file).size() > 1000);
        }
    }

    // "Computing… Cancel": the result of a cancelled analysis never lands; "Compute again" brings it.
    void cancelAndComputeAgain()
    {
        GoodputPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy loaded(&panel, &GoodputPanel::loaded);
        panel.setWorkspace(m_ws);
        QLabel *status = nullptr;
        for (QLabel *l : panel.findChildren<QLabel *>())
            if (l->text().contains(QStringLiteral("href=\"cancel\"")))
                status = l;
        QVERIFY(status);
        QCOMPARE(status->accessibleName(), QStringLiteral("Goodput analysis"));
        Q_EMIT status->linkActivated(QStringLiteral("cancel"));
        QVERIFY(status->text().startsWith(QStringLiteral("Cancelled.")));
        QTest::qWait(1000);
        QCOMPARE(loaded.size(), 0);
        QVERIFY(!panel.report().valid());
        Q_EMIT status->linkActivated(QStringLiteral("compute"));
        QVERIFY(loaded.wait(10000));
        QCOMPARE(panel.report().goodput, 16.0 / 50.0);
        QVERIFY(status->text().isEmpty());
    }

    void emptyWorkspace()
    {
        const QString path = m_tmp.filePath(QStringLiteral("empty.plumb"));
        {
            Workspace ws(path, Workspace::Role::Writer);
        }
        GoodputPanel panel;
        QSignalSpy loaded(&panel, &GoodputPanel::loaded);
        panel.setWorkspace(path);
        QVERIFY(loaded.wait(10000));
        QVERIFY(panel.runs().empty());
        QVERIFY(!panel.report().valid());
    }

    // 10 s productive, then 1 s checkpoint save, four 0.5 s stretches (0.3 s data loading + 0.2 s
    // productive each) and 10 s productive, folded at 1 s: the save stays; the short stretches become
    // 1 s cells of what held most of each (data loading, 0.6 of 1 s); the productive ends stay.
    void foldsShortStretches()
    {
        const int dl = int(Badput::DataLoading), save = int(Badput::CheckpointSave);
        std::vector<GoodputSegment> s { { 0, 10 * kS, -1 }, { 10 * kS, 11 * kS, save } };
        int64_t t = 11 * kS;
        for (int i = 0; i < 4; ++i) {
            s.push_back({ t, t + 3 * kS / 10, dl });
            s.push_back({ t + 3 * kS / 10, t + kS / 2, -1 });
            t += kS / 2;
        }
        s.push_back({ t, t + 10 * kS, -1 });
        const std::vector<GoodputSegment> f = foldSegments(s, kS);
        QCOMPARE(f.size(), size_t(4));
        QCOMPARE(f[1].category, save);
        QCOMPARE(f[2].category, dl);
        QCOMPARE(f[2].startNs, 11 * kS);
        QCOMPARE(f[2].endNs, 13 * kS);
        QCOMPARE(f[3].startNs, 13 * kS);
    }
};

QTEST_MAIN(TestGoodputPanel)
#include "tst_goodputpanel.moc"
