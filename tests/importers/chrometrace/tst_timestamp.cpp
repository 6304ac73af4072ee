// SPDX-License-Identifier: GPL-3.0-or-later
// parseMicrosToNs: Trace Event microsecond text -> int64 nanoseconds, which every Chrome trace slice,
// counter and flow time goes through. Exact to the nanosecond with 3 decimals, rounded half away from
// zero beyond them, and refusing (not wrapping) what int64 nanoseconds cannot hold.

#include "chrometrace/timestamp.h"

#include <QtTest>

#include <clocale>
#include <limits>

using namespace plumb;

class TestTimestamp : public QObject {
    Q_OBJECT
private slots:
    void parses_data();
    void parses();
    void rejects_data();
    void rejects();
    void exponentIgnoresLocale();
};

namespace {
constexpr qint64 kMax = std::numeric_limits<qint64>::max();
constexpr qint64 kMin = std::numeric_limits<qint64>::min();
} // namespace

void TestTimestamp::parses_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("ns");

    QTest::newRow("zero") << QByteArray("0") << qint64(0);
    QTest::newRow("integer") << QByteArray("12") << qint64(12000);
    QTest::newRow("kineto 3 decimals") << QByteArray("4458676522690.655") << qint64(4458676522690655);
    // A double has 15-16 significant digits: this one would come back ...654999 or ...655001.
    QTest::newRow("epoch us, exact") << QByteArray("1717171717171717.171") << qint64(1717171717171717171);
    QTest::newRow("one decimal") << QByteArray("1.5") << qint64(1500);
    QTest::newRow("two decimals") << QByteArray("1.25") << qint64(1250);
    QTest::newRow("no whole digits") << QByteArray(".5") << qint64(500);
    QTest::newRow("trailing point") << QByteArray("5.") << qint64(5000);
    QTest::newRow("leading zeros") << QByteArray("0000000000000000000001.5") << qint64(1500);
    // Beyond the third decimal: the fourth decides, half away from zero.
    QTest::newRow("4 decimals, down") << QByteArray("1.0004") << qint64(1000);
    QTest::newRow("4 decimals, half up") << QByteArray("1.0005") << qint64(1001);
    QTest::newRow("many decimals, down") << QByteArray("1.00049999") << qint64(1000);
    QTest::newRow("many decimals, up") << QByteArray("0.99999") << qint64(1000);
    QTest::newRow("negative") << QByteArray("-3.25") << qint64(-3250);
    QTest::newRow("negative, half away") << QByteArray("-1.0005") << qint64(-1001);
    QTest::newRow("negative zero") << QByteArray("-0") << qint64(0);
    QTest::newRow("negative fraction only") << QByteArray("-.5") << qint64(-500);
    QTest::newRow("leading plus") << QByteArray("+7.5") << qint64(7500);
    QTest::newRow("spaces around") << QByteArray("  42.5  ") << qint64(42500);
    QTest::newRow("tabs and newlines") << QByteArray("\t\n42\r\n") << qint64(42000);
    QTest::newRow("exponent") << QByteArray("1e3") << qint64(1000000);
    QTest::newRow("exponent upper, signed") << QByteArray("2.5E+2") << qint64(250000);
    QTest::newRow("negative exponent") << QByteArray("3e-3") << qint64(3);
    QTest::newRow("exponent, negative value") << QByteArray("-3e-3") << qint64(-3);
    QTest::newRow("exponent, leading plus") << QByteArray("+1e2") << qint64(100000);
    QTest::newRow("exponent, long mantissa")
        << QByteArray("12345678901234567890e-10") << qint64(1234567890123);
    // The int64 limits, exactly.
    QTest::newRow("int64 max") << QByteArray("9223372036854775.807") << kMax;
    QTest::newRow("int64 max, rounded down") << QByteArray("9223372036854775.8074") << kMax;
    QTest::newRow("int64 min") << QByteArray("-9223372036854775.808") << kMin;
    QTest::newRow("16 digits below the limit")
        << QByteArray("9223372036854775") << qint64(9223372036854775000);
}

void TestTimestamp::parses()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, ns);
    const auto parsed = parseMicrosToNs(std::string_view(text.constData(), size_t(text.size())));
    QVERIFY2(parsed.has_value(), text.constData());
    QCOMPARE(qint64(*parsed), ns);
}

void TestTimestamp::rejects_data()
{
    QTest::addColumn<QByteArray>("text");

    QTest::newRow("empty") << QByteArray("");
    QTest::newRow("blank") << QByteArray(" \t\r\n");
    QTest::newRow("sign only") << QByteArray("-");
    QTest::newRow("plus only") << QByteArray("+");
    QTest::newRow("point only") << QByteArray(".");
    QTest::newRow("two signs") << QByteArray("+-5");
    QTest::newRow("letters") << QByteArray("abc");
    QTest::newRow("trailing junk") << QByteArray("12abc");
    QTest::newRow("two points") << QByteArray("1.2.3");
    QTest::newRow("inner space") << QByteArray("1 2");
    QTest::newRow("comma decimal") << QByteArray("1,5");
    QTest::newRow("hex") << QByteArray("0x10");
    QTest::newRow("quoted") << QByteArray("\"12\"");
    QTest::newRow("nan") << QByteArray("nan");
    QTest::newRow("inf") << QByteArray("inf");
    QTest::newRow("exponent without digits") << QByteArray("1e");
    QTest::newRow("exponent sign only") << QByteArray("1e+");
    QTest::newRow("exponent junk") << QByteArray("1e5x");
    QTest::newRow("exponent without mantissa") << QByteArray("e5");
    QTest::newRow("exponent overflows double") << QByteArray("1e999");
    QTest::newRow("exponent beyond int64 ns") << QByteArray("1e16");
    // Past int64 nanoseconds: refused, never wrapped round.
    QTest::newRow("int64 max + 1 ns") << QByteArray("9223372036854775.808");
    QTest::newRow("int64 max, rounded up past it") << QByteArray("9223372036854775.8075");
    QTest::newRow("int64 min - 1 ns") << QByteArray("-9223372036854775.809");
    QTest::newRow("16 digits above the limit") << QByteArray("9999999999999999");
    QTest::newRow("17 digits") << QByteArray("10000000000000000");
    QTest::newRow("uint64 overflow") << QByteArray("99999999999999999999999");
    QTest::newRow("negative, huge") << QByteArray("-99999999999999999999999.5");
}

void TestTimestamp::rejects()
{
    QFETCH(QByteArray, text);
    const auto parsed = parseMicrosToNs(std::string_view(text.constData(), size_t(text.size())));
    QVERIFY2(!parsed.has_value(),
        qPrintable(QStringLiteral("%1 -> %2").arg(QString::fromLatin1(text)).arg(parsed.value_or(0))));
}

// QCoreApplication sets the user's locale (setlocale(LC_ALL, "")); a decimal comma must not change how
// an exponent form reads.
void TestTimestamp::exponentIgnoresLocale()
{
    const QByteArray before = std::setlocale(LC_NUMERIC, nullptr);
    bool switched = false;
    for (const char *name : { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8" }) {
        if (std::setlocale(LC_NUMERIC, name)) {
            switched = true;
            break;
        }
    }
    const auto parsed = parseMicrosToNs("2.5e1");
    std::setlocale(LC_NUMERIC, before.constData());
    if (!switched) {
        QSKIP("no locale with a decimal comma is installed");
    }
    QVERIFY(parsed.has_value());
    QCOMPARE(qint64(*parsed), qint64(25000));
}

QTEST_GUILESS_MAIN(TestTimestamp)
#include "tst_timestamp.moc"
