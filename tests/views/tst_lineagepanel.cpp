// SPDX-License-Identifier: GPL-3.0-or-later
// The Lineage tab: its layout (layers along the data flow, crossings removed, a cycle drawn with a
// reversed edge instead of looping), and the panel on a TFX-shaped store: the newest model focused
// at first, search, refocus, failed executions in red, linked runs, PNG/PDF export.

#include "ingest/lineagesink.h"
#include "lineage/lineagelayout.h"
#include "lineage/lineagepanel.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QFileInfo>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

int64_t add(LineageSink &sink, LineageNode::Kind kind, const QString &name, const QString &type,
    const QString &state = {})
{
    LineageNode n;
    n.kind = kind;
    n.key = name;
    n.name = name;
    n.type = type;
    n.state = state;
    return sink.node(n);
}

} // namespace

class TestLineagePanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_ws;

private Q_SLOTS:
    void initTestCase()
    {
        m_ws = m_tmp.filePath(QStringLiteral("lineage.plumb"));
        Workspace ws(m_ws, Workspace::Role::Writer);
        ws.db().exec(
            "INSERT INTO run(id, key, name, created_at_ns) VALUES (7, 'tabular:x', 'trainer-run', 0)");
        SqliteTransaction tx(ws.db());
        LineageSink sink(ws.db(), 1);
        using K = LineageNode::Kind;
        const int64_t raw = add(sink, K::Artifact, QStringLiteral("raw"), QStringLiteral("ExternalArtifact"));
        const int64_t gen = add(sink, K::Execution, QStringLiteral("ExampleGen"),
            QStringLiteral("ExampleGen"), QStringLiteral("COMPLETE"));
        const int64_t examples
            = add(sink, K::Artifact, QStringLiteral("examples"), QStringLiteral("Examples"));
        const int64_t train = add(sink, K::Execution, QStringLiteral("trainer-run"),
            QStringLiteral("Trainer"), QStringLiteral("COMPLETE"));
        const int64_t model = add(sink, K::Artifact, QStringLiteral("model"), QStringLiteral("Model"));
        const int64_t failed = add(sink, K::Execution, QStringLiteral("Trainer retry"),
            QStringLiteral("Trainer"), QStringLiteral("FAILED"));
        sink.edge(raw, gen, QStringLiteral("input"));
        sink.edge(gen, examples, QStringLiteral("output"));
        sink.edge(examples, train, QStringLiteral("input"));
        sink.edge(train, model, QStringLiteral("output"));
        sink.edge(examples, failed, QStringLiteral("input"));
        // Both trainers are runs of one pipeline node.
        const int64_t node
            = add(sink, K::Context, QStringLiteral("pipeline.Trainer"), QStringLiteral("node"));
        sink.edge(node, train, QStringLiteral("contains"));
        sink.edge(node, failed, QStringLiteral("contains"));
        ws.db().exec("INSERT INTO lineage_link(node_id, run_id, origin) VALUES (" + std::to_string(train)
            + ", 7, 'name')");
        tx.commit();
    }

    void layoutLayersAndCrossings()
    {
        // 0 -> 2, 1 -> 3 drawn crossed if 2 and 3 were in the other order; 3 -> 4 -> 3 is a cycle.
        LineageLayout l;
        const std::vector<std::pair<int, int>> edges { { 0, 3 }, { 1, 2 }, { 2, 4 }, { 3, 4 }, { 4, 5 },
            { 5, 4 } };
        l.compute(6, edges);
        QCOMPARE(l.layerOf(0), 0);
        QCOMPARE(l.layerOf(1), 0);
        QCOMPARE(l.layerOf(3), 1);
        QCOMPARE(l.layerOf(4), 2);
        QCOMPARE(l.layerOf(5), 3);
        QCOMPARE(l.reversedEdges().size(), size_t(1)); // the cycle, broken once
        QCOMPARE(l.crossings(edges), 0);
        QVERIFY(l.rect(0).right() < l.rect(3).left());
        QVERIFY(!l.rect(2).intersects(l.rect(3)));
        QVERIFY(l.bounds().contains(l.rect(5)));
    }

    // A chain 0 -> 1 -> 2 -> 3 and a shortcut 0 -> 3 across two columns: the shortcut's route passes
    // through slots of its own in columns 1 and 2, clear of nodes 1 and 2; a short edge has no waypoint.
    void longEdgesGoAroundBoxes()
    {
        LineageLayout l;
        const std::vector<std::pair<int, int>> edges { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 0, 3 }, { 3, 0 } };
        l.compute(4, edges);
        QCOMPARE(l.layerOf(3), 3);
        const std::vector<QPointF> shortcut = l.route(0, 3);
        QCOMPARE(shortcut.size(), size_t(6)); // leave 0, two slots (in and out), enter 3
        QCOMPARE(shortcut.front(), QPointF(l.rect(0).right(), l.rect(0).center().y()));
        QCOMPARE(shortcut.back(), QPointF(l.rect(3).left(), l.rect(3).center().y()));
        for (size_t k = 1; k + 1 < shortcut.size(); ++k)
            for (int node : { 1, 2 })
                QVERIFY2(!l.rect(node).adjusted(0, -1, 0, 1).contains(shortcut[k]),
                    qPrintable(QStringLiteral("waypoint %1 inside node %2").arg(k).arg(node)));
        QCOMPARE(l.route(1, 2).size(), size_t(2));
        // The edge back from 3 to 0 closes a cycle: it runs right to left through the same columns.
        const std::vector<QPointF> back = l.route(3, 0);
        QCOMPARE(back.size(), size_t(6));
        QCOMPARE(back.front(), QPointF(l.rect(3).left(), l.rect(3).center().y()));
        QCOMPARE(back.back(), QPointF(l.rect(0).right(), l.rect(0).center().y()));
        QVERIFY(back[1].x() > back[2].x());
    }

    void panel()
    {
        LineagePanel panel;
        panel.resize(1100, 700);
        panel.show();
        QSignalSpy loaded(&panel, &LineagePanel::loaded);
        panel.setWorkspace(m_ws);
        QVERIFY(loaded.wait(5000));
        // The newest model-like artifact first, with what it was made from.
        QCOMPARE(panel.graph().nodes.at(0).name, QStringLiteral("model"));
        QCOMPARE(panel.graph().nodes.size(), size_t(4)); // model, trainer-run, examples, ExampleGen (depth 3)
        QVERIFY(panel.statusText().contains(QStringLiteral("3 artifacts, 3 executions")));
        QVERIFY(panel.detailsText().contains(QStringLiteral("Model")));

        // Search: one match focuses it; several are listed.
        panel.search(QStringLiteral("examples"));
        QVERIFY(loaded.wait(5000));
        QCOMPARE(panel.graph().nodes.at(0).name, QStringLiteral("examples"));
        QCOMPARE(panel.graph().nodes.size(), size_t(6)); // both ways: raw, ExampleGen, both trainers, model
        // Folded: the two runs of the Trainer node are one node, red for its failed run.
        panel.setFoldRepeatedRuns(true);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(panel.graph().nodes.size(), size_t(5));
        int folded = -1;
        for (size_t i = 0; i < panel.graph().nodes.size(); ++i)
            if (panel.graph().nodes[i].name == QStringLiteral("pipeline.Trainer × 2 runs"))
                folded = int(i);
        QVERIFY(folded > 0);
        QCOMPARE(panel.graph().nodes.at(size_t(folded)).state, QStringLiteral("1 of 2 failed"));
        panel.showDetails(folded);
        QVERIFY(panel.detailsText().contains(QStringLiteral("folded")));
        panel.setFoldRepeatedRuns(false);
        QVERIFY(loaded.wait(5000));
        QCOMPARE(panel.graph().nodes.size(), size_t(6));
        panel.search(QStringLiteral("Train"));
        QVERIFY(loaded.wait(5000));
        QVERIFY2(
            panel.detailsText().contains(QStringLiteral("3 nodes match")), qPrintable(panel.detailsText()));

        // The failed execution stands out; the linked run can be opened.
        int red = 0;
        for (QGraphicsItem *item : panel.scene()->items())
            if (auto *box = dynamic_cast<QGraphicsRectItem *>(item);
                box && box->pen().color() == QColor(0xc0, 0x39, 0x2b))
                ++red;
        QCOMPARE(red, 1);
        int trainer = -1;
        for (size_t i = 0; i < panel.graph().nodes.size(); ++i)
            if (panel.graph().nodes[i].name == QLatin1String("trainer-run"))
                trainer = int(i);
        QVERIFY(trainer >= 0);
        QSignalSpy openRun(&panel, &LineagePanel::openRunRequested);
        panel.showDetails(trainer);
        QVERIFY(panel.detailsText().contains(QStringLiteral("linked runs")));
        for (QPushButton *b : panel.findChildren<QPushButton *>())
            if (b->text().startsWith(QLatin1String("Open Run")))
                b->click();
        QCOMPARE(openRun.count(), 1);
        QCOMPARE(openRun.at(0).at(0).toLongLong(), Q_INT64_C(7));

        // A link by hand: kept, and shown.
        const int64_t model = panel.graph().nodes.at(0).id;
        QVERIFY(panel.linkToRun(model, 7));
        QVERIFY(loaded.wait(5000));
        {
            Workspace ws(m_ws, Workspace::Role::Reader);
            QCOMPARE(ws.db().queryInt("SELECT count(*) FROM lineage_link WHERE origin = 'user'"), 1);
        }

        // Upstream only, depth 1, from the model.
        panel.setDirection(LineageDirection::Up);
        panel.setDepth(1);
        panel.focusNode(panel.graph().nodes.at(0).id);
        while (loaded.wait(1000)) { }
        QVERIFY(panel.graph().nodes.size() >= 1);

        const QString png = m_tmp.filePath(QStringLiteral("g.png")),
                      pdf = m_tmp.filePath(QStringLiteral("g.pdf"));
        QVERIFY(panel.exportTo(png));
        QVERIFY(panel.exportTo(pdf));
        QVERIFY(QFileInfo(png).size() > 1000);
        QVERIFY(QFileInfo(pdf).size() > 500);
        const QString svg = m_tmp.filePath(QStringLiteral("g.svg"));
        QVERIFY(panel.exportTo(svg));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QByteArray svgText = svgFile.readAll();
        QVERIFY(svgText.startsWith("<?xml") && svgText.trimmed().endsWith("</svg>"));
        QCOMPARE(int(svgText.count("<rect ")),
            int(panel.graph().nodes.size()) + 1); // the boxes and the background
        QVERIFY(svgText.contains(QByteArray(">" + panel.graph().nodes.at(0).name.toUtf8() + "</text>")));
        if (const QString dir = qEnvironmentVariable("PLUMB_SCREENSHOT_DIR"); !dir.isEmpty()) {
            panel.grab().save(dir + QStringLiteral("/lineage-panel.png"));
            panel.exportTo(dir + QStringLiteral("/lineage-panel.svg"));
        }
    }

    void emptyWorkspace()
    {
        const QString path = m_tmp.filePath(QStringLiteral("empty.plumb"));
        {
            Workspace ws(path, Workspace::Role::Writer);
        }
        LineagePanel panel;
        QSignalSpy loaded(&panel, &LineagePanel::loaded);
        panel.setWorkspace(path);
        QVERIFY(loaded.wait(5000));
        QVERIFY(panel.graph().nodes.empty());
        QVERIFY(panel.statusText().startsWith(QStringLiteral("No lineage in this workspace")));
    }
};

QTEST_MAIN(TestLineagePanel)
#include "tst_lineagepanel.moc"
