// SPDX-License-Identifier: GPL-3.0-or-later
// The review report's model (core/report): templates, and the sections, figures and appendix built
// for a workspace of real traces, logs and lineage from ../shared/data.
#include "importhelpers.h"
#include "report/reportbuilder.h"
#include "report/reportoptions.h"
#include "reviewworkspace.h"
#include "store/workspace.h"

#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

class TestReport : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ws;
    QString m_skip; // why the real-data tests skip

    ReportBuild build(const ReportOptions &options)
    {
        Workspace ws(m_ws, Workspace::Role::Reader);
        return buildReport(ws, m_ws, options);
    }

private Q_SLOTS:
    void templateYaml()
    {
        ReportOptions o;
        const QString e
            = applyReportTemplateText("# our launch review\n"
                                      "title: \"Launch readiness: model #7\"  # quoted, with a hash\n"
                                      "author: Perf team\n"
                                      "sections:\n"
                                      "  - steps\n"
                                      "  - kernels   # top ops\n"
                                      "  - goodput\n"
                                      "page_size: letter\n"
                                      "theme: light\n"
                                      "dpi: 200\n"
                                      "runs: [control, test]\n",
                QStringLiteral("t.yaml"), o);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        QCOMPARE(o.title, QStringLiteral("Launch readiness: model #7"));
        QCOMPARE(o.author, QStringLiteral("Perf team"));
        QCOMPARE(o.sections,
            (QStringList { QStringLiteral("steps"), QStringLiteral("kernels"), QStringLiteral("goodput") }));
        QCOMPARE(o.pageSize, ReportOptions::PageSize::Letter);
        QCOMPARE(o.dpi, 200);
        QCOMPARE(o.runs, (QStringList { QStringLiteral("control"), QStringLiteral("test") }));
    }

    void templateJson()
    {
        ReportOptions o;
        const QString e = applyReportTemplateText(
            R"({"title": "Capacity review", "sections": ["diff", "config"], "page_size": "A4"})",
            QStringLiteral("t.json"), o);
        QVERIFY2(e.isEmpty(), qPrintable(e));
        QCOMPARE(o.title, QStringLiteral("Capacity review"));
        QCOMPARE(o.sections, (QStringList { QStringLiteral("diff"), QStringLiteral("config") }));
        QCOMPARE(o.pageSize, ReportOptions::PageSize::A4);
    }

    void templateErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << QByteArray("title: x\ncolour: red\n")
                                     << QStringLiteral("t:2:1: \"colour\" is not an option");
        QTest::newRow("page size") << QByteArray("page_size: A3\n")
                                   << QStringLiteral("t:1:1: \"page_size\" is A4 or Letter");
        QTest::newRow("dpi") << QByteArray("\n\ndpi: 5000\n")
                             << QStringLiteral("t:3:1: \"dpi\" is a number from 36 to 600");
        QTest::newRow("dark theme") << QByteArray("theme: dark\n")
                                    << QStringLiteral("t:1:1: \"theme\" is light");
        QTest::newRow("no colon") << QByteArray("sections\n")
                                  << QStringLiteral("t:1:1: expected \"key: value\"");
        QTest::newRow("stray item") << QByteArray("- steps\n")
                                    << QStringLiteral("t:1:1: a list item outside a list");
        QTest::newRow("bad json") << QByteArray("{\n\"title\": }")
                                  << QStringLiteral("t:2:1: \"title\" needs one value");
    }

    void templateErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        ReportOptions o;
        const QString e = applyReportTemplateText(text, QStringLiteral("t"), o);
        QVERIFY2(e.startsWith(message), qPrintable(e));
    }

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_ws = m_dir.filePath(QStringLiteral("review.plumb"));
        bool missing = false;
        const QString problems = importReviewWorkspace(m_ws, &missing);
        if (missing)
            m_skip = QStringLiteral("../shared/data is absent (%1): the report model is not tested")
                         .arg(problems);
        else
            QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    void everySection()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        ReportOptions o;
        o.title = QStringLiteral("Review");
        o.author = QStringLiteral("Perf team");
        o.date = QDateTime(QDate(2026, 1, 2), QTime(3, 4));
        const ReportBuild b = build(o);
        QVERIFY2(b.error.isEmpty(), qPrintable(b.error));
        const ReportModel &m = b.model;
        QCOMPARE(m.title, QStringLiteral("Review"));
        QCOMPARE(m.date, QStringLiteral("2026-01-02"));
        QCOMPARE(m.traces.size(), 5);
        QCOMPARE(m.runs.size(), 4 + 25 + 1); // 4 trace runs (the two ranks share one), 25 trials, wandb's run

        // The executive summary: a verdict row per trace, then each trace against the baseline by step
        // time, slowest first, its parts and the verdict's change.
        QCOMPARE(m.summary.id, QStringLiteral("summary"));
        QCOMPARE(m.summary.count(ReportBlock::Kind::Table), 1);
        QCOMPARE(m.summary.blocks.front().table.rows.size(), 5);
        QStringList against;
        for (const ReportBlock &blk : m.summary.blocks)
            for (const QString &item : blk.items)
                if (item.contains(QLatin1String(" against the baseline ")))
                    against << item;
        QCOMPARE(against.size(), 4);
        QVERIFY2(
            against.front().startsWith(QStringLiteral(
                "hta_sampled_rank-1.json.gz (rank 1) against the baseline hta_trace_diff_control.json.gz "
                "(rank 3): Step time 77.53 → 619.3 ms per step (12.9 → 1.61 steps/s): B is 698.8% slower. "
                "Per step, largest first: other CPU work +309.2 ms")),
            qPrintable(against.front()));
        QVERIFY2(
            against[2].contains(QStringLiteral(
                "hta_trace_diff_test.json.gz (rank 1) against the baseline hta_trace_diff_control.json.gz "
                "(rank 3): Step time 77.53 → 124.1 ms per step (12.9 → 8.06 steps/s): B is 60.1% slower.")),
            qPrintable(against[2]));
        QVERIFY2(against.back().contains(QStringLiteral("B is 39.2% faster")), qPrintable(against.back()));
        QVERIFY2(against.back().endsWith(
                     QStringLiteral("Verdict: exposed communication in A → GPU compute in B (changed).")),
            qPrintable(against.back()));

        // Sections with data, in the default order, with their figures.
        QStringList ids;
        for (const ReportSection &s : m.sections)
            ids << s.id;
        QCOMPARE(ids,
            (QStringList { QStringLiteral("steps"), QStringLiteral("idle"), QStringLiteral("kernels"),
                QStringLiteral("timeline"), QStringLiteral("ranks"), QStringLiteral("diff"),
                QStringLiteral("metrics"), QStringLiteral("config"), QStringLiteral("lineage"),
                QStringLiteral("diagnostics") }));
        QVERIFY(m.section(QStringLiteral("steps"))->countFigures(QStringLiteral("steps")) >= 3);
        QVERIFY(m.section(QStringLiteral("idle"))->countFigures(QStringLiteral("idle")) >= 1);
        QCOMPARE(m.section(QStringLiteral("kernels"))->count(ReportBlock::Kind::Table), 5);
        QCOMPARE(m.section(QStringLiteral("kernels"))->countFigures(QStringLiteral("histogram")), 5 * 4);
        QCOMPARE(m.section(QStringLiteral("timeline"))->countFigures(QStringLiteral("timeline")), 5);
        QCOMPARE(m.section(QStringLiteral("ranks"))->count(ReportBlock::Kind::Table), 1);
        QCOMPARE(m.section(QStringLiteral("diff"))->countFigures(QStringLiteral("diff")), 4);
        QCOMPARE(m.section(QStringLiteral("diff"))->countFigures(QStringLiteral("steptime-diff")), 4);
        QVERIFY(m.section(QStringLiteral("metrics"))->countFigures(QStringLiteral("scalars")) >= 1);
        QCOMPARE(m.section(QStringLiteral("lineage"))->countFigures(QStringLiteral("lineage")), 1);
        QVERIFY(m.section(QStringLiteral("diagnostics"))->count(ReportBlock::Kind::Table) >= 1);
        // 25 trials: the baseline and five others a table, five tables of differing params.
        QVERIFY(m.section(QStringLiteral("config"))->count(ReportBlock::Kind::Table) >= 5);

        // Left out, with why: the importance (hp_metric is -1 in every trial), goodput (no lifecycle log)
        // and serving (no requests).
        QCOMPARE(m.appendix.filter(QStringLiteral("Parameter importance: left out, no ranking of hp_metric"))
                     .size(),
            1);
        QCOMPARE(
            m.appendix
                .filter(QStringLiteral("Goodput breakdown: left out, no run covered has a job lifecycle log"))
                .size(),
            1);
        QCOMPARE(m.appendix
                     .filter(QStringLiteral(
                         "Serving latency and errors: left out, the workspace holds no serving requests"))
                     .size(),
            1);
    }

    void chosenSectionsAndRuns()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        ReportOptions o;
        o.runs
            = QStringList { QStringLiteral("hta_trace_diff_test"), QStringLiteral("hta_trace_diff_control") };
        o.baseline = QStringLiteral("hta_trace_diff_test");
        o.sections = QStringList { QStringLiteral("diff"), QStringLiteral("goodput"), QStringLiteral("steps"),
            QStringLiteral("metrics") };
        const ReportBuild b = build(o);
        QVERIFY2(b.error.isEmpty(), qPrintable(b.error));
        QCOMPARE(b.model.traces.size(), 2);
        QCOMPARE(b.model.sections.size(), size_t(2));
        QCOMPARE(b.model.sections[0].id, QStringLiteral("diff")); // the order asked for
        QCOMPARE(b.model.sections[1].id, QStringLiteral("steps"));
        QCOMPARE(b.model.sections[0].blocks[0].text,
            QStringLiteral(
                "hta_trace_diff_control.json.gz (rank 3) against hta_trace_diff_test.json.gz (rank 1)"));
        QCOMPARE(
            b.model.appendix
                .filter(QStringLiteral("Goodput breakdown: left out, no run covered has a job lifecycle log"))
                .size(),
            1);
        QCOMPARE(
            b.model.appendix.filter(QStringLiteral("Per-trial metrics: left out, no experiment run covered"))
                .size(),
            1);
    }

    void trialBaseline()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        // A trial as the baseline: it heads the configuration diff, and the traces keep theirs.
        ReportOptions o;
        o.baseline = QStringLiteral("version_7");
        o.sections = QStringList { QStringLiteral("config"), QStringLiteral("diff") };
        const ReportBuild b = build(o);
        QVERIFY2(b.error.isEmpty(), qPrintable(b.error));
        QCOMPARE(b.model.sections.size(), size_t(2));
        const ReportSection &config = b.model.sections[0];
        const auto table = std::find_if(config.blocks.begin(), config.blocks.end(),
            [](const ReportBlock &blk) { return blk.kind == ReportBlock::Kind::Table; });
        QVERIFY(table != config.blocks.end());
        QCOMPARE(table->table.header.value(1), QStringLiteral("version_7"));
        QVERIFY(b.model.sections[1].blocks[0].text.endsWith(
            QLatin1String("against hta_trace_diff_control.json.gz (rank 3)")));
    }

    // Without --runs, the configuration diff and the summary compare the runs that logged metrics: the
    // sample's sweep, not its serving benchmark (imported first) or its lifecycle log; named runs are
    // compared as named.
    void metricRunsCompared()
    {
        const QString samples = QStringLiteral(PLUMB_SOURCE_DIR "/resources/samples/");
        const QString path = m_dir.filePath(QStringLiteral("samples.plumb"));
        QCOMPARE(importIntoWorkspace(path,
                     { samples + QStringLiteral("sample_serving.vllm.json.gz"),
                         samples + QStringLiteral("sample_sweep"),
                         samples + QStringLiteral("sample_training_job.lifecycle.jsonl.gz") }),
            QString());
        Workspace ws(path, Workspace::Role::Reader);
        const auto configHeader = [&](const ReportOptions &o) {
            const ReportBuild b = buildReport(ws, path, o);
            const ReportSection *config = b.model.section(QStringLiteral("config"));
            if (!config)
                return QStringList();
            for (const ReportBlock &blk : config->blocks)
                if (blk.kind == ReportBlock::Kind::Table)
                    return blk.table.header;
            return QStringList();
        };
        ReportOptions o;
        o.sections = QStringList { QStringLiteral("config") };
        QCOMPARE(configHeader(o),
            (QStringList { QStringLiteral("key"), QStringLiteral("version_0"), QStringLiteral("version_1"),
                QStringLiteral("version_2"), QStringLiteral("version_3"), QStringLiteral("version_4"),
                QStringLiteral("version_5") }));
        // Every trial improved on version_0: the summary names the best on the default metric instead.
        bool best = false;
        for (const ReportBlock &blk : buildReport(ws, path, ReportOptions()).model.summary.blocks)
            best = best
                || blk.text
                    == QStringLiteral("No experiment metric got worse against the baseline run 2 "
                                      "sample_sweep/version_0; the best val_acc is 7 "
                                      "sample_sweep/version_5's: 0.836434, +0.5849 (+233%).");
        QVERIFY(best);
        o.runs = QStringList { QStringLiteral("sample_serving.vllm.json.gz"), QStringLiteral("version_2") };
        QCOMPARE(configHeader(o).size(), 3);
        QCOMPARE(configHeader(o).value(1), QStringLiteral("sample_serving.vllm.json.gz"));
    }

    void errors()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        ReportOptions o;
        o.sections = QStringList { QStringLiteral("flamegraph") };
        QVERIFY(build(o).error.startsWith(
            QLatin1String("no report section \"flamegraph\" (the sections are steps, idle")));
        o.sections.clear();
        o.runs = QStringList { QStringLiteral("no_such_run") };
        QCOMPARE(build(o).error, QStringLiteral("no run no_such_run (plumb ls lists them)"));
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
