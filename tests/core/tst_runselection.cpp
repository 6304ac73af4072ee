// SPDX-License-Identifier: GPL-3.0-or-later
// Run selection on the command line (store/runselection.h): by id, by whole name, by the last folder of a
// name; unknown and ambiguous names are errors that say what to type instead.
#include "store/runselection.h"

#include <QTest>

using namespace plumb;

class TestRunSelection : public QObject {
    Q_OBJECT

    const std::vector<RunChoice> m_runs { { 3, QStringLiteral("sweep/version_0") },
        { 4, QStringLiteral("sweep/version_1") }, { 7, QStringLiteral("other/version_1") },
        { 9, QStringLiteral("12") }, { 12, QStringLiteral("baseline") } };

private Q_SLOTS:
    void picks()
    {
        QCOMPARE(selectRuns(m_runs, { QStringLiteral("4") }).ids, QList<int64_t>({ 4 }));
        QCOMPARE(selectRuns(m_runs, { QStringLiteral("sweep/version_1") }).ids, QList<int64_t>({ 4 }));
        QCOMPARE(selectRuns(m_runs, { QStringLiteral("version_0"), QStringLiteral("baseline") }).ids,
            QList<int64_t>({ 3, 12 }));
        // A number is an id first: "12" is run 12, not the run named 12.
        QCOMPARE(selectRuns(m_runs, { QStringLiteral("12") }).ids, QList<int64_t>({ 12 }));
        // Not an id of a candidate: a name.
        QCOMPARE(
            selectRuns({ { 9, QStringLiteral("12") } }, { QStringLiteral("12") }).ids, QList<int64_t>({ 9 }));
    }

    void errors()
    {
        const RunSelection ambiguous
            = selectRuns(m_runs, { QStringLiteral("version_0"), QStringLiteral("version_1") });
        QVERIFY(!ambiguous.ok());
        QVERIFY(ambiguous.ids.isEmpty());
        QCOMPARE(ambiguous.error,
            QStringLiteral(
                "version_1 names 2 runs; give one of their ids: 4 sweep/version_1, 7 other/version_1"));
        QCOMPARE(selectRuns(m_runs, { QStringLiteral("nothing") }).error,
            QStringLiteral("no run nothing (plumb ls lists them)"));
        QCOMPARE(
            selectRuns(m_runs, { QStringLiteral("SWEEP") }, QStringLiteral("no experiment run %1")).error,
            QStringLiteral("no experiment run SWEEP; did you mean: 3 sweep/version_0, 4 sweep/version_1"));
        QVERIFY(!selectRuns({}, { QStringLiteral("1") }).ok());
    }
};

QTEST_GUILESS_MAIN(TestRunSelection)
#include "tst_runselection.moc"
