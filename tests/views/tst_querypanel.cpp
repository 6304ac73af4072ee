// SPDX-License-Identifier: GPL-3.0-or-later
// The Query tab on the sample workspace: its examples return rows, a statement that would write is
// refused with the error line and leaves the workspace as it was, the result model passes
// QAbstractItemModelTester and sorts on values, Ctrl+C copies the selected rows as TSV, the history
// outlives the panel, and the chart draws the two numeric columns.
#include "charts/xychart.h"
#include "importhelpers.h"
#include "query/querypanel.h"
#include "query/queryresultmodel.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

constexpr int kWaitMs = 30000;

// What a write could change: the schema, the rows of the tables the statements below aim at, and
// the settings PRAGMAs could.
QString workspaceFingerprint(const QString &path)
{
    Workspace ws(path, Workspace::Role::Reader);
    QStringList parts;
    SqliteStmt schema(ws.db(), "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name");
    while (schema.step())
        parts << schema.columnText(0) + u' ' + schema.columnText(1) + u' ' + schema.columnText(2);
    for (const char *table : { "run", "trace", "source", "diagnostic", "param" })
        parts << QString::number(ws.db().queryInt(std::string("SELECT count(*) FROM ") + table));
    parts << QString::number(ws.db().queryInt("PRAGMA user_version"));
    parts << QString::number(ws.db().queryInt("SELECT coalesce(max(id), 0) FROM run"));
    return parts.join(u'\n');
}

} // namespace

