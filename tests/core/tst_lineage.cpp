// SPDX-License-Identifier: GPL-3.0-or-later
// The lineage graph's write and read sides: nodes found again by key and merged (an OpenLineage
// run's START then COMPLETE), edges idempotent, and the neighbourhood walk: upstream, downstream,
// both, depth limits, a cycle walked once, contexts and lookup by id, key and name.

#include "ingest/lineagelinks.h"
#include "ingest/lineagesink.h"
#include "store/lineagereader.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace plumb;

namespace {

LineageNode node(LineageNode::Kind kind, const QString &key, const QString &name, const QString &type)
{
    LineageNode n;
    n.kind = kind;
    n.key = key;
    n.name = name;
    n.type = type;
    return n;
}

LineageNode artifact(const QString &key, const QString &type = QStringLiteral("Examples"))
{
    return node(LineageNode::Kind::Artifact, key, key, type);
}

LineageNode execution(const QString &key, const QString &state = QStringLiteral("COMPLETE"))
{
    LineageNode n = node(LineageNode::Kind::Execution, key, key, key);
    n.state = state;
    return n;
}

LineageNode context(const QString &key, const QString &name, const QString &type)
{
    return node(LineageNode::Kind::Context, key, name, type);
}

// "name:depth" of each node, in the order reached.
QString names(const LineageGraph &g)
{
    QStringList out;
    for (size_t i = 0; i < g.nodes.size(); ++i)
        out << QStringLiteral("%1:%2").arg(g.nodes[i].name).arg(g.depth[i]);
    return out.join(QLatin1Char(' '));
}

} // namespace

class TestLineage : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_ws;

