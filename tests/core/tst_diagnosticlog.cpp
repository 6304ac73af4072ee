// SPDX-License-Identifier: GPL-3.0-or-later
// ingest/diagnosticlog.h: what was odd in one input, one row per code however often it happened.
#include "ingest/diagnosticlog.h"

#include <QTest>

using namespace plumb;

class TestDiagnosticLog : public QObject {
    Q_OBJECT

private slots:
    void severityNames()
    {
        QCOMPARE(severityName(Severity::Info), QStringLiteral("info"));
        QCOMPARE(severityName(Severity::Warning), QStringLiteral("warning"));
        QCOMPARE(severityName(Severity::Error), QStringLiteral("error"));
    }

    void empty()
    {
        const DiagnosticLog log;
        QVERIFY(log.all().empty());
        QCOMPARE(log.skippedRecords(), 0);
        QCOMPARE(log.count(Severity::Info), 0);
        QVERIFY(!log.has(QStringLiteral("x")));
        QCOMPARE(log.countOf(QStringLiteral("x")), 0);
    }

    // A code seen again is counted into its first row, which keeps the first location, message and
    // severity; rows stay in the order their codes first appeared.
    void sameCodeIsOneRow()
    {
        DiagnosticLog log;
        log.report(Severity::Warning, QStringLiteral("unsorted-events"), QStringLiteral("byte 10"),
            QStringLiteral("first"));
        log.report(
            Severity::Info, QStringLiteral("legacy-names"), QStringLiteral("line 2"), QStringLiteral("old"));
        log.report(Severity::Error, QStringLiteral("unsorted-events"), QStringLiteral("byte 99"),
            QStringLiteral("second"), 4);
        const auto all = log.all();
        QCOMPARE(all.size(), size_t(2));
        QCOMPARE(all[0].code, QStringLiteral("unsorted-events"));
        QCOMPARE(all[0].count, 5);
        QCOMPARE(all[0].location, QStringLiteral("byte 10"));
        QCOMPARE(all[0].message, QStringLiteral("first"));
        QCOMPARE(all[0].severity, Severity::Warning);
        QVERIFY(!all[0].skipsRecords);
        QCOMPARE(all[1].code, QStringLiteral("legacy-names"));
        QCOMPARE(all[1].count, 1);
        QCOMPARE(log.countOf(QStringLiteral("unsorted-events")), 5);
        QVERIFY(log.has(QStringLiteral("legacy-names")));
        QCOMPARE(log.skippedRecords(), 0);
    }

    void skippedRecordsAreCounted()
    {
        DiagnosticLog log;
        log.skipped(QStringLiteral("bad-json"), QStringLiteral("line 3"), QStringLiteral("not JSON"));
        log.skipped(QStringLiteral("bad-json"), QStringLiteral("line 9"), QStringLiteral("not JSON"), 2);
        log.report(Severity::Warning, QStringLiteral("odd"), {}, QStringLiteral("odd but kept"), 7);
        log.skipped(QStringLiteral("no-ts"), QStringLiteral("line 4"), QStringLiteral("no timestamp"));
        const auto all = log.all();
        QCOMPARE(all.size(), size_t(3));
        QVERIFY(all[0].skipsRecords);
        QCOMPARE(all[0].severity, Severity::Warning);
        QVERIFY(!all[1].skipsRecords);
        // 3 bad-json + 1 no-ts; the 7 odd-but-kept records are not skipped ones.
        QCOMPARE(log.skippedRecords(), 4);
    }

    // A code first reported as kept stays a kept one when it is later passed to skipped().
    void skippedAfterReportKeepsTheRow()
    {
        DiagnosticLog log;
        log.report(Severity::Info, QStringLiteral("c"), {}, QStringLiteral("m"));
        log.skipped(QStringLiteral("c"), {}, QStringLiteral("m"), 3);
        QCOMPARE(log.countOf(QStringLiteral("c")), 4);
        QCOMPARE(log.skippedRecords(), 0);
    }

    void bump()
    {
        DiagnosticLog log;
        QVERIFY(!log.bump(QStringLiteral("c")));
        QVERIFY(log.all().empty());
        log.skipped(QStringLiteral("c"), QStringLiteral("here"), QStringLiteral("m"));
        QVERIFY(log.bump(QStringLiteral("c")));
        QVERIFY(log.bump(QStringLiteral("c"), 10));
        QCOMPARE(log.countOf(QStringLiteral("c")), 12);
        QCOMPARE(log.skippedRecords(), 12);
        QCOMPARE(log.all().size(), size_t(1));
    }

    // count(atLeast) counts rows (codes), not occurrences.
    void countBySeverity()
    {
        DiagnosticLog log;
        log.report(Severity::Info, QStringLiteral("i"), {}, {}, 100);
        log.report(Severity::Warning, QStringLiteral("w1"), {}, {});
        log.report(Severity::Warning, QStringLiteral("w2"), {}, {}, 5);
        log.report(Severity::Error, QStringLiteral("e"), {}, {});
        QCOMPARE(log.count(Severity::Info), 4);
        QCOMPARE(log.count(Severity::Warning), 3);
        QCOMPARE(log.count(Severity::Error), 1);
    }
};

QTEST_GUILESS_MAIN(TestDiagnosticLog)
#include "tst_diagnosticlog.moc"
