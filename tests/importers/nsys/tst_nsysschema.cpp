// SPDX-License-Identifier: GPL-3.0-or-later
// NsysSchema on its own: the tables and columns it discovers in an export, the labels of its ENUM_*
// tables, and the SQLite files it refuses as not an Nsight Systems export.

#include "ingest/importerror.h"
#include "nsys/nsysschema.h"
#include "nsysunitfixture.h"

#include <QtTest>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

class TestNsysSchema : public QObject {
    Q_OBJECT
private slots:
    void discoversTablesAndColumns();
    void readsEnumLabels();
    void acceptsAnyEventOrTargetTable_data();
    void acceptsAnyEventOrTargetTable();
    void refusesOtherSqlite_data();
    void refusesOtherSqlite();
};

void TestNsysSchema::discoversTablesAndColumns()
{
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, "
          "shortName INTEGER);"
          "CREATE VIEW KERNEL_VIEW AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;");
    NsysSchema schema(x.path());
    QVERIFY(schema.hasTable("StringIds"));
    QVERIFY(schema.hasTable("CUPTI_ACTIVITY_KIND_KERNEL"));
    QVERIFY(!schema.hasTable("CUPTI_ACTIVITY_KIND_RUNTIME"));
    QVERIFY(!schema.hasTable("KERNEL_VIEW")); // a view is never read as a table
    QCOMPARE(schema.tables().size(), size_t(3));
    QVERIFY(schema.hasColumns("CUPTI_ACTIVITY_KIND_KERNEL", { "start", "end" }));
    QVERIFY(schema.hasColumns("CUPTI_ACTIVITY_KIND_KERNEL", { "deviceId", "shortName", "start" }));
    QVERIFY(!schema.hasColumns("CUPTI_ACTIVITY_KIND_KERNEL", { "start", "demangledName" }));
    QVERIFY(!schema.hasColumns("CUPTI_ACTIVITY_KIND_RUNTIME", { "start" }));
    QVERIFY(schema.hasColumns("CUPTI_ACTIVITY_KIND_KERNEL", {})); // the table alone
    QVERIFY(!schema.hasColumns("KERNEL_VIEW", {}));
}

void TestNsysSchema::readsEnumLabels()
{
    const MiniExport x(std::string(kBaseTables)
        + "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER);"
          "CREATE TABLE ENUM_CUDA_MEM_KIND(id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
          "INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),"
          " (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device');"
          "CREATE TABLE ENUM_NO_LABEL(id INTEGER PRIMARY KEY, name TEXT);"
          "INSERT INTO ENUM_NO_LABEL VALUES (1, 'ONE');");
    NsysSchema schema(x.path());
    QCOMPARE(schema.enumLabel("ENUM_CUDA_MEM_KIND", 0), std::string("Pageable"));
    QCOMPARE(schema.enumLabel("ENUM_CUDA_MEM_KIND", 2), std::string("Device"));
    QCOMPARE(schema.enumLabel("ENUM_CUDA_MEM_KIND", 1), std::string()); // id not there
    QCOMPARE(schema.enumLabel("ENUM_NO_LABEL", 1), std::string()); // no label column
    QCOMPARE(schema.enumLabel("ENUM_MISSING", 1), std::string()); // no such table
}

void TestNsysSchema::acceptsAnyEventOrTargetTable_data()
{
    QTest::addColumn<QString>("table");
    QTest::newRow("cupti") << QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME");
    QTest::newRow("nvtx") << QStringLiteral("NVTX_EVENTS");
    QTest::newRow("osrt") << QStringLiteral("OSRT_API");
    QTest::newRow("target-info") << QStringLiteral("TARGET_INFO_GPU");
    QTest::newRow("meta-data") << QStringLiteral("META_DATA_EXPORT");
    QTest::newRow("thread-names") << QStringLiteral("ThreadNames");
    QTest::newRow("analysis") << QStringLiteral("ANALYSIS_DETAILS");
}

void TestNsysSchema::acceptsAnyEventOrTargetTable()
{
    QFETCH(QString, table);
    const MiniExport x("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT); CREATE TABLE "
        + table.toStdString() + "(id INTEGER);");
    NsysSchema schema(x.path());
    QVERIFY(schema.hasTable(table.toStdString()));
}

void TestNsysSchema::refusesOtherSqlite_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("says");
    QTest::newRow("other tables") << QStringLiteral(
        "CREATE TABLE users(id INTEGER); CREATE TABLE orders(id INTEGER);")
                                  << QStringLiteral("its tables are ");
    QTest::newRow("no tables") << QStringLiteral("CREATE VIEW v AS SELECT 1;")
                               << QStringLiteral("it has no tables");
    // StringIds alone, or event tables without StringIds: neither is an export.
    QTest::newRow("strings only") << QStringLiteral("CREATE TABLE StringIds(id INTEGER, value TEXT);")
                                  << QStringLiteral("StringIds");
    QTest::newRow("no strings") << QStringLiteral("CREATE TABLE NVTX_EVENTS(start INTEGER);")
                                << QStringLiteral("NVTX_EVENTS");
    QTest::newRow("many tables") << QStringLiteral("CREATE TABLE a(x); CREATE TABLE b(x); CREATE TABLE c(x); "
                                                   "CREATE TABLE d(x); CREATE TABLE e(x); CREATE TABLE f(x);")
                                 << QStringLiteral(", ...)");
}

void TestNsysSchema::refusesOtherSqlite()
{
    QFETCH(QString, sql);
    QFETCH(QString, says);
    const MiniExport x(sql.toStdString());
    try {
        NsysSchema schema(x.path());
        QFAIL("a file that is not an Nsight Systems export was accepted");
    } catch (const ImportError &e) {
        QVERIFY2(
            e.message().contains(QStringLiteral("not an Nsight Systems export")), qPrintable(e.message()));
        QVERIFY2(e.message().contains(says), qPrintable(e.message()));
    }
}

QTEST_GUILESS_MAIN(TestNsysSchema)
#include "tst_nsysschema.moc"