class TestQueryPanel : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_ws;

    bool runAndWait(QueryPanel &panel, const QString &sql)
    {
        QSignalSpy done(&panel, &QueryPanel::finished);
        panel.setSql(sql);
        panel.run();
        return done.wait(kWaitMs);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PlumbTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_querypanel"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(
            QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QSettings().clear();
        // The sample workspace, as plumb-ui --sample builds it.
        QStringList files;
        for (const QFileInfo &info :
            QDir(QStringLiteral(PLUMB_SAMPLES_DIR))
                .entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            if (info.isDir()
                || (info.suffix() != QLatin1String("py") && info.suffix() != QLatin1String("yaml")
                    && info.suffix() != QLatin1String("md")))
                files << info.absoluteFilePath();
        QVERIFY(files.size() >= 5);
        m_ws = m_dir.filePath(QStringLiteral("sample.plumb"));
        const QString problems = importFoldersIntoWorkspace(m_ws, files);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    // The tab does not widen the window: it fits a 1280-pixel screen beside the details pane, with a
    // result whose column names are long.
    void fitsSmallScreens()
    {
        QueryPanel panel;
        panel.setWorkspace(m_ws);
        QVERIFY(runAndWait(panel,
            QStringLiteral("SELECT 1 AS a_rather_long_column_name_for_a_number, "
                           "2 AS another_rather_long_column_name_for_a_number")));
        QVERIFY2(panel.minimumSizeHint().width() <= 700,
            qPrintable(QString::number(panel.minimumSizeHint().width())));
    }

    // Every example runs and returns rows on the sample workspace.
    void examplesReturnRows()
    {
        QueryPanel panel;
        panel.setWorkspace(m_ws);
        QVERIFY(QueryPanel::examples().size() >= 5);
        for (const QueryPanel::Example &e : QueryPanel::examples()) {
            QVERIFY2(runAndWait(panel, e.sql), qPrintable(e.title));
            QVERIFY2(
                panel.errorText().isEmpty(), qPrintable(e.title + QStringLiteral(": ") + panel.errorText()));
            QVERIFY2(panel.model()->rowCount() > 0, qPrintable(e.title));
        }
    }

    void refusesWrites_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::newRow("insert") << QStringLiteral(
            "INSERT INTO run(key, name, created_at_ns) VALUES ('x', 'injected', 0)");
        QTest::newRow("delete") << QStringLiteral("DELETE FROM run");
        QTest::newRow("update") << QStringLiteral("UPDATE run SET name = 'renamed'");
        QTest::newRow("drop") << QStringLiteral("DROP VIEW kernels");
        QTest::newRow("create") << QStringLiteral("CREATE TABLE t(x)");
        QTest::newRow("attach") << QStringLiteral("ATTACH DATABASE '%1' AS other")
                                       .arg(m_dir.filePath(QStringLiteral("other.db")));
        QTest::newRow("pragma") << QStringLiteral("PRAGMA user_version = 99");
        QTest::newRow("cte insert") << QStringLiteral(
            "WITH x AS (SELECT 1) INSERT INTO run(key, name, created_at_ns) SELECT 'y', 'z', 0 FROM x");
    }
    void refusesWrites()
    {
        QFETCH(QString, sql);
        const QString before = workspaceFingerprint(m_ws);
        QueryPanel panel;
        panel.setWorkspace(m_ws);
        QVERIFY(runAndWait(panel, QStringLiteral("SELECT name FROM runs ORDER BY run_id")));
        const int rows = panel.model()->rowCount();
        QVERIFY(rows > 0);
        QVERIFY(runAndWait(panel, sql));
        QVERIFY2(panel.errorText().startsWith(QStringLiteral("refused")), qPrintable(panel.errorText()));
        QVERIFY(panel.errorText().contains(sql.left(10)));
        QVERIFY(panel.statusText().contains(QStringLiteral("unchanged")));
        QCOMPARE(panel.model()->rowCount(), rows); // the last result stays
        QCOMPARE(workspaceFingerprint(m_ws), before);
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("other.db"))));
        // The next good statement clears the error line.
        QVERIFY(runAndWait(panel, QStringLiteral("SELECT 1")));
        QVERIFY(panel.errorText().isEmpty());
    }

    void badStatementSaysWhy()
    {
        QueryPanel panel;
        panel.setWorkspace(m_ws);
        QVERIFY(runAndWait(panel, QStringLiteral("SELEC name FROM runs")));
        QVERIFY2(panel.errorText().contains(QStringLiteral("syntax error")), qPrintable(panel.errorText()));
        QVERIFY(runAndWait(panel, QStringLiteral("SELECT no_such_column FROM kernels")));
        QVERIFY2(panel.errorText().contains(QStringLiteral("no_such_column")), qPrintable(panel.errorText()));
    }

    // The model under QAbstractItemModelTester through a result, a sort on each column and a reset;
    // sorting orders NULL first, then numbers by value, then text.
    void resultModel()
    {
        QueryPanel panel;
        panel.setWorkspace(m_ws);
        QAbstractItemModelTester tester(
            panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(runAndWait(panel,
            QStringLiteral("SELECT 10 AS n, 'b' AS s UNION ALL SELECT 9.5, NULL UNION ALL SELECT NULL, 'a' "
                           "UNION ALL SELECT 100, 'c'")));
        QueryResultModel *m = panel.model();
        QCOMPARE(m->columnCount(), 2);
        QCOMPARE(m->rowCount(), 4);
        panel.table()->sortByColumn(0, Qt::AscendingOrder);
        QStringList shown;
        for (int r = 0; r < 4; ++r)
            shown << m->index(r, 0).data().toString();
        QCOMPARE(shown,
            QStringList({ QStringLiteral("NULL"), QStringLiteral("9.5"), QStringLiteral("10"),
                QStringLiteral("100") })); // 100 after 10 and 9.5: by value, not text
        QCOMPARE(m->index(3, 0).data(QueryResultModel::SortRole), QVariant(qint64(100)));
        QCOMPARE(m->index(1, 0).data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight, int(Qt::AlignRight));
        panel.table()->sortByColumn(1, Qt::DescendingOrder);
        QCOMPARE(m->index(0, 1).data().toString(), QStringLiteral("c"));
        QCOMPARE(m->index(3, 1).data().toString(), QStringLiteral("NULL"));
        QVERIFY(m->isNumeric(0));
        QVERIFY(!m->isNumeric(1));
        QVERIFY(runAndWait(panel, QStringLiteral("SELECT name, kernel_count FROM traces")));
        QVERIFY(m->rowCount() > 0);
    }

    // Ctrl+C: the selected rows, the header first, tab-separated; NULL copies as an empty field and a
    // tab inside a value as a space.
    void copiesSelectionAsTsv()
    {
        QueryPanel panel;
        panel.setWorkspace(m_ws);
        QVERIFY(runAndWait(panel,
            QStringLiteral("SELECT 1 AS a, 'x' AS b, NULL AS c, 2.5 AS d UNION ALL "
                           "SELECT 2, 'y' || char(9) || 'z', 4, 0.1 UNION ALL SELECT 3, 'w', 5, 6")));
        QTableView *table = panel.table();
        table->selectRow(0);
        table->selectionModel()->select(
            table->model()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QAction *copy = nullptr;
        for (QAction *a : table->actions())
            if (a->objectName() == QLatin1String("table.copy"))
                copy = a;
        QVERIFY(copy);
        QCOMPARE(copy->shortcut(), QKeySequence(QKeySequence::Copy));
        QApplication::clipboard()->clear();
        copy->trigger();
        QCOMPARE(
            QApplication::clipboard()->text(), QStringLiteral("a\tb\tc\td\n1\tx\t\t2.5\n2\ty z\t4\t0.1\n"));
    }

    // The statements run, newest first, without repeats, in QSettings: a new panel (the next
    // session) offers them.
    void historyOutlivesThePanel()
    {
        QSettings().remove(QStringLiteral("query/history"));
        {
            QueryPanel panel;
            panel.setWorkspace(m_ws);
            QVERIFY(runAndWait(panel, QStringLiteral("SELECT 1")));
            QVERIFY(runAndWait(panel, QStringLiteral("SELECT 2")));
            QVERIFY(runAndWait(panel, QStringLiteral("SELECT 1")));
            QVERIFY(runAndWait(panel, QStringLiteral("DELETE FROM run"))); // refused, still remembered
        }
        QueryPanel next;
        QCOMPARE(next.history(),
            QStringList({ QStringLiteral("DELETE FROM run"), QStringLiteral("SELECT 1"),
                QStringLiteral("SELECT 2") }));
    }

    // The chart: the first two numeric columns by default (a text column is not offered), one point
    // per row where both are numbers.
    void chartsTwoColumns()
    {
        QueryPanel panel;
        panel.setWorkspace(m_ws);
        QVERIFY(runAndWait(panel, QueryPanel::examples().at(2).sql)); // final val_loss against lr
        QCOMPARE(panel.model()->columns(),
            QStringList(
                { QStringLiteral("run_name"), QStringLiteral("lr"), QStringLiteral("final_val_loss") }));
        QCOMPARE(panel.chartXColumn(), 1);
        QCOMPARE(panel.chartYColumn(), 2);
        QCOMPARE(panel.chart()->pointCount(), panel.model()->rowCount());
        QCOMPARE(panel.chart()->series().x.front(), panel.model()->number(0, 1).value());
        panel.setChartColumns(2, 1);
        QCOMPARE(panel.chart()->series().x.front(), panel.model()->number(0, 2).value());
        QVERIFY(runAndWait(panel, QStringLiteral("SELECT name FROM runs")));
        QCOMPARE(panel.chartXColumn(), -1);
        QCOMPARE(panel.chart()->pointCount(), 0);
    }
};

QTEST_MAIN(TestQueryPanel)
#include "tst_querypanel.moc"
