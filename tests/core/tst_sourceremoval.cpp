// SPDX-License-Identifier: GPL-3.0-or-later
// Remove Source: removing a source leaves the workspace equal, table by table and row by row, to one
// where it was never imported (apart from the intern tables `string` and `args`, the import times and
// the slice and counter id allocators); an experiment log is refused and leaves the workspace untouched.
#include "importhelpers.h"
#include "store/sourceremoval.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

namespace {

const QString kSamples = QStringLiteral(PLUMB_SOURCE_DIR "/resources/samples/");

// Columns whose value is the time of the import, not what was imported.
bool isImportTime(const QString &column)
{
    return column == QLatin1String("imported_at_ns") || column == QLatin1String("import_ms")
        || column == QLatin1String("created_at_ns");
}

// Every table but the intern tables, each row as text, rows sorted.
QStringList dump(const QString &path)
{
    Workspace ws(path, Workspace::Role::Reader);
    QStringList tables;
    {
        SqliteStmt st(ws.db(),
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT IN ('string', 'args') ORDER BY name");
        while (st.step())
            tables << st.columnText(0);
    }
    QStringList out;
    for (const QString &table : tables) {
        QStringList columns;
        SqliteStmt info(ws.db(), "SELECT name FROM pragma_table_info(?1)");
        info.bind(1, table);
        while (info.step())
            if (!isImportTime(info.columnText(0)))
                columns << info.columnText(0);
        QString sql = QStringLiteral("SELECT %1 FROM \"%2\"").arg(columns.join(QStringLiteral(", ")), table);
        if (table == QLatin1String("workspace_info")) // id allocators stay ahead: removed ids are not reused
            sql += QStringLiteral(" WHERE key NOT IN ('next_slice_id', 'next_counter_id')");
        SqliteStmt rows(ws.db(), sql.toStdString());
        QStringList lines;
        while (rows.step()) {
            QStringList fields;
            for (int c = 0; c < rows.columnCount(); ++c)
                fields << (rows.columnIsNull(c) ? QStringLiteral("NULL") : rows.columnText(c));
            lines << table + QLatin1Char('|') + fields.join(QLatin1Char('|'));
        }
        lines.sort();
        out << table + QStringLiteral(": %1 rows").arg(lines.size()) << lines;
    }
    return out;
}

// The first difference between two dumps, for a readable failure.
QString firstDifference(const QStringList &a, const QStringList &b)
{
    for (qsizetype i = 0; i < std::min(a.size(), b.size()); ++i)
        if (a[i] != b[i])
            return QStringLiteral("line %1:\n  %2\n  %3").arg(i).arg(a[i].left(300), b[i].left(300));
    return a.size() == b.size() ? QString() : QStringLiteral("%1 vs %2 lines").arg(a.size()).arg(b.size());
}

int64_t sourceIdOf(const QString &path, const QString &name)
{
    Workspace ws(path, Workspace::Role::Reader);
    SqliteStmt st(ws.db(), "SELECT id FROM source WHERE name = ?1");
    st.bind(1, name);
    return st.step() ? st.columnInt(0) : -1;
}

} // namespace

class TestSourceRemoval : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Sources are removed newest first, and after each removal the workspace equals one that
    // imported only the sources before it.
    void removalEqualsNeverImported()
    {
        const QStringList files = { kSamples + QStringLiteral("sample_training_step.pt.trace.json.gz"),
            kSamples + QStringLiteral("sample_pipeline.openlineage.json"),
            kSamples + QStringLiteral("sample_training_job.lifecycle.jsonl.gz") };
        const QString all = m_dir.filePath(QStringLiteral("all.plumb"));
        for (const QString &f : files)
            QVERIFY2(importIntoWorkspace(all, { f }).isEmpty(), qPrintable(f));

        for (qsizetype n = files.size() - 1; n >= 0; --n) {
            const QString fewer = m_dir.filePath(QStringLiteral("first%1.plumb").arg(n));
            {
                Workspace create(fewer, Workspace::Role::Writer); // an empty workspace when n == 0
            }
            for (qsizetype i = 0; i < n; ++i)
                QVERIFY(importIntoWorkspace(fewer, { files[i] }).isEmpty());

            const int64_t id = sourceIdOf(all, QFileInfo(files[n]).fileName());
            QVERIFY(id >= 0);
            SourceRemoval done;
            {
                Workspace ws(all, Workspace::Role::Writer);
                const SourceRemoval plan = planSourceRemoval(ws.db(), id);
                QVERIFY(plan.found());
                QVERIFY2(plan.blocker.isEmpty(), qPrintable(plan.blocker));
                QVERIFY(!plan.summary().isEmpty());
                done = removeSource(ws.db(), id);
            }
            QVERIFY(done.blocker.isEmpty());
            const QStringList a = dump(all), b = dump(fewer);
            QVERIFY2(a == b,
                qPrintable(QStringLiteral("after removing %1: %2")
                               .arg(QFileInfo(files[n]).fileName(), firstDifference(a, b))));
        }
    }

    // The serving benchmark writes run metrics, which carry no source: refused, nothing changes.
    void experimentLogIsRefused()
    {
        const QString path = m_dir.filePath(QStringLiteral("serving.plumb"));
        QVERIFY(importIntoWorkspace(path, { kSamples + QStringLiteral("sample_serving.vllm.json.gz") })
                    .isEmpty());
        const QStringList before = dump(path);
        {
            Workspace ws(path, Workspace::Role::Writer);
            const int64_t id = ws.db().queryInt("SELECT min(id) FROM source", -1);
            const SourceRemoval plan = removeSource(ws.db(), id);
            QVERIFY(plan.found());
            QVERIFY(plan.blocker.contains(QStringLiteral("per run")));
            QVERIFY(!planSourceRemoval(ws.db(), id + 100).found());
        }
        QCOMPARE(dump(path), before);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestSourceRemoval)
#include "tst_sourceremoval.moc"
