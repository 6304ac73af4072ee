// Golden tests of the serving importers: vLLM benchmark results and request logs (CSV, JSONL), from
// the fixtures gen_serving_fixtures.py writes beside them. A fixture, a query, the expected CSV.
#include "goldens.h"
#include "importhelpers.h"
#include "importerregistry.h"
#include "builtinimporters.h"
#include "tabular/tabularlayout.h"
#include "workspace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace plumb;

namespace {

const QString kData = QStringLiteral(PLUMB_TEST_DATA);

const char *const kRequests =
    "SELECT r.seq, r.start_ns, r.latency_ns, r.ttft_ns, r.input_tokens, r.output_tokens, r.ok, s.text AS status, "
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
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'summary-differs'"), qint64(0));
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'failed-requests'"), qint64(1));
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
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'no-start-times'"), qint64(1));
        QCOMPARE(ws.db().queryInt("SELECT count(*) FROM diagnostic WHERE code = 'array-lengths'"), qint64(0));
    }

    void vllmBroken()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("broken.json"));
        QVERIFY(writeTestFile(file, QByteArray("{\"date\": \"20240517-101500\", \"completed\": 1, \"request_throughput\": 1,\n"
                                               "\"ttfts\": [0.1, ]}")));
        const QString ws = dir.filePath(QStringLiteral("w.plumb"));
        const QString error = importIntoWorkspace(ws, { file });
        QVERIFY2(error.contains(QStringLiteral("not valid JSON")) && error.contains(QStringLiteral("at byte")), qPrintable(error));
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
};

QTEST_GUILESS_MAIN(TestServingImport)
#include "tst_servingimport.moc"
