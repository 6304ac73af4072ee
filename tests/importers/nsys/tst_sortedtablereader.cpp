// SPDX-License-Identifier: GPL-3.0-or-later
// SortedTableReader: the in-memory sort returns rows in exactly the order SQLite's ORDER BY does
// (ties in storage order, NULL first ascending and last descending), and so do the sorted runs merged
// from temporary files when the table is over the memory budget, and the fallback that runs the
// ORDER BY when the budget is too small even for a run; and whether the table's rows are random or,
// as nsys exports them, in time order (each group's rows in key order, the groups interleaved: ordered
// by group in one pass), or in time order but for one row (sorted after all).

#include "nsys/sortedtablereader.h"
#include "store/foreignsqlitedb.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace plumb;

class TestSortedTableReader : public QObject {
    Q_OBJECT

private slots:
    void matchesOrderBy_data();
    void matchesOrderBy();

private:
    QTemporaryDir m_dir;
};

namespace {

// Rows with many ties and NULLs in every key column, in table t; t_time holds them in time order (by
// start, longer first, as the groups interleave), t_one_out the same and one more row that is not.
// Returns the file path.
QString makeTable(const QString &dir)
{
    const QString path = dir + QStringLiteral("/t.sqlite");
    if (QFile::exists(path))
        return path;
    sqlite3 *db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_exec(db, "CREATE TABLE t(g INTEGER, s INTEGER, e INTEGER, v INTEGER, txt TEXT); BEGIN", nullptr,
        nullptr, nullptr);
    sqlite3_stmt *st = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?,?,?,?,?)", -1, &st, nullptr);
    std::mt19937 rng(7);
    for (int i = 0; i < 20000; ++i) {
        auto maybeNull = [&](int col, int64_t v) {
            if (rng() % 17 == 0)
                sqlite3_bind_null(st, col);
            else
                sqlite3_bind_int64(st, col, v);
        };
        maybeNull(1, int64_t(rng() % 4));
        maybeNull(2, int64_t(rng() % 50) - 10);
        maybeNull(3, int64_t(rng() % 3));
        sqlite3_bind_int64(st, 4, i);
        const std::string text = "row " + std::to_string(i);
        if (i % 5 == 0)
            sqlite3_bind_null(st, 5);
        else
            sqlite3_bind_text(st, 5, text.c_str(), int(text.size()), SQLITE_TRANSIENT);
        sqlite3_step(st);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sqlite3_exec(db,
        "CREATE TABLE t_time AS SELECT * FROM t ORDER BY s, e DESC, rowid; "
        "CREATE TABLE t_one_out AS SELECT * FROM t ORDER BY s, e DESC, rowid; "
        "INSERT INTO t_one_out VALUES (1, -20, 1, 20000, 'late');",
        nullptr, nullptr, nullptr);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return path;
}

} // namespace

void TestSortedTableReader::matchesOrderBy_data()
{
    QTest::addColumn<size_t>("budget"); // KiB
    QTest::addColumn<bool>("inMemory");
    QTest::addColumn<int>("runs"); // sorted runs spilled to temporary files
    QTest::addColumn<int64_t>("estimate"); // the row count the reader is told
    QTest::addColumn<bool>("loadElsewhere"); // load() on another thread, then read here
    QTest::addColumn<QString>("table");
    // 20,000 rows of 5 columns take 88 bytes each while sorted in memory: 1.7 MiB.
    for (const char *table : { "t", "t_time", "t_one_out" }) {
        auto row = [&](const char *name) -> QTestData & {
            return QTest::newRow(
                qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(table), QLatin1String(name))));
        };
        const QString t = QString::fromLatin1(table);
        row("sorted in memory") << size_t(64 << 10) << true << 0 << int64_t(20000) << false << t;
        row("sorted in memory, loaded on a thread")
            << size_t(64 << 10) << true << 0 << int64_t(20000) << true << t;
        row("in 2 runs") << size_t(1024) << false << 2 << int64_t(20000) << false << t;
        row("in 5 runs, loaded on a thread") << size_t(400) << false << 5 << int64_t(20000) << true << t;
        row("estimate too high, fits in one") << size_t(1800) << true << 0 << int64_t(40000) << false << t;
        row("sorted by SQLite") << size_t(0) << false << 0 << int64_t(20000) << false << t;
        row("sorted by SQLite, first row on a thread")
            << size_t(0) << false << 0 << int64_t(20000) << true << t;
    }
}

void TestSortedTableReader::matchesOrderBy()
{
    QFETCH(size_t, budget);
    QFETCH(bool, inMemory);
    QFETCH(int, runs);
    QFETCH(int64_t, estimate);
    QFETCH(bool, loadElsewhere);
    QFETCH(QString, table);
    QVERIFY(m_dir.isValid());
    const QString path = makeTable(m_dir.path());
    ForeignSqliteDb db(path);
    const std::vector<SortedTableReader::Column> columns = { { "\"g\"", false }, { "\"s\"", false },
        { "\"e\"", false }, { "\"v\"", false }, { "\"txt\"", true } };
    const std::string name = table.toStdString();
    const int64_t rows = table == QStringLiteral("t_one_out") ? 20001 : 20000;
    SortedTableReader reader(
        std::make_unique<ForeignSqliteDb>(path), name, columns, { 0, 1 }, 2, estimate, budget << 10);
    if (loadElsewhere) {
        std::thread loader([&] { reader.load(); });
        loader.join();
    } else {
        reader.load();
    }
    QCOMPARE(reader.inMemory(), inMemory);
    QCOMPARE(reader.sortedInRuns(), runs > 0);
    QCOMPARE(int(reader.runCount()), runs);
    // In time order, each chunk is ordered by group in one pass; random rows, or the chunk holding the
    // row out of time order, are sorted.
    const int chunks = inMemory ? 1 : runs;
    const int ordered = table == QStringLiteral("t") ? 0
        : table == QStringLiteral("t_time")          ? chunks
                                                     : chunks - 1;
    QCOMPARE(int(reader.groupOrderedChunks()), std::max(ordered, 0));

    ForeignSqliteDb::Stmt expected(
        db, "SELECT g, s, e, v, txt FROM " + name + " ORDER BY g, s, e DESC, rowid", name);
    int64_t n = 0;
    while (expected.step()) {
        QVERIFY(reader.next());
        for (int c = 0; c < 4; ++c) {
            QCOMPARE(reader.isNull(c), expected.isNull(c));
            QCOMPARE(reader.integer(c), expected.integer(c));
        }
        QCOMPARE(reader.isNull(4), expected.isNull(4));
        const std::string_view got = reader.text(4), want = expected.text(4);
        QCOMPARE(
            QByteArray(got.data(), qsizetype(got.size())), QByteArray(want.data(), qsizetype(want.size())));
        ++n;
    }
    QVERIFY(!reader.next());
    QCOMPARE(n, rows);
}

QTEST_GUILESS_MAIN(TestSortedTableReader)
#include "tst_sortedtablereader.moc"
