// SPDX-License-Identifier: GPL-3.0-or-later
// Golden tests of the serving importers: vLLM benchmark results and request logs (CSV, JSONL), from
// the fixtures gen_serving_fixtures.py writes beside them. A fixture, a query, the expected CSV.
#include "builtinimporters.h"
#include "goldens.h"
#include "importhelpers.h"
#include "ingest/importerregistry.h"
#include "ingest/importrunner.h"
#include "serving/servingsink.h"
#include "store/sqlitedb.h"
#include "store/workspace.h"
#include "tabular/tabularlayout.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <vector>

using namespace plumb;

namespace {

const QString kData = QStringLiteral(PLUMB_TEST_DATA);

const char *const kRequests
    = "SELECT r.seq, r.start_ns, r.latency_ns, r.ttft_ns, r.input_tokens, r.output_tokens, r.ok, s.text AS "
      "status, "
      "m.text AS model, e.text AS endpoint, length(r.itl) / 8 AS itls FROM serving_request r "
      "LEFT JOIN serving_label s ON s.id = r.status_id LEFT JOIN serving_label m ON m.id = r.model_id "
      "LEFT JOIN serving_label e ON e.id = r.endpoint_id ORDER BY r.run_id, r.seq";

QString importOne(QTemporaryDir &dir, const QString &name)
{
    const QString ws = dir.filePath(QStringLiteral("w.plumb"));
    const QString error = importIntoWorkspace(ws, { kData + QLatin1Char('/') + name });
    if (!error.isEmpty())
        qWarning("%s", qPrintable(error));
    return error.isEmpty() ? ws : QString();
}

// A request log of `rows` rows (line i + 2 is row i) that spans several of the serving sink's
// batches: runs a, b (from row 2500) and c (from row 30000) so that runs open while batches are
// queued, models that change every 10,000 rows and a status first met in the last batch, so that
// labels are first met in later batches; every 13th TTFT empty, every 97th request a 503.
struct LogRow {
    QByteArray run, model, status;
    int64_t startNs, latencyNs, ttftNs, in, out;
};

LogRow logRow(int i)
{
    LogRow r;
    r.run = i >= 30000 ? "c" : (i >= 2500 && i % 3 == 0) ? "b" : "a";
    r.model = "m" + QByteArray::number(i / 10000);
    r.status = i >= 39000 && i % 50 == 0 ? "429" : i % 97 == 0 ? "503" : "200";
    r.startNs = 1715904000000000000LL + int64_t(i) * 1000000; // 2024-05-17T00:00:00Z + i ms
    r.latencyNs = int64_t(i % 1000) * 1000000 + 500000;
    r.ttftNs = i % 13 == 0 ? -1 : int64_t(i % 100) * 1000000;
    r.in = i % 4000;
    r.out = 1 + i % 300;
    return r;
}

QByteArray requestLog(int rows, int brokenRow = -1)
{
    QByteArray log = "timestamp_ns,run,model,latency_ms,ttft_ms,prompt_tokens,completion_tokens,status\n";
    for (int i = 0; i < rows; ++i) {
        if (i == brokenRow) {
            log += "1715904000000000000,a,m0\n";
            continue;
        }
        const LogRow r = logRow(i);
        log += QByteArray::number(r.startNs) + ',' + r.run + ',' + r.model + ','
            + QByteArray::number(i % 1000) + ".5,"
            + (r.ttftNs < 0 ? QByteArray() : QByteArray::number(i % 100)) + ',' + QByteArray::number(r.in)
            + ',' + QByteArray::number(r.out) + ',' + r.status + '\n';
    }
    return log;
}

} // namespace

