// SPDX-License-Identifier: GPL-3.0-or-later
// NsysStrings on its own: StringIds lookups, interned names (each read once), CUDA API names without
// their version suffix, backtrace frames, and an id the export lacks.

#include "nsys/nsysstrings.h"
#include "nsysunitfixture.h"

#include <QtTest>

using namespace plumb;
using namespace plumb::nsys;
using namespace plumb::nsys::test;

namespace {

const std::string kStrings = std::string(kBaseTables)
    + "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cudaMemcpyAsync_v3020'),"
      " (3, 'cuLaunchKernel'), (4, 'my_v2_kernel'), (5, 'name_v'), (6, 'trailing_v12a'), (7, '_v7000'),"
      " (8, '/usr/lib/x86_64-linux-gnu/libcuda.so.1'), (9, 'libfoo.so'), (10, 'main');";

} // namespace

class TestNsysStrings : public QObject {
    Q_OBJECT
private slots:
    void looksUpText();
    void internsNames();
    void stripsApiVersionSuffix_data();
    void stripsApiVersionSuffix();
    void frameText();
    void unknownIdWarns();
};

void TestNsysStrings::looksUpText()
{
    const MiniExport x(kStrings);
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    QCOMPARE(strings.lookup(3), std::string_view("cuLaunchKernel"));
    QCOMPARE(strings.lookup(10), std::string_view("main"));
    QCOMPARE(strings.lookup(1), std::string_view("cudaLaunchKernel_v7000")); // lookup never strips
    QVERIFY(!s.diag().has(QStringLiteral("unknown-string-id")));
}

void TestNsysStrings::internsNames()
{
    const MiniExport x(kStrings);
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    const int64_t main = strings.nameOf(10);
    QCOMPARE(strings.nameOf(10), main);
    QCOMPARE(s.sink().intern("main"), main);
    QCOMPARE(strings.nameOf(1), s.sink().intern("cudaLaunchKernel_v7000")); // nameOf keeps the suffix
    QVERIFY(strings.nameOf(3) != main);
}

void TestNsysStrings::stripsApiVersionSuffix_data()
{
    QTest::addColumn<qint64>("id");
    QTest::addColumn<QString>("name");
    QTest::newRow("runtime") << qint64(1) << QStringLiteral("cudaLaunchKernel");
    QTest::newRow("runtime 2") << qint64(2) << QStringLiteral("cudaMemcpyAsync");
    QTest::newRow("no suffix") << qint64(3) << QStringLiteral("cuLaunchKernel");
    QTest::newRow("not the last _v") << qint64(4) << QStringLiteral("my_v2_kernel");
    QTest::newRow("_v without digits") << qint64(5) << QStringLiteral("name_v");
    QTest::newRow("digits then letter") << qint64(6) << QStringLiteral("trailing_v12a");
    QTest::newRow("only a suffix") << qint64(7) << QStringLiteral("_v7000");
}

void TestNsysStrings::stripsApiVersionSuffix()
{
    QFETCH(qint64, id);
    QFETCH(QString, name);
    const MiniExport x(kStrings);
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    const int64_t api = strings.apiNameOf(id);
    QCOMPARE(api, s.sink().intern(name.toStdString()));
    QCOMPARE(strings.apiNameOf(id), api); // cached
}

void TestNsysStrings::frameText()
{
    const MiniExport x(kStrings);
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    QCOMPARE(strings.frameText(8, true), std::string("libcuda.so.1")); // a module: its file name
    QCOMPARE(strings.frameText(8, false), std::string("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
    QCOMPARE(strings.frameText(9, true), std::string("libfoo.so"));
    QCOMPARE(strings.frameText(10, false), std::string("main"));
    const std::string &cached = strings.frameText(10, false);
    QCOMPARE(&strings.frameText(10, false), &cached);
}

void TestNsysStrings::unknownIdWarns()
{
    const MiniExport x(kStrings);
    NsysSchema schema(x.path());
    Scratch s;
    NsysStrings strings(schema.db(), s.sink(), s.diag());
    QCOMPARE(strings.lookup(42), std::string_view("[string 42]"));
    QVERIFY(s.diag().has(QStringLiteral("unknown-string-id")));
    QCOMPARE(strings.nameOf(43), s.sink().intern("[string 43]"));
    QCOMPARE(s.diag().countOf(QStringLiteral("unknown-string-id")), int64_t(2));
}

QTEST_GUILESS_MAIN(TestNsysStrings)
#include "tst_nsysstrings.moc"
