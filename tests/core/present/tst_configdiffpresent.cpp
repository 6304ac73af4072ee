// SPDX-License-Identifier: GPL-3.0-or-later
// `plumb diff --config` as core renders it (present/configdiffpresent.h), on a workspace imported from the
// MLflow file store and TensorBoard hparams fixtures of the importer tests (their .params.csv and
// .points.csv hold the values asserted here): run selection, the plumb.config-diff/1 JSON and the text.
#include "importhelpers.h"
#include "present/configdiffpresent.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

namespace {

QString fixture(const char *path)
{
    return QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/") + QLatin1String(path);
}

QJsonObject member(const QJsonArray &a, const QString &key)
{
    for (const QJsonValue &v : a)
        if (v.toObject().value(QStringLiteral("key")).toString() == key)
            return v.toObject();
    return {};
}

} // namespace

class TestConfigDiffPresent : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ws;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_ws = m_dir.filePath(QStringLiteral("w.plumb"));
        const QString problems = importFoldersIntoWorkspace(
            m_ws, { fixture("mlflow/data/filestore"), fixture("tfevents/data/hparams") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    void json()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const ConfigDiffLookup l
            = readConfigDiff(ws, { QStringLiteral("alpha"), QStringLiteral("beta") }, false);
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        const QJsonObject o = configDiffJson(l.presentation);
        QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("plumb.config-diff/1"));
        const QJsonArray runs = o.value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("alpha"));
        QCOMPARE(runs[1].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("beta"));
        QCOMPARE(o.value(QStringLiteral("all_rows")).toBool(), false);

        const QJsonArray rows = o.value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 5); // every config row differs
        const QJsonObject lr = member(rows, QStringLiteral("lr"));
        QCOMPARE(lr.value(QStringLiteral("group")).toString(), QStringLiteral("params"));
        QCOMPARE(lr.value(QStringLiteral("differs")).toBool(), true);
        QCOMPARE(lr.value(QStringLiteral("values")).toArray(),
            QJsonArray({ QStringLiteral("0.001"), QStringLiteral("0.01") }));
        const QJsonObject optimizer = member(rows, QStringLiteral("optimizer"));
        QVERIFY(optimizer.value(QStringLiteral("values")).toArray()[1].isNull()); // beta has none
        QCOMPARE(member(rows, QStringLiteral("mlflow.user")).value(QStringLiteral("group")).toString(),
            QStringLiteral("system tags"));

        const QJsonObject loss = member(o.value(QStringLiteral("metrics")).toArray(), QStringLiteral("loss"));
        QCOMPARE(loss.value(QStringLiteral("direction")).toString(), QStringLiteral("lower"));
        QCOMPARE(loss.value(QStringLiteral("last")).toArray()[0].toDouble(), 0.125);
        QCOMPARE(loss.value(QStringLiteral("last")).toArray()[1].toDouble(), 3.0);
        QCOMPARE(loss.value(QStringLiteral("best")).toArray()[1].toDouble(), 1.0);
        QCOMPARE(loss.value(QStringLiteral("delta")).toArray()[1].toDouble(), 2.875);
        QCOMPARE(loss.value(QStringLiteral("delta_percent")).toArray()[1].toDouble(), 2300.0);
        QCOMPARE(loss.value(QStringLiteral("better")).toArray(), QJsonArray({ true, false }));
    }

    // Without --all a run compared with itself lists nothing; with it every row, none marked.
    void allRows()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const QStringList same { QStringLiteral("alpha"), QStringLiteral("alpha") };
        const ConfigDiffLookup some = readConfigDiff(ws, same, false);
        QCOMPARE(configDiffJson(some.presentation).value(QStringLiteral("rows")).toArray().size(), 0);
        const ConfigDiffLookup all = readConfigDiff(ws, same, true);
        const QJsonObject o = configDiffJson(all.presentation);
        QCOMPARE(o.value(QStringLiteral("all_rows")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("rows")).toArray().size(), 5);
        QVERIFY(!member(o.value(QStringLiteral("rows")).toArray(), QStringLiteral("lr"))
                     .value(QStringLiteral("differs"))
                     .toBool());
        const QString text = configDiffText(all.presentation);
        QVERIFY2(text.contains(QStringLiteral("\n  lr ")), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral("0 of 5 config rows and 0 of 3 metrics differ\n")),
            qPrintable(text));
    }

    void text()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const ConfigDiffLookup l
            = readConfigDiff(ws, { QStringLiteral("alpha"), QStringLiteral("beta") }, false);
        const QStringList lines = configDiffText(l.presentation).split(u'\n');
        QVERIFY(lines.size() > 10);
        QVERIFY2(lines[0].startsWith(QStringLiteral("2 runs; the baseline is run ")), qPrintable(lines[0]));
        QVERIFY2(lines[0].endsWith(QStringLiteral(" alpha")), qPrintable(lines[0]));
        QVERIFY(lines.contains(QStringLiteral("params")));
        QVERIFY(lines.contains(QStringLiteral("* lr              0.001       0.01")));
        QVERIFY(lines.contains(QStringLiteral("* note            two\\nlines  -"))); // a line end shown as \n
        QVERIFY(lines.contains(QStringLiteral("* loss            0.125 \u25bc     3 +2.875 (+2300%)")));
        QVERIFY(lines.contains(QStringLiteral("    best          0.125       1")));
        QCOMPARE(lines[lines.size() - 2],
            QStringLiteral("5 of 5 config rows and 3 of 3 metrics differ (--all shows every row)"));
    }

    void unknownRun()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const ConfigDiffLookup l
            = readConfigDiff(ws, { QStringLiteral("alpha"), QStringLiteral("nosuchrun") }, false);
        QCOMPARE(l.error, QStringLiteral("no experiment run nosuchrun (plumb ls lists them)"));
        // By the last folder of its name, as `plumb ls` shows it.
        const ConfigDiffLookup byFolder
            = readConfigDiff(ws, { QStringLiteral("alpha"), QStringLiteral("trial_a") }, false);
        QVERIFY2(byFolder.error.isEmpty(), qPrintable(byFolder.error));
        QCOMPARE(byFolder.presentation.diff.runs[1].name, QStringLiteral("hparams/trial_a"));
    }
};

QTEST_GUILESS_MAIN(TestConfigDiffPresent)
#include "tst_configdiffpresent.moc"
