// SPDX-License-Identifier: GPL-3.0-or-later
// bench_lineage: the lineage graph at the size of a busy ML Metadata store (default 100k artifacts,
// 50k executions, 300k events as input/output edges, 1k contexts), written through LineageSink in one
// transaction as an importer writes it; then the Lineage tab's work for one focus: the neighbourhood
// read (LineageReader, capped at --nodes, default 2,000), the layout (LineageLayout) and the scene
// (LineagePanel, offscreen), each timed, with peak RSS.
// Usage: bench_lineage [--artifacts N] [--executions N] [--events N] [--nodes N]

#include "benchimport.h"
#include "ingest/lineagesink.h"
#include "lineage/lineagelayout.h"
#include "lineage/lineagepanel.h"
#include "store/lineagereader.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "util/allocatortuning.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QGraphicsScene>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cstdio>
#include <random>

using namespace plumb;

int main(int argc, char **argv)
{
    tuneAllocator(); // as the app does
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser cli;
    cli.addHelpOption();
    const QCommandLineOption artifactsOpt(QStringLiteral("artifacts"), QStringLiteral("Artifacts."),
        QStringLiteral("N"), QStringLiteral("100000"));
    const QCommandLineOption executionsOpt(QStringLiteral("executions"), QStringLiteral("Executions."),
        QStringLiteral("N"), QStringLiteral("50000"));
    const QCommandLineOption eventsOpt(QStringLiteral("events"), QStringLiteral("Input/output events."),
        QStringLiteral("N"), QStringLiteral("300000"));
    const QCommandLineOption nodesOpt(QStringLiteral("nodes"), QStringLiteral("Neighbourhood cap."),
        QStringLiteral("N"), QStringLiteral("2000"));
    cli.addOptions({ artifactsOpt, executionsOpt, eventsOpt, nodesOpt });
    cli.process(app);
    const int64_t artifacts = cli.value(artifactsOpt).toLongLong(),
                  executions = cli.value(executionsOpt).toLongLong(),
                  events = cli.value(eventsOpt).toLongLong();
    const int nodeCap = cli.value(nodesOpt).toInt();

    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("lineage.plumb"));
    QElapsedTimer t;
    t.start();
    {
        Workspace ws(path, Workspace::Role::Writer);
        SqliteTransaction tx(ws.db());
        LineageSink sink(ws.db(), 1);
        std::mt19937_64 rng(7);
        std::vector<int64_t> a, e;
        LineageNode n;
        for (int64_t i = 0; i < executions; ++i) {
            n.kind = LineageNode::Kind::Execution;
            n.key = QStringLiteral("mlmd:bench#execution/%1").arg(i);
            n.name = QStringLiteral("Trainer %1").arg(i);
            n.type = QStringLiteral("Trainer");
            n.state = i % 50 == 0 ? QStringLiteral("FAILED") : QStringLiteral("COMPLETE");
            n.properties = R"({"properties":{"num_steps":1000,"module":"trainer.py"}})";
            e.push_back(sink.node(n));
        }
        for (int64_t i = 0; i < artifacts; ++i) {
            n.kind = LineageNode::Kind::Artifact;
            n.key = QStringLiteral("mlmd:bench#artifact/%1").arg(i);
            n.name = QStringLiteral("artifact %1").arg(i);
            n.type = i % 3 == 0 ? QStringLiteral("Model") : QStringLiteral("Examples");
            n.state = QStringLiteral("LIVE");
            n.uri = QStringLiteral("gs://bucket/pipeline/%1").arg(i);
            a.push_back(sink.node(n));
        }
        // A pipeline's shape: execution k reads artifacts made by earlier executions and writes new ones.
        for (int64_t i = 0; i < events; ++i) {
            const int64_t k = int64_t(rng() % uint64_t(executions));
            const int64_t art = int64_t(rng() % uint64_t(artifacts));
            if (i % 3 == 0)
                sink.edge(e[size_t(k)], a[size_t(art)], QStringLiteral("output"));
            else
                sink.edge(a[size_t(art)], e[size_t(k)], QStringLiteral("input"));
        }
        for (int64_t c = 0; c < 1000; ++c) {
            n = LineageNode {};
            n.kind = LineageNode::Kind::Context;
            n.key = QStringLiteral("mlmd:bench#context/%1").arg(c);
            n.name = QStringLiteral("pipeline run %1").arg(c);
            n.type = QStringLiteral("pipeline_run");
            const int64_t ctx = sink.node(n);
            for (int64_t j = 0; j < executions / 1000; ++j)
                sink.edge(ctx, e[size_t(c * (executions / 1000) + j)], QStringLiteral("contains"));
        }
        tx.commit();
    }
    const double writeS = double(t.nsecsElapsed()) / 1e9;

    Workspace ws(path, Workspace::Role::Reader);
    LineageReader reader(ws);
    const int64_t focus
        = ws.db().queryInt("SELECT id FROM lineage_node WHERE type = 'Model' ORDER BY id DESC LIMIT 1");
    t.restart();
    const LineageGraph g = reader.neighbourhood(focus, LineageDirection::Both, 50, nodeCap);
    const double readMs = double(t.nsecsElapsed()) / 1e6;
    std::vector<std::pair<int, int>> edges;
    {
        std::unordered_map<int64_t, int> index;
        for (size_t i = 0; i < g.nodes.size(); ++i)
            index.emplace(g.nodes[i].id, int(i));
        for (const auto &ed : g.edges)
            edges.emplace_back(index[ed.from], index[ed.to]);
    }
    t.restart();
    LineageLayout layout;
    layout.compute(int(g.nodes.size()), edges);
    const double layoutMs = double(t.nsecsElapsed()) / 1e6;

    LineagePanel panel;
    panel.resize(1400, 900);
    panel.show();
    QSignalSpy loaded(&panel, &LineagePanel::loaded);
    panel.setDepth(50);
    panel.setWorkspace(path);
    loaded.wait(60000);
    t.restart();
    panel.focusNode(focus);
    loaded.wait(60000);
    const double panelMs = double(t.nsecsElapsed()) / 1e6;
    t.restart();
    QImage frame(1400, 900, QImage::Format_ARGB32_Premultiplied);
    {
        QPainter p(&frame);
        panel.render(&p);
    }
    const double paintMs = double(t.nsecsElapsed()) / 1e6;

    std::printf("lineage: %lld artifacts, %lld executions, %lld events, 1000 contexts\n",
        (long long)artifacts, (long long)executions, (long long)events);
    std::printf("  written through LineageSink        %8.2f s  (%.0f rows/s)\n", writeS,
        double(artifacts + executions + events + 1000 + executions) / writeS);
    std::printf("  neighbourhood of a model (cap %d)  %8.1f ms  (%zu nodes, %zu edges%s)\n", nodeCap, readMs,
        g.nodes.size(), g.edges.size(), g.truncated ? ", capped" : "");
    std::printf("  layout                             %8.1f ms  (%d layers, %d crossings)\n", layoutMs,
        layout.layerCount(), int(g.nodes.size()) <= 3000 ? layout.crossings(edges) : -1);
    std::printf("  Lineage tab: read + layout + scene %8.1f ms  (%zu nodes drawn)\n", panelMs,
        panel.graph().nodes.size());
    std::printf("  first paint of the tab             %8.1f ms\n", paintMs);
    std::printf("  peak RSS                           %8.1f MB\n", double(bench::readVmHwmKiB()) / 1024.0);
    return 0;
}
