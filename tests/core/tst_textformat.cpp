// SPDX-License-Identifier: GPL-3.0-or-later
// text/textformat.h: the display strings the window and the CLI share, in a fixed locale (en_US) and
// time zone (UTC) so that the expected text does not depend on the machine.
#include "text/textformat.h"

#include <QLocale>
#include <QTest>

#include <ctime>

using namespace plumb;

class TestTextFormat : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        qputenv("TZ", "UTC");
        tzset();
    }

    void bytes_data()
    {
        QTest::addColumn<qint64>("n");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0 bytes");
        QTest::newRow("below a KiB") << qint64(1023) << QStringLiteral("1,023 bytes");
        QTest::newRow("1.5 KiB") << qint64(1536) << QStringLiteral("1.5 KiB");
        QTest::newRow("MiB") << qint64(5 * 1048576) << QStringLiteral("5.0 MiB");
        QTest::newRow("GiB") << qint64(3) * 1024 * 1048576 + 512 * 1048576 << QStringLiteral("3.5 GiB");
    }
    void bytes()
    {
        QFETCH(qint64, n);
        QFETCH(QString, text);
        QCOMPARE(text::bytes(n), text);
    }

    void counts()
    {
        QCOMPARE(text::count(0), QStringLiteral("0"));
        QCOMPARE(text::count(12345678), QStringLiteral("12,345,678"));
        QCOMPARE(text::count(-4200), QStringLiteral("-4,200"));
        QCOMPARE(text::counted(1, QStringLiteral("file"), QStringLiteral("files")), QStringLiteral("1 file"));
        QCOMPARE(
            text::counted(0, QStringLiteral("file"), QStringLiteral("files")), QStringLiteral("0 files"));
        QCOMPARE(text::counted(2000, QStringLiteral("kernel"), QStringLiteral("kernels")),
            QStringLiteral("2,000 kernels"));
    }

    void milliseconds()
    {
        QCOMPARE(text::milliseconds(1234567), QStringLiteral("1.235"));
        QCOMPARE(text::milliseconds(0), QStringLiteral("0.000"));
        QCOMPARE(text::milliseconds(999), QStringLiteral("0.001"));
        QCOMPARE(text::milliseconds(-1500000), QStringLiteral("-1.500"));
        QCOMPARE(text::milliseconds(int64_t(86400) * 1000000000), QStringLiteral("86,400,000.000"));
    }

    void elided()
    {
        QCOMPARE(text::elided(QStringLiteral("abcdef"), 6), QStringLiteral("abcdef"));
        QCOMPARE(text::elided(QStringLiteral("abcdefg"), 6), QStringLiteral("abcde") + QChar(0x2026));
        QCOMPARE(text::elided(QStringLiteral("abcdefg"), 6).size(), 6);
        // A space before the cut is not left in front of the ellipsis.
        QCOMPARE(text::elided(QStringLiteral("ab cdefg"), 4), QStringLiteral("ab") + QChar(0x2026));
        QCOMPARE(text::elided(QString(), 3), QString());
    }

    void counterValue()
    {
        // Memory counters hold bytes; everything else is a plain number, 4 significant digits.
        QCOMPARE(text::counterValue(QStringLiteral("Memory allocated, device 1"), 1536),
            QStringLiteral("1.5 KiB"));
        QCOMPARE(text::counterValue(QStringLiteral("Memory allocated, device 1"), 1535.6),
            QStringLiteral("1.5 KiB"));
        QCOMPARE(text::counterValue(QStringLiteral("Power (W)"), 0.5), QStringLiteral("0.5"));
        QCOMPARE(text::counterValue(QStringLiteral("Power (W)"), 1234.5678), QStringLiteral("1,235"));
        QCOMPARE(text::counterValue(QStringLiteral("memory allocated"), 1536), QStringLiteral("1,536"));
    }

    void dateTime()
    {
        QCOMPARE(text::dateTime(0), QString());
        QCOMPARE(text::dateTime(-5), QString());
        // 1700000000 s is 2023-11-14 22:13:20 UTC; sub-second digits are dropped, not rounded.
        QCOMPARE(text::dateTime(int64_t(1700000000) * 1000000000 + 999999999),
            QStringLiteral("2023-11-14 22:13:20"));
        QCOMPARE(text::dateTime(int64_t(86400) * 1000000000), QStringLiteral("1970-01-02 00:00:00"));
    }
};

QTEST_GUILESS_MAIN(TestTextFormat)
#include "tst_textformat.moc"
