// SPDX-License-Identifier: GPL-3.0-or-later
// `plumb lineage` as core renders it (present/lineagepresent.h), on the ML Metadata fixture of the
// importer tests (a TFX taxi pipeline: the pushed model #8 was made by Pusher #19 from the model #5 and
// its blessing #7): node selection, the plumb.lineage/1 JSON and the tree of text.
#include "importhelpers.h"
#include "present/lineagepresent.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

class TestLineagePresent : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ws;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_ws = m_dir.filePath(QStringLiteral("w.plumb"));
        const QString problems = importIntoWorkspace(m_ws,
            { QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/mlmd/data/tfx_store/metadata.sqlite") });
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    void upstreamText()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const LineageLookup l = readLineage(ws, QStringLiteral("PushedModel 8"), LineageDirection::Up, 2);
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        QCOMPARE(lineageText(l.presentation),
            QStringLiteral(
                "artifact PushedModel  PushedModel 8  [LIVE]  /serving/taxi/1764580000  (#8)\n"
                "  in: taxi_pipeline.run-1, taxi_pipeline.Pusher\n"
                "  <- execution Pusher  Pusher-run1  [COMPLETE]  (#19)\n"
                "    <- artifact Model  taxi-model  [LIVE]  /pipelines/taxi/Trainer/model/5  (#5)\n"
                "    <- artifact ModelBlessing  ModelBlessing 7  [LIVE]  "
                "/pipelines/taxi/Evaluator/blessing/7  (#7)\n"));
        // One edge less deep: the Pusher alone.
        const LineageLookup one = readLineage(ws, QStringLiteral("8"), LineageDirection::Up, 1);
        QCOMPARE(one.presentation.graph.nodes.size(), size_t(2));
    }

    void upstreamJson()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const LineageLookup l = readLineage(ws, QStringLiteral("PushedModel 8"), LineageDirection::Up, 2);
        const QJsonObject o = lineageJson(l.presentation);
        QCOMPARE(o.value(QStringLiteral("schema")).toString(), QStringLiteral("plumb.lineage/1"));
        QCOMPARE(o.value(QStringLiteral("focus")).toInteger(), 8);
        QCOMPARE(o.value(QStringLiteral("direction")).toString(), QStringLiteral("up"));
        QCOMPARE(o.value(QStringLiteral("max_depth")).toInt(), 2);
        QCOMPARE(o.value(QStringLiteral("truncated")).toBool(), false);
        const QJsonArray nodes = o.value(QStringLiteral("nodes")).toArray();
        QCOMPARE(nodes.size(), 4);
        const QJsonObject focus = nodes[0].toObject();
        QCOMPARE(focus.value(QStringLiteral("id")).toInteger(), 8);
        QCOMPARE(focus.value(QStringLiteral("kind")).toString(), QStringLiteral("artifact"));
        QCOMPARE(focus.value(QStringLiteral("type")).toString(), QStringLiteral("PushedModel"));
        QCOMPARE(focus.value(QStringLiteral("state")).toString(), QStringLiteral("LIVE"));
        QCOMPARE(focus.value(QStringLiteral("uri")).toString(), QStringLiteral("/serving/taxi/1764580000"));
        QCOMPARE(focus.value(QStringLiteral("depth")).toInt(), 0);
        QCOMPARE(focus.value(QStringLiteral("contexts")).toArray(),
            QJsonArray({ QStringLiteral("taxi_pipeline.run-1"), QStringLiteral("taxi_pipeline.Pusher") }));
        QCOMPARE(nodes[1].toObject().value(QStringLiteral("id")).toInteger(), 19);
        QCOMPARE(nodes[1].toObject().value(QStringLiteral("depth")).toInt(), 1);
        QCOMPARE(nodes[3].toObject().value(QStringLiteral("depth")).toInt(), 2);
        bool pushed = false;
        for (const QJsonValue &e : o.value(QStringLiteral("edges")).toArray()) {
            const QJsonObject edge = e.toObject();
            if (edge.value(QStringLiteral("from")).toInteger() == 19
                && edge.value(QStringLiteral("to")).toInteger() == 8) {
                pushed = true;
                QCOMPARE(edge.value(QStringLiteral("kind")).toString(), QStringLiteral("output"));
                QCOMPARE(edge.value(QStringLiteral("properties"))
                             .toObject()
                             .value(QStringLiteral("event_type"))
                             .toString(),
                    QStringLiteral("OUTPUT"));
            }
        }
        QVERIFY(pushed);
    }

    // Nothing downstream of the pushed model: the text says so, with the depth it looked.
    void nothingDownstream()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        const LineageLookup l = readLineage(ws, QStringLiteral("PushedModel 8"), LineageDirection::Down, 3);
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        const QString text = lineageText(l.presentation);
        QVERIFY2(text.endsWith(QStringLiteral("  (no outputs within 3 edges)\n")), qPrintable(text));
        QCOMPARE(lineageJson(l.presentation).value(QStringLiteral("nodes")).toArray().size(), 1);
    }

    void errors()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        QCOMPARE(readLineage(ws, QStringLiteral("no such node"), LineageDirection::Both, 5).error,
            QStringLiteral("no lineage node is no such node (by id, key or name)"));
        const QString many = readLineage(ws, QStringLiteral("a"), LineageDirection::Both, 5).error;
        QVERIFY2(many.startsWith(QStringLiteral("a names ")), qPrintable(many));
        QVERIFY2(many.endsWith(QStringLiteral(", ...); give an id or a key")), qPrintable(many));
    }
};

QTEST_GUILESS_MAIN(TestLineagePresent)
#include "tst_lineagepresent.moc"