private Q_SLOTS:
    // raw -> gen -> examples -> train -> model -> push -> pushed; examples -> stats -> statistics;
    // a cycle: model -> eval -> blessing -> train (a blessing fed back); all in one pipeline context.
    void initTestCase()
    {
        m_ws = m_tmp.filePath(QStringLiteral("l.plumb"));
        Workspace ws(m_ws, Workspace::Role::Writer);
        SqliteTransaction tx(ws.db());
        LineageSink sink(ws.db(), 1);
        const int64_t raw = sink.node(artifact(QStringLiteral("raw")));
        const int64_t gen = sink.node(execution(QStringLiteral("gen")));
        const int64_t examples = sink.node(artifact(QStringLiteral("examples")));
        const int64_t train = sink.node(execution(QStringLiteral("train")));
        const int64_t model = sink.node(artifact(QStringLiteral("model"), QStringLiteral("Model")));
        const int64_t push = sink.node(execution(QStringLiteral("push")));
        const int64_t pushed = sink.node(artifact(QStringLiteral("pushed"), QStringLiteral("PushedModel")));
        const int64_t stats = sink.node(execution(QStringLiteral("stats"), QStringLiteral("FAILED")));
        const int64_t statistics = sink.node(artifact(QStringLiteral("statistics")));
        const int64_t eval = sink.node(execution(QStringLiteral("eval")));
        const int64_t blessing = sink.node(artifact(QStringLiteral("blessing")));
        const int64_t ctx = sink.node(context(
            QStringLiteral("ctx:pipeline"), QStringLiteral("my_pipeline"), QStringLiteral("pipeline")));
        sink.edge(raw, gen, QStringLiteral("input"));
        sink.edge(gen, examples, QStringLiteral("output"));
        sink.edge(examples, train, QStringLiteral("input"));
        sink.edge(train, model, QStringLiteral("output"));
        sink.edge(model, push, QStringLiteral("input"));
        sink.edge(push, pushed, QStringLiteral("output"));
        sink.edge(examples, stats, QStringLiteral("input"));
        sink.edge(stats, statistics, QStringLiteral("output"));
        sink.edge(model, eval, QStringLiteral("input"));
        sink.edge(eval, blessing, QStringLiteral("output"));
        sink.edge(blessing, train, QStringLiteral("input"));
        sink.edge(blessing, train, QStringLiteral("input"), R"({"path":"blessing"})"); // met again: merged
        for (int64_t n : { raw, gen, examples, train, model })
            sink.edge(ctx, n, QStringLiteral("contains"));

        // The same run met again (COMPLETE after START): state replaced, span widened, facets merged.
        LineageNode start = execution(QStringLiteral("ol:run"), QStringLiteral("START"));
        start.name = QStringLiteral("job a/run 1");
        start.startNs = 1000;
        start.properties = R"({"a":1,"b":1})";
        const int64_t first = sink.node(start);
        LineageNode complete = execution(QStringLiteral("ol:run"), QStringLiteral("COMPLETE"));
        complete.name.clear();
        complete.startNs = 5000;
        complete.endNs = 5000;
        complete.properties = R"({"b":2,"c":3})";
        QCOMPARE(sink.node(complete), first);
        tx.commit();
    }

    void mergedOnKey()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        LineageReader r(ws);
        const auto found = r.find(QStringLiteral("ol:run"));
        QCOMPARE(found.size(), size_t(1));
        const LineageNodeInfo &n = found[0];
        QCOMPARE(n.state, QStringLiteral("COMPLETE"));
        QCOMPARE(n.startNs, Q_INT64_C(1000));
        QCOMPARE(n.endNs, Q_INT64_C(5000));
        QCOMPARE(n.name, QStringLiteral("job a/run 1")); // an empty name keeps the old one
        QCOMPARE(n.properties, QStringLiteral(R"({"a":1,"b":2,"c":3})"));
        const LineageReader::Counts c = r.counts();
        QCOMPARE(c.artifacts, Q_INT64_C(6));
        QCOMPARE(c.executions, Q_INT64_C(6));
        QCOMPARE(c.contexts, Q_INT64_C(1));
        QCOMPARE(c.edges, Q_INT64_C(11 + 5)); // the repeated edge once
        QCOMPARE(ws.db().queryInt(
                     "SELECT count(*) FROM lineage_edge WHERE properties = '{\"path\":\"blessing\"}'"),
            1);
    }

    void find()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        LineageReader r(ws);
        const auto model = r.find(QStringLiteral("model"));
        QCOMPARE(model.size(), size_t(1));
        QCOMPARE(model[0].type, QStringLiteral("Model"));
        QCOMPARE(model[0].contexts, QStringList { QStringLiteral("my_pipeline") });
        QCOMPARE(r.find(QString::number(model[0].id)).at(0).name, QStringLiteral("model"));
        QCOMPARE(r.find(QStringLiteral("STAT")).size(), size_t(2)); // stats, statistics: by substring
        QVERIFY(r.find(QStringLiteral("nothing like it")).empty());
    }

    void neighbourhoods()
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        LineageReader r(ws);
        const int64_t model = r.find(QStringLiteral("model"))[0].id;
        // What the model was made from: train, then its inputs, then what made those. The blessing's
        // loop back through eval to the model is walked once.
        QCOMPARE(names(r.neighbourhood(model, LineageDirection::Up, 10)),
            QStringLiteral("model:0 train:1 examples:2 blessing:2 gen:3 eval:3 raw:4"));
        QCOMPARE(names(r.neighbourhood(model, LineageDirection::Up, 2)),
            QStringLiteral("model:0 train:1 examples:2 blessing:2"));
        const int64_t examples = r.find(QStringLiteral("examples"))[0].id;
        QCOMPARE(names(r.neighbourhood(examples, LineageDirection::Down, 2)),
            QStringLiteral("examples:0 train:1 stats:1 model:2 statistics:2"));
        // Both ways from the focus, each side going its own way: not the siblings of the inputs.
        const LineageGraph both = r.neighbourhood(model, LineageDirection::Both, 2);
        QCOMPARE(names(both), QStringLiteral("model:0 train:1 push:1 eval:1 examples:2 blessing:2 pushed:2"));
        QCOMPARE(both.edges.size(), size_t(7));
        QVERIFY(!both.truncated);
        const LineageGraph capped = r.neighbourhood(model, LineageDirection::Both, 10, 3);
        QCOMPARE(capped.nodes.size(), size_t(3));
        QVERIFY(capped.truncated);
    }

    // Nodes and runs that name each other are linked; the user's links survive a relink.
    void linksToRuns()
    {
        const QString path = m_tmp.filePath(QStringLiteral("links.plumb"));
        Workspace ws(path, Workspace::Role::Writer);
        SqliteDb &db = ws.db();
        db.exec("INSERT INTO run(id, key, name, created_at_ns, path) VALUES "
                "(1, 'mlflow:/s/mlruns/0/0123456789abcdef0123456789abcdef', 'alpha', 0, "
                "'/s/mlruns/0/0123456789abcdef0123456789abcdef'), "
                "(2, 'tfevents:/logs/exp/run1', 'exp/run1', 0, '/logs/exp/run1'), "
                "(3, 'tabular:/t/x.csv', 'baseline-trainer', 0, '/t'), "
                "(4, 'source:9', 'trace', 0, NULL), "
                "(5, 'lifecycle:train_mlp', 'train_mlp', 0, '/jobs/train_mlp.lifecycle.jsonl')");
        SqliteTransaction tx(db);
        LineageSink sink(db, 1);
        LineageNode byId = artifact(QStringLiteral("model-a"), QStringLiteral("Model"));
        byId.properties = R"({"custom_properties":{"mlflow_run":"0123456789abcdef0123456789abcdef"}})";
        const int64_t a = sink.node(byId);
        LineageNode logdir = artifact(QStringLiteral("logs"));
        logdir.uri = QStringLiteral("file:///logs/exp/"); // holds run1
        const int64_t b = sink.node(logdir);
        LineageNode inside = artifact(QStringLiteral("ckpt"));
        inside.uri = QStringLiteral("/logs/exp/run1/checkpoints/last.ckpt");
        const int64_t c = sink.node(inside);
        const int64_t d = sink.node(execution(QStringLiteral("baseline-trainer")));
        const int64_t e = sink.node(execution(QStringLiteral("unrelated")));
        const auto job = [](const QString &name) {
            return context(QStringLiteral("openlineage:job/") + name, name, QStringLiteral("job"));
        };
        const int64_t f = sink.node(job(QStringLiteral("airflow://sched/train_mlp")));
        const int64_t g = sink.node(job(
            QStringLiteral("airflow://sched/nightly/train_mlp_v2"))); // no run of that name, nor of any tail
        LineageNode notJob = execution(QStringLiteral("ns/train_mlp")); // only a job's namespace is dropped
        notJob.key = QStringLiteral("mlmd:store#execution/7");
        const int64_t h = sink.node(notJob);
        db.exec("INSERT INTO lineage_link(node_id, run_id, origin) VALUES (" + std::to_string(e)
            + ", 4, 'user')");
        QCOMPARE(linkLineageToRuns(db), Q_INT64_C(5));
        tx.commit();
        auto linked = [&](int64_t node) {
            SqliteStmt st(db,
                "SELECT group_concat(run_id || ':' || origin, ' ') FROM "
                "(SELECT * FROM lineage_link WHERE node_id = ? ORDER BY run_id)");
            st.bind(1, node);
            return st.step() ? st.columnText(0) : QString();
        };
        QCOMPARE(linked(a), QStringLiteral("1:mlflow-run-id"));
        QCOMPARE(linked(b), QStringLiteral("2:uri"));
        QCOMPARE(linked(c), QStringLiteral("2:uri"));
        QCOMPARE(linked(d), QStringLiteral("3:name"));
        QCOMPARE(linked(e), QStringLiteral("4:user"));
        QCOMPARE(linked(f), QStringLiteral("5:job-name"));
        QCOMPARE(linked(g), QString());
        QCOMPARE(linked(h), QString());
        LineageReader r(ws);
        QCOMPARE(r.node(a).runIds, QList<int64_t> { 1 });
        QCOMPARE(r.counts().summary(),
            QStringLiteral("3 artifacts, 3 executions, 2 contexts, 0 edges, 6 links to runs"));
        QCOMPARE((LineageReader::Counts { 1, 1, 1, 1, 1 }).summary(),
            QStringLiteral("1 artifact, 1 execution, 1 context, 1 edge, 1 link to a run"));
    }

    // A link made by hand (the Lineage tab's "Link to Run") replaces an automatic one between the
    // same two, survives the next automatic linking, and is refused for a node or run that is not there.
    void linkByHand()
    {
        const QString path = m_tmp.filePath(QStringLiteral("byhand.plumb"));
        Workspace ws(path, Workspace::Role::Writer);
        SqliteDb &db = ws.db();
        db.exec("INSERT INTO run(id, key, name, created_at_ns) VALUES (1, 'x:1', 'trainer', 0), "
                "(2, 'x:2', 'other', 0)");
        int64_t named = 0, loose = 0;
        {
            SqliteTransaction tx(db);
            LineageSink sink(db, 1);
            named = sink.node(execution(QStringLiteral("trainer")));
            loose = sink.node(artifact(QStringLiteral("weights")));
            tx.commit();
        }
        QCOMPARE(linkLineageToRuns(db), Q_INT64_C(1));
        auto linked = [&](int64_t node) {
            SqliteStmt st(db,
                "SELECT group_concat(run_id || ':' || origin, ' ') FROM "
                "(SELECT * FROM lineage_link WHERE node_id = ? ORDER BY run_id)");
            st.bind(1, node);
            return st.step() ? st.columnText(0) : QString();
        };
        QCOMPARE(linked(named), QStringLiteral("1:name"));

        QVERIFY(linkNodeToRun(db, named, 1));
        QVERIFY(linkNodeToRun(db, loose, 2));
        QCOMPARE(linked(named), QStringLiteral("1:user"));
        QCOMPARE(linked(loose), QStringLiteral("2:user"));
        QCOMPARE(linkLineageToRuns(db), Q_INT64_C(0)); // 'name' would link node 1 again: the user's stays
        QCOMPARE(linked(named), QStringLiteral("1:user"));
        QCOMPARE(linked(loose), QStringLiteral("2:user"));

        QVERIFY(!linkNodeToRun(db, loose, 99));
        QVERIFY(!linkNodeToRun(db, 999, 1));
        QCOMPARE(db.queryInt("SELECT count(*) FROM lineage_link"), Q_INT64_C(2));
    }

    // A dataset read by three runs of one job, each making a model (one run failed), and by a run
    // of no job: the three runs fold into one node, their models into another, the rest stays.
    void foldRepeatedRuns()
    {
        LineageGraph g;
        auto add = [&](int64_t id, const char *kind, const char *type, const char *name, const char *job = "",
                       const char *state = "") {
            LineageNodeInfo n;
            n.id = id;
            n.kind = QLatin1String(kind);
            n.type = QLatin1String(type);
            n.name = QLatin1String(name);
            n.job = QLatin1String(job);
            n.state = QLatin1String(state);
            g.nodes.push_back(n);
            g.depth.push_back(id == 1 ? 0 : id < 10 ? 1 : 2);
            g.reachedFrom.push_back(id == 1 ? 0 : id < 10 ? 1 : id - 10);
            g.upstream.push_back(false);
        };
        add(1, "artifact", "dataset", "clicks");
        add(2, "execution", "job_run", "train (a)", "train", "COMPLETE");
        add(3, "execution", "job_run", "train (b)", "train", "FAIL");
        add(4, "execution", "job_run", "train (c)", "train", "COMPLETE");
        add(5, "execution", "job_run", "adhoc", "", "COMPLETE");
        add(12, "artifact", "Model", "model a");
        add(13, "artifact", "Model", "model b");
        add(14, "artifact", "Model", "model c");
        add(15, "artifact", "Report", "report");
        for (int64_t run : { 2, 3, 4, 5 })
            g.edges.push_back({ 1, run, QStringLiteral("input"), {} });
        for (int64_t run : { 2, 3, 4, 5 })
            g.edges.push_back({ run, run + 10, QStringLiteral("output"), {} });

        const LineageGraph f = collapseRepeatedRuns(g);
        QStringList nodes;
        for (const auto &n : f.nodes)
            nodes << QStringLiteral("%1:%2:%3:%4")
                         .arg(n.id)
                         .arg(n.name)
                         .arg(n.members.size())
                         .arg(n.failedMembers);
        QCOMPARE(nodes.join(QLatin1Char(' ')),
            QStringLiteral("1:clicks:1:0 2:train × 3 runs:3:1 5:adhoc:1:0 "
                           "12:Model × 3:3:0 15:report:1:0"));
        QCOMPARE(f.nodes[1].state, QStringLiteral("1 of 3 failed"));
        QStringList edges;
        for (const auto &e : f.edges)
            edges << QStringLiteral("%1>%2").arg(e.from).arg(e.to);
        QCOMPARE(edges.join(QLatin1Char(' ')), QStringLiteral("1>2 1>5 2>12 5>15"));
        QCOMPARE(f.reachedFrom, (std::vector<int64_t> { 0, 1, 1, 2, 5 }));

        // Nothing to fold: the same graph, every node standing for itself.
        g.nodes[2].job = QStringLiteral("other");
        g.nodes[3].job = QStringLiteral("third");
        const LineageGraph same = collapseRepeatedRuns(g);
        QCOMPARE(same.nodes.size(), g.nodes.size());
        QCOMPARE(same.edges.size(), g.edges.size());
    }
};

QTEST_GUILESS_MAIN(TestLineage)
#include "tst_lineage.moc"
