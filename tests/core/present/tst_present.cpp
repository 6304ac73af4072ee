// SPDX-License-Identifier: GPL-3.0-or-later
// The CLI's presenters (core/present/) over a small workspace of the Chrome trace fixtures: basic.json
// (one 40 µs gemm kernel and one pageable 2.5 µs HtoD copy of 4096 bytes, in one ProfilerStep) as run 1,
// and ranks_by_name/ (the same trace as ranks 0 and 1, with a second, empty step) as run 2. The JSON
// members and text lines are checked against figures worked out from those files.

#include "analysis/tracediff.h"
#include "importhelpers.h"
#include "present/diffpresent.h"
#include "present/doctorpresent.h"
#include "present/importpresent.h"
#include "present/lspresent.h"
#include "store/traceselection.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace plumb;

namespace {

QString fixture(const QString &name)
{
    return QStringLiteral(PLUMB_SOURCE_DIR "/tests/importers/chrometrace/data/") + name;
}

// The lines of `text` that contain `what`.
QStringList linesWith(const QString &text, const QString &what)
{
    QStringList found;
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (line.contains(what))
            found << line;
    return found;
}

} // namespace

class TestPresent : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<Workspace> m_ws;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("w.plumb"));
        const QString error = importIntoWorkspace(m_path,
            { fixture(QStringLiteral("basic.json")),
                fixture(QStringLiteral("ranks_by_name/trace_rank0.json")),
                fixture(QStringLiteral("ranks_by_name/trace_rank1.json")) });
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_ws = std::make_unique<Workspace>(m_path, Workspace::Role::Reader);
    }

    void selectionEveryTrace()
    {
        const TraceSelection all = selectTraces(*m_ws, {});
        QVERIFY(all.ok());
        QCOMPARE(int(all.traces.size()), 3);
        QCOMPARE(all.traces[0].id, 1);
        QCOMPARE(all.traces[0].name, QStringLiteral("basic.json"));
        QCOMPARE(all.traces[2].id, 3);
        QCOMPARE(all.traces[1].runId, all.traces[2].runId);
        QVERIFY(all.traces[0].runId != all.traces[1].runId);
        QCOMPARE(runsOf(all.traces), (std::vector<int64_t> { all.traces[0].runId, all.traces[1].runId }));
    }

    void selectionByIds()
    {
        const TraceSelection chosen = selectTraces(*m_ws, { QStringLiteral("3"), QStringLiteral("1") });
        QVERIFY(chosen.ok());
        QCOMPARE(int(chosen.traces.size()), 2);
        QCOMPARE(chosen.traces[0].id, 3); // in the order asked for
        QCOMPARE(chosen.traces[0].name, QStringLiteral("trace_rank1.json"));
        QCOMPARE(chosen.traces[1].id, 1);
    }

    void selectionUnknownId_data()
    {
        QTest::addColumn<QString>("id");
        QTest::newRow("no such trace") << QStringLiteral("99");
        QTest::newRow("not a number") << QStringLiteral("basic.json");
        QTest::newRow("zero") << QStringLiteral("0");
    }
    void selectionUnknownId()
    {
        QFETCH(QString, id);
        const TraceSelection chosen = selectTraces(*m_ws, { QStringLiteral("1"), id });
        QVERIFY(!chosen.ok());
        QVERIFY(chosen.traces.empty());
        QCOMPARE(chosen.error, QStringLiteral("no trace %1 in %2 (plumb ls lists them)").arg(id, m_path));
    }

    void lsJsonMembers()
    {
        const QJsonObject j = lsJson(lsListing(*m_ws, false));
        QCOMPARE(j[QStringLiteral("schema")].toString(), QStringLiteral("plumb.ls/1"));
        QCOMPARE(j[QStringLiteral("workspace")].toString(), m_path);
        QVERIFY(j[QStringLiteral("workspace_schema_version")].toInt() > 0);
        QVERIFY(!j.contains(QStringLiteral("lineage"))); // no lineage imported
        QVERIFY(!j.contains(QStringLiteral("diagnostics"))); // not asked for
        const QJsonArray runs = j[QStringLiteral("runs")].toArray();
        QCOMPARE(runs.size(), 2);
        const QJsonObject basic = runs[0].toObject()[QStringLiteral("traces")].toArray()[0].toObject();
        QCOMPARE(basic[QStringLiteral("name")].toString(), QStringLiteral("basic.json"));
        QCOMPARE(basic[QStringLiteral("kernels")].toInt(), 1);
        QCOMPARE(basic[QStringLiteral("gpu_ops")].toInt(), 2);
        QCOMPARE(basic[QStringLiteral("events")].toInt(), 12);
        QCOMPARE(basic[QStringLiteral("rank")].toInt(), 0);
        QCOMPARE(basic[QStringLiteral("world_size")].toInt(), 1);
        QCOMPARE(basic[QStringLiteral("devices")].toString(), QStringLiteral("Test GPU"));
        const QJsonArray ranks = runs[1].toObject()[QStringLiteral("traces")].toArray();
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(ranks[1].toObject()[QStringLiteral("rank")].toInt(), 1);
        QVERIFY(!ranks[1].toObject().contains(QStringLiteral("world_size"))); // the files do not say
        const QJsonArray sources = j[QStringLiteral("sources")].toArray();
        QCOMPARE(sources.size(), 3);
        QCOMPARE(sources[0].toObject()[QStringLiteral("records")].toInt(), 12);
        QCOMPARE(sources[0].toObject()[QStringLiteral("format")].toString(), QStringLiteral("chrometrace"));
        QCOMPARE(sources[1].toObject()[QStringLiteral("diagnostics")].toInt(), 1);
    }

    void lsDiagnostics()
    {
        const LsListing l = lsListing(*m_ws, true);
        const QJsonArray d = lsJson(l)[QStringLiteral("diagnostics")].toArray();
        QCOMPARE(d.size(), 2); // one for each rank file
        QCOMPARE(d[0].toObject()[QStringLiteral("source_id")].toInt(), 2);
        const QString text = lsText(l);
        QVERIFY(text.contains(QStringLiteral("\ndiagnostics\n  [trace_rank0.json] ")));
    }

    void lsTextLines()
    {
        const QString text = lsText(lsListing(*m_ws, false));
        QVERIFY(text.startsWith(QStringLiteral("Workspace %1 (").arg(m_path)));
        QCOMPARE(linesWith(text, QStringLiteral("trace 1 ")),
            QStringList { QStringLiteral("  trace 1  basic.json  rank 0/1  12 events, 1 kernel, 2 GPU ops, 1 "
                                         "flow, 1 stream, 100 µs, CUDA: Test GPU") });
        QCOMPARE(linesWith(text, QStringLiteral("trace 3 ")).value(0).left(38),
            QStringLiteral("  trace 3  trace_rank1.json  rank 1  1"));
        QVERIFY(text.contains(
            QStringLiteral("\nsources\n  1  basic.json  chrometrace  1.7 KiB  ok  12 records\n")));
        QVERIFY(!text.contains(QStringLiteral("diagnostics\n")));
    }

    void doctorJsonMembers()
    {
        const TraceSelection all = selectTraces(*m_ws, {});
        const QJsonObject j = doctorJson(doctorFindings(*m_ws, all.traces, GpuOpMode::EveryOp));
        QCOMPARE(j[QStringLiteral("schema")].toString(), QStringLiteral("plumb.doctor/1"));
        QCOMPARE(j[QStringLiteral("mode")].toString(), QStringLiteral("every"));
        const QJsonArray traces = j[QStringLiteral("traces")].toArray();
        QCOMPARE(traces.size(), 3);
        const QJsonObject t = traces[0].toObject();
        QCOMPARE(t[QStringLiteral("trace")].toInt(), 1);
        QCOMPARE(t[QStringLiteral("gpu_ops")].toInt(), 2);
        QCOMPARE(t[QStringLiteral("compute_ns")].toInteger(), 40000);
        QCOMPARE(t[QStringLiteral("exposed_memory_ns")].toInteger(), 2500);
        QCOMPARE(t[QStringLiteral("total_ns")].toInteger(), 1082500 - 1030123); // first start to last end
        QCOMPARE(t[QStringLiteral("idle_ns")].toInteger(), 1082500 - 1030123 - 42500);
        QVERIFY(!t.contains(QStringLiteral("comm_overlap"))); // no communication
        QCOMPARE(t[QStringLiteral("steps")].toArray().size(), 1);
        QCOMPARE(t[QStringLiteral("steps")].toArray()[0].toObject()[QStringLiteral("step")].toInt(), 1);
        const QJsonObject copy = t[QStringLiteral("memcpy")].toArray()[0].toObject();
        QCOMPARE(copy[QStringLiteral("bytes")].toInt(), 4096);
        QCOMPARE(copy[QStringLiteral("pageable")].toBool(), true);
        const QJsonObject top = t[QStringLiteral("top_kernels")].toArray()[0].toObject();
        QCOMPARE(top[QStringLiteral("name")].toString(), QStringLiteral("gemm_kernel"));
        QCOMPARE(top[QStringLiteral("total_ns")].toInteger(), 40000);
        QCOMPARE(t[QStringLiteral("flops")].toObject()[QStringLiteral("peak_tflops_per_s")].isNull(),
            true); // no peak known for "Test GPU"
        // Run 2 has two ranks; run 1 has one and is left out.
        const QJsonArray runs = j[QStringLiteral("runs")].toArray();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].toObject()[QStringLiteral("ranks")].toArray().size(), 2);
        QCOMPARE(runs[0].toObject()[QStringLiteral("straggler_rank")].toInt(), -1);
    }

    void doctorTextLines()
    {
        const TraceSelection one = selectTraces(*m_ws, { QStringLiteral("1") });
        const QString text = doctorText(doctorFindings(*m_ws, one.traces, GpuOpMode::Hta));
        QVERIFY(text.startsWith(QStringLiteral(
            "trace 1  basic.json  (2 GPU ops, as Holistic Trace Analysis counts)\n  verdict: ")));
        QCOMPARE(linesWith(text, QStringLiteral("  copies: ")),
            QStringList {
                QStringLiteral("  copies: Memcpy HtoD (Pageable -> Device) x1, 4.0 KiB in 0.003 ms, "
                               "1.64 GB/s  <- pageable host memory: synchronous; pin it") });
        // Whole microseconds as HTA reads them: the kernel 1031..1070 (39 µs), the copy 1080..1082 (2 µs).
        QCOMPARE(linesWith(text, QStringLiteral("gemm_kernel")),
            QStringList {
                QStringLiteral("    gemm_kernel                                           1       0.039  "
                               "95.1%     39.0      39.0          -") });
        QVERIFY(!text.contains(QStringLiteral("\nrun "))); // one trace of a one-rank run: no ranks table
    }

    void doctorRanksText()
    {
        const TraceSelection ranks = selectTraces(*m_ws, { QStringLiteral("2"), QStringLiteral("3") });
        const QString text = doctorText(doctorFindings(*m_ws, ranks.traces, GpuOpMode::EveryOp));
        QCOMPARE(linesWith(text, QStringLiteral(" ranks, per step")).size(), 1);
        QVERIFY(linesWith(text, QStringLiteral(" ranks, per step"))[0].contains(QStringLiteral(": 2 ranks")));
        QVERIFY(
            text.endsWith(QStringLiteral("  no straggler: per-step computation within 5% across ranks\n")));
    }

    void diffOfATraceWithItself()
    {
        const TraceDiff d = diffTraces(*m_ws, 1, 1, GpuOpMode::EveryOp);
        const QJsonObject j = diffJson(d, GpuOpMode::LinkedOnly);
        QCOMPARE(j[QStringLiteral("schema")].toString(), QStringLiteral("plumb.diff/1"));
        QCOMPARE(j[QStringLiteral("mode")].toString(), QStringLiteral("linked"));
        QCOMPARE(j[QStringLiteral("window_delta_ns")].toDouble(), 0.0);
        QCOMPARE(j[QStringLiteral("ops")].toArray().size(), 0);
        QCOMPARE(j[QStringLiteral("per_step")].toBool(), true);
        const QString text = diffText(d);
        QCOMPARE(linesWith(text, QStringLiteral("  window ")),
            QStringList {
                QStringLiteral("  window                                  0.052         0.052         "
                               "+0.000") });
        QVERIFY(text.startsWith(QStringLiteral("baseline  trace 1  basic.json  (1 step)\n")));
    }

    void diffOfTwoTraces()
    {
        // Rank 0 has the same ops as basic.json in two steps (one empty): per step, each takes half.
        const TraceDiff d = diffTraces(*m_ws, 1, 2, GpuOpMode::EveryOp);
        const QJsonObject j = diffJson(d, GpuOpMode::EveryOp);
        QCOMPARE(j[QStringLiteral("baseline")].toObject()[QStringLiteral("steps")].toInt(), 1);
        QCOMPARE(j[QStringLiteral("compared")].toObject()[QStringLiteral("steps")].toInt(), 2);
        QCOMPARE(j[QStringLiteral("baseline")].toObject()[QStringLiteral("compute_ns")].toDouble(), 40000.0);
        QCOMPARE(j[QStringLiteral("compared")].toObject()[QStringLiteral("compute_ns")].toDouble(), 20000.0);
        const QJsonArray ops = j[QStringLiteral("ops")].toArray();
        QCOMPARE(ops.size(), 2);
        QCOMPARE(ops[0].toObject()[QStringLiteral("name")].toString(), QStringLiteral("gemm_kernel"));
        QCOMPARE(ops[0].toObject()[QStringLiteral("change")].toString(), QStringLiteral("faster"));
        QCOMPARE(ops[0].toObject()[QStringLiteral("delta_ns")].toDouble(), -20000.0);
        const QString text = diffText(d);
        QCOMPARE(linesWith(text, QStringLiteral("gemm_kernel")),
            QStringList {
                QStringLiteral("    gemm_kernel                                        faster      1 "
                               "-> 1      0.040 -> 0.020 (-0.020)") });
    }

    void importPresenters()
    {
        FileImportResult ok;
        ok.path = QStringLiteral("/data/a.json");
        ok.status = FileImportResult::Status::Imported;
        ok.format = QStringLiteral("chrometrace");
        ok.message = QStringLiteral("12 records");
        ok.sourceId = 4;
        ok.records = 12;
        ok.seconds = 0.254;
        FileImportResult bad;
        bad.path = QStringLiteral("/data/b.json");
        bad.status = FileImportResult::Status::Failed;
        bad.message = QStringLiteral("no traceEvents array");
        bad.location = QStringLiteral("byte 62");
        FileImportResult stray;
        stray.path = QStringLiteral("/data/README");
        stray.status = FileImportResult::Status::Unrecognised;
        const ImportOutcome o { QStringLiteral("/ws/w.plumb"), { ok, bad, stray } };

        QCOMPARE(importFileLine(ok), QStringLiteral("/data/a.json: imported (12 records) [0.25 s]\n"));
        QCOMPARE(importFileLine(bad, QStringLiteral("12:00:01 ")),
            QStringLiteral("12:00:01 /data/b.json: failed (no traceEvents array) at byte 62 [0.00 s]\n"));
        QVERIFY(!isImportProblem(ok));
        QVERIFY(isImportProblem(bad));
        QVERIFY(isImportProblem(stray));
        QVERIFY(importText(o).endsWith(QStringLiteral("\nworkspace: /ws/w.plumb\n")));
        QCOMPARE(importTally(o.files).bad, 1);
        QCOMPARE(importTally(o.files).unrecognised, 1);
        QVERIFY(importFailed(o.files));
        QVERIFY(!importFailed({ ok, stray })); // a stray file beside an imported one is fine
        QVERIFY(importFailed({ stray })); // nothing recognised is not

        const QJsonObject j = importJson(o);
        QCOMPARE(j[QStringLiteral("schema")].toString(), QStringLiteral("plumb.import/1"));
        QCOMPARE(j[QStringLiteral("workspace")].toString(), QStringLiteral("/ws/w.plumb"));
        const QJsonArray files = j[QStringLiteral("files")].toArray();
        QCOMPARE(files.size(), 3);
        QCOMPARE(files[0].toObject()[QStringLiteral("source_id")].toInt(), 4);
        QCOMPARE(files[0].toObject()[QStringLiteral("import_seconds")].toDouble(), 0.254);
        QVERIFY(!files[0].toObject().contains(QStringLiteral("location")));
        QCOMPARE(files[1].toObject()[QStringLiteral("status")].toString(), QStringLiteral("failed"));
        QCOMPARE(files[1].toObject()[QStringLiteral("location")].toString(), QStringLiteral("byte 62"));
        QCOMPARE(files[2].toObject()[QStringLiteral("status")].toString(), QStringLiteral("not recognised"));
        const QJsonObject live = importWatchJson(ok, QStringLiteral("12:00:01"));
        QCOMPARE(live[QStringLiteral("schema")].toString(), QStringLiteral("plumb.import-watch/1"));
        QCOMPARE(live[QStringLiteral("time")].toString(), QStringLiteral("12:00:01"));
        QCOMPARE(live[QStringLiteral("records")].toInt(), 12);
    }
};

QTEST_GUILESS_MAIN(TestPresent)
#include "tst_present.moc"