class TestServingImport : public QObject {
    Q_OBJECT
private slots:
    void sniffing()
    {
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        const auto winner = [&](const QString &name) {
            const QByteArray head = [&] {
                QFile f(kData + QLatin1Char('/') + name);
                return f.open(QIODevice::ReadOnly) ? f.read(64 * 1024) : QByteArray();
            }();
            const Importer *best = nullptr;
            int bestScore = 0;
            for (const auto &i : registry.importers()) {
                const int s = i->sniff(head, name);
                if (s > bestScore) {
                    best = i.get();
                    bestScore = s;
                }
            }
            return best ? best->id() : QString();
        };
        QCOMPARE(winner(QStringLiteral("vllm_detailed.json")), QStringLiteral("vllm-bench"));
        QCOMPARE(winner(QStringLiteral("vllm_summary.json")), QStringLiteral("vllm-bench"));
        QCOMPARE(winner(QStringLiteral("requests.csv")), QStringLiteral("tabular"));
        QFile f(kData + QStringLiteral("/requests.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const TabularLayout l = TabularLayout::detect(f.readAll(), true);
        QVERIFY(l.isRequestLog());
        QCOMPARE(l.columns[size_t(l.indexOf(ColumnRole::Latency))].name, QStringLiteral("latency_ms"));
        QCOMPARE(l.columns[size_t(l.indexOf(ColumnRole::InputTokens))].name, QStringLiteral("prompt_tokens"));
        QCOMPARE(l.columns[size_t(l.indexOf(ColumnRole::Status))].name, QStringLiteral("status"));
        QCOMPARE(l.columns[size_t(l.indexOf(ColumnRole::WallTime))].name, QStringLiteral("timestamp"));
        QCOMPARE(l.problem(), QString());
    }

    void vllmDetailed()
    {
        QTemporaryDir dir;
        const QString path = importOne(dir, QStringLiteral("vllm_detailed.json"));
        QVERIFY(!path.isEmpty());
        Workspace ws(path, Workspace::Role::Reader);
        compareGolden(csvOf(ws.db(), kRequests), kData + QStringLiteral("/vllm_detailed.requests.csv"));
        if (QTest::currentTestFailed())
            return;
        compareGolden(csvOf(ws.db(), "SELECT key, value, kind FROM param ORDER BY key"),
            kData + QStringLiteral("/vllm_detailed.params.csv"));
        // The file's percentiles agree with its requests' (numpy linear interpolation on both sides).
        QCOMPARE(
            ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'summary-differs'"), qint64(0));
        QCOMPARE(
            ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'failed-requests'"), qint64(1));
        QCOMPARE(ws.db().queryInt("SELECT event_count FROM source"), qint64(6));
    }

    void vllmSummaryOnly()
    {
        QTemporaryDir dir;
        const QString path = importOne(dir, QStringLiteral("vllm_summary.json"));
        QVERIFY(!path.isEmpty());
        Workspace ws(path, Workspace::Role::Reader);
        // latencies stays in a result saved without --save-detailed: requests without start times.
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM serving_request WHERE start_ns IS NULL"), qint64(6));
        QCOMPARE(
            ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'no-start-times'"), qint64(1));
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'array-lengths'"), qint64(0));
    }

    // A benchmark result in a trial's folder (hparams.yaml) is a run of its own, not one of the
    // trial's sub-runs (those are folders: train/, validation/), and no run is filed under it.
    void vllmInTrialFolderIsNoSubRun()
    {
        QTemporaryDir dir;
        const QDir root(dir.path());
        QVERIFY(root.mkpath(QStringLiteral("trial/bench")));
        QFile hparams(root.filePath(QStringLiteral("trial/hparams.yaml")));
        QVERIFY(hparams.open(QIODevice::WriteOnly));
        hparams.write("lr: 0.001\n");
        hparams.close();
        QVERIFY(QFile::copy(kData + QStringLiteral("/vllm_summary.json"),
            root.filePath(QStringLiteral("trial/bench/vllm_summary.json"))));
        const QString path = dir.filePath(QStringLiteral("w.plumb"));
        QCOMPARE(importIntoWorkspace(path, { root.filePath(QStringLiteral("trial")) }), QString());
        Workspace ws(path, Workspace::Role::Reader);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM run"), qint64(2));
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM run WHERE parent_run_id IS NOT NULL"), qint64(0));
        SqliteStmt run(ws.db(), "SELECT path FROM run WHERE name = 'vllm_summary.json'");
        QVERIFY(run.step());
        QCOMPARE(run.columnText(0), root.filePath(QStringLiteral("trial/bench/vllm_summary.json")));
    }

    // An older vLLM's result where every request failed: numpy's NaN means, which Python writes as
    // the bare word NaN (not JSON), are read as numbers, not refused as a broken file.
    void vllmAllFailedNaN()
    {
        QTemporaryDir dir;
        const QString path = importOne(dir, QStringLiteral("vllm_all_failed.json"));
        QVERIFY(!path.isEmpty());
        Workspace ws(path, Workspace::Role::Reader);
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM serving_request WHERE NOT ok"), qint64(3));
        QCOMPARE(
            ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'failed-requests'"), qint64(1));
        QCOMPARE(
            ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'summary-differs'"), qint64(0));
        QCOMPARE(csvOf(ws.db(), "SELECT key, value, kind FROM param WHERE key LIKE 'mean_%' ORDER BY key"),
            QStringLiteral("key,value,kind\nmean_e2el_ms,nan,number\nmean_itl_ms,nan,number\nmean_ttft_ms,"
                           "nan,number\n"));
    }

    void vllmBroken()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("broken.json"));
        QVERIFY(writeTestFile(file,
            QByteArray("{\"date\": \"20240517-101500\", \"completed\": 1, \"request_throughput\": 1,\n"
                       "\"ttfts\": [0.1, ]}")));
        const QString ws = dir.filePath(QStringLiteral("w.plumb"));
        const QString error = importIntoWorkspace(ws, { file });
        QVERIFY2(
            error.contains(QStringLiteral("not valid JSON")) && error.contains(QStringLiteral("at byte")),
            qPrintable(error));
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM serving_request"), qint64(0));
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM run"), qint64(0));
    }

    void requestLogCsv()
    {
        QTemporaryDir dir;
        const QString path = importOne(dir, QStringLiteral("requests.csv"));
        QVERIFY(!path.isEmpty());
        Workspace ws(path, Workspace::Role::Reader);
        compareGolden(csvOf(ws.db(), kRequests), kData + QStringLiteral("/requests.requests.csv"));
        QCOMPARE(ws.db().queryInt("SELECT count FROM diagnostic WHERE code = 'bad-cell'"), qint64(1));
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM metric"), qint64(0));
    }

    void requestLogJsonl()
    {
        QTemporaryDir dir;
        const QString path = importOne(dir, QStringLiteral("requests.jsonl"));
        QVERIFY(!path.isEmpty());
        Workspace ws(path, Workspace::Role::Reader);
        compareGolden(csvOf(ws.db(), kRequests), kData + QStringLiteral("/requests.jsonl.requests.csv"));
    }

    // The sink's writer thread stores the same rows, in the same order and numbering, as the rows
    // of the log say: labels first met in a later batch, runs opened while batches are queued.
    void requestLogBatches()
    {
        QTemporaryDir dir;
        const int rows = 40000;
        QVERIFY(rows > 4 * int(ServingSink::kBatchRows));
        const QString file = dir.filePath(QStringLiteral("requests.csv"));
        QVERIFY(writeTestFile(file, requestLog(rows)));
        const QString ws = dir.filePath(QStringLiteral("w.plumb"));
        const QString error = importIntoWorkspace(ws, { file });
        QVERIFY2(error.isEmpty(), qPrintable(error));
        Workspace w(ws, Workspace::Role::Reader);
        std::vector<std::vector<int>> byRun(3); // file rows of runs a, b, c in order
        for (int i = 0; i < rows; ++i)
            byRun[size_t(logRow(i).run[0] - 'a')].push_back(i);
        SqliteStmt st(w.db(),
            "SELECT run.name, r.seq, r.start_ns, r.latency_ns, ifnull(r.ttft_ns, -1), r.input_tokens, "
            "r.output_tokens, r.ok, s.text, m.text FROM serving_request r JOIN run ON run.id = r.run_id "
            "LEFT JOIN serving_label s ON s.id = r.status_id LEFT JOIN serving_label m ON m.id = r.model_id "
            "ORDER BY run.name, r.seq");
        std::vector<size_t> next(3, 0);
        int seen = 0;
        while (st.step()) {
            const QByteArray run = st.columnText(0).toUtf8();
            QCOMPARE(run.size(), 1);
            const size_t k = size_t(run[0] - 'a');
            QVERIFY(k < 3 && next[k] < byRun[k].size());
            const int i = byRun[k][next[k]];
            const LogRow r = logRow(i);
            QCOMPARE(st.columnInt(1), int64_t(next[k]));
            ++next[k];
            QCOMPARE(st.columnInt(2), r.startNs);
            QCOMPARE(st.columnInt(3), r.latencyNs);
            QCOMPARE(st.columnInt(4), r.ttftNs);
            QCOMPARE(st.columnInt(5), r.in);
            QCOMPARE(st.columnInt(6), r.out);
            QCOMPARE(st.columnInt(7), int64_t(r.status == "200" ? 1 : 0));
            QCOMPARE(st.columnText(8).toUtf8(), r.status);
            QCOMPARE(st.columnText(9).toUtf8(), r.model);
            ++seen;
        }
        QCOMPARE(seen, rows);
        QCOMPARE(
            w.db().queryInt("SELECT count(*) FROM serving_label"), qint64(4 + 3)); // m0..m3; 200, 503, 429
    }

    // A broken line after several batches went to the writer: the error names the line and the
    // workspace keeps exactly what it had.
    void requestLogBrokenMidFile()
    {
        QTemporaryDir dir;
        const QString ws = dir.filePath(QStringLiteral("w.plumb"));
        const QString first = dir.filePath(QStringLiteral("first.csv"));
        QVERIFY(writeTestFile(first, requestLog(100)));
        QVERIFY(importIntoWorkspace(ws, { first }).isEmpty());
        const QString before = tableCounts(ws);
        const QString broken = dir.filePath(QStringLiteral("broken.csv"));
        QVERIFY(writeTestFile(broken, requestLog(35000, 33000)));
        const QString error = importIntoWorkspace(ws, { broken });
        QVERIFY2(
            error.contains(QStringLiteral("line 33002 ")) && error.contains(QStringLiteral("has 3 fields")),
            qPrintable(error));
        QCOMPARE(tableCounts(ws), before);
    }

    // Cancelled while the writer thread holds batches: nothing of the file stays, and it imports
    // afterwards.
    void requestLogCancelled()
    {
        QTemporaryDir dir;
        const QString ws = dir.filePath(QStringLiteral("w.plumb"));
        const QString first = dir.filePath(QStringLiteral("first.csv"));
        QVERIFY(writeTestFile(first, requestLog(100)));
        QVERIFY(importIntoWorkspace(ws, { first }).isEmpty());
        const QString before = tableCounts(ws);
        const QString big = dir.filePath(QStringLiteral("big.csv"));
        QByteArray log = requestLog(40000);
        for (int k = 0; k < 3; ++k) // 160,000 rows, run c
            log += requestLog(40000).mid(log.indexOf('\n') + 1).replace(",a,", ",c,").replace(",b,", ",c,");
        QVERIFY(writeTestFile(big, log));
        ImporterRegistry registry;
        registerBuiltinImporters(registry);
        ImportRunner runner(registry, ws);
        int calls = 0;
        runner.setProgressCallback([&](const ImportProgress &p) {
            if (p.fraction > 0.5 && ++calls == 1)
                runner.cancel();
        });
        const auto r = runner.run({ big });
        QCOMPARE(int(r[0].status), int(FileImportResult::Status::Cancelled));
        QCOMPARE(tableCounts(ws), before);
        QVERIFY(importIntoWorkspace(ws, { big }).isEmpty());
        Workspace w(ws, Workspace::Role::Reader);
        QCOMPARE(w.db().queryInt("SELECT count(*) FROM serving_request"), qint64(160000 + 100));
    }
};

QTEST_GUILESS_MAIN(TestServingImport)
#include "tst_servingimport.moc"
