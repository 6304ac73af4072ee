// SPDX-License-Identifier: GPL-3.0-or-later
// `plumb goodput` as core renders it (present/goodputpresent.h), on the lifecycle fixture with two
// preemptions (figures computed by hand in tst_goodput: goodput 32%, scheduling 54%, runtime 59.3%,
// provisioning 15 s of 50 s) and on a run with step timings only: run selection, the plumb.goodput/1
// JSON and the text.
#include "importhelpers.h"
#include "present/goodputpresent.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

class TestGoodputPresent : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ws;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_ws = m_dir.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(
            m_ws, { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/lifecycle/data/preemptions.jsonl") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    void json()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const GoodputLookup l = readGoodput(ws, QStringLiteral("preempted-run"), {});
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        const QJsonObject o = goodputJson(l.report);
        QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("plumb.goodput/1"));
        QCOMPARE(o.value(QStringLiteral("run_name")).toString(), QStringLiteral("preempted-run"));
        QCOMPARE(o.value(QStringLiteral("basis")).toString(), QStringLiteral("lifecycle log"));
        // Whole nanoseconds, as integers: 2024-01-01 01:00:00 .. 01:00:50 UTC.
        QCOMPARE(o.value(QStringLiteral("start_ns")).toInteger(), Q_INT64_C(1704070800000000000));
        QCOMPARE(o.value(QStringLiteral("end_ns")).toInteger(), Q_INT64_C(1704070850000000000));
        QCOMPARE(o.value(QStringLiteral("elapsed_s")).toDouble(), 50.0);
        QCOMPARE(o.value(QStringLiteral("goodput")).toDouble(), 0.32);
        QCOMPARE(o.value(QStringLiteral("scheduling_goodput")).toDouble(), 0.54);
        QVERIFY(qAbs(o.value(QStringLiteral("runtime_goodput")).toDouble() - 16.0 / 27.0) < 1e-12);
        QCOMPARE(o.value(QStringLiteral("disruptions")).toInt(), 2);
        QCOMPARE(o.value(QStringLiteral("attempts")).toInt(), 3);
        QCOMPARE(o.value(QStringLiteral("productive_steps")).toInteger(), 8);
        QCOMPARE(o.value(QStringLiteral("wasted_steps")).toInteger(), 4);
        QCOMPARE(o.value(QStringLiteral("largest_badput")).toString(), QStringLiteral("provisioning"));
        const QJsonObject provisioning = o.value(QStringLiteral("badput_breakdown"))
                                             .toObject()
                                             .value(QStringLiteral("provisioning"))
                                             .toObject();
        QCOMPARE(provisioning.value(QStringLiteral("seconds")).toDouble(), 15.0);
        QCOMPARE(provisioning.value(QStringLiteral("share")).toDouble(), 0.3);
        QVERIFY(o.contains(QStringLiteral("program_goodput_basis")));
        QVERIFY(!o.value(QStringLiteral("windows")).toArray().isEmpty());
    }

    void text()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const GoodputLookup l = readGoodput(ws, QString(), {}); // the only run
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        const QStringList lines = goodputText(l.report).split(u'\n');
        QVERIFY2(lines[0].endsWith(QStringLiteral("  preempted-run  (lifecycle log)")), qPrintable(lines[0]));
        QCOMPARE(
            lines[1], QStringLiteral("span        2024-01-01 01:00:00 .. 2024-01-01 01:00:50  (50.0 s)"));
        QCOMPARE(
            lines[2], QStringLiteral("goodput     32.0%   scheduling 54.0%   runtime 59.3%   program 50.0%"));
        QVERIFY2(lines[4].startsWith(QStringLiteral("disruptions 2 (3 attempts); steps: 8 kept, 4 wasted")),
            qPrintable(lines[4]));
        QVERIFY(lines.contains(QStringLiteral("productive training        16.0 s   32.0%")));
        QVERIFY(lines.contains(QStringLiteral("Provisioning               15.0 s   30.0%")));
        QVERIFY(lines.contains(QStringLiteral("Disruption recovery        10.0 s   20.0%")));
        QVERIFY(!lines.contains(QStringLiteral("Other"))); // buckets without time are left out
        QVERIFY2(
            lines[lines.size() - 2].startsWith(QStringLiteral("Provisioning is the largest badput: 30.0%")),
            qPrintable(lines[lines.size() - 2]));
    }

    // Runs of an experiment log: their steps' wall times, a restart where the step goes back; one attempt
    // is "1 attempt".
    void stepTimings()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.plumb"));
        const QString problems = importFoldersIntoWorkspace(path,
            { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/tfevents/data/restart"),
                QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/tfevents/data/tf2") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        Workspace ws(path, Workspace::Role::Reader);
        const GoodputLookup restart = readGoodput(ws, QStringLiteral("restart"), {});
        QVERIFY2(restart.error.isEmpty(), qPrintable(restart.error));
        QCOMPARE(
            restart.report.basis, QStringLiteral("experiment log: wall time of each logged step of loss"));
        QVERIFY(goodputText(restart.report)
                    .contains(QStringLiteral(
                        "\ndisruptions 2 (3 attempts); steps: 6 kept, 11 wasted; ideal step 1.0 s")));
        const GoodputLookup once = readGoodput(ws, QStringLiteral("tf2"), {});
        QVERIFY2(once.error.isEmpty(), qPrintable(once.error));
        QVERIFY(goodputText(once.report)
                    .contains(QStringLiteral("\ndisruptions 0 (1 attempt); steps: 10 kept, 0 wasted")));
        const QJsonObject o = goodputJson(once.report);
        QCOMPARE(o.value(QStringLiteral("attempts")).toInt(), 1);
        QVERIFY(o.value(QStringLiteral("program_goodput")).isNull());
        QVERIFY(!o.contains(QStringLiteral("program_goodput_basis")));
    }

    void errors()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        QCOMPARE(readGoodput(ws, QStringLiteral("nosuchrun"), {}).error,
            QStringLiteral("no run nosuchrun with a lifecycle log or step timings (plumb ls lists them)"));
        QCOMPARE(readGoodput(ws, QStringLiteral("preempted"), {}).error,
            QStringLiteral(
                "no run preempted with a lifecycle log or step timings; did you mean: 1 preempted-run"));
        QTemporaryDir dir;
        const QString empty = dir.filePath(QStringLiteral("empty.plumb"));
        {
            Workspace created(empty, Workspace::Role::Writer);
        }
        Workspace none(empty, Workspace::Role::Reader);
        QVERIFY2(readGoodput(none, QString(), {})
                     .error.startsWith(QStringLiteral(
                         "the workspace has no job lifecycle log and no run with step timings")),
            qPrintable(readGoodput(none, QString(), {}).error));
    }
};

QTEST_GUILESS_MAIN(TestGoodputPresent)
#include "tst_goodputpresent.moc"
